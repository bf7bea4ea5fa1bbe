/* kernel/lockdep_test.c: the ktests of lockdep.c, the lock validator
 * (test=lockdep); built into the test kernel only.  It includes lockdep.c
 * for the tables, so in the test kernel the two are one object (Makefile).
 *
 * Each test plants a locking bug between ktest_lockdep_begin() and
 * ktest_lockdep_end() (defined here, for the other files' planted tests
 * too: mm/filemap_test.c's legacy write path) and checks that exactly the
 * one report was made, and its lines.  The rest of make check is the other
 * half of the test: an unplanted report fails the running test
 * (kernel/test/ktest.c), so the kernel's own boot and tests stay quiet. */
#include "lockdep.c"
#include <ktest.h>
#include <timer.h>
#include <err.h>
#include <rwsem.h>

/* ---- the planted-bug window -------------------------------------------- */

unsigned long ktest_lockdep_planted;
static unsigned long planted_reports, planted_edges;
static int planted_depth;

void ktest_lockdep_begin(void)
{
    unsigned long flags = local_irq_save();
    planted_reports = lockdep_reports;
    planted_edges = nr_lock_edges;
    planted_depth = current->lockdep_depth;
    local_irq_restore(flags);
}

unsigned long ktest_lockdep_end(void)
{
    struct task_struct *t;
    unsigned long flags = local_irq_save();
    unsigned long made = lockdep_reports - planted_reports;
    ktest_lockdep_planted += made;
    graph_lock();
    while (nr_lock_edges > planted_edges) {    /* newest first: each was its class's head */
        struct lock_edge *e = &lock_edges[--nr_lock_edges];
        lock_classes[e->from].first_edge = e->next;
    }
    graph_unlock();
    if (current->lockdep_depth > planted_depth)
        current->lockdep_depth = planted_depth;
    /* While it was off the validator saw no releases: drop what is no
     * longer held, in every task. */
    list_for_each_entry(t, &task_list, tasks)
        prune_held_all(t, true);
    if (!debug_locks && made)
        printk(KERN_INFO "lockdep: the planted bug was reported: validator back on\n");
    if (made)
        debug_locks = 1;
    local_irq_restore(flags);
    return made;
}

/* ---- the tests ----------------------------------------------------------- */

static DEFINE_MUTEX(lockdep_test_a);
static DEFINE_MUTEX(lockdep_test_b);

/* The two halves of an AB-BA, in functions of their own so that the
 * report's backtraces name them. */
static void __noipa take_a_then_b(void)
{
    mutex_lock(&lockdep_test_a);
    mutex_lock(&lockdep_test_b);
    mutex_unlock(&lockdep_test_b);
    mutex_unlock(&lockdep_test_a);
}

static void __noipa take_b_then_a(void)
{
    mutex_lock(&lockdep_test_b);
    mutex_lock(&lockdep_test_a);
    mutex_unlock(&lockdep_test_a);
    mutex_unlock(&lockdep_test_b);
}

/* An AB-BA planted in one task (no deadlock: still reported): first()
 * twice, which makes the edge X -> Y (the same order again is quiet), then
 * second(), which takes them Y then X.  Checks that exactly the one report
 * was made, a circular dependency whose chain names first() (where the
 * old order was made: "] first+0x", a backtrace line), and returns the
 * report's lines for the test's own checks. */
#define plant_abba(first, second, x, y) __plant_abba(first, second, x, y, "] " #first "+0x")
static const char *__plant_abba(void (*first)(void), void (*second)(void),
                                struct lockdep_map *x, struct lockdep_map *y, const char *where)
{
    ktest_lockdep_begin();
    first();
    first();
    unsigned long in_order = lockdep_reports - planted_reports;
    bool edge = find_edge(class_no(x->class), class_no(y->class)) >= 0;
    printk(KERN_INFO "lockdep_test: AB-BA follows\n");
    second();
    const char *log = ktest_log_since("lockdep_test: AB-BA follows");
    unsigned long made = ktest_lockdep_end();
    KT_EXPECT_EQ(in_order, 0);
    KT_EXPECT(edge);
    KT_EXPECT_EQ(made, 1);
    KT_EXPECT(ktest_find(log, "WARNING: possible circular locking dependency detected"));
    const char *chain = ktest_find(log, "the existing dependency chain (in reverse order) is:");
    KT_EXPECT(chain && ktest_find(chain, where));
    return log;
}

KTEST(lockdep, planted_abba_is_reported_once)
{
    const char *log = plant_abba(take_a_then_b, take_b_then_a,
                                 &lockdep_test_a.dep_map, &lockdep_test_b.dep_map);
    KT_EXPECT(debug_locks);
    const char *trying = ktest_find(log, "is trying to acquire lock:\n (lockdep_test_a){mutex}, "
                                         "at: [<");
    KT_EXPECT(trying);
    KT_EXPECT(ktest_find(log, "but task is already holding lock:\n (lockdep_test_b){mutex}, at: "));
    KT_EXPECT(ktest_find(log, "which lock already depends on the new lock."));
    const char *chain = ktest_find(log, "the existing dependency chain (in reverse order) is:");
    KT_EXPECT(chain && ktest_find(chain, "-> #0 (lockdep_test_b):"));
    KT_EXPECT(ktest_find(log, "*** DEADLOCK ***"));
    KT_EXPECT(ktest_find(log, "1 lock held by "));
    const char *bt = ktest_find(log, "stack backtrace:");
    KT_EXPECT(bt && ktest_find(bt, "] take_b_then_a+0x"));
    KT_EXPECT(ktest_find(log, "turning off the locking correctness validator."));
    /* The rolled-back graph has no A -> B: the next boot's order is its own. */
    KT_EXPECT(find_edge(class_no(lockdep_test_a.dep_map.class),
                        class_no(lockdep_test_b.dep_map.class)) < 0);
    KT_EXPECT_EQ(mutex_is_locked(&lockdep_test_a) + mutex_is_locked(&lockdep_test_b), 0);
}

/* A longer cycle: A -> B, B -> C, then C -> A; the chain shows both old
 * edges. */
static DEFINE_MUTEX(lockdep_test_c);

KTEST(lockdep, planted_three_lock_cycle_shows_the_chain)
{
    ktest_lockdep_begin();
    take_a_then_b();
    mutex_lock(&lockdep_test_b);
    mutex_lock(&lockdep_test_c);
    mutex_unlock(&lockdep_test_c);
    mutex_unlock(&lockdep_test_b);
    unsigned long quiet = lockdep_reports - planted_reports;
    printk(KERN_INFO "lockdep_test: cycle follows\n");
    mutex_lock(&lockdep_test_c);
    mutex_lock(&lockdep_test_a);
    mutex_unlock(&lockdep_test_a);
    mutex_unlock(&lockdep_test_c);
    const char *log = ktest_log_since("lockdep_test: cycle follows");
    unsigned long made = ktest_lockdep_end();
    KT_EXPECT_EQ(quiet, 0);
    KT_EXPECT_EQ(made, 1);
    const char *chain = ktest_find(log, "the existing dependency chain (in reverse order) is:");
    /* From the held lock back to the new one: C was taken under B, B under A. */
    const char *e1 = chain ? ktest_find(chain, "-> #1 (lockdep_test_c):") : NULL;
    const char *e0 = e1 ? ktest_find(e1, "-> #0 (lockdep_test_b):") : NULL;
    KT_EXPECT(e1);
    KT_EXPECT(e0);
}

/* irq-unsafe: a spinlock the timer interrupt takes, then taken here with
 * interrupts on (on one CPU the interrupt would spin on it for ever). */
static DEFINE_SPINLOCK(lockdep_test_irq_lock);
static volatile int irq_took;
static tick_hook_t old_tick;

static void lockdep_test_tick(struct pt_regs *regs)
{
    if (old_tick)
        old_tick(regs);
    if (!irq_took) {
        spin_lock(&lockdep_test_irq_lock);     /* in the interrupt: IN-HARDIRQ */
        spin_unlock(&lockdep_test_irq_lock);
        irq_took = 1;
    }
}

KTEST(lockdep, planted_irq_unsafe_lock_is_reported)
{
    ktest_lockdep_begin();
    irq_took = 0;
    old_tick = timer_set_tick_hook(lockdep_test_tick);
    for (int i = 0; i < 50 && !irq_took; i++)
        msleep(10);
    tick_hook_t mine = timer_set_tick_hook(old_tick);
    unsigned long quiet = lockdep_reports - planted_reports;
    printk(KERN_INFO "lockdep_test: irq-unsafe follows\n");
    spin_lock(&lockdep_test_irq_lock);         /* interrupts on: HARDIRQ-ON */
    spin_unlock(&lockdep_test_irq_lock);
    const char *log = ktest_log_since("lockdep_test: irq-unsafe follows");
    unsigned long made = ktest_lockdep_end();
    KT_EXPECT(mine == lockdep_test_tick);
    KT_ASSERT(irq_took);
    KT_EXPECT_EQ(quiet, 0);
    KT_EXPECT_EQ(made, 1);
    KT_EXPECT(ktest_find(log, "WARNING: inconsistent lock state"));
    KT_EXPECT(ktest_find(log, "inconsistent {IN-HARDIRQ} -> {HARDIRQ-ON} usage."));
    KT_EXPECT(ktest_find(log, " (lockdep_test_irq_lock){spin}, at: "));
    const char *reg = ktest_find(log, "{IN-HARDIRQ} state was registered at:");
    KT_EXPECT(reg && ktest_find(reg, "] lockdep_test_tick+0x"));
    KT_EXPECT(ktest_find(log, "<Interrupt>"));
}

/* The same lock taken in the interrupt and with interrupts off
 * (spin_lock_irqsave) everywhere else: correct, quiet. */
static DEFINE_SPINLOCK(lockdep_test_irqsafe_lock);
static volatile int irq_took_safe;

static void lockdep_test_tick_safe(struct pt_regs *regs)
{
    if (old_tick)
        old_tick(regs);
    if (!irq_took_safe) {
        spin_lock(&lockdep_test_irqsafe_lock);
        spin_unlock(&lockdep_test_irqsafe_lock);
        irq_took_safe = 1;
    }
}

KTEST(lockdep, irqsave_lock_shared_with_an_interrupt_is_quiet)
{
    unsigned long flags, before = lockdep_reports;
    irq_took_safe = 0;
    old_tick = timer_set_tick_hook(lockdep_test_tick_safe);
    for (int i = 0; i < 50 && !irq_took_safe; i++)
        msleep(10);
    timer_set_tick_hook(old_tick);
    spin_lock_irqsave(&lockdep_test_irqsafe_lock, flags);
    spin_unlock_irqrestore(&lockdep_test_irqsafe_lock, flags);
    KT_ASSERT(irq_took_safe);
    KT_EXPECT_EQ(lockdep_test_irqsafe_lock.dep_map.class->usage, USED_IN_IRQ);
    KT_EXPECT_EQ(lockdep_reports, before);
}

/* Sleeping in atomic context: a mutex taken under a spinlock. */
static DEFINE_SPINLOCK(lockdep_test_spin);
static DEFINE_MUTEX(lockdep_test_sleeping);

KTEST(lockdep, planted_sleep_under_a_spinlock_is_reported)
{
    unsigned long flags;
    ktest_lockdep_begin();
    printk(KERN_INFO "lockdep_test: sleep in atomic follows\n");
    spin_lock_irqsave(&lockdep_test_spin, flags);
    mutex_lock(&lockdep_test_sleeping);        /* free: it does not sleep, but may */
    mutex_unlock(&lockdep_test_sleeping);
    spin_unlock_irqrestore(&lockdep_test_spin, flags);
    const char *log = ktest_log_since("lockdep_test: sleep in atomic follows");
    unsigned long made = ktest_lockdep_end();
    KT_EXPECT_EQ(made, 1);
    KT_EXPECT(ktest_find(log, "BUG: sleeping function called from invalid context at "
                              "kernel/mutex.c:"));
    KT_EXPECT(ktest_find(log, "in_atomic(): 1, irqs_disabled(): 1, in_irq(): 0, pid: "));
    KT_EXPECT(ktest_find(log, " #0:  (lockdep_test_spin){spin}, at: "));
    const char *bt = ktest_find(log, "stack backtrace:");
    KT_EXPECT(bt && ktest_find(bt, "] mutex_lock+0x"));
}

/* A mutex released by a task that does not hold it. */
static DEFINE_MUTEX(lockdep_test_handed);
static volatile int holder_has_it;

static int holder_fn(void *arg)
{
    mutex_lock(&lockdep_test_handed);
    holder_has_it = 1;
    while (!kthread_should_stop())
        msleep(10);
    return 0;
}

KTEST(lockdep, planted_release_by_another_task_is_reported)
{
    holder_has_it = 0;
    struct task_struct *h = kthread_run(holder_fn, NULL, "ld_holder");
    KT_ASSERT(!IS_ERR(h));
    for (int i = 0; i < 100 && !holder_has_it; i++)
        msleep(10);
    ktest_lockdep_begin();
    printk(KERN_INFO "lockdep_test: bad unlock follows\n");
    if (holder_has_it)
        mutex_unlock(&lockdep_test_handed);     /* not ours */
    const char *log = ktest_log_since("lockdep_test: bad unlock follows");
    unsigned long made = ktest_lockdep_end();
    kthread_stop(h);
    KT_ASSERT(holder_has_it);
    KT_EXPECT_EQ(made, 1);
    KT_EXPECT(ktest_find(log, "WARNING: bad unlock balance detected!"));
    KT_EXPECT(ktest_find(log, "is trying to release lock (lockdep_test_handed) at:"));
    KT_EXPECT(ktest_find(log, "but the lock is held by another task, ld_holder/"));
    KT_EXPECT(!mutex_is_locked(&lockdep_test_handed));
}

/* A lock let go while the validator is off (a planted bug's report turned
 * it off) is still forgotten: no entry is left on the task's stack for the
 * next task that takes and lets go of the same lock to trip over (on four
 * CPUs, runqueue_lock: the jbdclean suite's SMP pass). */
static DEFINE_SPINLOCK(lockdep_test_offline);
KTEST(lockdep, release_while_off_is_forgotten)
{
    struct task_struct *me = current;
    int depth0 = me->lockdep_depth;
    spin_lock(&lockdep_test_offline);
    KT_EXPECT_EQ(me->lockdep_depth, depth0 + 1);
    int was = debug_locks;
    debug_locks = 0;
    spin_unlock(&lockdep_test_offline);
    debug_locks = was;
    KT_EXPECT_EQ(me->lockdep_depth, depth0);
}

/* A lock taken while the validator was off (a planted bug's report turned
 * it off) and let go once it is back on, while another task waits for it:
 * the waiter's stack has an entry (pushed before it sleeps), but the lock
 * is the releaser's, so nothing is reported (on four CPUs, runqueue_lock
 * after the uwrite suite's planted test: CPU 2's idle loop let it go while
 * CPU 0 spun for it). */
static DEFINE_MUTEX(lockdep_test_waited);
static volatile int waiter_started;

static int waiter_fn(void *arg)
{
    waiter_started = 1;
    mutex_lock(&lockdep_test_waited);
    mutex_unlock(&lockdep_test_waited);
    return 0;
}

KTEST(lockdep, release_after_off_with_a_waiter_is_quiet)
{
    unsigned long reports0 = lockdep_reports;
    int was = debug_locks;
    debug_locks = 0;
    mutex_lock(&lockdep_test_waited);          /* not on our stack */
    debug_locks = was;
    waiter_started = 0;
    struct task_struct *w = kthread_run(waiter_fn, NULL, "ld_waiter");
    KT_ASSERT(!IS_ERR(w));
    for (int i = 0; i < 100 && !waiter_started; i++)
        msleep(10);
    msleep(20);                                /* asleep in mutex_lock, its entry pushed */
    KT_EXPECT(waiter_started && w->lockdep_depth == 1);
    mutex_unlock(&lockdep_test_waited);
    kthread_stop(w);
    KT_EXPECT_EQ(lockdep_reports, reports0);
}

/* Page locks: (mapping, index) order nests; the other order is reported. */
KTEST(lockdep, page_locks_nest_in_index_order_only)
{
    struct page *p0 = alloc_page(GFP_KERNEL), *p1 = alloc_page(GFP_KERNEL);
    static struct address_space fake_mapping;
    KT_ASSERT(p0 && p1);
    p0->mapping = p1->mapping = &fake_mapping;
    p0->index = 0;
    p1->index = 1;
    ktest_lockdep_begin();
    lock_page(p0);
    lock_page(p1);                             /* in order: quiet */
    int depth = current->lockdep_depth - planted_depth;
    unlock_page(p1);
    unlock_page(p0);
    unsigned long quiet = lockdep_reports - planted_reports;
    printk(KERN_INFO "lockdep_test: page order follows\n");
    lock_page(p1);
    lock_page(p0);                             /* index 1, then 0: reported */
    unlock_page(p0);
    unlock_page(p1);
    const char *log = ktest_log_since("lockdep_test: page order follows");
    unsigned long made = ktest_lockdep_end();
    p0->mapping = p1->mapping = NULL;
    __free_page(p0);
    __free_page(p1);
    KT_EXPECT_EQ(depth, 2);
    KT_EXPECT_EQ(quiet, 0);
    KT_EXPECT_EQ(made, 1);
    KT_EXPECT(ktest_find(log, "WARNING: possible recursive locking detected"));
    KT_EXPECT(ktest_find(log, " (page lock){page}, at: "));
    KT_EXPECT(ktest_find(log, "page locks nest only in (mapping, index) order"));
}

/* ---- rw-semaphores (include/rwsem.h) -------------------------------------- */

static DECLARE_RWSEM(lockdep_test_rw);

static void __noipa read_then_a(void)
{
    down_read(&lockdep_test_rw);
    mutex_lock(&lockdep_test_a);
    mutex_unlock(&lockdep_test_a);
    up_read(&lockdep_test_rw);
}

static void __noipa a_then_read(void)
{
    mutex_lock(&lockdep_test_a);
    down_read(&lockdep_test_rw);
    up_read(&lockdep_test_rw);
    mutex_unlock(&lockdep_test_a);
}

/* A read acquisition orders like any other: rwsem (read) -> A, then
 * A -> rwsem (read) is the AB-BA of mmap_sem (read in the fault) and the
 * page lock (a writer queued on the rwsem meets both readers). */
KTEST(lockdep, planted_abba_through_a_read_is_reported)
{
    const char *log = plant_abba(read_then_a, a_then_read,
                                 &lockdep_test_rw.dep_map, &lockdep_test_a.dep_map);
    KT_EXPECT(ktest_find(log, "is trying to acquire lock:\n (lockdep_test_rw){rwsem-read}, at: "));
    KT_EXPECT(ktest_find(log, "but task is already holding lock:\n (lockdep_test_a){mutex}, at: "));
    KT_EXPECT(!rwsem_is_locked(&lockdep_test_rw));
    KT_EXPECT(!mutex_is_locked(&lockdep_test_a));
}

static volatile int upgrader_reads;

/* Holds the rwsem for reading and asks to write it: a deadlock on the
 * spot (the write waits for our own read), reported by the validator; the
 * test then lets go of the read for it. */
static int upgrader_fn(void *p)
{
    down_read(&lockdep_test_rw);
    upgrader_reads = 1;
    down_write(&lockdep_test_rw);              /* reported; sleeps until the rescue */
    up_write(&lockdep_test_rw);
    return 4;
}

KTEST(lockdep, down_write_while_reading_is_reported)
{
    upgrader_reads = 0;
    ktest_lockdep_begin();
    printk(KERN_INFO "lockdep_test: read then write follows\n");
    struct task_struct *t = kthread_run(upgrader_fn, NULL, "upgrader");
    KT_ASSERT(!IS_ERR(t));
    int i;
    for (i = 0; i < 2000; i++) {               /* until it sleeps on its own rwsem */
        if (upgrader_reads && READ_ONCE(t->state) == TASK_UNINTERRUPTIBLE &&
            READ_ONCE(t->waiting_on) == &lockdep_test_rw)
            break;
        msleep(1);
    }
    KT_EXPECT(i < 2000);
    KT_EXPECT_EQ(lockdep_test_rw.activity, 1);
    up_read(&lockdep_test_rw);                 /* the rescue: its read, let go for it */
    KT_EXPECT_EQ(kthread_stop(t), 4);
    const char *log = ktest_log_since("lockdep_test: read then write follows");
    unsigned long made = ktest_lockdep_end();
    KT_EXPECT_EQ(made, 1);
    KT_EXPECT(ktest_find(log, "WARNING: possible recursive locking detected"));
    KT_EXPECT(ktest_find(log, "upgrader/"));
    KT_EXPECT(ktest_find(log, " (lockdep_test_rw){rwsem-write}, at: "));
    KT_EXPECT(ktest_find(log, " (lockdep_test_rw){rwsem-read}, at: "));
    KT_EXPECT(ktest_find(log, "the same rwsem, taken again"));
    KT_EXPECT(!rwsem_is_locked(&lockdep_test_rw));
}

/* The validator watches the kernel: its classes are there after the
 * boot, and it is still on (the boot made no report). */
KTEST(lockdep, boot_was_watched_and_quiet)
{
    KT_EXPECT(debug_locks);
    KT_EXPECT_EQ(lockdep_reports, ktest_lockdep_planted);
    KT_EXPECT(nr_lock_classes > 0);            /* a test boot has no disk: few locks */
    KT_EXPECT_EQ(current->lockdep_depth, 0);
}

/* The runner's half: a report nobody planted fails the test it was made
 * in (kernel/test/ktest.c), with the report under the FAIL line.  This
 * test fails on purpose, so it runs only by its full name
 * (KTEST_ENDS_BOOT's selection; it does not end the boot):
 * tools/tests/lockdep_report.sh boots it through tools/run-tests. */
static DEFINE_MUTEX(lockdep_test_x);
static DEFINE_MUTEX(lockdep_test_y);

KTEST_ENDS_BOOT(lockdep, unplanted_report_fails_the_test)
{
    mutex_lock(&lockdep_test_x);
    mutex_lock(&lockdep_test_y);
    mutex_unlock(&lockdep_test_y);
    mutex_unlock(&lockdep_test_x);
    mutex_lock(&lockdep_test_y);
    mutex_lock(&lockdep_test_x);               /* Y -> X after X -> Y, not planted */
    mutex_unlock(&lockdep_test_x);
    mutex_unlock(&lockdep_test_y);
}
