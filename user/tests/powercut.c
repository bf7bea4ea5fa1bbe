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
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned fnv1a32(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

static unsigned char vbyte(unsigned seed, unsigned i)
{
	unsigned x = seed + i * 0x9E3779B1u;
	x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
	return x & 0xff;
}

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
			buf[i] = vbyte(seed, off + i);
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
	} else {
		printf("powercut: FAIL unknown mode '%s'\n", mode);
	}
	wait_for_cut("nothing to do");
	return 0;
}
