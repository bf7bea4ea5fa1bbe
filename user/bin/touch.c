/*
 * touch - set files' access and modification times to now, creating them
 * if they do not exist.
 * usage: touch [-c] file...
 * -c does not create missing files.  The times are set with utimensat(2)
 * (fs/utimes.c in the kernel).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int opt, create = 1, status = 0;

	while ((opt = getopt(argc, argv, "c")) != -1) {
		if (opt != 'c') {
			fprintf(stderr, "usage: touch [-c] file...\n");
			return 2;
		}
		create = 0;
	}
	if (optind == argc) {
		fprintf(stderr, "usage: touch [-c] file...\n");
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		if (utimensat(AT_FDCWD, argv[i], NULL, 0) == 0)
			continue;
		if (errno == ENOENT && !create)
			continue;
		if (errno == ENOENT) {
			int fd = open(argv[i], O_WRONLY | O_CREAT, 0644);
			if (fd >= 0) {
				close(fd);          /* a new file: its times are now already */
				continue;
			}
		}
		fprintf(stderr, "touch: %s: %s\n", argv[i], strerror(errno));
		status = 1;
	}
	return status;
}
