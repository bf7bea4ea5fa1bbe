/* termios.h - the terminal interface (POSIX): read and change a terminal's
 * modes.  struct termios, its flag bits and the c_cc slots are the kernel's
 * (include/uapi/asm/termbits.h, Linux i386's layout); tcgetattr and
 * tcsetattr (libc/termios.c) are the TCGETS and TCSETS* ioctls. */
#ifndef _TERMIOS_H
#define _TERMIOS_H

#include <asm/termbits.h>

/* tcsetattr's when: now, after the output drained, or after the output
 * drained and the unread input was thrown away (TCSETS, TCSETSW, TCSETSF) */
#define TCSANOW   0
#define TCSADRAIN 1
#define TCSAFLUSH 2

int tcgetattr(int fd, struct termios *t);
int tcsetattr(int fd, int when, const struct termios *t);

#endif
