/* leases.c - conformance: fcntl's leases, open file description locks and
 * SIGIO's receiver (issue 23).  Leases (F_SETLEASE, F_GETLEASE): which
 * opens elsewhere refuse a read or a write lease (EAGAIN), removing one
 * that is not there, a lease on a directory; a lease broken by another
 * process's open: the holder's SIGIO, F_GETLEASE's "what it must become",
 * a non-blocking opener's EWOULDBLOCK, a blocked opener released by the
 * holder's downgrade or removal; /proc/sys/fs/lease-break-time.  OFD
 * locks (F_OFD_SETLK, F_OFD_SETLKW, F_OFD_GETLK): two open files of one
 * process conflict, a POSIX lock sees them, l_pid must be 0, the holder's
 * l_pid shows -1, a close of another descriptor keeps them, the plain
 * fcntl call refuses them.  F_SETOWN, F_GETOWN, F_SETOWN_EX, F_GETOWN_EX,
 * F_SETSIG, F_GETSIG and O_ASYNC on a pipe: the signal a write sends.
 * Prints observations only (conform.h): no pids.
 */
#include "conform.h"
#include <sys/syscall.h>
#include <time.h>

static int getlease(int fd)
{
	return fcntl(fd, F_GETLEASE);
}

static const char *ltype(int t)
{
	return t == F_RDLCK ? "R" : t == F_WRLCK ? "W" : t == F_UNLCK ? "U" : rv(t);
}

/* wait up to 5 s for SIGIO (blocked): its name, or "none" */
static const char *wait_sig(int sig)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	struct timespec ts = { 5, 0 };
	int r = sigtimedwait(&s, NULL, &ts);
	return r < 0 ? "none" : signame(r);
}

static void lease_opens(void)
{
	int fd = open(path("ls"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	say("rdlck_on_rdwr %s", rv(fcntl(fd, F_SETLEASE, F_RDLCK)));
	say("wrlck_on_only_rdwr %s", rv(fcntl(fd, F_SETLEASE, F_WRLCK)));
	say("getlease %s", ltype(getlease(fd)));
	say("unlck %s", rv(fcntl(fd, F_SETLEASE, F_UNLCK)));
	say("unlck_again %s", rv(fcntl(fd, F_SETLEASE, F_UNLCK)));
	say("getlease_none %s", ltype(getlease(fd)));
	close(fd);
	int r1 = open(path("ls"), O_RDONLY), r2 = open(path("ls"), O_RDONLY);
	say("rdlck_two_readers %s", rv(fcntl(r1, F_SETLEASE, F_RDLCK)));
	say("rdlck_second_reader %s", rv(fcntl(r2, F_SETLEASE, F_RDLCK)));
	say("wrlck_with_other_reader %s", rv(fcntl(r1, F_SETLEASE, F_WRLCK)));
	fcntl(r2, F_SETLEASE, F_UNLCK);
	say("wrlck_with_reader_lease_gone %s", rv(fcntl(r1, F_SETLEASE, F_WRLCK)));
	close(r2);
	say("wrlck_only_open %s", rv(fcntl(r1, F_SETLEASE, F_WRLCK)));
	say("getlease_w %s", ltype(getlease(r1)));
	say("downgrade %s", rv(fcntl(r1, F_SETLEASE, F_RDLCK)));
	say("getlease_r %s", ltype(getlease(r1)));
	int w = open(path("ls"), O_WRONLY | O_NONBLOCK);
	say("writer_open_nonblock %s", rv(w));
	say("own_open_signal %s", wait_sig(SIGIO));    /* the holder's own open breaks it too */
	say("getlease_breaking %s", ltype(getlease(r1)));
	close(r1);
	w = open(path("ls"), O_WRONLY | O_NONBLOCK);
	say("writer_open_after_close %s", w < 0 ? rv(w) : "ok");
	int r = open(path("ls"), O_RDONLY);
	say("rdlck_with_writer %s", rv(fcntl(r, F_SETLEASE, F_RDLCK)));
	close(w);
	close(r);
	int d = open(c_dir, O_RDONLY | O_DIRECTORY);
	say("lease_on_dir %s", rv(fcntl(d, F_SETLEASE, F_RDLCK)));
	say("bad_type %s", rv(fcntl(d, F_SETLEASE, 7)));
	close(d);
	unlink(path("ls"));
}

/* the opener: the child's open (blocking or not), what it saw */
static int open_flags;
static void opener(int wfd)
{
	int fd = open(path("lb"), open_flags);
	report(wfd, "%s", fd < 0 ? rv(fd) : "ok");
}

static void lease_break(int lease, int flags, const char *name, int holder_does)
{
	int fd = open(path("lb"), O_RDONLY);
	say("%s_set %s", name, rv(fcntl(fd, F_SETLEASE, lease)));
	open_flags = flags;
	char text[64];
	pid_t pid = fork();
	if (pid == 0) {
		opener(1 /* unused */);
		_exit(0);
	}
	/* the child's open breaks the lease: SIGIO comes here */
	say("%s_signal %s", name, wait_sig(SIGIO));
	say("%s_getlease %s", name, ltype(getlease(fd)));
	if (holder_does >= 0)
		say("%s_holder_sets_%s %s", name, ltype(holder_does),
		    rv(fcntl(fd, F_SETLEASE, holder_does)));
	int st;
	waitpid(pid, &st, 0);
	say("%s_opener_exit %s", name, wstatus(st));
	say("%s_getlease_after %s", name, ltype(getlease(fd)));
	close(fd);
	(void)text;
}

/* the same, the opener reporting through a pipe */
static void lease_break_report(int lease, int flags, const char *name, int holder_does)
{
	int fd = open(path("lb"), O_RDONLY);
	say("%s_set %s", name, rv(fcntl(fd, F_SETLEASE, lease)));
	open_flags = flags;
	int p[2];
	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		opener(p[1]);
		_exit(0);
	}
	close(p[1]);
	say("%s_signal %s", name, wait_sig(SIGIO));
	say("%s_getlease %s", name, ltype(getlease(fd)));
	if (holder_does >= 0)
		say("%s_holder_sets_%s %s", name, ltype(holder_does),
		    rv(fcntl(fd, F_SETLEASE, holder_does)));
	char text[64] = "";
	ssize_t n = read(p[0], text, sizeof text - 1);
	text[n > 0 ? n : 0] = 0;
	close(p[0]);
	int st;
	waitpid(pid, &st, 0);
	say("%s_opener %s", name, text);
	say("%s_getlease_after %s", name, ltype(getlease(fd)));
	close(fd);
}

static void lease_breaks(void)
{
	close(open(path("lb"), O_RDWR | O_CREAT | O_TRUNC, 0644));
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGIO);
	sigprocmask(SIG_BLOCK, &s, NULL);
	lease_break_report(F_WRLCK, O_RDONLY | O_NONBLOCK, "w_by_reader_nb", F_UNLCK);
	lease_break_report(F_RDLCK, O_WRONLY | O_NONBLOCK, "r_by_writer_nb", F_UNLCK);
	lease_break_report(F_WRLCK, O_RDONLY, "w_by_reader", F_RDLCK);
	lease_break_report(F_WRLCK, O_RDWR, "w_by_writer", F_UNLCK);
	lease_break_report(F_RDLCK, O_WRONLY, "r_by_writer", F_UNLCK);
	(void)lease_break;
	/* a write lease broken by a writer: the holder may not downgrade */
	int fd = open(path("lb"), O_RDONLY);
	fcntl(fd, F_SETLEASE, F_WRLCK);
	int w = open(path("lb"), O_WRONLY | O_NONBLOCK);
	say("w_by_writer_nb_again %s", rv(w));
	wait_sig(SIGIO);
	say("downgrade_while_writer_waits %s", rv(fcntl(fd, F_SETLEASE, F_RDLCK)));
	say("remove_while_breaking %s", rv(fcntl(fd, F_SETLEASE, F_UNLCK)));
	close(fd);
	unlink(path("lb"));
	/* the break time, as Linux's sysctl: read, written, read back */
	FILE *f = fopen("/proc/sys/fs/lease-break-time", "r");
	int old = -1;
	if (f) {
		fscanf(f, "%d", &old);
		fclose(f);
	}
	say("lease_break_time %d", old);
	f = fopen("/proc/sys/fs/lease-break-time", "w");
	if (f) {
		fprintf(f, "%d", 7);
		fclose(f);
	}
	f = fopen("/proc/sys/fs/lease-break-time", "r");
	int now = -1;
	if (f) {
		fscanf(f, "%d", &now);
		fclose(f);
	}
	say("lease_break_time_written %d", now);
	f = fopen("/proc/sys/fs/lease-break-time", "w");
	if (f) {
		fprintf(f, "%d", old);
		fclose(f);
	}
}

/* ---- OFD locks ------------------------------------------------------------ */

static const char *ofd(int fd, int cmd, int type, long long start, long long len, int pid)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len,
			    .l_pid = pid };
	return rv(fcntl(fd, cmd, &fl));
}

static void ofd_cases(void)
{
	int a = fresh("ofd", 100, 0), b = open(path("ofd"), O_RDWR);
	say("ofd_w_a %s", ofd(a, F_OFD_SETLK, F_WRLCK, 0, 10, 0));
	say("ofd_w_b_overlap %s", ofd(b, F_OFD_SETLK, F_WRLCK, 5, 10, 0));
	say("ofd_r_b_overlap %s", ofd(b, F_OFD_SETLK, F_RDLCK, 5, 10, 0));
	say("ofd_w_b_apart %s", ofd(b, F_OFD_SETLK, F_WRLCK, 10, 10, 0));
	say("posix_r_over_ofd %s", ofd(b, F_SETLK, F_RDLCK, 0, 1, 0));
	say("ofd_pid_nonzero %s", ofd(b, F_OFD_SETLK, F_RDLCK, 50, 1, 1));
	say("ofd_getlk_pid_nonzero %s", ofd(b, F_OFD_GETLK, F_RDLCK, 0, 1, 1));
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
	int r = fcntl(b, F_OFD_GETLK, &fl);
	say("ofd_getlk %s type=%d start=%lld len=%lld pid=%d", rv(r), fl.l_type,
	    (long long)fl.l_start, (long long)fl.l_len, fl.l_pid);
	say("ofd_bad_type %s", ofd(b, F_OFD_SETLK, 9, 0, 1, 0));
	/* the plain (32-bit struct flock) call does not take them */
	struct { short t, w; long s, l; int p; } f32 = { F_RDLCK, SEEK_SET, 0, 1, 0 };
	say("fcntl_not_64 %s", rv(syscall(SYS_fcntl, b, F_OFD_GETLK, &f32)));
	/* closing another descriptor of the file keeps them (POSIX locks go) */
	int c = open(path("ofd"), O_RDWR);
	close(c);
	say("after_other_close %s", ofd(b, F_OFD_SETLK, F_WRLCK, 0, 1, 0));
	close(a);
	say("after_holder_close %s", ofd(b, F_OFD_SETLK, F_WRLCK, 0, 1, 0));
	/* F_OFD_SETLKW waits for the other file's lock */
	int d = open(path("ofd"), O_RDWR);
	if (fork() == 0) {
		usleep(200000);
		close(b);              /* b's locks go with its last close */
		_exit(0);
	}
	close(b);
	say("ofd_setlkw_waits %s", ofd(d, F_OFD_SETLKW, F_WRLCK, 0, 0, 0));
	wait(NULL);
	done(d, "ofd");
}

/* ---- SIGIO's receiver ------------------------------------------------------- */

/* a child in a process group of its own makes it the owner */
static int pgrp_fd;
static void pgrp_owner(int wfd)
{
	setpgid(0, 0);
	report(wfd, "setown=%s ", rv(fcntl(pgrp_fd, F_SETOWN, -getpgrp())));
	report(wfd, "getown_is_minus_pgrp=%d ", fcntl(pgrp_fd, F_GETOWN) == -getpgrp());
	struct f_owner_ex ex = { -1, -1 };
	fcntl(pgrp_fd, F_GETOWN_EX, &ex);
	report(wfd, "type=%d pid_is_pgrp=%d", ex.type, ex.pid == getpgrp());
}

static void owner_cases(void)
{
	int p[2];
	pipe(p);
	struct f_owner_ex ex = { -1, -1 };
	const char *r0 = rv(fcntl(p[0], F_GETOWN_EX, &ex));
	say("getown_ex_fresh %s type=%d pid=%d", r0, ex.type, ex.pid);
	say("getown_fresh %s", rv(fcntl(p[0], F_GETOWN)));
	say("getsig_fresh %s", rv(fcntl(p[0], F_GETSIG)));
	say("setown_self %s", rv(fcntl(p[0], F_SETOWN, getpid())));
	say("getown_is_self %d", fcntl(p[0], F_GETOWN) == getpid());
	fcntl(p[0], F_GETOWN_EX, &ex);
	say("getown_ex_type %d self=%d", ex.type, ex.pid == getpid());
	char text[128];
	pgrp_fd = p[0];
	int st = child(pgrp_owner, text, sizeof text);
	say("pgrp_owner %s %s", text, wstatus(st));
	ex = (struct f_owner_ex){ F_OWNER_TID, (pid_t)syscall(SYS_gettid) };
	say("setown_ex_tid %s", rv(fcntl(p[0], F_SETOWN_EX, &ex)));
	ex = (struct f_owner_ex){ 7, getpid() };
	say("setown_ex_bad_type %s", rv(fcntl(p[0], F_SETOWN_EX, &ex)));
	ex = (struct f_owner_ex){ F_OWNER_PID, 0x3ffffff0 };
	say("setown_ex_no_such %s", rv(fcntl(p[0], F_SETOWN_EX, &ex)));
	say("setown_no_such %s", rv(fcntl(p[0], F_SETOWN, 0x3ffffff0)));
	say("setsig_bad %s", rv(fcntl(p[0], F_SETSIG, 99)));
	/* O_ASYNC: a write to the pipe signals the reader's owner */
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGIO);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_BLOCK, &s, NULL);
	fcntl(p[0], F_SETOWN, getpid());
	say("setfl_async %s", rv(fcntl(p[0], F_SETFL, O_ASYNC)));
	say("getfl_async %d", (fcntl(p[0], F_GETFL) & O_ASYNC) != 0);
	write(p[1], "a", 1);
	say("write_signal %s", wait_sig(SIGIO));
	say("setsig_usr1 %s", rv(fcntl(p[0], F_SETSIG, SIGUSR1)));
	say("getsig %s", rv(fcntl(p[0], F_GETSIG)));
	write(p[1], "b", 1);
	siginfo_t si;
	struct timespec ts = { 5, 0 };
	int r = sigtimedwait(&s, &si, &ts);
	say("write_signal_setsig %s code=%d", r < 0 ? "none" : signame(r), r < 0 ? 0 : si.si_code);
	fcntl(p[0], F_SETFL, 0);
	write(p[1], "c", 1);
	ts.tv_sec = 0;
	ts.tv_nsec = 200000000;
	r = sigtimedwait(&s, NULL, &ts);
	say("write_signal_async_off %s", r < 0 ? "none" : signame(r));
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	close(p[0]);
	close(p[1]);
}

int main(int argc, char **argv)
{
	conform_start("leases", argc, argv);
	sigset_t s;                            /* SIGIO is waited for, never delivered */
	sigemptyset(&s);
	sigaddset(&s, SIGIO);
	sigprocmask(SIG_BLOCK, &s, NULL);
	lease_opens();
	lease_breaks();
	ofd_cases();
	owner_cases();
	conform_end();
	return 0;
}
