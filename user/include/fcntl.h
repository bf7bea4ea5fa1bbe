/*
 * fcntl.h - open flags and fcntl commands: the kernel's own values
 * (include/uapi/linux/fcntl.h).
 */
#ifndef _FCNTL_H
#define _FCNTL_H

#include <sys/types.h>

#include <linux/fcntl.h>        /* O_*, F_*, FD_CLOEXEC, AT_* */

int open(const char *path, int flags, ...);
int openat(int dirfd, const char *path, int flags, ...);
int creat(const char *path, mode_t mode);
int fcntl(int fd, int cmd, ...);

#endif
