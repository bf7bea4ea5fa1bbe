/*
 * termios.c - tcgetattr and tcsetattr: the TCGETS / TCSETS* ioctls under
 * their POSIX names (as glibc's on Linux).
 */
#include <errno.h>
#include <sys/ioctl.h>
#include <termios.h>

int tcgetattr(int fd, struct termios *t)
{
	return ioctl(fd, TCGETS, t);
}

int tcsetattr(int fd, int when, const struct termios *t)
{
	static const unsigned long req[] = { TCSETS, TCSETSW, TCSETSF };

	if (when < TCSANOW || when > TCSAFLUSH) {
		errno = EINVAL;
		return -1;
	}
	return ioctl(fd, req[when], t);
}
