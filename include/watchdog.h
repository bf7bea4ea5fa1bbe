/* include/watchdog.h: the soft-lockup detector (kernel/watchdog.c; Linux
 * declares the same in include/linux/nmi.h).
 *
 * A task in kernel mode that runs for 2 * watchdog_thresh seconds (boot
 * option, default 10) without reaching a schedule point is reported by the
 * timer tick: "BUG: soft lockup - CPU#0 stuck for 22s! [comm:pid]", with the
 * place and the Call Trace of the loop.  Code that runs that long without
 * scheduling on purpose (a dump of every task, a long busy-wait) calls
 * touch_softlockup_watchdog() as it goes. */
#ifndef _WATCHDOG_H
#define _WATCHDOG_H
#include <types.h>

struct pt_regs;

/* "This CPU just reached a schedule point": schedule() calls it, and so
 * may code that knowingly keeps the CPU (the clock starts again). */
void touch_softlockup_watchdog(void);
/* The timer tick's check (kernel/sched.c, interrupts off): regs is the
 * interrupted context, idle whether the tick ended a halt with nothing to
 * run.  Idle and user mode count as schedule points. */
void softlockup_tick(struct pt_regs *regs, bool idle);

extern int watchdog_thresh;            /* seconds; 0: the detector is off */
extern int softlockup_panic;           /* panic after the report */
extern unsigned long softlockup_reports;   /* reports since boot */
#endif
