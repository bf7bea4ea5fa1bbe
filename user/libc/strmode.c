/*
 * strmode.c - "drwxr-xr-x" from a mode word, as ls -l and stat print it
 * (a BSD libc function; glibc has no equivalent).
 */
#include <sys/stat.h>

void strmode(mode_t mode, char *buf)
{
	static const char rwx[] = "rwxrwxrwx";
	char type;

	switch (mode & S_IFMT) {
	case S_IFDIR:  type = 'd'; break;
	case S_IFLNK:  type = 'l'; break;
	case S_IFCHR:  type = 'c'; break;
	case S_IFBLK:  type = 'b'; break;
	case S_IFIFO:  type = 'p'; break;
	case S_IFSOCK: type = 's'; break;
	default:       type = '-'; break;
	}
	buf[0] = type;
	/* Bit 8 (0400) is user read ... bit 0 (0001) is other execute. */
	for (int i = 0; i < 9; i++)
		buf[1 + i] = (mode & (0400 >> i)) ? rwx[i] : '-';
	if (mode & S_ISUID)
		buf[3] = (mode & 0100) ? 's' : 'S';
	if (mode & S_ISGID)
		buf[6] = (mode & 0010) ? 's' : 'S';
	if (mode & S_ISVTX)
		buf[9] = (mode & 0001) ? 't' : 'T';
	buf[10] = '\0';
}
