/* sys/ioctl.h - ioctl(2), the few tty requests we use and the generic FIO* ones. */
#ifndef _SYS_IOCTL_H
#define _SYS_IOCTL_H

#define TCGETS     0x5401
#define TCSETS     0x5402
#define TIOCGPGRP  0x540F
#define TIOCSPGRP  0x5410
#define TIOCGWINSZ 0x5413
#define FIONBIO    0x5421   /* *(int *)arg != 0: set O_NONBLOCK, 0: clear it */
#define FIONCLEX   0x5450   /* clear this fd's close-on-exec flag */
#define FIOCLEX    0x5451   /* set it */

int ioctl(int fd, unsigned long request, ...);

#endif
