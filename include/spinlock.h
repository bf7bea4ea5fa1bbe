/* include/spinlock.h: spinlocks.  Vellum's kernel code is not preemptible
 * (Linux's CONFIG_PREEMPT_NONE: a task in the kernel runs until it sleeps or
 * returns to user mode), and with several CPUs one CPU at a time runs
 * kernel code under the big kernel lock (include/smp_lock.h, docs/smp.md),
 * so most spinlocks' real work is disabling interrupts (the _irqsave
 * forms); those taken outside it (each CPU's run queue's rq->lock, the
 * IPIs' locks, and since SMP step 4 the page allocator's zone->lock and
 * kmalloc's cachep->spinlock) spin.  The lock itself is a fair ticket lock
 * (arch_spinlock_t, include/asm/spinlock.h, where "why fair" is written),
 * so that (a) the code reads as SMP code must be written and, once other
 * CPUs run kernel code, works, and (b) recursion on a held lock is a BUG
 * (a report naming the lock and its owner, then BUG()) instead of a silent
 * hang: recursion is a wait while this CPU itself holds the lock (its
 * owner is current on this CPU), or while only one CPU is online.
 * Never sleep while holding a spinlock.
 * With the lock validator built in (CONFIG_LOCKDEP: the test kernel,
 * DEBUG=1; include/lockdep.h) each lock also has a dep_map, spin_lock_init
 * names its class after the call site, and spin_lock/spin_trylock/
 * spin_unlock tell the validator (spin_acquire, spin_release); without it
 * they compile to nothing. */
#ifndef _SPINLOCK_H
#define _SPINLOCK_H
#include <kernel.h>
#include <lockdep.h>
#include <asm/irqflags.h>
#include <asm/spinlock.h>

struct task_struct;
typedef struct spinlock {
    arch_spinlock_t raw;               /* the ticket lock */
    const char *name;                  /* for reports */
    struct task_struct *owner;         /* holder, for reports */
    int owner_cpu;                     /* the CPU it holds it on, -1 */
#ifdef CONFIG_LOCKDEP
    struct lockdep_map dep_map;        /* the validator's class (include/lockdep.h) */
#endif
    /* Linux's lock_stat, cut down (/proc/lock_stat, kernel/spinlock.c):
     * both written by the holder only, so plain adds. */
    unsigned long acquisitions;        /* times taken */
    unsigned long contentions;         /* of those, times it was found held */
} spinlock_t;

/* Lock bugs the kernel survives, each reported with a backtrace and
 * counted here (tests read the counter): unlocking an unlocked spinlock,
 * mutex self-deadlock (that task sleeps for ever), unlocking a mutex
 * another task holds.  Spinlock recursion is not survived: the holder
 * could never run again, so spin_lock() on a lock this CPU holds reports
 * it and BUG()s (the report counts too, for what it is worth). */
extern unsigned long lock_bug_reports;

#define __SPIN_LOCK_UNLOCKED(n) { __ARCH_SPIN_LOCK_UNLOCKED, #n, NULL, -1 LOCKDEP_MAP_INIT(#n), 0, 0 }
#define DEFINE_SPINLOCK(n) spinlock_t n = __SPIN_LOCK_UNLOCKED(n)

void spin_lock_init(spinlock_t *lock);
#ifdef CONFIG_LOCKDEP
/* The validator's class: one per call site, named after the expression. */
#define spin_lock_init(lock) do { static struct lock_class_key __key;            \
        (spin_lock_init)(lock); lockdep_init_map(&(lock)->dep_map, #lock, &__key); \
    } while (0)
#define spin_acquire(lock, try) \
    lock_acquire(&(lock)->dep_map, (lock)->name, (lock), LD_SPIN, 0, (try), _RET_IP_)
#define spin_release(lock) lock_release(&(lock)->dep_map, (lock), _RET_IP_)
#else
#define spin_acquire(lock, try) do { } while (0)
#define spin_release(lock) do { } while (0)
#endif
void spin_lock(spinlock_t *lock);
/* A second lock of the same class, taken in an order the caller
 * guarantees (two futex hash buckets by address): the validator files it
 * under subclass (< MAX_LOCKDEP_SUBCLASSES) instead of reporting the
 * nesting (Linux's spin_lock_nested, SINGLE_DEPTH_NESTING). */
#ifdef CONFIG_LOCKDEP
void spin_lock_nested(spinlock_t *lock, unsigned int subclass);
#else
#define spin_lock_nested(lock, subclass) spin_lock(lock)
#endif
void spin_unlock(spinlock_t *lock);
int spin_trylock(spinlock_t *lock);
static inline int spin_is_locked(const spinlock_t *lock) { return arch_spin_is_locked(&lock->raw); }

/* /proc/lock_stat lists the locks registered here, with their counters
 * (at most LOCK_STAT_MAX; LABEL names the lock, NULL: its own name). */
#define LOCK_STAT_MAX 24
void lock_stat_register(spinlock_t *lock, const char *label);
int show_lock_stat(char *buf, size_t size);

#define spin_lock_irqsave(lock, flags) \
    do { (flags) = local_irq_save(); spin_lock(lock); } while (0)
#define spin_unlock_irqrestore(lock, flags) \
    do { spin_unlock(lock); local_irq_restore(flags); } while (0)
#define spin_lock_irq(lock)   do { local_irq_disable(); spin_lock(lock); } while (0)
#define spin_unlock_irq(lock) do { spin_unlock(lock); local_irq_enable(); } while (0)
#endif
