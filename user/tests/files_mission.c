/*
 * files_mission.c - the write loop's abort-and-retry, the parts t_uaccess
 * does not cover, and files left behind for the host to read back.
 *
 *   kill      a write interrupted by SIGKILL.  Design (deterministic in
 *             its outcome, not in where it stops): the child writev()s
 *             KILL_IOVS iovecs, every one the same KILL_LEN-byte pattern
 *             block (about 24 MB in all, so the call runs for many timer
 *             ticks).  The parent polls the file's size; once at least
 *             KILL_MIN bytes are there, i.e. the child is inside the write
 *             loop, it sends SIGKILL.  generic_perform_write checks
 *             fatal_signal_pending() before each chunk, so the call stops
 *             between two chunks; the return to user mode then kills the
 *             child.  Checks: the child died of SIGKILL (not an exit: that
 *             would mean the write finished first), the size is a whole
 *             number of page-sized chunks, 0 < size < the whole, every byte
 *             is the pattern's and nothing is after the size.
 *   keep      (with -k) files for the host: half.dat (a buffer whose first
 *             half is touched and second half a never-touched anonymous
 *             page), wv.dat (writev with a PROT_NONE second iovec).
 *
 * Block byte j of the kill file = vpattern_byte(fnv1a32("systests.kill"), j
 * mod KILL_LEN): tools/vpattern.c prints it on the host.  The program
 * prints "mission: FILE size N" lines the host test checks with debugfs.
 *
 * usage: files_mission DIR [-k]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "vpattern.h"

#define PG        4096
#define KILL_LEN  (40960 + 123)         /* iovecs do not end on page edges */
#define KILL_IOVS 600                   /* 600 * 41083 = 24.6 MB */
#define KILL_MIN  (64 * 1024)

static char path[256];
static unsigned char block[KILL_LEN];
static struct iovec iov[KILL_IOVS];

static void test_kill(const char *dir, const char *tag)
{
	static unsigned char got[PG];
	struct stat st;
	struct timespec tick = { 0, 1000000 };
	unsigned int seed = fnv1a32("systests.kill");
	int fd, st_w = -1, ok = 1, polls = 0;
	long long size = 0, total = (long long)KILL_LEN * KILL_IOVS;
	char name[96];
	pid_t pid;

	for (int j = 0; j < KILL_LEN; j++)
		block[j] = vpattern_byte(seed, j);
	for (int k = 0; k < KILL_IOVS; k++) {
		iov[k].iov_base = block;
		iov[k].iov_len = KILL_LEN;
	}
	snprintf(path, sizeof(path), "%s/killed.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	snprintf(name, sizeof(name), "mission.kill_%s.setup", tag);
	CHECK(name, fd >= 0);
	if (fd < 0)
		return;
	pid = fork();
	if (pid == 0) {
		writev(fd, iov, KILL_IOVS);
		_exit(3);               /* only reached if the kill came too late */
	}
	/* Wait until the child is inside the loop, then kill it. */
	while (waitpid(pid, &st_w, WNOHANG) == 0) {
		if (fstat(fd, &st) == 0 && st.st_size >= KILL_MIN) {
			kill(pid, SIGKILL);
			waitpid(pid, &st_w, 0);
			break;
		}
		nanosleep(&tick, NULL);
		polls++;
	}
	fstat(fd, &st);
	size = st.st_size;
	snprintf(name, sizeof(name), "mission.kill_%s.died_of_sigkill", tag);
	CHECK(name, WIFSIGNALED(st_w) && WTERMSIG(st_w) == SIGKILL);
	snprintf(name, sizeof(name), "mission.kill_%s.stopped_midway", tag);
	CHECK(name, size >= KILL_MIN && size < total);
	snprintf(name, sizeof(name), "mission.kill_%s.whole_chunks", tag);
	CHECK(name, size % PG == 0);
	for (long long off = 0; off < size && ok; off += PG) {
		ok &= pread(fd, got, PG, off) == PG;
		for (int j = 0; j < PG && ok; j++)
			ok &= got[j] == block[(off + j) % KILL_LEN];
	}
	snprintf(name, sizeof(name), "mission.kill_%s.contents", tag);
	CHECK(name, ok);
	snprintf(name, sizeof(name), "mission.kill_%s.nothing_after", tag);
	CHECK(name, pread(fd, got, PG, size) == 0 && lseek(fd, 0, SEEK_END) == size);
	printf("mission: %s size %lld (of %lld; %d polls)\n", path, size, total, polls);
	fflush(stdout);
	close(fd);
}

/* Files with exactly known contents for debugfs on the host. */
static void keep_files(const char *dir)
{
	unsigned int seed = fnv1a32("systests.keep");
	unsigned char *b = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct iovec v[2];
	int fd;

	if (b == MAP_FAILED) {
		CHECK("mission.keep.mmap", 0);
		return;
	}
	for (int j = 0; j < PG; j++)            /* page 0 touched; 1, 2 never */
		b[j] = vpattern_byte(seed, j);
	/* half.dat: 4096 bytes from b+2048: 2048 pattern bytes, 2048 zeros */
	snprintf(path, sizeof(path), "%s/half.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK("mission.keep.half_write", fd >= 0 && write(fd, b + PG / 2, PG) == PG &&
	      lseek(fd, 0, SEEK_CUR) == PG);
	close(fd);
	printf("mission: %s size %d\n", path, PG);
	/* wv.dat: iovec 0 = pattern bytes 100..399, iovec 1 PROT_NONE */
	CHECK("mission.keep.prot_none", mprotect(b + 2 * PG, PG, PROT_NONE) == 0);
	v[0].iov_base = b + 100;    v[0].iov_len = 300;
	v[1].iov_base = b + 2 * PG; v[1].iov_len = 500;
	snprintf(path, sizeof(path), "%s/wv.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK("mission.keep.wv_write", fd >= 0 && writev(fd, v, 2) == 300 &&
	      lseek(fd, 0, SEEK_CUR) == 300);
	close(fd);
	printf("mission: %s size 300\n", path);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	const char *tag = strncmp(dir, "/tmp", 4) ? "ext2" : "ramfs";

	test_kill(dir, tag);
	if (argc > 2 && !strcmp(argv[2], "-k"))
		keep_files(dir);
	else
		unlink(path);
	return check_summary();
}
