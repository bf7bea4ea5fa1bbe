/*
 * signal.c - sigaction with a restorer, signal(), signal sets, names.
 *
 * How a handler returns: the kernel builds a signal frame on the user
 * stack whose return address is sa_restorer. We point that at one of the
 * trampolines in syscall.S: __restore_rt (rt_sigreturn) for SA_SIGINFO
 * handlers, which get the "rt" frame, and __restore (sigreturn) for plain
 * ones, which get the old-style frame; the kernel then restores the
 * registers the signal interrupted. This is what glibc does on i386, and
 * why SA_RESTORER is set here, not by the program.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

void __restore(void);
void __restore_rt(void);
int __rt_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction k;

	if (act) {
		k = *act;
		k.sa_flags |= SA_RESTORER;
		k.sa_restorer = (k.sa_flags & SA_SIGINFO) ? __restore_rt : __restore;
		act = &k;
	}
	return __rt_sigaction(sig, act, old);
}

/* BSD-style signal(): the handler stays installed, interrupted calls restart. */
sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

int raise(int sig)
{
	return kill(getpid(), sig);
}

/* Signal n is bit n-1 of the 64-bit set. */
int sigemptyset(sigset_t *set)
{
	set->sig[0] = set->sig[1] = 0;
	return 0;
}

int sigfillset(sigset_t *set)
{
	set->sig[0] = set->sig[1] = ~0UL;
	return 0;
}

int sigaddset(sigset_t *set, int sig)
{
	set->sig[(sig - 1) / 32] |= 1UL << ((sig - 1) % 32);
	return 0;
}

int sigdelset(sigset_t *set, int sig)
{
	set->sig[(sig - 1) / 32] &= ~(1UL << ((sig - 1) % 32));
	return 0;
}

int sigismember(const sigset_t *set, int sig)
{
	return (set->sig[(sig - 1) / 32] >> ((sig - 1) % 32)) & 1;
}

static const char *const names[] = {
	[SIGHUP] = "HUP",   [SIGINT] = "INT",   [SIGQUIT] = "QUIT", [SIGILL] = "ILL",
	[SIGTRAP] = "TRAP", [SIGABRT] = "ABRT", [SIGBUS] = "BUS",   [SIGFPE] = "FPE",
	[SIGKILL] = "KILL", [SIGUSR1] = "USR1", [SIGSEGV] = "SEGV", [SIGUSR2] = "USR2",
	[SIGPIPE] = "PIPE", [SIGALRM] = "ALRM", [SIGTERM] = "TERM", [SIGCHLD] = "CHLD",
	[SIGCONT] = "CONT", [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP", [SIGTTIN] = "TTIN",
	[SIGTTOU] = "TTOU",
};
#define NNAMES ((int)(sizeof(names) / sizeof(names[0])))

const char *sig_name(int sig)
{
	return (sig > 0 && sig < NNAMES) ? names[sig] : NULL;
}

int sig_from_name(const char *name)
{
	if (strncmp(name, "SIG", 3) == 0)
		name += 3;
	for (int i = 1; i < NNAMES; i++)
		if (names[i] && strcmp(names[i], name) == 0)
			return i;
	return -1;
}
