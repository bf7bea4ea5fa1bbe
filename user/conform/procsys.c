/* procsys.c - conformance: the /proc files and memory-map behaviour an
 * outside run of LTP found missing or different (issue 23).
 * /proc/sys/kernel/pid_max (read; root writes it, 301..32768 on i386,
 * other values -EINVAL; new pids stay below it), /proc/sys/kernel/tainted,
 * /proc/sys/kernel/core_pattern (read, write, read back); /proc/self/task
 * (one directory per thread); /proc/self/smaps (a VMA's Size, Rss, Pss,
 * Locked, Anonymous and Private_Dirty for a locked anonymous mapping);
 * /proc/self/pagemap (present bit for populated pages, not for untouched
 * ones, -EINVAL for a misaligned read; a user's, no frame numbers, only
 * while it is dumpable: dropping ids makes it root's); MAP_SHARED_VALIDATE (-EOPNOTSUPP
 * for an unknown flag or MAP_SYNC, -EINVAL for anonymous memory);
 * /dev/zero mapped shared (seen by a forked child's writes) and private;
 * mprotect(PROT_WRITE) of a shared mapping of a read-only /dev/zero
 * (-EACCES); vm.max_map_count (mmap fails with ENOMEM before 65530 VMAs,
 * munmap of a middle page then -ENOMEM); futex FUTEX_CMP_REQUEUE and
 * FUTEX_REQUEUE (compare, counts, a waiter moved and woken on the second
 * word) and EFAULT for a shared futex on PROT_NONE or unmapped memory.
 * Prints observations only (conform.h).
 */
#include "conform.h"
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/futex.h>

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* The first line of a /proc file, newline dropped, or "open ERR" */
static const char *first_line(const char *name)
{
	static char b[256];
	FILE *f = fopen(name, "r");
	if (!f) {
		snprintf(b, sizeof b, "open %s", rv(-1));
		return b;
	}
	if (!fgets(b, sizeof b, f))
		b[0] = 0;
	fclose(f);
	b[strcspn(b, "\n")] = 0;
	return b;
}

/* write(2) of text to name: the result, as text */
static const char *write_text(const char *name, const char *text)
{
	int fd = open(name, O_WRONLY);
	if (fd < 0)
		return rv(fd);
	ssize_t n = write(fd, text, strlen(text));
	const char *r = rv(n);
	close(fd);
	return r;
}

/* ---- 1. /proc/sys/kernel ---------------------------------------------------- */

static void sysctls(void)
{
	const char *pm = "/proc/sys/kernel/pid_max";
	char saved[64];
	snprintf(saved, sizeof saved, "%s", first_line(pm));
	say("pid_max_readable %d", atoi(saved) > 300);
	const char *r = write_text(pm, "32768\n");
	say("pid_max_write_32768 %s now=%s", r, first_line(pm));
	r = write_text(pm, "300");
	say("pid_max_write_300 %s now=%s", r, first_line(pm));
	r = write_text(pm, "301");
	say("pid_max_write_301 %s now=%s", r, first_line(pm));
	r = write_text(pm, "1000 ");
	say("pid_max_write_1000_blank %s now=%s", r, first_line(pm));
	say("pid_max_write_junk %s", write_text(pm, "12x"));
	say("pid_max_write_neg %s", write_text(pm, "-5"));
	/* new pids stay below it: with pid_max just above the last pid (past
	 * 400, whatever ran before), the next ones wrap to lower numbers */
	pid_t c;
	int tries = 0;
	do {
		c = fork();
		if (c == 0)
			_exit(0);
		waitpid(c, NULL, 0);
	} while (c > 0 && c <= 400 && ++tries < 5000);
	char lim[16];
	snprintf(lim, sizeof lim, "%d", c + 5);
	write_text(pm, lim);
	int below = 1, wrapped = 0;
	for (int i = 0; i < 40; i++) {
		pid_t k = fork();
		if (k == 0)
			_exit(0);
		if (k < 0 || k >= atoi(lim))
			below = 0;
		if (k > 0 && k < c)
			wrapped = 1;
		waitpid(k, NULL, 0);
	}
	say("pids_below_limit %d wrapped=%d", below, wrapped);
	write_text(pm, saved);
	say("pid_max_restored %d", !strcmp(first_line(pm), saved));

	say("tainted %s", first_line("/proc/sys/kernel/tainted"));
	const char *cp = "/proc/sys/kernel/core_pattern";
	snprintf(saved, sizeof saved, "%s", first_line(cp));
	r = write_text(cp, "/tmp/dump-%p\n");
	say("core_pattern_write %s now=%s", r, first_line(cp));
	write_text(cp, saved);
	say("core_pattern_restored %d", !strcmp(first_line(cp), saved));

	/* a user may read them, not write them */
	c = fork();
	if (c == 0) {
		drop_to_user();
		printf("procsys %s: user_read_pid_max %d\n", c_fs, atoi(first_line(pm)) > 300);
		printf("procsys %s: user_write_pid_max %s\n", c_fs, write_text(pm, "5000"));
		fflush(stdout);
		_exit(0);
	}
	waitpid(c, NULL, 0);
}

/* ---- 2. /proc/self/task ----------------------------------------------------- */

static volatile int stop_threads;
static void *spin(void *arg)
{
	(void)arg;
	while (!stop_threads)
		usleep(1000);
	return NULL;
}

static int count_tasks(int *has_self)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	struct dirent *e;
	int n = 0;
	*has_self = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		if (atoi(e->d_name) == getpid())
			*has_self = 1;
	}
	closedir(d);
	return n;
}

static void tasks(void)
{
	int self;
	int n = count_tasks(&self);
	say("task_dir_one %d self=%d", n, self);
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, spin, NULL);
	n = count_tasks(&self);
	say("task_dir_four %d self=%d", n, self);
	char name[64];
	snprintf(name, sizeof name, "/proc/self/task/%d/stat", getpid());
	say("task_self_stat_pid_matches %d", atoi(first_line(name)) == getpid());
	snprintf(name, sizeof name, "/proc/self/task/%d", getppid());
	struct stat st;
	say("task_other_process %s", rv(stat(name, &st)));
	stop_threads = 1;
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 1000 && (n = count_tasks(&self)) != 1; i++)
		usleep(1000);                  /* a joined thread may linger a moment */
	say("task_dir_after_join %d", n);
}

/* ---- 3. /proc/self/smaps, /proc/self/pagemap ---------------------------------- */

static void smaps(void)
{
	size_t len = 1 << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int lr = mlock(p, len);
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f) {
		say("smaps_open %s", rv(-1));
		return;
	}
	char line[256], want[32];
	snprintf(want, sizeof want, "%lx-", (unsigned long)p);
	int found = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strncmp(line, want, strlen(want))) {
			found = 1;
			break;
		}
	}
	say("smaps_mlock %s found=%d", rv(lr), found);
	const char *keys[] = { "Size:", "KernelPageSize:", "Rss:", "Pss:", "Shared_Clean:",
			       "Shared_Dirty:", "Private_Dirty:", "Anonymous:", "Swap:", "Locked:" };
	while (found && fgets(line, sizeof line, f)) {
		unsigned long a, b;
		if (sscanf(line, "%lx-%lx", &a, &b) == 2)
			break;
		for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (!strncmp(line, keys[i], strlen(keys[i]))) {
				line[strcspn(line, "\n")] = 0;
				say("smaps %s", line);
			}
		if (!strncmp(line, "VmFlags:", 8))
			say("smaps_vmflags rd=%d wr=%d lo=%d", !!strstr(line, " rd"),
			    !!strstr(line, " wr"), !!strstr(line, " lo"));
	}
	fclose(f);
	munlock(p, len);

	/* pagemap: two pages touched, two not */
	char *q = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	q[0] = 1;
	q[2 * 4096] = 1;
	int fd = open("/proc/self/pagemap", O_RDONLY);
	say("pagemap_open %s", rv(fd));
	uint64_t w[4];
	off_t off = (off_t)((unsigned long)q / 4096) * 8;
	ssize_t n = pread(fd, w, sizeof w, off);
	say("pagemap_read %s present=%d%d%d%d pfn_nonzero=%d excl=%d", rv(n),
	    !!(w[0] >> 63), !!(w[1] >> 63), !!(w[2] >> 63), !!(w[3] >> 63),
	    (w[0] & ((1ULL << 55) - 1)) != 0, !!(w[0] & (1ULL << 56)));
	say("pagemap_misaligned %s", rv(pread(fd, w, 8, off + 4)));
	say("pagemap_short_count %s", rv(pread(fd, w, 4, off)));
	close(fd);
	/* a user reads its own (no frame numbers), not root's */
	pid_t c = fork();
	if (c == 0) {
		char pp[64];
		snprintf(pp, sizeof pp, "/proc/%d/pagemap", getppid());
		drop_to_user();
		int f = open("/proc/self/pagemap", O_RDONLY);
		uint64_t u[4] = { 0 };
		ssize_t k = f >= 0 ? pread(f, u, sizeof u, off) : -1;
		printf("procsys %s: user_pagemap open=%s read=%zd present=%d%d pfn_zero=%d\n", c_fs,
		       f >= 0 ? "ok" : rv(f), k, !!(u[0] >> 63), !!(u[2] >> 63),
		       (u[0] & ((1ULL << 55) - 1)) == 0);
		printf("procsys %s: user_pagemap_of_root %s\n", c_fs, rv(open(pp, O_RDONLY)));
		printf("procsys %s: user_dumpable %d\n", c_fs, prctl(PR_GET_DUMPABLE));
		prctl(PR_SET_DUMPABLE, 1);
		f = open("/proc/self/pagemap", O_RDONLY);
		memset(u, 0, sizeof u);
		k = f >= 0 ? pread(f, u, sizeof u, off) : -1;
		printf("procsys %s: user_pagemap_dumpable open=%s read=%zd present=%d%d pfn_zero=%d\n",
		       c_fs, f >= 0 ? "ok" : rv(f), k, !!(u[0] >> 63), !!(u[2] >> 63),
		       (u[0] & ((1ULL << 55) - 1)) == 0);
		fflush(stdout);
		_exit(0);
	}
	waitpid(c, NULL, 0);
	munmap(q, 4 * 4096);
	munmap(p, len);
}

/* ---- 4. mmap: MAP_SHARED_VALIDATE, /dev/zero ----------------------------------- */

static const char *mres(void *p)
{
	return p == MAP_FAILED ? rv(-1) : "ok";
}

static void maps(void)
{
	int fd = fresh("validate", 4096, 0);
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED_VALIDATE, fd, 0);
	say("validate_plain %s", mres(p));
	if (p != MAP_FAILED) {
		((char *)p)[0] = 'v';
		munmap(p, 4096);
		say("validate_wrote %s", bytes(fd, 0, 1));
	}
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED_VALIDATE | (1 << 10), fd, 0);
	say("validate_unknown_flag %s", mres(p));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED | (1 << 10), fd, 0);
	say("shared_unknown_flag %s", mres(p));
	if (p != MAP_FAILED)
		munmap(p, 4096);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED_VALIDATE | MAP_SYNC, fd, 0);
	say("validate_map_sync %s", mres(p));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED_VALIDATE | MAP_ANONYMOUS, -1, 0);
	say("validate_anonymous %s", mres(p));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED_VALIDATE | MAP_POPULATE | MAP_LOCKED, fd, 0);
	say("validate_known_flags %s", mres(p));
	if (p != MAP_FAILED)
		munmap(p, 4096);
	done(fd, "validate");

	/* /dev/zero: shared is one memory for parent and child; private is not */
	int z = open("/dev/zero", O_RDWR);
	char *s = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, z, 0);
	char *pv = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE, z, 0);
	say("zero_shared %s zero_private %s", mres(s), mres(pv));
	if (s != MAP_FAILED && pv != MAP_FAILED) {
		say("zero_reads %d %d", s[100], pv[100]);
		pid_t c = fork();
		if (c == 0) {
			s[4096] = 's';
			pv[4096] = 'p';
			_exit(0);
		}
		waitpid(c, NULL, 0);
		say("zero_after_child shared=%d private=%d", s[4096], pv[4096]);
		munmap(s, 8192);
		munmap(pv, 8192);
	}
	close(z);
	z = open("/dev/zero", O_RDONLY);
	s = mmap(NULL, 4096, PROT_READ, MAP_SHARED, z, 0);
	say("zero_rdonly_shared %s", mres(s));
	if (s != MAP_FAILED) {
		say("zero_rdonly_mprotect_write %s", rv(mprotect(s, 4096, PROT_WRITE)));
		say("zero_rdonly_mprotect_read %s", rv(mprotect(s, 4096, PROT_READ)));
		munmap(s, 4096);
	}
	s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, z, 0);
	say("zero_rdonly_shared_write %s", mres(s));
	pv = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, z, 0);
	say("zero_rdonly_private_write %s", mres(pv));
	if (pv != MAP_FAILED)
		munmap(pv, 4096);
	close(z);
}

/* ---- 5. vm.max_map_count --------------------------------------------------------- */

static void map_count(void)
{
	size_t vsz = 3 * 4096;
	uintptr_t addr = 0x10000000UL;
	static void *m[70000];
	int n = 0, err = 0;
	while (n < 70000) {
		void *p = mmap((void *)addr, vsz, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		addr += 2 * vsz;
		if (p == MAP_FAILED && errno == EEXIST)
			continue;
		if (p == MAP_FAILED) {
			err = errno;
			break;
		}
		m[n++] = p;
	}
	say("map_count_stopped %s between=%d", errname(err), n > 65000 && n < 65530);
	say("map_count_split %s", rv(munmap((char *)m[2] + 4096, 4096)));
	say("map_count_mprotect_split %s", rv(mprotect((char *)m[2] + 4096, 4096, PROT_READ)));
	say("map_count_unmap_whole %s", rv(munmap(m[2], vsz)));
	for (int i = 0; i < n; i++)
		if (i != 2)
			munmap(m[i], vsz);
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("map_count_after %s", mres(p));
}

/* ---- 6. futex requeue, EFAULT ---------------------------------------------------- */

static long futex(uint32_t *a, int op, uint32_t val, long val2, uint32_t *b, uint32_t val3)
{
	return syscall(SYS_futex, a, op, val, (void *)val2, b, val3);
}

static void futexes(void)
{
	uint32_t *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint32_t *a = &w[0], *b = &w[16];
	*a = 5;
	say("cmp_requeue_mismatch %s", rv(futex(a, FUTEX_CMP_REQUEUE, 1, 1, b, 4)));
	say("cmp_requeue_none %s", rv(futex(a, FUTEX_CMP_REQUEUE, 1, 1, b, 5)));
	say("cmp_requeue_neg_wake %s", rv(futex(a, FUTEX_CMP_REQUEUE, -1, 1, b, 5)));
	say("cmp_requeue_neg_requeue %s", rv(futex(a, FUTEX_CMP_REQUEUE, 1, -1, b, 5)));
	say("requeue_none %s", rv(futex(a, FUTEX_REQUEUE, 1, 1, b, 0)));
	say("cmp_requeue_private %s", rv(futex(a, FUTEX_CMP_REQUEUE_PRIVATE, 0, 0, b, 5)));

	/* a child waits on a; requeued to b; woken on b */
	pid_t c = fork();
	if (c == 0) {
		long r = futex(a, FUTEX_WAIT, 5, 0, NULL, 0);
		_exit(r == 0 ? 0 : 10 + errno);
	}
	long moved = 0;
	for (int i = 0; i < 2000 && moved == 0; i++) {
		moved = futex(a, FUTEX_CMP_REQUEUE, 0, 1, b, 5);
		if (!moved)
			usleep(1000);
	}
	say("requeued %ld", moved);
	say("wake_a_after %s", rv(futex(a, FUTEX_WAKE, 1, 0, NULL, 0)));
	say("wake_b %s", rv(futex(b, FUTEX_WAKE, 1, 0, NULL, 0)));
	int st;
	waitpid(c, &st, 0);
	say("waiter %s", wstatus(st));
	munmap(w, 4096);

	uint32_t *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("wake_prot_none_shared %s", rv(futex(none, FUTEX_WAKE, 1, 0, NULL, 0)));
	say("wake_prot_none_private %s", rv(futex(none, FUTEX_WAKE_PRIVATE, 1, 0, NULL, 0)));
	munmap(none, 4096);
	say("wake_unmapped_shared %s", rv(futex(none, FUTEX_WAKE, 1, 0, NULL, 0)));
	say("wait_unmapped_private %s", rv(futex(none, FUTEX_WAIT_PRIVATE, 0, 0, NULL, 0)));
}

int main(int argc, char **argv)
{
	conform_start("procsys", argc, argv);
	sysctls();
	tasks();
	smaps();
	maps();
	map_count();
	futexes();
	conform_end();
	return 0;
}
