/* kernel/mutex.c: sleeping locks (include/mutex.h), on wait queues.
 *
 * m->locked is 0 (free), 1 (held) or 2 (held, and a task may be waiting:
 * Linux's count of -1, or MUTEX_FLAG_WAITERS), changed only by atomic
 * instructions, so two CPUs may lock and unlock at once without the big
 * kernel lock (SMP step 5, docs/smp.md):
 *   mutex_trylock, the fast path  cmpxchg 0 -> 1
 *   a waiter                      on the wait queue first, then xchg 2: an
 *                                 old 0 means the mutex is its own (still 2:
 *                                 it cannot know nobody else waits)
 *   mutex_unlock, the fast path   cmpxchg 1 -> 0; it fails only if a waiter
 *                                 wrote 2, and then the slow path sets 0 and
 *                                 wakes one waiter
 * A waiter queues itself before its xchg, and the unlocker wakes after
 * its own atomic instruction, so either the waiter's xchg sees the 0, or
 * the unlocker's wake-up finds the waiter on the queue: no wake-up is lost.
 * Interrupt handlers must not use mutexes.

 * Mutex vs spinlock here: hold a mutex across anything that may sleep (disk
 * I/O, page allocation, copying from user space); a spinlock (with
 * interrupts off) only across a few instructions that an interrupt handler
 * also touches.
 *
 * Fairness: the unlocker may run on and take the mutex again before the
 * waiter it woke gets the CPU (nothing preempts it), so a task that locks
 * in a loop (a writer issuing request after request to the disk) could
 * starve the others for seconds.  A waiter woken that still finds the mutex
 * taken sets m->handoff; the next mutex_unlock then gives the mutex to the
 * first waiter instead of freeing it (Linux's MUTEX_FLAG_HANDOFF, 4.10).
 *
 * Debugging help: taking a mutex you already hold is reported (with a
 * backtrace), and then the task sleeps forever as Linux's would: mutex_lock
 * returns only with the mutex held.  Boot with deadlock=panic to stop the
 * machine at the report instead; in the test kernel, the self-deadlock of
 * the task running the ktests ends the boot (ktest_stuck(),
 * include/ktest_bug.h).  Waiting more than mutex_warn_jiffies
 * prints who holds the mutex and where that task is. */
#include <kernel.h>
#include <mutex.h>
#include <sched.h>
#include <init.h>
#include <cmdline.h>
#include <string.h>
#include <ktest_bug.h>
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
    char report[48];
    if (deadlock_panic)
        panic("%s self-deadlock (deadlock=panic)", what);
    printk(KERN_ERR "  task %d (%s) now sleeps forever in state D, as Linux's would "
           "(boot with deadlock=panic to stop here)\n", current->pid, current->comm);
    snprintf(report, sizeof report, "%s self-deadlock", what);
    ktest_stuck(report, current);      /* the test kernel: if a ktest's own task */
}

/* (mutex_init): the function, not the validator's macro (include/mutex.h). */
void (mutex_init)(struct mutex *m)
{
    m->locked = 0;
    m->owner = NULL;
    init_waitqueue_head(&m->wait);
    if (!m->name)
        m->name = "mutex";
}

int mutex_trylock(struct mutex *m)
{
    if (!__sync_bool_compare_and_swap(&m->locked, 0, 1))
        return 0;
    m->owner = current;
    mutex_acquire(m, 1);               /* after mutex_lock's own: the validator keeps one */
    return 1;
}

void mutex_lock(struct mutex *m)
{
    struct task_struct *me = current;
    might_sleep();
    mutex_acquire(m, 0);               /* the validator, if built in: before we sleep */
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
    bool woken = false;
    for (;;) {
        me->waiting_on = m;
        me->waiting_what = "mutex";
        prepare_to_wait_exclusive(&m->wait, &w, TASK_UNINTERRUPTIBLE);
        if (READ_ONCE(m->handoff_to) == me) {   /* handed over by mutex_unlock: ours */
            m->handoff_to = NULL;
            finish_wait(&m->wait, &w);
            return;
        }
        if (__sync_lock_test_and_set(&m->locked, 2) == 0)
            break;                      /* ours (xchg: locked, and a full barrier) */
        if (woken)
            m->handoff = 1;             /* woken, and someone got in first: starving */
        woken = true;
        if (left == MAX_SCHEDULE_TIMEOUT) {
            schedule();
            continue;
        }
        left = schedule_timeout(left);
        if (!left && m->locked && READ_ONCE(m->handoff_to) != me) {
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
    m->owner = me;
}

#ifdef CONFIG_LOCKDEP
/* include/mutex.h: the validator's entry for the subclass first; the one
 * mutex_lock makes then finds the lock already on the stack. */
void mutex_lock_nested(struct mutex *m, unsigned int subclass)
{
    might_sleep();
    lock_acquire(&m->dep_map, m->name, m, LD_MUTEX, subclass, 0, _RET_IP_);
    mutex_lock(m);
}
#endif

/* Unlocking a mutex that is not locked is a broken contract (BUG_ON);
 * unlocking one another task holds is reported (WARN, as Linux's mutex
 * debugging) and done. */
void mutex_unlock(struct mutex *m)
{
    struct task_struct *me = current;
    BUG_ON(!m->locked);
    mutex_release(m);
    if (m->owner != me) {
        lock_bug_reports++;
        printk(KERN_ERR "WARNING: mutex_unlock of %s (%p) by task %d (%s): owned by another task\n",
               m->name ? m->name : "?", m, me->pid, me->comm);
        show_task(me);
    }
    m->owner = NULL;
    /* Nobody waits (the common case): one cmpxchg, no wake-up walk, as
     * Linux's mutex_unlock fast path. */
    if (!m->handoff && __sync_bool_compare_and_swap(&m->locked, 1, 0))
        return;
    if (m->handoff) {
        /* A starving waiter: the first in the queue gets the mutex as it
         * is, still locked (exclusive waiters are queued in order). */
        unsigned long flags;
        spin_lock_irqsave(&m->wait.lock, flags);
        if (!list_empty(&m->wait.head)) {
            struct task_struct *first =
                list_first_entry(&m->wait.head, struct wait_queue_entry, entry)->task;
            m->handoff = 0;
            m->owner = first;
            WRITE_ONCE(m->handoff_to, first);
            m->locked = 2;
            spin_unlock_irqrestore(&m->wait.lock, flags);
            wake_up_process(first);
            return;
        }
        spin_unlock_irqrestore(&m->wait.lock, flags);
    }
    m->handoff = 0;
    if (__sync_lock_test_and_set(&m->locked, 0) == 2)
        wake_up(&m->wait);             /* one exclusive waiter */
}
