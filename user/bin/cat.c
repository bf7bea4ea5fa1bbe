/*
 * cat - copy files (or standard input, for "-" or no arguments) to
 * standard output.
 * usage: cat [file...]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char buf[4096];

/* Copy everything from fd to stdout; 0 or -1. */
static int copy(int fd, const char *name)
{
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(1, buf + done, n - done);
			if (w < 0) {
				fprintf(stderr, "cat: write: %s\n", strerror(errno));
				return -1;
			}
			done += w;
		}
	}
	if (n < 0) {
		fprintf(stderr, "cat: %s: %s\n", name, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc == 1)
		return copy(0, "stdin") < 0;
	for (int i = 1; i < argc; i++) {
		int fd;

		if (strcmp(argv[i], "-") == 0) {
			status |= copy(0, "stdin") < 0;
			continue;
		}
		if (argv[i][0] == '-') {
			fprintf(stderr, "usage: cat [file...]\n");
			return 2;
		}
		fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "cat: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		status |= copy(fd, argv[i]) < 0;
		close(fd);
	}
	return status;
}
