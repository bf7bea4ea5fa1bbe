/* kernel/spinlock_test.c: the ktests of the ticket lock and spinlock_t
 * (test=smplocks; built into the test kernel only).  tools/suites/smplocks.conf
 * boots the suite at -smp 4: tickets_are_served_in_order needs three
 * CPUs.  The suite's page-allocator tests (per-CPU page lists, zone->lock's
 * contention) are in mm/page_alloc_test.c.  These are the course lab
 * `locks`' tests (tools/labs/locks.tests, docs/labs/10-locks.md). */
#include <kernel.h>
#include <ktest.h>
#include <err.h>
#include <spinlock.h>
#include <sched.h>
#include <smp.h>
#include <smp_lock.h>
#include <timer.h>
#include <string.h>
#include <asm/atomic.h>

KTEST(smplocks, ticket_lock_arithmetic)
{
    arch_spinlock_t l = __ARCH_SPIN_LOCK_UNLOCKED;
    KT_EXPECT(!arch_spin_is_locked(&l));
    KT_EXPECT_EQ(arch_spin_take_ticket(&l), 0);    /* lock: ticket 0, served */
    KT_EXPECT_EQ(l.tickets.head, 0);
    KT_EXPECT_EQ(l.tickets.tail, 1);
    KT_EXPECT(arch_spin_is_locked(&l));
    KT_EXPECT(!arch_spin_trylock(&l));             /* held: no ticket taken */
    KT_EXPECT_EQ(l.tickets.tail, 1);
    KT_EXPECT_EQ(arch_spin_take_ticket(&l), 1);    /* a waiter: next in line */
    arch_spin_unlock(&l);                          /* serves it */
    KT_EXPECT_EQ(l.tickets.head, 1);
    KT_EXPECT(arch_spin_is_locked(&l));
    arch_spin_unlock(&l);
    KT_EXPECT(!arch_spin_is_locked(&l));
    KT_EXPECT(arch_spin_trylock(&l));
    KT_EXPECT_EQ(l.slock, 0x00030002u);            /* tail 3, head 2 */
    arch_spin_unlock(&l);

    /* The 16-bit wrap: tickets 0xFFFF then 0x0000, served in that order. */
    l.slock = 0xFFFFFFFFu;                         /* head = tail = 0xFFFF: free */
    KT_EXPECT(!arch_spin_is_locked(&l));
    KT_EXPECT_EQ(arch_spin_take_ticket(&l), 0xFFFF);
    KT_EXPECT_EQ(arch_spin_take_ticket(&l), 0x0000);
    KT_EXPECT_EQ(l.tickets.tail, 1);
    KT_EXPECT_EQ(l.tickets.head, 0xFFFF);          /* the holder's is served */
    arch_spin_unlock(&l);
    KT_EXPECT_EQ(l.tickets.head, 0);               /* then the wrapped one */
    arch_spin_unlock(&l);
    KT_EXPECT(!arch_spin_is_locked(&l));
    l.slock = 0xFFFFFFFFu;                         /* trylock across the wrap */
    KT_EXPECT(arch_spin_trylock(&l));
    KT_EXPECT_EQ(l.slock, 0x0000FFFFu);
    arch_spin_unlock(&l);
    KT_EXPECT_EQ(l.slock, 0u);

    /* spinlock_t on top: owner and CPU recorded, cleared on unlock; the
     * counters count. */
    DEFINE_SPINLOCK(s);
    spin_lock(&s);
    KT_EXPECT(spin_is_locked(&s) && s.owner == current && s.owner_cpu == 0);
    KT_EXPECT_EQ(s.raw.slock, 0x00010000u);
    spin_unlock(&s);
    KT_EXPECT(!spin_is_locked(&s) && !s.owner && s.owner_cpu == -1);
    KT_EXPECT_EQ(s.raw.slock, 0x00010001u);
    KT_EXPECT(spin_trylock(&s));
    KT_EXPECT(!spin_trylock(&s));
    spin_unlock(&s);
    KT_EXPECT_EQ(s.acquisitions, 2);
    KT_EXPECT_EQ(s.contentions, 0);
}

/* Two waiters on CPUs 1 and 2 queue, in that order, behind the test's
 * hold on CPU 0: a ticket lock serves them in the order they came (a
 * test-and-set lock lets whichever CPU's xchg lands first win), and each
 * wait is counted as one contention. */
static DEFINE_SPINLOCK(fair_lock);
static atomic_t fair_ready, fair_order;
static volatile int fair_go[2];
static int fair_served[2];

static int fair_fn(void *data)
{
    int i = (int)(long)data;
    set_cpus_allowed(current, 1ul << (i + 1));  /* moves there now */
    unlock_kernel();                            /* kthread_main's; back below */
    atomic_inc(&fair_ready);
    while (!READ_ONCE(fair_go[i]))
        __asm__ volatile("pause" ::: "memory");
    spin_lock(&fair_lock);
    fair_served[i] = atomic_add_return(1, &fair_order);
    spin_unlock(&fair_lock);
    lock_kernel();
    return 0;
}

/* Spin (the lock held) until n tickets wait behind the holder's, or half a
 * second of jiffies; true if they did.  Not inlined: lab 10's GDB walk
 * breaks on the line between the two calls. */
static bool __noipa waiters_queued(spinlock_t *l, uint16_t n)
{
    unsigned long end = jiffies + HZ / 2;
    while ((uint16_t)(l->raw.tickets.tail - l->raw.tickets.head) != n + 1)
        if (time_after(jiffies, end))
            return false;
    return true;
}

KTEST(smplocks, tickets_are_served_in_order)
{
    struct task_struct *t[2];
    KT_ASSERT(num_online_cpus() >= 3);          /* smplocks.conf: -smp 4 */
    atomic_set(&fair_ready, 0);
    atomic_set(&fair_order, 0);
    fair_go[0] = fair_go[1] = 0;
    fair_served[0] = fair_served[1] = 0;
    for (int i = 0; i < 2; i++) {
        t[i] = kthread_run(fair_fn, (void *)(long)i, i ? "waiter-c" : "waiter-b");
        KT_ASSERT(!IS_ERR(t[i]));
    }
    while (atomic_read(&fair_ready) < 2)
        msleep(1);
    unsigned long acq0 = fair_lock.acquisitions, con0 = fair_lock.contentions;

    spin_lock(&fair_lock);
    fair_go[0] = 1;
    bool b_queued = waiters_queued(&fair_lock, 1);  /* B took ticket 1 */
    udelay(100);            /* ... and is in its spin loop (lab 10's GDB walk stops below) */
    fair_go[1] = 1;
    bool c_queued = waiters_queued(&fair_lock, 2);  /* C took ticket 2 */
    spin_unlock(&fair_lock);
    for (int i = 0; i < 2; i++)
        KT_EXPECT_EQ(kthread_stop(t[i]), 0);

    KT_EXPECT(b_queued);                        /* a waiter takes a ticket, then spins */
    KT_EXPECT(c_queued);
    KT_EXPECT_EQ(fair_served[0], 1);            /* B came first, and was served first */
    KT_EXPECT_EQ(fair_served[1], 2);
    KT_EXPECT_EQ(fair_lock.acquisitions - acq0, 3);
    KT_EXPECT_EQ(fair_lock.contentions - con0, 2);    /* B and C found it held */
    KT_EXPECT(!spin_is_locked(&fair_lock));
}

/* /proc/lock_stat lists the registered locks with their two counts. */
KTEST(smplocks, proc_lock_stat_lists_the_allocator_locks)
{
    static char buf[2048];
    int n = show_lock_stat(buf, sizeof buf);
    KT_ASSERT(n > 0 && n < (int)sizeof buf);
    for (char *l = buf, *nl; *l; l = nl + 1) {   /* docs/smp.md shows it */
        nl = l;
        while (*nl && *nl != '\n')
            nl++;
        printk(KERN_INFO "%.*s\n", (int)(nl - l), l);
        if (!*nl)
            break;
    }
    KT_EXPECT(ktest_find(buf, "contentions") != NULL);
    KT_EXPECT(ktest_find(buf, "zone->lock ") != NULL);
    KT_EXPECT(ktest_find(buf, "kmalloc-32 ") != NULL);
    KT_EXPECT(ktest_find(buf, "rq0->lock ") != NULL);
    KT_EXPECT(num_online_cpus() < 2 || ktest_find(buf, "rq1->lock ") != NULL);
    KT_EXPECT(ktest_find(buf, "kernel_flag ") != NULL);
}
