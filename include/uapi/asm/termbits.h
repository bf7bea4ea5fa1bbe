/* include/uapi/asm/termbits.h: struct termios as TCGETS/TCSETS copy it
 * (36 bytes), its flag bits and c_cc indices, and struct winsize
 * (TIOCGWINSZ), Linux i386 values.  Only the bits Vellum's tty acts on are
 * named.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md): the
 * tty (kernel/drivers/tty.c) implements them, a static glibc program's
 * tcgetattr/isatty relies on them.  (Linux: asm-generic/termbits.h; winsize
 * is in asm-generic/termios.h.) */
#ifndef _UAPI_ASM_TERMBITS_H
#define _UAPI_ASM_TERMBITS_H

typedef unsigned int tcflag_t;
typedef unsigned char cc_t;
#define NCCS 19
struct termios {
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

#endif
