/* kernel/spinlock.c: spinlocks for a uniprocessor, non-preemptible kernel
 * (see include/spinlock.h).  The lock word is taken with an atomic xchg as
 * SMP code must; on one CPU finding it already taken can only mean this
 * CPU holds it (a recursion bug, e.g. an interrupt handler taking a lock
 * that the code it interrupted holds without _irqsave): the holder can
 * never run again to release it, so instead of spinning forever the
 * "BUG: spinlock recursion" report names the lock and its owner, with a
 * backtrace, and BUG() stops the machine.  Unlocking an unlocked lock is
 * reported the same way and survived. */
#include <kernel.h>
#include <spinlock.h>
#include <sched.h>
#include <asm/cmpxchg.h>

unsigned long lock_bug_reports;

/* (spin_lock_init): the name in parentheses is the function, not the
 * validator's macro of the same name (include/spinlock.h). */
void (spin_lock_init)(spinlock_t *lock)
{
    lock->locked = 0;
    lock->owner = NULL;
    if (!lock->name)
        lock->name = "spinlock";
}

/* The report's first line (Linux's spin_bug): what, the lock, who. */
static void spin_bug(spinlock_t *lock, const char *what)
{
    struct task_struct *me = current;
    lock_bug_reports++;
    printk(KERN_ERR "BUG: spinlock %s on %s (%p), cpu 0, task %d (%s), owner %s\n",
           what, lock->name ? lock->name : "?", lock, me->pid, me->comm,
           lock->owner ? lock->owner->comm : "none");
}

/* The two reports are out of line, so that the fast paths below stay a
 * handful of instructions with no stack frame (every page-cache lookup
 * takes a lock). */

/* Recursion on a held lock: on one CPU its holder is the very path that
 * wants it again and can never release it, so a BUG (its panic prints the
 * backtrace). */
static void __noipa spin_lock_recursion(spinlock_t *lock)
{
    spin_bug(lock, "recursion");
    BUG();
}

void spin_lock(spinlock_t *lock)
{
    spin_acquire(lock, 0);             /* the validator, if built in: before we spin */
    /* SMP: while (xchg(&lock->locked, 1)) cpu_relax(); */
    if (xchg(&lock->locked, 1)) {
        spin_lock_recursion(lock);     /* UP: the holder cannot release it */
        return;                        /* never: a tail jump (__noipa) */
    }
    lock->owner = current;
}

int spin_trylock(spinlock_t *lock)
{
    if (xchg(&lock->locked, 1))
        return 0;
    lock->owner = current;
    spin_acquire(lock, 1);
    return 1;
}

/* Unlocking a lock nobody holds: a caller's bug, but survivable (nothing
 * is left held), so a warning with the backtrace and on (Linux: spin_bug,
 * then on). */
static void __attribute__((noinline)) spin_unlock_unheld(spinlock_t *lock)
{
    spin_bug(lock, "already unlocked");
    show_task(current);
}

void spin_unlock(spinlock_t *lock)
{
    if (!lock->locked) {
        spin_unlock_unheld(lock);
        return;
    }
    spin_release(lock);
    lock->owner = NULL;
    barrier();
    lock->locked = 0;
}
