/*
 * files_sys.c - the non-file system calls, from user space:
 * brk, mmap2 (anonymous), munmap, mprotect, uname, getpid, getppid, kill,
 * rt_sigaction, rt_sigprocmask, nanosleep, clock_gettime, gettimeofday,
 * set_thread_area, set_tid_address, getrandom, prlimit64, ugetrlimit,
 * poll (a pipe, a timeout, EINTR, the console).
 * Results, errno on bad arguments, and EFAULT for every bad pointer
 * (NULL, 0xC0000000, an unmapped page) with nothing changed.
 *
 * Prints "PASS files.NAME" / "FAIL files.NAME (...)"; exits 1 on a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "sc.h"

#define CKF(cond, ...) do {                                                  \
	char n_[128];                                                        \
	snprintf(n_, sizeof(n_), __VA_ARGS__);                               \
	check_report(n_, (cond) ? 1 : 0, #cond, __LINE__);                   \
} while (0)

#define PG 4096
#define KSIGSET 8                       /* the kernel's sigset_t: 64 bits */

/* Run fn in a child; return its wait status. */
static int in_child(void (*fn)(void *), void *arg)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return st;
}
static void poke(void *p) { *(volatile char *)p = 1; }
static void peek(void *p) { (void)*(volatile char *)p; }
static int died_of(int st, int sig) { return WIFSIGNALED(st) && WTERMSIG(st) == sig; }

/* ---- brk, mmap2, munmap, mprotect --------------------------------------- */
static void test_mm(void)
{
	unsigned long b0 = (unsigned long)SC(__NR_brk, 0), b1;
	char *m;

	CHECK("files.brk.query", b0 > 0 && b0 < 0xC0000000UL);
	b1 = (unsigned long)SC(__NR_brk, b0 + 3 * PG);
	CHECK("files.brk.grow", b1 == b0 + 3 * PG);
	memset((void *)b0, 0x5a, 3 * PG);
	CHECK("files.brk.usable", ((volatile char *)b0)[3 * PG - 1] == 0x5a);
	CHECK("files.brk.shrink", (unsigned long)SC(__NR_brk, b0) == b0);
	CHECK("files.brk.bad_keeps", (unsigned long)SC(__NR_brk, 0x1000) == b0 &&
	      (unsigned long)SC(__NR_brk, 0xC0001000UL) == b0);
	/* shrunk away: touching the old top is a SIGSEGV (page-aligned part) */
	unsigned long top = (b0 + PG - 1) & ~(PG - 1UL);
	CHECK("files.brk.shrunk_gone", died_of(in_child(poke, (void *)(top + PG)), SIGSEGV));

	long r = SC(__NR_mmap2, 0, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	m = (char *)r;
	CHECK("files.mmap2.anon", (r < 0 || r > 4095) && !(r & (PG - 1)) && m[0] == 0 && m[2 * PG - 1] == 0);
	m[5] = 'x';
	CHECK("files.mmap2.writable", m[5] == 'x');
	CHECK("files.mmap2.einval_len0", SC(__NR_mmap2, 0, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == -EINVAL);
	CHECK("files.mmap2.einval_fixed_unaligned",
	      SC(__NR_mmap2, 0x10000001, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == -EINVAL);
	CHECK("files.mmap2.einval_noflags", SC(__NR_mmap2, 0, PG, PROT_READ, MAP_ANONYMOUS, -1, 0) == -EINVAL);
	CHECK("files.mmap2.ebadf", SC(__NR_mmap2, 0, PG, PROT_READ, MAP_PRIVATE, 99, 0) == -EBADF);
	long k = SC(__NR_mmap2, 0xC0000000UL, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	CHECK("files.mmap2.fixed_kernel_refused", k < 0 && k > -4096);

	CHECK("files.mprotect.readonly", SC(__NR_mprotect, m, PG, PROT_READ) == 0 && m[5] == 'x');
	CHECK("files.mprotect.write_segv", died_of(in_child(poke, m + 5), SIGSEGV) && m[5] == 'x');
	CHECK("files.mprotect.none_read_segv", SC(__NR_mprotect, m, PG, PROT_NONE) == 0 &&
	      died_of(in_child(peek, m), SIGSEGV));
	CHECK("files.mprotect.back", SC(__NR_mprotect, m, PG, PROT_READ | PROT_WRITE) == 0 && m[5] == 'x');
	CHECK("files.mprotect.einval_unaligned", SC(__NR_mprotect, m + 1, PG, PROT_READ) == -EINVAL);
	CHECK("files.mprotect.einval_prot", SC(__NR_mprotect, m, PG, 0x100) == -EINVAL);
	CHECK("files.munmap.result", SC(__NR_munmap, m + PG, PG) == 0 &&
	      died_of(in_child(peek, m + PG), SIGSEGV) && m[5] == 'x');
	CHECK("files.mprotect.enomem_unmapped", SC(__NR_mprotect, m + PG, PG, PROT_READ) == -ENOMEM);
	CHECK("files.munmap.einval_unaligned", SC(__NR_munmap, m + 1, PG) == -EINVAL);
	CHECK("files.munmap.einval_len0", SC(__NR_munmap, m, 0) == -EINVAL);
	CHECK("files.munmap.einval_kernel", SC(__NR_munmap, 0xC0000000UL, PG) == -EINVAL);
	CHECK("files.munmap.unmapped_ok", SC(__NR_munmap, m + PG, PG) == 0);
	SC(__NR_munmap, m, PG);
}

/* ---- uname, getpid, getppid, kill --------------------------------------- */
static void child_ppid(void *arg)
{
	_exit(SC(__NR_getppid) == *(long *)arg ? 42 : 1);
}
static void child_wait(void *arg)
{
	struct timespec t = { 1, 0 };

	(void)arg;
	for (;;)
		SC(__NR_nanosleep, &t, 0);
}

static void test_ids(void)
{
	char u[6 * 65];
	long me = SC(__NR_getpid);
	int st = -1;

	memset(u, 0x7f, sizeof(u));
	CHECK("files.uname.result", SC(__NR_uname, u) == 0 && u[0] && memchr(u, 0, 65) &&
	      memchr(u + 4 * 65, 0, 65));
	CHECK("files.uname.machine", !strncmp(u + 4 * 65, "i", 1));
	CHECK("files.getpid.result", me > 1 && SC(__NR_getpid) == me);
	CHECK("files.getppid.result", SC(__NR_getppid) >= 1 && SC(__NR_getppid) != me);
	st = in_child(child_ppid, &me);
	CHECK("files.getppid.child", WIFEXITED(st) && WEXITSTATUS(st) == 42);
	CHECK("files.kill.probe_self", SC(__NR_kill, me, 0) == 0);
	CHECK("files.kill.esrch", SC(__NR_kill, 30000, 0) == -ESRCH);
	CHECK("files.kill.einval", SC(__NR_kill, me, 65) == -EINVAL && SC(__NR_kill, me, -1) == -EINVAL);
	pid_t pid = fork();
	if (pid == 0) {
		child_wait(NULL);
		_exit(0);
	}
	CHECK("files.kill.term_child", SC(__NR_kill, pid, SIGTERM) == 0 &&
	      waitpid(pid, &st, 0) == pid && died_of(st, SIGTERM));
	CHECK("files.kill.reaped_esrch", SC(__NR_kill, pid, 0) == -ESRCH);
	for (int b = 0; b < NBAD; b++)
		CKF(SC(__NR_uname, BADPTR[b]) == -EFAULT, "files.uname.efault_%s", BADNAME[b]);
}

/* ---- rt_sigaction, rt_sigprocmask --------------------------------------- */
static volatile int usr1_count;
static void on_usr1(int sig) { (void)sig; usr1_count++; }

static void test_signals(void)
{
	struct sigaction sa, old;
	unsigned long long set, oset, cur;
	long me = SC(__NR_getpid);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	CHECK("files.rt_sigaction.install", sigaction(SIGUSR1, &sa, NULL) == 0);
	usr1_count = 0;
	SC(__NR_kill, me, SIGUSR1);
	CHECK("files.rt_sigaction.handler_ran", usr1_count == 1);
	memset(&old, 0, sizeof(old));
	CHECK("files.rt_sigaction.query", SC(__NR_rt_sigaction, SIGUSR1, 0, &old, KSIGSET) == 0 &&
	      old.sa_handler == on_usr1);
	CHECK("files.rt_sigaction.einval_kill", SC(__NR_rt_sigaction, SIGKILL, &sa, 0, KSIGSET) == -EINVAL);
	CHECK("files.rt_sigaction.einval_stop", SC(__NR_rt_sigaction, SIGSTOP, &sa, 0, KSIGSET) == -EINVAL);
	CHECK("files.rt_sigaction.einval_zero", SC(__NR_rt_sigaction, 0, &sa, 0, KSIGSET) == -EINVAL);
	CHECK("files.rt_sigaction.einval_65", SC(__NR_rt_sigaction, 65, &sa, 0, KSIGSET) == -EINVAL);
	CHECK("files.rt_sigaction.einval_setsize", SC(__NR_rt_sigaction, SIGUSR1, &sa, 0, 4) == -EINVAL);

	set = 1ULL << (SIGUSR1 - 1);
	CHECK("files.rt_sigprocmask.block", SC(__NR_rt_sigprocmask, SIG_BLOCK, &set, &oset, KSIGSET) == 0 &&
	      !(oset & set));
	usr1_count = 0;
	SC(__NR_kill, me, SIGUSR1);
	CHECK("files.rt_sigprocmask.blocked_not_run", usr1_count == 0);
	CHECK("files.rt_sigprocmask.query", SC(__NR_rt_sigprocmask, SIG_BLOCK, 0, &cur, KSIGSET) == 0 &&
	      (cur & set));
	CHECK("files.rt_sigprocmask.einval_how", SC(__NR_rt_sigprocmask, 7, &set, 0, KSIGSET) == -EINVAL);
	CHECK("files.rt_sigprocmask.einval_setsize", SC(__NR_rt_sigprocmask, SIG_BLOCK, &set, 0, 4) == -EINVAL);
	unsigned long long killstop = (1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1));
	SC(__NR_rt_sigprocmask, SIG_BLOCK, &killstop, 0, KSIGSET);
	CHECK("files.rt_sigprocmask.kill_unblockable", SC(__NR_rt_sigprocmask, SIG_BLOCK, 0, &cur, KSIGSET) == 0 &&
	      !(cur & killstop));
	/* EFAULT: the action and the mask stay as they were */
	for (int b = 0; b < NBAD; b++) {
		void *bp = BADPTR[b];
		const char *bn = BADNAME[b];
		if (b) {        /* NULL act / oldact mean "none" */
			CKF(SC(__NR_rt_sigaction, SIGUSR1, bp, 0, KSIGSET) == -EFAULT,
			    "files.rt_sigaction.efault_act_%s", bn);
			CKF(SC(__NR_rt_sigaction, SIGUSR1, 0, bp, KSIGSET) == -EFAULT,
			    "files.rt_sigaction.efault_oldact_%s", bn);
			CKF(SC(__NR_rt_sigprocmask, SIG_UNBLOCK, bp, 0, KSIGSET) == -EFAULT,
			    "files.rt_sigprocmask.efault_set_%s", bn);
			CKF(SC(__NR_rt_sigprocmask, SIG_BLOCK, 0, bp, KSIGSET) == -EFAULT,
			    "files.rt_sigprocmask.efault_oldset_%s", bn);
		}
	}
	CHECK("files.rt_sigaction.efault_unchanged", SC(__NR_rt_sigaction, SIGUSR1, 0, &old, KSIGSET) == 0 &&
	      old.sa_handler == on_usr1);
	CHECK("files.rt_sigprocmask.efault_unchanged", usr1_count == 0 &&
	      SC(__NR_rt_sigprocmask, SIG_BLOCK, 0, &cur, KSIGSET) == 0 && (cur & set));
	CHECK("files.rt_sigprocmask.unblock_delivers", SC(__NR_rt_sigprocmask, SIG_UNBLOCK, &set, 0, KSIGSET) == 0 &&
	      usr1_count == 1);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGUSR1, &sa, NULL);
}

/* ---- nanosleep, clock_gettime, gettimeofday ----------------------------- */
static long long ns(const struct timespec *t) { return t->tv_sec * 1000000000LL + t->tv_nsec; }

static void test_time(void)
{
	struct timespec a, b, req;
	struct { long sec, usec; } tv;
	struct timespec rt;

	CHECK("files.clock_gettime.monotonic", SC(__NR_clock_gettime, 1, &a) == 0 && a.tv_nsec >= 0 &&
	      a.tv_nsec < 1000000000L);
	req.tv_sec = 0; req.tv_nsec = 30 * 1000000L;
	CHECK("files.nanosleep.result", SC(__NR_nanosleep, &req, 0) == 0);
	SC(__NR_clock_gettime, 1, &b);
	CHECK("files.nanosleep.slept", ns(&b) - ns(&a) >= 25 * 1000000LL && ns(&b) - ns(&a) < 2000000000LL);
	req.tv_nsec = 1000000000L;
	CHECK("files.nanosleep.einval_nsec", SC(__NR_nanosleep, &req, 0) == -EINVAL);
	req.tv_sec = -1; req.tv_nsec = 0;
	CHECK("files.nanosleep.einval_neg", SC(__NR_nanosleep, &req, 0) == -EINVAL);
	CHECK("files.clock_gettime.einval", SC(__NR_clock_gettime, 99, &a) == -EINVAL);
	CHECK("files.clock_gettime.realtime", SC(__NR_clock_gettime, 0, &rt) == 0 && rt.tv_sec > 1000000000L);
	CHECK("files.gettimeofday.result", SC(__NR_gettimeofday, &tv, 0) == 0 && tv.usec >= 0 &&
	      tv.usec < 1000000 && tv.sec >= rt.tv_sec && tv.sec <= rt.tv_sec + 2);
	for (int b2 = 0; b2 < NBAD; b2++) {
		void *bp = BADPTR[b2];
		const char *bn = BADNAME[b2];
		CKF(SC(__NR_nanosleep, bp, 0) == -EFAULT, "files.nanosleep.efault_%s", bn);
		CKF(SC(__NR_clock_gettime, 1, bp) == -EFAULT, "files.clock_gettime.efault_%s", bn);
		if (b2)         /* gettimeofday(NULL, NULL) is legal */
			CKF(SC(__NR_gettimeofday, bp, 0) == -EFAULT, "files.gettimeofday.efault_%s", bn);
	}
}

/* ---- poll ---------------------------------------------------------------- */
#define POLLIN   0x0001
#define POLLOUT  0x0004
#define POLLNVAL 0x0020
struct upollfd { int fd; short events, revents; };

static long long now_ms(void)
{
	struct timespec t;

	SC(__NR_clock_gettime, 1, &t);
	return ns(&t) / 1000000;
}

/* A child that sleeps ms, then writes one byte into fd, or signals pid. */
static pid_t later(int ms, int fd, pid_t pid)
{
	pid_t c = fork();

	if (c == 0) {
		struct timespec req = { 0, ms * 1000000L };
		SC(__NR_nanosleep, &req, 0);
		if (fd >= 0)
			SC(__NR_write, fd, "w", 1);
		else
			SC(__NR_kill, pid, SIGUSR1);
		_exit(0);
	}
	return c;
}

static void test_poll(void)
{
	int p[2], st;
	char c = 0;
	struct upollfd f[2];
	long long t0, dt;
	long r;

	/* Sleeps until the pipe becomes readable: a child writes after 100 ms. */
	SC(__NR_pipe, p);
	pid_t kid = later(100, p[1], 0);
	f[0] = (struct upollfd){ p[0], POLLIN, 0x7f };
	t0 = now_ms();
	r = SC(__NR_poll, f, 1, 5000);
	dt = now_ms() - t0;
	CHECK("files.poll.wakes_readable", r == 1 && f[0].revents == POLLIN);
	CHECK("files.poll.slept_until_write", dt >= 90 && dt < 4000);
	CHECK("files.poll.data_there", SC(__NR_read, p[0], &c, 1) == 1 && c == 'w');
	waitpid(kid, &st, 0);

	/* The timeout: 0 after at least the time asked, revents cleared;
	 * a closed fd in the set is POLLNVAL and counts. */
	f[0] = (struct upollfd){ p[0], POLLIN, 0x7f };
	t0 = now_ms();
	r = SC(__NR_poll, f, 1, 50);
	dt = now_ms() - t0;
	CHECK("files.poll.timeout_zero", r == 0 && f[0].revents == 0);
	CHECK("files.poll.timeout_waited", dt >= 50 && dt < 2000);
	CHECK("files.poll.timeout_0_no_wait", SC(__NR_poll, f, 1, 0) == 0);
	f[1] = (struct upollfd){ 99, POLLIN, 0 };
	CHECK("files.poll.nval", SC(__NR_poll, f, 2, 0) == 1 && f[1].revents == POLLNVAL &&
	      f[0].revents == 0);
	f[1] = (struct upollfd){ p[1], POLLIN | POLLOUT, 0 };
	CHECK("files.poll.writer_pollout", SC(__NR_poll, f, 2, 1000) == 1 && f[1].revents == POLLOUT);

	/* A signal whose handler runs ends the wait with EINTR (a timeout of
	 * 3 s, so that a kernel that never wakes fails instead of hanging). */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	usr1_count = 0;
	kid = later(100, -1, (pid_t)SC(__NR_getpid));
	f[0] = (struct upollfd){ p[0], POLLIN, 0 };
	t0 = now_ms();
	r = SC(__NR_poll, f, 1, 3000);
	dt = now_ms() - t0;
	CHECK("files.poll.eintr", r == -EINTR && usr1_count == 1);
	CHECK("files.poll.eintr_early", dt < 2500);
	waitpid(kid, &st, 0);
	/* A long timeout (8 hours; timeout * HZ overflows an int) still waits. */
	usr1_count = 0;
	kid = later(100, -1, (pid_t)SC(__NR_getpid));
	t0 = now_ms();
	r = SC(__NR_poll, f, 1, 30000000);
	dt = now_ms() - t0;
	CHECK("files.poll.long_timeout_waits", r == -EINTR && usr1_count == 1 && dt >= 50);
	waitpid(kid, &st, 0);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGUSR1, &sa, NULL);
	SC(__NR_close, p[0]);
	SC(__NR_close, p[1]);

	/* The console: writable at once; nothing typed, so not readable. */
	long tty = SC(__NR_open, "/dev/console", O_RDWR);
	f[0] = (struct upollfd){ (int)tty, POLLIN | POLLOUT, 0 };
	CHECK("files.poll.tty_pollout", tty >= 0 && SC(__NR_poll, f, 1, 0) == 1 && f[0].revents == POLLOUT);
	f[0] = (struct upollfd){ (int)tty, POLLIN, 0 };
	CHECK("files.poll.tty_no_input", SC(__NR_poll, f, 1, 30) == 0 && f[0].revents == 0);
	SC(__NR_close, tty);
	for (int b = 0; b < NBAD; b++)
		CKF(SC(__NR_poll, BADPTR[b], 1, 0) == -EFAULT, "files.poll.efault_%s", BADNAME[b]);
}

/* ---- set_thread_area, set_tid_address, getrandom, rlimits --------------- */
struct user_desc {
	unsigned int entry_number;
	unsigned int base_addr;
	unsigned int limit;
	unsigned int flags;    /* seg_32bit:1 contents:2 read_exec_only:1 limit_in_pages:1 seg_not_present:1 useable:1 */
};

static unsigned int tls_word = 0x600dcafe;

static void test_misc(void)
{
	struct user_desc d = { (unsigned)-1, (unsigned)(unsigned long)&tls_word, 0xfffff, 1 | (1 << 4) | (1 << 6) };
	unsigned int got = 0;
	unsigned char r1[64], r2[64];
	unsigned long lim[2];
	unsigned long long lim64[2], nl[2];

	CHECK("files.set_thread_area.result", SC(__NR_set_thread_area, &d) == 0 &&
	      d.entry_number >= 6 && d.entry_number <= 8);
	unsigned short sel = (unsigned short)(d.entry_number * 8 + 3), oldgs;
	__asm__ volatile("mov %%gs, %0\n\tmov %2, %%gs\n\tmovl %%gs:0, %1\n\tmov %0, %%gs"
	                 : "=&r"(oldgs), "=&r"(got) : "r"(sel) : "memory");
	CHECK("files.set_thread_area.gs_reads", got == 0x600dcafe);
	struct user_desc bad = d;
	bad.entry_number = 3;
	CHECK("files.set_thread_area.einval", SC(__NR_set_thread_area, &bad) == -EINVAL);
	CHECK("files.set_tid_address.result", SC(__NR_set_tid_address, &got) == SC(__NR_getpid));

	memset(r1, 0, sizeof(r1));
	memset(r2, 0, sizeof(r2));
	CHECK("files.getrandom.result", SC(__NR_getrandom, r1, 64, 0) == 64 &&
	      SC(__NR_getrandom, r2, 64, 0) == 64 && memcmp(r1, r2, 64) != 0);
	CHECK("files.getrandom.einval", SC(__NR_getrandom, r1, 8, 0x80) == -EINVAL);

	CHECK("files.ugetrlimit.nofile", SC(__NR_ugetrlimit, 7, lim) == 0 && lim[0] > 2 && lim[0] <= lim[1]);
	CHECK("files.ugetrlimit.einval", SC(__NR_ugetrlimit, 99, lim) == -EINVAL);
	CHECK("files.prlimit64.nofile", SC(__NR_prlimit64, 0, 7, 0, lim64) == 0 && lim64[0] == lim[0]);
	CHECK("files.prlimit64.self_pid", SC(__NR_prlimit64, SC(__NR_getpid), 7, 0, lim64) == 0);
	CHECK("files.prlimit64.esrch", SC(__NR_prlimit64, 30000, 7, 0, lim64) == -ESRCH);
	CHECK("files.prlimit64.einval", SC(__NR_prlimit64, 0, 99, 0, lim64) == -EINVAL);
	nl[0] = 5; nl[1] = 4;
	CHECK("files.prlimit64.einval_cur_gt_max", SC(__NR_prlimit64, 0, 7, nl, 0) == -EINVAL);

	for (int b = 0; b < NBAD; b++) {
		void *bp = BADPTR[b];
		const char *bn = BADNAME[b];
		CKF(SC(__NR_set_thread_area, bp) == -EFAULT, "files.set_thread_area.efault_%s", bn);
		CKF(SC(__NR_getrandom, bp, 16, 0) == -EFAULT, "files.getrandom.efault_%s", bn);
		CKF(SC(__NR_ugetrlimit, 7, bp) == -EFAULT, "files.ugetrlimit.efault_%s", bn);
		if (b) {        /* NULL new / old limits mean "none" */
			CKF(SC(__NR_prlimit64, 0, 7, bp, 0) == -EFAULT, "files.prlimit64.efault_new_%s", bn);
			CKF(SC(__NR_prlimit64, 0, 7, 0, bp) == -EFAULT, "files.prlimit64.efault_old_%s", bn);
		}
	}
	CHECK("files.prlimit64.efault_unchanged", SC(__NR_prlimit64, 0, 7, 0, lim64) == 0 &&
	      lim64[0] == lim[0]);
}

/* ---- /proc/PID: what ps reads ------------------------------------------- */
static int read_all(const char *path, char *buf, int size)
{
	long fd = SC(__NR_open, path, O_RDONLY), n = 0, r;

	if (fd < 0)
		return (int)fd;
	while (n < size - 1 && (r = SC(__NR_read, fd, buf + n, size - 1 - n)) > 0)
		n += r;
	SC(__NR_close, fd);
	buf[n] = '\0';
	return (int)n;
}

static void test_proc_pid(void)
{
	char buf[1024], want[128], path[64];
	long me = SC(__NR_getpid), parent = SC(__NR_getppid);

	snprintf(want, sizeof want, "%ld (files_sys) R %ld ", me, parent);
	CHECK("files.proc.self_stat", read_all("/proc/self/stat", buf, sizeof buf) > 0 &&
	      !strncmp(buf, want, strlen(want)));
	int n = read_all("/proc/self/cmdline", buf, sizeof buf);
	CHECK("files.proc.self_cmdline", n > 0 && buf[n - 1] == '\0' &&
	      !strcmp(buf + strlen(buf) - strlen("files_sys"), "files_sys"));
	snprintf(want, sizeof want, "%ld", me);
	n = (int)SC(__NR_readlink, "/proc/self", buf, sizeof buf);
	CHECK("files.proc.self_link", n == (int)strlen(want) && !memcmp(buf, want, n));

	/* A child that sleeps: S in its stat, its ppid is us; once reaped, gone. */
	long pid = SC(__NR_fork);
	if (pid == 0) {
		struct timespec t = { 30, 0 };
		SC(__NR_nanosleep, &t, 0);
		SC(__NR_exit, 0);
	}
	struct timespec t = { 0, 200000000 };
	SC(__NR_nanosleep, &t, 0);
	snprintf(path, sizeof path, "/proc/%ld/status", pid);
	snprintf(want, sizeof want, "Pid:\t%ld\nPPid:\t%ld\n", pid, me);
	CHECK("files.proc.child_status", read_all(path, buf, sizeof buf) > 0 &&
	      strstr(buf, "State:\tS (sleeping)") && strstr(buf, want));
	int listed = 0;
	long dfd = SC(__NR_open, "/proc", O_RDONLY | O_DIRECTORY);
	snprintf(want, sizeof want, "%ld", pid);
	for (long got; (got = SC(__NR_getdents64, dfd, buf, sizeof buf)) > 0; )
		for (long off = 0; off < got; off += *(unsigned short *)(buf + off + 16))
			if (!strcmp(buf + off + 19, want))
				listed = 1;
	SC(__NR_close, dfd);
	CHECK("files.proc.child_listed", listed);
	SC(__NR_kill, pid, SIGKILL);
	int st;
	SC(__NR_wait4, pid, &st, 0, 0);
	CHECK("files.proc.reaped_gone", read_all(path, buf, sizeof buf) == -ENOENT);
	snprintf(path, sizeof path, "/proc/%ld", pid);
	CHECK("files.proc.reaped_dir_gone", SC(__NR_access, path, F_OK) == -ENOENT);
	CHECK("files.proc.not_a_pid", SC(__NR_access, "/proc/0", F_OK) == -ENOENT &&
	      SC(__NR_access, "/proc/12x", F_OK) == -ENOENT);
	CHECK("files.proc.read_only", SC(__NR_open, "/proc/self/stat", O_WRONLY) == -EACCES);
}

int main(void)
{
	bad_init();
	test_mm();
	test_ids();
	test_signals();
	test_time();
	test_poll();
	test_misc();
	test_proc_pid();
	return check_summary();
}
