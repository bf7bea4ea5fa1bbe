/* include/signal.h: signals, as Linux i386 defines them for user space
 * (numbers, sigaction layout, siginfo, the signal frames) and the kernel
 * interface of kernel/signal.c.
 *
 * Per task (struct task_struct, include/sched.h): `pending` (a bit per
 * pending signal plus the siginfo of the first one queued), `blocked` (the
 * mask), and `action[]` (the handlers).  Simplification: Linux shares the
 * handlers between threads (sighand_struct) and has shared and per-thread
 * pending sets; Vellum processes have one thread, so one copy each is the
 * same thing.  Standard signals do not queue (a second SIGCHLD while the
 * first is pending is merged), as in Linux; real-time signals merge too here.
 */
#ifndef _SIGNAL_H
#define _SIGNAL_H
#include <types.h>

#define _NSIG        64
#define _NSIG_WORDS  2

#define SIGHUP     1
#define SIGINT     2
#define SIGQUIT    3
#define SIGILL     4
#define SIGTRAP    5
#define SIGABRT    6
#define SIGBUS     7
#define SIGFPE     8
#define SIGKILL    9
#define SIGUSR1   10
#define SIGSEGV   11
#define SIGUSR2   12
#define SIGPIPE   13
#define SIGALRM   14
#define SIGTERM   15
#define SIGSTKFLT 16
#define SIGCHLD   17
#define SIGCONT   18
#define SIGSTOP   19
#define SIGTSTP   20
#define SIGTTIN   21
#define SIGTTOU   22
#define SIGURG    23
#define SIGXCPU   24
#define SIGXFSZ   25
#define SIGVTALRM 26
#define SIGPROF   27
#define SIGWINCH  28
#define SIGIO     29
#define SIGPWR    30
#define SIGSYS    31
#define SIGRTMIN  32

/* sa_flags */
#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO   0x00000004
#define SA_ONSTACK   0x08000000
#define SA_RESTART   0x10000000
#define SA_NODEFER   0x40000000
#define SA_RESETHAND 0x80000000
#define SA_RESTORER  0x04000000

#define SIG_BLOCK    0
#define SIG_UNBLOCK  1
#define SIG_SETMASK  2

typedef void (*__sighandler_t)(int);
#define SIG_DFL ((__sighandler_t)0)
#define SIG_IGN ((__sighandler_t)1)

/* si_code values */
#define SI_USER      0
#define SI_KERNEL    0x80
#define CLD_EXITED   1
#define CLD_KILLED   2
#define CLD_STOPPED  5
#define CLD_CONTINUED 6
/* SEGV_MAPERR etc. are in <asm/traps.h> (the trap code needs them first). */
#ifndef SEGV_MAPERR
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#endif
#define BUS_ADRERR   2

typedef struct {
    unsigned long sig[_NSIG_WORDS];
} sigset_t;

/* The i386 rt_sigaction() structure (Linux's struct sigaction for i386,
 * what glibc and our libc pass): handler, flags, restorer, then the mask. */
struct sigaction {
    __sighandler_t sa_handler;
    unsigned long sa_flags;
    void (*sa_restorer)(void);
    sigset_t sa_mask;
};
struct k_sigaction {
    struct sigaction sa;
};

/* siginfo_t as user space sees it: 128 bytes. */
typedef struct {
    int si_signo;
    int si_errno;
    int si_code;
    union {
        int _pad[29];
        struct { int pid; unsigned int uid; } kill;               /* kill() */
        struct { void *addr; } fault;                             /* SIGSEGV, SIGBUS */
        struct { int pid; unsigned int uid; int status; long utime, stime; } chld;
    } _sifields;
} siginfo_t;
#define si_pid    _sifields.kill.pid
#define si_uid    _sifields.kill.uid
#define si_addr   _sifields.fault.addr
#define si_status _sifields.chld.status

/* ---- the signal frames on the user stack (Linux i386, "ia32") ----
 * The layouts are user ABI: glibc's and our libc's restorers, debuggers and
 * unwinders read them. */
struct sigcontext {
    unsigned short gs, __gsh, fs, __fsh, es, __esh, ds, __dsh;
    unsigned long di, si, bp, sp, bx, dx, cx, ax;
    unsigned long trapno, err, ip;
    unsigned short cs, __csh;
    unsigned long flags, sp_at_signal;
    unsigned short ss, __ssh;
    unsigned long fpstate;             /* user pointer to FPU state; 0: none */
    unsigned long oldmask, cr2;
};

/* sigaltstack(2): ss_flags, and the smallest stack it accepts (i386). */
#define SS_ONSTACK     1               /* (read) we are running on it */
#define SS_DISABLE     2               /* none / turn it off */
#define SS_AUTODISARM  (1U << 31)      /* forget it while a handler runs on it */
#define MINSIGSTKSZ    2048
#define SIGSTKSZ       8192

typedef struct {
    unsigned long ss_sp;
    int ss_flags;
    unsigned long ss_size;
} stack_t;

struct ucontext {
    unsigned long uc_flags;
    unsigned long uc_link;
    stack_t uc_stack;
    struct sigcontext uc_mcontext;
    sigset_t uc_sigmask;
};

/* Frame for a handler without SA_SIGINFO: the handler is called as
 * handler(sig) and returns to pretcode (sa_restorer), which pops sig and
 * calls sigreturn (so sigreturn finds the frame at sp - 8). */
struct sigframe {
    unsigned long pretcode;
    int sig;
    struct sigcontext sc;
    unsigned char fpstate_unused[624]; /* struct _fpstate_32, unused (Linux keeps it for the offsets) */
    unsigned long extramask[_NSIG_WORDS - 1];
    char retcode[8];
};

/* Frame for an SA_SIGINFO handler: handler(sig, &info, &uc); its restorer
 * calls rt_sigreturn (frame at sp - 4). */
struct rt_sigframe {
    unsigned long pretcode;
    int sig;
    unsigned long pinfo;
    unsigned long puc;
    siginfo_t info;
    struct ucontext uc;
    char retcode[8];
};

struct task_struct;
struct pt_regs;

/* What the kernel keeps per pending signal (becomes a siginfo_t on the
 * user stack for SA_SIGINFO handlers). */
struct kern_siginfo {
    int code;                          /* SI_USER, SI_KERNEL, SEGV_MAPERR, CLD_EXITED... */
    int pid;                           /* sender (kill) or child (SIGCHLD) */
    unsigned long addr;                /* faulting address (SIGSEGV, SIGBUS...) */
    int status;                        /* SIGCHLD: exit code or signal */
};

/* ---- kernel interface (kernel/signal.c) ---- */
static inline int sigismember_k(const sigset_t *s, int sig)
{ return (s->sig[(sig - 1) / 32] >> ((sig - 1) % 32)) & 1; }
static inline void sigaddset_k(sigset_t *s, int sig)
{ s->sig[(sig - 1) / 32] |= 1UL << ((sig - 1) % 32); }
static inline void sigdelset_k(sigset_t *s, int sig)
{ s->sig[(sig - 1) / 32] &= ~(1UL << ((sig - 1) % 32)); }
#define sigmask(sig) (1UL << ((sig) - 1))      /* for signals 1..32 */

/* Send sig to task t (info may be NULL: SI_USER from the current task).
 * Wakes t if it sleeps interruptibly; SIGKILL also ends an interruptible
 * or killable wait.  0 or -EINVAL.  Any context (interrupts too). */
int send_signal(struct task_struct *t, int sig, const struct kern_siginfo *info);
/* kill(2) semantics: pid > 0 one process, 0 the caller's group, -1 every
 * process but init and the caller, < -1 the group -pid.  0 or -ESRCH. */
int kill_pid_info(int pid, int sig, const struct kern_siginfo *info);
/* Send sig to every process in process group pgrp (tty: Ctrl-C -> SIGINT). */
int kill_pgrp(pid_t pgrp, int sig);
/* Force a synchronous fault signal on current (unblocks and un-ignores it,
 * as Linux's force_sig_fault: a SIGSEGV you blocked still kills you). */
void force_sig(int sig);
/* Is an unblocked signal pending for t? */
int signal_pending(struct task_struct *t);
/* Deliver pending signals: called on the way back to user mode. */
void do_signal(struct pt_regs *regs);
/* Reset handlers to SIG_DFL across execve (ignored ones stay ignored). */
void flush_signal_handlers(struct task_struct *t);
/* Report line for a fatal user fault, the format the tests grep:
 * "[pid N comm] segfault at ADDR ip IP error E (reason)". */
void show_user_fault(int sig, unsigned long addr, struct pt_regs *regs, const char *reason);
#endif
