/* kernel/syscall.c: the system call table and the int $0x80 dispatcher
 * (process layer, on top of the trap entry in kernel/x86/entry.S).
 *
 *   user:   eax = number, ebx ecx edx esi edi ebp = arguments, int $0x80
 *             |
 *   entry.S:  trap_stub_syscall pushes orig_ax = eax, vector 0x80;
 *             common_entry saves struct pt_regs; do_trap(regs)
 *             |
 *   traps.c:  interrupts on; regs->ax = syscall_handler(regs)
 *             |
 *   here:     sys_call_table[nr](bx, cx, dx, si, di, bp)  -> long result
 *             (-errno on failure, as Linux: -4095..-1 are errors)
 *             |
 *   entry.S:  ret_from_intr -> exit_to_user_mode(regs) (signals,
 *             reschedule) -> restore the registers -> iret
 *
 * The ONE table: every layer writes its `long sys_NAME(...)` in its own file
 * and its line goes here.  Numbers are Linux i386's (<asm/unistd.h>).
 * A number with no handler returns -ENOSYS and is logged once.  A handler
 * another layer has not written yet is a weak alias of sys_ni_syscall
 * (kernel/sys_ni.c), Linux's cond_syscall() trick: the table links, the
 * call says -ENOSYS, and the real function replaces it at link time.
 */
#include <kernel.h>
#include <errno.h>
#include <sched.h>
#include <syscalls.h>
#include <asm/unistd.h>
#include <asm/ptrace.h>
#include <asm/traps.h>

typedef long (*syscall_fn_t)(unsigned long, unsigned long, unsigned long,
                             unsigned long, unsigned long, unsigned long);

/* (void (*)(void)) is the sanctioned "any function" type: no cast warning. */
#define S(nr, fn) [__NR_##nr] = (syscall_fn_t)(void (*)(void))(fn)

/* Handlers of other layers, by symbol name: `__sysent_read` is sys_read. */
#define DECLARE_SYSENT(n) extern const char __sysent_##n[] __asm__("sys_" #n);
MM_SYSCALLS(DECLARE_SYSENT)
FILES_SYSCALLS(DECLARE_SYSENT)

static const syscall_fn_t sys_call_table[NR_syscalls] = {
    /* processes (kernel/fork.c, exit.c, exec.c) */
    S(exit, sys_exit),
    S(exit_group, sys_exit_group),
    S(fork, sys_fork),
    S(vfork, sys_vfork),
    S(clone, sys_clone),
    S(execve, sys_execve),
    S(waitpid, sys_waitpid),
    S(wait4, sys_wait4),
    /* signals (kernel/signal.c) */
    S(kill, sys_kill),
    S(tkill, sys_tkill),
    S(tgkill, sys_tgkill),
    S(rt_sigaction, sys_rt_sigaction),
    S(rt_sigprocmask, sys_rt_sigprocmask),
    S(rt_sigpending, sys_rt_sigpending),
    S(rt_sigsuspend, sys_rt_sigsuspend),
    S(sigreturn, sys_sigreturn),
    S(rt_sigreturn, sys_rt_sigreturn),
    S(pause, sys_pause),
    S(sigaltstack, sys_sigaltstack),
    /* identity, time, misc (kernel/sys.c) */
    S(getpid, sys_getpid),
    S(gettid, sys_getpid),
    S(getppid, sys_getppid),
    S(getuid, sys_getuid), S(getuid32, sys_getuid),
    S(geteuid, sys_getuid), S(geteuid32, sys_getuid),
    S(getgid, sys_getuid), S(getgid32, sys_getuid),
    S(getegid, sys_getuid), S(getegid32, sys_getuid),
    S(setpgid, sys_setpgid),
    S(getpgid, sys_getpgid),
    S(getpgrp, sys_getpgrp),
    S(setsid, sys_setsid),
    S(getsid, sys_getsid),
    S(prctl, sys_prctl),
    S(uname, sys_newuname),
    S(reboot, sys_reboot),
    S(getrandom, sys_getrandom),
    S(ugetrlimit, sys_getrlimit),
    S(getrlimit, sys_getrlimit),
    S(prlimit64, sys_prlimit64),
    S(set_tid_address, sys_set_tid_address),
    S(set_robust_list, sys_set_robust_list),
    S(set_thread_area, sys_set_thread_area),
    S(get_thread_area, sys_get_thread_area),
    S(nanosleep, sys_nanosleep),
    S(clock_nanosleep, sys_clock_nanosleep),
    S(clock_gettime, sys_clock_gettime),
    S(clock_gettime64, sys_clock_gettime64),
    S(clock_getres, sys_clock_getres),
    S(gettimeofday, sys_gettimeofday),
    S(time, sys_time),
    S(times, sys_times),
    S(sched_yield, sys_sched_yield),
    S(umask, sys_umask),
    S(rseq, sys_ni_syscall_quiet),
    S(futex, sys_futex),
    /* memory (mm/mmap.c: the uaccess layer) */
    S(brk, __sysent_brk),
    S(mmap2, __sysent_mmap2),
    S(munmap, __sysent_munmap),
    S(mprotect, __sysent_mprotect),
    S(msync, __sysent_msync),
    S(madvise, sys_ni_syscall_quiet),
    /* files (fs/: the files layer) */
    S(read, __sysent_read),
    S(write, __sysent_write),
    S(readv, __sysent_readv),
    S(writev, __sysent_writev),
    S(pread64, __sysent_pread64),
    S(pwrite64, __sysent_pwrite64),
    S(preadv, __sysent_preadv),
    S(pwritev, __sysent_pwritev),
    S(preadv2, __sysent_preadv2),
    S(pwritev2, __sysent_pwritev2),
    S(open, __sysent_open),
    S(openat, __sysent_openat),
    S(creat, __sysent_creat),
    S(close, __sysent_close),
    S(lseek, __sysent_lseek),
    S(_llseek, __sysent_llseek),
    S(dup, __sysent_dup),
    S(dup2, __sysent_dup2),
    S(dup3, __sysent_dup3),
    S(pipe, __sysent_pipe),
    S(pipe2, __sysent_pipe2),
    S(fcntl, __sysent_fcntl),
    S(fcntl64, __sysent_fcntl64),
    S(ioctl, __sysent_ioctl),
    S(stat64, __sysent_stat64),
    S(lstat64, __sysent_lstat64),
    S(fstat64, __sysent_fstat64),
    S(fstatat64, __sysent_fstatat64),
    S(statx, __sysent_statx),
    S(getdents64, __sysent_getdents64),
    S(mkdir, __sysent_mkdir),
    S(mkdirat, __sysent_mkdirat),
    S(rmdir, __sysent_rmdir),
    S(unlink, __sysent_unlink),
    S(unlinkat, __sysent_unlinkat),
    S(rename, __sysent_rename),
    S(renameat, __sysent_renameat),
    S(link, __sysent_link),
    S(symlink, __sysent_symlink),
    S(readlink, __sysent_readlink),
    S(readlinkat, __sysent_readlinkat),
    S(access, __sysent_access),
    S(faccessat, __sysent_faccessat),
    S(chdir, __sysent_chdir),
    S(fchdir, __sysent_fchdir),
    S(getcwd, __sysent_getcwd),
    S(truncate64, __sysent_truncate64),
    S(ftruncate64, __sysent_ftruncate64),
    S(truncate, __sysent_truncate),
    S(ftruncate, __sysent_ftruncate),
    S(fsync, __sysent_fsync),
    S(fdatasync, __sysent_fdatasync),
    S(sync, __sysent_sync),
    S(mount, __sysent_mount),
    S(umount2, __sysent_umount2),
    S(syslog, __sysent_syslog),
    S(poll, __sysent_poll),
    S(sendfile, __sysent_sendfile),
    S(sendfile64, __sysent_sendfile64),
};

/* -ENOSYS once per number, with the caller's name, so a program that
 * probes for a newer call does not flood the log. */
static unsigned long enosys_logged[(NR_syscalls + 31) / 32 + 1];

static long ni_syscall(struct pt_regs *regs, unsigned long nr)
{
    unsigned long bit = nr < NR_syscalls ? nr : NR_syscalls;
    if (!(enosys_logged[bit / 32] & (1UL << (bit % 32)))) {
        enosys_logged[bit / 32] |= 1UL << (bit % 32);
        struct task_struct *t = current;   /* defensive: NULL on a stack without a task */
        printk(KERN_INFO "[pid %d %s] system call %lu not implemented (-ENOSYS)%s\n",
               t ? t->pid : -1, t ? t->comm : "?", nr,
               nr >= NR_syscalls ? " (and every other unknown number)" : "");
    }
    return -ENOSYS;
}

unsigned long syscall_count;           /* every system call (tests, /proc) */

long syscall_handler(struct pt_regs *regs)
{
    unsigned long nr = regs->orig_ax;
    syscall_fn_t fn = NULL;

    syscall_count++;
    if (nr < NR_syscalls)
        fn = sys_call_table[nr];
    if (nr == __NR_vellum_debug)
        return sys_vellum_debug(regs->bx, regs->cx);
    if (!fn || fn == (syscall_fn_t)(void (*)(void))sys_ni_syscall)
        return ni_syscall(regs, nr);
    return fn(regs->bx, regs->cx, regs->dx, regs->si, regs->di, regs->bp);
}
