/* kernel/watchdog.c: the soft-lockup detector (Linux's kernel/watchdog.c,
 * simplified), a debugging aid, on by default.  Sits on the timer tick
 * (softlockup_tick(), called from the scheduler's tick hook in
 * kernel/sched.c, interrupts off) and on schedule(), which touches it.
 * Interface: include/watchdog.h.
 *
 * The kernel is not preemptible: a task in kernel mode keeps the CPU until
 * it reaches a schedule point (schedule(), which cond_resched(), every sleep
 * and the way back to user mode go through).  A kernel loop that never
 * reaches one -- a write loop retrying a chunk forever, a wait that spins on
 * a flag only another task could set -- stops every other task, but not
 * the interrupts, so the tick sees it.  The watchdog keeps the jiffies of the
 * last schedule point (watchdog_touch_ts); a tick that finds the CPU idle or
 * in user mode moves it too (there the CPU can be taken away).  A tick that
 * finds the CPU in kernel mode for 2 * watchdog_thresh seconds or more since
 * then reports a soft lockup, with where it interrupted the loop:
 *
 *   BUG: soft lockup - CPU#0 stuck for 2s! [swapper:0]
 *   EIP: generic_perform_write+0xae/0xae0
 *   Call Trace:
 *     [<c011175e>] generic_file_write_iter+0x11e/0x260
 *     ...
 *   ---[ end trace ]---
 *
 * once per lockup (the next report needs a schedule point first).  Then
 * softlockup_panic=1 panics ("softlockup: hung tasks", Linux's words); in
 * the test kernel a lockup during a ktest fails that test and ends the boot
 * (ktest_stuck(), include/ktest_bug.h); otherwise the loop goes on, as in
 * Linux without softlockup_panic.
 *
 * Simplification on purpose: Linux's hrtimer wakes a per-CPU stopper thread
 * of the highest priority every 4 s, which writes the timestamp, and checks
 * on the next expiry that the thread got to run.  No priorities here: the
 * timestamp is written by schedule() itself, and the CPU's own tick checks
 * it -- the same question (did this CPU schedule lately?) without the
 * thread; each CPU has its own timestamp.  Neither sees a loop with interrupts off, which stops the tick
 * too (Linux's hard-lockup detector uses the NMI; there is none here).
 *
 * Boot options, Linux's: watchdog_thresh=SECONDS (default 10: a report after
 * 20 s; 0 turns the detector off, as does nosoftlockup or nowatchdog),
 * softlockup_panic=1. */
#include <kernel.h>
#include <init.h>
#include <cmdline.h>
#include <sched.h>
#include <timer.h>
#include <string.h>
#include <ksyms.h>
#include <watchdog.h>
#include <ktest_bug.h>
#include <asm/ptrace.h>
#include <smp.h>

int watchdog_thresh = 10;
int softlockup_panic;
unsigned long softlockup_reports;
/* Each CPU's: the jiffies of its last schedule point, and whether its
 * current lockup was reported.  Written by that CPU only. */
static DEFINE_PER_CPU(unsigned long, watchdog_touch_ts);
static DEFINE_PER_CPU(int, softlockup_reported);

void touch_softlockup_watchdog(void)
{
    this_cpu_write(watchdog_touch_ts, jiffies);
    this_cpu_write(softlockup_reported, false);
}

/* A soft lockup to report now: how long (jiffies) the CPU has been in the
 * kernel without a schedule point; else 0 (the detector off, a schedule
 * point just now, not long enough, or already reported). */
static unsigned long is_softlockup(struct pt_regs *regs, bool idle)
{
    if (watchdog_thresh <= 0)
        return 0;
    if (idle || user_mode(regs)) {
        touch_softlockup_watchdog();
        return 0;
    }
    unsigned long stuck = jiffies - this_cpu_read(watchdog_touch_ts);
    if (this_cpu_read(softlockup_reported) || stuck < 2UL * watchdog_thresh * HZ)
        return 0;
    return stuck;
}

static void softlockup_report(struct pt_regs *regs, unsigned long stuck)
{
    this_cpu_write(softlockup_reported, true);
    softlockup_reports++;
    printk(KERN_EMERG "BUG: soft lockup - CPU#%d stuck for %lus! [%s:%d]\n",
           smp_processor_id(), stuck / HZ, current->comm, current->pid);
    show_regs_trace(regs);
    printk(KERN_EMERG "---[ end trace ]---\n");
}

void softlockup_tick(struct pt_regs *regs, bool idle)
{
    unsigned long stuck = is_softlockup(regs, idle);
    if (!stuck)
        return;
    softlockup_report(regs, stuck);
    if (softlockup_panic)
        panic("softlockup: hung tasks");
    ktest_stuck("soft lockup", NULL);
}

static void watchdog_init(void)
{
    const char *v = cmdline_get("watchdog_thresh");
    if (v && *v)
        watchdog_thresh = (int)simple_strtoul(v, NULL, 10);
    if (cmdline_get("nosoftlockup") || cmdline_get("nowatchdog"))
        watchdog_thresh = 0;
    v = cmdline_get("softlockup_panic");
    if (v)
        softlockup_panic = *v ? (int)simple_strtoul(v, NULL, 10) : 1;
    touch_softlockup_watchdog();
    if (watchdog_thresh > 0)
        printk(KERN_INFO "watchdog: soft lockup after %d s in the kernel without scheduling%s\n",
               2 * watchdog_thresh, softlockup_panic ? " (then panic)" : "");
}
core_initcall(watchdog_init);
