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
#include <smp_lock.h>
#include <spinlock.h>
#include <sched.h>
#include <smp.h>

unsigned long lock_bug_reports;

/* ---------------------------------------------------------------------- */
/* The ticket lock (include/asm/spinlock.h: the layout, and why tickets)   */

/* Take a ticket: the old tail, and tail + 1, in one locked instruction
 * (lock xaddw), so that two CPUs never get the same ticket. */
uint16_t arch_spin_take_ticket(arch_spinlock_t *lock)
{
    uint16_t t = 1;
    __asm__ volatile("lock xaddw %0, %1" : "+r"(t), "+m"(lock->tickets.tail) :: "memory", "cc");
    return t;
}

/* Spin until ticket t is served (`pause`: a hint that this is a spin). */
void arch_spin_wait(arch_spinlock_t *lock, uint16_t t)
{
    while (lock->tickets.head != t)
        __asm__ volatile("pause" ::: "memory");
}

/* Take the lock only if it is free: one cmpxchg of both counters, tail + 1
 * (a ticket taken only when it would be served at once).  1 if taken. */
int arch_spin_trylock(arch_spinlock_t *lock)
{
    uint32_t old = lock->slock;
    if ((uint16_t)old != (uint16_t)(old >> TICKET_SHIFT))
        return 0;
    uint32_t prev;
    __asm__ volatile("lock cmpxchgl %2, %1"
                     : "=a"(prev), "+m"(lock->slock)
                     : "r"(old + (1u << TICKET_SHIFT)), "0"(old) : "memory", "cc");
    return prev == old;
}

/* Serve the next ticket.  Only the holder writes head: a plain add (x86
 * keeps this store after the critical section's loads and stores), and a
 * compiler barrier ("memory") so that the compiler does not either. */
void arch_spin_unlock(arch_spinlock_t *lock)
{
    __asm__ volatile("addw $1, %0" : "+m"(lock->tickets.head) :: "memory", "cc");
}

/* ---------------------------------------------------------------------- */
/* spinlock_t                                                             */

/* (spin_lock_init): the name in parentheses is the function, not the
 * validator's macro of the same name (include/spinlock.h). */
void (spin_lock_init)(spinlock_t *lock)
{
    lock->raw = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
    lock->owner = NULL;
    lock->owner_cpu = -1;
    lock->acquisitions = lock->contentions = 0;
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
    lock->contentions++;               /* held now; only here (lock_stat below) */
}

static inline void spin_lock_raw(spinlock_t *lock)
{
    uint16_t t = arch_spin_take_ticket(&lock->raw);
    if (lock->raw.tickets.head != t)
        spin_lock_contended(lock, t);
    lock->owner = current;
    lock->owner_cpu = smp_processor_id();
    lock->acquisitions++;              /* held: ours alone to write */
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
    lock->acquisitions++;
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

/* ---------------------------------------------------------------------- */
/* /proc/lock_stat                                                        */

/* Linux's lock_stat (CONFIG_LOCK_STAT, /proc/lock_stat) counts per lock
 * class, among much else, "contentions" (the lock was found held) and
 * "acquisitions".  Vellum counts those two per lock, in every kernel (a
 * plain add each while the lock is held: spin_lock above; a contention in
 * the slow path only, spin_lock_contended, as Linux's lock_contended() is
 * called only when the lock was found held, so the fast path pays one
 * add), and lists the
 * locks that asked to be listed: the page allocator's, kmalloc's, the run
 * queue's; first of all the big kernel lock, under Linux 2.0-2.6's name
 * for it, kernel_flag (its counts are per CPU: include/smp_lock.h).  A
 * spin_trylock that fails is not counted. */
static struct { spinlock_t *lock; const char *label; } lock_stat_locks[LOCK_STAT_MAX];
static int nr_lock_stat;

void lock_stat_register(spinlock_t *lock, const char *label)
{
    if (WARN_ON(nr_lock_stat >= LOCK_STAT_MAX))
        return;
    lock_stat_locks[nr_lock_stat].lock = lock;
    lock_stat_locks[nr_lock_stat].label = label ? label : lock->name;
    nr_lock_stat++;
}

/* One line a lock: its name, contentions, acquisitions (Linux's columns
 * of those names; the counts are read without the locks, a snapshot). */
int show_lock_stat(char *buf, size_t size)
{
    size_t n = 0;
#define OUT(...) (n += snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__))
    OUT("lock_stat version 0.1 (Vellum: contentions and acquisitions per lock)\n");
    OUT("%-24s %12s %14s\n", "name", "contentions", "acquisitions");
    unsigned long bkl_cont, bkl_acq;
    kernel_lock_stat(&bkl_cont, &bkl_acq);   /* the big kernel lock: its own counts */
    OUT("%-24s %12lu %14lu\n", "kernel_flag", bkl_cont, bkl_acq);
    for (int i = 0; i < nr_lock_stat; i++)
        OUT("%-24s %12lu %14lu\n", lock_stat_locks[i].label,
            READ_ONCE(lock_stat_locks[i].lock->contentions),
            READ_ONCE(lock_stat_locks[i].lock->acquisitions));
#undef OUT
    return n < size ? (int)n : (int)size;
}
