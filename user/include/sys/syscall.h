/*
 * sys/syscall.h - Linux i386 system-call numbers, and the one raw entry.
 *
 * The numbers are the ABI, in one list the kernel's table uses too
 * (include/uapi/asm/unistd_32.h, Linux's syscall_32.tbl values), which is
 * why our programs also run unchanged on a Linux host.
 *
 * __syscall6(nr, a1..a6) loads eax = nr, ebx..ebp = a1..a6, executes
 * "int $0x80" and returns eax untouched: a value in [-4095, -1] is -errno.
 * The wrappers in libc/syscalls.c turn that into errno + return -1.
 */
#ifndef _SYS_SYSCALL_H
#define _SYS_SYSCALL_H

#include <asm/unistd_32.h>      /* the numbers: include/uapi/asm/unistd_32.h */

/* libc/syscall.S: the only place that executes int $0x80. */
long __syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);

/* The C-level generic entry: errno-setting, like glibc's syscall(2). */
long syscall(long nr, ...);

#endif
