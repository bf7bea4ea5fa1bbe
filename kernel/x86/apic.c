/* kernel/x86/apic.c: the local APIC (arch layer; Linux 2.6.24's
 * arch/x86/kernel/apic_32.c, in the small).
 *
 * Owns each CPU's local APIC: mapped once (its registers are the 4 KiB page
 * at mp_info's address, 0xFEE00000 on every PC, the same physical page for
 * every CPU, each CPU seeing its own APIC there), uncached, at a fixed
 * virtual address (FIX_APIC_BASE, include/asm/pgtable.h); enabled on each
 * CPU through the spurious-interrupt vector register; its id and version
 * read; the interrupt command register (ICR) that sends IPIs: INIT and
 * STARTUP for smpboot.c, the fixed vectors of smp.c; the EOI register; and
 * the APIC timer, one per CPU: calibrated once against the PIT, then
 * periodic at HZ on every CPU (SMP step 2, docs/smp.md).
 *
 * Interrupt sources: the boot CPU's LINT0 is in "virtual wire" mode
 * (ExtINT: the 8259A's INTR comes through) until the I/O APIC takes over
 * (io_apic.c masks it then); LINT1 is NMI; the APs' LINT0 and LINT1 are
 * masked. */
#include <kernel.h>
#include <timer.h>
#include <smp.h>
#include <asm/irqflags.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include "apic.h"

static volatile uint32_t *lapic;       /* the register page, or NULL */
unsigned long lapic_timer_ticks;

bool lapic_present(void)
{
    return lapic != NULL;
}

uint32_t apic_read(unsigned reg) { return lapic[reg / 4]; }
void apic_write(unsigned reg, uint32_t v) { lapic[reg / 4] = v; }

bool lapic_map(uint32_t phys)
{
    if (!(cpuid_edx(1) & (1u << X86_FEATURE_APIC))) {
        printk(KERN_INFO "apic: this CPU has no local APIC\n");
        return false;
    }
    set_fixmap_nocache(FIX_APIC_BASE, phys & PAGE_MASK);
    lapic = (volatile uint32_t *)fix_to_virt(FIX_APIC_BASE);
    printk(KERN_INFO "apic: local APIC at %#x mapped at %#lx (uncached), id %u, version %#x\n",
           phys, fix_to_virt(FIX_APIC_BASE), read_apic_id(), apic_read(APIC_LVR) & 0xFF);
    return true;
}

unsigned read_apic_id(void)
{
    return apic_read(APIC_ID) >> 24;
}

/* Linux's setup_local_APIC, step 1's part: accept every priority, the
 * boot CPU's LINT0 in virtual-wire mode (the 8259A's INTR through, ExtINT)
 * and LINT1 NMI; the APs' both masked; timer and error entries masked;
 * then software-enable with the spurious vector. */
void setup_local_APIC(bool boot_cpu)
{
    apic_write(APIC_TASKPRI, 0);
    apic_write(APIC_LVTT, APIC_LVT_MASKED);
    apic_write(APIC_LVTERR, APIC_LVT_MASKED);
    apic_write(APIC_LVT0, APIC_DM_EXTINT | (boot_cpu ? 0 : APIC_LVT_MASKED));
    apic_write(APIC_LVT1, APIC_DM_NMI | (boot_cpu ? 0 : APIC_LVT_MASKED));
    apic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | SPURIOUS_APIC_VECTOR);
    apic_write(APIC_ESR, 0);           /* the error register: write, then read */
    (void)apic_read(APIC_ESR);
}

/* Wait (bounded, 10 ms of guest time) until the ICR has sent the last IPI;
 * 0, or -1 if it never did. */
static int apic_wait_icr_idle(void)
{
    for (int i = 0; i < 1000; i++) {
        if (!(apic_read(APIC_ICR) & APIC_ICR_BUSY))
            return 0;
        udelay(10);
    }
    return -1;
}

int apic_send_ipi(unsigned apicid, uint32_t icr)
{
    apic_write(APIC_ICR2, apicid << 24);
    apic_write(APIC_ICR, icr);         /* the write to the low word sends it */
    return apic_wait_icr_idle();
}

/* The IPIs of smp.c: a fixed vector to one CPU (by its APIC id), or to all
 * but this one (the ICR's shorthand: no destination needed).  Interrupts
 * off between the two ICR writes, so a handler sending its own IPI cannot
 * change the destination under us. */
int send_IPI_mask_one(int cpu, unsigned vector)
{
    unsigned long flags = local_irq_save();
    int ret = apic_send_ipi(per_cpu(cpu_info, cpu).apicid, APIC_DM_FIXED | vector);
    local_irq_restore(flags);
    return ret;
}

int send_IPI_allbutself(unsigned vector)
{
    unsigned long flags = local_irq_save();
    apic_write(APIC_ICR, APIC_DEST_ALLBUT | APIC_DM_FIXED | vector);
    int ret = apic_wait_icr_idle();
    local_irq_restore(flags);
    return ret;
}

void ack_APIC_irq(void)
{
    apic_write(APIC_EOI, 0);
}

void lapic_mask_lint0(void)
{
    apic_write(APIC_LVT0, apic_read(APIC_LVT0) | APIC_LVT_MASKED);
}

/* Linux's calibrate_APIC_clock, in the small: let the APIC timer count
 * down from its maximum (divided by 16) over one tick of the PIT's counter
 * (mdelay reads it: guest time under -icount, so the result is the same on
 * every run), and keep the count.  Linux measures over HZ/10 ticks of the
 * PIT's interrupt; one tick read on the counter is as exact here. */
void calibrate_APIC_clock(void)
{
    apic_write(APIC_TDCR, APIC_TDR_DIV_16);
    apic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
    apic_write(APIC_TMICT, 0xFFFFFFFF);
    uint32_t t0 = apic_read(APIC_TMCCT);
    mdelay(1000 / HZ);
    uint32_t t1 = apic_read(APIC_TMCCT);
    apic_write(APIC_TMICT, 0);         /* stopped until setup_APIC_timer */
    lapic_timer_ticks = t0 - t1;
    /* In whole MHz: the count itself depends on where in its period the
     * PIT's counter was when mdelay began (a few counts in 625000 on QEMU),
     * and the boot log must read the same on every run (docs/smp.md). */
    unsigned long long hz = (unsigned long long)lapic_timer_ticks * 16 * HZ;
    printk(KERN_INFO "apic: host bus clock speed is %lu MHz\n",
           (unsigned long)((hz + 500000) / 1000000));
}

/* This CPU's periodic tick: LOCAL_TIMER_VECTOR every lapic_timer_ticks
 * counts (smp_apic_timer_interrupt, smp.c). */
void setup_APIC_timer(void)
{
    apic_write(APIC_TDCR, APIC_TDR_DIV_16);
    apic_write(APIC_LVTT, APIC_LVT_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
    apic_write(APIC_TMICT, lapic_timer_ticks);
}
