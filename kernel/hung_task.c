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
