/* kernel/x86/pic.c: the two 8259A interrupt controllers and IRQ dispatch
 * (arch layer; interface in include/irq.h).
 *
 * The BIOS leaves IRQ 0-7 on vectors 8-15, on top of the CPU's exceptions;
 * pic_init() moves them to 0x20-0x2F and masks every line but the cascade
 * (IRQ 2).  request_irq() unmasks a line when its first handler arrives,
 * through the current struct irq_chip: the 8259A's ("XT-PIC") from boot,
 * the I/O APIC's once io_apic.c takes over (irq_set_chip), which keeps the
 * same vectors.  Each CPU counts the interrupts it handled per line
 * (kstat, /proc/interrupts). */
#include <kernel.h>
#include <smp_lock.h>
#include <errno.h>
#include <irq.h>
#include <lockdep.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/traps.h>
#include <asm/percpu.h>
#include <smp.h>

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xA0
#define PIC2_DATA 0xA1
#define PIC_EOI   0x20
#define PIC_READ_ISR 0x0B              /* OCW3: next read of CMD returns the ISR */

struct irqaction {
    irq_handler_t handler;
    void *data;
    unsigned irq;
    struct irqaction *next;
};

#define MAX_ACTIONS 32
static struct irqaction action_pool[MAX_ACTIONS];
static struct irqaction *irq_actions[NR_IRQS];
static uint16_t irq_mask = 0xFFFF & ~(1u << 2);   /* the 8259A's; 1 = masked; cascade open */
static uint16_t irq_enabled;                       /* lines with a handler */
DEFINE_PER_CPU(struct kernel_stat, kstat);
unsigned long irq_spurious_count;
static unsigned long irq_unhandled[NR_IRQS];

static void pic_write_mask(void)
{
    outb(PIC1_DATA, irq_mask & 0xFF);
    outb(PIC2_DATA, irq_mask >> 8);
}

static void mask_8259A_irq(unsigned irq)
{
    irq_mask |= 1u << irq;
    pic_write_mask();
}

static void unmask_8259A_irq(unsigned irq)
{
    irq_mask &= ~(1u << irq);
    pic_write_mask();
}

const struct irq_chip i8259A_chip = {
    .name = "XT-PIC", .mask = mask_8259A_irq, .unmask = unmask_8259A_irq, .eoi = pic_send_eoi,
};
static const struct irq_chip *irq_chip = &i8259A_chip;

const struct irq_chip *irq_get_chip(void)
{
    return irq_chip;
}

void irq_set_chip(const struct irq_chip *chip)
{
    unsigned long flags = local_irq_save();
    for (unsigned irq = 0; irq < NR_IRQS; irq++)
        if (irq_enabled & 1u << irq)
            irq_chip->mask(irq);
    if (irq_chip == &i8259A_chip) {
        irq_mask = 0xFFFF;             /* every line, the cascade too */
        pic_write_mask();
    }
    irq_chip = chip;
    for (unsigned irq = 0; irq < NR_IRQS; irq++)
        if (irq_enabled & 1u << irq)
            irq_chip->unmask(irq);
    local_irq_restore(flags);
}

unsigned long kstat_irqs(unsigned irq)
{
    unsigned long sum = 0;
    for (int cpu = 0; cpu < NR_CPUS; cpu++)
        if (cpu_online(cpu))
            sum += per_cpu(kstat, cpu).irqs[irq];
    return sum;
}

irq_handler_t irq_first_handler(unsigned irq)
{
    return irq < NR_IRQS && irq_actions[irq] ? irq_actions[irq]->handler : NULL;
}

void pic_init(void)
{
    outb(PIC1_CMD, 0x11);  io_wait();  /* ICW1: edge, cascade, ICW4 follows */
    outb(PIC2_CMD, 0x11);  io_wait();
    outb(PIC1_DATA, FIRST_EXTERNAL_VECTOR);     io_wait();   /* ICW2: vector base */
    outb(PIC2_DATA, FIRST_EXTERNAL_VECTOR + 8); io_wait();
    outb(PIC1_DATA, 1 << 2); io_wait(); /* ICW3: slave on IRQ 2 */
    outb(PIC2_DATA, 2);      io_wait(); /* ICW3: slave identity */
    outb(PIC1_DATA, 0x01);   io_wait(); /* ICW4: 8086 mode, normal EOI */
    outb(PIC2_DATA, 0x01);   io_wait();
    pic_write_mask();
}

void pic_send_eoi(unsigned irq)
{
    if (irq >= 8)
        outb(PIC2_CMD, PIC_EOI);
    outb(PIC1_CMD, PIC_EOI);
}

int request_irq(unsigned irq, irq_handler_t handler, void *data)
{
    if (irq >= NR_IRQS || irq == 2 || !handler)
        return -EINVAL;
    unsigned long flags = local_irq_save();
    int ret = 0;
    struct irqaction *a, *slot = NULL;
    for (a = irq_actions[irq]; a; a = a->next)
        if (a->handler == handler && a->data == data) {
            ret = -EBUSY;
            goto out;
        }
    for (int i = 0; i < MAX_ACTIONS && !slot; i++)
        if (!action_pool[i].handler)
            slot = &action_pool[i];
    if (!slot) {
        ret = -ENOMEM;
        goto out;
    }
    *slot = (struct irqaction){ handler, data, irq, NULL };
    /* append: handlers run in the order they were requested */
    struct irqaction **pp = &irq_actions[irq];
    while (*pp)
        pp = &(*pp)->next;
    *pp = slot;
    irq_enabled |= 1u << irq;
    irq_chip->unmask(irq);
out:
    local_irq_restore(flags);
    return ret;
}

void free_irq(unsigned irq, irq_handler_t handler, void *data)
{
    if (irq >= NR_IRQS)
        return;
    unsigned long flags = local_irq_save();
    for (struct irqaction **pp = &irq_actions[irq]; *pp; pp = &(*pp)->next) {
        struct irqaction *a = *pp;
        if (a->handler == handler && a->data == data) {
            *pp = a->next;
            a->handler = NULL;
            break;
        }
    }
    if (!irq_actions[irq] && (irq_enabled & 1u << irq)) {
        irq_enabled &= ~(1u << irq);
        irq_chip->mask(irq);
    }
    local_irq_restore(flags);
}

/* IRQ 7 and 15 may be spurious: the PIC saw a line go up and down again
 * before the CPU acknowledged it, and delivers its lowest-priority vector
 * anyway.  The ISR bit tells a real IRQ from a spurious one. */
static bool irq_is_spurious(unsigned irq)
{
    if (irq != 7 && irq != 15)
        return false;
    uint16_t cmd = irq == 7 ? PIC1_CMD : PIC2_CMD;
    outb(cmd, PIC_READ_ISR);
    bool real = inb(cmd) & 0x80;
    if (real)
        return false;
    irq_spurious_count++;
    if (irq == 15)
        outb(PIC1_CMD, PIC_EOI);       /* the master did see a real IRQ 2 */
    return true;
}

void do_interrupt(unsigned vector, struct pt_regs *regs)
{
    if (vector < FIRST_EXTERNAL_VECTOR + NR_IRQS)
        do_IRQ(vector - FIRST_EXTERNAL_VECTOR, regs);
    else
        smp_apic_interrupt(vector, regs);
}

void do_IRQ(unsigned irq, struct pt_regs *regs)
{
    if (irq_chip == &i8259A_chip && irq_is_spurious(irq))
        return;
    /* The handlers are kernel code: the big kernel lock (include/smp_lock.h),
     * waited for with interrupts on (so that this CPU answers the holder's
     * TLB shootdowns) but before the EOI, so that this line and the lower
     * ones cannot come in again meanwhile.  Then the EOI; interrupts stay
     * off (interrupt gate) until the iret. */
    lock_kernel();
    irq_chip->eoi(irq);
    this_cpu_ptr(&kstat)->irqs[irq]++;
    struct irqaction *a = irq_actions[irq];
    if (!a && irq_unhandled[irq]++ < 3)
        printk(KERN_WARNING "irq: IRQ %u with no handler\n", irq);
    lockdep_hardirq_enter();           /* the validator: interrupt context */
    for (; a; a = a->next)
        a->handler(regs, a->data);
    lockdep_hardirq_exit();
    unlock_kernel();
}
