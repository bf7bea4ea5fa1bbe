/* kernel/x86/apic.c: the local APIC (arch layer; Linux 2.6.24's
 * arch/x86/kernel/apic_32.c, in the small).
 *
 * Owns each CPU's local APIC as SMP step 1 uses it: mapped once (its
 * registers are the 4 KiB page at mp_info's address, 0xFEE00000 on every
 * PC, the same physical page for every CPU, each CPU seeing its own APIC
 * there), uncached, at a fixed virtual address (FIX_APIC_BASE,
 * include/asm/pgtable.h); enabled on each CPU through the spurious-interrupt
 * vector register; its id and version read; and the inter-processor
 * interrupts that start a CPU (INIT, STARTUP: smpboot.c).
 *
 * The 8259A PIC and the PIT stay the interrupt and timer source, on the
 * boot CPU only, through the boot CPU's LINT0 in "virtual wire" mode
 * (ExtINT); the APs' LINT0 and LINT1 are masked.  The I/O APIC, the APIC
 * timer and IPIs for work are SMP step 2 (docs/smp.md). */
#include <kernel.h>
#include <timer.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include "apic.h"

static volatile uint32_t *lapic;       /* the register page, or NULL */
unsigned long apic_spurious_count;     /* entry.S's spurious_interrupt counts */

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
