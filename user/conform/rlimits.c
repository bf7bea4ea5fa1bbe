/* rlimits.c - conformance: RLIMIT_CPU and RLIMIT_NPROC (issue 23).
 * RLIMIT_CPU: a process spinning past its soft limit gets SIGXCPU once a
 * CPU second, the soft limit moving on by one each time, then SIGKILL at
 * the hard limit; without a handler SIGXCPU ends it.  RLIMIT_NPROC: an
 * ordinary user's fork past the limit (EAGAIN; every task of the user
 * counts), within it, root not bound by it; a user raising a hard limit
 * (EPERM).  Prints observations only (conform.h); CPU times are never
 * printed, only the signals' order.
 */
#include "conform.h"
#include <signal.h>
#include <sys/resource.h>

static volatile int xcpu;
static volatile unsigned long long soft_seen[4];

static void on_xcpu(int sig)
{
	(void)sig;
	struct rlimit rl;
	getrlimit(RLIMIT_CPU, &rl);
	if (xcpu < 4)
		soft_seen[xcpu] = rl.rlim_cur;
	xcpu++;
}

/* spin until a signal ends the process (never returns) */
static void spin(void)
{
	for (volatile unsigned long i = 0;; i++)
		;
}

static void cpu_handled(int w)
{
	struct rlimit core = { 0, 0 }, rl = { 1, 3 };
	setrlimit(RLIMIT_CORE, &core);
	signal(SIGXCPU, on_xcpu);
	report(w, "set=%s ", rv(setrlimit(RLIMIT_CPU, &rl)));
	getrlimit(RLIMIT_CPU, &rl);
	report(w, "now=%llu,%llu ", (unsigned long long)rl.rlim_cur,
	       (unsigned long long)rl.rlim_max);
	/* the report pipe is written before each signal can end us: the
	 * handler counts, the parent reads what the child said last */
	int seen = 0;
	for (volatile unsigned long i = 0;; i++) {
		if (xcpu != seen) {
			seen = xcpu;
			report(w, "xcpu%d soft=%llu ", seen, soft_seen[seen - 1]);
		}
	}
}

static void cpu_default(int w)
{
	struct rlimit core = { 0, 0 }, rl = { 1, 2 };
	setrlimit(RLIMIT_CORE, &core);
	report(w, "set=%s", rv(setrlimit(RLIMIT_CPU, &rl)));
	spin();
}

/* fork a child that exits at once; report "key=ok" or the error, then sep */
static void fork_once(int w, const char *key, const char *sep)
{
	pid_t p = fork();
	if (p == 0)
		_exit(0);
	report(w, "%s=%s%s", key, p < 0 ? rv(p) : "ok", sep);
	if (p > 0)
		waitpid(p, NULL, 0);
}

static void nproc_user(int w)
{
	drop_to_user();
	struct rlimit rl = { 1, 1 };
	report(w, "set1=%s ", rv(setrlimit(RLIMIT_NPROC, &rl)));
	fork_once(w, "fork_at_limit", " ");
	rl.rlim_max = 5;
	report(w, "raise_hard=%s ", rv(setrlimit(RLIMIT_NPROC, &rl)));
	/* a hard limit of 1 cannot be raised back: a new process for the rest */
	_exit(0);
}

static void nproc_user2(int w)
{
	drop_to_user();
	struct rlimit rl = { 2, 2 };
	report(w, "set2=%s ", rv(setrlimit(RLIMIT_NPROC, &rl)));
	pid_t p = fork();
	if (p == 0) {
		pause();
		_exit(0);
	}
	report(w, "fork_within=%s ", p < 0 ? rv(p) : "ok");
	fork_once(w, "fork_past", " ");
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	fork_once(w, "fork_after_reap", "");
}

static void nproc_root(int w)
{
	struct rlimit rl = { 1, 1 };
	report(w, "set=%s ", rv(setrlimit(RLIMIT_NPROC, &rl)));
	fork_once(w, "root_fork", "");
}

int main(int argc, char **argv)
{
	conform_start("rlimits", argc, argv);
	char text[512];
	int st = child(cpu_handled, text, sizeof text);
	say("cpu_handled %s: %s", wstatus(st), text);
	st = child(cpu_default, text, sizeof text);
	say("cpu_default %s: %s", wstatus(st), text);
	struct rlimit rl;
	getrlimit(RLIMIT_CPU, &rl);
	say("cpu_parent_unlimited %d", rl.rlim_cur == RLIM_INFINITY && rl.rlim_max == RLIM_INFINITY);
	st = child(nproc_user, text, sizeof text);
	say("nproc_user %s: %s", wstatus(st), text);
	st = child(nproc_user2, text, sizeof text);
	say("nproc_user2 %s: %s", wstatus(st), text);
	st = child(nproc_root, text, sizeof text);
	say("nproc_root %s: %s", wstatus(st), text);
	conform_end();
	return 0;
}
