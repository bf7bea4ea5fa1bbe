/* kernel/watchdog_test.c: the ktests of watchdog.c, the soft-lockup detector
 * (test=watchdog); built into the test kernel only (make check), never into
 * the production kernel.  The tests reach watchdog.c's static functions and
 * data, so this file includes it: in the test kernel the two are one object
 * (Makefile).
 *
 * watchdog.* drive the check by hand, with a trap frame made up here and
 * interrupts off, so that the real tick cannot move the state meanwhile.
 * watchdog.planted_spin_ends_the_boot is the real thing: a loop with
 * interrupts on and no schedule point, which the tick must report and the
 * test runner must end; it ends its boot, so it runs only by its full name
 * (KTEST_ENDS_BOOT), booted by the host test tools/tests/lockups.sh. */
#include "watchdog.c"
#include <ktest.h>
#include <asm/irqflags.h>
#include <asm/segment.h>

/* Where the made-up frame says the CPU was: an address inside this
 * function, the frame pointer of the test (its caller is ktest_run). */
void __noipa watchdog_test_loop(void)
{
    barrier();
}

static void fake_regs(struct pt_regs *regs, unsigned long cs, unsigned long bp)
{
    memset(regs, 0, sizeof *regs);
    regs->ip = (unsigned long)watchdog_test_loop + 1;
    regs->cs = cs;
    regs->bp = bp;
}

struct watchdog_saved {
    int thresh;
    unsigned long touch_ts;
    bool reported;
};

static void save(struct watchdog_saved *s)
{
    s->thresh = watchdog_thresh;
    s->touch_ts = *this_cpu_ptr(&watchdog_touch_ts);
    s->reported = *this_cpu_ptr(&softlockup_reported);
}

static void restore(const struct watchdog_saved *s)
{
    watchdog_thresh = s->thresh;
    *this_cpu_ptr(&watchdog_touch_ts) = s->touch_ts;
    *this_cpu_ptr(&softlockup_reported) = s->reported;
}

KTEST(watchdog, reports_a_long_stretch_in_the_kernel_once)
{
    struct watchdog_saved s;
    struct pt_regs regs;
    unsigned long flags = local_irq_save();
    save(&s);
    fake_regs(&regs, __KERNEL_CS, (unsigned long)__builtin_frame_address(0));
    watchdog_thresh = 1;                        /* a report after 2 s */

    touch_softlockup_watchdog();
    unsigned long fresh = is_softlockup(&regs, false);
    *this_cpu_ptr(&watchdog_touch_ts) = jiffies - (2 * HZ - 1);
    unsigned long almost = is_softlockup(&regs, false);
    *this_cpu_ptr(&watchdog_touch_ts) = jiffies - (3 * HZ + 7);
    unsigned long stuck = is_softlockup(&regs, false);
    unsigned long before = softlockup_reports;
    printk(KERN_INFO "watchdog_test: report follows\n");
    if (stuck)
        softlockup_report(&regs, stuck);
    unsigned long counted = softlockup_reports - before;
    bool reported = *this_cpu_ptr(&softlockup_reported);
    unsigned long again = is_softlockup(&regs, false);   /* the same lockup */
    const char *log = ktest_log_since("watchdog_test: report follows");
    bool line = ktest_find(log, "BUG: soft lockup - CPU#0 stuck for 3s! [swapper:0]") != NULL;
    bool eip = ktest_find(log, "EIP: watchdog_test_loop+0x1/0x") != NULL;
    const char *trace = ktest_find(log, "Call Trace:");
    bool caller = trace && ktest_find(trace, "] ktest_run+0x") != NULL;
    bool end = trace && ktest_find(trace, "---[ end trace ]---") != NULL;

    restore(&s);
    local_irq_restore(flags);
    KT_EXPECT_EQ(fresh, 0);
    KT_EXPECT_EQ(almost, 0);
    KT_EXPECT_EQ(stuck, 3 * HZ + 7);
    KT_EXPECT_EQ(counted, 1);
    KT_EXPECT(reported);
    KT_EXPECT_EQ(again, 0);
    KT_EXPECT(line);                            /* Linux's line, [comm:pid] of current */
    KT_EXPECT(eip);                             /* where the frame says the loop is */
    KT_EXPECT(caller);                          /* and who called it */
    KT_EXPECT(end);
}

KTEST(watchdog, idle_and_user_mode_are_schedule_points)
{
    struct watchdog_saved s;
    struct pt_regs kregs, uregs;
    unsigned long flags = local_irq_save();
    save(&s);
    fake_regs(&kregs, __KERNEL_CS, (unsigned long)__builtin_frame_address(0));
    fake_regs(&uregs, __USER_CS, 0);
    watchdog_thresh = 1;

    *this_cpu_ptr(&watchdog_touch_ts) = jiffies - 10 * HZ;
    *this_cpu_ptr(&softlockup_reported) = true;                 /* as after a report */
    unsigned long idle = is_softlockup(&kregs, true);
    bool idle_touched = *this_cpu_ptr(&watchdog_touch_ts) == jiffies && !*this_cpu_ptr(&softlockup_reported);
    *this_cpu_ptr(&watchdog_touch_ts) = jiffies - 10 * HZ;
    unsigned long user = is_softlockup(&uregs, false);
    bool user_touched = *this_cpu_ptr(&watchdog_touch_ts) == jiffies;
    watchdog_thresh = 0;                        /* off: never a report */
    *this_cpu_ptr(&watchdog_touch_ts) = jiffies - 100 * HZ;
    unsigned long off = is_softlockup(&kregs, false);

    restore(&s);
    local_irq_restore(flags);
    KT_EXPECT_EQ(idle, 0);
    KT_EXPECT(idle_touched);
    KT_EXPECT_EQ(user, 0);
    KT_EXPECT(user_touched);
    KT_EXPECT_EQ(off, 0);
}

KTEST(watchdog, schedule_touches_the_watchdog)
{
    unsigned long flags = local_irq_save();
    *this_cpu_ptr(&watchdog_touch_ts) = jiffies - 10 * HZ;
    *this_cpu_ptr(&softlockup_reported) = true;
    local_irq_restore(flags);
    yield();                                    /* schedule(): nothing else may run */
    flags = local_irq_save();
    unsigned long since = jiffies - *this_cpu_ptr(&watchdog_touch_ts);
    bool rearmed = !*this_cpu_ptr(&softlockup_reported);
    local_irq_restore(flags);
    KT_EXPECT(since < HZ);
    KT_EXPECT(rearmed);
}

/* The planted lockup: interrupts on, no schedule point, never ends.  The
 * tick reports it after 2 * watchdog_thresh s and ktest_stuck() fails the
 * test and leaves QEMU; tools/tests/lockups.sh boots it with
 * test=watchdog.planted_spin_ends_the_boot watchdog_thresh=1 and checks the
 * report names this function and the FAIL line names the report. */
static volatile int watchdog_test_stop;

/* No cpu_relax() in the loop: QEMU leaves its translated code at every
 * pause, and under -icount (tools/testlib.sh) a pause loop runs a hundred
 * times slower than the guest's clock; the loops the detector is for (a
 * write loop retrying for ever) are plain code too. */
void __noipa watchdog_test_spin(void)
{
    while (!watchdog_test_stop)
        barrier();
}

KTEST_ENDS_BOOT(watchdog, planted_spin_ends_the_boot)
{
    local_irq_enable();
    watchdog_test_spin();
    ktest_fail(__FILE__, __LINE__, "the spin ended: the watchdog did not end the boot");
}
