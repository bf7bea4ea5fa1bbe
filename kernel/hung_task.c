/* kernel/hung_task.c: the hung-task watchdog, a debugging aid (boot option
 * hung_task=SECONDS, off by default).  Sits on the timer tick (called from
 * scheduler_tick, interrupts off) and on show_state() in kernel/sched.c.
 *
 * "Progress" is console output: every printk() counts (ktest prints a line
 * per test start and verdict, the ext2 tests one per step).  When nothing
 * was printed for SECONDS, the watchdog prints every task's state and
 * backtrace (show_state), then where the tick interrupted the CPU (EIP and
 * the Call Trace of the interrupted code, show_regs_trace), so a hang in a
 * test boot shows who sleeps on what instead of a silent QEMU timeout.  It
 * reports again after another silent SECONDS, at most HUNG_TASK_MAX_REPORTS
 * times.  Then hung_task_panic=1 panics ("hung_task: blocked tasks", Linux's
 * words); in the test kernel a report during a ktest fails that test and
 * ends the boot (ktest_stuck(), include/ktest_bug.h).
 *
 * Simplification on purpose: Linux's khungtaskd is a thread that looks for
 * tasks in state D that have not been switched to for 120 s.  Ours runs in
 * the tick, so it also reports a task spinning with interrupts on in a
 * loop that reaches schedule points (cond_resched()) but never ends; a loop
 * that reaches none is the soft-lockup detector's (kernel/watchdog.c), and
 * one with interrupts off stops the tick and stays silent (Linux's NMI
 * watchdog). */
#include <kernel.h>
#include <init.h>
#include <cmdline.h>
#include <sched.h>
#include <timer.h>
#include <string.h>
#include <ksyms.h>
#include <ktest_bug.h>
#include <asm/ptrace.h>

#define HUNG_TASK_MAX_REPORTS 3

static unsigned long hung_task_jiffies;       /* 0: off */
int hung_task_panic;                           /* panic after a report */
static unsigned long last_count, last_change;
static int reports;

/* Has the console been silent for hung_task_jiffies?  Notes progress
 * (output since the last tick restarts the clock). */
static bool hung_task_due(void)
{
    if (!hung_task_jiffies || reports >= HUNG_TASK_MAX_REPORTS)
        return false;
    unsigned long now = READ_ONCE(printk_count);
    if (now != last_count) {
        last_count = now;
        last_change = jiffies;
        return false;
    }
    return jiffies - last_change >= hung_task_jiffies;
}

static void hung_task_report(struct pt_regs *regs)
{
    reports++;
    printk(KERN_ERR "hung_task: no console output for %lu s (jiffies %lu); all tasks:\n",
           hung_task_jiffies / HZ, jiffies);
    show_state();
    if (regs) {                            /* where the tick found the CPU */
        printk(KERN_ERR "  the tick interrupted pid %d (%s) in %s mode:\n", current->pid,
               current->comm, user_mode(regs) ? "user" : "kernel");
        show_regs_trace(regs);
    }
    last_count = READ_ONCE(printk_count);  /* our own report is not progress */
    last_change = jiffies;
}

void hung_task_tick(struct pt_regs *regs)
{
    if (!hung_task_due())
        return;
    hung_task_report(regs);
    if (hung_task_panic)
        panic("hung_task: blocked tasks");
    ktest_stuck("hung task", NULL);
}

static void hung_task_init(void)
{
    const char *v = cmdline_get("hung_task");
    if (!v || !*v)
        return;
    hung_task_jiffies = simple_strtoul(v, NULL, 10) * HZ;
    last_change = jiffies;
    v = cmdline_get("hung_task_panic");
    if (v)
        hung_task_panic = *v ? (int)simple_strtoul(v, NULL, 10) : 1;
    if (hung_task_jiffies)
        printk(KERN_INFO "hung_task: reporting all tasks after %lu s without output%s\n",
               hung_task_jiffies / HZ, hung_task_panic ? " (then panic)" : "");
}
core_initcall(hung_task_init);
