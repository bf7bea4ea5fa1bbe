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
void unregister_console(struct console *con);  /* no-op if not registered */
struct console *console_find(const char *name);  /* by name, or NULL */
void console_write(const char *s, size_t n);   /* to every registered console */

void serial_init(void);                        /* kernel/drivers/serial.c: COM1 */
void serial_putc(char c);
void serial_flush(void);                       /* wait until the UART drained */
void vga_init(void);                           /* kernel/drivers/vga.c */

/* Input: drivers (keyboard, serial RX) push characters here, from interrupt
 * context.  Until the tty is activated they wait in a 256-byte ring
 * (kernel/drivers/console_input.c) that console_getc_nonblock() drains; then the
 * tty's line discipline receives them (console_input_handler, below).
 * Keys arrive as a terminal sends them: Enter is '\r', Backspace 0x7f,
 * arrows ESC [ A/B/C/D. */
void console_input(char c);
/* When set (the tty does it at its first open), console_input() hands each
 * character to this function, from interrupt context, instead of the ring. */
extern void (*console_input_handler)(char c);
/* The next input character, or -1 if none is waiting. */
int console_getc_nonblock(void);
#endif
