/* sigtimedwait.c - conformance: rt_sigtimedwait (i386 177) and
 * rt_sigtimedwait_time64 (421), glibc's sigwaitinfo, sigtimedwait and
 * sigwait (the LTP rt_sigtimedwait01, sigtimedwait01, sigwaitinfo01
 * tests).  A pending signal of the set taken (blocked or not), lowest
 * number first, with its siginfo (kill: SI_USER; raise: SI_TKILL; the
 * sender's pid), no longer pending after, the mask unchanged; one sent
 * while waiting; an ignored one (taken if blocked, else dropped: the wait
 * times out); a timeout (0: at once; 50 ms) -> EAGAIN; a handled signal
 * outside the set -> EINTR (with SA_RESTART too); the errors (sigsetsize
 * other than 8, a bad timeout -> EINVAL, even with a signal pending; bad
 * pointers -> EFAULT, a bad info pointer after the signal was taken).
 * Prints observations only (conform.h); pids relative ("pid=self").
 */
#include "conform.h"
#include <time.h>
#include <sys/time.h>
#include <sys/syscall.h>

#ifndef SYS_rt_sigtimedwait_time64
#define SYS_rt_sigtimedwait_time64 421
#endif

struct ts32 { long sec, nsec; };
struct ts64 { long long sec, nsec; };

static volatile int handled;
static void on_sig(int sig) { handled = sig; }

static long stw(const sigset_t *set, siginfo_t *info, const void *ts, long size)
{
	return syscall(SYS_rt_sigtimedwait, set, info, ts, size);
}

static long stw64(const sigset_t *set, siginfo_t *info, const void *ts, long size)
{
	return syscall(SYS_rt_sigtimedwait_time64, set, info, ts, size);
}

static const char *code_name(int c)
{
	static char other[16];
	switch (c) {
	case SI_USER: return "SI_USER";
	case SI_TKILL: return "SI_TKILL";
	case SI_KERNEL: return "SI_KERNEL";
	case SI_QUEUE: return "SI_QUEUE";
	}
	snprintf(other, sizeof other, "code%d", c);
	return other;
}

static const char *show(long r, const siginfo_t *si)
{
	static char b[160];
	if (r <= 0) {
		snprintf(b, sizeof b, "ret=%s", rv(r));
		return b;
	}
	snprintf(b, sizeof b, "ret=%s signo=%s code=%s pid=%s uid=%u", signame(r),
		 signame(si->si_signo), code_name(si->si_code),
		 si->si_pid == getpid() ? "self" : si->si_pid == 0 ? "0" : "other",
		 (unsigned)si->si_uid);
	return b;
}

/* the pending set and the mask, as bit lists of the signals 1..31 */
static const char *state(void)
{
	static char b[64];
	sigset_t p, m;
	sigpending(&p);
	sigprocmask(SIG_BLOCK, NULL, &m);
	unsigned long pb = 0, mb = 0;
	for (int s = 1; s < 32; s++) {
		if (sigismember(&p, s))
			pb |= 1UL << s;
		if (sigismember(&m, s))
			mb |= 1UL << s;
	}
	snprintf(b, sizeof b, "pending=%#lx mask=%#lx", pb, mb);
	return b;
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* a child that sends sig to the parent after ms milliseconds */
static pid_t send_later(int sig, int ms)
{
	pid_t parent = getpid(), c = fork();
	if (c == 0) {
		msleep(ms);
		kill(parent, sig);
		_exit(0);
	}
	return c;
}

static void reap(pid_t c)
{
	int st;
	waitpid(c, &st, 0);
}

int main(int argc, char **argv)
{
	conform_start("sigtimedwait", argc, argv);
	sigset_t usr1, usr2, both, none;
	sigemptyset(&none);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	both = usr1;
	sigaddset(&both, SIGUSR2);
	siginfo_t si;
	struct ts32 zero = { 0, 0 }, ms50 = { 0, 50000000 }, badns = { 0, 1000000000 },
		    negs = { -1, 0 }, negns = { 0, -1 };
	struct ts64 zero64 = { 0, 0 }, badns64 = { 0, 1000000000 }, ms50_64 = { 0, 50000000 };

	/* the errors */
	say("setsize_4 %s", show(stw(&usr1, &si, &zero, 4), &si));
	say("setsize_16 %s", show(stw(&usr1, &si, &zero, 16), &si));
	say("setsize_0 %s", show(stw(&usr1, &si, &zero, 0), &si));
	say("bad_set %s", show(stw((sigset_t *)1, &si, &zero, 8), &si));
	say("bad_timeout_ptr %s", show(stw(&usr1, &si, (void *)1, 8), &si));
	say("timeout_nsec_1e9 %s", show(stw(&usr1, &si, &badns, 8), &si));
	say("timeout_sec_neg %s", show(stw(&usr1, &si, &negs, 8), &si));
	say("timeout_nsec_neg %s", show(stw(&usr1, &si, &negns, 8), &si));
	say("timeout_zero %s", show(stw(&usr1, &si, &zero, 8), &si));
	say("timeout_50ms %s", show(stw(&usr1, &si, &ms50, 8), &si));
	say("empty_set_timeout %s", show(stw(&none, &si, &zero, 8), &si));

	/* pending and blocked */
	sigprocmask(SIG_BLOCK, &both, NULL);
	signal(SIGUSR1, on_sig);
	signal(SIGUSR2, on_sig);
	kill(getpid(), SIGUSR2);
	kill(getpid(), SIGUSR1);
	long r;
	say("two_pending %s", state());
	say("bad_timeout_with_pending %s", show(stw(&both, &si, &badns, 8), &si));
	r = stw(&both, &si, &zero, 8);
	say("take_lowest %s %s", show(r, &si), state());
	say("not_in_set %s", show(stw(&usr1, &si, &zero, 8), &si));
	r = stw(&both, &si, NULL, 8);
	say("take_next %s %s", show(r, &si), state());
	raise(SIGUSR1);
	r = stw(&usr1, &si, NULL, 8);
	say("raised %s %s", show(r, &si), state());
	kill(getpid(), SIGUSR1);
	r = stw(&usr1, (siginfo_t *)1, NULL, 8);
	say("bad_info %s %s", show(r, &si), state());
	kill(getpid(), SIGUSR1);
	memset(&si, 0, sizeof si);
	r = stw(&usr1, NULL, NULL, 8);
	say("null_info ret=%s %s", rv(r), state());
	kill(getpid(), SIGUSR2);
	int sig = 0;
	r = sigwait(&both, &sig);
	say("sigwait ret=%ld sig=%s %s", r, signame(sig), state());
	say("handled_none=%d", handled);

	/* sent while waiting (blocked) */
	pid_t c = send_later(SIGUSR2, 100);
	memset(&si, 0, sizeof si);
	r = sigwaitinfo(&usr2, &si);
	say("sent_while_waiting ret=%s signo=%s code=%s from_child=%d %s", rv(r),
	    r > 0 ? signame(r) : "-", code_name(si.si_code), si.si_pid == c, state());
	reap(c);

	/* unblocked, with a handler: taken by the wait, the handler not run */
	sigprocmask(SIG_UNBLOCK, &both, NULL);
	c = send_later(SIGUSR1, 100);
	r = sigtimedwait(&usr1, &si, &(struct timespec){ 5, 0 });
	say("unblocked_in_set ret=%s from_child=%d handled=%d %s", rv(r), si.si_pid == c,
	    handled, state());
	reap(c);

	/* a handled signal outside the set: EINTR, the handler ran */
	struct sigaction sa = { .sa_handler = on_sig };
	sigaction(SIGALRM, &sa, NULL);
	handled = 0;
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	r = stw(&usr2, &si, NULL, 8);
	say("eintr %s handled=%s %s", show(r, &si),
	    handled ? signame(handled) : "0", state());
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	handled = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	struct ts32 sec5 = { 5, 0 };
	r = stw(&usr2, &si, &sec5, 8);
	say("eintr_sa_restart %s handled=%s", show(r, &si),
	    handled ? signame(handled) : "0");
	/* a blocked signal outside the set does not end the wait */
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	kill(getpid(), SIGUSR1);
	r = stw(&usr2, &si, &ms50, 8);
	say("blocked_outside %s %s", show(r, &si), state());
	say("blocked_outside_taken %s", show(stw(&usr1, &si, &zero, 8), &si));

	/* an ignored signal: taken if it was blocked (queued all the same),
	 * dropped if not (no EINTR, the wait times out) */
	signal(SIGUSR2, SIG_IGN);
	sigprocmask(SIG_BLOCK, &usr2, NULL);
	c = send_later(SIGUSR2, 100);
	r = sigwaitinfo(&usr2, &si);
	say("ignored_blocked ret=%s from_child=%d %s", rv(r), si.si_pid == c, state());
	reap(c);
	sigprocmask(SIG_UNBLOCK, &usr2, NULL);
	c = send_later(SIGUSR2, 50);
	struct ts32 ms300 = { 0, 300000000 };
	r = stw(&usr2, &si, &ms300, 8);
	say("ignored_unblocked %s %s", show(r, &si), state());
	reap(c);
	signal(SIGUSR2, on_sig);

	/* the time64 call */
	say("t64_setsize_4 %s", show(stw64(&usr1, &si, &zero64, 4), &si));
	say("t64_timeout_zero %s", show(stw64(&usr1, &si, &zero64, 8), &si));
	say("t64_timeout_50ms %s", show(stw64(&usr1, &si, &ms50_64, 8), &si));
	say("t64_nsec_1e9 %s", show(stw64(&usr1, &si, &badns64, 8), &si));
	say("t64_bad_timeout_ptr %s", show(stw64(&usr1, &si, (void *)1, 8), &si));
	kill(getpid(), SIGUSR1);
	r = stw64(&usr1, &si, &zero64, 8);
	say("t64_pending %s %s", show(r, &si), state());
	conform_end();
	return 0;
}
