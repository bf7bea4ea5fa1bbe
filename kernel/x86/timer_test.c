/* kernel/x86/timer_test.c: the ktests of timer.c (test=timer); built into the
 * test kernel only (make check), never into the production kernel. */
#include <kernel.h>
#include <init.h>
#include <irq.h>
#include <timer.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <ktest.h>
#include "apic.h"

KTEST(timer, jiffies_advance)
{
    KT_ASSERT(!irqs_disabled());
    unsigned long j0 = jiffies;
    for (long spin = 0; spin < 200000000 && jiffies - j0 < 5; spin++)
        cpu_relax();
    KT_EXPECT(jiffies - j0 >= 5);
    KT_EXPECT(time_after(jiffies, j0));
    KT_EXPECT(!time_after(j0, jiffies));
}

static volatile unsigned long hook_ticks;
static volatile bool hook_saw_kernel_regs;
static void test_tick(struct pt_regs *regs)
{
    hook_ticks++;
    /* the tick's own trap frame: the boot CPU's APIC timer, or the PIT's IRQ 0 */
    if (regs && regs->trapno == (lapic_timer_ticks ? LOCAL_TIMER_VECTOR : 0x20))
        hook_saw_kernel_regs = true;
}

KTEST(timer, tick_hook_called)
{
    hook_ticks = 0;
    tick_hook_t old = timer_set_tick_hook(test_tick);
    unsigned long j0 = jiffies;
    while (jiffies - j0 < 4)
        hlt();
    tick_hook_t mine = timer_set_tick_hook(old);
    KT_EXPECT(mine == test_tick);
    KT_EXPECT(hook_ticks >= 3);
    KT_EXPECT(hook_saw_kernel_regs);
}

KTEST(timer, mdelay_matches_jiffies)
{
    /* 200 ms measured on the PIT counter should be ~20 ticks.  Never short
     * (>= 10, every time).  Not long either, but a host that stops QEMU for
     * a while lengthens any one run in real time, ticks and all; so up to
     * three tries, of which the best must be <= 40. */
    unsigned long best = ~0UL;
    for (int i = 0; i < 3 && best > 40; i++) {
        unsigned long j0 = jiffies;
        mdelay(200);
        unsigned long dj = jiffies - j0;
        KT_EXPECT(dj >= 10);
        if (dj < best)
            best = dj;
    }
    KT_EXPECT(best <= 40);
}
