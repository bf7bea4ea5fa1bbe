/* kernel/spinlock.c: spinlock_t (see include/spinlock.h) on the ticket lock
 * (include/asm/spinlock.h).  spin_lock takes a ticket; if it is not served
 * at once, the lock is held, and if this very CPU holds it (its owner is
 * current here), or if this is the only CPU online, the holder can never
 * run again to release it (e.g. an interrupt handler taking a lock that the
 * code it interrupted holds without _irqsave): instead of spinning forever
 * the "BUG: spinlock recursion" report names the lock and its owner, with
 * a backtrace, and BUG() stops the machine.  Otherwise another CPU holds
 * it, and we wait our turn.  Unlocking an unlocked lock is reported the
 * same way and survived. */
#include <kernel.h>
#include <spinlock.h>
#include <sched.h>
#include <smp.h>

unsigned long lock_bug_reports;

/* (spin_lock_init): the name in parentheses is the function, not the
 * validator's macro of the same name (include/spinlock.h). */
void (spin_lock_init)(spinlock_t *lock)
{
    lock->raw = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
    lock->owner = NULL;
    lock->owner_cpu = -1;
    if (!lock->name)
        lock->name = "spinlock";
}

/* The report's first line (Linux's spin_bug): what, the lock, who. */
static void spin_bug(spinlock_t *lock, const char *what)
{
    struct task_struct *me = current;
    lock_bug_reports++;
    printk(KERN_ERR "BUG: spinlock %s on %s (%p), cpu %d, task %d (%s), owner %s\n",
           what, lock->name ? lock->name : "?", lock, smp_processor_id(), me->pid, me->comm,
           lock->owner ? lock->owner->comm : "none");
}

/* The reports and the wait are out of line, so that the fast paths below
 * stay a handful of instructions (every page-cache lookup takes a lock). */

/* Ticket t was not served at once.  Recursion on a held lock: its holder
 * is the very path that wants it again and can never release it, so a BUG
 * (its panic prints the backtrace).  Else another CPU holds it: our turn
 * comes after the tickets before ours. */
static void __noipa spin_lock_contended(spinlock_t *lock, uint16_t t)
{
    if (num_online_cpus() == 1 ||
        (lock->owner == current && lock->owner_cpu == smp_processor_id())) {
        spin_bug(lock, "recursion");
        BUG();
    }
    arch_spin_wait(&lock->raw, t);
}

static inline void spin_lock_raw(spinlock_t *lock)
{
    uint16_t t = arch_spin_take_ticket(&lock->raw);
    if (lock->raw.tickets.head != t)
        spin_lock_contended(lock, t);
    lock->owner = current;
    lock->owner_cpu = smp_processor_id();
}

void spin_lock(spinlock_t *lock)
{
    spin_acquire(lock, 0);             /* the validator, if built in: before we spin */
    spin_lock_raw(lock);
}

#ifdef CONFIG_LOCKDEP
void spin_lock_nested(spinlock_t *lock, unsigned int subclass)
{
    lock_acquire(&lock->dep_map, lock->name, lock, LD_SPIN, subclass, 0, _RET_IP_);
    spin_lock_raw(lock);
}
#endif

int spin_trylock(spinlock_t *lock)
{
    if (!arch_spin_trylock(&lock->raw))
        return 0;
    lock->owner = current;
    lock->owner_cpu = smp_processor_id();
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
    if (!arch_spin_is_locked(&lock->raw)) {
        spin_unlock_unheld(lock);
        return;
    }
    spin_release(lock);
    lock->owner = NULL;
    lock->owner_cpu = -1;
    arch_spin_unlock(&lock->raw);      /* a compiler barrier: the stores above first */
}
