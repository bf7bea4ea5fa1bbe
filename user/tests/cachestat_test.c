/*
 * cachestat_test.c - cachestat(2) from user space, on Vellum (the host
 * test tools/tests/ucachestat.sh boots init=/tests/cachestat_test on an
 * ext2 root).  Every check is on a return value, errno or a count against
 * a page-cache state the program made itself:
 *
 *   readahead  /bin/sh, never read since boot: 0 pages cached; a 1-byte
 *              read brings in the first readahead window (4 pages); a read
 *              at page 4 continues it and the window doubles (8 more)
 *   dirty      a new file of 3 pages + 100 bytes: 4 cached, 4 dirty;
 *              fsync: 4 cached, 0 dirty; ranges; ftruncate drops pages
 *   errors     flags != 0 EINVAL, a closed fd EBADF, bad pointers EFAULT
 *   tool       /bin/cachestat FILE OFF LEN prints the same counts
 *
 * As pid 1 it ends with sync and reboot(RB_POWER_OFF); the last line is
 * "cachestat_test: done, N failed".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

#define PG 4096

static int cs(int fd, unsigned long long off, unsigned long long len, struct cachestat *out)
{
	struct cachestat_range r = { off, len };
	memset(out, 0xa5, sizeof(*out));
	return cachestat(fd, &r, out, 0);
}

static void readahead_checks(void)
{
	struct cachestat c;
	char b;
	int fd = open("/bin/sh", O_RDONLY);

	CHECK("readahead.open", fd >= 0);
	CHECK("readahead.cold_returns_0", cs(fd, 0, 0, &c) == 0);
	CHECK("readahead.cold_nothing_cached", c.nr_cache == 0);
	CHECK("readahead.read_1_byte", read(fd, &b, 1) == 1);
	CHECK("readahead.first_window_4_pages", cs(fd, 0, 0, &c) == 0 && c.nr_cache == 4);
	CHECK("readahead.clean", c.nr_dirty == 0 && c.nr_writeback == 0);
	CHECK("readahead.seek_page_4", lseek(fd, 4 * PG, SEEK_SET) == 4 * PG);
	CHECK("readahead.read_page_4", read(fd, &b, 1) == 1);
	CHECK("readahead.window_doubles_to_8", cs(fd, 0, 0, &c) == 0 && c.nr_cache == 12);
	CHECK("readahead.range_pages_4_to_11", cs(fd, 4 * PG, 8 * PG, &c) == 0 && c.nr_cache == 8);
	CHECK("readahead.range_page_12_on_not_read", cs(fd, 12 * PG, 0, &c) == 0 && c.nr_cache == 0);
	CHECK("readahead.no_evictions", cs(fd, 0, 0, &c) == 0 && c.nr_evicted == 0 &&
	      c.nr_recently_evicted == 0);
	close(fd);
}

static void dirty_checks(void)
{
	static char buf[3 * PG + 100];
	struct cachestat c;
	int fd = open("/ct.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);

	memset(buf, 'c', sizeof(buf));
	CHECK("dirty.open", fd >= 0);
	CHECK("dirty.empty_file", cs(fd, 0, 0, &c) == 0 && c.nr_cache == 0 && c.nr_dirty == 0);
	CHECK("dirty.write", write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf));
	CHECK("dirty.four_cached", cs(fd, 0, 0, &c) == 0 && c.nr_cache == 4);
	CHECK("dirty.four_dirty", c.nr_dirty == 4);
	CHECK("dirty.fsync", fsync(fd) == 0);
	CHECK("dirty.after_fsync_cached", cs(fd, 0, 0, &c) == 0 && c.nr_cache == 4);
	CHECK("dirty.after_fsync_clean", c.nr_dirty == 0 && c.nr_writeback == 0);
	CHECK("dirty.pwrite_one_byte", pwrite(fd, "x", 1, 2 * PG + 7) == 1);
	CHECK("dirty.one_page_dirty", cs(fd, 0, 0, &c) == 0 && c.nr_dirty == 1 && c.nr_cache == 4);
	CHECK("dirty.range_page_2", cs(fd, 2 * PG, PG, &c) == 0 && c.nr_cache == 1 && c.nr_dirty == 1);
	CHECK("dirty.range_page_1", cs(fd, PG, PG, &c) == 0 && c.nr_cache == 1 && c.nr_dirty == 0);
	CHECK("dirty.range_straddles_2_pages", cs(fd, PG - 1, 2, &c) == 0 && c.nr_cache == 2);
	CHECK("dirty.past_eof", cs(fd, 100 * PG, 0, &c) == 0 && c.nr_cache == 0);
	CHECK("dirty.ftruncate", ftruncate(fd, PG) == 0);
	CHECK("dirty.after_truncate_one_page", cs(fd, 0, 0, &c) == 0 && c.nr_cache == 1);
	close(fd);
}

static void error_checks(void)
{
	struct cachestat_range r = { 0, 0 };
	struct cachestat c;
	int fd = open("/ct.dat", O_RDONLY);

	CHECK("errors.open", fd >= 0);
	errno = 0;
	CHECK("errors.flags_einval", cachestat(fd, &r, &c, 1) == -1 && errno == EINVAL);
	errno = 0;
	CHECK("errors.closed_fd_ebadf", cachestat(99, &r, &c, 0) == -1 && errno == EBADF);
	errno = 0;
	CHECK("errors.null_range_efault", cachestat(fd, NULL, &c, 0) == -1 && errno == EFAULT);
	errno = 0;
	CHECK("errors.kernel_result_efault",
	      cachestat(fd, &r, (struct cachestat *)0xC0100000, 0) == -1 && errno == EFAULT);
	errno = 0;
	CHECK("errors.readonly_result_efault",
	      cachestat(fd, &r, (struct cachestat *)(void *)"read-only string....................", 0) == -1 &&
	      errno == EFAULT);
	close(fd);
}

/* Run /bin/cachestat with args; its stdout into out (NUL-terminated). */
static int run_tool(const char *a1, const char *a2, const char *a3, char *out, size_t size)
{
	int p[2], st = -1;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char *av[] = { "/bin/cachestat", (char *)a1, (char *)a2, (char *)a3, NULL };
		char *ev[] = { "PATH=/bin", NULL };
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execve(av[0], av, ev);
		_exit(127);
	}
	close(p[1]);
	while (got + 1 < size && (n = read(p[0], out + got, size - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = 0;
	close(p[0]);
	waitpid(pid, &st, 0);
	return st;
}

static void tool_checks(void)
{
	char out[256];
	int fd = open("/ct.dat", O_WRONLY);

	CHECK("tool.dirty_again", fd >= 0 && pwrite(fd, "y", 1, 5) == 1);
	close(fd);
	CHECK("tool.status_0", run_tool("/ct.dat", "0", "0", out, sizeof(out)) == 0);
	CHECK_STR("tool.output", out,
		  "/ct.dat: cache 1 dirty 1 writeback 0 evicted 0 recently_evicted 0\n");
	CHECK("tool.missing_file_status_1", run_tool("/nonexistent", NULL, NULL, out, sizeof(out)) == 1 << 8);
}

int main(void)
{
	readahead_checks();
	dirty_checks();
	error_checks();
	tool_checks();
	printf("cachestat_test: done, %d failed\n", check_failures);
	fflush(stdout);
	if (getpid() == 1) {
		sync();
		reboot(RB_POWER_OFF);
	}
	return check_summary();
}
