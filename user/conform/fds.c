/* fds.c - conformance: file descriptors and pipes (issue 22).  dup, dup2,
 * dup3, fcntl (F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD/F_SETFD, F_GETFL/F_SETFL,
 * an unknown command), close, close-on-exec across execve (the program
 * re-executes itself to look), offsets and status flags shared by dup'd
 * and inherited descriptors and not by two opens, RLIMIT_NOFILE, and pipes:
 * O_NONBLOCK, EOF, EPIPE and SIGPIPE, PIPE_BUF atomicity, the capacity of a
 * full pipe, pipe2's flags, ESPIPE.  Prints observations only (conform.h);
 * descriptor numbers are deterministic because every descriptor above 2 is
 * closed first.  Children report to the parent through a pipe or their
 * wait status: only the parent prints.
 */
#include "conform.h"
#include <limits.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

static const char *self;               /* argv[0], for the re-exec */
static int *volatile bad_ptr = (int *)0x10;   /* an address nothing maps */
/* A call's result is made text (rv) at once, before the line that prints
 * it: the arguments of say() are evaluated in no fixed order. */
static const char *r1, *r2;

/* Close every descriptor above 2 (what the shell left open, what a
 * section opened): every section starts with 0, 1, 2 only. */
static void closeall_below(int end)
{
	for (int fd = 3; fd < end; fd++)
		close(fd);
}

static void closeall(void)
{
	closeall_below(1024);
}

/* getfd(fd): fcntl F_GETFD as text; getfl(fd): F_GETFL in octal. */
static const char *getfd(int fd)
{
	return rv(fcntl(fd, F_GETFD));
}

static const char *getfl(int fd)
{
	static char ring[4][24];
	static int n;
	char *b = ring[n++ & 3];
	int r = fcntl(fd, F_GETFL);
	if (r < 0)
		snprintf(b, 24, "%s", rv(r));
	else
		snprintf(b, 24, "0%o", r);
	return b;
}


/* ---- 1. dup, dup2, dup3 ---------------------------------------------------- */

static void dups(void)
{
	closeall();
	int fd = fresh("dup", 10, 0);
	say("open fd=%d", fd);
	int d = dup(fd);
	say("dup ret=%s", rv(d));
	say("dup_minus_1 ret=%s", rv(dup(-1)));
	say("dup_closed_50 ret=%s", rv(dup(50)));
	say("dup_2^30 ret=%s", rv(dup(1 << 30)));
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	d = dup(fd);
	r1 = rv(d);
	r2 = getfd(d);
	say("dup_of_cloexec ret=%s getfd_new=%s getfd_old=%s", r1, r2, getfd(fd));
	fcntl(fd, F_SETFD, 0);

	say("dup2_same ret=%s", rv(dup2(fd, fd)));
	say("dup2_same_closed ret=%s", rv(dup2(50, 50)));
	r1 = rv(dup2(50, 9));
	say("dup2_closed_to_9 ret=%s getfd9=%s", r1, getfd(9));
	r1 = rv(dup2(fd, 9));
	say("dup2_to_9 ret=%s size9=%lld", r1, fsize(9));
	int other = fresh("dup_other", 20, 0);
	r1 = rv(dup2(other, 9));
	say("dup2_over_open_9 ret=%s size9=%lld", r1, fsize(9));
	say("dup2_newfd_minus_1 ret=%s", rv(dup2(fd, -1)));
	say("dup2_newfd_2^30 ret=%s", rv(dup2(fd, 1 << 30)));
	say("dup2_minus_1 ret=%s", rv(dup2(-1, 9)));

	r1 = rv(dup3(fd, 11, O_CLOEXEC));
	say("dup3_cloexec ret=%s getfd=%s", r1, getfd(11));
	r1 = rv(dup3(fd, 11, 0));
	say("dup3_over_cloexec_no_flag ret=%s getfd=%s", r1, getfd(11));
	dup3(fd, 12, O_CLOEXEC);
	r1 = rv(dup2(fd, 12));
	say("dup2_over_cloexec ret=%s getfd=%s", r1, getfd(12));
	say("dup3_same ret=%s", rv(dup3(fd, fd, 0)));
	say("dup3_same_cloexec ret=%s", rv(dup3(fd, fd, O_CLOEXEC)));
	say("dup3_same_closed ret=%s", rv(dup3(50, 50, 0)));
	r1 = rv(dup3(fd, 13, O_NONBLOCK));
	say("dup3_nonblock ret=%s getfd13=%s", r1, getfd(13));
	say("dup3_flags_minus_1 ret=%s", rv(dup3(fd, 13, -1)));
	say("dup3_closed ret=%s", rv(dup3(50, 13, 0)));
	say("dup3_closed_bad_flags ret=%s", rv(dup3(50, 13, O_APPEND)));
	say("dup3_newfd_2^30 ret=%s", rv(dup3(fd, 1 << 30, 0)));
	done(fd, "dup");
	unlink(path("dup_other"));
	closeall();
}

/* ---- 2. fcntl ---------------------------------------------------------------- */

static void fcntls(void)
{
	closeall();
	int fd = fresh("fcntl", 10, 0);
	r1 = rv(fcntl(fd, F_DUPFD, 20));
	say("fcntl_dupfd_20 ret=%s getfd=%s", r1, getfd(20));
	say("fcntl_dupfd_20_again ret=%s", rv(fcntl(fd, F_DUPFD, 20)));
	say("fcntl_dupfd_0 ret=%s", rv(fcntl(fd, F_DUPFD, 0)));
	say("fcntl_dupfd_minus_1 ret=%s", rv(fcntl(fd, F_DUPFD, -1)));
	say("fcntl_dupfd_2^30 ret=%s", rv(fcntl(fd, F_DUPFD, 1 << 30)));
	say("fcntl_dupfd_closed ret=%s", rv(fcntl(50, F_DUPFD, 0)));
	r1 = rv(fcntl(fd, F_DUPFD_CLOEXEC, 30));
	say("fcntl_dupfd_cloexec_30 ret=%s getfd=%s", r1, getfd(30));
	say("fcntl_dupfd_cloexec_0 ret=%s", rv(fcntl(fd, F_DUPFD_CLOEXEC, 0)));

	say("getfd_new ret=%s", getfd(fd));
	r1 = rv(fcntl(fd, F_SETFD, FD_CLOEXEC));
	say("setfd_1 ret=%s getfd=%s", r1, getfd(fd));
	r1 = rv(fcntl(fd, F_SETFD, 0));
	say("setfd_0 ret=%s getfd=%s", r1, getfd(fd));
	r1 = rv(fcntl(fd, F_SETFD, 0xff));
	say("setfd_0xff ret=%s getfd=%s", r1, getfd(fd));
	r1 = rv(fcntl(fd, F_SETFD, 2));
	say("setfd_2 ret=%s getfd=%s", r1, getfd(fd));
	say("getfd_closed ret=%s", getfd(50));
	say("setfd_closed ret=%s", rv(fcntl(50, F_SETFD, 1)));
	say("getfl_closed ret=%s", getfl(50));
	say("fcntl_unknown_cmd ret=%s", rv(fcntl(fd, 12345)));
	say("fcntl_unknown_cmd_closed ret=%s", rv(fcntl(50, 12345)));
	say("fcntl_getpipe_sz_file ret=%s", rv(fcntl(fd, F_GETPIPE_SZ)));
	closeall();

	/* F_GETFL after open: the access mode and the status flags Linux
	 * keeps (glibc's open64 adds O_LARGEFILE; the raw open does not) */
	static const struct { const char *key; int flags; } opens[] = {
		{ "rdonly", O_RDONLY }, { "wronly", O_WRONLY }, { "rdwr", O_RDWR },
		{ "wronly_append", O_WRONLY | O_APPEND }, { "rdwr_nonblock", O_RDWR | O_NONBLOCK },
		{ "rdonly_cloexec", O_RDONLY | O_CLOEXEC },
		{ "rdwr_creat_trunc", O_RDWR | O_CREAT | O_TRUNC },
		{ "rdwr_creat_excl", O_RDWR | O_CREAT | O_EXCL },
		{ "rdwr_noctty", O_RDWR | O_NOCTTY }, { "rdwr_sync", O_RDWR | O_SYNC },
		{ "rdwr_dsync", O_RDWR | O_DSYNC }, { "rdonly_noatime", O_RDONLY | O_NOATIME },
		{ "rdonly_nofollow", O_RDONLY | O_NOFOLLOW },
		{ "accmode_3", 3 },
	};
	for (unsigned i = 0; i < sizeof opens / sizeof opens[0]; i++) {
		if (opens[i].flags & O_EXCL)
			unlink(path("getfl"));
		int f = open(path("getfl"), opens[i].flags | O_CREAT, 0644);
		r1 = rv(f);
		say("getfl_%s open=%s getfl=%s", opens[i].key, r1, getfl(f));
		close(f);
	}
	int f = syscall(SYS_open, path("getfl"), O_RDWR);
	r1 = rv(f);
	say("getfl_raw_open_rdwr open=%s getfl=%s", r1, getfl(f));
	close(f);
	f = open(c_dir, O_RDONLY | O_DIRECTORY);
	r1 = rv(f);
	say("getfl_dir_directory open=%s getfl=%s", r1, getfl(f));
	close(f);

	/* F_SETFL: O_APPEND, O_NONBLOCK and O_NOATIME change; the access mode
	 * and the open-time flags do not */
	fd = open(path("getfl"), O_RDONLY);
	int r = fcntl(fd, F_SETFL, O_WRONLY | O_APPEND | O_NONBLOCK);
	r1 = rv(r);
	say("setfl_rdonly_to_wronly_append_nonblock ret=%s getfl=%s", r1, getfl(fd));
	r = write(fd, "a", 1);
	say("setfl_rdonly_write ret=%s", rv(r));
	r = fcntl(fd, F_SETFL, 0);
	r1 = rv(r);
	say("setfl_0 ret=%s getfl=%s", r1, getfl(fd));
	r = fcntl(fd, F_SETFL, O_RDWR);
	r1 = rv(r);
	say("setfl_rdwr ret=%s getfl=%s", r1, getfl(fd));
	r = fcntl(fd, F_SETFL, O_CREAT | O_TRUNC | O_EXCL | O_NOCTTY | O_DSYNC | O_SYNC | O_CLOEXEC);
	r1 = rv(r);
	say("setfl_open_time_flags ret=%s getfl=%s getfd=%s size=%lld", r1, getfl(fd), getfd(fd),
	    fsize(fd));
	r = fcntl(fd, F_SETFL, O_NOATIME);
	r1 = rv(r);
	say("setfl_noatime ret=%s getfl=%s", r1, getfl(fd));
	r = fcntl(fd, F_SETFL, O_LARGEFILE);
	r1 = rv(r);
	say("setfl_largefile ret=%s getfl=%s", r1, getfl(fd));
	r = fcntl(fd, F_SETFL, O_DIRECTORY | O_NOFOLLOW);
	r1 = rv(r);
	say("setfl_directory_nofollow ret=%s getfl=%s", r1, getfl(fd));
	close(fd);
	fd = syscall(SYS_open, path("getfl"), O_RDONLY);
	r = fcntl(fd, F_SETFL, O_LARGEFILE | O_APPEND);
	r1 = rv(r);
	say("setfl_raw_largefile_append ret=%s getfl=%s", r1, getfl(fd));
	close(fd);

	/* O_APPEND set by F_SETFL moves writes to the end; dup shares it */
	fd = fresh("fcntl", 10, 0);
	int d = dup(fd);
	lseek(fd, 2, SEEK_SET);
	r = fcntl(fd, F_SETFL, O_APPEND);
	r1 = rv(r);
	say("setfl_append ret=%s getfl=%s getfl_dup=%s", r1, getfl(fd), getfl(d));
	r = write(d, "ab", 2);
	r1 = rv(r);
	say("setfl_append_write_dup ret=%s pos=%lld size=%lld", r1, fpos(fd), fsize(fd));
	r = fcntl(d, F_SETFL, 0);
	lseek(fd, 2, SEEK_SET);
	r = write(fd, "cd", 2);
	r1 = rv(r);
	say("setfl_append_off_write ret=%s pos=%lld size=%lld %s", r1, fpos(fd), fsize(fd),
	    bytes(fd, 0, 100));
	int o = open(path("fcntl"), O_RDWR);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	say("setfl_nonblock getfl=%s getfl_dup=%s getfl_other_open=%s", getfl(fd), getfl(d), getfl(o));
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	say("setfd_not_shared getfd=%s getfd_dup=%s", getfd(fd), getfd(d));
	close(o);
	close(d);

	/* close */
	say("close ret=%s", rv(close(fd)));
	say("close_again ret=%s", rv(close(fd)));
	say("close_minus_1 ret=%s", rv(close(-1)));
	say("close_2^30 ret=%s", rv(close(1 << 30)));
	say("fcntl_after_close ret=%s", getfd(fd));
	unlink(path("fcntl"));
	unlink(path("getfl"));
	closeall();
}

/* ---- 3. shared offsets ------------------------------------------------------- */

static int shared_fd;

static void child_seek_7(int w)
{
	lseek(shared_fd, 7, SEEK_SET);
	report(w, "child_pos=%lld", fpos(shared_fd));
}

static void child_setfl_append(int w)
{
	fcntl(shared_fd, F_SETFL, O_APPEND);
	fcntl(shared_fd, F_SETFD, FD_CLOEXEC);
	report(w, "child_getfl=%s child_getfd=%s", getfl(shared_fd), getfd(shared_fd));
}

static void child_close(int w)
{
	report(w, "child_close=%s", rv(close(shared_fd)));
}

static void offsets(void)
{
	closeall();
	char text[1024];
	int a = fresh("offsets", 20, 0);
	lseek(a, 3, SEEK_SET);
	int d = dup(a);
	say("dup_shares_pos pos_dup=%lld", fpos(d));
	char buf[8];
	ssize_t r = read(d, buf, 2);
	r1 = rv(r);
	say("dup_read_2 ret=%s pos=%lld pos_dup=%lld", r1, fpos(a), fpos(d));
	lseek(a, 11, SEEK_SET);
	say("dup_seek_11 pos_dup=%lld", fpos(d));
	int b = open(path("offsets"), O_RDWR);
	say("second_open pos=%lld pos_first=%lld", fpos(b), fpos(a));
	r = write(b, "ab", 2);
	r1 = rv(r);
	say("second_open_write ret=%s pos=%lld pos_first=%lld", r1, fpos(b), fpos(a));
	lseek(a, 3, SEEK_SET);
	shared_fd = a;
	int st = child(child_seek_7, text, sizeof text);
	say("fork_child_seek %s %s pos_parent=%lld pos_dup=%lld pos_second=%lld", wstatus(st), text,
	    fpos(a), fpos(d), fpos(b));
	st = child(child_setfl_append, text, sizeof text);
	say("fork_child_setfl %s %s getfl_parent=%s getfd_parent=%s getfl_second=%s", wstatus(st),
	    text, getfl(a), getfd(a), getfl(b));
	st = child(child_close, text, sizeof text);
	say("fork_child_close %s %s getfd_parent=%s pos_parent=%lld", wstatus(st), text,
	    getfd(a), fpos(a));
	close(b);
	close(d);
	done(a, "offsets");
}

/* ---- 4. close-on-exec across execve ------------------------------------------ */

#define EXEC_REPORT "--fds-exec-report"

/* The re-executed image: F_GETFD of descriptors 3..15 and the offset of
 * 3, written to the report descriptor (argv[2]). */
static int exec_report(int argc, char **argv)
{
	int w = argc > 2 ? atoi(argv[2]) : -1;
	for (int fd = 3; fd <= 15; fd++)
		if (fd != w)
			report(w, "%s%d=%s", fd > 3 ? " " : "", fd, getfd(fd));
	report(w, " pos3=%lld", fpos(3));
	return 0;
}

static void cloexec_setup(void)
{
	closeall_below(20);                /* 20: the report pipe */
	int w = open(path("cloexec"), O_RDWR | O_CREAT | O_TRUNC, 0644);   /* 3: plain */
	pwrite(w, xs, 100, 0);
	lseek(w, 42, SEEK_SET);
	open(path("cloexec"), O_RDONLY | O_CLOEXEC);          /* 4 */
	dup3(3, 5, O_CLOEXEC);                                /* 5 */
	fcntl(3, F_DUPFD_CLOEXEC, 6);                         /* 6 */
	int f = open(path("cloexec"), O_RDONLY | O_CLOEXEC);  /* 7: cleared */
	fcntl(f, F_SETFD, 0);
	f = open(path("cloexec"), O_RDONLY);                  /* 8: set */
	fcntl(f, F_SETFD, FD_CLOEXEC);
	int p[2];
	pipe2(p, O_CLOEXEC);                                  /* 9, 10 */
	dup(4);                                               /* 11 */
	dup2(4, 12);                                          /* 12 */
	fcntl(4, F_DUPFD, 13);                                /* 13 */
	f = open(path("cloexec"), O_RDONLY);                  /* 14: ioctl FIOCLEX */
	ioctl(f, FIOCLEX);
	f = open(path("cloexec"), O_RDONLY | O_CLOEXEC);      /* 15: ioctl FIONCLEX */
	ioctl(f, FIONCLEX);
}

static void child_exec(int w)
{
	int rw = dup2(w, 20);
	cloexec_setup();
	char fdarg[16];
	snprintf(fdarg, sizeof fdarg, "%d", rw);
	char *argv[] = { (char *)self, EXEC_REPORT, fdarg, NULL };
	execv(self, argv);
	report(rw, "execv %s", rv(-1));
}

static void child_exec_fails(int w)
{
	int rw = dup2(w, 20);
	cloexec_setup();
	char *argv[] = { "nonexistent", NULL };
	int r = execv(path("nonexistent"), argv);
	report(rw, "execv=%s", rv(r));
	for (int fd = 3; fd <= 15; fd++)
		report(rw, " %d=%s", fd, getfd(fd));
}

static void cloexec(void)
{
	char text[1024];
	int st = child(child_exec, text, sizeof text);
	say("exec_cloexec %s %s", wstatus(st), text);
	st = child(child_exec_fails, text, sizeof text);
	say("exec_failed_keeps %s %s", wstatus(st), text);
	unlink(path("cloexec"));
}

/* ---- 5. RLIMIT_NOFILE ------------------------------------------------------- */

static void nofile(void)
{
	closeall();
	struct rlimit old, rl;
	getrlimit(RLIMIT_NOFILE, &old);
	rl = old;
	rl.rlim_cur = 10;
	say("nofile_setrlimit_10 ret=%s", rv(setrlimit(RLIMIT_NOFILE, &rl)));
	struct rlimit now;
	getrlimit(RLIMIT_NOFILE, &now);
	say("nofile_getrlimit soft=%lu hard_kept=%d", (unsigned long)now.rlim_cur,
	    now.rlim_max == old.rlim_max);
	int n = 0, f, last = -1;
	while ((f = open(path("nofile"), O_RDWR | O_CREAT, 0644)) >= 0 && n < 100) {
		last = f;
		n++;
	}
	say("nofile_open_until_fail opened=%d last=%d ret=%s", n, last, rv(f));
	say("nofile_dup ret=%s", rv(dup(3)));
	say("nofile_fcntl_dupfd_0 ret=%s", rv(fcntl(3, F_DUPFD, 0)));
	say("nofile_fcntl_dupfd_9 ret=%s", rv(fcntl(3, F_DUPFD, 9)));
	say("nofile_fcntl_dupfd_10 ret=%s", rv(fcntl(3, F_DUPFD, 10)));
	say("nofile_fcntl_dupfd_cloexec_10 ret=%s", rv(fcntl(3, F_DUPFD_CLOEXEC, 10)));
	close(9);
	say("nofile_fcntl_dupfd_9_free ret=%s", rv(fcntl(3, F_DUPFD, 9)));
	close(9);
	say("nofile_dup2_to_9 ret=%s", rv(dup2(3, 9)));
	say("nofile_dup2_to_10 ret=%s", rv(dup2(3, 10)));
	say("nofile_dup3_to_10 ret=%s", rv(dup3(3, 10, 0)));
	say("nofile_dup2_to_10_same ret=%s", rv(dup2(10, 10)));
	close(9);
	int p[2] = { -5, -5 };
	r1 = rv(pipe(p));
	say("nofile_pipe_one_free ret=%s p0=%d", r1, p[0]);
	say("nofile_after_pipe_open ret=%s", rv(open(path("nofile"), O_RDONLY)));
	close(8);
	close(9);
	r1 = rv(pipe(p));
	say("nofile_pipe_two_free ret=%s p0=%d p1=%d", r1, p[0], p[1]);
	/* a limit below descriptors already open: they stay usable */
	rl.rlim_cur = 5;
	r1 = rv(setrlimit(RLIMIT_NOFILE, &rl));
	say("nofile_setrlimit_5 ret=%s getfd9=%s", r1, getfd(9));
	say("nofile_5_dup ret=%s", rv(dup(9)));
	close(3);
	say("nofile_5_dup_after_close_3 ret=%s", rv(dup(9)));
	say("nofile_5_fcntl_dupfd_4 ret=%s", rv(fcntl(9, F_DUPFD, 4)));
	say("nofile_5_fcntl_dupfd_5 ret=%s", rv(fcntl(9, F_DUPFD, 5)));
	rl.rlim_cur = 0;
	say("nofile_setrlimit_0 ret=%s", rv(setrlimit(RLIMIT_NOFILE, &rl)));
	say("nofile_0_open ret=%s", rv(open(path("nofile"), O_RDONLY)));
	say("nofile_0_dup2_to_0 ret=%s", rv(dup2(9, 0)));
	struct rlimit bad = { old.rlim_max, old.rlim_max - 1 };
	say("nofile_soft_above_hard ret=%s", rv(setrlimit(RLIMIT_NOFILE, &bad)));
	say("nofile_restore ret=%s", rv(setrlimit(RLIMIT_NOFILE, &old)));
	say("nofile_restored_open ret=%s", rv(open(path("nofile"), O_RDONLY)));
	unlink(path("nofile"));
	closeall();
}

/* ---- 6. pipes ---------------------------------------------------------------- */

static int pw;                         /* a pipe's write end, for the children */

static volatile sig_atomic_t caught;
static void on_sig(int s) { (void)s; caught++; }

static void child_sigpipe_default(int w)
{
	report(w, "before");
	ssize_t r = write(pw, "x", 1);
	report(w, " ret=%s", rv(r));
}

static void child_sigpipe_ignored(int w)
{
	signal(SIGPIPE, SIG_IGN);
	ssize_t r = write(pw, "x", 1);
	report(w, "ret=%s", rv(r));
	r = write(pw, "", 0);
	report(w, " len0=%s", rv(r));
}

static void child_sigpipe_caught(int w)
{
	signal(SIGPIPE, on_sig);
	ssize_t r = write(pw, "xy", 2);
	report(w, "ret=%s caught=%d", rv(r), (int)caught);
}

static void child_sigpipe_blocked(int w)
{
	sigset_t s, p;
	sigemptyset(&s);
	sigaddset(&s, SIGPIPE);
	sigprocmask(SIG_BLOCK, &s, NULL);
	ssize_t r = write(pw, "x", 1);
	sigpending(&p);
	report(w, "ret=%s pending=%d", rv(r), sigismember(&p, SIGPIPE));
	signal(SIGPIPE, SIG_IGN);
}

static void child_write_len0(int w)
{
	ssize_t r = write(pw, "x", 0);
	report(w, "ret=%s", rv(r));
}

#define RECS 32
static void writer_records(char c)
{
	static char rec[PIPE_BUF];
	memset(rec, c, sizeof rec);
	int bad = 0;
	for (int i = 0; i < RECS; i++)
		if (write(pw, rec, sizeof rec) != sizeof rec)
			bad++;
	_exit(bad);
}

/* Drain a non-blocking read end: the bytes read. */
static long drain(int fd)
{
	static char buf[8192];
	long total = 0;
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		total += n;
	return total;
}

static void pipes(void)
{
	closeall();
	char text[1024], buf[64];
	int p[2];
	struct stat st;
	r1 = rv(pipe(p));
	say("pipe ret=%s p0=%d p1=%d", r1, p[0], p[1]);
	fstat(p[0], &st);
	say("pipe_fstat fifo=%d size=%lld getfl0=%s getfl1=%s getfd0=%s", S_ISFIFO(st.st_mode),
	    (long long)st.st_size, getfl(p[0]), getfl(p[1]), getfd(p[0]));
	say("pipe_read_len0 ret=%s", rv(read(p[0], buf, 0)));
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	r1 = rv(read(p[0], buf, 10));
	say("pipe_nonblock_read_empty ret=%s getfl=%s", r1, getfl(p[0]));
	say("pipe_write_3 ret=%s", rv(write(p[1], "abc", 3)));
	int n = -1;
	r1 = rv(ioctl(p[0], FIONREAD, &n));
	say("pipe_fionread ret=%s n=%d", r1, n);
	say("pipe_write_2 ret=%s", rv(write(p[1], "de", 2)));
	say("pipe_read_10 ret=%s", rv(read(p[0], buf, 10)));
	say("pipe_read_again ret=%s", rv(read(p[0], buf, 10)));
	say("pipe_write_read_end ret=%s", rv(write(p[0], "x", 1)));
	say("pipe_read_write_end ret=%s", rv(read(p[1], buf, 1)));
	say("pipe_lseek_read_end ret=%s", rv(lseek(p[0], 0, SEEK_SET)));
	say("pipe_lseek_write_end_cur ret=%s", rv(lseek(p[1], 0, SEEK_CUR)));
	say("pipe_pread ret=%s", rv(pread(p[0], buf, 1, 0)));
	say("pipe_pwrite ret=%s", rv(pwrite(p[1], "x", 1, 0)));
	say("pipe_getpipe_sz ret=%s ret_write_end=%s", rv(fcntl(p[0], F_GETPIPE_SZ)),
	    rv(fcntl(p[1], F_GETPIPE_SZ)));
	say("pipe_setpipe_sz_1 ret=%s", rv(fcntl(p[1], F_SETPIPE_SZ, 1)));
	const char *set = rv(fcntl(p[0], F_SETPIPE_SZ, 10000));
	say("pipe_setpipe_sz_10000 ret=%s get=%s", set, rv(fcntl(p[1], F_GETPIPE_SZ)));
	static char two_pages[4097];
	say("pipe_setpipe_sz_write_4097 ret=%s", rv(write(p[1], two_pages, sizeof two_pages)));
	say("pipe_setpipe_sz_busy ret=%s", rv(fcntl(p[0], F_SETPIPE_SZ, 4096)));
	say("pipe_setpipe_sz_read ret=%s", rv(read(p[0], two_pages, sizeof two_pages)));
	say("pipe_setpipe_sz_0 ret=%s", rv(fcntl(p[0], F_SETPIPE_SZ, 0)));
	say("pipe_setpipe_sz_huge ret=%s", rv(fcntl(p[0], F_SETPIPE_SZ, 0x80000001u)));
	int dirfd = open(".", O_RDONLY);
	say("pipe_setpipe_sz_dir ret=%s", rv(fcntl(dirfd, F_SETPIPE_SZ, 4096)));
	close(dirfd);
	write(p[1], "fg", 2);
	close(p[1]);
	say("pipe_no_writer_read ret=%s", rv(read(p[0], buf, 10)));
	say("pipe_no_writer_read_eof ret=%s", rv(read(p[0], buf, 10)));
	fcntl(p[0], F_SETFL, 0);
	say("pipe_no_writer_blocking_read_eof ret=%s", rv(read(p[0], buf, 10)));
	close(p[0]);

	/* EOF when the last writer, in a child, goes */
	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		write(p[1], "child", 5);
		_exit(0);
	}
	close(p[1]);
	ssize_t r = read(p[0], buf, 5);
	say("pipe_child_wrote ret=%s", rv(r));
	int s = 0;
	waitpid(pid, &s, 0);
	say("pipe_child_gone %s read=%s", wstatus(s), rv(read(p[0], buf, 5)));
	close(p[0]);

	/* no reader: EPIPE and SIGPIPE */
	static const struct { const char *key; void (*fn)(int); } epipe[] = {
		{ "sigpipe_default", child_sigpipe_default },
		{ "sigpipe_ignored", child_sigpipe_ignored },
		{ "sigpipe_caught", child_sigpipe_caught },
		{ "sigpipe_blocked", child_sigpipe_blocked },
		{ "sigpipe_write_len0", child_write_len0 },
	};
	for (unsigned i = 0; i < sizeof epipe / sizeof epipe[0]; i++) {
		pipe(p);
		close(p[0]);
		pw = p[1];
		s = child(epipe[i].fn, text, sizeof text);
		say("%s %s %s", epipe[i].key, wstatus(s), text);
		close(p[1]);
	}

	/* PIPE_BUF atomicity: two writers of PIPE_BUF-byte records */
	pipe(p);
	pw = p[1];
	pid_t wa = fork();
	if (wa == 0)
		writer_records('A');
	pid_t wb = fork();
	if (wb == 0)
		writer_records('B');
	close(p[1]);
	static char rec[PIPE_BUF];
	int whole = 0, torn = 0, na = 0, nb = 0;
	for (;;) {
		size_t got = 0;
		while (got < sizeof rec && (r = read(p[0], rec + got, sizeof rec - got)) > 0)
			got += r;
		if (got == 0)
			break;
		int same = got == sizeof rec;
		for (size_t i = 1; i < got && same; i++)
			same = rec[i] == rec[0];
		whole += same;
		torn += !same;
		na += same && rec[0] == 'A';
		nb += same && rec[0] == 'B';
	}
	int sa = 0, sb = 0;
	waitpid(wa, &sa, 0);
	waitpid(wb, &sb, 0);
	say("pipe_buf=%d records whole=%d torn=%d A=%d B=%d writers %s", PIPE_BUF, whole, torn, na,
	    nb, wstatus(sa | sb));
	close(p[0]);

	/* a full pipe, O_NONBLOCK: the capacity, partial writes, EAGAIN */
	say("full_pipe2_nonblock ret=%s", rv(pipe2(p, O_NONBLOCK)));
	static char big[100000];
	memset(big, 'z', sizeof big);
	say("full_write_100000 ret=%s", rv(write(p[1], big, sizeof big)));
	n = -1;
	ioctl(p[0], FIONREAD, &n);
	say("full_fionread n=%d", n);
	say("full_write_1 ret=%s", rv(write(p[1], big, 1)));
	say("full_write_4096 ret=%s", rv(write(p[1], big, 4096)));
	say("full_read_1 ret=%s", rv(read(p[0], buf, 1)));
	say("full_less_1_write_1 ret=%s", rv(write(p[1], big, 1)));
	say("full_read_4095 ret=%s", rv(read(p[0], big, 4095)));
	say("full_less_4096_write_1 ret=%s", rv(write(p[1], big, 1)));
	say("full_less_4095_write_4096 ret=%s", rv(write(p[1], big, 4096)));
	say("full_less_4095_write_4095 ret=%s", rv(write(p[1], big, 4095)));
	say("full_again_write_1 ret=%s", rv(write(p[1], big, 1)));
	say("full_drain total=%ld", drain(p[0]));
	say("empty_write_1 ret=%s", rv(write(p[1], big, 1)));
	say("one_byte_write_100000 ret=%s", rv(write(p[1], big, sizeof big)));
	say("one_byte_drain total=%ld", drain(p[0]));
	say("empty_write_5000 ret=%s", rv(write(p[1], big, 5000)));
	say("5000_write_100000 ret=%s", rv(write(p[1], big, sizeof big)));
	say("5000_drain total=%ld", drain(p[0]));
	for (int i = 0; i < 20; i++)
		write(p[1], big, 100);
	say("20x100_write_100000 ret=%s", rv(write(p[1], big, sizeof big)));
	say("20x100_drain total=%ld", drain(p[0]));
	close(p[0]);
	close(p[1]);

	/* pipe2's flags */
	static const struct { const char *key; int flags; } p2[] = {
		{ "0", 0 }, { "cloexec", O_CLOEXEC }, { "nonblock", O_NONBLOCK },
		{ "cloexec_nonblock", O_CLOEXEC | O_NONBLOCK }, { "append", O_APPEND },
		{ "rdwr", O_RDWR }, { "trunc", O_TRUNC }, { "minus_1", -1 },
	};
	for (unsigned i = 0; i < sizeof p2 / sizeof p2[0]; i++) {
		p[0] = p[1] = -5;
		r = pipe2(p, p2[i].flags);
		r1 = rv(r);
		say("pipe2_%s ret=%s p0=%d p1=%d getfd=%s,%s getfl=%s,%s", p2[i].key, r1, p[0], p[1],
		    getfd(p[0]), getfd(p[1]), getfl(p[0]), getfl(p[1]));
		if (r == 0) {
			close(p[0]);
			close(p[1]);
		}
	}
	r = pipe(bad_ptr);
	r1 = rv(r);
	say("pipe_efault ret=%s next_fd=%s", r1, rv(dup(0)));
	closeall();
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], EXEC_REPORT))
		return exec_report(argc, argv);
	self = argv[0];
	conform_start("fds", argc, argv);
	dups();
	fcntls();
	offsets();
	cloexec();
	nofile();
	pipes();
	conform_end();
	return 0;
}
