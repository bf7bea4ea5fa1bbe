/* kernel/x86/timer.c: the 8254 PIT as the system tick, HZ times a second,
 * until the boot CPU's local APIC timer takes the tick over (smpboot.c,
 * pit_stop_tick), plus timer_tick() whichever source calls it, and
 * udelay()/mdelay() (arch layer; interface in include/timer.h).
 *
 * Channel 0 runs in mode 2 (rate generator) with divisor LATCH, counting
 * LATCH..1 at 1.193182 MHz and raising IRQ 0 each time it wraps.  udelay()
 * reads the same counter back, so it needs no calibration loop. */
#include <kernel.h>
#include <init.h>
#include <irq.h>
#include <timer.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <smp.h>

#define PIT_CH0  0x40
#define PIT_CMD  0x43
#define LATCH    ((PIT_HZ + HZ / 2) / HZ)      /* 11932 for HZ = 100 */

volatile unsigned long jiffies;
static tick_hook_t tick_hook;
static bool pit_ready;

tick_hook_t timer_set_tick_hook(tick_hook_t fn)
{
    unsigned long flags = local_irq_save();
    tick_hook_t old = tick_hook;
    tick_hook = fn;
    local_irq_restore(flags);
    return old;
}

void timer_tick(struct pt_regs *regs)
{
    if (smp_processor_id() == 0)
        jiffies++;                     /* the boot CPU's tick is the clock */
    if (tick_hook)
        tick_hook(regs);
}

static void timer_interrupt(struct pt_regs *regs, void *data)
{
    timer_tick(regs);
}

void pit_stop_tick(void)
{
    free_irq(0, timer_interrupt, NULL);
}

static unsigned pit_read_counter(void)
{
    unsigned long flags = local_irq_save();
    outb(PIT_CMD, 0x00);               /* latch channel 0 */
    unsigned lo = inb(PIT_CH0);
    unsigned hi = inb(PIT_CH0);
    local_irq_restore(flags);
    return lo | hi << 8;
}

/* Busy-wait need PIT input ticks (1.193182 MHz), reading the counter. */
static void pit_delay(unsigned long long need)
{
    unsigned long long done = 0;
    unsigned long j0 = jiffies;
    unsigned prev = pit_read_counter();
    while (done < need) {
        unsigned now = pit_read_counter();
        done += now <= prev ? prev - now : prev + (LATCH - now);   /* counter wrapped */
        prev = now;
        /* Reading the counter less than once per wrap (10 ms) loses whole
         * wraps: a virtual machine whose host deschedules it does that,
         * and the delay then runs long.  With interrupts on, k ticks since
         * the start prove that at least k - 1 full periods passed. */
        unsigned long k = jiffies - j0;
        if (k >= 2 && (unsigned long long)(k - 1) * LATCH > done)
            done = (unsigned long long)(k - 1) * LATCH;
        cpu_relax();
    }
}

void udelay(unsigned long usecs)
{
    if (!pit_ready) {
        while (usecs--)
            io_wait();                 /* ~1 us per port 0x80 write on a PC */
        return;
    }
    /* PIT input ticks to wait: usecs * 1.193182 */
    pit_delay(((unsigned long long)usecs * PIT_HZ + 999999) / 1000000);
}

/* One measured delay, not msecs udelay(1000)s: the tick check in
 * pit_delay() can only correct lost wraps within one call. */
void mdelay(unsigned long msecs)
{
    if (!pit_ready) {
        while (msecs--)
            udelay(1000);
        return;
    }
    pit_delay(((unsigned long long)msecs * PIT_HZ + 999) / 1000);
}

void timer_init(void)
{
    outb(PIT_CMD, 0x34);               /* channel 0, lo/hi byte, mode 2, binary */
    outb(PIT_CH0, LATCH & 0xFF);
    outb(PIT_CH0, LATCH >> 8);
    pit_ready = true;
    if (request_irq(0, timer_interrupt, NULL))
        panic("timer: cannot get IRQ 0");
    printk(KERN_INFO "timer: PIT at %d Hz (divisor %d)\n", HZ, LATCH);
}
core_initcall(timer_init);
