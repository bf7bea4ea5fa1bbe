/*
 * cachestat - how much of a file is in the page cache: cachestat(2) on the
 * whole file or on a byte range, one line of counts (in pages).
 * usage: cachestat FILE [OFF [LEN]]     (LEN 0 or absent: to the end)
 *
 *   $ cachestat /bin/sh
 *   /bin/sh: cache 4 dirty 0 writeback 0 evicted 0 recently_evicted 0
 *
 * Exit status 0, 1 if the call failed (the reason on stderr), 2 on a usage
 * error.  Lab 1 of the course writes the system call (docs/labs/01-syscall.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* print_cachestat: cachestat(2) on fd for range, its counts printed on one
 * line under the name path; 0, or 1 with the reason on stderr. */
static int print_cachestat(int fd, const char *path, struct cachestat_range *range)
{
	struct cachestat cs;

	memset(&cs, 0, sizeof(cs));
	if (cachestat(fd, range, &cs, 0) < 0) {
		fprintf(stderr, "cachestat: %s: cachestat: %s\n", path, strerror(errno));
		return 1;
	}
	printf("%s: cache %llu dirty %llu writeback %llu evicted %llu recently_evicted %llu\n",
	       path, cs.nr_cache, cs.nr_dirty, cs.nr_writeback, cs.nr_evicted,
	       cs.nr_recently_evicted);
	return 0;
}

int main(int argc, char **argv)
{
	struct cachestat_range range = { 0, 0 };
	int fd, status;

	if (argc < 2 || argc > 4 || argv[1][0] == '-') {
		fprintf(stderr, "usage: cachestat FILE [OFF [LEN]]\n");
		return 2;
	}
	if (argc > 2)
		range.off = strtoull(argv[2], NULL, 0);
	if (argc > 3)
		range.len = strtoull(argv[3], NULL, 0);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "cachestat: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	status = print_cachestat(fd, argv[1], &range);
	close(fd);
	return status;
}
