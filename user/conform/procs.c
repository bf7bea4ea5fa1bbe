/* procs.c - conformance: processes and signals (issue 22).  Exit statuses
 * and deaths by signal, wait and waitpid (WNOHANG, a pid, -1, 0, a group,
 * ECHILD), SIGCHLD (default, ignored: children reaped at once;
 * SA_NOCLDWAIT, SA_NOCLDSTOP), kill (signal 0, bad signals), blocked and
 * pending signals, handlers' masks, what fork and execve keep, system calls
 * interrupted by a handler with and without SA_RESTART (a read of an empty
 * pipe, a write to a full one, wait, pause, nanosleep), alarm and
 * setitimer(ITIMER_REAL), execve's errors and its argv/envp, reparenting to
 * init, vfork.  Prints observations only (conform.h); children report to
 * the parent through a pipe or their wait status: only the parent prints.
 *
 * Timing: a signal meant to interrupt a blocked call comes from an
 * ITIMER_REAL timer of 50 ms, and whatever must come after it (the data a
 * restarted read gets) from a child that sleeps 300 ms first; the output
 * does not depend on how long anything took.
 */
#include "conform.h"
#include <limits.h>
#include <time.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/mount.h>

static const char *self;               /* argv[0], for the re-exec */
static char *volatile bad_ptr = (char *)0x10;   /* an address nothing maps */

/* The wait status without the core-dump bit (0x80): core dumps are another
 * issue's (Vellum writes none; whether Linux does depends on RLIMIT_CORE
 * and core_pattern), so this program leaves the bit out. */
static const char *wst(int st)
{
	return wstatus(st & ~0x80);
}


static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static volatile sig_atomic_t caught, caught_sig, in_handler_blocked, in_handler_mask_usr2;

static void on_sig(int s)
{
	sigset_t m;
	sigprocmask(SIG_BLOCK, NULL, &m);
	in_handler_blocked = sigismember(&m, s);
	in_handler_mask_usr2 = sigismember(&m, SIGUSR2);
	caught_sig = s;
	caught++;
}

/* handle(sig, h, flags): sigaction with exactly these flags */
static int handle(int sig, void (*h)(int), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, NULL);
}

/* arm(ms): SIGALRM in ms milliseconds, once */
static int arm(int ms)
{
	struct itimerval it = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } };
	return setitimer(ITIMER_REAL, &it, NULL);
}

static int blocked(int sig)
{
	sigset_t m;
	sigprocmask(SIG_BLOCK, NULL, &m);
	return sigismember(&m, sig);
}

static int pending(int sig)
{
	sigset_t m;
	sigpending(&m);
	return sigismember(&m, sig);
}

static void mask(int how, int sig)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(how, &s, NULL);
}

/* disp(sig): the handler as DFL, IGN or "handler" */
static const char *disp(int sig)
{
	struct sigaction sa;
	if (sigaction(sig, NULL, &sa) < 0)
		return rv(-1);
	return sa.sa_handler == SIG_DFL ? "DFL" : sa.sa_handler == SIG_IGN ? "IGN" : "handler";
}

/* ---- 1. exit statuses and deaths by signal ------------------------------- */

static void exits(void)
{
	static const int codes[] = { 0, 1, 42, 255, 256, 257, -1 };
	for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(codes[i]);
		int st = 0;
		pid_t r = waitpid(pid, &st, 0);
		say("exit_%d %s raw=0x%x ret_is_pid=%d", codes[i], wst(st), st, r == pid);
	}
	pid_t pid = fork();
	if (pid == 0)
		exit(3);                       /* through atexit and stdio: the same */
	int st = 0;
	waitpid(pid, &st, 0);
	say("exit_libc_3 %s", wst(st));
}

static void die_how(int how)
{
	volatile int zero = 0, minus1 = -1, imin = INT_MIN, res;
	switch (how) {
	case 0: raise(SIGKILL); break;
	case 1: *(volatile int *)bad_ptr = 1; break;
	case 2: res = 7 / zero; break;
	case 3: abort();
	case 4: raise(SIGTERM); break;
	case 5: raise(SIGUSR1); break;
	case 6: raise(SIGALRM); break;
	case 7: raise(SIGCHLD); break;
	case 8: raise(SIGCONT); break;
	case 9: __asm__ volatile("ud2"); break;
	case 10: __asm__ volatile("int3"); break;
	case 11: res = imin / minus1; break;
	case 12: signal(SIGSEGV, SIG_IGN); *(volatile int *)bad_ptr = 1; break;
	case 13: mask(SIG_BLOCK, SIGSEGV); *(volatile int *)bad_ptr = 1; break;
	case 14: mask(SIG_BLOCK, SIGKILL); raise(SIGKILL); break;
	case 15: raise(SIGRTMAX); break;
	case 16: signal(SIGTERM, SIG_IGN); raise(SIGTERM); break;
	case 17: raise(SIGQUIT); break;
	case 18: raise(SIGPIPE); break;
	case 19: raise(SIGHUP); break;
	case 20: raise(SIGWINCH); break;
	case 21: raise(SIGXCPU); break;
	}
	(void)res;
	_exit(100);
}

static void deaths(void)
{
	static const char *what[] = {
		"raise_sigkill", "null_store", "divide_by_zero", "abort", "raise_sigterm",
		"raise_sigusr1", "raise_sigalrm", "raise_sigchld", "raise_sigcont", "ud2", "int3",
		"int_min_div_minus_1", "null_store_sigsegv_ignored", "null_store_sigsegv_blocked",
		"raise_sigkill_blocked", "raise_sigrtmax", "raise_sigterm_ignored", "raise_sigquit",
		"raise_sigpipe", "raise_sighup", "raise_sigwinch", "raise_sigxcpu",
	};
	for (unsigned i = 0; i < sizeof what / sizeof what[0]; i++) {
		pid_t pid = fork();
		if (pid == 0)
			die_how(i);
		int st = 0;
		waitpid(pid, &st, 0);
		say("death_%s %s", what[i], wst(st));
	}
	/* killed by the parent while it sleeps in pause(), all signals blocked */
	int p[2];
	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		close(p[0]);
		close(p[1]);                   /* the parent's read sees EOF: ready */
		pause();
		_exit(100);
	}
	close(p[1]);
	char c;
	read(p[0], &c, 1);
	close(p[0]);
	int st = 0;
	const char *k = rv(kill(pid, SIGTERM));
	say("kill_sigterm_blocked ret=%s wnohang=%s", k, rv(waitpid(pid, &st, WNOHANG)));
	say("kill_sigkill ret=%s", rv(kill(pid, SIGKILL)));
	waitpid(pid, &st, 0);
	say("death_sigkill_from_parent %s", wst(st));

	/* stopped and continued: WUNTRACED, WCONTINUED; the child exits
	 * when the parent closes the pipe, after the continue is reported */
	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		raise(SIGSTOP);
		read(p[0], &c, 1);
		_exit(9);
	}
	close(p[0]);
	pid_t r = waitpid(pid, &st, WUNTRACED);
	say("stop ret_is_pid=%d stopped=%d sig=%s raw=0x%x", r == pid, WIFSTOPPED(st),
	    signame(WSTOPSIG(st)), st);
	say("stop_wnohang_again ret=%s", rv(waitpid(pid, &st, WNOHANG | WUNTRACED)));
	kill(pid, SIGCONT);
	r = waitpid(pid, &st, WCONTINUED);
	say("cont ret_is_pid=%d continued=%d raw=0x%x", r == pid, WIFCONTINUED(st), st);
	close(p[1]);
	waitpid(pid, &st, 0);
	say("cont_then %s", wst(st));

	/* a fatal signal fixes the status when it is sent: SIGUSR2, then
	 * SIGKILL before the child runs again, kills it "by SIGUSR2" */
	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		close(p[1]);
		pause();
		_exit(100);
	}
	close(p[1]);
	read(p[0], &c, 1);
	close(p[0]);
	kill(pid, SIGUSR2);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	say("death_first_fatal_signal_wins %s", wst(st));

	/* a stopped child and SIGTERM, its default action: dead, no SIGCONT */
	pid = fork();
	if (pid == 0) {
		raise(SIGSTOP);
		_exit(100);
	}
	waitpid(pid, &st, WUNTRACED);
	kill(pid, SIGTERM);
	msleep(200);
	r = waitpid(pid, &st, WNOHANG);
	say("stopped_sigterm ret_is_pid=%d %s", r == pid, r == pid ? wst(st) : "-");
	if (r != pid) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
}

/* ---- 2. wait and waitpid --------------------------------------------------- */

static void waits(void)
{
	int st = 0;
	say("wait_no_children ret=%s", rv(wait(&st)));
	say("waitpid_no_children_wnohang ret=%s", rv(waitpid(-1, &st, WNOHANG)));
	say("waitpid_1 ret=%s", rv(waitpid(1, &st, 0)));
	say("waitpid_parent ret=%s", rv(waitpid(getppid(), &st, WNOHANG)));
	say("waitpid_self ret=%s", rv(waitpid(getpid(), &st, WNOHANG)));
	say("waitpid_bad_options ret=%s", rv(waitpid(-1, &st, 0x100000)));

	/* WNOHANG while the child runs */
	int p[2];
	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(p[1]);
		_exit(read(p[0], &c, 1) == 0 ? 5 : 6);
	}
	close(p[0]);
	say("wnohang_running ret=%s", rv(waitpid(pid, &st, WNOHANG)));
	say("wnohang_running_any ret=%s", rv(waitpid(-1, &st, WNOHANG)));
	say("waitpid_bad_options_with_child ret=%s", rv(waitpid(pid, &st, 0x100000)));
	close(p[1]);
	pid_t r = waitpid(pid, &st, 0);
	say("wnohang_then_wait ret_is_pid=%d %s", r == pid, wst(st));
	say("waitpid_reaped ret=%s", rv(waitpid(pid, &st, 0)));
	say("kill_reaped ret=%s", rv(kill(pid, 0)));

	/* a given pid first, then -1 */
	pid_t a = fork();
	if (a == 0)
		_exit(3);
	pid_t b = fork();
	if (b == 0)
		_exit(4);
	r = waitpid(b, &st, 0);
	say("waitpid_b ret_is_b=%d %s", r == b, wst(st));
	r = waitpid(-1, &st, 0);
	say("waitpid_any ret_is_a=%d %s", r == a, wst(st));
	say("waitpid_any_none_left ret=%s", rv(waitpid(-1, &st, 0)));

	/* process groups: 0 is the caller's group, -pgid another */
	pipe(p);
	pid = fork();
	if (pid == 0) {
		char c;
		setpgid(0, 0);
		close(p[1]);
		read(p[0], &c, 1);
		_exit(8);
	}
	close(p[0]);
	setpgid(pid, pid);                 /* as the child does: either order */
	say("pgrp_child_own_group getpgid_is_pid=%d", getpgid(pid) == pid);
	say("waitpid_0_other_group ret=%s", rv(waitpid(0, &st, WNOHANG)));
	say("waitpid_minus_pgid_running ret=%s", rv(waitpid(-pid, &st, WNOHANG)));
	say("waitpid_minus_own_pgrp ret=%s", rv(waitpid(-getpgrp(), &st, WNOHANG)));
	close(p[1]);
	r = waitpid(-pid, &st, 0);
	say("waitpid_minus_pgid ret_is_pid=%d %s", r == pid, wst(st));
	pid = fork();
	if (pid == 0)
		_exit(10);
	r = waitpid(0, &st, 0);
	say("waitpid_0_same_group ret_is_pid=%d %s", r == pid, wst(st));
}

/* ---- 3. SIGCHLD ------------------------------------------------------------ */

static void sigchld(void)
{
	int st = 0;
	sigset_t empty;
	sigemptyset(&empty);

	/* default: the child stays a zombie until waited for */
	caught = 0;
	handle(SIGCHLD, on_sig, 0);
	mask(SIG_BLOCK, SIGCHLD);
	pid_t pid = fork();
	if (pid == 0)
		_exit(2);
	while (!caught)
		sigsuspend(&empty);
	mask(SIG_UNBLOCK, SIGCHLD);
	say("sigchld_handler caught=%d zombie_kill0=%s", (int)caught, rv(kill(pid, 0)));
	pid_t r = waitpid(pid, &st, 0);
	say("sigchld_zombie_reaped ret_is_pid=%d %s kill0=%s", r == pid, wst(st), rv(kill(pid, 0)));

	/* a zombie made before SIGCHLD is ignored can still be waited for */
	caught = 0;
	mask(SIG_BLOCK, SIGCHLD);
	pid = fork();
	if (pid == 0)
		_exit(9);
	while (!caught)
		sigsuspend(&empty);
	signal(SIGCHLD, SIG_IGN);
	mask(SIG_UNBLOCK, SIGCHLD);
	r = waitpid(pid, &st, 0);
	say("sigchld_ignored_after_zombie ret_is_pid=%d %s", r == pid, wst(st));

	/* ignored: children are reaped as they exit; wait sleeps until the
	 * last is gone, then ECHILD */
	signal(SIGCHLD, SIG_IGN);
	pid_t kids[3];
	for (int i = 0; i < 3; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			msleep(50 * i);
			_exit(7);
		}
	}
	r = wait(&st);
	say("sigchld_ignored_wait ret=%s", rv(r));
	const char *w = rv(waitpid(kids[0], &st, 0));
	say("sigchld_ignored_waitpid ret=%s kill0=%s", w, rv(kill(kids[2], 0)));
	pid = fork();
	if (pid == 0) {
		msleep(50);
		_exit(7);
	}
	say("sigchld_ignored_waitpid_running ret=%s", rv(waitpid(pid, &st, 0)));

	/* SA_NOCLDWAIT: the same, and a handler still runs */
	caught = 0;
	handle(SIGCHLD, on_sig, SA_NOCLDWAIT);
	pid = fork();
	if (pid == 0)
		_exit(7);
	r = waitpid(pid, &st, 0);
	say("sa_nocldwait_handler ret=%s caught=%d", rv(r), (int)caught);
	handle(SIGCHLD, SIG_DFL, SA_NOCLDWAIT);
	pid = fork();
	if (pid == 0)
		_exit(7);
	say("sa_nocldwait_dfl ret=%s", rv(waitpid(pid, &st, 0)));

	/* SA_NOCLDSTOP: no SIGCHLD when a child stops */
	for (int nostop = 0; nostop < 2; nostop++) {
		caught = 0;
		handle(SIGCHLD, on_sig, nostop ? SA_NOCLDSTOP : 0);
		pid = fork();
		if (pid == 0) {
			raise(SIGSTOP);
			_exit(0);
		}
		waitpid(pid, &st, WUNTRACED);
		int at_stop = caught;
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		say("sa_nocldstop=%d caught_at_stop=%d caught_at_end=%d %s", nostop, at_stop,
		    (int)caught, wst(st));
	}
	signal(SIGCHLD, SIG_DFL);
}

/* ---- 4. kill, sigaction, sigprocmask --------------------------------------- */

static void kills(void)
{
	say("kill_self_0 ret=%s", rv(kill(getpid(), 0)));
	say("kill_group_0 ret=%s", rv(kill(0, 0)));
	say("kill_minus_pgrp_0 ret=%s", rv(kill(-getpgrp(), 0)));
	say("kill_self_65 ret=%s", rv(kill(getpid(), 65)));
	say("kill_self_minus_1 ret=%s", rv(kill(getpid(), -1)));
	say("kill_99999_0 ret=%s", rv(kill(99999, 0)));
	say("kill_minus_99999_0 ret=%s", rv(kill(-99999, 0)));
	say("kill_int_min_0 ret=%s", rv(kill(INT_MIN, 0)));
	say("kill_99999_65 ret=%s", rv(kill(99999, 65)));

	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sig;
	say("sigaction_sigkill ret=%s", rv(sigaction(SIGKILL, &sa, NULL)));
	say("sigaction_sigstop ret=%s", rv(sigaction(SIGSTOP, &sa, NULL)));
	say("sigaction_sigkill_query ret=%s", rv(sigaction(SIGKILL, NULL, &old)));
	say("sigaction_0 ret=%s", rv(sigaction(0, &sa, NULL)));
	say("sigaction_65 ret=%s", rv(sigaction(65, &sa, NULL)));
	int err = signal(SIGKILL, SIG_IGN) == SIG_ERR;
	say("signal_sigkill_ign ret_is_err=%d errno=%s", err, errname(errno));
	sigset_t s;
	sigemptyset(&s);
	say("sigprocmask_how_99 ret=%s", rv(sigprocmask(99, &s, NULL)));
	sigaddset(&s, SIGKILL);
	sigaddset(&s, SIGSTOP);
	sigaddset(&s, SIGUSR2);
	sigprocmask(SIG_BLOCK, &s, NULL);
	say("block_kill_stop_usr2 kill=%d stop=%d usr2=%d", blocked(SIGKILL), blocked(SIGSTOP),
	    blocked(SIGUSR2));
	sigprocmask(SIG_UNBLOCK, &s, NULL);

	/* blocked: pending, once; delivered on unblock */
	caught = 0;
	handle(SIGUSR1, on_sig, 0);
	mask(SIG_BLOCK, SIGUSR1);
	raise(SIGUSR1);
	say("blocked_raise caught=%d pending=%d", (int)caught, pending(SIGUSR1));
	raise(SIGUSR1);
	say("blocked_raise_twice caught=%d pending=%d", (int)caught, pending(SIGUSR1));
	mask(SIG_UNBLOCK, SIGUSR1);
	say("unblocked caught=%d pending=%d", (int)caught, pending(SIGUSR1));

	/* ignoring a pending signal discards it */
	caught = 0;
	mask(SIG_BLOCK, SIGUSR1);
	raise(SIGUSR1);
	signal(SIGUSR1, SIG_IGN);
	say("ignore_discards_pending pending=%d", pending(SIGUSR1));
	handle(SIGUSR1, on_sig, 0);
	mask(SIG_UNBLOCK, SIGUSR1);
	say("ignore_discards_pending_unblocked caught=%d", (int)caught);

	/* a blocked signal whose default is to ignore is still pending */
	mask(SIG_BLOCK, SIGWINCH);
	raise(SIGWINCH);
	say("blocked_default_ignored pending=%d", pending(SIGWINCH));
	mask(SIG_UNBLOCK, SIGWINCH);
	say("blocked_default_ignored_unblocked pending=%d", pending(SIGWINCH));
	/* an ignored signal is not even pending */
	signal(SIGUSR2, SIG_IGN);
	mask(SIG_BLOCK, SIGUSR2);
	raise(SIGUSR2);
	say("ignored_blocked_raise pending=%d", pending(SIGUSR2));
	mask(SIG_UNBLOCK, SIGUSR2);
	signal(SIGUSR2, SIG_DFL);

	/* the handler runs with its signal and sa_mask blocked, SA_NODEFER not */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sig;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaction(SIGUSR1, &sa, NULL);
	caught = 0;
	raise(SIGUSR1);
	say("handler_mask caught=%d self_blocked=%d usr2_blocked=%d after=%d,%d", (int)caught,
	    (int)in_handler_blocked, (int)in_handler_mask_usr2, blocked(SIGUSR1), blocked(SIGUSR2));
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	say("handler_nodefer caught=%d self_blocked=%d", (int)caught, (int)in_handler_blocked);
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	say("handler_resethand caught=%d disp_after=%s self_blocked=%d", (int)caught, disp(SIGUSR1),
	    (int)in_handler_blocked);

	/* sigsuspend: the mask for the wait, then the old one back */
	handle(SIGUSR1, on_sig, 0);
	caught = 0;
	mask(SIG_BLOCK, SIGUSR1);
	raise(SIGUSR1);
	sigset_t empty;
	sigemptyset(&empty);
	int r = sigsuspend(&empty);
	say("sigsuspend ret=%s caught=%d blocked_after=%d", rv(r), (int)caught, blocked(SIGUSR1));
	mask(SIG_UNBLOCK, SIGUSR1);
	signal(SIGUSR1, SIG_DFL);
}

/* ---- 5. what fork and execve keep ------------------------------------------ */

#define SIG_REPORT "--procs-sig-report"
#define ARGS_REPORT "--procs-args-report"

static void sig_state(int w)
{
	report(w, "usr1=%s usr2=%s term=%s hup_blocked=%d hup_pending=%d usr2_pending=%d alarm=%u",
	       disp(SIGUSR1), disp(SIGUSR2), disp(SIGTERM), blocked(SIGHUP), pending(SIGHUP),
	       pending(SIGUSR2), alarm(0));
}

static int sig_report(int argc, char **argv)
{
	int w = argc > 2 ? atoi(argv[2]) : -1;
	sig_state(w);
	return 0;
}

static void set_sig_state(void)
{
	handle(SIGUSR1, on_sig, 0);
	signal(SIGUSR2, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	mask(SIG_BLOCK, SIGHUP);
	raise(SIGHUP);
	alarm(50);
}

static void child_fork_state(int w)
{
	sig_state(w);
}

static void child_exec_state(int w)
{
	set_sig_state();
	char fdarg[16];
	snprintf(fdarg, sizeof fdarg, "%d", w);
	char *argv[] = { (char *)self, SIG_REPORT, fdarg, NULL };
	execv(self, argv);
	report(w, "execv %s", rv(-1));
}

static int args_report(int argc, char **argv, char **envp)
{
	int w = atoi(argv[2]);
	report(w, "argc=%d", argc);
	for (int i = 3; i < argc; i++)
		report(w, " argv%d=[%s]", i, argv[i]);
	for (int i = 0; envp[i]; i++)
		report(w, " env%d=[%s]", i, envp[i]);
	report(w, " pid=%d ppid=%d", (int)getpid(), (int)getppid());
	return 0;
}

static void child_exec_args(int w)
{
	char fdarg[16];
	snprintf(fdarg, sizeof fdarg, "%d", w);
	char *argv[] = { (char *)self, ARGS_REPORT, fdarg, "a", "", "b c", "-x", NULL };
	char *envp[] = { "X=1", "EMPTY=", "NOEQUALS", "X=2", NULL };
	execve(self, argv, envp);
	report(w, "execve %s", rv(-1));
}

static void child_exec_noenv(int w)
{
	char fdarg[16];
	snprintf(fdarg, sizeof fdarg, "%d", w);
	char *argv[] = { (char *)self, ARGS_REPORT, fdarg, NULL };
	char *envp[] = { NULL };
	execve(self, argv, envp);
	report(w, "execve %s", rv(-1));
}

/* the pids in the args report, relative to what fork returned */
static const char *pids_relative(char *text, pid_t child_pid)
{
	char *p = strstr(text, " pid=");
	if (!p)
		return text;
	int pid = 0, ppid = 0;
	sscanf(p, " pid=%d ppid=%d", &pid, &ppid);
	static char out[1100];
	*p = 0;
	snprintf(out, sizeof out, "%s pid_is_child=%d ppid_is_parent=%d", text, pid == child_pid,
	         ppid == getpid());
	return out;
}


static void inherit(void)
{
	char text[1024];
	set_sig_state();
	int st = child(child_fork_state, text, sizeof text);
	say("fork_keeps %s %s", wst(st), text);
	say("fork_parent_after alarm=%u hup_pending=%d", alarm(0), pending(SIGHUP));
	signal(SIGHUP, SIG_IGN);           /* discard it */
	mask(SIG_UNBLOCK, SIGHUP);
	signal(SIGHUP, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);

	st = child(child_exec_state, text, sizeof text);
	say("exec_keeps %s %s", wst(st), text);
	st = child(child_exec_args, text, sizeof text);
	say("exec_args %s %s", wst(st), pids_relative(text, c_last_child));
	st = child(child_exec_noenv, text, sizeof text);
	say("exec_noenv %s %s", wst(st), pids_relative(text, c_last_child));
}

/* ---- 6. execve's errors ------------------------------------------------------ */

static const char *exec_target;
static void child_exec_error(int w)
{
	char *argv[] = { "x", NULL };
	char *envp[] = { NULL };
	int r = execve(exec_target, argv, envp);
	report(w, "%s", rv(r));
}

/* A new file NAME of mode (umask 022 lets these through) holding data. */
static void make_file(const char *name, const void *data, size_t n, mode_t mode)
{
	unlink(path(name));
	int fd = open(path(name), O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (n)
		write(fd, data, n);
	close(fd);
}

static void exec_errors(void)
{
	char text[1024], elf[16];
	int fd = open(self, O_RDONLY);
	read(fd, elf, sizeof elf);
	close(fd);
	make_file("data755", "hello\n", 6, 0755);
	make_file("data644", "hello\n", 6, 0644);
	make_file("data700", "hello\n", 6, 0700);
	make_file("data010", "hello\n", 6, 0010);
	make_file("empty755", "", 0, 0755);
	make_file("elf16", elf, sizeof elf, 0755);
	mkdir(path("dir"), 0755);
	static const struct { const char *key, *name; } cases[] = {
		{ "missing", "missing" }, { "data_0755", "data755" }, { "data_0644", "data644" },
		{ "data_0700", "data700" }, { "data_0010", "data010" },
		{ "empty_0755", "empty755" }, { "elf_header_only", "elf16" }, { "directory", "dir" },
		{ "through_a_file", "data755/x" }, { "dir_slash", "dir/" },
		{ "data_slash", "data755/" },
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		exec_target = path(cases[i].name);
		int st = child(child_exec_error, text, sizeof text);
		say("execve_%s %s %s", cases[i].key, wst(st), text);
	}
	exec_target = "";
	int st = child(child_exec_error, text, sizeof text);
	say("execve_empty_path %s %s", wst(st), text);
	exec_target = bad_ptr;
	st = child(child_exec_error, text, sizeof text);
	say("execve_bad_pointer %s %s", wst(st), text);
	unlink(path("data755"));
	unlink(path("data644"));
	unlink(path("data700"));
	unlink(path("data010"));
	unlink(path("empty755"));
	unlink(path("elf16"));
	rmdir(path("dir"));
}

/* ---- 7. interrupted system calls --------------------------------------------- */

/* A child that sleeps ms, then writes n bytes of 'd' to fd and exits. */
static pid_t later_writer(int fd, int ms, size_t n)
{
	pid_t pid = fork();
	if (pid == 0) {
		static char d[8192];
		memset(d, 'd', sizeof d);
		msleep(ms);
		_exit(write(fd, d, n) == (ssize_t)n ? 0 : 1);
	}
	return pid;
}

/* A child that sleeps ms, then reads fd to EOF (its copy of the write end
 * wfd closed); exit 0 if it read n bytes. */
static pid_t later_reader(int fd, int wfd, int ms, long n)
{
	pid_t pid = fork();
	if (pid == 0) {
		static char d[8192];
		long total = 0;
		ssize_t r;
		close(wfd);
		msleep(ms);
		while ((r = read(fd, d, sizeof d)) > 0)
			total += r;
		_exit(total == n ? 0 : 1);
	}
	return pid;
}

static void fill(int fd)
{
	static char big[100000];
	fcntl(fd, F_SETFL, O_NONBLOCK);
	while (write(fd, big, sizeof big) > 0)
		;
	fcntl(fd, F_SETFL, 0);
}

static void interrupted(void)
{
	char buf[64];
	static char big[200000];
	int p[2], st;
	ssize_t r;

	for (int restart = 0; restart < 2; restart++) {
		const char *k = restart ? "sa_restart" : "no_restart";
		handle(SIGALRM, on_sig, restart ? SA_RESTART : 0);

		/* a read of an empty pipe */
		pipe(p);
		pid_t w = restart ? later_writer(p[1], 300, 4) : -1;
		caught = 0;
		if (arm(50) < 0) {
			say("error setitimer %s", rv(-1));
			return;
		}
		r = read(p[0], buf, sizeof buf);
		say("read_empty_pipe_%s ret=%s caught=%d", k, rv(r), (int)caught);
		if (w > 0)
			waitpid(w, &st, 0);
		close(p[0]);
		close(p[1]);

		/* a long write to a pipe that fills: the part written */
		pipe(p);
		caught = 0;
		arm(50);
		r = write(p[1], big, sizeof big);
		say("write_200000_full_pipe_%s ret=%s caught=%d", k, rv(r), (int)caught);
		close(p[0]);
		close(p[1]);

		/* a short write to a full pipe: nothing written */
		pipe(p);
		fill(p[1]);
		w = restart ? later_reader(p[0], p[1], 300, 65536 + 100) : -1;
		caught = 0;
		arm(50);
		r = write(p[1], big, 100);
		say("write_100_full_pipe_%s ret=%s caught=%d", k, rv(r), (int)caught);
		close(p[1]);
		if (w > 0) {
			waitpid(w, &st, 0);
			say("write_100_full_pipe_%s reader %s", k, wst(st));
		}
		close(p[0]);

		/* wait for a child that sleeps */
		pid_t c = fork();
		if (c == 0) {
			msleep(300);
			_exit(11);
		}
		caught = 0;
		arm(50);
		pid_t wr = waitpid(c, &st, 0);
		say("waitpid_%s ret_is_pid=%d %s caught=%d", k, wr == c, wr < 0 ? rv(wr) : wst(st),
		    (int)caught);
		if (wr < 0)
			waitpid(c, &st, 0);

		/* pause, sigsuspend, nanosleep: never restarted */
		caught = 0;
		arm(50);
		int pr = pause();
		say("pause_%s ret=%s caught=%d", k, rv(pr), (int)caught);
		caught = 0;
		arm(50);
		struct timespec ts = { 5, 0 }, rem = { -1, -1 };
		pr = nanosleep(&ts, &rem);
		say("nanosleep_5s_%s ret=%s caught=%d rem_sec=%ld", k, rv(pr), (int)caught,
		    (long)rem.tv_sec);
		caught = 0;
		sigset_t empty;
		sigemptyset(&empty);
		arm(50);
		pr = sigsuspend(&empty);
		say("sigsuspend_%s ret=%s caught=%d", k, rv(pr), (int)caught);
	}

	/* an ignored signal interrupts nothing */
	signal(SIGALRM, SIG_IGN);
	pipe(p);
	pid_t w = later_writer(p[1], 300, 4);
	arm(50);
	r = read(p[0], buf, sizeof buf);
	say("read_empty_pipe_sigalrm_ignored ret=%s", rv(r));
	waitpid(w, &st, 0);
	close(p[0]);
	close(p[1]);
	/* nor does one whose default action is to ignore (SIGCHLD) */
	signal(SIGCHLD, SIG_DFL);
	pipe(p);
	pid_t c = fork();
	if (c == 0)
		_exit(0);                      /* SIGCHLD to the parent, in its read */
	w = later_writer(p[1], 300, 4);
	r = read(p[0], buf, sizeof buf);
	say("read_empty_pipe_sigchld_default ret=%s", rv(r));
	waitpid(w, &st, 0);
	waitpid(c, &st, 0);
	close(p[0]);
	close(p[1]);
	signal(SIGALRM, SIG_DFL);
}

/* ---- 8. alarm and setitimer -------------------------------------------------- */

static void child_alarm_kills(int w)
{
	(void)w;
	alarm(1);
	pause();
}

static void child_itimer_kills(int w)
{
	(void)w;
	arm(20);
	for (;;)
		pause();
}

static void timers(void)
{
	char text[256];
	struct itimerval it, old;
	say("alarm_none ret=%u", alarm(0));
	alarm(5);
	say("alarm_5_then_0 ret=%u", alarm(0));
	alarm(5);
	say("alarm_5_then_3 ret=%u", alarm(3));
	say("alarm_3_then_0 ret=%u", alarm(0));
	it = (struct itimerval){ { 0, 0 }, { 0, 300000 } };
	say("setitimer_300ms ret=%s", rv(setitimer(ITIMER_REAL, &it, NULL)));
	say("alarm_after_300ms ret=%u", alarm(0));
	it = (struct itimerval){ { 0, 0 }, { 1, 600000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	say("alarm_after_1600ms ret=%u", alarm(0));
	alarm(7);
	int r = getitimer(ITIMER_REAL, &old);
	say("getitimer_after_alarm_7 ret=%s interval=%ld.%06ld value_in_6_7=%d", rv(r),
	    (long)old.it_interval.tv_sec, (long)old.it_interval.tv_usec,
	    old.it_value.tv_sec == 6 || (old.it_value.tv_sec == 7 && old.it_value.tv_usec == 0));
	it = (struct itimerval){ { 0, 250000 }, { 2, 0 } };
	r = setitimer(ITIMER_REAL, &it, &old);
	say("setitimer_replaces_alarm ret=%s old_interval=%ld.%06ld old_value_in_6_7=%d", rv(r),
	    (long)old.it_interval.tv_sec, (long)old.it_interval.tv_usec,
	    old.it_value.tv_sec == 6 || (old.it_value.tv_sec == 7 && old.it_value.tv_usec == 0));
	r = getitimer(ITIMER_REAL, &old);
	say("getitimer ret=%s interval=%ld.%06ld value_in_1_2=%d", rv(r),
	    (long)old.it_interval.tv_sec, (long)old.it_interval.tv_usec,
	    old.it_value.tv_sec == 1 || (old.it_value.tv_sec == 2 && old.it_value.tv_usec == 0));
	it = (struct itimerval){ { 0, 0 }, { 0, 0 } };
	r = setitimer(ITIMER_REAL, &it, &old);
	say("setitimer_disarm ret=%s old_interval=%ld.%06ld", rv(r), (long)old.it_interval.tv_sec,
	    (long)old.it_interval.tv_usec);
	r = getitimer(ITIMER_REAL, &old);
	say("getitimer_disarmed ret=%s %ld.%06ld %ld.%06ld", rv(r), (long)old.it_interval.tv_sec,
	    (long)old.it_interval.tv_usec, (long)old.it_value.tv_sec, (long)old.it_value.tv_usec);
	it = (struct itimerval){ { 0, 0 }, { 0, 1000000 } };
	say("setitimer_usec_1000000 ret=%s", rv(setitimer(ITIMER_REAL, &it, NULL)));
	it = (struct itimerval){ { 0, 0 }, { -1, 0 } };
	say("setitimer_sec_minus_1 ret=%s", rv(setitimer(ITIMER_REAL, &it, NULL)));
	it = (struct itimerval){ { 0, -1 }, { 1, 0 } };
	say("setitimer_interval_usec_minus_1 ret=%s", rv(setitimer(ITIMER_REAL, &it, NULL)));
	it = (struct itimerval){ { 0, 0 }, { 0, 0 } };
	say("setitimer_which_3 ret=%s", rv(setitimer(3, &it, NULL)));
	say("getitimer_which_3 ret=%s", rv(getitimer(3, &old)));
	/* the system calls themselves: glibc would copy through the pointers */
	say("getitimer_bad_pointer ret=%s", rv(syscall(SYS_getitimer, ITIMER_REAL, bad_ptr)));
	say("setitimer_bad_pointer ret=%s", rv(syscall(SYS_setitimer, ITIMER_REAL, bad_ptr, NULL)));
	say("alarm_after_errors ret=%u", alarm(0));

	/* a periodic timer: three signals, then off */
	handle(SIGALRM, on_sig, 0);
	caught = 0;
	mask(SIG_BLOCK, SIGALRM);
	it = (struct itimerval){ { 0, 20000 }, { 0, 20000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	sigset_t empty;
	sigemptyset(&empty);
	while (caught < 3)
		sigsuspend(&empty);
	it = (struct itimerval){ { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &it, &old);
	mask(SIG_UNBLOCK, SIGALRM);
	say("periodic caught=%d old_interval=%ld.%06ld sig=%s", (int)caught,
	    (long)old.it_interval.tv_sec, (long)old.it_interval.tv_usec, signame(caught_sig));
	signal(SIGALRM, SIG_DFL);

	/* the default action kills */
	int st = child(child_alarm_kills, text, sizeof text);
	say("alarm_1_default %s", wst(st));
	st = child(child_itimer_kills, text, sizeof text);
	say("itimer_20ms_default %s", wst(st));
}

/* ---- 9. reparenting, vfork ----------------------------------------------------- */

static void grandchild_report(int w)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		int n = 0;
		while (getppid() == parent && n++ < 500)
			msleep(10);
		report(w, "reparented=%d ppid_is_1=%d", getppid() != parent, getppid() == 1);
		_exit(0);
	}
	_exit(0);                          /* the grandchild is orphaned */
}

static void orphans(void)
{
	char text[256];
	int st = child(grandchild_report, text, sizeof text);
	say("orphan %s %s", wst(st), text);

	pid_t pid = vfork();
	if (pid == 0)
		_exit(7);
	pid_t r = waitpid(pid, &st, 0);
	say("vfork_exit ret_is_pid=%d %s", r == pid, wst(st));
	int p[2];
	pipe(p);
	char fdarg[16];
	snprintf(fdarg, sizeof fdarg, "%d", p[1]);
	char *argv[] = { (char *)self, ARGS_REPORT, fdarg, "vforked", NULL };
	char *envp[] = { "V=1", NULL };
	pid = vfork();
	if (pid == 0) {
		execve(self, argv, envp);
		_exit(127);
	}
	close(p[1]);
	char buf[256];
	size_t got = 0;
	ssize_t n;
	while (got < sizeof buf - 1 && (n = read(p[0], buf + got, sizeof buf - 1 - got)) > 0)
		got += n;
	buf[got] = 0;
	close(p[0]);
	r = waitpid(pid, &st, 0);
	say("vfork_exec ret_is_pid=%d %s %s", r == pid, wst(st), pids_relative(buf, pid));
}

/* ---- the /proc/sys files programs read for limits --------------------------- */

/* A /proc file's first line, or the error opening it. */
static const char *proc_line(const char *name)
{
	static char line[64];
	int fd = open(name, O_RDONLY);
	if (fd < 0)
		return rv(-1);
	ssize_t n = read(fd, line, sizeof line - 1);
	close(fd);
	line[n > 0 ? n : 0] = 0;
	line[strcspn(line, "\n")] = 0;
	return line;
}

static void proc_sys(void)
{
	if (access("/proc/self", F_OK) < 0) {  /* Linux's initramfs shell: mount it */
		mkdir("/proc", 0555);
		mount("proc", "/proc", "proc", 0, NULL);
	}
	say("proc_pid_max %s", proc_line("/proc/sys/kernel/pid_max"));
	say("proc_pipe_max_size %s", proc_line("/proc/sys/fs/pipe-max-size"));
	say("proc_sys_missing %s", rv(open("/proc/sys/kernel/nonexistent", O_RDONLY)));
}

int main(int argc, char **argv, char **envp)
{
	if (argc > 2 && !strcmp(argv[1], SIG_REPORT))
		return sig_report(argc, argv);
	if (argc > 2 && !strcmp(argv[1], ARGS_REPORT))
		return args_report(argc, argv, envp);
	self = argv[0];
	conform_start("procs", argc, argv);
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	exits();
	deaths();
	waits();
	sigchld();
	kills();
	inherit();
	exec_errors();
	interrupted();
	timers();
	orphans();
	proc_sys();
	conform_end();
	return 0;
}
