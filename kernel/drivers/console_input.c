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
#include <ktest.h>
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

/* ---- tests ----------------------------------------------------------- */

static void drain(void)
{
    while (console_getc_nonblock() >= 0)
        ;
}

KTEST(console, input_ring_fifo_and_overflow)
{
    drain();
    KEXPECT_EQ(console_getc_nonblock(), -1);
    console_input('h');
    console_input('i');
    console_input((char)0xe9);
    KEXPECT_EQ(console_getc_nonblock(), 'h');
    KEXPECT_EQ(console_getc_nonblock(), 'i');
    KEXPECT_EQ(console_getc_nonblock(), 0xe9);         /* no sign extension */
    KEXPECT_EQ(console_getc_nonblock(), -1);
    unsigned long lost = input_dropped;
    for (int i = 0; i < INPUT_RING + 10; i++)
        console_input('a' + i % 26);
    KEXPECT_EQ(input_dropped - lost, 10);
    int n = 0, first = console_getc_nonblock();
    while (first >= 0 && console_getc_nonblock() >= 0)
        n++;
    KEXPECT_EQ(first, 'a');
    KEXPECT_EQ(n + 1, INPUT_RING);
}

/* The UART's loopback mode sends what we transmit straight to the receiver:
 * the byte must come back through IRQ 4 into the ring.  No printk while the
 * loop is on (it would be swallowed). */
KTEST(console, serial_rx_loopback_irq)
{
    drain();
    serial_flush();
    unsigned long before = irq_count[4];
    unsigned long flags = local_irq_save();
    uint8_t mcr = inb(COM1 + UART_MCR);
    outb(COM1 + UART_MCR, mcr | 0x10);             /* loopback on */
    outb(COM1, 'Q');
    local_irq_restore(flags);
    unsigned long j0 = jiffies;
    int c = -1;
    while (c < 0 && jiffies - j0 < 20) {
        hlt();
        c = console_getc_nonblock();
    }
    outb(COM1 + UART_MCR, mcr);                    /* loopback off */
    KEXPECT_EQ(c, 'Q');
    KEXPECT(irq_count[4] > before);
}
