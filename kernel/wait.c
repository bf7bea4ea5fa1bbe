/* kernel/wait.c: wait queues (include/wait.h), as Linux's kernel/sched/wait.c.
 * Sits on the scheduler; used by mutexes, completions, the page lock, the
 * disk driver.  The queue's spinlock is taken with interrupts off, because
 * interrupt handlers call wake_up().
 *
 * The protocol that makes sleeping race-free:
 *
 *   waiter                                   waker
 *   prepare_to_wait(): on queue,             cond = true
 *       state = TASK_UNINTERRUPTIBLE         wake_up(): every waiter's
 *   if (cond) break;  <-- re-check               state = TASK_RUNNING
 *   schedule()  <-- does not sleep if a
 *       wake_up came after prepare_to_wait
 *   finish_wait(): state = RUNNING, off queue
 *
 * Entries stay on the queue after a wake-up until finish_wait() (no
 * autoremove); a woken task loops and re-checks its condition. */
#include <kernel.h>
#include <wait.h>
#include <sched.h>

void init_waitqueue_head(wait_queue_head_t *wq)
{
    spin_lock_init(&wq->lock);
    wq->lock.name = "wait_queue_head";
    INIT_LIST_HEAD(&wq->head);
}

static void __prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *w,
                              long state, int exclusive)
{
    unsigned long flags;
    spin_lock_irqsave(&wq->lock, flags);
    if (list_empty(&w->entry)) {
        w->task = current;
        if (exclusive) {
            w->flags |= WQ_FLAG_EXCLUSIVE;
            list_add_tail(&w->entry, &wq->head);   /* exclusive waiters last */
        } else {
            w->flags &= ~WQ_FLAG_EXCLUSIVE;
            list_add(&w->entry, &wq->head);
        }
    }
    set_current_state(state);
    if (!current->waiting_what) {      /* mutexes etc. name themselves */
        current->waiting_on = wq;
        current->waiting_what = "wait queue";
    }
    spin_unlock_irqrestore(&wq->lock, flags);
}

void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *w, long state)
{
    __prepare_to_wait(wq, w, state, 0);
}

void prepare_to_wait_exclusive(wait_queue_head_t *wq, struct wait_queue_entry *w, long state)
{
    __prepare_to_wait(wq, w, state, 1);
}

void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *w)
{
    unsigned long flags;
    set_current_state(TASK_RUNNING);
    current->waiting_on = NULL;
    current->waiting_what = NULL;
    if (!list_empty(&w->entry)) {
        spin_lock_irqsave(&wq->lock, flags);
        list_del_init(&w->entry);
        spin_unlock_irqrestore(&wq->lock, flags);
    }
}

/* Wake the non-exclusive waiters and up to nr_exclusive exclusive ones
 * (0 = all).  Counts only tasks actually woken, as Linux's __wake_up_common. */
static void __wake_up(wait_queue_head_t *wq, int nr_exclusive)
{
    unsigned long flags;
    struct wait_queue_entry *w;
    spin_lock_irqsave(&wq->lock, flags);
    list_for_each_entry(w, &wq->head, entry) {
        int woken = wake_up_process(w->task);
        if (woken && (w->flags & WQ_FLAG_EXCLUSIVE) && !--nr_exclusive)
            break;
    }
    spin_unlock_irqrestore(&wq->lock, flags);
}

void wake_up(wait_queue_head_t *wq)     { __wake_up(wq, 1); }
void wake_up_all(wait_queue_head_t *wq) { __wake_up(wq, 0); }

int waitqueue_active(wait_queue_head_t *wq)
{
    return !list_empty(&wq->head);
}

/* ---- tests ------------------------------------------------------------- */
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
    KEXPECT_EQ(r, 0);
    KEXPECT(jiffies - t0 >= 3);
    KEXPECT(!waitqueue_active(&wq));           /* finish_wait took us off */
    cond = 1;
    r = wait_event_timeout(wq, cond, 3);
    KEXPECT(r >= 1);                           /* true at once: time left */
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
    KASSERT(!IS_ERR(t));
    long r = wait_event_timeout(wq, cond, 100);
    KEXPECT(cond == 1);
    KEXPECT(r > 0 && r < 100);
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
    KASSERT(!IS_ERR(a) && !IS_ERR(b));
    yield();                                   /* both queue up and sleep */
    KEXPECT_EQ(a->state, TASK_UNINTERRUPTIBLE);
    KEXPECT_EQ(b->state, TASK_UNINTERRUPTIBLE);
    wake_up(&wq);
    yield();
    KEXPECT_EQ(excl_woken, 1);
    wake_up_all(&wq);
    yield();
    KEXPECT_EQ(excl_woken, 2);
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
    KASSERT(!IS_ERR(t));
    wait_for_completion(&c);
    KEXPECT(jiffies - t0 >= 3);
    KEXPECT_EQ(c.done, 0);                     /* our wait consumed the one event */
    kthread_stop(t);
    complete(&c);
    complete(&c);
    wait_for_completion(&c);                   /* does not sleep: done == 2 */
    KEXPECT_EQ(c.done, 1);
}

KTEST(wait, spinlock_recursion_is_reported_not_hung)
{
    DEFINE_SPINLOCK(l);
    unsigned long before = lock_bug_reports, flags;
    spin_lock_irqsave(&l, flags);
    KEXPECT(spin_is_locked(&l));
    KEXPECT(l.owner == current);
    KEXPECT(!spin_trylock(&l));
    spin_lock(&l);                             /* recursion: reported, returns */
    KEXPECT_EQ(lock_bug_reports, before + 1);
    spin_unlock_irqrestore(&l, flags);
    KEXPECT(!spin_is_locked(&l));
    spin_unlock(&l);                           /* unlocking an unlocked lock */
    KEXPECT_EQ(lock_bug_reports, before + 2);
}
