/*
 * sys/stat.h - file status.
 *
 * Our libc always uses the 64-bit calls (stat64, lstat64, fstat64), so its
 * struct stat IS the kernel's struct stat64 (include/uapi/asm/stat.h): the
 * header is included with the structure's tag renamed to "stat".  The mode
 * bits are the kernel's too (include/uapi/linux/stat.h).
 */
#ifndef _SYS_STAT_H
#define _SYS_STAT_H

#include <sys/types.h>
#include <time.h>

#define stat64 stat
#include <asm/stat.h>           /* struct stat64, here named struct stat */
#undef stat64
#include <linux/stat.h>         /* S_IFMT, S_IFREG, S_ISDIR()... */

int stat(const char *path, struct stat *st);
int lstat(const char *path, struct stat *st);
int fstat(int fd, struct stat *st);
int mkdir(const char *path, mode_t mode);
int chmod(const char *path, mode_t mode);
int fchmod(int fd, mode_t mode);
/* times[0] access, times[1] modification; NULL = both now; a tv_nsec of
 * UTIME_NOW / UTIME_OMIT (linux/stat.h) means now / unchanged. */
int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags);
int futimens(int fd, const struct timespec times[2]);

/* buf (11 bytes) <- "drwxr-xr-x": the type letter and permission bits. */
void strmode(mode_t mode, char *buf);

#endif
