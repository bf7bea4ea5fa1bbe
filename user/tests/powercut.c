/*
 * powercut.c - an init for the power-cut tests (tools/tests/powercut.sh
 * boots init=/tests/powercut).  What it does is read from /etc/powercut on
 * the image (one word, the host writes it):
 *
 *   clean    write /pc/clean, then power off cleanly (reboot(2) syncs and
 *            unmounts): the host checks the superblock says clean.
 *   fsync    mkdir /pc/dir, create and write /pc/dir/unsynced and
 *            /pc/other (never synced), then write /pc/synced and fsync it,
 *            print "powercut: fsync done" and wait: the host kills QEMU at
 *            that line (a power cut right after fsync).
 *   flusher  mkdir /pc/fl, write 1 MiB to /pc/fl/big (never synced), sleep
 *            SECS seconds (the host boots with a short dirty_expire), print
 *            "powercut: slept" and wait for the cut.
 *
 * The durability rules (each ends "powercut: MODE done" and waits for the cut):
 *   msync    mkdir /pc/m, create /pc/m/map, ftruncate it to 600 KiB + 100
 *            (all hole), store through a MAP_SHARED mapping into pages 0, 5,
 *            100 and the last (blocks in the direct, indirect and, at 1 KiB
 *            blocks, double-indirect range), msync(MS_SYNC).
 *   fsyncdir mkdir /pc/d, create /pc/d/new, write it, fsync it, fsync /pc/d.
 *   sync     mkdir /pc/s; write /pc/s/a (300 KiB), /pc/s/b (1 byte),
 *            /pc/s/gone (then unlinked), /pc/s/old (then renamed to
 *            /pc/s/renamed), /pc/s/short (5000 bytes, then truncated to
 *            1000); sync().
 *   enospc   write /pc/secret (6 KiB), fill the filesystem with /pc/filler
 *            (1 KiB writes until ENOSPC), sync, unlink /pc/secret and sync:
 *            its freed blocks (6 at 1 KiB, 2 at 4 KiB) still hold its bytes
 *            on the disk.  Then store 12 KiB through a shared mapping of a
 *            new sparse /pc/hole and msync: writeback allocates the freed
 *            blocks and meets ENOSPC (mid-page at 1 KiB: page 1 gets 2 of
 *            its 4 blocks); msync must return ENOSPC, the next fsync 0.
 *            The host checks that /pc/hole holds its own bytes and zeros
 *            (holes), never /pc/secret's.
 *   fsyncchurn  a child creates, writes and unlinks small files for ever
 *            (nothing of its own synced) while this process appends 1 KiB
 *            to /pc/log and fsyncs it, CHURN_FSYNCS times; a watchdog child
 *            prints FAIL if they are not done in CHURN_LIMIT_S seconds of
 *            guest time.  Then the churner is killed, /pc/log fsync'd once
 *            more (the image quiet, so e2fsck must find it clean).
 *
 * File contents are vpattern bytes (tools/vpattern.c), key = the file's
 * base name, so the host regenerates them with `vpattern NAME LEN`.
 * Every step's failure is printed ("powercut: FAIL ...") and the host
 * fails on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vpattern.h"

static char buf[8192];

/* Write LEN pattern bytes (key NAME) to PATH; fsync it if SYNC.  0 or -1. */
static int put(const char *path, const char *name, unsigned len, int sync)
{
	unsigned seed = fnv1a32(name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		printf("powercut: FAIL open %s: %d\n", path, errno);
		return -1;
	}
	for (unsigned off = 0; off < len; ) {
		unsigned n = len - off < sizeof buf ? len - off : sizeof buf;
		for (unsigned i = 0; i < n; i++)
			buf[i] = vpattern_byte(seed, off + i);
		ssize_t w = write(fd, buf, n);
		if (w != (ssize_t)n) {
			printf("powercut: FAIL write %s at %u: %ld (%d)\n", path, off, (long)w, errno);
			close(fd);
			return -1;
		}
		off += n;
	}
	if (sync && fsync(fd)) {
		printf("powercut: FAIL fsync %s: %d\n", path, errno);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static void wait_for_cut(const char *marker)
{
	printf("powercut: %s\n", marker);
	fflush(stdout);
	for (;;)
		sleep(100);
}

#define CHECK(what, cond) do { if (!(cond)) \
	printf("powercut: FAIL %s: %s (errno %d)\n", what, #cond, errno); } while (0)

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* ---- msync: a shared mapping fills holes; msync(MS_SYNC) returns */
#define MAP_LEN (600 * 1024 + 100)
static void do_msync(void)
{
	static const unsigned pages[] = { 0, 5, 100, MAP_LEN / 4096 };
	CHECK("mkdir /pc/m", mkdir("/pc/m", 0755) == 0);
	int fd = open("/pc/m/map", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK("open /pc/m/map", fd >= 0);
	CHECK("ftruncate", ftruncate(fd, MAP_LEN) == 0);
	unsigned char *p = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK("mmap", p != MAP_FAILED);
	if (p == MAP_FAILED)
		return;
	for (unsigned k = 0; k < sizeof pages / sizeof pages[0]; k++) {
		unsigned off = pages[k] * 4096;
		unsigned n = MAP_LEN - off < 4096 ? MAP_LEN - off : 4096;
		vpattern_fill(p + off, fnv1a32("map"), off, n);
	}
	CHECK("msync", msync(p, MAP_LEN, MS_SYNC) == 0);
	wait_for_cut("msync done");
}

/* ---- fsyncdir: fsync a new file, then its directory */
static void do_fsyncdir(void)
{
	CHECK("mkdir /pc/d", mkdir("/pc/d", 0755) == 0);
	put("/pc/d/new", "new", 3000, 1);
	int dfd = open("/pc/d", O_RDONLY | O_DIRECTORY);
	CHECK("open /pc/d", dfd >= 0);
	CHECK("fsync /pc/d", fsync(dfd) == 0);
	close(dfd);
	wait_for_cut("fsyncdir done");
}

/* ---- sync: creates, an unlink, a rename and a truncate, then sync() */
static void do_sync(void)
{
	CHECK("mkdir /pc/s", mkdir("/pc/s", 0755) == 0);
	put("/pc/s/a", "a", 300 * 1024, 0);
	put("/pc/s/b", "b", 1, 0);
	put("/pc/s/gone", "gone", 20000, 0);
	put("/pc/s/old", "old", 7000, 0);
	put("/pc/s/short", "short", 5000, 0);
	CHECK("unlink gone", unlink("/pc/s/gone") == 0);
	CHECK("rename old", rename("/pc/s/old", "/pc/s/renamed") == 0);
	CHECK("truncate short", truncate("/pc/s/short", 1000) == 0);
	sync();
	wait_for_cut("sync done");
}

/* ---- enospc: writeback meets ENOSPC in blocks another file freed */
static unsigned long free_blocks(void)
{
	struct statfs st;
	return statfs("/", &st) ? (unsigned long)-1 : (unsigned long)st.f_bfree;
}

static void do_enospc(void)
{
	put("/pc/secret", "secret", 6144, 0);
	int fd = open("/pc/filler", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK("open /pc/filler", fd >= 0);
	unsigned len = 0;
	for (;;) {
		vpattern_fill((unsigned char *)buf, fnv1a32("filler"), len, 1024);
		ssize_t w = write(fd, buf, 1024);
		if (w <= 0) {
			CHECK("filler ends with ENOSPC", w < 0 && errno == ENOSPC);
			break;
		}
		len += w;
		if (w < 1024)
			break;
	}
	close(fd);
	sync();
	printf("powercut: filler %u bytes, %lu blocks free\n", len, free_blocks());
	CHECK("unlink /pc/secret", unlink("/pc/secret") == 0);
	sync();
	printf("powercut: secret unlinked, %lu blocks free\n", free_blocks());
	fd = open("/pc/hole", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK("open /pc/hole", fd >= 0);
	CHECK("ftruncate /pc/hole", ftruncate(fd, 12288) == 0);
	unsigned char *p = mmap(NULL, 12288, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK("mmap /pc/hole", p != MAP_FAILED);
	if (p == MAP_FAILED)
		return;
	vpattern_fill(p, fnv1a32("hole"), 0, 12288);
	int r = msync(p, 12288, MS_SYNC);
	printf("powercut: msync %d errno %d\n", r, r ? errno : 0);
	CHECK("msync is ENOSPC", r == -1 && errno == ENOSPC);
	CHECK("then fsync is 0", fsync(fd) == 0);
	munmap(p, 12288);
	close(fd);
	wait_for_cut("enospc done");
}

/* ---- fsyncchurn: fsync of one file while another process churns */
#define CHURN_FSYNCS 10
#define CHURN_LIMIT_S 60

/* Create, write and unlink small files in /pc/churn for ever (nothing of
 * it synced): the dirt an fsync in another process must not chase. */
static void churn(void)
{
	char name[64];
	mkdir("/pc/churn", 0755);
	for (unsigned i = 0;; i++) {
		snprintf(name, sizeof name, "/pc/churn/f%u", i % 8);
		int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			write(fd, buf, 100);
			close(fd);
		}
		unlink(name);
	}
}

static void do_fsyncchurn(void)
{
	pid_t churner = fork();
	if (churner == 0) {
		churn();
		_exit(0);
	}
	int fd = open("/pc/log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK("open /pc/log", fd >= 0);
	pid_t watchdog = fork();
	if (watchdog == 0) {
		/* Guest time: if the fsyncs are not done by then, say how far
		 * they got (1 KiB a round) and let the host cut. */
		struct stat st;
		sleep(CHURN_LIMIT_S);
		long size = stat("/pc/log", &st) ? -1L : (long)st.st_size;
		printf("powercut: FAIL fsyncchurn: %ld KiB written, not %d fsyncs done"
		       " in %d s of guest time: fsync starved\n", size / 1024,
		       CHURN_FSYNCS, CHURN_LIMIT_S);
		wait_for_cut("fsyncchurn done");
	}
	sleep(1);                   /* the churner under way */
	long t0 = now_ms(), worst = 0;
	for (int i = 0; i < CHURN_FSYNCS; i++) {
		vpattern_fill((unsigned char *)buf, fnv1a32("log"), i * 1024, 1024);
		CHECK("write /pc/log", write(fd, buf, 1024) == 1024);
		long t = now_ms();
		CHECK("fsync /pc/log", fsync(fd) == 0);
		t = now_ms() - t;
		if (t > worst)
			worst = t;
	}
	long total = now_ms() - t0;
	kill(watchdog, SIGKILL);
	kill(churner, SIGKILL);
	waitpid(watchdog, NULL, 0);
	waitpid(churner, NULL, 0);
	printf("powercut: fsyncchurn %d fsyncs in %ld ms, the slowest %ld ms\n",
	       CHURN_FSYNCS, total, worst);
	CHECK("last fsync /pc/log", fsync(fd) == 0);
	wait_for_cut("fsyncchurn done");
}

int main(void)
{
	char mode[32] = "";
	int fd = open("/etc/powercut", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, mode, sizeof mode - 1);
		close(fd);
		mode[n > 0 ? n : 0] = 0;
		char *nl = strchr(mode, '\n');
		if (nl)
			*nl = 0;
	}
	printf("powercut: mode '%s'\n", mode);
	if (mkdir("/pc", 0755) && errno != EEXIST)
		printf("powercut: FAIL mkdir /pc: %d\n", errno);
	if (!strcmp(mode, "clean")) {
		put("/pc/clean", "clean", 3000, 0);
		printf("powercut: powering off\n");
		fflush(stdout);
		reboot(RB_POWER_OFF);
	} else if (!strcmp(mode, "fsync")) {
		/* /pc itself came from the image; everything below is new */
		if (mkdir("/pc/dir", 0755))
			printf("powercut: FAIL mkdir /pc/dir: %d\n", errno);
		put("/pc/dir/unsynced", "unsynced", 5000, 0);
		put("/pc/other", "other", 70000, 0);
		put("/pc/synced", "synced", 20000, 1);
		wait_for_cut("fsync done");
	} else if (!strncmp(mode, "flusher", 7)) {
		unsigned secs = atoi(mode + 7) > 0 ? (unsigned)atoi(mode + 7) : 5;
		if (mkdir("/pc/fl", 0755))
			printf("powercut: FAIL mkdir /pc/fl: %d\n", errno);
		put("/pc/fl/big", "big", 1 << 20, 0);
		printf("powercut: wrote, sleeping %u s\n", secs);
		fflush(stdout);
		sleep(secs);
		wait_for_cut("slept");
	} else if (!strcmp(mode, "msync")) {
		do_msync();
	} else if (!strcmp(mode, "fsyncdir")) {
		do_fsyncdir();
	} else if (!strcmp(mode, "sync")) {
		do_sync();
	} else if (!strcmp(mode, "enospc")) {
		do_enospc();
	} else if (!strcmp(mode, "fsyncchurn")) {
		do_fsyncchurn();
	} else {
		printf("powercut: FAIL unknown mode '%s'\n", mode);
	}
	wait_for_cut("nothing to do");
	return 0;
}
