/* schedstat.c - conformance: /proc/schedstat's format (Linux's version 15;
 * docs/smp.md, "/proc/schedstat"): the version line, a timestamp, then a
 * line per online CPU, "cpuN", in order, with at least Linux's nine
 * fields, the second (a legacy field) 0 and the sixth (wake-ups done by
 * that CPU itself) no more than the fifth (all wake-ups); and no number
 * goes back between two readings, with sleeps between them.  Lines that
 * are not "cpuN" (Linux's "domainN", with several CPUs) are skipped.
 * Prints observations only (conform.h): no counts, which differ run to run.
 */
#include "conform.h"
#include <ctype.h>
#include <time.h>

#define MAXCPU 64
#define MAXF 16

struct snap {
	int version, stamp_ok, cpus, in_order, min_fields;
	unsigned long long stamp, f[MAXCPU][MAXF + 1];
};

static void reading(struct snap *s)
{
	static char buf[65536];
	memset(s, 0, sizeof *s);
	s->min_fields = MAXF;
	s->in_order = 1;
	int fd = open("/proc/schedstat", O_RDONLY);
	if (fd < 0) {
		say("open %s", rv(-1));
		return;
	}
	ssize_t n = 0, r;
	while ((r = read(fd, buf + n, sizeof buf - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (sscanf(line, "version %d", &s->version) == 1)
			continue;
		if (!strncmp(line, "timestamp ", 10)) {
			char *end;
			s->stamp = strtoull(line + 10, &end, 10);
			s->stamp_ok = end > line + 10 && !*end;
			continue;
		}
		int cpu;
		char *p;
		if (strncmp(line, "cpu", 3) || !isdigit((unsigned char)line[3]))
			continue;
		cpu = (int)strtol(line + 3, &p, 10);
		if (cpu != s->cpus || cpu >= MAXCPU) {
			s->in_order = 0;
			continue;
		}
		int k = 0;
		while (*p == ' ' && k < MAXF) {
			char *end;
			unsigned long long v = strtoull(p + 1, &end, 10);
			if (end == p + 1)
				break;
			s->f[cpu][++k] = v;
			p = end;
		}
		if (k < s->min_fields)
			s->min_fields = k;
		s->cpus++;
	}
}

int main(int argc, char **argv)
{
	struct snap a, b;
	conform_start("schedstat", argc, argv);
	reading(&a);
	say("version %d", a.version);
	say("timestamp_is_a_number %d", a.stamp_ok);
	say("cpu_lines_are_the_online_cpus %d in_order %d",
	    a.cpus == sysconf(_SC_NPROCESSORS_ONLN), a.in_order);
	say("at_least_nine_fields %d", a.cpus > 0 && a.min_fields >= 9);
	for (int i = 0; i < 5; i++) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	reading(&b);
	int legacy_zero = 1, local_le_all = 1, never_back = 1;
	for (int cpu = 0; cpu < b.cpus && cpu < a.cpus; cpu++) {
		legacy_zero &= b.f[cpu][2] == 0;
		local_le_all &= b.f[cpu][6] <= b.f[cpu][5];
		for (int k = 1; k <= 9; k++)
			never_back &= b.f[cpu][k] >= a.f[cpu][k];
	}
	say("field2_is_0 %d ttwu_local_le_ttwu_count %d", legacy_zero, local_le_all);
	say("timestamp_moves %d fields_never_go_back %d", b.stamp > a.stamp, never_back);
	conform_end();
	return 0;
}
