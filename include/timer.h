/* include/timer.h: the system tick (kernel/x86/timer.c) and the wall clock
 * read from the RTC (kernel/x86/rtc.c, kernel/sys.c).
 *
 * The tick comes HZ times a second: from the 8254 PIT's channel 0 on IRQ 0
 * at boot, then from the boot CPU's local APIC timer once smpboot.c has
 * calibrated it (kernel/x86/apic.c; the PIT's IRQ is given up, its counter
 * stays the ruler of udelay), or from the PIT for good on a CPU without a
 * local APIC.  Every other CPU's local APIC timer ticks too.  Each tick
 * (timer_tick): the boot CPU's increments jiffies; then every CPU's calls
 * the tick hook (the scheduler installs one: it accounts this CPU's running
 * task and sets need_resched, and on the boot CPU wakes sleepers whose
 * timeout expired).  The hook runs in interrupt context, interrupts off,
 * after the EOI.
 */
#ifndef _TIMER_H
#define _TIMER_H
#include <types.h>
#include <asm/ptrace.h>

#define HZ 100
#define PIT_HZ 1193182                 /* the 8254's input clock */

/* Ticks since boot.  32 bits at 100 Hz wrap after 497 days; compare with
 * time_after() so a wrap does no harm, as Linux. */
extern volatile unsigned long jiffies;

#define time_after(a, b)     ((long)((b) - (a)) < 0)
#define time_before(a, b)    time_after(b, a)
#define time_after_eq(a, b)  ((long)((a) - (b)) >= 0)
#define msecs_to_jiffies(ms) (((unsigned long)(ms) * HZ + 999) / 1000)
#define jiffies_to_msecs(j)  ((unsigned long)(j) * (1000 / HZ))

typedef void (*tick_hook_t)(struct pt_regs *regs);
/* Install the (single) tick hook; NULL removes it.  Returns the previous
 * hook, so a test can chain or restore it.  There is deliberately one hook,
 * not a list: the scheduler owns the tick (Linux: scheduler_tick()). */
tick_hook_t timer_set_tick_hook(tick_hook_t fn);

/* Busy-wait delays for drivers, measured on the PIT counter (accurate to a
 * few microseconds; works with interrupts on or off; before timer_init()
 * falls back to port-0x80 waits of roughly 1 us each).  Do not use for
 * long waits in process context: sleep instead. */
void udelay(unsigned long usecs);
void mdelay(unsigned long msecs);

void timer_init(void);
/* One tick: jiffies, then the hook; the tick source's interrupt calls it. */
void timer_tick(struct pt_regs *regs);
/* Give up the PIT's IRQ 0: the boot CPU's local APIC timer ticks now. */
void pit_stop_tick(void);

/* The wall clock, in seconds since the epoch.  read_persistent_clock():
 * the RTC (kernel/x86/rtc.c), read once at boot by the timekeeping code
 * (kernel/sys.c) into boot_time, the wall clock at jiffies 0;
 * ktime_get_real_seconds(): now, what CLOCK_REALTIME and current_time()
 * say (inline: every write(2) asks it, through file_update_time). */
time_t read_persistent_clock(void);
extern unsigned long boot_time;
static inline time_t ktime_get_real_seconds(void)
{
    return (time_t)(boot_time + jiffies / HZ);
}
#endif
