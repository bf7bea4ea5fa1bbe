/* include/uapi/asm/signal.h: the signals, Linux i386 values: numbers,
 * sigset_t, struct sigaction as rt_sigaction(2) takes it, the sa_flags,
 * sigprocmask's how, and sigaltstack's stack_t.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md):
 * included by the kernel's <signal.h> and by user/include/signal.h. */
#ifndef _UAPI_ASM_SIGNAL_H
#define _UAPI_ASM_SIGNAL_H
#include <asm/siginfo.h>

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
#define SA_RESTORER  0x04000000
#define SA_ONSTACK   0x08000000
#define SA_RESTART   0x10000000
#define SA_NODEFER   0x40000000
#define SA_RESETHAND 0x80000000

/* sigprocmask's how */
#define SIG_BLOCK    0
#define SIG_UNBLOCK  1
#define SIG_SETMASK  2

typedef void (*__sighandler_t)(int);
#define SIG_DFL ((__sighandler_t)0)
#define SIG_IGN ((__sighandler_t)1)

/* 64 signals, one bit each (8 bytes: what rt_sigprocmask expects). */
typedef struct {
    unsigned long sig[_NSIG_WORDS];
} sigset_t;

/* The i386 rt_sigaction() structure: handler, flags, restorer, then the
 * mask.  sa_sigaction is the same word, for SA_SIGINFO handlers. */
struct sigaction {
    union {
        __sighandler_t sa_handler;
        void (*sa_sigaction)(int, siginfo_t *, void *);
    };
    unsigned long sa_flags;
    void (*sa_restorer)(void);
    sigset_t sa_mask;
};

/* sigaltstack(2): ss_flags, and the smallest stack it accepts (i386). */
#define SS_ONSTACK     1               /* (read) we are running on it */
#define SS_DISABLE     2               /* none / turn it off */
#define SS_AUTODISARM  (1U << 31)      /* forget it while a handler runs on it */
#define MINSIGSTKSZ    2048
#define SIGSTKSZ       8192

typedef struct {
    unsigned long ss_sp;               /* Linux: void __user *; one word either way */
    int ss_flags;
    unsigned long ss_size;
} stack_t;

#endif
