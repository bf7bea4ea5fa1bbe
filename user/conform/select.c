/* select.c - conformance: the select family (fs/select.c).  Each check
 * runs through the five ways an i386 program selects: glibc's select(),
 * the old one-argument select (82, a struct of the five arguments),
 * _newselect (142, struct timeval), pselect6 (308, 32-bit timespec) and
 * pselect6_time64 (413, 64-bit timespec).  Readiness of a regular file
 * (read and write), of a pipe (empty, with data, full, its writer gone),
 * the result sets replacing the caller's (bits above nfds ignored), the
 * count (an fd in two sets counts twice); the errors (nfds < 0, a closed
 * fd in a set, bad set and time-out pointers, a bad time-out value, a
 * result set that cannot be written); the time-out written back (zero
 * after it expired, never more than asked; not written for {0, 0});
 * pselect's signal mask (a blocked pending signal unblocked by it is
 * handled, EINTR, and the old mask is back after); a signal during an
 * endless select (EINTR).  Prints observations only (conform.h).
 */
#include "conform.h"
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>

#define PG 4096

struct ts64 { long long sec, nsec; };
struct ts32 { long sec, nsec; };
struct tv32 { long sec, usec; };

static int variant;                    /* 0 glibc, 1 select, 2 _newselect, 3 pselect6, 4 pselect6_time64 */
static const char *vname[] = { "glibc", "select", "newselect", "pselect6", "pselect6_time64" };

/* The time-out as microseconds in and out; tv == NULL: none.  raw_to:
 * pass this pointer as the time-out itself (bad pointers). */
static long do_sel(int n, fd_set *r, fd_set *w, fd_set *e, struct tv32 *tv, void *raw_to,
		   const sigset_t *mask)
{
	long ret;
	switch (variant) {
	case 0:
		return select(n, r, w, e, (struct timeval *)tv);
	case 1: {
		long a[5] = { n, (long)r, (long)w, (long)e, (long)(raw_to ? raw_to : tv) };
		return syscall(SYS_select, a);
	}
	case 2:
		return syscall(SYS__newselect, n, r, w, e, raw_to ? raw_to : tv);
	case 3: {
		struct ts32 ts;
		unsigned long pack[2] = { (unsigned long)mask, 8 };
		if (tv)
			ts.sec = tv->sec, ts.nsec = tv->usec * 1000;
		ret = syscall(SYS_pselect6, n, r, w, e, raw_to ? raw_to : tv ? (void *)&ts : NULL,
			      mask ? pack : NULL);
		if (tv)
			tv->sec = ts.sec, tv->usec = ts.nsec / 1000;
		return ret;
	}
	default: {
		struct ts64 ts;
		unsigned long pack[2] = { (unsigned long)mask, 8 };
		if (tv)
			ts.sec = tv->sec, ts.nsec = tv->usec * 1000;
		ret = syscall(413, n, r, w, e, raw_to ? raw_to : tv ? (void *)&ts : NULL,
			      mask ? pack : NULL);
		if (tv)
			tv->sec = ts.sec, tv->usec = ts.nsec / 1000;
		return ret;
	}
	}
}

/* The fds of a set below n, as text: "3,5" or "-". */
static const char *fds(fd_set *s, int n)
{
	static char ring[4][64];
	static int k;
	char *b = ring[k++ & 3];
	int o = 0;
	b[0] = 0;
	for (int i = 0; i < n; i++)
		if (FD_ISSET(i, s))
			o += snprintf(b + o, 64 - o, "%s%d", o ? "," : "", i);
	return o ? b : "-";
}

static void readiness(void)
{
	const char *v = vname[variant];
	int f = fresh("selfile", 10, 0);
	int p[2];
	pipe(p);
	fd_set r, w, e;
	struct tv32 zero = { 0, 0 };
	int n = (p[1] > f ? p[1] : f) + 1;

	FD_ZERO(&r); FD_ZERO(&w); FD_ZERO(&e);
	FD_SET(f, &r); FD_SET(f, &w); FD_SET(f, &e);
	long ret = do_sel(n, &r, &w, &e, &zero, NULL, NULL);
	say("%s file rwe %s r=%s w=%s e=%s", v, rv(ret), fds(&r, n), fds(&w, n), fds(&e, n));
	say("%s file zero timeout kept %ld.%06ld", v, zero.sec, zero.usec);

	FD_ZERO(&r); FD_ZERO(&w);
	FD_SET(p[0], &r); FD_SET(p[1], &w); FD_SET(p[1], &r);
	ret = do_sel(n, &r, &w, NULL, &zero, NULL, NULL);
	say("%s pipe empty %s r=%s w=%s", v, rv(ret), fds(&r, n), fds(&w, n));

	write(p[1], "x", 1);
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	ret = do_sel(n, &r, NULL, NULL, NULL, NULL, NULL);
	say("%s pipe data forever %s r=%s", v, rv(ret), fds(&r, n));

	/* A bit above nfds, for a closed fd in the same word: ignored. */
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	FD_SET(p[0] + 20, &r);
	ret = do_sel(p[0] + 1, &r, NULL, NULL, &zero, NULL, NULL);
	say("%s bit above nfds %s r=%s", v, rv(ret), fds(&r, p[0] + 21));

	/* nfds far past any table: as large as the table. */
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	ret = do_sel(1 << 20, &r, NULL, NULL, &zero, NULL, NULL);
	say("%s huge nfds %s r=%s", v, rv(ret), fds(&r, n));

	/* The writer gone: readable (end of file) after the data is read. */
	char c;
	read(p[0], &c, 1);
	close(p[1]);
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	ret = do_sel(n, &r, NULL, NULL, &zero, NULL, NULL);
	say("%s pipe no writer %s r=%s", v, rv(ret), fds(&r, n));
	close(p[0]);

	/* A full pipe and an empty one with a 20 ms time-out: 0, sets
	 * cleared, the time-out written back as 0 (glibc's too). */
	pipe(p);
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	while (write(p[1], xs, sizeof xs) > 0)
		;
	while (write(p[1], xs, 1) > 0)
		;
	FD_ZERO(&r); FD_ZERO(&w);
	FD_SET(p[1], &w);
	struct tv32 t = { 0, 20000 };
	ret = do_sel(p[1] + 1, NULL, &w, NULL, &t, NULL, NULL);
	say("%s pipe full %s w=%s left %ld.%06ld", v, rv(ret), fds(&w, p[1] + 1), t.sec, t.usec);
	close(p[0]);
	close(p[1]);
	pipe(p);
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	t.sec = 0, t.usec = 30000;
	ret = do_sel(p[0] + 1, &r, NULL, NULL, &t, NULL, NULL);
	say("%s pipe empty wait %s r=%s left %ld.%06ld", v, rv(ret), fds(&r, p[0] + 1), t.sec, t.usec);
	/* Ready at once: the time left is at most what was asked. */
	FD_ZERO(&w);
	FD_SET(p[1], &w);
	t.sec = 5, t.usec = 0;
	ret = do_sel(p[1] + 1, NULL, &w, NULL, &t, NULL, NULL);
	say("%s ready at once %s left<=5s %d left>=4s %d", v, rv(ret),
	    t.sec < 5 || (t.sec == 5 && t.usec == 0), t.sec >= 4);
	close(p[0]);
	close(p[1]);
	done(f, "selfile");
}

static void errors(void)
{
	const char *v = vname[variant];
	int p[2];
	pipe(p);
	int fd = open(path("selclosed"), O_RDWR | O_CREAT, 0644);
	close(fd);
	unlink(path("selclosed"));
	fd_set r, w, closed;
	struct tv32 t = { 0, 1000 };
	FD_ZERO(&r); FD_ZERO(&w); FD_ZERO(&closed);
	FD_SET(p[0], &r); FD_SET(p[1], &w); FD_SET(fd, &closed);
	int n = (p[1] > fd ? p[1] : fd) + 1;

	say("%s nfds -1 %s", v, rv(do_sel(-1, &r, &w, NULL, &t, NULL, NULL)));
	t.usec = 1000;
	say("%s closed in r %s", v, rv(do_sel(n, &closed, &w, NULL, &t, NULL, NULL)));
	say("%s closed in w %s", v, rv(do_sel(n, &r, &closed, NULL, &t, NULL, NULL)));
	say("%s closed in e %s", v, rv(do_sel(n, &r, &w, &closed, &t, NULL, NULL)));
	say("%s closed zero timeout %s", v, rv(do_sel(n, &closed, NULL, NULL, &(struct tv32){0, 0}, NULL, NULL)));
	void *bad = (void *)0xc0000000;
	say("%s bad r %s", v, rv(do_sel(n, bad, &w, NULL, &t, NULL, NULL)));
	say("%s bad w %s", v, rv(do_sel(n, &r, bad, NULL, &t, NULL, NULL)));
	say("%s bad e %s", v, rv(do_sel(n, &r, &w, bad, &t, NULL, NULL)));
	if (variant)                   /* glibc's select reads the time-out itself: SIGSEGV */
		say("%s bad timeout %s", v, rv(do_sel(n, &r, &w, NULL, NULL, bad, NULL)));
	/* A bad time-out is found before a bad nfds. */
	if (variant)
		say("%s bad timeout nfds -1 %s", v, rv(do_sel(-1, &r, &w, NULL, NULL, bad, NULL)));
	t.sec = -1, t.usec = 0;
	say("%s timeout sec -1 %s", v, rv(do_sel(n, &r, &w, NULL, &t, NULL, NULL)));
	t.sec = 0, t.usec = -1;
	say("%s timeout usec -1 %s", v, rv(do_sel(n, &r, &w, NULL, &t, NULL, NULL)));
	if (variant == 1 || variant == 2) {
		/* A timeval's whole seconds in tv_usec are carried. */
		t.sec = 0, t.usec = 2500000;
		FD_ZERO(&w); FD_SET(p[1], &w);
		long ret = do_sel(n, NULL, &w, NULL, &t, NULL, NULL);
		say("%s timeout usec 2500000 %s left>=2s %d", v, rv(ret), t.sec >= 2);
	}
	/* Result sets in read-only memory: EFAULT. */
	fd_set *ro = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	FD_ZERO(ro);
	FD_SET(p[1], ro);
	mprotect(ro, PG, PROT_READ);
	t.sec = 0, t.usec = 0;
	say("%s readonly w %s", v, rv(do_sel(n, NULL, ro, NULL, &t, NULL, NULL)));
	/* A time-out in read-only memory: the count, not written back. */
	if (variant == 1 || variant == 2) {
		FD_ZERO(&w); FD_SET(p[1], &w);
		struct tv32 *rot = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		rot->sec = 1, rot->usec = 0;
		mprotect(rot, PG, PROT_READ);
		say("%s readonly timeout %s", v, rv(do_sel(n, NULL, &w, NULL, NULL, rot, NULL)));
		munmap(rot, PG);
	}
	munmap(ro, PG);
	close(p[0]);
	close(p[1]);
}

static volatile int got;
static void on_usr1(int s) { (void)s; got++; }

/* pselect's mask, through the raw calls and sigset pack errors. */
static void pselect_mask(void)
{
	for (int v = 3; v <= 4; v++) {
		variant = v;
		int p[2];
		pipe(p);
		fd_set r;
		struct sigaction sa = { .sa_handler = on_usr1 };
		sigaction(SIGUSR1, &sa, NULL);
		sigset_t block, empty, now;
		sigemptyset(&block);
		sigaddset(&block, SIGUSR1);
		sigemptyset(&empty);
		sigprocmask(SIG_BLOCK, &block, NULL);
		raise(SIGUSR1);
		got = 0;
		FD_ZERO(&r);
		FD_SET(p[0], &r);
		long ret = do_sel(p[0] + 1, &r, NULL, NULL, NULL, NULL, &empty);
		sigprocmask(SIG_BLOCK, NULL, &now);
		say("%s pending unblocked by mask %s handled %d blocked after %d", vname[v], rv(ret),
		    got, sigismember(&now, SIGUSR1));
		/* The mask blocking it again: not handled, the time-out runs out. */
		got = 0;
		raise(SIGUSR1);
		struct tv32 t = { 0, 10000 };
		ret = do_sel(p[0] + 1, &r, NULL, NULL, &t, NULL, &block);
		say("%s pending still blocked %s handled %d", vname[v], rv(ret), got);
		sigprocmask(SIG_UNBLOCK, &block, NULL);
		say("%s handled after unblock %d", vname[v], got);
		/* Wrong size, bad mask pointer, bad pack pointer. */
		long nr = v == 3 ? SYS_pselect6 : 413;
		struct ts64 ts64 = { 0, 0 };
		struct ts32 ts32 = { 0, 0 };
		void *ts = v == 3 ? (void *)&ts32 : (void *)&ts64;
		unsigned long pack[2] = { (unsigned long)&empty, 16 };
		say("%s sigsetsize 16 %s", vname[v], rv(syscall(nr, 0, NULL, NULL, NULL, ts, pack)));
		pack[0] = 0;
		say("%s null mask size 16 %s", vname[v], rv(syscall(nr, 0, NULL, NULL, NULL, ts, pack)));
		pack[0] = 0xc0000000, pack[1] = 8;
		say("%s bad mask %s", vname[v], rv(syscall(nr, 0, NULL, NULL, NULL, ts, pack)));
		say("%s bad pack %s", vname[v], rv(syscall(nr, 0, NULL, NULL, NULL, ts, (void *)0xc0000000)));
		ts32.nsec = 1000000000;
		ts64.nsec = 1000000000;
		say("%s nsec 1e9 %s", vname[v], rv(syscall(nr, 0, NULL, NULL, NULL, ts, NULL)));
		ts32.nsec = 999999999;
		ts64.nsec = 999999999;
		ts32.sec = ts64.sec = 0;
		FD_ZERO(&r);
		FD_SET(p[1], &r);
		say("%s nsec 999999999 ready %s", vname[v], rv(syscall(nr, p[1] + 1, NULL, &r, NULL, ts, NULL)));
		/* The 64-bit one's upper half of tv_nsec is padding on i386. */
		if (v == 4) {
			ts64.nsec = 0x100000000LL;
			say("%s nsec upper half %s", vname[v], rv(syscall(nr, p[1] + 1, NULL, &r, NULL, ts, NULL)));
		}
		signal(SIGUSR1, SIG_DFL);
		close(p[0]);
		close(p[1]);
	}
}

/* A signal during a select without a time-out: EINTR. */
static void interrupted(void)
{
	for (variant = 0; variant < 5; variant++) {
		int p[2];
		pipe(p);
		struct sigaction sa = { .sa_handler = on_usr1 };
		sigaction(SIGALRM, &sa, NULL);
		got = 0;
		struct itimerval it = { { 0, 0 }, { 0, 30000 } };
		setitimer(ITIMER_REAL, &it, NULL);
		fd_set r;
		FD_ZERO(&r);
		FD_SET(p[0], &r);
		long ret = do_sel(p[0] + 1, &r, NULL, NULL, NULL, NULL, NULL);
		say("%s signal %s handled %d", vname[variant], rv(ret), got);
		/* With SA_RESTART too: a select is never restarted after a handler. */
		sa.sa_flags = SA_RESTART;
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
		struct tv32 t = { 10, 0 };
		ret = do_sel(p[0] + 1, &r, NULL, NULL, &t, NULL, NULL);
		say("%s signal SA_RESTART %s handled %d left<10s %d", vname[variant], rv(ret), got,
		    t.sec < 10);
		signal(SIGALRM, SIG_DFL);
		close(p[0]);
		close(p[1]);
	}
}

int main(int argc, char **argv)
{
	conform_start("select", argc, argv);
	for (variant = 0; variant < 5; variant++) {
		readiness();
		errors();
	}
	pselect_mask();
	interrupted();
	conform_end();
	return 0;
}
