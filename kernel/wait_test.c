/* kernel/wait_test.c: the ktests of wait.c (test=wait); built into the test
 * kernel only (make check), never into the production kernel. */
#include <kernel.h>
#include <wait.h>
#include <sched.h>
#include <ktest.h>

#include <completion.h>
#include <err.h>
#include "sched_glue.h"

KTEST(wait, wait_event_timeout_returns_zero_on_timeout)
{
    DECLARE_WAIT_QUEUE_HEAD(wq);
    volatile int cond = 0;
    unsigned long t0 = jiffies;
    long r = wait_event_timeout(wq, cond, 3);
    KT_EXPECT_EQ(r, 0);
    KT_EXPECT(jiffies - t0 >= 3);
    KT_EXPECT(!waitqueue_active(&wq));           /* finish_wait took us off */
    cond = 1;
    r = wait_event_timeout(wq, cond, 3);
    KT_EXPECT(r >= 1);                           /* true at once: time left */
}

struct waker_arg { wait_queue_head_t *wq; volatile int *cond; int delay_ms; };
static int waker_fn(void *p)
{
    struct waker_arg *a = p;
    msleep(a->delay_ms);
    *a->cond = 1;
    wake_up(a->wq);
    return 0;
}

KTEST(wait, wait_event_timeout_woken_early_returns_time_left)
{
    DECLARE_WAIT_QUEUE_HEAD(wq);
    volatile int cond = 0;
    struct waker_arg a = { &wq, &cond, 20 };
    struct task_struct *t = kthread_run(waker_fn, &a, "waker");
    KT_ASSERT(!IS_ERR(t));
    long r = wait_event_timeout(wq, cond, 100);
    KT_EXPECT(cond == 1);
    KT_EXPECT(r > 0 && r < 100);
    kthread_stop(t);
}

static volatile int excl_woken;
static int excl_waiter_fn(void *p)
{
    wait_queue_head_t *wq = p;
    DEFINE_WAIT(w);
    prepare_to_wait_exclusive(wq, &w, TASK_UNINTERRUPTIBLE);
    schedule();
    finish_wait(wq, &w);
    excl_woken++;
    return 0;
}

KTEST(wait, wake_up_wakes_one_exclusive_waiter)
{
    DECLARE_WAIT_QUEUE_HEAD(wq);
    excl_woken = 0;
    struct task_struct *a = kthread_run(excl_waiter_fn, &wq, "excl1");
    struct task_struct *b = kthread_run(excl_waiter_fn, &wq, "excl2");
    KT_ASSERT(!IS_ERR(a) && !IS_ERR(b));
    yield();                                   /* both queue up and sleep */
    KT_EXPECT_EQ(a->state, TASK_UNINTERRUPTIBLE);
    KT_EXPECT_EQ(b->state, TASK_UNINTERRUPTIBLE);
    wake_up(&wq);
    yield();
    KT_EXPECT_EQ(excl_woken, 1);
    wake_up_all(&wq);
    yield();
    KT_EXPECT_EQ(excl_woken, 2);
    kthread_stop(a);
    kthread_stop(b);
}

static int completer_fn(void *p)
{
    msleep(30);                                /* the timer drives us */
    complete(p);
    return 0;
}

KTEST(wait, completion_from_timer_driven_thread)
{
    struct completion c;
    init_completion(&c);
    unsigned long t0 = jiffies;
    struct task_struct *t = kthread_run(completer_fn, &c, "completer");
    KT_ASSERT(!IS_ERR(t));
    wait_for_completion(&c);
    KT_EXPECT(jiffies - t0 >= 3);
    KT_EXPECT_EQ(c.done, 0);                     /* our wait consumed the one event */
    kthread_stop(t);
    complete(&c);
    complete(&c);
    wait_for_completion(&c);                   /* does not sleep: done == 2 */
    KT_EXPECT_EQ(c.done, 1);
}

/* (Recursion on a held spinlock is a BUG that stops the machine: no ktest
 * can survive it; oops=spinlock and tools/tests/oops.sh test it.) */
KTEST(wait, spinlock_double_unlock_is_reported)
{
    DEFINE_SPINLOCK(l);
    unsigned long before = lock_bug_reports, flags;
    spin_lock_irqsave(&l, flags);
    KT_EXPECT(spin_is_locked(&l));
    KT_EXPECT(l.owner == current);
    KT_EXPECT(!spin_trylock(&l));
    spin_unlock_irqrestore(&l, flags);
    KT_EXPECT(!spin_is_locked(&l));
    spin_unlock(&l);                           /* unlocking an unlocked lock */
    KT_EXPECT_EQ(lock_bug_reports, before + 1);
}
