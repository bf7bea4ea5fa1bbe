/*
 * signal.h - signals and the rt_sigaction interface.
 *
 * The kernel's sigaction on i386 is { handler, flags, restorer, mask } with
 * a 64-bit mask (the kernel's own layout, see below); libc/signal.c fills
 * sa_restorer with a trampoline that calls sigreturn (or rt_sigreturn for SA_SIGINFO handlers), so a
 * handler's "ret" lands back in the kernel.
 */
#ifndef _SIGNAL_H
#define _SIGNAL_H

#include <sys/types.h>

/* The numbers, sigset_t, struct sigaction (with sa_sigaction), siginfo_t,
 * the SA_ flags and SIG_BLOCK..: the kernel's own header,
 * include/uapi/asm/signal.h. */
#include <asm/signal.h>

#define NSIG    (_NSIG + 1)      /* one more than the highest signal number */

typedef __sighandler_t sighandler_t;
#define SIG_ERR ((sighandler_t)-1)

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
