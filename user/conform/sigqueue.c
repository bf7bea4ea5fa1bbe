/* sigqueue.c - conformance: the process and signal calls an outside run of
 * LTP found missing or different (issue 23).  rt_sigqueueinfo (178) and
 * rt_tgsigqueueinfo (335): the siginfo delivered as the sender gave it
 * (si_code, si_pid, si_uid, si_value), Linux's rules (a si_code >= 0 or
 * SI_TKILL to another process -> EPERM, to oneself allowed; no such pid,
 * pid <= 0 -> ESRCH; a bad signal -> EINVAL; tgid or tid <= 0 -> EINVAL;
 * a tid of another group -> ESRCH; a bad pointer -> EFAULT); the old
 * sigpending (73); RLIMIT_SIGPENDING (tgkill of a real-time signal past
 * it -> EAGAIN, kill's still delivered); the old getrlimit (76) clamping
 * to 0x7fffffff where ugetrlimit (191) does not; alarm's return for long
 * timers; execve with an empty argv (argc 1, argv[0] ""); setpgid of a
 * child that has exec'd -> EACCES; capget/capset's version handshake and
 * bounds; prctl's dumpable flag; fadvise64_64 (272) and fadvise64 (250);
 * clock_getres_time64 (406).  Prints observations only (conform.h); pids relative.
 */
#include "conform.h"
#include <limits.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#define ENV_ARGV "CONFORM_SIGQUEUE_ARGV"   /* the re-exec'd image: report argc/argv */
#define ENV_WAIT "CONFORM_SIGQUEUE_WAIT"   /* the re-exec'd image: wait for EOF on fd */

static const char *self;

static long sqi(pid_t pid, int sig, siginfo_t *si)
{
	return syscall(178, pid, sig, si);
}

static long tgsqi(pid_t tgid, pid_t tid, int sig, siginfo_t *si)
{
	return syscall(335, tgid, tid, sig, si);
}

static pid_t gettid_(void) { return syscall(SYS_gettid); }

static volatile int got_sig, got_code, got_val, got_pid_self, got_uid;
static void on_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_val = si->si_value.sival_int;
	got_pid_self = si->si_pid == getpid();
	got_uid = si->si_uid;
}

static siginfo_t info(int sig, int code, int val)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	si.si_signo = sig;
	si.si_code = code;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_int = val;
	return si;
}

static const char *got(void)
{
	static char b[96];
	snprintf(b, sizeof b, "sig=%d code=%d val=%d pid=%s uid=%d", got_sig, got_code, got_val,
		 got_pid_self ? "self" : "other", got_uid);
	got_sig = got_code = got_val = got_pid_self = got_uid = 0;
	return b;
}

/* ---- 1. rt_sigqueueinfo, rt_tgsigqueueinfo -------------------------------- */

static void queueinfo(void)
{
	long r;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_info;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);

	siginfo_t si = info(SIGUSR1, SI_QUEUE, 777);
	r = sqi(getpid(), SIGUSR1, &si);
	say("self_queue %s %s", rv(r), got());
	si = info(SIGUSR1, SI_USER, 5);
	r = sqi(getpid(), SIGUSR1, &si);
	say("self_code_user %s %s", rv(r), got());
	si = info(SIGUSR1, 0x80 /* SI_KERNEL */, 6);
	r = sqi(getpid(), SIGUSR1, &si);
	say("self_code_kernel %s %s", rv(r), got());
	si = info(SIGUSR1, SI_QUEUE, 7);
	say("sig_0 %s", rv(sqi(getpid(), 0, &si)));
	say("sig_bad %s", rv(sqi(getpid(), -1, &si)));
	say("sig_65 %s", rv(sqi(getpid(), 65, &si)));
	say("pid_minus1 %s", rv(sqi(-1, SIGUSR1, &si)));
	say("pid_0 %s", rv(sqi(0, SIGUSR1, &si)));
	say("pid_none %s", rv(sqi(INT_MAX, SIGUSR1, &si)));
	say("bad_info %s", rv(sqi(getpid(), SIGUSR1, (siginfo_t *)1)));
	si = info(SIGUSR1, SI_USER, 8);
	say("pid_0_code_user %s", rv(sqi(0, SIGUSR1, &si)));

	/* another process: a child that blocks SIGUSR1 and reports what it takes */
	int p[2], q[2];
	pipe(p);
	pipe(q);
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	pid_t c = fork();
	if (c == 0) {
		close(p[0]);
		close(q[1]);
		char ch;
		read(q[0], &ch, 1);            /* the parent has sent */
		siginfo_t r;
		struct timespec ts = { 0, 0 };
		int s = sigtimedwait(&usr1, &r, &ts);
		dprintf(p[1], "took=%d code=%d val=%d pid=%s", s, s > 0 ? r.si_code : 0,
			s > 0 ? r.si_value.sival_int : 0,
			s > 0 && r.si_pid == getppid() ? "parent" : "other");
		_exit(0);
	}
	close(p[1]);
	close(q[0]);
	si = info(SIGUSR1, SI_USER, 1);
	say("other_code_user %s", rv(sqi(c, SIGUSR1, &si)));
	si = info(SIGUSR1, SI_TKILL, 2);
	say("other_code_tkill %s", rv(sqi(c, SIGUSR1, &si)));
	si = info(SIGUSR1, 0x80, 3);
	say("other_code_kernel %s", rv(sqi(c, SIGUSR1, &si)));
	si = info(SIGUSR1, SI_QUEUE, 4242);
	say("other_queue %s", rv(sqi(c, SIGUSR1, &si)));
	write(q[1], "x", 1);
	char text[128] = "";
	ssize_t n = read(p[0], text, sizeof text - 1);
	text[n > 0 ? n : 0] = 0;
	say("other_received %s", text);
	close(p[0]);
	close(q[1]);
	waitpid(c, NULL, 0);
	sigprocmask(SIG_UNBLOCK, &usr1, NULL);

	/* rt_tgsigqueueinfo: one thread (here the only one) */
	si = info(SIGUSR1, SI_QUEUE, 99);
	r = tgsqi(getpid(), gettid_(), SIGUSR1, &si);
	say("tg_self %s %s", rv(r), got());
	say("tg_tgid_0 %s", rv(tgsqi(0, gettid_(), SIGUSR1, &si)));
	say("tg_tid_0 %s", rv(tgsqi(getpid(), 0, SIGUSR1, &si)));
	say("tg_wrong_tgid %s", rv(tgsqi(getppid(), gettid_(), SIGUSR1, &si)));
	say("tg_sig_bad %s", rv(tgsqi(getpid(), gettid_(), 100, &si)));
	say("tg_bad_info %s", rv(tgsqi(getpid(), gettid_(), SIGUSR1, (siginfo_t *)1)));
	si = info(SIGUSR1, SI_TKILL, 9);
	r = tgsqi(getpid(), gettid_(), SIGUSR1, &si);
	say("tg_self_code_tkill %s %s", rv(r), got());
	signal(SIGUSR1, SIG_DFL);
}

/* ---- 2. sigpending (73), RLIMIT_SIGPENDING ---------------------------------- */

static void pending(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, 34);
	sigaddset(&set, 35);
	sigaddset(&set, 36);
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR2);
	unsigned long old = 0;
	long r = syscall(73, &old);
	say("old_sigpending %s word=0x%lx", rv(r), old);
	say("old_sigpending_bad_ptr %s", rv(syscall(73, (void *)1)));

	struct rlimit rl;
	getrlimit(RLIMIT_SIGPENDING, &rl);
	say("sigpending_limit_set_ok %d", rl.rlim_cur > 0 && rl.rlim_cur == rl.rlim_max);
	/* the limit counts signals pending: SIGUSR2 is one; a second fits at 2 */
	struct rlimit two = { 2, 2 };
	say("setrlimit_2 %s", rv(setrlimit(RLIMIT_SIGPENDING, &two)));
	say("tgkill_34 %s", rv(syscall(SYS_tgkill, getpid(), gettid_(), 34)));
	say("tgkill_35_past_limit %s", rv(syscall(SYS_tgkill, getpid(), gettid_(), 35)));
	siginfo_t si = info(35, SI_QUEUE, 1);
	say("queue_35_past_limit %s", rv(sqi(getpid(), 35, &si)));
	say("kill_35_past_limit %s", rv(kill(getpid(), 35)));
	say("tgkill_chld_ignored_past_limit %s", rv(syscall(SYS_tgkill, getpid(), gettid_(), SIGCHLD)));
	sigset_t p;
	sigpending(&p);
	say("pending usr2=%d 34=%d 35=%d 36=%d chld=%d", sigismember(&p, SIGUSR2),
	    sigismember(&p, 34), sigismember(&p, 35), sigismember(&p, 36), sigismember(&p, SIGCHLD));
	struct rlimit zero = { 0, 0 };
	setrlimit(RLIMIT_SIGPENDING, &zero);
	say("tgkill_36_limit_0 %s", rv(syscall(SYS_tgkill, getpid(), gettid_(), 36)));
	/* take them all back */
	struct timespec ts = { 0, 0 };
	siginfo_t r2;
	int taken = 0;
	while (sigtimedwait(&set, &r2, &ts) > 0)
		taken++;
	say("taken %d", taken);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* ---- 3. getrlimit (76) and ugetrlimit (191) --------------------------------- */

static void rlimits32(void)
{
	unsigned long o[2], u[2];
	struct rlimit big = { RLIM_INFINITY, RLIM_INFINITY };
	setrlimit(RLIMIT_CPU, &big);
	long r1 = syscall(76, RLIMIT_CPU, o), r2 = syscall(191, RLIMIT_CPU, u);
	say("cpu_infinity old=%ld 0x%lx 0x%lx new=%ld 0x%lx 0x%lx", r1, o[0], o[1], r2, u[0], u[1]);
	struct rlimit small = { 1000, 100000 };
	setrlimit(RLIMIT_FSIZE, &small);
	r1 = syscall(76, RLIMIT_FSIZE, o);
	r2 = syscall(191, RLIMIT_FSIZE, u);
	say("fsize_small old=%ld %lu %lu new=%ld %lu %lu", r1, o[0], o[1], r2, u[0], u[1]);
	struct rlimit inf = { RLIM_INFINITY, RLIM_INFINITY };
	setrlimit(RLIMIT_FSIZE, &inf);
	say("old_bad_resource %s", rv(syscall(76, 99, o)));
}

/* ---- 4. alarm --------------------------------------------------------------- */

static void alarms(void)
{
	signal(SIGALRM, SIG_IGN);
	unsigned v[] = { INT_MAX, UINT_MAX / 4, 3000000000U / 2, 200000000 };
	for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
		alarm(v[i]);
		say("alarm_%u back %u", v[i], alarm(0));
	}
	signal(SIGALRM, SIG_DFL);
}

/* ---- 5. execve with an empty argv; setpgid after exec ----------------------- */

static int argv_report(int argc, char **argv)
{
	int w = atoi(getenv(ENV_ARGV));
	dprintf(w, "argc=%d argv0=\"%s\" argv1=%s", argc, argc > 0 ? argv[0] : "(none)",
		argc > 1 && argv[1] ? "set" : "null");
	return 0;
}

static void empty_argv(int w)
{
	char env[64];
	snprintf(env, sizeof env, ENV_ARGV "=%d", w);
	char *envp[] = { env, NULL };
	char *argv[] = { NULL };
	execve(self, argv, envp);
	report(w, "execve %s", rv(-1));
}

static void null_argv(int w)
{
	char env[64];
	snprintf(env, sizeof env, ENV_ARGV "=%d", w);
	char *envp[] = { env, NULL };
	syscall(SYS_execve, self, NULL, envp);
	report(w, "execve %s", rv(-1));
}

static void execs(void)
{
	char text[128];
	int st = child(empty_argv, text, sizeof text);
	say("empty_argv %s %s", wstatus(st), text);
	st = child(null_argv, text, sizeof text);
	say("null_argv %s %s", wstatus(st), text);

	/* setpgid: a child before exec (allowed), after exec (EACCES) */
	int p[2], done[2];
	pipe(p);
	pipe2(done, O_CLOEXEC);
	pid_t c = fork();
	if (c == 0) {
		close(p[1]);
		close(done[0]);
		char env[64];
		snprintf(env, sizeof env, ENV_WAIT "=%d", p[0]);
		char *envp[] = { env, NULL };
		char *argv[] = { (char *)self, NULL };
		execve(self, argv, envp);
		_exit(1);
	}
	close(p[0]);
	close(done[1]);
	char ch;
	read(done[0], &ch, 1);                 /* EOF: the exec closed it */
	close(done[0]);
	say("setpgid_after_exec %s", rv(setpgid(c, c)));
	say("setpgid_after_exec_own_group %s", rv(setpgid(c, getpgrp())));
	close(p[1]);
	int s;
	waitpid(c, &s, 0);
	c = fork();
	if (c == 0) {
		pause();
		_exit(0);
	}
	say("setpgid_before_exec %s", rv(setpgid(c, c)));
	kill(c, SIGKILL);
	waitpid(c, &s, 0);
}

/* ---- 6. capget, capset ------------------------------------------------------ */

struct caphdr { unsigned version; int pid; };
struct capdata { unsigned eff, perm, inh; };

static void caps(void)
{
	struct caphdr h = { 0x12345678, 0 };
	struct capdata d[2];
	memset(d, 0, sizeof d);
	long r = syscall(184, &h, d);
	say("capget_bad_version %s version=0x%x", rv(r), h.version);
	h.version = 0x12345678;
	r = syscall(184, &h, NULL);
	say("capget_probe_null %s version=0x%x", rv(r), h.version);
	h.version = 0x20080522;
	r = syscall(184, &h, NULL);
	say("capget_v3_null %s", rv(r));
	r = syscall(184, &h, d);
	say("capget_v3 %s eff=%x,%x perm=%x,%x inh=%x,%x", rv(r), d[0].eff, d[1].eff,
	    d[0].perm, d[1].perm, d[0].inh, d[1].inh);
	struct caphdr h1 = { 0x19980330, 0 };
	struct capdata d1[2];
	memset(d1, 0xee, sizeof d1);
	r = syscall(184, &h1, d1);
	say("capget_v1 %s eff=%x perm=%x second_untouched=%d", rv(r), d1[0].eff, d1[0].perm,
	    d1[1].eff == 0xeeeeeeee);
	h.pid = -1;
	say("capget_pid_neg %s", rv(syscall(184, &h, d)));
	h.pid = INT_MAX;
	say("capget_pid_none %s", rv(syscall(184, &h, d)));
	h.pid = 0;
	say("capget_bad_data %s", rv(syscall(184, &h, (void *)1)));

	/* capset in a child: drop CAP_SYS_RESOURCE (24) from the effective set */
	pid_t c = fork();
	if (c == 0) {
		struct caphdr hh = { 0x20080522, 0 };
		struct capdata dd[2];
		syscall(184, &hh, dd);
		struct capdata nd[2];
		memcpy(nd, dd, sizeof nd);
		nd[0].eff &= ~(1u << 24);
		struct rlimit rl = { 1000, 1000 };
		setrlimit(RLIMIT_CPU, &rl);
		printf("sigqueue %s: capset_drop_eff %s\n", c_fs, rv(syscall(185, &hh, nd)));
		rl.rlim_max = 2000;
		printf("sigqueue %s: raise_hard_without_cap %s\n", c_fs, rv(setrlimit(RLIMIT_CPU, &rl)));
		syscall(184, &hh, dd);
		printf("sigqueue %s: after_drop eff=%x perm=%x\n", c_fs, dd[0].eff, dd[0].perm);
		printf("sigqueue %s: capset_readd_eff %s\n", c_fs, rv(syscall(185, &hh, (nd[0].eff |= 1u << 24, nd))));
		nd[0].perm &= ~(1u << 24);
		nd[0].eff &= ~(1u << 24);
		printf("sigqueue %s: capset_drop_perm %s\n", c_fs, rv(syscall(185, &hh, nd)));
		nd[0].eff |= 1u << 24;
		printf("sigqueue %s: capset_eff_outside_perm %s\n", c_fs, rv(syscall(185, &hh, nd)));
		nd[0].eff &= ~(1u << 24);
		nd[0].perm |= 1u << 24;
		printf("sigqueue %s: capset_regain_perm %s\n", c_fs, rv(syscall(185, &hh, nd)));
		nd[0].perm &= ~(1u << 24);
		nd[0].inh |= 1u << 24;
		printf("sigqueue %s: capset_inh_outside %s\n", c_fs, rv(syscall(185, &hh, nd)));
		nd[0].inh = 0;
		hh.pid = getppid();
		printf("sigqueue %s: capset_other_pid %s\n", c_fs, rv(syscall(185, &hh, nd)));
		hh.pid = 0;
		hh.version = 1;
		long rr = syscall(185, &hh, nd);
		printf("sigqueue %s: capset_bad_version %s version=0x%x\n", c_fs, rv(rr), hh.version);
		fflush(stdout);
		_exit(0);
	}
	int st;
	waitpid(c, &st, 0);
	say("capset_child %s", wstatus(st));
}

/* ---- 6b. prctl's dumpable flag (kept without core dumps too) ---------------- */

static void dumpable(void)
{
	say("get_dumpable %s", rv(prctl(PR_GET_DUMPABLE)));
	say("set_dumpable_2 %s", rv(prctl(PR_SET_DUMPABLE, 2)));
	say("set_dumpable_0 %s", rv(prctl(PR_SET_DUMPABLE, 0)));
	say("get_dumpable_after %s", rv(prctl(PR_GET_DUMPABLE)));
	pid_t c = fork();
	if (c == 0)
		_exit(prctl(PR_GET_DUMPABLE));
	int st;
	waitpid(c, &st, 0);
	say("child_dumpable %s", wstatus(st));
	say("set_dumpable_1 %s", rv(prctl(PR_SET_DUMPABLE, 1)));
	say("get_dumpable_back %s", rv(prctl(PR_GET_DUMPABLE)));
}

/* ---- 7. fadvise, clock_getres_time64 ---------------------------------------- */

static const char *fadv(int fd, long long off, long long len, int advice)
{
	long r = syscall(272, fd, (unsigned long)off, (unsigned long)(off >> 32),
			 (unsigned long)len, (unsigned long)(len >> 32), advice);
	return rv(r);
}

static void fadvise(void)
{
	int fd = fresh("fadvise", 8192, 0);
	for (int a = 0; a <= 6; a++)
		say("fadvise64_64 advice=%d %s", a, fadv(fd, 0, 4096, a));
	say("fadvise64_64 past_eof %s", fadv(fd, 1LL << 40, 0, 4));
	say("fadvise64_64 len_neg %s", fadv(fd, 0, -1, 0));
	say("fadvise64_64 bad_fd %s", fadv(99, 0, 0, 0));
	int p[2];
	pipe(p);
	say("fadvise64_64 pipe %s", fadv(p[0], 0, 0, 0));
	close(p[0]);
	close(p[1]);
	say("fadvise64 willneed %s", rv(syscall(250, fd, 0, 0, 4096, 3)));
	say("fadvise64 advice_7 %s", rv(syscall(250, fd, 0, 0, 4096, 7)));
	char b[8192];
	ssize_t got_n = pread(fd, b, sizeof b, 0);
	say("data_after %zd first=%c", got_n, b[0]);
	done(fd, "fadvise");

	long long ts[2] = { -1, -1 };
	long r = syscall(406, CLOCK_MONOTONIC, ts);
	say("clock_getres_time64 %s sec=%lld nsec_positive=%d", rv(r), ts[0], ts[1] > 0);
	say("clock_getres_time64_null %s", rv(syscall(406, CLOCK_REALTIME, NULL)));
	say("clock_getres_time64_bad_clock %s", rv(syscall(406, 99, ts)));
}

int main(int argc, char **argv)
{
	if (getenv(ENV_ARGV))
		return argv_report(argc, argv);
	if (getenv(ENV_WAIT)) {
		char ch;
		while (read(atoi(getenv(ENV_WAIT)), &ch, 1) > 0)
			;
		return 0;
	}
	self = argv[0];
	conform_start("sigqueue", argc, argv);
	queueinfo();
	pending();
	rlimits32();
	alarms();
	execs();
	caps();
	dumpable();
	fadvise();
	conform_end();
	return 0;
}
