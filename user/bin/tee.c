/*
 * tee - copy standard input to standard output and to files.
 * usage: tee [-a] [file...]
 * -a appends to the files instead of truncating them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_FILES 16

/* write(2) until all n bytes are out (a pipe may take fewer at a time). */
static int write_all(int fd, const char *p, ssize_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int flags = O_WRONLY | O_CREAT | O_TRUNC, opt, status = 0;
	int fds[MAX_FILES + 1] = { 1 };         /* fds[0]: standard output */
	int nfds = 1;
	static char buf[4096];
	ssize_t n;

	while ((opt = getopt(argc, argv, "a")) != -1) {
		if (opt != 'a') {
			fprintf(stderr, "usage: tee [-a] [file...]\n");
			return 2;
		}
		flags = O_WRONLY | O_CREAT | O_APPEND;
	}
	if (argc - optind > MAX_FILES) {
		fprintf(stderr, "tee: at most %d files\n", MAX_FILES);
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		int fd = open(argv[i], flags, 0644);
		if (fd < 0) {
			fprintf(stderr, "tee: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		fds[nfds++] = fd;
	}
	while ((n = read(0, buf, sizeof buf)) > 0)
		for (int i = 0; i < nfds; i++)
			if (fds[i] >= 0 && write_all(fds[i], buf, n) < 0) {
				fprintf(stderr, "tee: write: %s\n", strerror(errno));
				fds[i] = -1;            /* keep feeding the others */
				status = 1;
			}
	if (n < 0) {
		fprintf(stderr, "tee: stdin: %s\n", strerror(errno));
		status = 1;
	}
	return status;
}
