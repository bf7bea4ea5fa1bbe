/*
 * tools/tests/ext3linux.c - the Linux side of tools/tests/ext3linux.sh:
 * a workload run by Debian's Linux 6.1 (tools/linuxvm.sh) on an ext3
 * image mounted on /mnt, which leaves the journal full of committed
 * transactions and powers off without unmounting.  Built on the host with
 * gcc -m32 -static (glibc), as user/conform's programs are; not a Vellum
 * program.
 *
 *   ext3linux [clean]
 *
 * On /mnt/w it creates files of the test pattern (user/tests/vpattern.h,
 * key = the file's name), fsyncs each, appends fsync'd 1 KiB records to
 * /mnt/w/log, makes directories, renames fsync'd files into them and
 * unlinks others (and a directory: revoke records in the log), fsyncing
 * the directories; every fact the disk must keep
 * is printed once its fsync returned:
 *   ext3linux: synced PATH KEY SIZE   PATH (from the image's root) holds
 *                                     SIZE bytes of pattern KEY
 *   ext3linux: gone PATH              PATH no longer exists
 * Then work nothing syncs (files created, renamed and unlinked, a
 * directory made), "ext3linux: cut", and reboot(RB_POWER_OFF): the
 * reboot system call syncs nothing and unmounts nothing, so the image is
 * left with needs_recovery set and the transactions in its log (the host
 * checks that it is).  With "clean" it returns instead, and the
 * initramfs's init unmounts /mnt (tools/linuxvm.sh): a clean image, for
 * checking that the test notices.
 * A failed call prints "ext3linux: FAIL ..." (the host fails on it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vpattern.h"

#define SAY(...) do { printf("ext3linux: " __VA_ARGS__); fflush(stdout); } while (0)
#define CHECK(what, cond) do { if (!(cond)) \
	SAY("FAIL %s: %s (errno %d)\n", what, #cond, errno); } while (0)

static unsigned char buf[65536];

/* PATH (under /mnt) made to hold LEN bytes of pattern KEY, fsync'd if
 * sync */
static void put(const char *path, const char *key, unsigned len, int sync)
{
	char full[128];
	snprintf(full, sizeof full, "/mnt%s", path);
	int fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(full, fd >= 0);
	for (unsigned off = 0; off < len; ) {
		unsigned n = len - off < sizeof buf ? len - off : sizeof buf;
		vpattern_fill(buf, fnv1a32(key), off, n);
		CHECK(full, write(fd, buf, n) == (ssize_t)n);
		off += n;
	}
	if (sync)
		CHECK(full, fsync(fd) == 0);
	CHECK(full, close(fd) == 0);
}

static void sync_dir(const char *path)
{
	char full[128];
	snprintf(full, sizeof full, "/mnt%s", path);
	int fd = open(full, O_RDONLY | O_DIRECTORY);
	CHECK(full, fd >= 0);
	CHECK(full, fsync(fd) == 0);
	close(fd);
}

static void mk(const char *path)
{
	char full[128];
	snprintf(full, sizeof full, "/mnt%s", path);
	CHECK(full, mkdir(full, 0755) == 0);
}

static void mv(const char *from, const char *to)
{
	char a[128], b[128];
	snprintf(a, sizeof a, "/mnt%s", from);
	snprintf(b, sizeof b, "/mnt%s", to);
	CHECK(a, rename(a, b) == 0);
}

static void rm(const char *path)
{
	char full[128];
	snprintf(full, sizeof full, "/mnt%s", path);
	CHECK(full, unlink(full) == 0);
}

int main(int argc, char **argv)
{
	/* sizes: empty, inside one block, the direct blocks, the indirect
	 * block, the double-indirect block (1 KiB blocks: past 268 KiB) */
	static const unsigned sizes[] = { 0, 1, 1000, 4096, 5000, 13000, 70000, 300000 };
	char path[64], key[32];
	int n = sizeof sizes / sizeof sizes[0];

	mk("/w");
	mk("/w/d");
	mk("/w/d/e");
	sync_dir("/w/d");
	sync_dir("/w");
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "/w/s%d", i);
		snprintf(key, sizeof key, "s%d", i);
		put(path, key, sizes[i], 1);
		SAY("synced %s %s %u\n", path, key, sizes[i]);
	}
	put("/w/d/e/deep", "deep", 20000, 1);
	SAY("synced /w/d/e/deep deep 20000\n");

	/* renamed into a directory: written and fsync'd under a temporary
	 * name, renamed, both directories fsync'd */
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "/w/tmp%d", i);
		snprintf(key, sizeof key, "r%d", i);
		put(path, key, 3000 + 2000 * i, 1);
		char to[64];
		snprintf(to, sizeof to, "/w/d/r%d", i);
		mv(path, to);
		sync_dir("/w/d");
		sync_dir("/w");
		SAY("synced %s %s %u\n", to, key, 3000 + 2000 * i);
		SAY("gone %s\n", path);
	}

	/* unlinked: fsync'd, then removed and the directory fsync'd; each
	 * file has an indirect block and the directory a block of its own,
	 * logged when made, revoked when freed (the log's records below may
	 * take their blocks as data: a replay that ignored the revoke
	 * records would write the old metadata over them) */
	mk("/w/g");
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "/w/u%d", i);
		snprintf(key, sizeof key, "u%d", i);
		put(path, key, 70000, 1);
	}
	put("/w/g/f", "f", 1000, 1);
	sync_dir("/w");
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "/w/u%d", i);
		rm(path);
		sync_dir("/w");
		SAY("gone %s\n", path);
	}
	rm("/w/g/f");
	CHECK("rmdir /mnt/w/g", rmdir("/mnt/w/g") == 0);
	sync_dir("/w");
	SAY("gone /w/g\n");

	/* the log: 1 KiB records, an fsync (a transaction) each */
	int fd = open("/mnt/w/log", O_WRONLY | O_CREAT | O_APPEND, 0644);
	CHECK("open /mnt/w/log", fd >= 0);
	for (int i = 0; i < 16; i++) {
		vpattern_fill(buf, fnv1a32("log"), i * 1024, 1024);
		CHECK("write /mnt/w/log", write(fd, buf, 1024) == 1024);
		CHECK("fsync /mnt/w/log", fsync(fd) == 0);
	}
	close(fd);
	sync_dir("/w");
	SAY("synced /w/log log %d\n", 16 * 1024);

	/* nothing synced from here on: in the running transaction, or in
	 * one the journal thread may commit before the power-off */
	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof path, "/w/n%d", i);
		snprintf(key, sizeof key, "n%d", i);
		put(path, key, 2000 + 1000 * i, 0);
	}
	mv("/w/n0", "/w/d/n0");
	rm("/w/n1");
	mk("/w/x");

	SAY("cut\n");
	if (argc > 1 && strcmp(argv[1], "clean") == 0)
		return 0;              /* the init unmounts /mnt */
	reboot(RB_POWER_OFF);          /* no sync, no unmount */
	SAY("FAIL reboot returned (errno %d)\n", errno);
	return 1;
}
