/* include/asm/spinlock.h: the ticket spinlock, arch_spinlock_t (arch layer;
 * Linux's <asm/spinlock.h> since 2.6.25, with 16-bit tickets as since
 * 2.6.37).  include/spinlock.h's spinlock_t wraps one with the reports and
 * the validator.
 *
 * A lock is two 16-bit counters, like the ticket machine and the "now
 * serving" sign at a counter:
 *
 *   tail  the next ticket to hand out      head  the ticket being served
 *
 * Lock: take a ticket, atomically (lock xaddw: my = tail, tail + 1), then
 * wait until head == my (`pause` in the spin: the hyper-thread sibling runs
 * and the CPU does not mis-speculate the loop's exit).  Unlock: head + 1,
 * which serves the next ticket.  Free when head == tail.
 *
 * Why fair: waiters are served in the order they took their tickets, so a
 * CPU that waits is overtaken by at most the waiters already in line, never
 * starved by a luckier one.  (The test-and-set lock that came before, an
 * xchg loop, lets whichever CPU's xchg hits the cache line first win: the
 * CPU that just released it, whose cache has the line, often re-takes it
 * again and again.)  Only the holder writes head, so unlock is a plain
 * 16-bit increment (x86 does not reorder a store with earlier loads or
 * stores); taking a ticket needs the lock prefix.  Counters wrap at 16
 * bits together: only their difference counts, so up to 65535 CPUs may
 * wait.  Interrupts are not touched here: that is the _irqsave forms'.
 * The operations themselves are in kernel/spinlock.c (below, why). */
#ifndef _ASM_SPINLOCK_H
#define _ASM_SPINLOCK_H
#include <types.h>

typedef union {
    volatile uint32_t slock;           /* both, for trylock's cmpxchg */
    struct {
        volatile uint16_t head, tail;  /* little-endian: head is slock's low half */
    } tickets;
} arch_spinlock_t;

#define __ARCH_SPIN_LOCK_UNLOCKED { 0 }
#define TICKET_SHIFT 16

static inline bool arch_spin_is_locked(const arch_spinlock_t *lock)
{
    uint32_t v = lock->slock;
    return (uint16_t)v != (uint16_t)(v >> TICKET_SHIFT);
}

/* The four operations are out of line, in kernel/spinlock.c (where
 * spin_lock and spin_unlock inline them: one object), so that the course
 * lab `locks` can have a student write them (docs/labs/10-locks.md):
 *
 *   arch_spin_take_ticket  take a ticket, atomically: the old tail
 *   arch_spin_wait         spin until ticket t is served
 *   arch_spin_trylock      take the lock only if it is free: 1 if taken
 *   arch_spin_unlock       serve the next ticket */
uint16_t arch_spin_take_ticket(arch_spinlock_t *lock);
void arch_spin_wait(arch_spinlock_t *lock, uint16_t t);
int arch_spin_trylock(arch_spinlock_t *lock);
void arch_spin_unlock(arch_spinlock_t *lock);

static inline void arch_spin_lock(arch_spinlock_t *lock)
{
    arch_spin_wait(lock, arch_spin_take_ticket(lock));
}
#endif
