/*
 * sys/statfs.h - filesystem statistics.
 *
 * The structures are the kernel's (include/uapi/asm/statfs.h): struct
 * statfs with 32-bit counts for statfs(2) (number 99) and fstatfs (100),
 * struct statfs64 with 64-bit counts for statfs64 (268) and fstatfs64
 * (269), as glibc's large-file interface names them.
 */
#ifndef _SYS_STATFS_H
#define _SYS_STATFS_H

#include <asm/statfs.h>

int statfs(const char *path, struct statfs *buf);
int fstatfs(int fd, struct statfs *buf);
int statfs64(const char *path, struct statfs64 *buf);
int fstatfs64(int fd, struct statfs64 *buf);

#endif
