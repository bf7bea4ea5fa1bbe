/* include/irq.h: hardware interrupts (kernel/x86/pic.c, kernel/x86/io_apic.c).
 *
 * The two 8259A PICs are remapped so IRQ n arrives on vector 0x20 + n; the
 * I/O APIC, when it takes over (docs/smp.md), delivers IRQ n on the same
 * vector, each line to one CPU: round robin over the online CPUs once the
 * APs are up, or where /proc/irq/N/smp_affinity moved it.
 * A driver asks for its line with request_irq(); the handler runs with
 * interrupts off on the interrupted context's kernel stack.  The controller has
 * already been sent its EOI when handlers run (the ISA lines are edge
 * triggered), so a handler may call schedule() at the end (the timer tick
 * does, through the scheduler's tick hook).  Several handlers may share a
 * line; all are called.
 *
 * Spurious IRQ 7 / 15 (the PIC raising a line then finding no request in
 * its ISR) are detected, counted and not acknowledged (IRQ 15: only the
 * master gets an EOI), as the 8259A datasheet asks.
 */
#ifndef _IRQ_H
#define _IRQ_H
#include <types.h>
#include <asm/ptrace.h>
#include <asm/percpu.h>

#define NR_IRQS 16
typedef void (*irq_handler_t)(struct pt_regs *regs, void *data);

/* Install handler for line irq (0-15) and unmask it.  0, -EINVAL (bad
 * line or NULL handler), -EBUSY (same handler+data already there) or
 * -ENOMEM (no free slot: the table is static, 32 entries). */
int request_irq(unsigned irq, irq_handler_t handler, void *data);
/* Remove the (handler, data) pair; masks the line if it was the last. */
void free_irq(unsigned irq, irq_handler_t handler, void *data);


/* Called by do_trap for every hardware interrupt's vector: 0x20-0x2F, the
 * ISA lines, to do_IRQ(vector - 0x20); the local APIC's (0xEF-0xFF, its
 * timer and the IPIs, kernel/x86/apic.h) to smp_apic_interrupt
 * (kernel/x86/smp.c). */
void do_interrupt(unsigned vector, struct pt_regs *regs);
void do_IRQ(unsigned irq, struct pt_regs *regs);

/* The controller the lines are masked, unmasked and acknowledged on
 * (Linux's struct irq_chip, in the small).  mask/unmask: stop or let
 * line irq through; eoi: end of interrupt for irq, sent before its
 * handlers run.  name: /proc/interrupts' column ("XT-PIC", "IO-APIC-edge"). */
struct irq_chip {
    const char *name;
    void (*mask)(unsigned irq);
    void (*unmask)(unsigned irq);
    void (*eoi)(unsigned irq);
};
extern const struct irq_chip i8259A_chip;       /* from boot */
/* Switch every line to chip: the lines with handlers are masked on the old
 * chip (the 8259A: all of its lines) and unmasked on the new one. */
void irq_set_chip(const struct irq_chip *chip);
const struct irq_chip *irq_get_chip(void);
/* The first handler of line irq, or NULL (its name is /proc/interrupts'). */
irq_handler_t irq_first_handler(unsigned irq);
/* Send end-of-interrupt for irq (master, and slave for 8-15). */
void pic_send_eoi(unsigned irq);
void pic_init(void);                   /* remap, mask everything but the cascade */

/* Where the lines go (kernel/x86/io_apic.c; Linux's names).
 * irq_set_affinity: deliver line irq to the first online CPU of mask (a bit
 *   per CPU) from now on; 0, -EINVAL (no such line, no online CPU in mask)
 *   or -EIO (the 8259A routes: everything goes to the boot CPU).
 * irq_affinity: the mask /proc/irq/N/smp_affinity shows (the round robin's
 *   one CPU, or the mask last set; the boot CPU's before either).
 * irq_dest: the CPU its interrupts go to now (0 on the 8259A).
 * show_irq_affinity, store_irq_affinity: that file's text (hex, as Linux)
 *   and a write of it (0 or -errno: -EINVAL, -EOVERFLOW, or
 *   irq_set_affinity's). */
int irq_set_affinity(unsigned irq, unsigned long mask);
unsigned long irq_affinity(unsigned irq);
int irq_dest(unsigned irq);
int show_irq_affinity(unsigned irq, char *buf, size_t size);
int store_irq_affinity(unsigned irq, const char *buf, size_t len);

/* Interrupts handled per line by each CPU (Linux's kstat_cpu(cpu).irqs),
 * and their sum over the online CPUs (Linux's kstat_irqs). */
struct kernel_stat { unsigned long irqs[NR_IRQS]; };
DECLARE_PER_CPU(struct kernel_stat, kstat);
unsigned long kstat_irqs(unsigned irq);
extern unsigned long irq_spurious_count;   /* spurious 8259A IRQ 7/15 seen */
/* The text of /proc/interrupts (kernel/x86/smp.c): a column per online
 * CPU; a row per line with a handler (chip, handler), then LOC, RES, CAL,
 * TLB, SPU.  Bytes written (at most size). */
int show_interrupts(char *buf, size_t size);
#endif
