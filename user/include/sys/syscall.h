/*
 * sys/syscall.h - Linux i386 system-call numbers, and the one raw entry.
 *
 * These numbers are the ABI: Vellum's kernel uses the same table as Linux's
 * arch/x86/entry/syscalls/syscall_32.tbl, which is why our programs also run
 * unchanged on a Linux host. Only the calls our libc uses are listed.
 *
 * __syscall6(nr, a1..a6) loads eax = nr, ebx..ebp = a1..a6, executes
 * "int $0x80" and returns eax untouched: a value in [-4095, -1] is -errno.
 * The wrappers in libc/syscalls.c turn that into errno + return -1.
 */
#ifndef _SYS_SYSCALL_H
#define _SYS_SYSCALL_H

#define __NR_exit            1
#define __NR_fork            2
#define __NR_read            3
#define __NR_write           4
#define __NR_open            5
#define __NR_close           6
#define __NR_waitpid         7
#define __NR_link            9
#define __NR_unlink         10
#define __NR_execve         11
#define __NR_chdir          12
#define __NR_lseek          19
#define __NR_getpid         20
#define __NR_mount          21
#define __NR_sync           36
#define __NR_kill           37
#define __NR_rename         38
#define __NR_mkdir          39
#define __NR_rmdir          40
#define __NR_dup            41
#define __NR_pipe           42
#define __NR_brk            45
#define __NR_umount2        52
#define __NR_ioctl          54
#define __NR_fcntl          55
#define __NR_setpgid        57
#define __NR_dup2           63
#define __NR_getppid        64
#define __NR_getpgrp        65
#define __NR_setsid         66
#define __NR_gettimeofday   78
#define __NR_symlink        83
#define __NR_readlink       85
#define __NR_reboot         88
#define __NR_munmap         91
#define __NR_msync         144
#define __NR_syslog        103
#define __NR_wait4         114
#define __NR_sigreturn     119
#define __NR_fsync         118
#define __NR_uname         122
#define __NR_mprotect      125
#define __NR__llseek       140
#define __NR_readv         145
#define __NR_writev        146
#define __NR_fdatasync     148
#define __NR_nanosleep     162
#define __NR_rt_sigreturn  173
#define __NR_rt_sigaction  174
#define __NR_rt_sigprocmask 175
#define __NR_pread64       180
#define __NR_pwrite64      181
#define __NR_getcwd        183
#define __NR_mmap2         192
#define __NR_truncate64    193
#define __NR_ftruncate64   194
#define __NR_stat64        195
#define __NR_lstat64       196
#define __NR_fstat64       197
#define __NR_getdents64    220
#define __NR_fcntl64       221
#define __NR_exit_group    252
#define __NR_clock_gettime 265
#define __NR_openat        295
#define __NR_preadv        333
#define __NR_pwritev       334
#define __NR_preadv2       378
#define __NR_pwritev2      379

/* libc/syscall.S: the only place that executes int $0x80. */
long __syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);

/* The C-level generic entry: errno-setting, like glibc's syscall(2). */
long syscall(long nr, ...);

#endif
