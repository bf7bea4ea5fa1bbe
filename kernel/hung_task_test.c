/* kernel/hung_task_test.c: the ktests of hung_task.c (test=hung_task); built
 * into the test kernel only (make check), never into the production kernel.
 * The tests reach hung_task.c's static functions and data, so this file
 * includes it: in the test kernel the two are one object (Makefile). */
#include "hung_task.c"
#include <ktest.h>

/* ---- tests: drive the check by hand, interrupts off so the real tick
 * (hung_task= may be on in a test boot) cannot touch the state meanwhile.
 * tick() is hung_task_tick() without what follows a report (a panic, or the
 * end of a test boot: ktest_stuck). */
#include <asm/irqflags.h>
#include <asm/segment.h>
#include <completion.h>

static void tick(void)
{
    if (hung_task_due())
        hung_task_report(NULL);
}

KTEST(hung_task, reports_after_silence_and_rearms)
{
    unsigned long flags = local_irq_save();
    unsigned long saved_j = hung_task_jiffies, saved_count = last_count;
    unsigned long saved_change = last_change;
    int saved_reports = reports;

    /* Off: nothing happens however long the silence. */
    hung_task_jiffies = 0;
    reports = 0;
    last_count = printk_count;
    last_change = jiffies - 100 * HZ;
    tick();
    int off_reports = reports;

    /* On (5 ticks) and 10 ticks without output: one report, the task dump
     * printed (the header and a line per task at least), then re-armed. */
    hung_task_jiffies = 5;
    last_change = jiffies - 10;
    unsigned long before = printk_count;
    tick();
    int first = reports;
    unsigned long printed = printk_count - before;
    int rearmed = last_change == jiffies && last_count == printk_count;

    /* At once again: the report itself is not progress, but it restarted
     * the silence clock, so no second report yet. */
    tick();
    int again = reports;

    /* Output since: progress noted, no report, the clock restarts. */
    last_change = jiffies - 10;
    printk_count++;
    tick();
    int after_output = reports;
    int noted = last_count == printk_count && last_change == jiffies;

    /* At most HUNG_TASK_MAX_REPORTS. */
    reports = HUNG_TASK_MAX_REPORTS;
    last_change = jiffies - 10;
    tick();
    int capped = reports;

    hung_task_jiffies = saved_j;
    last_count = saved_count;
    last_change = saved_change;
    reports = saved_reports;
    local_irq_restore(flags);

    KT_EXPECT_EQ(off_reports, 0);
    KT_EXPECT_EQ(first, 1);
    KT_EXPECT(printed >= 2);
    KT_EXPECT(rearmed);
    KT_EXPECT_EQ(again, 1);
    KT_EXPECT_EQ(after_output, 1);
    KT_EXPECT(noted);
    KT_EXPECT_EQ(capped, HUNG_TASK_MAX_REPORTS);
}

/* The report says where the tick found the CPU, as a symbol and a Call
 * Trace (a made-up kernel-mode frame: an address inside this file's
 * hung_task_test_where, the test's own frame pointer). */
void __noipa hung_task_test_where(void)
{
    barrier();
}

KTEST(hung_task, report_names_the_interrupted_function)
{
    struct pt_regs regs;
    memset(&regs, 0, sizeof regs);
    regs.ip = (unsigned long)hung_task_test_where + 1;
    regs.cs = __KERNEL_CS;
    regs.bp = (unsigned long)__builtin_frame_address(0);
    unsigned long flags = local_irq_save();
    unsigned long saved_j = hung_task_jiffies, saved_count = last_count;
    unsigned long saved_change = last_change;
    int saved_reports = reports;
    hung_task_jiffies = 3 * HZ;
    reports = 0;
    printk(KERN_INFO "hung_task_test: report follows\n");
    hung_task_report(&regs);
    int counted = reports;
    hung_task_jiffies = saved_j;
    last_count = saved_count;
    last_change = saved_change;
    reports = saved_reports;
    local_irq_restore(flags);

    const char *log = ktest_log_since("hung_task_test: report follows");
    const char *where = ktest_find(log, "the tick interrupted pid 0 (swapper) in kernel mode:");
    KT_EXPECT_EQ(counted, 1);
    KT_EXPECT(ktest_find(log, "hung_task: no console output for 3 s") != NULL);
    KT_EXPECT(where != NULL);
    KT_EXPECT(where && ktest_find(where, "EIP: hung_task_test_where+0x1/0x") != NULL);
    KT_EXPECT(where && ktest_find(where, "Call Trace:") && ktest_find(where, "] ktest_run+0x"));
}

/* The planted hang: the test's own task sleeps in state D for good.  With
 * hung_task=N the silence is reported after N s and ktest_stuck() fails the
 * test and leaves QEMU; tools/tests/lockups.sh boots it alone and checks. */
KTEST_ENDS_BOOT(hung_task, planted_sleep_ends_the_boot)
{
    struct completion never;
    init_completion(&never);
    wait_for_completion(&never);
    ktest_fail(__FILE__, __LINE__, "woken: nothing completes it");
}
