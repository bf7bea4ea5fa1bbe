/* affinity.c - conformance: sched_setaffinity(2) and sched_getaffinity(2)
 * (raw system calls: what the kernel returns, then glibc's cpu_set_t), and
 * the number of online CPUs glibc finds.  The runs boot one CPU, so CPU 0
 * is the only one online.  Prints observations only (conform.h).
 */
#include "conform.h"
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static long get(pid_t pid, unsigned len, unsigned long *m)
{
	return syscall(SYS_sched_getaffinity, pid, len, m);
}

static long set(pid_t pid, unsigned len, unsigned long *m)
{
	return syscall(SYS_sched_setaffinity, pid, len, m);
}

/* as the ordinary user: another user's process may not be moved */
static void as_user(int w)
{
	pid_t parent = getppid();
	drop_to_user();
	unsigned long m[32] = { 1 };
	report(w, "set_roots=%s ", rv(set(parent, 8, m)));
	report(w, "get_roots=%s ", rv(get(parent, 8, m)));
	report(w, "set_own=%s", rv(set(0, 8, m)));
}

int main(int argc, char **argv)
{
	conform_start("affinity", argc, argv);
	unsigned long m[32];
	for (unsigned len = 0; len <= 12; len += 1) {
		memset(m, 0xaa, sizeof m);
		long r = get(0, len, m);
		if (len == 0 || len == 3 || len == 4 || len == 8 || len == 12)
			say("get len %u: %s mask %#lx", len, rv(r), r > 0 ? m[0] : 0);
	}
	memset(m, 0xaa, sizeof m);
	long r = get(0, 128, m);
	say("get len 128: %s mask %#lx next_word_untouched %d", rv(r), m[0],
	    r == 8 ? m[2] == 0xaaaaaaaaUL : m[1] == 0xaaaaaaaaUL);
	const char *t = rv(get(getpid(), 8, m));
	say("get self by pid: %s mask %#lx", t, m[0]);
	say("get no such pid: %s", rv(get(999999, 8, m)));
	say("get pid -1: %s", rv(get(-1, 8, m)));
	say("get bad pointer: %s", rv(get(0, 8, (void *)1)));

	/* set: an empty mask, offline CPUs only, CPU 0, short and long lengths */
	unsigned long zero[32] = { 0 }, off[32] = { 0x80000000UL }, cpu0[32] = { 1 };
	say("set empty: %s", rv(set(0, 8, zero)));
	say("set offline only: %s", rv(set(0, 8, off)));
	say("set cpu0: %s", rv(set(0, 8, cpu0)));
	say("set len 0: %s", rv(set(0, 0, cpu0)));
	say("set len 4: %s", rv(set(0, 4, cpu0)));
	say("set len 128: %s", rv(set(0, 128, cpu0)));
	unsigned long many[32];
	memset(many, 0xff, sizeof many);
	say("set all bits: %s", rv(set(0, 128, many)));
	t = rv(get(0, 8, m));
	say("get after all bits: %s mask %#lx", t, m[0]);
	say("set bad pointer: %s", rv(set(0, 8, (void *)1)));
	say("set bad pointer, no such pid: %s", rv(set(999999, 8, (void *)1)));
	say("set no such pid: %s", rv(set(999999, 8, cpu0)));

	/* a child's mask: set by the parent, read back by both */
	pid_t c = fork();
	if (c == 0) {
		pause();
		_exit(0);
	}
	say("set child: %s", rv(set(c, 8, cpu0)));
	t = rv(get(c, 8, m));
	say("get child: %s mask %#lx", t, m[0]);
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);

	/* glibc */
	cpu_set_t cs;
	CPU_ZERO(&cs);
	const char *g = rv(sched_getaffinity(0, sizeof cs, &cs));
	say("glibc sched_getaffinity: %s count %d cpu0 %d", g, CPU_COUNT(&cs), CPU_ISSET(0, &cs));
	say("glibc sysconf online: %ld", sysconf(_SC_NPROCESSORS_ONLN));

	char text[256];
	int st = child(as_user, text, sizeof text);
	say("as_user %s: %s", wstatus(st), text);
	conform_end();
	return 0;
}
