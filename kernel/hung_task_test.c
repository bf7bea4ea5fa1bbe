/* kernel/hung_task_test.c: the ktests of hung_task.c (test=hung_task); built
 * into the test kernel only (make check), never into the production kernel.
 * The tests reach hung_task.c's static functions and data, so this file
 * includes it: in the test kernel the two are one object (Makefile). */
#include "hung_task.c"
#include <ktest.h>

/* ---- tests: drive the check by hand, interrupts off so the real tick
 * (hung_task= may be on in a test boot) cannot touch the state meanwhile. */
#include <asm/irqflags.h>

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
    hung_task_tick(NULL);
    int off_reports = reports;

    /* On (5 ticks) and 10 ticks without output: one report, the task dump
     * printed (the header and a line per task at least), then re-armed. */
    hung_task_jiffies = 5;
    last_change = jiffies - 10;
    unsigned long before = printk_count;
    hung_task_tick(NULL);
    int first = reports;
    unsigned long printed = printk_count - before;
    int rearmed = last_change == jiffies && last_count == printk_count;

    /* At once again: the report itself is not progress, but it restarted
     * the silence clock, so no second report yet. */
    hung_task_tick(NULL);
    int again = reports;

    /* Output since: progress noted, no report, the clock restarts. */
    last_change = jiffies - 10;
    printk_count++;
    hung_task_tick(NULL);
    int after_output = reports;
    int noted = last_count == printk_count && last_change == jiffies;

    /* At most HUNG_TASK_MAX_REPORTS. */
    reports = HUNG_TASK_MAX_REPORTS;
    last_change = jiffies - 10;
    hung_task_tick(NULL);
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
