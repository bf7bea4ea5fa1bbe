/*
 * ln - make a hard link, or with -s a symbolic link.
 * usage: ln [-s] target linkname
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int sym = 0, opt, r;

	while ((opt = getopt(argc, argv, "s")) != -1) {
		if (opt != 's')
			goto usage;
		sym = 1;
	}
	if (argc - optind != 2)
		goto usage;
	r = sym ? symlink(argv[optind], argv[optind + 1])
		: link(argv[optind], argv[optind + 1]);
	if (r < 0) {
		fprintf(stderr, "ln: %s: %s\n", argv[optind + 1], strerror(errno));
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "usage: ln [-s] target linkname\n");
	return 2;
}
