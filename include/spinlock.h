/* include/spinlock.h: spinlocks.  Vellum runs on one CPU and its kernel code
 * is not preemptible (Linux's CONFIG_PREEMPT_NONE: a task in the kernel runs
 * until it sleeps or returns to user mode), so on this UP build a spinlock's
 * real work is disabling interrupts (the _irqsave forms).  The lock word is
 * still taken and checked, so that (a) the code reads as SMP code must be
 * written and (b) recursion on a held lock is reported instead of ignored.
 * Never sleep while holding a spinlock. */
#ifndef _SPINLOCK_H
#define _SPINLOCK_H
#include <kernel.h>
#include <asm/irqflags.h>

struct task_struct;
typedef struct spinlock {
    volatile unsigned int locked;
    const char *name;                  /* for reports */
    struct task_struct *owner;         /* holder, for reports */
} spinlock_t;

/* Lock bugs detected (spinlock recursion, unlocking an unlocked lock, mutex
 * self-deadlock, unlocking a mutex one does not own).  Each one is reported
 * with a backtrace and then survived: spin_lock() on a held lock returns
 * without spinning (on UP the holder could never run again), mutex_lock()
 * on a mutex the caller holds returns without taking it again.  Tests read
 * this counter. */
extern unsigned long lock_bug_reports;

#define __SPIN_LOCK_UNLOCKED(n) { 0, #n, NULL }
#define DEFINE_SPINLOCK(n) spinlock_t n = __SPIN_LOCK_UNLOCKED(n)

void spin_lock_init(spinlock_t *lock);
void spin_lock(spinlock_t *lock);
void spin_unlock(spinlock_t *lock);
int spin_trylock(spinlock_t *lock);
static inline int spin_is_locked(spinlock_t *lock) { return lock->locked; }

#define spin_lock_irqsave(lock, flags) \
    do { (flags) = local_irq_save(); spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) \
    do { spin_unlock(lock); local_irq_restore(flags); } while (0)
#define spin_lock_irq(lock)   do { local_irq_disable(); spin_lock(lock); } while (0)
#define spin_unlock_irq(lock) do { spin_unlock(lock); local_irq_enable(); } while (0)
#endif
