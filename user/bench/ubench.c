/*
 * user/bench/ubench.c - the user-space benchmark of the write and read
 * paths (docs/benchmarks.md, "The user-space benchmark").  One static i386
 * program, built with our libc, run unchanged as Vellum's init and by a
 * script on Debian's Linux (tools/ubench.sh boots both).
 *
 * usage: ubench [-q] [-s N] [DIR]
 *   DIR  where to create the files (default: the current directory)
 *   -q   quick: small sizes, one repetition (the `make check` smoke run;
 *        its figures are not meaningful)
 *   -s N the scaling row alone, scale_N: N processes, each overwriting a
 *        cached file of its own, 4 KiB per write(), REPS times 1 MiB, all
 *        at once (tools/ubench.sh --scale boots it at -smp N: one process
 *        a CPU).  The figure is the ticks from the first child's first
 *        write to the last child's last, per KiB that all of them wrote
 *        (each reads the clock itself, so the wake-ups around the run,
 *        where an idle CPU's clock jumps to its next tick, do not count;
 *        each checks its file after, untimed): under -icount every
 *        CPU's instructions advance the one clock, so a CPU spinning on a
 *        lock costs as much as one working.  Run as ubench-sN (a copy
 *        of the program under that name), it is ubench -s N: Vellum's
 *        init= gets no arguments.
 *
 * Every figure is "rdtsc ticks per KiB moved".  Under QEMU's -icount
 * shift=0 the guest's time-stamp counter advances by one per guest
 * instruction, kernel included, so a tick is an instruction; the program
 * prints `ubench: calibrate` (a loop of a known instruction count) to show
 * the scale.  A figure is the minimum over REPS repetitions: a timer
 * interrupt that lands inside one repetition (its place depends on earlier
 * disk waits, which run in host time) does not move the result.  fsync
 * (fsync_8m, smallfile_fsync) is measured once: it waits for the disk, so
 * it is not repeatable.
 *
 * Output, one line per figure, then a summary:
 *   ubench: ROW VALUE instr/KiB
 *   ubench: done N figures, E errors
 * As pid 1 (Vellum's init=) the program syncs and powers the machine off.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

static size_t size = 1 << 20;          /* bytes per timed repetition */
static size_t sync_size = 8 << 20;     /* the fsync row */
static int reps = 5;
static int figures, errors;
static char *buf;                      /* the pattern, size bytes, pre-faulted */
static char *buf2;                     /* read target / memcpy target */

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static void fig(const char *name, uint64_t ticks, size_t bytes)
{
	uint64_t per_kib = (ticks * 1024 + bytes / 2) / bytes;
	printf("ubench: %s %llu instr/KiB\n", name, (unsigned long long)per_kib);
	figures++;
}

static void error(const char *what)
{
	printf("ubench: error %s (errno %d)\n", what, errno);
	errors++;
}

static void die(const char *what)
{
	error(what);
	printf("ubench: done %d figures, %d errors\n", figures, errors);
	exit(1);
}

/* byte i of the pattern: differs from page to page and within a page */
static char pat(size_t i)
{
	return (char)((i >> 12) * 7 + i * 13 + 1);
}

/* The 32-bit copy every kernel copy here is measured against: rep movsl,
 * one counted instruction per 4 bytes (256 per KiB). */
static void copy32(void *dst, const void *src, size_t n)
{
	n /= 4;
	__asm__ volatile("rep movsl" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

/* A loop of exactly 4 instructions per turn: its ticks per instruction
 * are the scale of every figure (1 under -icount shift=0). */
static void calibrate(void)
{
	uint64_t best = ~0ull;
	const unsigned turns = 100000;
	for (int r = 0; r < 3; r++) {
		unsigned n = turns;
		uint64_t t = rdtsc();
		__asm__ volatile("1: nop\n\tnop\n\tdec %0\n\tjnz 1b" : "+r"(n));
		t = rdtsc() - t;
		if (t < best)
			best = t;
	}
	/* ticks per 1000 instructions of the loop (4 per turn) */
	printf("ubench: calibrate %llu ticks per 1000 instructions\n",
	       (unsigned long long)((best * 1000 + 2 * turns) / (4ull * turns)));
}

static void write_all(int fd, const char *src, size_t n, size_t chunk)
{
	for (size_t off = 0; off < n; off += chunk) {
		size_t c = n - off < chunk ? n - off : chunk;
		if (write(fd, src + off, c) != (ssize_t)c)
			die("write");
	}
}

static void read_all(int fd, char *dst, size_t n, size_t chunk)
{
	for (size_t off = 0; off < n; off += chunk) {
		size_t c = n - off < chunk ? n - off : chunk;
		if (read(fd, dst + off, c) != (ssize_t)c)
			die("read");
	}
}

/* Check that the file holds the pattern (zero: all zeros). */
static void check_file(int fd, int zero, const char *row)
{
	if (lseek(fd, 0, SEEK_SET) != 0)
		die("lseek");
	read_all(fd, buf2, size, 65536);
	for (size_t i = 0; i < size; i++)
		if (buf2[i] != (zero ? 0 : pat(i))) {
			printf("ubench: error %s: byte %u of the file is wrong\n", row, (unsigned)i);
			errors++;
			return;
		}
}

/* The overwrite and read rows: min over reps of one pass over the cached
 * file "data" with write() (or read()) calls of `chunk` bytes. */
static void overwrite_row(int fd, const char *name, size_t chunk)
{
	uint64_t best = ~0ull;
	for (int r = 0; r < reps; r++) {
		if (lseek(fd, 0, SEEK_SET) != 0)
			die("lseek");
		uint64_t t = rdtsc();
		write_all(fd, buf, size, chunk);
		t = rdtsc() - t;
		if (t < best)
			best = t;
	}
	fig(name, best, size);
}

/* The scaling row: n writers at once (usage above).  Each child makes its
 * file and writes it once (blocks allocated, pages cached) before it says
 * it is ready; the parent lets them all go; each child reads the clock
 * before and after its writes, and the figure is the span from the first
 * start to the last end.  A child checks its file only after every child
 * has finished writing (the pipe `done`): under -icount the CPUs share
 * one clock, so a check running beside another child's writes would be
 * counted in the span. */
static void scale_row(int n)
{
	int ready[2], go[2], fin[2], done[2];
	char name[16], c;
	if (pipe(ready) != 0 || pipe(go) != 0 || pipe(fin) != 0 || pipe(done) != 0)
		die("pipe");
	for (int k = 0; k < n; k++) {
		pid_t pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			snprintf(name, sizeof name, "scale%d", k);
			int fd = open(name, O_CREAT | O_TRUNC | O_RDWR, 0644);
			if (fd < 0)
				die("open scale");
			write_all(fd, buf, size, 65536);
			if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
				die("pipe");
			uint64_t when[2];
			when[0] = rdtsc();
			for (int r = 0; r < reps; r++) {
				if (lseek(fd, 0, SEEK_SET) != 0)
					die("lseek");
				write_all(fd, buf, size, 4096);
			}
			when[1] = rdtsc();
			if (write(fin[1], when, sizeof when) != sizeof when ||
			    read(done[0], &c, 1) != 1)
				die("pipe");
			check_file(fd, 0, name);
			close(fd);
			_exit(errors ? 1 : 0);
		}
	}
	for (int k = 0; k < n; k++)
		if (read(ready[0], &c, 1) != 1)
			die("pipe");
	for (int k = 0; k < n; k++)
		if (write(go[1], "g", 1) != 1)
			die("pipe");
	uint64_t first = ~0ull, last = 0;
	for (int k = 0; k < n; k++) {
		uint64_t when[2];
		if (read(fin[0], when, sizeof when) != sizeof when)
			die("pipe");
		first = when[0] < first ? when[0] : first;
		last = when[1] > last ? when[1] : last;
	}
	for (int k = 0; k < n; k++)
		if (write(done[1], "d", 1) != 1)
			die("pipe");
	uint64_t t = last - first;
	for (int k = 0; k < n; k++) {
		int status;
		if (wait(&status) < 0)
			die("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			error("scale child (its file's bytes, or a call, failed)");
	}
	snprintf(name, sizeof name, "scale_%d", n);
	fig(name, t, (size_t)n * reps * size);
	for (int k = 0; k < n; k++) {
		snprintf(name, sizeof name, "scale%d", k);
		unlink(name);
	}
}

int main(int argc, char **argv)
{
	int a = 1, scale = 0;
	const char *me = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	if (!strncmp(me, "ubench-s", 8))
		scale = atoi(me + 8);
	if (a < argc && !strcmp(argv[a], "-q")) {
		size = 64 << 10;
		sync_size = 256 << 10;
		reps = 1;
		a++;
	}
	if (a + 1 < argc && !strcmp(argv[a], "-s")) {
		scale = atoi(argv[a + 1]);
		if (scale < 1 || scale > 64)
			die("-s N: N from 1 to 64");
		a += 2;
	}
	if (a < argc && chdir(argv[a]) != 0)
		die("chdir");
	printf("ubench: start size %u KiB, reps %d\n", (unsigned)(size >> 10), reps);
	buf = malloc(size);
	buf2 = malloc(size);
	if (!buf || !buf2)
		die("malloc");
	for (size_t i = 0; i < size; i++) {
		buf[i] = pat(i);
		buf2[i] = 0;
	}
	calibrate();
	if (scale) {
		scale_row(scale);
		goto done;
	}

	/* memcpy bound: the copy alone, user to user */
	uint64_t best = ~0ull;
	for (int r = 0; r < reps; r++) {
		uint64_t t = rdtsc();
		copy32(buf2, buf, size);
		t = rdtsc() - t;
		if (t < best)
			best = t;
	}
	fig("memcpy_bound", best, size);

	/* sequential new-file writes, 4 KiB: a new file each repetition */
	best = ~0ull;
	for (int r = 0; r < reps; r++) {
		unlink("new");
		int fd = open("new", O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (fd < 0)
			die("open new");
		uint64_t t = rdtsc();
		write_all(fd, buf, size, 4096);
		t = rdtsc() - t;
		if (t < best)
			best = t;
		close(fd);
	}
	unlink("new");
	fig("newfile_4k", best, size);

	/* the cached file "data" */
	int fd = open("data", O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (fd < 0)
		die("open data");
	write_all(fd, buf, size, 65536);
	overwrite_row(fd, "overwrite_4k", 4096);
	overwrite_row(fd, "overwrite_64k", 65536);
	overwrite_row(fd, "overwrite_1000", 1000);

	/* read of cached data, 4 KiB */
	best = ~0ull;
	for (int r = 0; r < reps; r++) {
		memset(buf2, 0, size);
		if (lseek(fd, 0, SEEK_SET) != 0)
			die("lseek");
		uint64_t t = rdtsc();
		read_all(fd, buf2, size, 4096);
		t = rdtsc() - t;
		if (t < best)
			best = t;
	}
	fig("read_4k", best, size);
	check_file(fd, 0, "read_4k");

	/* writes from a never-touched anonymous buffer: every page faults
	 * (a read fault: write() only reads its source) */
	best = ~0ull;
	for (int r = 0; r < reps; r++) {
		char *anon = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (anon == MAP_FAILED)
			die("mmap anon");
		if (lseek(fd, 0, SEEK_SET) != 0)
			die("lseek");
		uint64_t t = rdtsc();
		write_all(fd, anon, size, 4096);
		t = rdtsc() - t;
		if (t < best)
			best = t;
		munmap(anon, size);
	}
	fig("anon_untouched_4k", best, size);
	check_file(fd, 1, "anon_untouched_4k");

	/* writes from a MAP_SHARED mapping of the same file, to the same
	 * offsets: the source page is the destination page (the deadlock case
	 * write_begin/write_end exists for).  A fresh mapping each time, so
	 * every page is faulted in from the page cache. */
	if (lseek(fd, 0, SEEK_SET) != 0)
		die("lseek");
	write_all(fd, buf, size, 65536);
	best = ~0ull;
	for (int r = 0; r < reps; r++) {
		char *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			die("mmap shared");
		if (lseek(fd, 0, SEEK_SET) != 0)
			die("lseek");
		uint64_t t = rdtsc();
		write_all(fd, map, size, 4096);
		t = rdtsc() - t;
		if (t < best)
			best = t;
		munmap(map, size);
	}
	fig("mmap_shared_4k", best, size);
	check_file(fd, 0, "mmap_shared_4k");
	close(fd);

	/* fsync of 8 MiB of dirty data: the blocks are allocated and written
	 * once (untimed), then overwritten in the page cache, then fsync */
	fd = open("sync", O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (fd < 0)
		die("open sync");
	for (size_t off = 0; off < sync_size; off += size)
		write_all(fd, buf, size, 65536);
	if (fsync(fd) != 0)
		die("fsync");
	if (lseek(fd, 0, SEEK_SET) != 0)
		die("lseek");
	for (size_t off = 0; off < sync_size; off += size)
		write_all(fd, buf, size, 65536);
	uint64_t t = rdtsc();
	if (fsync(fd) != 0)
		die("fsync");
	t = rdtsc() - t;
	fig("fsync_8m", t, sync_size);
	close(fd);
	unlink("sync");
	unlink("data");

	/* small files made durable one by one: create, write 4 KiB, fsync,
	 * close (a mail spool, an editor's save).  Each fsync commits the
	 * file's new inode, directory entry, bitmaps and block (ext3: the
	 * running transaction, with its data first).  Waits for the disk:
	 * measured once, as fsync_8m. */
	int nsmall = reps > 1 ? 16 : 2;
	t = rdtsc();
	for (int i = 0; i < nsmall; i++) {
		char name[16];
		snprintf(name, sizeof name, "small%d", i);
		int sfd = open(name, O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (sfd < 0)
			die("open small");
		write_all(sfd, buf, 4096, 4096);
		if (fsync(sfd) != 0)
			die("fsync small");
		close(sfd);
	}
	t = rdtsc() - t;
	fig("smallfile_fsync", t, (size_t)nsmall * 4096);
	for (int i = 0; i < nsmall; i++) {
		char name[16];
		snprintf(name, sizeof name, "small%d", i);
		unlink(name);
	}

done:
	printf("ubench: done %d figures, %d errors\n", figures, errors);
	fflush(stdout);
	if (getpid() == 1) {
		sync();
		reboot(LINUX_REBOOT_CMD_POWER_OFF);
	}
	return errors ? 1 : 0;
}
