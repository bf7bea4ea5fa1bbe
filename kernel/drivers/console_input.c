/* kernel/drivers/console_input.c: where typed characters land (arch/driver layer,
 * below the tty).  The keyboard (kernel/drivers/keyboard.c) and the COM1 receive
 * interrupt (here) call console_input() from interrupt context.
 *
 * Until the tty is activated (the first open of /dev/console or /dev/tty)
 * the characters wait in a small ring that console_getc_nonblock() reads.
 * tty_activate() (kernel/drivers/tty.c) drains the ring into its line discipline
 * and sets console_input_handler, after which every character goes straight
 * to the tty. */
#include <kernel.h>
#include <init.h>
#include <irq.h>
#include <console.h>
#include <timer.h>
#include <asm/io.h>
#include <asm/irqflags.h>

#define INPUT_RING 256                 /* a power of two */
static char ring[INPUT_RING];
static volatile unsigned ring_head, ring_tail;   /* head: next write; free-running */
static unsigned long input_dropped;

void (*console_input_handler)(char c);

void console_input(char c)
{
    if (console_input_handler) {       /* the tty took input over */
        console_input_handler(c);
        return;
    }
    unsigned long flags = local_irq_save();
    if (ring_head - ring_tail < INPUT_RING)
        ring[ring_head++ % INPUT_RING] = c;
    else
        input_dropped++;               /* full: newest characters are lost */
    local_irq_restore(flags);
}

int console_getc_nonblock(void)
{
    int c = -1;
    unsigned long flags = local_irq_save();
    if (ring_tail != ring_head)
        c = (unsigned char)ring[ring_tail++ % INPUT_RING];
    local_irq_restore(flags);
    return c;
}

/* ---- COM1 receive (IRQ 4): typing into QEMU's -serial stdio ------------ */

#define COM1 0x3F8
#define UART_IER 1
#define UART_LSR 5
#define UART_MCR 4
#define LSR_DR   0x01                  /* data ready */

static void serial_rx_interrupt(struct pt_regs *regs, void *data)
{
    for (int n = 0; n < 64 && (inb(COM1 + UART_LSR) & LSR_DR); n++)
        console_input(inb(COM1));
}

static void serial_rx_init(void)
{
    while (inb(COM1 + UART_LSR) & LSR_DR)
        inb(COM1);                     /* drop what arrived before boot */
    if (request_irq(4, serial_rx_interrupt, NULL) == 0)
        outb(COM1 + UART_IER, 0x01);   /* interrupt on received data */
}
device_initcall(serial_rx_init);
