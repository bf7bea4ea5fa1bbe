/* procstat.c - conformance: /proc/self/stat's fields as relations that
 * hold on any machine: the pid, the name, the state, the parent; the
 * number of threads as pthreads come and go (and /proc/self/status's
 * Threads line with it; a joined thread may be counted for a moment on
 * Linux, so the count is awaited); the start time (a child's is not before its
 * parent's, neither is after the uptime); vsize grown by exactly a 1 MiB
 * mapping; rss grown by at least its 256 pages once touched; the processor
 * (one of the online CPUs, /proc/stat's cpuN lines, printed as "online":
 * the same at any CPU count, as CPUS=4 tools/conform.sh runs it) and the
 * exit signal (SIGCHLD, 17).
 * Prints observations only (conform.h).
 */
#include "conform.h"
#include <ctype.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>

/* Is cpu one of those /proc/stat lists ("cpuN" lines: the online CPUs)? */
static int cpu_is_online(long long cpu)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[256];
	unsigned n;
	int found = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		/* "cpuN ...", not the sum's "cpu  ..." (%u would skip the blanks) */
		if (!strncmp(line, "cpu", 3) && isdigit((unsigned char)line[3]) &&
		    (n = strtoul(line + 3, NULL, 10)) == cpu)
			found = 1;
	fclose(f);
	return found;
}

/* field k (1-based, proc(5)) of /proc/PID/stat ("self" for pid 0) */
static long long field(pid_t pid, int k)
{
	char name[64], buf[1024];
	if (pid)
		snprintf(name, sizeof name, "/proc/%d/stat", pid);
	else
		snprintf(name, sizeof name, "/proc/self/stat");
	int fd = open(name, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (k == 1)
		return atoll(buf);
	if (k == 3) {
		char *p = strrchr(buf, ')');
		return p ? p[2] : -1;              /* the state letter */
	}
	char *p = strrchr(buf, ')');
	for (int f = 2; p && f < k; f++)
		p = strchr(p + 1, ' ');
	return p ? atoll(p + 1) : -1;
}

static long status_threads(void)
{
	char buf[2048];
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	char *p = strstr(buf, "Threads:");
	return p ? atol(p + 8) : -1;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);             /* held by main until the join */
	pthread_mutex_unlock(&lock);
	return NULL;
}

static long long uptime_ticks(void)
{
	char buf[64];
	int fd = open("/proc/uptime", O_RDONLY);
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	long s = 0, cs = 0;
	sscanf(buf, "%ld.%ld", &s, &cs);
	return (long long)s * 100 + cs;
}

int main(int argc, char **argv)
{
	conform_start("procstat", argc, argv);
	say("pid_is_getpid %d", field(0, 1) == getpid());
	say("state %c", (char)field(0, 3));
	say("ppid_is_getppid %d", field(0, 4) == getppid());
	say("pgrp_is_getpgrp %d session_is_getsid %d", field(0, 5) == getpgrp(),
	    field(0, 6) == getsid(0));
	say("threads %lld status %ld", field(0, 20), status_threads());

	pthread_t t[3];
	pthread_mutex_lock(&lock);
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, waiter, NULL);
	long long nt = field(0, 20);
	say("threads_with_3_more %lld status %ld", nt, status_threads());
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	/* a joined thread may still be counted for a moment (glibc's join
	 * returns when the thread's tid is cleared, before it is gone) */
	for (int i = 0; i < 100 && (nt = field(0, 20)) != 1; i++)
		usleep(10000);
	say("threads_after_join_settle_to %lld status %ld", nt, status_threads());

	long long mine = field(0, 22), up = uptime_ticks();
	say("starttime_not_after_uptime %d", mine <= up + 1);
	pid_t c = fork();
	if (c == 0) {
		pause();
		_exit(0);
	}
	long long theirs = field(c, 22);
	say("child_starttime_not_before_ours %d not_after_uptime %d", theirs >= mine,
	    theirs <= uptime_ticks() + 1);
	say("child_ppid_is_us %d", field(c, 4) == getpid());
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);

	long long vs0 = field(0, 23), rss0 = field(0, 24);
	char *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long long vs1 = field(0, 23);
	for (int i = 0; i < (1 << 20); i += 4096)
		m[i] = 1;
	long long rss1 = field(0, 24);
	say("vsize_grows_by_the_mapping %d", vs1 - vs0 == 1 << 20);
	say("rss_grows_by_its_pages %d", rss1 - rss0 >= 256);
	munmap(m, 1 << 20);
	say("vsize_back %d", field(0, 23) == vs0);
	long long cpu = field(0, 39);
	say("processor %s exit_signal %lld", cpu_is_online(cpu) ? "online" : "offline",
	    field(0, 38));
	conform_end();
	return 0;
}
