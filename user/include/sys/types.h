/*
 * sys/types.h - the POSIX scalar types, sized as the Linux i386 ABI has them.
 */
#ifndef _SYS_TYPES_H
#define _SYS_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef int                ssize_t;
typedef int                pid_t;
typedef unsigned int       uid_t;
typedef unsigned int       gid_t;
typedef unsigned int       mode_t;
typedef long long          off_t;    /* we always use the 64-bit calls */
typedef long long          loff_t;
typedef unsigned long long ino_t;
typedef unsigned long long dev_t;
typedef unsigned int       nlink_t;
typedef long               time_t;
typedef long               suseconds_t;
typedef int                clockid_t;

#endif
