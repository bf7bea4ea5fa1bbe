/* kernel/drivers/console_input_test.c: the ktests of console_input.c
 * (test=console); built into the test kernel only (make check), never into
 * the production kernel. The tests reach console_input.c's static functions
 * and data, so this file includes it: in the test kernel the two are one
 * object (Makefile). */
#include "console_input.c"
#include <ktest.h>

static void drain(void)
{
    while (console_getc_nonblock() >= 0)
        ;
}

KTEST(console, input_ring_fifo_and_overflow)
{
    drain();
    KT_EXPECT_EQ(console_getc_nonblock(), -1);
    console_input('h');
    console_input('i');
    console_input((char)0xe9);
    KT_EXPECT_EQ(console_getc_nonblock(), 'h');
    KT_EXPECT_EQ(console_getc_nonblock(), 'i');
    KT_EXPECT_EQ(console_getc_nonblock(), 0xe9);         /* no sign extension */
    KT_EXPECT_EQ(console_getc_nonblock(), -1);
    unsigned long lost = input_dropped;
    for (int i = 0; i < INPUT_RING + 10; i++)
        console_input('a' + i % 26);
    KT_EXPECT_EQ(input_dropped - lost, 10);
    int n = 0, first = console_getc_nonblock();
    while (first >= 0 && console_getc_nonblock() >= 0)
        n++;
    KT_EXPECT_EQ(first, 'a');
    KT_EXPECT_EQ(n + 1, INPUT_RING);
}

/* The UART's loopback mode sends what we transmit straight to the receiver:
 * the byte must come back through IRQ 4 into the ring.  No printk while the
 * loop is on (it would be swallowed). */
KTEST(console, serial_rx_loopback_irq)
{
    drain();
    serial_flush();
    unsigned long before = kstat_irqs(4);
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
    KT_EXPECT_EQ(c, 'Q');
    KT_EXPECT(kstat_irqs(4) > before);
}
