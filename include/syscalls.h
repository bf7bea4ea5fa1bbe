/* include/syscalls.h: every system call handler (Linux's <linux/syscalls.h>).
 *
 * Contract: `long sys_NAME(args)`; the dispatcher (syscall_handler in
 * kernel/x86/traps.c, through the table in kernel/syscall.c) calls
 * it with the user's ebx, ecx, edx, esi, edi, ebp as the arguments, in that
 * order, interrupts on, in the calling process's context (current, its mm
 * loaded).  Return a value >= 0 or -errno.  Pointers are user pointers:
 * only through copy_from_user() and friends (<asm/uaccess.h>).  A handler
 * that needs the trap frame (fork, execve, sigreturn) uses
 * current_pt_regs().  Each layer defines its handlers in its own files;
 * an empty table slot is sys_ni_syscall (kernel/sys_ni.c).
 */
#ifndef _SYSCALLS_H
#define _SYSCALLS_H
#include <types.h>

struct pt_regs;

/* The table (kernel/syscall.c), indexed by __NR_* number: every entry is
 * a handler below, cast to the one type the dispatcher calls. */
typedef long (*syscall_fn_t)(unsigned long, unsigned long, unsigned long,
                             unsigned long, unsigned long, unsigned long);
extern const syscall_fn_t sys_call_table[];
/* 1: the call runs without the big kernel lock (SMP step 5). */
extern const unsigned char sys_call_unlocked[];
/* An unknown number (or an empty slot): -ENOSYS, logged once per number. */
long ni_syscall(struct pt_regs *regs, unsigned long nr);

long sys_ni_syscall(void);             /* -ENOSYS, logged once per number */
long sys_ni_syscall_quiet(void);       /* -ENOSYS, not logged (rseq) */

/* kernel/fork.c, exit.c, exec.c */
long sys_fork(void);
long sys_vfork(void);
long sys_clone(unsigned long flags, unsigned long newsp, int *parent_tid,
               unsigned long tls, int *child_tid);
long sys_execve(const char *filename, const char *const *argv, const char *const *envp);
long sys_exit(int code);
long sys_exit_group(int code);
long sys_wait4(pid_t pid, int *status, int options, void *rusage);
long sys_waitpid(pid_t pid, int *status, int options);
long sys_waitid(int which, pid_t upid, void *infop, int options, void *rusage);

/* kernel/signal.c */
struct sigaction;
long sys_kill(pid_t pid, int sig);
long sys_tkill(pid_t pid, int sig);
long sys_tgkill(pid_t tgid, pid_t pid, int sig);
long sys_rt_sigaction(int sig, const struct sigaction *act, struct sigaction *oact,
                      unsigned long sigsetsize);
long sys_rt_sigprocmask(int how, const void *set, void *oset, unsigned long sigsetsize);
long sys_rt_sigpending(void *set, unsigned long sigsetsize);
long sys_sigpending(unsigned long *set);
long sys_rt_sigqueueinfo(pid_t pid, int sig, const void *uinfo);
long sys_rt_tgsigqueueinfo(pid_t tgid, pid_t pid, int sig, const void *uinfo);
long sys_rt_sigsuspend(const void *set, unsigned long sigsetsize);
long sys_rt_sigtimedwait(const void *uthese, void *uinfo, const void *uts,
                         unsigned long sigsetsize);
long sys_rt_sigtimedwait_time64(const void *uthese, void *uinfo, const void *uts,
                                unsigned long sigsetsize);
long sys_sigreturn(void);
long sys_rt_sigreturn(void);
long sys_pause(void);
long sys_sigaltstack(const void *ss, void *oss);

/* kernel/itimer.c */
long sys_alarm(unsigned int seconds);
long sys_getitimer(int which, void *value);
long sys_setitimer(int which, const void *value, void *ovalue);

/* kernel/sys.c */
long sys_getpid(void);
long sys_gettid(void);
long sys_getppid(void);
/* kernel/cred.c: user and group ids (the 16-bit calls take old_uid_t
 * arguments in 32-bit registers) */
long sys_getuid(void);
long sys_geteuid(void);
long sys_getgid(void);
long sys_getegid(void);
long sys_getuid16(void);
long sys_geteuid16(void);
long sys_getgid16(void);
long sys_getegid16(void);
long sys_getresuid(uid_t *r, uid_t *e, uid_t *s);
long sys_getresgid(gid_t *r, gid_t *e, gid_t *s);
long sys_getresuid16(uint16_t *r, uint16_t *e, uint16_t *s);
long sys_getresgid16(uint16_t *r, uint16_t *e, uint16_t *s);
long sys_setuid(uid_t uid);
long sys_setgid(gid_t gid);
long sys_setreuid(uid_t r, uid_t e);
long sys_setregid(gid_t r, gid_t e);
long sys_setresuid(uid_t r, uid_t e, uid_t s);
long sys_setresgid(gid_t r, gid_t e, gid_t s);
long sys_setfsuid(uid_t uid);
long sys_setfsgid(gid_t gid);
long sys_setuid16(unsigned long uid);
long sys_setgid16(unsigned long gid);
long sys_setreuid16(unsigned long r, unsigned long e);
long sys_setregid16(unsigned long r, unsigned long e);
long sys_setresuid16(unsigned long r, unsigned long e, unsigned long s);
long sys_setresgid16(unsigned long r, unsigned long e, unsigned long s);
long sys_setfsuid16(unsigned long uid);
long sys_setfsgid16(unsigned long gid);
long sys_getgroups(int size, gid_t *list);
long sys_setgroups(int size, const gid_t *list);
long sys_getgroups16(int size, uint16_t *list);
long sys_setgroups16(int size, const uint16_t *list);
/* kernel/sys.c, continued */
long sys_setpgid(pid_t pid, pid_t pgid);
long sys_getpgid(pid_t pid);
long sys_getpgrp(void);
long sys_setsid(void);
long sys_prctl(int option, unsigned long arg2, unsigned long arg3,
               unsigned long arg4, unsigned long arg5);
long sys_getsid(pid_t pid);
long sys_newuname(void *name);
long sys_reboot(int magic1, int magic2, unsigned int cmd, void *arg);
long sys_getrandom(void *buf, size_t count, unsigned int flags);
long sys_getrlimit(unsigned int resource, void *rlim);
long sys_old_getrlimit(unsigned int resource, void *rlim);
long sys_capget(void *header, void *dataptr);
long sys_capset(void *header, const void *data);
long sys_prlimit64(pid_t pid, unsigned int resource, const void *new_rlim, void *old_rlim);
long sys_set_tid_address(int *tidptr);
long sys_set_robust_list(void *head, size_t len);
long sys_get_robust_list(int pid, void *head_ptr, size_t *len_ptr);
long sys_set_thread_area(void *u_info);
long sys_get_thread_area(void *u_info);
long sys_nanosleep(const void *req, void *rem);
long sys_clock_nanosleep(int clockid, int flags, const void *req, void *rem);
long sys_clock_gettime(int clockid, void *tp);
long sys_clock_gettime64(int clockid, void *tp);
long sys_clock_getres(int clockid, void *tp);
long sys_clock_getres_time64(int clockid, void *tp);
long sys_gettimeofday(void *tv, void *tz);
long sys_time(long *tloc);
long sys_times(void *buf);
long sys_getrusage(int who, void *ru);
long sys_sched_setaffinity(pid_t pid, unsigned int len, unsigned long *user_mask);
long sys_sched_getaffinity(pid_t pid, unsigned int len, unsigned long *user_mask);
struct sysinfo;
long sys_sysinfo(struct sysinfo *buf);
long sys_sched_yield(void);
long sys_umask(int mask);
long sys_futex(uint32_t *uaddr, int op, uint32_t val, const void *timeout,
               uint32_t *uaddr2, uint32_t val3);
long sys_futex_time64(uint32_t *uaddr, int op, uint32_t val, const void *timeout,
                      uint32_t *uaddr2, uint32_t val3);
long sys_vellum_debug(unsigned long op, unsigned long arg);

/* Other layers' handlers: their prototypes live in their headers (<mm.h>
 * for brk/mmap2/munmap/mprotect/msync, <fs_syscalls.h> for the file calls),
 * which kernel/syscall.c includes. */
#endif
