/* include/irq.h: hardware interrupts (kernel/x86/pic.c).
 *
 * The two 8259A PICs are remapped so IRQ n arrives on vector 0x20 + n.
 * A driver asks for its line with request_irq(); the handler runs with
 * interrupts off on the interrupted context's kernel stack.  The PIC has
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

#define NR_IRQS 16
typedef void (*irq_handler_t)(struct pt_regs *regs, void *data);

/* Install handler for line irq (0-15) and unmask it.  0, -EINVAL (bad
 * line or NULL handler), -EBUSY (same handler+data already there) or
 * -ENOMEM (no free slot: the table is static, 32 entries). */
int request_irq(unsigned irq, irq_handler_t handler, void *data);
/* Remove the (handler, data) pair; masks the line if it was the last. */
void free_irq(unsigned irq, irq_handler_t handler, void *data);


/* Called by do_trap for vectors 0x20-0x2F. */
void do_IRQ(unsigned irq, struct pt_regs *regs);
/* Send end-of-interrupt for irq (master, and slave for 8-15). */
void pic_send_eoi(unsigned irq);
void pic_init(void);                   /* remap, mask everything but the cascade */

extern unsigned long irq_count[NR_IRQS];   /* handled interrupts per line */
extern unsigned long irq_spurious_count;   /* spurious IRQ 7/15 seen */
#endif
