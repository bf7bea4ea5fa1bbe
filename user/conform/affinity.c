/* affinity.c - conformance: sched_setaffinity(2) and sched_getaffinity(2)
 * (raw system calls: what the kernel returns, then glibc's cpu_set_t), and
 * the number of online CPUs glibc finds.  Prints observations only
 * (conform.h), the same at any CPU count: Linux's are recorded on one CPU,
 * and Vellum's are compared at one and at several (CPUS=4 tools/conform.sh
 * affinity).  So a mask that should be every online CPU prints "online"
 * when it is exactly the CPUs /proc/stat lists (its cpuN lines: the online
 * CPUs, on Linux and on Vellum), and its hex value only when it is not; a
 * mask set to CPU 0 alone prints its hex value, 0x1, at any count.  The
 * counts glibc finds print "online" when they are that many CPUs.
 */
#include "conform.h"
#include <ctype.h>
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

/* The online CPUs' mask, from /proc/stat's "cpuN" lines (0 if unreadable). */
static unsigned long online_mask(void)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[256];
	unsigned long mask = 0;
	unsigned cpu;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		/* "cpuN ...", not the sum's "cpu  ..." (%u would skip the blanks) */
		if (!strncmp(line, "cpu", 3) && isdigit((unsigned char)line[3]) &&
		    (cpu = strtoul(line + 3, NULL, 10)) < 8 * sizeof mask)
			mask |= 1UL << cpu;
	fclose(f);
	return mask;
}

/* "online" for the online CPUs' mask, else the mask in hex */
static char mtext[32];
static const char *online_or_hex(unsigned long m)
{
	if (m && m == online_mask())
		return "online";
	snprintf(mtext, sizeof mtext, "%#lx", m);
	return mtext;
}

/* "online" for the number of online CPUs, else the number */
static const char *online_or_count(long n)
{
	if (n > 0 && n == __builtin_popcountl(online_mask()))
		return "online";
	snprintf(mtext, sizeof mtext, "%ld", n);
	return mtext;
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
			say("get len %u: %s mask %s", len, rv(r), r > 0 ? online_or_hex(m[0]) : "0");
	}
	memset(m, 0xaa, sizeof m);
	long r = get(0, 128, m);
	say("get len 128: %s mask %s next_word_untouched %d", rv(r), online_or_hex(m[0]),
	    r == 8 ? m[2] == 0xaaaaaaaaUL : m[1] == 0xaaaaaaaaUL);
	const char *t = rv(get(getpid(), 8, m));
	say("get self by pid: %s mask %s", t, online_or_hex(m[0]));
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
	say("get after all bits: %s mask %s", t, online_or_hex(m[0]));
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
	say("glibc sched_getaffinity: %s count %s cpu0 %d", g, online_or_count(CPU_COUNT(&cs)),
	    CPU_ISSET(0, &cs));
	say("glibc sysconf _SC_NPROCESSORS_ONLN: %s", online_or_count(sysconf(_SC_NPROCESSORS_ONLN)));

	char text[256];
	int st = child(as_user, text, sizeof text);
	say("as_user %s: %s", wstatus(st), text);
	conform_end();
	return 0;
}
