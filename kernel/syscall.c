/* kernel/syscall.c: the system call table (process layer); the int $0x80
 * dispatcher that indexes it is syscall_handler, beside the other trap
 * handlers in kernel/x86/traps.c (as Linux's arch/x86/entry/common.c).
 *
 *   user:   eax = number, ebx ecx edx esi edi ebp = arguments, int $0x80
 *             |
 *   entry.S:  trap_stub_syscall pushes orig_ax = eax, vector 0x80;
 *             common_entry saves struct pt_regs; do_trap(regs)
 *             |
 *   traps.c:  interrupts on; regs->ax = syscall_handler(regs), which calls
 *             sys_call_table[nr](bx, cx, dx, si, di, bp)  -> long result
 *             (-errno on failure, as Linux: -4095..-1 are errors); the
 *             table is here
 *             |
 *   entry.S:  ret_from_intr -> exit_to_user_mode(regs) (signals,
 *             reschedule) -> restore the registers -> iret
 *
 * The ONE table: every layer writes its `long sys_NAME(...)` in its own file,
 * declares it in its header (<syscalls.h>, <fs_syscalls.h>, <mm.h>), and
 * its line goes here.  Numbers are Linux i386's (<asm/unistd.h>), plus
 * Vellum's vellum_debug at 500.  A number with no handler is
 * sys_ni_syscall: -ENOSYS, logged once.
 */
#include <kernel.h>
#include <errno.h>
#include <sched.h>
#include <syscalls.h>
#include <fs_syscalls.h>
#include <mm.h>
#include <asm/unistd.h>
#include <asm/ptrace.h>
#include <asm/traps.h>

/* (void (*)(void)) is the sanctioned "any function" type: no cast warning. */
#define S(nr, fn) [__NR_##nr] = (syscall_fn_t)(void (*)(void))(fn)

/* Every handler by its real prototype: the table names functions the
 * compiler has seen declared, and each defining file includes the same
 * header, so a definition that disagrees with its prototype does not
 * compile.  Unlisted numbers are sys_ni_syscall (-ENOSYS, logged once);
 * the range initializer comes first and the entries below override it, as
 * Linux's arch/x86/entry/syscall_32.c does. */
#pragma GCC diagnostic ignored "-Woverride-init"
const syscall_fn_t sys_call_table[NR_syscalls] = {
    [0 ... NR_syscalls - 1] = (syscall_fn_t)(void (*)(void))sys_ni_syscall,
    /* processes (kernel/fork.c, exit.c, exec.c) */
    S(exit, sys_exit),
    S(exit_group, sys_exit_group),
    S(fork, sys_fork),
    S(vfork, sys_vfork),
    S(clone, sys_clone),
    S(execve, sys_execve),
    S(waitpid, sys_waitpid),
    S(wait4, sys_wait4),
    S(waitid, sys_waitid),
    /* signals (kernel/signal.c) */
    S(kill, sys_kill),
    S(tkill, sys_tkill),
    S(tgkill, sys_tgkill),
    S(rt_sigaction, sys_rt_sigaction),
    S(rt_sigprocmask, sys_rt_sigprocmask),
    S(rt_sigpending, sys_rt_sigpending),
    S(sigpending, sys_sigpending),
    S(rt_sigqueueinfo, sys_rt_sigqueueinfo),
    S(rt_tgsigqueueinfo, sys_rt_tgsigqueueinfo),
    S(rt_sigsuspend, sys_rt_sigsuspend),
    S(rt_sigtimedwait, sys_rt_sigtimedwait),
    S(rt_sigtimedwait_time64, sys_rt_sigtimedwait_time64),
    S(sigreturn, sys_sigreturn),
    S(rt_sigreturn, sys_rt_sigreturn),
    S(pause, sys_pause),
    S(sigaltstack, sys_sigaltstack),
    /* timers (kernel/itimer.c) */
    S(alarm, sys_alarm),
    S(getitimer, sys_getitimer),
    S(setitimer, sys_setitimer),
    /* identity, time, misc (kernel/sys.c) */
    S(getpid, sys_getpid),
    S(gettid, sys_gettid),
    S(getppid, sys_getppid),
    /* user and group ids (kernel/cred.c): the plain numbers are the old
     * 16-bit calls, the *32 ones what glibc uses */
    S(getuid, sys_getuid16), S(getuid32, sys_getuid),
    S(geteuid, sys_geteuid16), S(geteuid32, sys_geteuid),
    S(getgid, sys_getgid16), S(getgid32, sys_getgid),
    S(getegid, sys_getegid16), S(getegid32, sys_getegid),
    S(setuid, sys_setuid16), S(setuid32, sys_setuid),
    S(setgid, sys_setgid16), S(setgid32, sys_setgid),
    S(setreuid, sys_setreuid16), S(setreuid32, sys_setreuid),
    S(setregid, sys_setregid16), S(setregid32, sys_setregid),
    S(setresuid, sys_setresuid16), S(setresuid32, sys_setresuid),
    S(setresgid, sys_setresgid16), S(setresgid32, sys_setresgid),
    S(getresuid, sys_getresuid16), S(getresuid32, sys_getresuid),
    S(getresgid, sys_getresgid16), S(getresgid32, sys_getresgid),
    S(setfsuid, sys_setfsuid16), S(setfsuid32, sys_setfsuid),
    S(setfsgid, sys_setfsgid16), S(setfsgid32, sys_setfsgid),
    S(getgroups, sys_getgroups16), S(getgroups32, sys_getgroups),
    S(setgroups, sys_setgroups16), S(setgroups32, sys_setgroups),
    S(capget, sys_capget),
    S(capset, sys_capset),
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
    S(getrlimit, sys_old_getrlimit),
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
    S(clock_getres_time64, sys_clock_getres_time64),
    S(gettimeofday, sys_gettimeofday),
    S(time, sys_time),
    S(times, sys_times),
    S(getrusage, sys_getrusage),
    S(sysinfo, sys_sysinfo),
    S(sched_yield, sys_sched_yield),
    S(sched_setaffinity, sys_sched_setaffinity),
    S(sched_getaffinity, sys_sched_getaffinity),
    S(umask, sys_umask),
    S(rseq, sys_ni_syscall_quiet),
    S(futex, sys_futex),
    S(futex_time64, sys_futex_time64),
    S(get_robust_list, sys_get_robust_list),
    /* memory (mm/mmap.c: the uaccess layer) */
    S(brk, sys_brk),
    S(mmap2, sys_mmap2),
    S(munmap, sys_munmap),
    S(mprotect, sys_mprotect),
    S(mlock, sys_mlock),
    S(mlock2, sys_mlock2),
    S(munlock, sys_munlock),
    S(mlockall, sys_mlockall),
    S(munlockall, sys_munlockall),
    S(msync, sys_msync),
    S(cachestat, sys_cachestat),
    S(madvise, sys_madvise),
    S(fadvise64, sys_fadvise64),
    S(fadvise64_64, sys_fadvise64_64),
    S(mincore, sys_mincore),
    S(mremap, sys_mremap),
    /* files (fs/: the files layer) */
    S(read, sys_read),
    S(write, sys_write),
    S(readv, sys_readv),
    S(writev, sys_writev),
    S(pread64, sys_pread64),
    S(pwrite64, sys_pwrite64),
    S(preadv, sys_preadv),
    S(pwritev, sys_pwritev),
    S(preadv2, sys_preadv2),
    S(pwritev2, sys_pwritev2),
    S(open, sys_open),
    S(openat, sys_openat),
    S(openat2, sys_openat2),
    S(creat, sys_creat),
    S(close, sys_close),
    S(lseek, sys_lseek),
    S(_llseek, sys_llseek),
    S(dup, sys_dup),
    S(dup2, sys_dup2),
    S(dup3, sys_dup3),
    S(pipe, sys_pipe),
    S(pipe2, sys_pipe2),
    S(fcntl, sys_fcntl),
    S(fcntl64, sys_fcntl64),
    S(flock, sys_flock),
    S(ioctl, sys_ioctl),
    S(stat, sys_newstat),
    S(lstat, sys_newlstat),
    S(fstat, sys_newfstat),
    S(stat64, sys_stat64),
    S(lstat64, sys_lstat64),
    S(fstat64, sys_fstat64),
    S(fstatat64, sys_fstatat64),
    S(statx, sys_statx),
    S(getdents64, sys_getdents64),
    S(mkdir, sys_mkdir),
    S(mkdirat, sys_mkdirat),
    S(mknod, sys_mknod),
    S(mknodat, sys_mknodat),
    S(rmdir, sys_rmdir),
    S(unlink, sys_unlink),
    S(unlinkat, sys_unlinkat),
    S(rename, sys_rename),
    S(renameat, sys_renameat),
    S(renameat2, sys_renameat2),
    S(linkat, sys_linkat),
    S(symlinkat, sys_symlinkat),
    S(fgetxattr, sys_fgetxattr),
    S(link, sys_link),
    S(symlink, sys_symlink),
    S(readlink, sys_readlink),
    S(readlinkat, sys_readlinkat),
    S(access, sys_access),
    S(faccessat, sys_faccessat),
    S(faccessat2, sys_faccessat2),
    S(chdir, sys_chdir),
    S(fchdir, sys_fchdir),
    S(getcwd, sys_getcwd),
    S(truncate64, sys_truncate64),
    S(ftruncate64, sys_ftruncate64),
    S(fallocate, sys_fallocate),
    S(statfs, sys_statfs),
    S(fstatfs, sys_fstatfs),
    S(statfs64, sys_statfs64),
    S(fstatfs64, sys_fstatfs64),
    S(utimensat, sys_utimensat),
    S(utimensat_time64, sys_utimensat_time64),
    S(chmod, sys_chmod),
    S(fchmod, sys_fchmod),
    S(fchmodat, sys_fchmodat),
    S(chown, sys_chown16), S(chown32, sys_chown),
    S(lchown, sys_lchown16), S(lchown32, sys_lchown),
    S(fchown, sys_fchown16), S(fchown32, sys_fchown),
    S(fchownat, sys_fchownat),
    S(truncate, sys_truncate),
    S(ftruncate, sys_ftruncate),
    S(fsync, sys_fsync),
    S(fdatasync, sys_fdatasync),
    S(sync, sys_sync),
    S(mount, sys_mount),
    S(umount2, sys_umount2),
    S(syslog, sys_syslog),
    S(poll, sys_poll),
    S(select, sys_old_select),
    S(_newselect, sys_select),
    S(pselect6, sys_pselect6),
    S(pselect6_time64, sys_pselect6_time64),
    S(sendfile, sys_sendfile),
    S(sendfile64, sys_sendfile64),
    /* Out on purpose, as a Linux kernel built without them (docs/processes.md,
     * "Out on purpose"): -ENOSYS (logged once, as any).  Sockets (no
     * CONFIG_NET): socketcall and i386's direct socket calls.  System V IPC
     * (no CONFIG_SYSVIPC): ipc and the direct sem/shm/msg calls.  The LDT
     * (no CONFIG_MODIFY_LDT_SYSCALL): modify_ldt. */
    S(socketcall, sys_ni_syscall), S(socket, sys_ni_syscall),
    S(socketpair, sys_ni_syscall), S(bind, sys_ni_syscall), S(connect, sys_ni_syscall),
    S(listen, sys_ni_syscall), S(accept4, sys_ni_syscall), S(getsockopt, sys_ni_syscall),
    S(setsockopt, sys_ni_syscall), S(getsockname, sys_ni_syscall),
    S(getpeername, sys_ni_syscall), S(sendto, sys_ni_syscall), S(sendmsg, sys_ni_syscall),
    S(recvfrom, sys_ni_syscall), S(recvmsg, sys_ni_syscall), S(shutdown, sys_ni_syscall),
    S(ipc, sys_ni_syscall), S(semget, sys_ni_syscall), S(semctl, sys_ni_syscall),
    S(shmget, sys_ni_syscall), S(shmctl, sys_ni_syscall), S(shmat, sys_ni_syscall),
    S(shmdt, sys_ni_syscall), S(msgget, sys_ni_syscall), S(msgsnd, sys_ni_syscall),
    S(msgrcv, sys_ni_syscall), S(msgctl, sys_ni_syscall),
    S(modify_ldt, sys_ni_syscall),
    /* Vellum's own (kernel/sys.c; not a Linux call) */
    S(vellum_debug, sys_vellum_debug),
};

/* The system calls that run without the big kernel lock (SMP step 5,
 * docs/smp.md); syscall_handler takes it for every other.  read and write
 * of a file whose f_op says so (FOP_UNLOCKED_RW: ext2's, ext3's and
 * ramfs's regular files, pipes, /dev/null, /dev/zero) run on several CPUs at
 * once down to the page cache; below it, what is not locked yet (block
 * mapping and allocation, the journal, the block layer, writeback) takes
 * the big lock itself (docs/smp.md says where). */
const unsigned char sys_call_unlocked[NR_syscalls] = {
    [__NR_read] = 1, [__NR_write] = 1, [__NR_pread64] = 1, [__NR_pwrite64] = 1,
    [__NR_readv] = 1, [__NR_writev] = 1, [__NR_preadv] = 1, [__NR_pwritev] = 1,
    [__NR_preadv2] = 1, [__NR_pwritev2] = 1,
    [__NR_getpid] = 1, [__NR_gettid] = 1,
};

/* -ENOSYS once per number, with the caller's name, so a program that
 * probes for a newer call does not flood the log. */
static unsigned long enosys_logged[(NR_syscalls + 31) / 32 + 1];

long ni_syscall(struct pt_regs *regs, unsigned long nr)
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
