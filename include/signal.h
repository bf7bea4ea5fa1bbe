/* include/signal.h: the kernel side of signals: the signal frames on the
 * user stack and the interface of kernel/signal.c.  What user space sees
 * (numbers, sigaction, siginfo_t, stack_t) is ABI, in include/uapi/asm/
 * signal.h and siginfo.h, shared with the userland.
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

#include <asm/signal.h>                /* the ABI: numbers, sigset_t, sigaction, siginfo_t, stack_t */

struct k_sigaction {
    struct sigaction sa;
};

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
    int force;                         /* a fault forced on the task (force_sig):
                                          init is not spared (kernel/signal.c) */
    /* rt_sigqueueinfo, rt_tgsigqueueinfo: the sender's own siginfo, handed
     * on as given (si_signo, si_errno and the union's first words: the
     * pid, uid and si_value of SI_QUEUE, a timer's id, overrun and value).
     * Simplification: Linux hands on all 128 bytes; the union's later words
     * are zero here. */
    int given;                         /* 1: signo, errno and words are the sender's */
    int signo, errno_val;
    unsigned long words[4];
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
/* The same to t's process: one task of its thread group that does not
 * block sig (kernel/signal.c). */
int send_group_signal(struct task_struct *p, int sig, const struct kern_siginfo *info);
/* kill(2) semantics: pid > 0 one process, 0 the caller's group, -1 every
 * process but init and the caller, < -1 the group -pid.  0, -ESRCH (no
 * such process or group), -EINVAL (a bad signal) or -EPERM (info NULL or a
 * code <= 0 is a process's signal: it may signal only processes whose real
 * or saved uid is its real or effective uid, unless root; kill(-1, ...)
 * skips those instead, as Linux's check_kill_permission). */
int kill_pid_info(int pid, int sig, const struct kern_siginfo *info);
/* Send sig to every process in process group pgrp (tty: Ctrl-C -> SIGINT),
 * as the kernel: no permission check, si_code SI_KERNEL. */
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
