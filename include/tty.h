/* include/tty.h: the console terminal (kernel/drivers/tty.c), Linux's tty layer cut
 * down to one terminal with the n_tty line discipline.
 *
 *   keyboard IRQ / COM1 IRQ --console_input()--> tty_receive_char()
 *        line discipline: ICRNL, echo, erase, kill, ^C -> SIGINT (^Z -> SIGTSTP) to the
 *        foreground process group, ^D -> end of file, canonical lines
 *        --> read_buf --> tty_read() (sleeps on read_wait until a line
 *                                     or, in raw mode, a byte is ready)
 *   tty_write() --> console_write() (serial + VGA)
 *
 * The tty takes console input over when /dev/console (or /dev/tty) is first
 * opened; before that, typed characters wait in console_input's ring and
 * are fed to the line discipline then.
 *
 * The termios layout and the ioctl numbers are ABI (include/uapi/asm/
 * termbits.h and ioctls.h, Linux i386's), so a static glibc program's
 * tcgetattr/isatty work.
 */
#ifndef _TTY_H
#define _TTY_H
#include <types.h>

#include <asm/termbits.h>             /* struct termios, struct winsize, the flag bits */
#include <asm/ioctls.h>               /* TCGETS, TIOCGWINSZ... */

#define TTY_MAJOR      5               /* /dev/tty (5,0), /dev/console (5,1) */

/* Feed one received character to the line discipline (any context).
 * Exposed for tests, which type into the tty without a keyboard. */
void tty_receive_char(char c);
/* Make the tty the receiver of console input (first open does it). */
void tty_activate(void);
/* Reset the console tty to its boot state (cooked, echo on, empty); tests. */
void tty_reset(void);
/* Characters waiting to be read (complete lines in canonical mode). */
int tty_chars_available(void);
#endif
