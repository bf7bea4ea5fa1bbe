/* kernel/x86/io_apic.c: the I/O APIC, the ISA interrupts' router on SMP
 * (arch layer; Linux 2.6.24's arch/x86/kernel/io_apic_32.c, in the small;
 * docs/smp.md).
 *
 * Owns the first I/O APIC the firmware lists (mp_info, from ACPI's MADT or
 * the MP table): mapped uncached at a fixmap (FIX_IO_APIC_BASE_0), its
 * version and number of pins read, every redirection entry masked, then
 * it becomes the irq_chip of pic.c ("IO-APIC-edge"): ISA IRQ n goes out on
 * its pin (the GSI: n, unless an interrupt source override or an MP
 * interrupt entry moves it; QEMU's IRQ 0 is pin 2) to one CPU, fixed
 * delivery, physical destination, on vector 0x20 + n as through the 8259A,
 * edge triggered and active high unless the override says otherwise.  The
 * 8259A is masked and the boot CPU's LINT0 (its virtual wire) too; the EOI
 * goes to the local APIC of the CPU that took the interrupt.  No I/O APIC,
 * or `noapic` or `nosmp` on the command line: the 8259A stays, as Linux's
 * fallback.
 *
 * Which CPU (docs/smp.md, "The I/O APIC"): the boot CPU until the APs are
 * up; then setup_ioapic_dest spreads the lines round robin over the online
 * CPUs by line number (IRQ n to the (n mod N)th of N online CPUs), those
 * opened later too (Linux's vector allocator spreads them too when nothing
 * moves them).
 * irq_set_affinity moves a line: /proc/irq/N/smp_affinity, Linux's hex
 * mask file; the entry names the first online CPU of the mask.
 *
 * Simplifications: one I/O APIC (its GSI base taken to be 0); fixed
 * delivery to one CPU per line, not Linux 2.6's logical lowest-priority
 * delivery (QEMU's arbitration gives every interrupt to the lowest-numbered
 * CPU of equal priority, so nothing would move); no rebalancing as load
 * changes (Linux's irqbalance daemon).  ioapic_lock serializes the register
 * window (IOREGSEL then IOWIN: two accesses that must not interleave) and
 * the affinity tables; it is a leaf lock. */
#include <kernel.h>
#include <cmdline.h>
#include <errno.h>
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
/* Under ioapic_lock: each line's CPU (its entry's destination) and the
 * mask asked for (smp_affinity's text), the lines given a CPU by the round
 * robin or by a mask, and the round robin's next CPU once it runs. */
static int irq_dest_cpu[NR_IRQS];
static unsigned long irq_affinity_mask[NR_IRQS] = { [0 ... NR_IRQS - 1] = 1 };
static uint16_t irq_dest_set;
static bool irq_spread;                /* false: every line to the boot CPU (APs not up) */

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

/* The round robin's CPU for irq (under ioapic_lock): line n goes to the
 * online CPU numbered n mod (online CPUs), counting the online CPUs from
 * CPU 0, whatever order the drivers opened their lines in. */
static void assign_next_cpu(unsigned irq)
{
    int k = irq % num_online_cpus(), cpu = 0;
    for (;; cpu++)
        if (cpu_online(cpu) && !k--)
            break;
    irq_dest_cpu[irq] = cpu;
    irq_affinity_mask[irq] = 1ul << cpu;
    irq_dest_set |= 1u << irq;
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
    if (!masked && irq_spread && !(irq_dest_set & 1u << irq))
        assign_next_cpu(irq);          /* a line opened after the APs came up */
    /* the high word first: the entry is masked until the low word says not */
    io_apic_write(IO_APIC_REDTBL + 2 * pin + 1,
                  (uint32_t)per_cpu(cpu_info, irq_dest_cpu[irq]).apicid << 24);
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

/* Rewrite the destination of every open line (under ioapic_lock). */
static void io_apic_rewrite_dest(unsigned irq)
{
    unsigned pin = mp_info.isa_irq[irq].gsi;
    if (pin < nr_ioapic_pins)
        io_apic_write(IO_APIC_REDTBL + 2 * pin + 1,
                      (uint32_t)per_cpu(cpu_info, irq_dest_cpu[irq]).apicid << 24);
}

/* Linux's setup_ioapic_dest, called by smp_init once the APs are up: each
 * line with a handler gets its CPU (assign_next_cpu), and so will each
 * line opened later. */
void setup_ioapic_dest(void)
{
    if (irq_get_chip() != &ioapic_chip)
        return;
    unsigned long flags;
    spin_lock_irqsave(&ioapic_lock, flags);
    irq_spread = true;
    for (unsigned irq = 0; irq < NR_IRQS; irq++)
        if (irq_first_handler(irq) && !(irq_dest_set & 1u << irq)) {
            assign_next_cpu(irq);
            io_apic_rewrite_dest(irq);     /* edge lines: the next one goes there */
        }
    spin_unlock_irqrestore(&ioapic_lock, flags);
}

/* Linux's irq_set_affinity, what a write of /proc/irq/N/smp_affinity does:
 * the line goes to the first online CPU of mask from its next interrupt;
 * an interrupt already on its way is taken, and acknowledged, where it was
 * sent.  -EINVAL: no such line, or no online CPU in mask (Linux refuses
 * to leave a line nowhere to go); -EIO: the 8259A routes (it has one
 * destination, the boot CPU's virtual wire; Linux's irq_can_set_affinity). */
int irq_set_affinity(unsigned irq, unsigned long mask)
{
    if (irq >= NR_IRQS || !(mask & cpu_online_mask))
        return -EINVAL;
    if (irq_get_chip() != &ioapic_chip)
        return -EIO;
    unsigned long flags;
    spin_lock_irqsave(&ioapic_lock, flags);
    irq_dest_cpu[irq] = __builtin_ctzl(mask & cpu_online_mask);
    irq_affinity_mask[irq] = mask;
    irq_dest_set |= 1u << irq;
    io_apic_rewrite_dest(irq);
    spin_unlock_irqrestore(&ioapic_lock, flags);
    return 0;
}

/* The CPU line irq is delivered to, and the mask smp_affinity shows. */
int irq_dest(unsigned irq)
{
    return irq < NR_IRQS && irq_get_chip() == &ioapic_chip ? irq_dest_cpu[irq] : 0;
}

unsigned long irq_affinity(unsigned irq)
{
    return irq < NR_IRQS ? irq_affinity_mask[irq] : 0;
}

/* /proc/irq/N/smp_affinity: the mask in hex, a digit per four possible
 * CPUs (the firmware's count), as Linux prints a cpumask. */
int show_irq_affinity(unsigned irq, char *buf, size_t size)
{
    int digits = (mp_info.nr_cpus + 3) / 4;
    return snprintf(buf, size, "%0*lx\n", digits > 0 ? digits : 1, irq_affinity(irq));
}

/* A write of it: hex digits (commas between 32-bit groups allowed, as
 * Linux's cpumask parser), blanks and a newline around; then
 * irq_set_affinity.  -EINVAL for anything else or an empty mask,
 * -EOVERFLOW for CPUs past NR_CPUS. */
int store_irq_affinity(unsigned irq, const char *buf, size_t len)
{
    unsigned long mask = 0;
    size_t i = 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\t'))
        i++;
    size_t start = i;
    for (; i < len; i++) {
        char c = buf[i];
        int d;
        if (c == ',')
            continue;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            d = (c | 0x20) - 'a' + 10;
        else
            break;
        if (mask >> (NR_CPUS - 4))
            return -EOVERFLOW;
        mask = mask << 4 | d;
    }
    if (i == start)
        return -EINVAL;
    for (; i < len; i++)
        if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n')
            return -EINVAL;
    if (mask >> NR_CPUS)
        return -EOVERFLOW;
    return irq_set_affinity(irq, mask);
}

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
