/* include/console.h: output consoles (serial, VGA) that printk writes to,
 * and the input side the tty will read from. */
#ifndef _CONSOLE_H
#define _CONSOLE_H
#include <types.h>

struct console {
    const char *name;
    /* Write n bytes; may be called with interrupts off, must not sleep. */
    void (*write)(struct console *con, const char *s, size_t n);
    struct console *next;
};

void register_console(struct console *con);
void console_write(const char *s, size_t n);   /* to every registered console */

void serial_init(void);                        /* kernel/serial.c: COM1 */
void serial_putc(char c);
void serial_flush(void);                       /* wait until the UART drained */
void vga_init(void);                           /* kernel/vga.c */

/* Input: drivers (keyboard, serial RX) push characters here. */
void console_input(char c);
#endif
