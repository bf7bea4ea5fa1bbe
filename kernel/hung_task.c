/* kernel/hung_task.c: the hung-task watchdog, a debugging aid (boot option
 * hung_task=SECONDS, off by default).  Sits on the timer tick (called from
 * scheduler_tick, interrupts off) and on show_state() in kernel/sched.c.
 *
 * "Progress" is console output: every printk() counts (ktest prints a line
 * per test start and verdict, the ext2 tests one per step).  When nothing
 * was printed for SECONDS, the watchdog prints every task's state and
 * backtrace (show_state), so a hang in a test boot shows who sleeps on what
 * instead of a silent QEMU timeout.  It reports again after another silent
 * SECONDS, at most HUNG_TASK_MAX_REPORTS times.
 *
 * Simplification on purpose: Linux's khungtaskd is a thread that looks for
 * tasks in state D that have not been switched to for 120 s.  Ours runs in
 * the tick, so it also reports a task spinning with interrupts on in a
 * non-preemptible loop (a thread could never run then).  A loop with
 * interrupts off stops the tick and stays silent (Linux's NMI watchdog). */
#include <kernel.h>
#include <init.h>
#include <cmdline.h>
#include <sched.h>
#include <timer.h>
#include <string.h>
#include <asm/ptrace.h>

#define HUNG_TASK_MAX_REPORTS 3

static unsigned long hung_task_jiffies;       /* 0: off */
static unsigned long last_count, last_change;
static int reports;

void hung_task_tick(struct pt_regs *regs)
{
    if (!hung_task_jiffies || reports >= HUNG_TASK_MAX_REPORTS)
        return;
    unsigned long now = READ_ONCE(printk_count);
    if (now != last_count) {
        last_count = now;
        last_change = jiffies;
        return;
    }
    if (jiffies - last_change < hung_task_jiffies)
        return;
    reports++;
    printk(KERN_ERR "hung_task: no console output for %lu s (jiffies %lu); all tasks:\n",
           hung_task_jiffies / HZ, jiffies);
    show_state();
    if (regs && !user_mode(regs)) {        /* where the tick interrupted current */
        unsigned long lo = current->stack ? (unsigned long)current->stack : 0;
        printk("  the tick interrupted pid %d at %08lx:\n", current->pid, regs->ip);
        if (lo)
            sched_backtrace(regs->bp, lo, lo + THREAD_SIZE);
    }
    last_count = READ_ONCE(printk_count);  /* our own report is not progress */
    last_change = jiffies;
}

static void hung_task_init(void)
{
    const char *v = cmdline_get("hung_task");
    if (!v || !*v)
        return;
    hung_task_jiffies = simple_strtoul(v, NULL, 10) * HZ;
    last_change = jiffies;
    if (hung_task_jiffies)
        printk(KERN_INFO "hung_task: reporting all tasks after %s s without output\n", v);
}
core_initcall(hung_task_init);

/* ---- tests: drive the check by hand, interrupts off so the real tick
 * (hung_task= may be on in a test boot) cannot touch the state meanwhile. */
#include <ktest.h>
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

    KEXPECT_EQ(off_reports, 0);
    KEXPECT_EQ(first, 1);
    KEXPECT(printed >= 2);
    KEXPECT(rearmed);
    KEXPECT_EQ(again, 1);
    KEXPECT_EQ(after_output, 1);
    KEXPECT(noted);
    KEXPECT_EQ(capped, HUNG_TASK_MAX_REPORTS);
}
