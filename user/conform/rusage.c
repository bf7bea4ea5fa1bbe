/* rusage.c - conformance: what a process used, times(2), getrusage(2) and
 * wait4(2)'s rusage, and /proc/PID/stat's fault and time fields.  CPU
 * times are never printed, only relations that hold on any machine: a
 * child's time shows in its parent's children's time once it is reaped
 * (not before), a grandchild's in its grandparent's through the child,
 * getrusage(RUSAGE_CHILDREN) agrees with times(), page faults and sleeps
 * are counted, the peak resident set of a child that touched 8 MiB, and
 * the errors (EINVAL, EFAULT).  Prints observations only (conform.h).
 */
#include "conform.h"
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <sys/syscall.h>

#define TICK_US 10000L                         /* USER_HZ = 100 */

static long ticks(const struct timeval *tv)
{
	return tv->tv_sec * 100 + tv->tv_usec / TICK_US;
}

/* spin in user mode until this process has used n ticks of user time */
static long burn(long n)
{
	struct tms t;
	do {
		for (volatile int i = 0; i < 100000; i++)
			;
		times(&t);
	} while (t.tms_utime < n);
	return t.tms_utime;
}

static void busy_child(int w)
{
	report(w, "%ld", burn(30));
}

/* a child that first reaps a busy grandchild of its own */
static void parent_of_busy(int w)
{
	pid_t g = fork();
	if (g == 0) {
		burn(20);
		_exit(0);
	}
	waitpid(g, NULL, 0);
	struct tms t;
	times(&t);
	report(w, "%ld", (long)t.tms_cutime);
}

static void touch_8m(int w)
{
	size_t len = 8 << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 1;
	report(w, "ok");
}

/* field k (1-based, proc(5)) of /proc/self/stat */
static long stat_field(int k)
{
	char buf[1024];
	int fd = open("/proc/self/stat", O_RDONLY);
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	for (int f = 2; p && f < k; f++)
		p = strchr(p + 1, ' ');
	return p ? atol(p + 1) : -1;
}

int main(int argc, char **argv)
{
	conform_start("rusage", argc, argv);
	char text[256];
	struct tms t0, t1;
	struct rusage ru, ru2;

	/* before any child: no children's time */
	clock_t c0 = times(&t0);
	say("times_returns_ticks %d", c0 != (clock_t)-1);
	say("no_children_yet cutime=%ld cstime=%ld", (long)t0.tms_cutime, (long)t0.tms_cstime);
	int r = getrusage(RUSAGE_CHILDREN, &ru);
	say("children_rusage %s utime=%ld maxrss_zero=%d", rv(r), ticks(&ru.ru_utime), ru.ru_maxrss == 0);

	/* a busy child: its time is ours once reaped */
	int st = child(busy_child, text, sizeof text);
	long own = atol(text);
	times(&t1);
	say("busy_child %s burnt_at_least_30 %d", wstatus(st), own >= 30);
	say("cutime_covers_child %d cutime_close %d", (long)t1.tms_cutime >= own,
	    (long)t1.tms_cutime - own <= 10);
	r = getrusage(RUSAGE_CHILDREN, &ru);
	say("children_rusage_agrees_with_times %s %d", rv(r),
	    labs(ticks(&ru.ru_utime) - (long)t1.tms_cutime) <= 1);
	say("proc_stat_cutime_agrees %d", labs(stat_field(16) - (long)t1.tms_cutime) <= 1);

	/* wait4's rusage: the child's own and its reaped grandchild's */
	int p[2];
	pipe(p);
	pid_t c = fork();
	if (c == 0) {
		close(p[0]);
		parent_of_busy(p[1]);
		_exit(0);
	}
	close(p[1]);
	ssize_t n = read(p[0], text, sizeof text - 1);
	text[n > 0 ? n : 0] = 0;
	close(p[0]);
	long grand = atol(text);
	int wst;
	memset(&ru, 0x55, sizeof ru);
	pid_t got = wait4(c, &wst, 0, &ru);
	say("wait4 %s %s grandchild_burnt %d", got == c ? "child" : rv(got), wstatus(wst), grand >= 20);
	say("wait4_rusage_has_grandchild %d", ticks(&ru.ru_utime) >= grand);
	times(&t1);
	say("grandchild_in_our_cutime %d", (long)t1.tms_cutime >= own + grand);

	/* WNOHANG with a child still running: 0, the rusage untouched */
	c = fork();
	if (c == 0) {
		pause();
		_exit(0);
	}
	memset(&ru, 0x55, sizeof ru);
	got = wait4(c, &wst, WNOHANG, &ru);
	say("wnohang %s rusage_untouched %d", rv(got), ((unsigned char *)&ru)[0] == 0x55 &&
	    ((unsigned char *)&ru)[sizeof ru - 1] == 0x55);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);

	/* our own: user time after burning, faults, sleeps */
	burn(t1.tms_utime + 20);
	r = getrusage(RUSAGE_SELF, &ru);
	say("self %s utime_at_least_20 %d maxrss_positive %d", rv(r), ticks(&ru.ru_utime) >= 20,
	    ru.ru_maxrss > 0);
	r = getrusage(RUSAGE_THREAD, &ru2);
	say("thread %s close_to_self %d", rv(r), labs(ticks(&ru2.ru_utime) - ticks(&ru.ru_utime)) <= 2);
	long min0 = ru.ru_minflt, maj0 = ru.ru_majflt, vcsw0 = ru.ru_nvcsw;
	char *m = mmap(NULL, 100 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; i < 100; i++)
		m[i * 4096] = 1;
	for (int i = 0; i < 5; i++)
		usleep(10000);
	getrusage(RUSAGE_SELF, &ru);
	say("anon_touch minflt_100_more %d no_majflt %d", ru.ru_minflt - min0 >= 100,
	    ru.ru_majflt == maj0);
	say("sleeps nvcsw_5_more %d", ru.ru_nvcsw - vcsw0 >= 5);
	say("proc_stat_minflt_agrees %d", stat_field(10) >= ru.ru_minflt);

	/* a child's peak resident set: 8 MiB touched */
	st = child(touch_8m, text, sizeof text);
	getrusage(RUSAGE_CHILDREN, &ru);
	getrusage(RUSAGE_SELF, &ru2);
	say("touch_8m %s %s children_maxrss_8m %d self_smaller %d", wstatus(st), text,
	    ru.ru_maxrss >= 8192, ru2.ru_maxrss < 8192);

	/* errors */
	say("who_5 %s", rv(getrusage(5, &ru)));
	say("who_minus_2 %s", rv(getrusage(-2, &ru)));
	say("bad_pointer %s", rv(syscall(SYS_getrusage, RUSAGE_SELF, (void *)1)));
	say("null_pointer %s", rv(syscall(SYS_getrusage, RUSAGE_SELF, NULL)));
	say("times_null %d", syscall(SYS_times, NULL) != -1);
	say("times_bad %s", rv(syscall(SYS_times, (void *)1)));
	say("wait4_bad_rusage %s", rv(syscall(SYS_wait4, -1, NULL, WNOHANG, (void *)1)));
	conform_end();
	return 0;
}
