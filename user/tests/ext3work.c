/*
 * ext3work.c - the init of the ext3 power-cut campaign
 * (tools/tests/ext3powercut.sh boots init=/tests/ext3work on an ext3 root,
 * then kills QEMU at a random moment: the power cut).
 *
 * Root mounted read-write: the workload, three processes that run until
 * the cut, on the root's /w:
 *   appender  appends 1 KiB records (pattern "log", tools/vpattern.c) to
 *             /w/log, fsync after each, then prints "ext3work: log N"
 *             (N records are durable from then on)
 *   churner   directory and truncate churn in /w/d, never synced: creates
 *             f<i> (3000..7000 bytes), renames it to g<i>, unlinks the g
 *             ten steps older, truncates, makes and removes directories
 *   mapper    stores round r's bytes (pattern "map<r>") through a shared
 *             mapping of /w/map (16 KiB) and msync(MS_SYNC)s them, then
 *             prints "ext3work: map r"
 * With "ext3work=check" on the kernel's command line (the boots after
 * the cut, whose mount of the root replays the journal, read-only with
 * "ro", or read-write, which also frees the orphans): prints "ext3work:
 * check" and powers off.
 * A failed call prints "ext3work: FAIL ..." (the host fails on it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vpattern.h"

#define MAP_LEN 16384

#define SAY(...) do { printf("ext3work: " __VA_ARGS__); fflush(stdout); } while (0)
#define CHECK(what, cond) do { if (!(cond)) \
	SAY("FAIL %s: %s (errno %d)\n", what, #cond, errno); } while (0)

static unsigned char buf[8192];

static void appender(void)
{
	int fd = open("/w/log", O_WRONLY | O_CREAT | O_APPEND, 0644);
	CHECK("open /w/log", fd >= 0);
	for (int i = 0;; i++) {
		vpattern_fill(buf, fnv1a32("log"), i * 1024, 1024);
		CHECK("write /w/log", write(fd, buf, 1024) == 1024);
		CHECK("fsync /w/log", fsync(fd) == 0);
		SAY("log %d\n", i + 1);
	}
}

static void put(const char *path, unsigned len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK("open (churn)", fd >= 0);
	vpattern_fill(buf, fnv1a32("churn"), 0, len);
	CHECK("write (churn)", write(fd, buf, len) == (ssize_t)len);
	close(fd);
}

static void churner(void)
{
	char f[32], g[32], old[32], dir[32];
	for (int k = 0;; k++) {
		snprintf(f, sizeof f, "/w/d/f%d", k % 40);
		snprintf(g, sizeof g, "/w/d/g%d", k % 40);
		put(f, 3000 + (k % 5) * 1000);
		CHECK("rename (churn)", rename(f, g) == 0);
		if (k >= 10) {
			snprintf(old, sizeof old, "/w/d/g%d", (k - 10) % 40);
			CHECK("unlink (churn)", unlink(old) == 0);
		}
		if (k % 5 == 2)
			CHECK("truncate (churn)", truncate(g, 1000) == 0);
		snprintf(dir, sizeof dir, "/w/d/s%d", k % 3);
		if (k % 6 < 3)
			CHECK("mkdir (churn)", mkdir(dir, 0755) == 0);
		else
			CHECK("rmdir (churn)", rmdir(dir) == 0);
	}
}

static void mapper(void)
{
	char key[16];
	int fd = open("/w/map", O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK("open /w/map", fd >= 0);
	CHECK("ftruncate /w/map", ftruncate(fd, MAP_LEN) == 0);
	unsigned char *p = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK("mmap /w/map", p != MAP_FAILED);
	for (int r = 1;; r++) {
		snprintf(key, sizeof key, "map%d", r);
		vpattern_fill(p, fnv1a32(key), 0, MAP_LEN);
		CHECK("msync /w/map", msync(p, MAP_LEN, MS_SYNC) == 0);
		SAY("map %d\n", r);
	}
}

/* Is word on the kernel's command line? */
static int on_cmdline(const char *word)
{
	char line[512] = "";
	int fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, line, sizeof line - 1);
		line[n > 0 ? n : 0] = 0;
		close(fd);
	}
	return strstr(line, word) != NULL;
}

int main(void)
{
	CHECK("mount /proc", mount("proc", "/proc", "proc", 0, NULL) == 0 || errno == EBUSY);
	if (on_cmdline("ext3work=check")) {
		SAY("check\n");
		reboot(RB_POWER_OFF);          /* syncs and unmounts: a clean unmount */
		return 0;
	}
	CHECK("mkdir /w", mkdir("/w", 0755) == 0 || errno == EEXIST);
	CHECK("mkdir /w/d", mkdir("/w/d", 0755) == 0 || errno == EEXIST);
	SAY("started\n");
	static void (*const work[])(void) = { appender, churner, mapper };
	for (int i = 0; i < 3; i++)
		if (fork() == 0) {
			work[i]();
			_exit(0);
		}
	for (;;)
		wait(NULL);
}
