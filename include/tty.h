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
 * termios layout and ioctl numbers are Linux i386's (asm-generic/termbits.h,
 * ioctls.h), so a static glibc program's tcgetattr/isatty work.
 */
#ifndef _TTY_H
#define _TTY_H
#include <types.h>

typedef unsigned int tcflag_t;
typedef unsigned char cc_t;
#define NCCS 19
struct termios {                       /* what TCGETS/TCSETS copy (36 bytes) */
    tcflag_t c_iflag, c_oflag, c_cflag, c_lflag;
    cc_t c_line;
    cc_t c_cc[NCCS];
};
struct winsize { unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel; };

/* c_cc indices */
#define VINTR 0
#define VQUIT 1
#define VERASE 2
#define VKILL 3
#define VEOF 4
#define VTIME 5
#define VMIN 6
#define VSUSP 10                       /* ^Z: SIGTSTP to the foreground group */
/* c_iflag */
#define ICRNL 0000400
#define IXON  0002000
/* c_oflag */
#define OPOST 0000001
#define ONLCR 0000004
/* c_cflag */
#define B38400 0000017
#define CS8    0000060
#define CREAD  0000200
/* c_lflag */
#define ISIG    0000001
#define ICANON  0000002
#define ECHO    0000010
#define ECHOE   0000020
#define ECHOK   0000040
#define ECHOCTL 0001000
#define IEXTEN  0100000

/* ioctls */
#define TCGETS     0x5401
#define TCSETS     0x5402
#define TCSETSW    0x5403
#define TCSETSF    0x5404
#define TIOCSCTTY  0x540E
#define TIOCGPGRP  0x540F
#define TIOCSPGRP  0x5410
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD   0x541B

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
/* Read up to n bytes into a kernel buffer as read(2) would (blocking unless
 * nonblock); for kernel tests.  Returns bytes, 0 at end of file, -errno. */
ssize_t tty_kernel_read(char *buf, size_t n, int nonblock);
#endif
