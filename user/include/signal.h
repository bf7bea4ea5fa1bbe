/*
 * signal.h - signals (Linux numbering) and the rt_sigaction interface.
 *
 * The kernel's sigaction on i386 is { handler, flags, restorer, mask } with
 * a 64-bit mask; libc/signal.c fills sa_restorer with a trampoline that
 * calls sigreturn (or rt_sigreturn for SA_SIGINFO handlers), so a
 * handler's "ret" lands back in the kernel.
 */
#ifndef _SIGNAL_H
#define _SIGNAL_H

#include <sys/types.h>

#define SIGHUP   1
#define SIGINT   2
#define SIGQUIT  3
#define SIGILL   4
#define SIGTRAP  5
#define SIGABRT  6
#define SIGBUS   7
#define SIGFPE   8
#define SIGKILL  9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define NSIG    65

typedef void (*sighandler_t)(int);
#define SIG_DFL ((sighandler_t)0)
#define SIG_IGN ((sighandler_t)1)
#define SIG_ERR ((sighandler_t)-1)

/* 64 signals, one bit each: the size rt_sigprocmask expects (8 bytes). */
typedef struct {
	unsigned long sig[2];
} sigset_t;

#define SA_NOCLDSTOP 0x00000001
#define SA_SIGINFO   0x00000004
#define SA_RESTORER  0x04000000
#define SA_ONSTACK   0x08000000
#define SA_RESTART   0x10000000
#define SA_NODEFER   0x40000000
#define SA_RESETHAND 0x80000000

/*
 * What an SA_SIGINFO handler receives (Linux's layout, 128 bytes; only
 * the common fields are named here).
 */
typedef struct {
	int si_signo;
	int si_errno;
	int si_code;
	union {
		struct {            /* kill(), sigqueue() */
			pid_t si_pid;
			uid_t si_uid;
		};
		void *si_addr;      /* SIGSEGV, SIGBUS: the faulting address */
		int __pad[29];
	};
} siginfo_t;

/* Same layout as the kernel's struct sigaction for rt_sigaction on i386. */
struct sigaction {
	union {
		sighandler_t sa_handler;                             /* plain */
		void (*sa_sigaction)(int, siginfo_t *, void *);      /* SA_SIGINFO */
	};
	unsigned long sa_flags;
	void        (*sa_restorer)(void);
	sigset_t      sa_mask;
};

#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
int sigprocmask(int how, const sigset_t *set, sigset_t *old);
sighandler_t signal(int sig, sighandler_t handler);
int kill(pid_t pid, int sig);
int raise(int sig);

int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int sig);
int sigdelset(sigset_t *set, int sig);
int sigismember(const sigset_t *set, int sig);

/* Name <-> number for the kill utility ("INT" <-> 2); -1 / NULL if unknown. */
int         sig_from_name(const char *name);
const char *sig_name(int sig);

#endif
