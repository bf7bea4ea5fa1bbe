/* sys/ioctl.h - ioctl(2) and the few tty requests we use. */
#ifndef _SYS_IOCTL_H
#define _SYS_IOCTL_H

#define TCGETS     0x5401
#define TCSETS     0x5402
#define TIOCGPGRP  0x540F
#define TIOCSPGRP  0x5410
#define TIOCGWINSZ 0x5413

int ioctl(int fd, unsigned long request, ...);

#endif
