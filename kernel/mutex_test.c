/* kernel/mutex_test.c: the ktests of mutex.c (test=mutex); built into the
 * test kernel only (make check), never into the production kernel. */
#include <kernel.h>
#include <mutex.h>
#include <sched.h>
#include <init.h>
#include <cmdline.h>
#include <string.h>
#include "sched_glue.h"
#include <ktest.h>

#include <err.h>
#include <string.h>
#include <ksyms.h>

static DEFINE_MUTEX(counter_mutex);
static volatile int shared_counter;
static volatile int max_inside, inside;

static int incrementer_fn(void *arg)
{
    for (int i = 0; i < 50; i++) {
        mutex_lock(&counter_mutex);
        inside++;
        if (inside > max_inside)
            max_inside = inside;
        int v = shared_counter;
        yield();                               /* let the others try to get in */
        shared_counter = v + 1;
        inside--;
        mutex_unlock(&counter_mutex);
        yield();
    }
    return 0;
}

KTEST(mutex, contention_keeps_count_exact)
{
    shared_counter = 0;
    max_inside = inside = 0;
    struct task_struct *t[3];
    for (int i = 0; i < 3; i++) {
        t[i] = kthread_run(incrementer_fn, NULL, "incr");
        KT_ASSERT(!IS_ERR(t[i]));
    }
    for (int i = 0; i < 3; i++)
        KT_EXPECT_EQ(kthread_stop(t[i]), 0);
    KT_EXPECT_EQ(shared_counter, 150);
    KT_EXPECT_EQ(max_inside, 1);
    KT_EXPECT(!mutex_is_locked(&counter_mutex));
}

/* A task that takes a mutex twice: reported, then stuck in state D. */
static int twice_fn(void *p)
{
    struct mutex *m = p;
    mutex_lock(m);
    mutex_lock(m);                             /* reported; sleeps */
    mutex_unlock(m);                           /* after the test's rescue */
    return 5;
}

KTEST(mutex, self_deadlock_is_reported_and_stays_stuck)
{
    DEFINE_MUTEX(m);
    unsigned long before = lock_bug_reports;
    struct task_struct *t = kthread_run(twice_fn, &m, "twice");
    KT_ASSERT(!IS_ERR(t));
    for (int i = 0; i < 20 && lock_bug_reports == before; i++)
        msleep(10);
    msleep(20);                                /* it sleeps on, not returns */
    KT_EXPECT_EQ(lock_bug_reports, before + 1);
    KT_EXPECT_EQ(t->state, TASK_UNINTERRUPTIBLE);
    KT_EXPECT(t->waiting_on == &m);
    KT_EXPECT(m.locked && m.owner == t);
    /* Rescue, test only: release the mutex by hand as if the outer frame
     * had unlocked it; the stuck mutex_lock then takes it and returns. */
    m.owner = NULL;
    m.locked = 0;
    wake_up(&m.wait);
    KT_EXPECT_EQ(kthread_stop(t), 5);
    KT_EXPECT(!mutex_is_locked(&m));
}

static int holder_fn(void *p)
{
    struct mutex *m = p;
    mutex_lock(m);
    while (!kthread_should_stop())
        msleep(10);
    mutex_unlock(m);
    return 0;
}

/* Stops the holder after 200 ms (kthread_stop waits for it to exit). */
static int stop_later_fn(void *p)
{
    msleep(200);
    kthread_stop(p);
    return 0;
}

/* On the test's CPU (the boot CPU): when it sleeps, that CPU switches to
 * the test, which then reads the waiter's stack.  On a CPU of its own it
 * could sleep inside schedule() as that CPU's current task, its stack
 * still live (a CPU with nothing else to run idles there). */
static int __attribute__((noinline)) waiter_fn(void *p)
{
    struct mutex *m = p;
    set_cpus_allowed(current, 1ul << 0);
    mutex_lock(m);
    mutex_unlock(m);
    return 7;
}

KTEST(mutex, waiter_sleeps_until_unlock)
{
    DEFINE_MUTEX(m);
    struct task_struct *h = kthread_run(holder_fn, &m, "holder");
    KT_ASSERT(!IS_ERR(h));
    yield();
    KT_EXPECT(m.owner == h);
    struct task_struct *w = kthread_run(waiter_fn, &m, "waiter");
    KT_ASSERT(!IS_ERR(w));
    yield();
    /* On several CPUs the waiter may still be switching away (its state
     * set, its stack in use): wait for it to be off the CPU. */
    for (int i = 0; i < 100 && (w->state != TASK_UNINTERRUPTIBLE || READ_ONCE(w->on_cpu)); i++)
        msleep(1);
    KT_EXPECT_EQ(w->state, TASK_UNINTERRUPTIBLE);
    KT_EXPECT(w->waiting_on == &m);
    show_task(w);                              /* "waiting on mutex ..." */
    /* The sleeping waiter's backtrace, from its saved frame pointer, goes
     * through schedule_timeout() and mutex_lock() into waiter_fn(). */
    unsigned long trace[STACK_TRACE_DEPTH];
    int n = task_backtrace(w, trace, STACK_TRACE_DEPTH), found = 0;
    for (int i = 0; i < n; i++) {
        const char *name = ksym_lookup(trace[i] - 1, NULL, NULL);
        if (name && !strcmp(name, "mutex_lock"))
            found |= 1;
        if (name && !strcmp(name, "waiter_fn"))
            found |= 2;
    }
    KT_EXPECT(n >= 3);
    KT_EXPECT_EQ(found, 3);
    kthread_stop(h);
    KT_EXPECT_EQ(kthread_stop(w), 7);
    KT_EXPECT(!mutex_is_locked(&m));
}

KTEST(mutex, long_wait_names_the_holder)
{
    DEFINE_MUTEX(m);
    unsigned long saved = mutex_warn_jiffies, before = mutex_long_wait_reports;
    mutex_warn_jiffies = 5;                    /* 50 ms instead of 5 s */
    struct task_struct *h = kthread_run(holder_fn, &m, "slowholder");
    KT_ASSERT(!IS_ERR(h));
    yield();                                   /* h takes m, then sleeps in msleep */
    KT_EXPECT(m.owner == h);
    unsigned long t0 = jiffies;
    struct task_struct *stopper = kthread_run(stop_later_fn, h, "stopper");
    KT_ASSERT(!IS_ERR(stopper));
    mutex_lock(&m);                            /* waits ~200 ms: one report */
    KT_EXPECT(jiffies - t0 >= 15);
    KT_EXPECT_EQ(mutex_long_wait_reports - before, 1);
    KT_EXPECT(m.owner == current);
    mutex_unlock(&m);
    KT_EXPECT_EQ(kthread_stop(stopper), 0);
    mutex_warn_jiffies = saved;
}

/* Starvation: a task that unlocks and locks again at once (it runs on,
 * nothing preempts it) must let a waiter in: the waiter, woken and beaten
 * to it once, asks for a handoff, and the next unlock gives it the mutex. */
static DEFINE_MUTEX(hog_mutex);
static volatile int waiter_got_it;

static int relocker_fn(void *arg)
{
    int rounds = 0;
    mutex_lock(&hog_mutex);
    while (!waiter_got_it && rounds < 1000) {
        msleep(1);                             /* "the disk": the waiter runs, finds it taken */
        mutex_unlock(&hog_mutex);
        mutex_lock(&hog_mutex);                /* at once, before the woken waiter runs */
        rounds++;
    }
    mutex_unlock(&hog_mutex);
    return rounds;
}

static int starving_fn(void *arg)
{
    mutex_lock(&hog_mutex);
    waiter_got_it = 1;
    mutex_unlock(&hog_mutex);
    return 0;
}

KTEST(mutex, unlock_hands_over_to_a_starving_waiter)
{
    waiter_got_it = 0;
    struct task_struct *r = kthread_run(relocker_fn, NULL, "relocker");
    KT_ASSERT(!IS_ERR(r));
    yield();                                   /* r holds the mutex */
    struct task_struct *w = kthread_run(starving_fn, NULL, "starving");
    KT_ASSERT(!IS_ERR(w));
    int rounds = kthread_stop(r);
    KT_EXPECT_EQ(kthread_stop(w), 0);
    KT_EXPECT(waiter_got_it);
    KT_EXPECT(rounds <= 3);                    /* beaten once, then handed the mutex */
    KT_EXPECT(!mutex_is_locked(&hog_mutex));
    KT_EXPECT(hog_mutex.handoff == 0 && hog_mutex.handoff_to == NULL);
}
