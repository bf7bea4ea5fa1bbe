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

