/*
 * smp_init.c - a tiny init for the SMP stress test (tools/tests/smp_user.sh
 * boots the test kernel, lock validator built in, at -smp 4 with
 * init=/tests/smp_init).  Each part runs several processes at once, so that
 * they run on several CPUs together, and checks the data they leave:
 *
 *   cpus      NWORK processes busy in user mode, each noting the CPUs it
 *             ran on (/proc/self/stat's field 39) and its user time
 *             (times()); together they must have used more than one CPU,
 *             and their user times must add up to more than the time that
 *             passed (they ran at once, not in turn).
 *   stripes   NWORK writers on ONE file of /st, each pwrite()ing its own
 *             blocks (block b is writer b % NWORK's, all bytes 'A' + b % 26);
 *             the file read back whole, and left for debugfs on the host.
 *   files     NWORK writers, each its own file; each read back.
 *   mapshare  two processes store into the same pages of one MAP_SHARED
 *             file mapping (even words one, odd words the other); the file
 *             read back with read() has every word.
 *   forks     NWORK processes each fork and reap 40 children that exit at
 *             once with their number as status.
 *   truncmap  one process truncates a file up and down while another maps
 *             and reads its first page (always inside the file).
 *   fsx       three /tests/fsx runs at once on /st/fsx0..2 (seeds 1-3); the
 *             host replays each and debugfs must find the same bytes.
 *   pipes     NWORK/2 pairs, each pumping 256 KiB through a pipe of its own
 *             in writes of changing sizes, the reader checking every byte;
 *             and NWORK writers on ONE pipe, each writing 200 records of
 *             PIPE_BUF/8 bytes (writes that small are atomic), the reader
 *             checking that no record is torn.  Pipes run without the big
 *             kernel lock (SMP step 5).
 *   irqs      /proc/irq/14/smp_affinity: the disk's line is on CPU 2 (the
 *             round robin, docs/smp.md); moved to CPU 1 by a write of "2",
 *             a written and fsync()ed file's interrupts are counted on
 *             CPU 1 alone in /proc/interrupts; "0", an offline CPU's mask
 *             and "zz" are EINVAL; then back to CPU 2.
 *   threadfault  NWORK threads of one process (clone(CLONE_VM): one mm)
 *             fault on the same fresh pages at once, under mmap_sem held
 *             for reading: of private anonymous memory (read first: the
 *             zero page, then written: its copy) and of a MAP_SHARED file
 *             of /st.  Each writes its own word of every page; every word
 *             of every thread must be there after (a PTE filled twice, one
 *             thread's page replacing the other's, would lose words).
 *   schedstat /proc/schedstat: "version 15", a timestamp, a line per CPU
 *             (cpu0..cpu3, in Linux's field order: docs/smp.md); after
 *             NWORK processes sleep and wake 20 times each, every CPU's
 *             counters have not gone back and the sums of schedule()
 *             calls (field 3), wake-ups (5) and switches (10) have grown.
 *
 * Output: "PASS smp.NAME" / "FAIL smp.NAME (...)" (check.h), "smp_init:
 * PART status S" for each part, then sync and power off.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "sc.h"

#define NWORK   4
#define BLK     4096
#define NBLK    64                       /* the stripes file: 256 KiB */

/* Wait for n children; 1 if each exited with status 0. */
static int reap_all(int n)
{
	int ok = 1;
	for (int i = 0; i < n; i++) {
		int st = -1;
		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			ok = 0;
	}
	return ok;
}

/* The CPU this process is on now: field 39 of /proc/self/stat. */
static int this_cpu(void)
{
	char buf[512];
	int fd = open("/proc/self/stat", O_RDONLY);
	if (fd < 0)
		return -1;
	int n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	for (int f = 2; p && f < 39; f++)       /* p is at field f's leading space */
		p = strchr(p + 1, ' ');
	return p ? atoi(p + 1) : -1;
}

struct tms_k { long utime, stime, cutime, cstime; };

static void part_cpus(void)
{
	int fds[2];
	struct tms_k t0, t1;                     /* times(): only its return value is used */
	if (pipe(fds) < 0)
		return;
	long c0 = SC(43, &t0);                   /* times(): ticks since boot */
	for (int i = 0; i < NWORK; i++) {
		if (fork() == 0) {
			unsigned mask = 0;
			volatile unsigned long x = 0;
			for (int round = 0; round < 200; round++) {
				for (int k = 0; k < 200000; k++)
					x += k;
				int c = this_cpu();
				if (c >= 0 && c < 32)
					mask |= 1u << c;
			}
			struct tms_k t;
			SC(43, &t);                      /* its own user time */
			unsigned msg[2] = { mask, (unsigned)t.utime };
			write(fds[1], msg, sizeof msg);
			_exit(0);
		}
	}
	close(fds[1]);
	CHECK("cpus.workers_exit_0", reap_all(NWORK));
	long c1 = SC(43, &t1);
	unsigned all = 0, m[2];
	long user = 0, wall = c1 - c0;
	while (read(fds[0], m, sizeof m) == sizeof m) {
		all |= m[0];
		user += m[1];
	}
	close(fds[0]);
	printf("smp: cpus used %#x, children's user time %ld ticks in %ld ticks\n", all, user, wall);
	CHECK("cpus.more_than_one_cpu_used", __builtin_popcount(all) >= 2);
	CHECK("cpus.user_time_exceeds_elapsed", wall > 0 && user * 2 > wall * 3);
}

static void part_stripes(void)
{
	int fd = open("/st/stripes.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK("stripes.open", fd >= 0);
	if (fd < 0)
		return;
	for (int i = 0; i < NWORK; i++) {
		if (fork() == 0) {
			char buf[BLK];
			int ok = 1;
			for (int b = i; b < NBLK; b += NWORK) {
				memset(buf, 'A' + b % 26, BLK);
				for (int piece = 0; piece < BLK; piece += 1024)   /* 4 writes a block */
					ok &= pwrite(fd, buf + piece, 1024, (off_t)b * BLK + piece) == 1024;
			}
			_exit(ok ? 0 : 1);
		}
	}
	CHECK("stripes.writers_exit_0", reap_all(NWORK));
	struct stat st;
	CHECK("stripes.size", fstat(fd, &st) == 0 && st.st_size == (off_t)NBLK * BLK);
	int bad = -1;
	char buf[BLK];
	for (int b = 0; b < NBLK && bad < 0; b++) {
		if (pread(fd, buf, BLK, (off_t)b * BLK) != BLK)
			bad = b;
		for (int k = 0; k < BLK && bad < 0; k++)
			if (buf[k] != 'A' + b % 26)
				bad = b;
	}
	if (bad >= 0)
		printf("smp: stripes block %d is wrong\n", bad);
	CHECK("stripes.every_block_its_writers", bad < 0);
	close(fd);
}

static void part_files(void)
{
	for (int i = 0; i < NWORK; i++) {
		if (fork() == 0) {
			char name[32], buf[1000], back[1000];
			snprintf(name, sizeof name, "/st/w%d.dat", i);
			int fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644);
			if (fd < 0)
				_exit(2);
			int ok = 1;
			for (int k = 0; k < 128; k++) {          /* 128 writes of 1000 bytes */
				memset(buf, 'a' + (i * 7 + k) % 26, sizeof buf);
				ok &= write(fd, buf, sizeof buf) == sizeof buf;
			}
			for (int k = 0; k < 128 && ok; k++) {
				ok &= pread(fd, back, sizeof back, (off_t)k * 1000) == sizeof back;
				for (int j = 0; j < 1000 && ok; j++)
					ok &= back[j] == 'a' + (i * 7 + k) % 26;
			}
			close(fd);
			_exit(ok ? 0 : 1);
		}
	}
	CHECK("files.each_writer_reads_its_own_back", reap_all(NWORK));
}

static void part_mapshare(void)
{
	const int len = 4 * BLK, words = len / 4;
	int fd = open("/st/mapshare.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK("mapshare.open", fd >= 0 && ftruncate(fd, len) == 0);
	if (fd < 0)
		return;
	for (int c = 0; c < 2; c++) {
		if (fork() == 0) {
			unsigned *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (p == MAP_FAILED)
				_exit(2);
			for (int round = 0; round < 50; round++)
				for (int w = c; w < words; w += 2)
					p[w] = (unsigned)(w * 2 + c + round);
			for (int w = c; w < words; w += 2)
				p[w] = (unsigned)(w * 2 + c);            /* the last round */
			_exit(msync(p, len, MS_SYNC) == 0 ? 0 : 1);
		}
	}
	CHECK("mapshare.writers_exit_0", reap_all(2));
	unsigned *back = malloc(len);
	int bad = -1;
	if (back && pread(fd, back, len, 0) == len)
		for (int w = 0; w < words && bad < 0; w++)
			if (back[w] != (unsigned)(w * 2 + (w & 1)))
				bad = w;
	CHECK("mapshare.every_word_of_both", back && bad < 0);
	free(back);
	close(fd);
}

static void part_forks(void)
{
	for (int i = 0; i < NWORK; i++) {
		if (fork() == 0) {
			int ok = 1;
			for (int k = 0; k < 40; k++) {
				pid_t p = fork();
				if (p == 0)
					_exit(k);
				int st = -1;
				ok &= p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == k;
			}
			_exit(ok ? 0 : 1);
		}
	}
	CHECK("forks.every_child_reaped_with_its_status", reap_all(NWORK));
}

static void part_truncmap(void)
{
	int fd = open("/st/truncmap.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	char page[BLK];
	memset(page, 'T', BLK);
	CHECK("truncmap.open", fd >= 0 && pwrite(fd, page, BLK, 0) == BLK);
	if (fd < 0)
		return;
	pid_t cutter = fork();
	if (cutter == 0) {
		for (int k = 0; k < 300; k++)
			if (ftruncate(fd, BLK + (k % 7) * 3000) != 0)
				_exit(1);
		_exit(0);
	}
	pid_t reader = fork();
	if (reader == 0) {
		for (int k = 0; k < 300; k++) {
			char *p = mmap(NULL, BLK, PROT_READ, MAP_SHARED, fd, 0);
			if (p == MAP_FAILED || p[0] != 'T' || p[BLK - 1] != 'T')
				_exit(1);
			munmap(p, BLK);
		}
		_exit(0);
	}
	CHECK("truncmap.both_exit_0", reap_all(2));
	close(fd);
}

static void part_fsx(void)
{
	for (int i = 0; i < 3; i++) {
		if (fork() == 0) {
			char file[32], seed[8];
			snprintf(file, sizeof file, "/st/fsx%d.dat", i);
			snprintf(seed, sizeof seed, "%d", i + 1);
			char *av[] = { "/tests/fsx", file, seed, "400", NULL };
			char *ev[] = { "PATH=/bin", NULL };
			execve(av[0], av, ev);
			_exit(127);
		}
	}
	CHECK("fsx.three_at_once_exit_0", reap_all(3));
}

/* Byte i of pair k's stream. */
static unsigned char pipe_byte(int k, unsigned i)
{
	return (unsigned char)(i * 131u + (unsigned)k * 17u + (i >> 9));
}

static void part_pipes(void)
{
	enum { TOTAL = 256 * 1024, REC = 512, RECS = 200 };
	for (int k = 0; k < NWORK / 2; k++) {
		int fds[2];
		if (pipe(fds) != 0)
			_exit(2);
		if (fork() == 0) {                       /* the writer */
			static unsigned char buf[8192];
			close(fds[0]);
			for (unsigned off = 0, n; off < TOTAL; off += n) {
				n = 1 + (off * 7 + (unsigned)k * 1000) % sizeof buf;
				if (n > TOTAL - off)
					n = TOTAL - off;
				for (unsigned i = 0; i < n; i++)
					buf[i] = pipe_byte(k, off + i);
				if (write(fds[1], buf, n) != (ssize_t)n)
					_exit(1);
			}
			_exit(0);
		}
		if (fork() == 0) {                       /* the reader */
			static unsigned char buf[5000];
			unsigned off = 0;
			ssize_t got;
			close(fds[1]);
			while ((got = read(fds[0], buf, sizeof buf)) > 0)
				for (ssize_t i = 0; i < got; i++, off++)
					if (buf[i] != pipe_byte(k, off))
						_exit(1);
			_exit(got == 0 && off == TOTAL ? 0 : 1);
		}
		close(fds[0]);
		close(fds[1]);
	}
	CHECK("pipes.every_byte_of_every_stream", reap_all(NWORK));

	int fds[2];
	CHECK("pipes.shared_pipe", pipe(fds) == 0);
	for (int w = 0; w < NWORK; w++) {
		if (fork() == 0) {
			unsigned char rec[REC];
			close(fds[0]);
			for (int r = 0; r < RECS; r++) {
				memset(rec, 'A' + w, REC);
				rec[0] = (unsigned char)r;
				if (write(fds[1], rec, REC) != REC)
					_exit(1);
			}
			_exit(0);
		}
	}
	close(fds[1]);
	unsigned char rec[REC];
	int recs = 0, torn = 0, next[NWORK] = { 0 };
	for (;;) {
		size_t have = 0;
		ssize_t got = 1;
		while (have < REC && (got = read(fds[0], rec + have, REC - have)) > 0)
			have += (size_t)got;
		if (have < REC)
			break;
		int w = rec[1] - 'A';
		int ok = w >= 0 && w < NWORK && rec[0] == (unsigned char)next[w];
		for (int i = 1; ok && i < REC; i++)
			ok = rec[i] == 'A' + w;
		torn += !ok;
		if (ok)
			next[w]++;
		recs++;
	}
	close(fds[0]);
	CHECK("pipes.shared_writers_exit_0", reap_all(NWORK));
	if (torn || recs != NWORK * RECS)
		printf("smp: pipes: %d records, %d torn or out of order\n", recs, torn);
	CHECK("pipes.no_record_torn", torn == 0 && recs == NWORK * RECS);
}

/* Read a small /proc file into buf (NUL-terminated); its length or -1. */
static int read_proc(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY), n = -1;
	if (fd >= 0) {
		n = read(fd, buf, size - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* Write s to a /proc file: 0, or the errno. */
static int write_proc(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;
	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		err = errno;
	close(fd);
	return err;
}

/* IRQ 14's count on each of the 4 CPUs, from /proc/interrupts. */
static int irq14_counts(unsigned long *v)
{
	static char buf[4096];
	if (read_proc("/proc/interrupts", buf, sizeof buf) <= 0)
		return 0;
	char *p = strstr(buf, "\n 14:");
	if (!p)
		return 0;
	p += 5;
	for (int i = 0; i < NWORK; i++)
		v[i] = strtoul(p, &p, 10);
	return 1;
}

static void part_irqs(void)
{
	const char *aff = "/proc/irq/14/smp_affinity";
	char buf[64];
	unsigned long c0[NWORK], c1[NWORK];
	read_proc(aff, buf, sizeof buf);
	CHECK("irqs.disk_on_cpu2", !strcmp(buf, "4\n"));
	CHECK("irqs.move_to_cpu1", write_proc(aff, "2\n") == 0);
	read_proc(aff, buf, sizeof buf);
	CHECK("irqs.reads_back", !strcmp(buf, "2\n"));
	sync();                                  /* anything in flight lands first */
	CHECK("irqs.counts_read", irq14_counts(c0));
	int fd = open("/st/irqs", O_CREAT | O_TRUNC | O_WRONLY, 0644);
	static char block[BLK];
	memset(block, 'i', sizeof block);
	for (int i = 0; i < 16 && fd >= 0; i++)
		write(fd, block, sizeof block);
	CHECK("irqs.fsync", fd >= 0 && fsync(fd) == 0);
	close(fd);
	CHECK("irqs.counts_read_again", irq14_counts(c1));
	printf("smp: IRQ 14 on CPUs 0-3 during the fsync: %lu %lu %lu %lu\n",
	       c1[0] - c0[0], c1[1] - c0[1], c1[2] - c0[2], c1[3] - c0[3]);
	CHECK("irqs.counted_on_cpu1", c1[1] > c0[1]);
	CHECK("irqs.not_elsewhere", c1[0] == c0[0] && c1[2] == c0[2] && c1[3] == c0[3]);
	CHECK("irqs.empty_mask_einval", write_proc(aff, "0\n") == EINVAL);
	CHECK("irqs.offline_cpu_einval", write_proc(aff, "10\n") == EINVAL);
	CHECK("irqs.not_hex_einval", write_proc(aff, "zz\n") == EINVAL);
	CHECK("irqs.back_to_cpu2", write_proc(aff, "4\n") == 0);
}

/* ---- threads: one mm, several CPUs ---------------------------------------- */

#define TF_PAGES   256                   /* 1 MiB of each kind */
#define TF_STACK   16384

struct tf_arg { volatile unsigned *anon, *file; int id; volatile int *go; };

/* A thread's work: wait for the start, then for each page (from its own
 * place in the ring, so that threads meet on pages) read it, then store
 * its word; return 0 if every read saw zero or its own earlier stores. */
static int tf_work(struct tf_arg *a)
{
	while (!*a->go)
		;
	int bad = 0;
	for (int k = 0; k < TF_PAGES; k++) {
		int p = (k + a->id * 7) % TF_PAGES;
		volatile unsigned *an = a->anon + p * (BLK / 4), *fi = a->file + p * (BLK / 4);
		if (an[a->id] != 0 || fi[a->id] != 0)
			bad = 1;
		an[a->id] = (unsigned)(p * 16 + a->id + 1);
		fi[a->id] = (unsigned)(p * 16 + a->id + 1);
	}
	return bad;
}

/* Where a new thread starts: __syscall6's epilogue on the thread's own
 * stack (below) pops four registers and returns here, with arg above the
 * return slot.  Never returns: exit(2) of this task alone. */
static void __attribute__((noreturn, used)) tf_entry(struct tf_arg *a)
{
	__syscall6(__NR_exit, tf_work(a), 0, 0, 0, 0, 0);
	for (;;)
		;
}

/* clone(CLONE_VM | SIGCHLD) onto stack: the child comes back from the
 * system call inside __syscall6 (user/libc/syscall.S) with esp = the new
 * stack, which holds what that function pops (ebx, esi, edi, ebp), then
 * tf_entry as its return address, a dummy return slot and the argument. */
static long tf_spawn(char *stack, struct tf_arg *a)
{
	unsigned long *sp = (unsigned long *)(((unsigned long)stack + TF_STACK) & ~15ul);
	sp -= 10;                                /* sp % 16 == 8: the arg (sp[6]) at 16n */
	sp[0] = sp[1] = sp[2] = sp[3] = 0;
	sp[4] = (unsigned long)tf_entry;
	sp[5] = 0;
	sp[6] = (unsigned long)a;
	return __syscall6(__NR_clone, 0x00000100 /* CLONE_VM */ | SIGCHLD, (long)sp, 0, 0, 0, 0);
}

static void part_threadfault(void)
{
	int fd = open("/st/threadfault.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK("threadfault.open", fd >= 0 && ftruncate(fd, TF_PAGES * BLK) == 0);
	if (fd < 0)
		return;
	unsigned *anon = mmap(NULL, TF_PAGES * BLK, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned *file = mmap(NULL, TF_PAGES * BLK, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *stacks = mmap(NULL, NWORK * TF_STACK, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static struct tf_arg args[NWORK];
	static volatile int go;
	CHECK("threadfault.mmap", anon != MAP_FAILED && file != MAP_FAILED && stacks != MAP_FAILED);
	if (anon == MAP_FAILED || file == MAP_FAILED || stacks == MAP_FAILED)
		return;
	memset(stacks, 0, NWORK * TF_STACK);     /* the stacks' own faults, before */
	int started = 0;
	for (int i = 0; i < NWORK; i++) {
		args[i] = (struct tf_arg){ anon, file, i, &go };
		if (tf_spawn(stacks + i * TF_STACK, &args[i]) > 0)
			started++;
	}
	CHECK("threadfault.clone_vm", started == NWORK);
	go = 1;
	CHECK("threadfault.threads_exit_0", reap_all(started));
	int bad = -1;
	for (int p = 0; p < TF_PAGES && bad < 0; p++)
		for (int i = 0; i < NWORK; i++)
			if (anon[p * (BLK / 4) + i] != (unsigned)(p * 16 + i + 1) ||
			    file[p * (BLK / 4) + i] != (unsigned)(p * 16 + i + 1))
				bad = p;
	CHECK("threadfault.every_word_of_every_thread", bad < 0);
	if (bad >= 0)
		printf("threadfault: page %d: anon %u %u %u %u, file %u %u %u %u\n", bad,
		       anon[bad * 1024], anon[bad * 1024 + 1], anon[bad * 1024 + 2], anon[bad * 1024 + 3],
		       file[bad * 1024], file[bad * 1024 + 1], file[bad * 1024 + 2], file[bad * 1024 + 3]);
	unsigned *back = malloc(BLK);
	int fbad = back == NULL;
	for (int p = 0; p < TF_PAGES && !fbad; p++)
		if (pread(fd, back, BLK, (off_t)p * BLK) != BLK || back[0] != (unsigned)(p * 16 + 1) ||
		    back[NWORK - 1] != (unsigned)(p * 16 + NWORK))
			fbad = 1;
	CHECK("threadfault.file_read_back", !fbad);
	free(back);
	munmap(anon, TF_PAGES * BLK);
	munmap(file, TF_PAGES * BLK);
	munmap(stacks, NWORK * TF_STACK);
	close(fd);
}

/* ---- /proc/schedstat ------------------------------------------------------ */

#define SS_FIELDS 14                     /* Linux's 9, then Vellum's 5 */

/* Each CPU's fields (1-based) from /proc/schedstat, and its timestamp;
 * 1 if the file has the format docs/smp.md gives, line by line. */
static int read_schedstat(unsigned long f[NWORK][SS_FIELDS + 1], unsigned long *stamp)
{
	static char buf[4096];
	if (read_proc("/proc/schedstat", buf, sizeof buf) <= 0)
		return 0;
	char *p = buf;
	if (strncmp(p, "version 15\ntimestamp ", 21))
		return 0;
	*stamp = strtoul(p + 21, &p, 10);
	for (int cpu = 0; cpu < NWORK; cpu++) {
		char want[16];
		snprintf(want, sizeof want, "\ncpu%d ", cpu);
		if (strncmp(p, want, strlen(want)))
			return 0;
		p += strlen(want) - 1;
		for (int k = 1; k <= SS_FIELDS; k++) {
			if (*p != ' ')
				return 0;
			f[cpu][k] = strtoul(p + 1, &p, 10);
		}
	}
	return !strcmp(p, "\n");
}

static void part_schedstat(void)
{
	static unsigned long a[NWORK][SS_FIELDS + 1], b[NWORK][SS_FIELDS + 1];
	unsigned long s0, s1, sum_a[SS_FIELDS + 1] = { 0 }, sum_b[SS_FIELDS + 1] = { 0 };
	CHECK("schedstat.format", read_schedstat(a, &s0));
	for (int i = 0; i < NWORK; i++)
		if (fork() == 0) {
			for (int k = 0; k < 20; k++)
				usleep(10000);
			_exit(0);
		}
	CHECK("schedstat.workers", reap_all(NWORK));
	CHECK("schedstat.format_again", read_schedstat(b, &s1));
	static char text[4096];                  /* the file itself, for the log */
	if (read_proc("/proc/schedstat", text, sizeof text) > 0)
		printf("%s", text);
	CHECK("schedstat.timestamp_moves", s1 > s0);
	int back = 0, fields_ok = 1;
	for (int cpu = 0; cpu < NWORK; cpu++)
		for (int k = 1; k <= SS_FIELDS; k++) {
			back |= b[cpu][k] < a[cpu][k];
			sum_a[k] += a[cpu][k];
			sum_b[k] += b[cpu][k];
			if (k == 2 && b[cpu][k] != 0)        /* Linux's legacy field: 0 */
				fields_ok = 0;
			if (k == 6 && b[cpu][6] > b[cpu][5]) /* ttwu_local <= ttwu_count */
				fields_ok = 0;
		}
	printf("smp: schedstat over 4 x 20 sleeps: schedule() +%lu, wake-ups +%lu, switches +%lu\n",
	       sum_b[3] - sum_a[3], sum_b[5] - sum_a[5], sum_b[10] - sum_a[10]);
	CHECK("schedstat.fields", fields_ok);
	CHECK("schedstat.never_back", !back);
	CHECK("schedstat.schedule_calls_grow", sum_b[3] >= sum_a[3] + NWORK * 20);
	CHECK("schedstat.wakeups_grow", sum_b[5] >= sum_a[5] + NWORK * 20);
	CHECK("schedstat.switches_grow", sum_b[10] > sum_a[10]);
}

static const struct { const char *name; void (*fn)(void); } parts[] = {
	{ "cpus", part_cpus }, { "stripes", part_stripes }, { "files", part_files },
	{ "mapshare", part_mapshare }, { "forks", part_forks },
	{ "truncmap", part_truncmap }, { "fsx", part_fsx }, { "pipes", part_pipes },
	{ "irqs", part_irqs }, { "threadfault", part_threadfault },
	{ "schedstat", part_schedstat },
};

int main(void)
{
	mkdir("/st", 0755);
	setvbuf(stdout, NULL, _IONBF, 0);        /* children's lines in order */
	for (unsigned i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			check_failures = 0;
			parts[i].fn();
			_exit(check_summary());
		}
		int st = -1;
		waitpid(pid, &st, 0);
		printf("smp_init: %s status %d\n", parts[i].name, st);
	}
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
