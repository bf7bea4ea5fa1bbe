/*
 * errno.h - the errno variable; the numbers are the kernel's own header
 * (include/uapi/linux/errno.h, shared with the kernel: docs/userland.md).
 *
 * System calls return -ERRNO in eax on failure; the wrappers in
 * libc/syscalls.c store ERRNO here and return -1, as POSIX asks.
 * Vellum user programs are single-threaded, so errno is a plain global.
 */
#ifndef _ERRNO_H
#define _ERRNO_H

extern int errno;

#include <linux/errno.h>        /* the numbers: include/uapi/linux/errno.h */

/* Largest errno we translate; syscall results in [-4095, -1] are errors. */
#define MAX_ERRNO 4095

#endif
