/* kernel/drivers/serial.c: the 16550 UART on COM1 (0x3F8), 115200 8N1, polled output.
 * The first console: it works before anything else is set up. */
#include <kernel.h>
#include <console.h>
#include <asm/io.h>

#define COM1 0x3F8
#define LSR_THRE 0x20                  /* transmit holding register empty */
#define LSR_TEMT 0x40                  /* transmitter completely empty */

void serial_putc(char c)
{
    for (int spin = 0; spin < 100000 && !(inb(COM1 + 5) & LSR_THRE); spin++)
        cpu_relax();
    outb(COM1, c);
}

void serial_flush(void)
{
    for (int spin = 0; spin < 1000000 && !(inb(COM1 + 5) & LSR_TEMT); spin++)
        cpu_relax();
}

static void serial_write(struct console *con, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            serial_putc('\r');
        serial_putc(s[i]);
    }
}

static struct console serial_console = { .name = "serial", .write = serial_write };

void serial_init(void)
{
    outb(COM1 + 1, 0x00);              /* no interrupts yet */
    outb(COM1 + 3, 0x80);              /* DLAB on */
    outb(COM1 + 0, 0x01);              /* divisor 1: 115200 baud */
    outb(COM1 + 1, 0x00);
    outb(COM1 + 3, 0x03);              /* 8N1, DLAB off */
    outb(COM1 + 2, 0xC7);              /* FIFO on, cleared, 14-byte threshold */
    outb(COM1 + 4, 0x0B);              /* DTR, RTS, OUT2 */
    register_console(&serial_console);
}
