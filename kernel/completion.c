/* kernel/completion.c: completions (include/completion.h), as Linux's.
 * A counter of "done" events plus a wait queue.  complete() may run in an
 * interrupt handler (the disk's), so `done` is changed with interrupts off. */
#include <kernel.h>
#include <completion.h>
#include <sched.h>

void init_completion(struct completion *c)
{
    c->done = 0;
    init_waitqueue_head(&c->wait);
}

void complete(struct completion *c)
{
    unsigned long flags;
    spin_lock_irqsave(&c->wait.lock, flags);
    if (c->done != ~0u)
        c->done++;
    spin_unlock_irqrestore(&c->wait.lock, flags);
    wake_up(&c->wait);
}

void wait_for_completion(struct completion *c)
{
    unsigned long flags;
    current->waiting_on = c;
    current->waiting_what = "completion";
    for (;;) {
        wait_event(c->wait, READ_ONCE(c->done));
        spin_lock_irqsave(&c->wait.lock, flags);
        if (c->done) {                 /* consume one event */
            if (c->done != ~0u)
                c->done--;
            spin_unlock_irqrestore(&c->wait.lock, flags);
            return;
        }
        spin_unlock_irqrestore(&c->wait.lock, flags);
    }
}
