/* include/uapi/asm/ioctls.h: the ioctl(2) request numbers Vellum answers,
 * Linux i386 values: the terminal's (kernel/drivers/tty.c) and the generic
 * descriptor ones every file takes (fs/sys_open.c).
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md).
 * (Linux: asm-generic/ioctls.h.) */
#ifndef _UAPI_ASM_IOCTLS_H
#define _UAPI_ASM_IOCTLS_H

#define TCGETS     0x5401              /* struct termios *: read the settings */
#define TCSETS     0x5402              /* ... set them now */
#define TCSETSW    0x5403              /* ... after the output drained */
#define TCSETSF    0x5404              /* ... and flush the input */
#define TIOCSCTTY  0x540E              /* make it the controlling terminal */
#define TIOCGPGRP  0x540F              /* pid_t *: the foreground process group */
#define TIOCSPGRP  0x5410
#define TIOCGWINSZ 0x5413              /* struct winsize * */
#define TIOCSWINSZ 0x5414
#define FIONREAD   0x541B              /* int *: bytes ready to read */
#define FIONBIO    0x5421              /* int *: != 0 sets O_NONBLOCK, 0 clears it */
#define FIONCLEX   0x5450              /* clear this descriptor's close-on-exec flag */
#define FIOCLEX    0x5451              /* set it */

#endif
