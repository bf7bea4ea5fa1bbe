/*
 * mount - attach a file system to a directory.
 * usage: mount [-t type] [-r] [-o options] source dir
 *   -t type     file system type (default ext2)
 *   -r          read-only
 *   -o options  the file system's options, passed to mount(2) as its data
 *               (ext2/ext3: errors=, commit=, data=ordered; tmpfs: mode=...)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *type = "ext2";
	unsigned long flags = 0;
	const char *data = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "t:ro:")) != -1) {
		if (opt == 't')
			type = optarg;
		else if (opt == 'o')
			data = optarg;
		else if (opt == 'r')
			flags |= MS_RDONLY;
		else
			goto usage;
	}
	if (argc - optind != 2)
		goto usage;
	if (mount(argv[optind], argv[optind + 1], type, flags, data) < 0) {
		fprintf(stderr, "mount: %s on %s: %s\n", argv[optind], argv[optind + 1],
			strerror(errno));
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "usage: mount [-t type] [-r] [-o options] source dir\n");
	return 2;
}
