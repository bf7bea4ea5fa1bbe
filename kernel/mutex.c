/* kernel/mutex.c: sleeping locks (include/mutex.h), on wait queues.
 *
 * On this uniprocessor, non-preemptible kernel a task runs until it sleeps,
 * so "test locked, then set it" cannot be interleaved with another task;
 * only interrupt handlers could, and they must not use mutexes.  SMP would
 * need an atomic cmpxchg on m->locked (Linux's fast path) and m->wait.lock
 * around the slow path.
 *
 * Mutex vs spinlock here: hold a mutex across anything that may sleep (disk
 * I/O, page allocation, copying from user space); a spinlock (with
 * interrupts off) only across a few instructions that an interrupt handler
 * also touches.
 *
 * Debugging help: taking a mutex you already hold is reported (with a
 * backtrace), and then the task sleeps forever as Linux's would: mutex_lock
 * returns only with the mutex held.  Boot with deadlock=panic to stop the
 * machine at the report instead.  Waiting more than mutex_warn_jiffies
 * prints who holds the mutex and where that task is. */
#include <kernel.h>
#include <mutex.h>
#include <sched.h>
#include <init.h>
#include <cmdline.h>
#include <string.h>
#include "sched_glue.h"

unsigned long mutex_warn_jiffies = 5 * HZ;
unsigned long mutex_long_wait_reports;
bool deadlock_panic;

static void deadlock_setup(void)
{
    const char *v = cmdline_get("deadlock");
    if (v && !strcmp(v, "panic"))
        deadlock_panic = true;
    else if (v)
        printk(KERN_WARNING "deadlock=%s: unknown (only deadlock=panic); tasks stay stuck\n", v);
}
core_initcall(deadlock_setup);

void self_deadlock_stuck(const char *what)
{
    if (deadlock_panic)
        panic("%s self-deadlock (deadlock=panic)", what);
    printk(KERN_ERR "  task %d (%s) now sleeps forever in state D, as Linux's would "
           "(boot with deadlock=panic to stop here)\n", current->pid, current->comm);
}

void mutex_init(struct mutex *m)
{
    m->locked = 0;
    m->owner = NULL;
    init_waitqueue_head(&m->wait);
    if (!m->name)
        m->name = "mutex";
}

int mutex_trylock(struct mutex *m)
{
    if (m->locked)
        return 0;
    m->locked = 1;
    m->owner = current;
    return 1;
}

void mutex_lock(struct mutex *m)
{
    struct task_struct *me = current;
    if (mutex_trylock(m))
        return;
    if (m->owner == me) {
        lock_bug_reports++;
        printk(KERN_ERR "BUG: mutex self-deadlock: task %d (%s) takes mutex %s (%p) "
               "that it already holds\n", me->pid, me->comm, m->name ? m->name : "?", m);
        show_task(me);
        self_deadlock_stuck("mutex");
        /* ... and wait below, for an unlock that never comes. */
    }

    DEFINE_WAIT(w);
    long left = (long)mutex_warn_jiffies;
    for (;;) {
        me->waiting_on = m;
        me->waiting_what = "mutex";
        prepare_to_wait_exclusive(&m->wait, &w, TASK_UNINTERRUPTIBLE);
        if (!m->locked)
            break;
        if (left == MAX_SCHEDULE_TIMEOUT) {
            schedule();
            continue;
        }
        left = schedule_timeout(left);
        if (!left && m->locked) {
            struct task_struct *o = m->owner;
            mutex_long_wait_reports++;
            printk(KERN_WARNING "mutex %s (%p): task %d (%s) waiting > %lu ms; held by "
                   "task %d (%s):\n", m->name ? m->name : "?", m, me->pid, me->comm,
                   jiffies_to_msecs(mutex_warn_jiffies), o ? o->pid : -1, o ? o->comm : "?");
            if (o)
                show_task(o);
            left = MAX_SCHEDULE_TIMEOUT;       /* report once, then wait on */
        }
    }
    finish_wait(&m->wait, &w);
    m->locked = 1;
    m->owner = me;
}

/* Unlocking a mutex that is not locked is a broken contract (BUG_ON);
 * unlocking one another task holds is reported (WARN, as Linux's mutex
 * debugging) and done. */
void mutex_unlock(struct mutex *m)
{
    struct task_struct *me = current;
    BUG_ON(!m->locked);
    if (m->owner != me) {
        lock_bug_reports++;
        printk(KERN_ERR "WARNING: mutex_unlock of %s (%p) by task %d (%s): owned by another task\n",
               m->name ? m->name : "?", m, me->pid, me->comm);
        show_task(me);
    }
    m->owner = NULL;
    m->locked = 0;
    wake_up(&m->wait);                 /* one exclusive waiter */
}

/* ---- tests ------------------------------------------------------------- */
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
        KASSERT(!IS_ERR(t[i]));
    }
    for (int i = 0; i < 3; i++)
        KEXPECT_EQ(kthread_stop(t[i]), 0);
    KEXPECT_EQ(shared_counter, 150);
    KEXPECT_EQ(max_inside, 1);
    KEXPECT(!mutex_is_locked(&counter_mutex));
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
    KASSERT(!IS_ERR(t));
    for (int i = 0; i < 20 && lock_bug_reports == before; i++)
        msleep(10);
    msleep(20);                                /* it sleeps on, not returns */
    KEXPECT_EQ(lock_bug_reports, before + 1);
    KEXPECT_EQ(t->state, TASK_UNINTERRUPTIBLE);
    KEXPECT(t->waiting_on == &m);
    KEXPECT(m.locked && m.owner == t);
    /* Rescue, test only: release the mutex by hand as if the outer frame
     * had unlocked it; the stuck mutex_lock then takes it and returns. */
    m.owner = NULL;
    m.locked = 0;
    wake_up(&m.wait);
    KEXPECT_EQ(kthread_stop(t), 5);
    KEXPECT(!mutex_is_locked(&m));
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

static int __attribute__((noinline)) waiter_fn(void *p)
{
    struct mutex *m = p;
    mutex_lock(m);
    mutex_unlock(m);
    return 7;
}

KTEST(mutex, waiter_sleeps_until_unlock)
{
    DEFINE_MUTEX(m);
    struct task_struct *h = kthread_run(holder_fn, &m, "holder");
    KASSERT(!IS_ERR(h));
    yield();
    KEXPECT(m.owner == h);
    struct task_struct *w = kthread_run(waiter_fn, &m, "waiter");
    KASSERT(!IS_ERR(w));
    yield();
    KEXPECT_EQ(w->state, TASK_UNINTERRUPTIBLE);
    KEXPECT(w->waiting_on == &m);
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
    KEXPECT(n >= 3);
    KEXPECT_EQ(found, 3);
    kthread_stop(h);
    KEXPECT_EQ(kthread_stop(w), 7);
    KEXPECT(!mutex_is_locked(&m));
}

KTEST(mutex, long_wait_names_the_holder)
{
    DEFINE_MUTEX(m);
    unsigned long saved = mutex_warn_jiffies, before = mutex_long_wait_reports;
    mutex_warn_jiffies = 5;                    /* 50 ms instead of 5 s */
    struct task_struct *h = kthread_run(holder_fn, &m, "slowholder");
    KASSERT(!IS_ERR(h));
    yield();                                   /* h takes m, then sleeps in msleep */
    KEXPECT(m.owner == h);
    unsigned long t0 = jiffies;
    struct task_struct *stopper = kthread_run(stop_later_fn, h, "stopper");
    KASSERT(!IS_ERR(stopper));
    mutex_lock(&m);                            /* waits ~200 ms: one report */
    KEXPECT(jiffies - t0 >= 15);
    KEXPECT_EQ(mutex_long_wait_reports - before, 1);
    KEXPECT(m.owner == current);
    mutex_unlock(&m);
    KEXPECT_EQ(kthread_stop(stopper), 0);
    mutex_warn_jiffies = saved;
}
