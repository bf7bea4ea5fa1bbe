/* kernel/x86/io_apic.c: the I/O APIC, the ISA interrupts' router on SMP
 * (arch layer; Linux 2.6.24's arch/x86/kernel/io_apic_32.c, in the small;
 * docs/smp.md).
 *
 * Owns the first I/O APIC the firmware lists (mp_info, from ACPI's MADT or
 * the MP table): mapped uncached at a fixmap (FIX_IO_APIC_BASE_0), its
 * version and number of pins read, every redirection entry masked, then
 * it becomes the irq_chip of pic.c ("IO-APIC-edge"): ISA IRQ n goes out on
 * its pin (the GSI: n, unless an interrupt source override or an MP
 * interrupt entry moves it; QEMU's IRQ 0 is pin 2) to the boot CPU, fixed
 * delivery, on vector 0x20 + n as through the 8259A, edge triggered and
 * active high unless the override says otherwise.  The 8259A is masked and
 * the boot CPU's LINT0 (its virtual wire) too; the EOI goes to the local
 * APIC.  No I/O APIC, or `noapic` or `nosmp` on the command line: the 8259A
 * stays, as Linux's fallback.
 *
 * Simplifications: one I/O APIC (its GSI base taken to be 0), and every
 * routed line goes to the boot CPU (Linux spreads them; the APs run no
 * driver yet).  ioapic_lock serializes the register window (IOREGSEL then
 * IOWIN: two accesses that must not interleave); it is a leaf lock. */
#include <kernel.h>
#include <cmdline.h>
#include <irq.h>
#include <smp.h>
#include <spinlock.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/traps.h>
#include "apic.h"
#include "mpparse.h"

#define IO_APIC_ID      0x00
#define IO_APIC_VERSION 0x01           /* bits 7-0 version, 23-16 the last pin */
#define IO_APIC_REDTBL  0x10           /* pin n: 0x10 + 2n (low), 0x11 + 2n (high) */
#define   IO_APIC_POLARITY_LOW 0x2000
#define   IO_APIC_TRIGGER_LEVEL 0x8000
#define   IO_APIC_MASKED       0x10000

static volatile uint32_t *ioapic;      /* IOREGSEL at [0], IOWIN at [4] */
static unsigned nr_ioapic_pins;
static DEFINE_SPINLOCK(ioapic_lock);

static uint32_t io_apic_read(unsigned reg)
{
    ioapic[0] = reg;
    return ioapic[4];
}

static void io_apic_write(unsigned reg, uint32_t v)
{
    ioapic[0] = reg;
    ioapic[4] = v;
}

/* Pin of ISA irq, and its redirection entry's low word (masked). */
static uint32_t isa_irq_entry(unsigned irq, unsigned *pin)
{
    uint16_t flags = mp_info.isa_irq[irq].flags;
    uint32_t low = (FIRST_EXTERNAL_VECTOR + irq) | APIC_DM_FIXED | IO_APIC_MASKED;
    if ((flags & MP_IRQPOL_MASK) == MP_IRQPOL_LOW)
        low |= IO_APIC_POLARITY_LOW;
    if ((flags & MP_IRQTRIG_MASK) == MP_IRQTRIG_LEVEL)
        low |= IO_APIC_TRIGGER_LEVEL;
    *pin = mp_info.isa_irq[irq].gsi;
    return low;
}

static void io_apic_set_masked(unsigned irq, bool masked)
{
    unsigned pin;
    uint32_t low = isa_irq_entry(irq, &pin);
    if (pin >= nr_ioapic_pins) {
        WARN(!masked, "IO-APIC: IRQ %u is on pin %u, past the last (%u)", irq, pin,
             nr_ioapic_pins - 1);
        return;
    }
    unsigned long flags;
    spin_lock_irqsave(&ioapic_lock, flags);
    /* the high word first: the entry is masked until the low word says not */
    io_apic_write(IO_APIC_REDTBL + 2 * pin + 1, (uint32_t)per_cpu(cpu_info, 0).apicid << 24);
    io_apic_write(IO_APIC_REDTBL + 2 * pin, masked ? low : low & ~IO_APIC_MASKED);
    spin_unlock_irqrestore(&ioapic_lock, flags);
}

static void mask_IO_APIC_irq(unsigned irq) { io_apic_set_masked(irq, true); }
static void unmask_IO_APIC_irq(unsigned irq) { io_apic_set_masked(irq, false); }
static void ack_IO_APIC_irq(unsigned irq) { ack_APIC_irq(); }

static const struct irq_chip ioapic_chip = {
    .name = "IO-APIC-edge", .mask = mask_IO_APIC_irq, .unmask = unmask_IO_APIC_irq,
    .eoi = ack_IO_APIC_irq,
};

bool setup_IO_APIC(void)
{
    const char *why = NULL;
    if (cmdline_get("noapic"))
        why = "noapic";
    else if (cmdline_get("nosmp"))
        why = "nosmp";
    else if (!mp_info.nr_ioapics)
        why = "no I/O APIC";
    if (why) {
        printk(KERN_INFO "Using the 8259A for interrupt routing (%s)\n", why);
        return false;
    }
    set_fixmap_nocache(FIX_IO_APIC_BASE_0, mp_info.ioapic[0].addr & PAGE_MASK);
    ioapic = (volatile uint32_t *)(fix_to_virt(FIX_IO_APIC_BASE_0) +
                                   (mp_info.ioapic[0].addr & ~PAGE_MASK));
    uint32_t ver = io_apic_read(IO_APIC_VERSION);
    nr_ioapic_pins = ((ver >> 16) & 0xFF) + 1;
    printk(KERN_INFO "IOAPIC[0]: apic_id %u, version %#x, address %#x, GSI 0-%u\n",
           mp_info.ioapic[0].apicid, ver & 0xFF, mp_info.ioapic[0].addr, nr_ioapic_pins - 1);
    for (unsigned pin = 0; pin < nr_ioapic_pins; pin++)
        io_apic_write(IO_APIC_REDTBL + 2 * pin, IO_APIC_MASKED);
    printk(KERN_INFO "ENABLING IO-APIC IRQs\n");
    irq_set_chip(&ioapic_chip);        /* masks the 8259A, unmasks our lines here */
    lapic_mask_lint0();
    return true;
}
