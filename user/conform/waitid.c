/* waitid.c - conformance: waitid(2), i386 syscall 284 (the LTP waitid
 * tests).  The idtypes P_ALL, P_PID and P_PGID; WEXITED, WSTOPPED,
 * WCONTINUED, WNOHANG, WNOWAIT; the errors (no WEXITED/WSTOPPED/WCONTINUED,
 * unknown bits, an unknown idtype, a bad id: EINVAL; no such child: ECHILD;
 * an unwritable infop: EFAULT, the child reaped all the same); the siginfo
 * fields it writes (si_signo, si_errno, si_code, si_pid, si_uid,
 * si_status) and the ones it leaves alone, on success, with WNOHANG and
 * nothing to report, and on failure; the fifth argument (struct rusage):
 * written only when a child is reported; zombies only and no WEXITED:
 * ECHILD; a hundred children reaped one by one.  Prints observations only
 * (conform.h): pids are printed relative to the child's ("pid=child").
 */
#include "conform.h"
#include <time.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#define FILL 0x55

/* waitid by the raw system call, with the rusage argument glibc leaves out */
static long sys_waitid(int which, int id, siginfo_t *info, int options, struct rusage *ru)
{
	return syscall(SYS_waitid, which, id, info, options, ru);
}

static const char *code_name(int c)
{
	static char other[16];
	switch (c) {
	case 0: return "0";
	case CLD_EXITED: return "CLD_EXITED";
	case CLD_KILLED: return "CLD_KILLED";
	case CLD_DUMPED: return "CLD_DUMPED";
	case CLD_STOPPED: return "CLD_STOPPED";
	case CLD_CONTINUED: return "CLD_CONTINUED";
	}
	snprintf(other, sizeof other, "code%d", c);
	return other;
}

/* The siginfo as text: the six fields waitid writes (si_pid relative to
 * the child expected: "child", 0, or "other"), si_status as a signal name
 * where si_code says it is one, and whether the rest of the 128 bytes
 * still holds the FILL pattern ("rest=fill") or not. */
static const char *show(const siginfo_t *si, pid_t child)
{
	static char b[200];
	const unsigned char *p = (const unsigned char *)si;
	int rest_fill = 1;
	for (size_t i = 24; i < sizeof *si; i++)   /* past signo errno code pid uid status */
		if (p[i] != FILL)
			rest_fill = 0;
	const char *pid = si->si_pid == child ? "child" : si->si_pid == 0 ? "0" : "other";
	char st[24];
	if (si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED ||
	    si->si_code == CLD_STOPPED || si->si_code == CLD_CONTINUED)
		snprintf(st, sizeof st, "%s", signame(si->si_status));
	else
		snprintf(st, sizeof st, "%d", si->si_status);
	snprintf(b, sizeof b, "signo=%s errno=%d code=%s pid=%s uid=%u status=%s rest=%s",
		 si->si_signo ? signame(si->si_signo) : "0", si->si_errno, code_name(si->si_code),
		 pid, (unsigned)si->si_uid, st, rest_fill ? "fill" : "changed");
	return b;
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* A child that exits with code at once (after ms milliseconds). */
static pid_t exiter(int code, int ms)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (ms)
			msleep(ms);
		_exit(code);
	}
	return pid;
}

/* A child that waits to be killed. */
static pid_t sleeper(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

/* one call: "NAME ret=... siginfo..." with the info prefilled */
static void one(const char *name, int which, int id, int options, pid_t child)
{
	siginfo_t si;
	memset(&si, FILL, sizeof si);
	long r = sys_waitid(which, id, &si, options, NULL);
	say("%s ret=%s %s", name, rv(r), show(&si, child));
}

static void errors(void)
{
	one("no_children", P_ALL, 0, WEXITED | WNOHANG, -1);
	one("no_children_block", P_ALL, 0, WEXITED, -1);
	one("pid1_not_child", P_PID, 1, WEXITED, -1);
	pid_t c = sleeper();
	one("options_0", P_ALL, 0, 0, c);
	one("wnohang_only", P_ALL, 0, WNOHANG, c);
	one("wnowait_only", P_ALL, 0, WNOWAIT, c);
	one("unknown_bit_0x10", P_ALL, 0, WEXITED | 0x10, c);
	one("unknown_bit_0x100", P_ALL, 0, WEXITED | WNOHANG | 0x100, c);
	one("wuntraced_is_wstopped", P_ALL, 0, WUNTRACED | WNOHANG, c);
	one("idtype_7", 7, 0, WEXITED | WNOHANG, c);
	one("idtype_minus1", -1, 0, WEXITED | WNOHANG, c);
	one("p_pid_0", P_PID, 0, WEXITED | WNOHANG, c);
	one("p_pid_minus1", P_PID, -1, WEXITED | WNOHANG, c);
	one("p_pgid_minus1", P_PGID, -1, WEXITED | WNOHANG, c);
	one("p_pid_other", P_PID, c + 1000, WEXITED | WNOHANG, c);
	one("p_pgid_other", P_PGID, getpgrp() + 1000, WEXITED | WNOHANG, c);
	/* a live child, nothing to report: 0 and the six fields zeroed */
	one("live_wnohang", P_ALL, 0, WEXITED | WNOHANG, c);
	one("live_wnohang_pid", P_PID, c, WEXITED | WSTOPPED | WCONTINUED | WNOHANG, c);
	one("live_wnohang_pgid0", P_PGID, 0, WEXITED | WNOHANG, c);
	/* bad infop: EFAULT whether or not there is something to report */
	errno = 0;
	say("efault_live_wnohang ret=%s",
	    rv(sys_waitid(P_ALL, 0, (siginfo_t *)1, WEXITED | WNOHANG, NULL)));
	kill(c, SIGKILL);
	one("killed", P_PID, c, WEXITED, c);
	one("after_reap", P_PID, c, WEXITED | WNOHANG, c);
	say("efault_no_child ret=%s",
	    rv(sys_waitid(P_ALL, 0, (siginfo_t *)1, WEXITED | WNOHANG, NULL)));
	c = exiter(7, 0);
	/* wait for it to be a zombie without reaping it */
	one("zombie_wnowait", P_PID, c, WEXITED | WNOWAIT, c);
	say("efault_zombie ret=%s", rv(sys_waitid(P_PID, c, (siginfo_t *)1, WEXITED, NULL)));
	one("efault_reaped_it", P_PID, c, WEXITED | WNOHANG, c);
	/* NULL infop: allowed, the child reaped */
	c = exiter(8, 0);
	say("null_infop ret=%s", rv(sys_waitid(P_PID, c, NULL, WEXITED, NULL)));
	one("null_infop_reaped", P_PID, c, WEXITED | WNOHANG, c);
}

static void exits(void)
{
	pid_t c = exiter(123, 0);
	one("exit_p_all", P_ALL, 0, WEXITED, c);
	c = exiter(0, 50);
	one("exit0_p_pid", P_PID, c, WEXITED, c);
	c = exiter(255, 0);
	one("exit255_p_pid", P_PID, c, WEXITED, c);
	/* WNOWAIT leaves it waitable: reported twice, then reaped */
	c = exiter(5, 0);
	one("wnowait_1", P_PID, c, WEXITED | WNOWAIT, c);
	one("wnowait_2", P_ALL, 0, WEXITED | WNOWAIT | WNOHANG, c);
	int st = 0;
	say("wnowait_then_waitpid %s %s", rv(waitpid(c, &st, 0) == c), wstatus(st));
	/* killed by a signal */
	c = sleeper();
	kill(c, SIGTERM);
	one("sigterm", P_ALL, 0, WEXITED, c);
	/* only a zombie and no WEXITED */
	c = exiter(3, 0);
	one("zombie_wnowait_first", P_PID, c, WEXITED | WNOWAIT, c);
	one("zombie_wstopped_wnohang", P_ALL, 0, WSTOPPED | WNOHANG, c);
	one("zombie_wcontinued_wnohang", P_PID, c, WCONTINUED | WNOHANG, c);
	one("zombie_reap", P_PID, c, WEXITED, c);
	/* a zombie and a live child, no WEXITED: 0 */
	pid_t live = sleeper();
	c = exiter(4, 0);
	one("zombie_live_wnowait", P_PID, c, WEXITED | WNOWAIT, c);
	one("zombie_live_wstopped_wnohang", P_ALL, 0, WSTOPPED | WNOHANG, c);
	kill(live, SIGKILL);
	one("zombie_live_reap_live", P_PID, live, WEXITED, live);
	one("zombie_live_reap", P_PID, c, WEXITED, c);
}

static void groups(void)
{
	int p[2];
	pipe(p);
	pid_t c = fork();
	if (c == 0) {
		setpgid(0, 0);
		char x;
		close(p[1]);
		read(p[0], &x, 1);     /* until the parent has looked */
		_exit(9);
	}
	close(p[0]);
	setpgid(c, c);
	one("pgid_own_group", P_PGID, 0, WEXITED | WNOHANG, c);
	one("pgid_child_group_live", P_PGID, c, WEXITED | WNOHANG, c);
	close(p[1]);
	one("pgid_child_group", P_PGID, c, WEXITED, c);
	c = exiter(10, 0);
	one("pgid_0", P_PGID, 0, WEXITED, c);
	c = exiter(11, 0);
	one("pgid_mine", P_PGID, getpgrp(), WEXITED, c);
}

static void jobctl(void)
{
	pid_t c = fork();
	if (c == 0) {
		raise(SIGSTOP);
		_exit(12);
	}
	one("stop_wnowait", P_PID, c, WSTOPPED | WNOWAIT, c);
	one("stop_again", P_PID, c, WSTOPPED, c);
	one("stop_consumed", P_PID, c, WSTOPPED | WNOHANG, c);
	one("stop_wexited_wnohang", P_PID, c, WEXITED | WNOHANG, c);
	kill(c, SIGCONT);
	one("cont_wnowait", P_PID, c, WCONTINUED | WNOWAIT, c);
	one("cont", P_ALL, 0, WCONTINUED, c);
	one("cont_consumed", P_PID, c, WCONTINUED | WNOHANG, c);
	one("exit_after_cont", P_PID, c, WEXITED, c);
	/* stopped, then killed while stopped */
	c = fork();
	if (c == 0) {
		raise(SIGSTOP);
		_exit(13);
	}
	one("stop2", P_ALL, 0, WSTOPPED | WEXITED, c);
	kill(c, SIGKILL);
	one("killed_stopped", P_ALL, 0, WSTOPPED | WEXITED, c);
}

static void usage(void)
{
	struct rusage ru;
	siginfo_t si;
	pid_t c = sleeper();
	memset(&ru, 0xff, sizeof ru);
	memset(&si, FILL, sizeof si);
	long r = sys_waitid(P_ALL, 0, &si, WEXITED | WNOHANG, &ru);
	say("rusage_nothing ret=%s untouched=%d", rv(r), ru.ru_maxrss == -1 && ru.ru_nvcsw == -1);
	kill(c, SIGKILL);
	memset(&ru, 0xff, sizeof ru);
	r = sys_waitid(P_ALL, 0, &si, WEXITED, &ru);
	say("rusage_reaped ret=%s %s written=%d maxrss_positive=%d utime_ok=%d", rv(r),
	    show(&si, c), ru.ru_nswap == 0 && ru.ru_msgsnd == 0, ru.ru_maxrss > 0,
	    ru.ru_utime.tv_usec >= 0 && ru.ru_utime.tv_usec < 1000000);
	memset(&ru, 0xff, sizeof ru);
	r = sys_waitid(P_ALL, 0, &si, WEXITED, &ru);
	say("rusage_echild ret=%s untouched=%d", rv(r), ru.ru_maxrss == -1);
	c = exiter(1, 0);
	say("rusage_efault ret=%s", rv(sys_waitid(P_ALL, 0, &si, WEXITED, (struct rusage *)1)));
	one("rusage_efault_reaped", P_PID, c, WEXITED | WNOHANG, c);
}

/* a hundred children at once, reaped by waitid(P_ALL) */
static void many(void)
{
	int n = 0, forked = 0;
	long sum = 0;
	for (int i = 0; i < 100; i++) {
		pid_t c = fork();
		if (c == 0) {
			msleep(100);
			_exit(i);
		}
		if (c > 0)
			forked++;
	}
	siginfo_t si;
	while (sys_waitid(P_ALL, 0, &si, WEXITED, NULL) == 0) {
		n++;
		sum += si.si_status;
	}
	say("hundred forked=%d reaped=%d sum=%ld last=%s", forked, n, sum, rv(-1));
}

int main(int argc, char **argv)
{
	conform_start("waitid", argc, argv);
	signal(SIGCHLD, SIG_DFL);
	errors();
	exits();
	groups();
	jobctl();
	usage();
	many();
	conform_end();
	return 0;
}
