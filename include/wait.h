/* include/wait.h: wait queues, as Linux's <linux/wait.h>.
 *
 * A task that must wait for a condition puts a wait_queue_entry on a
 * wait_queue_head, sets its state to TASK_UNINTERRUPTIBLE (or _INTERRUPTIBLE),
 * re-checks the condition, and calls schedule().  Whoever makes the condition
 * true calls wake_up() on the head.  The wait_event() macros package that
 * loop; use them unless you need the pieces.
 *
 *   DEFINE_WAIT(w);
 *   for (;;) {
 *       prepare_to_wait(&wq, &w, TASK_UNINTERRUPTIBLE);
 *       if (condition) break;
 *       schedule();
 *   }
 *   finish_wait(&wq, &w);
 */
#ifndef _WAIT_H
#define _WAIT_H
#include <kernel.h>
#include <list.h>
#include <spinlock.h>

struct task_struct;

typedef struct wait_queue_head {
    spinlock_t lock;
    struct list_head head;
} wait_queue_head_t;

struct wait_queue_entry {
    struct task_struct *task;
    unsigned int flags;                /* WQ_FLAG_EXCLUSIVE: wake_up wakes one such */
    struct list_head entry;
};
#define WQ_FLAG_EXCLUSIVE 0x01

#define __WAIT_QUEUE_HEAD_INITIALIZER(n) { __SPIN_LOCK_UNLOCKED(n.lock), LIST_HEAD_INIT(n.head) }
#define DECLARE_WAIT_QUEUE_HEAD(n) wait_queue_head_t n = __WAIT_QUEUE_HEAD_INITIALIZER(n)
#define DEFINE_WAIT(n) struct wait_queue_entry n = { current, 0, LIST_HEAD_INIT(n.entry) }

void init_waitqueue_head(wait_queue_head_t *wq);
void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *w, long state);
void prepare_to_wait_exclusive(wait_queue_head_t *wq, struct wait_queue_entry *w, long state);
void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *w);
void wake_up(wait_queue_head_t *wq);       /* all non-exclusive waiters and one exclusive */
void wake_up_all(wait_queue_head_t *wq);
/* Any waiter queued?  Lets a waker skip the wake-up walk (and its lock). */
static inline int waitqueue_active(wait_queue_head_t *wq) { return !list_empty(&wq->head); }

/* Sleep until cond is true (uninterruptible). */
#define wait_event(wq, cond) do {                                   \
        DEFINE_WAIT(__w);                                           \
        for (;;) {                                                  \
            prepare_to_wait(&(wq), &__w, TASK_UNINTERRUPTIBLE);     \
            if (cond) break;                                        \
            schedule();                                             \
        }                                                           \
        finish_wait(&(wq), &__w);                                   \
    } while (0)

/* The timed wait both below share: sleep in state until cond is true or
 * timeout jiffies passed (Linux's ___wait_event). */
#define __wait_event_timeout(wq, cond, timeout, state) ({           \
        long __t = (timeout);                                       \
        DEFINE_WAIT(__w);                                           \
        for (;;) {                                                  \
            prepare_to_wait(&(wq), &__w, state);                    \
            if (cond) { if (!__t) __t = 1; break; }                 \
            if (!__t) break;                                        \
            __t = schedule_timeout(__t);                            \
        }                                                           \
        finish_wait(&(wq), &__w);                                   \
        __t; })

/* Sleep until cond is true or timeout jiffies passed.  Returns 0 on timeout
 * (cond still false), else the jiffies left (at least 1). */
#define wait_event_timeout(wq, cond, timeout) \
        __wait_event_timeout(wq, cond, timeout, TASK_UNINTERRUPTIBLE)

/* wait_event_timeout for a kernel thread's idle wait (its next pass, its
 * next piece of work): the same, but sleeping TASK_INTERRUPTIBLE, so that
 * the thread is not counted in the load average (uninterruptible sleepers
 * are: they wait for the disk) and ps shows it S, not D.  Linux's
 * wait_event_idle_timeout (TASK_IDLE).  Kernel threads only: they get no
 * signals, so nothing but cond, a wake_up or the timeout ends the sleep. */
#define wait_event_idle_timeout(wq, cond, timeout) \
        __wait_event_timeout(wq, cond, timeout, TASK_INTERRUPTIBLE)
#endif
