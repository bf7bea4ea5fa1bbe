/* sys/ioctl.h - ioctl(2), and the request numbers and struct termios/winsize
 * the kernel answers (include/uapi/asm/ioctls.h and termbits.h). */
#ifndef _SYS_IOCTL_H
#define _SYS_IOCTL_H

#include <asm/ioctls.h>         /* TCGETS, TIOCGWINSZ, FIONBIO, FIOCLEX... */
#include <asm/termbits.h>       /* struct termios, struct winsize */

int ioctl(int fd, unsigned long request, ...);

#endif
