/*
 * mount - attach a file system to a directory, or list the mounts.
 * usage: mount [-t type] [-r] [-o options] source dir
 *        mount              every mount, a line each, as Linux's mount
 *                           prints them: "hda on / type ext3 (rw)", from
 *                           /proc/mounts (its options field in brackets)
 *   -t type     file system type (default ext2)
 *   -r          read-only
 *   -o options  the file system's options, passed to mount(2) as its data
 *               (ext2/ext3: errors=, commit=, data=ordered; tmpfs: mode=...)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

/* mount with no arguments: /proc/mounts ("SOURCE DIR TYPE OPTIONS 0 0")
 * reworded.  0, or 1 if it cannot be read. */
static int list_mounts(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char *line = NULL, *w[4];
	size_t cap = 0;

	if (!f) {
		fprintf(stderr, "mount: /proc/mounts: %s\n", strerror(errno));
		return 1;
	}
	while (getline(&line, &cap, f) >= 0) {
		int n = 0;
		for (char *t = strtok(line, " \n"); t && n < 4; t = strtok(NULL, " \n"))
			w[n++] = t;
		if (n == 4)
			printf("%s on %s type %s (%s)\n", w[0], w[1], w[2], w[3]);
	}
	free(line);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	const char *type = "ext2";
	unsigned long flags = 0;
	const char *data = NULL;
	int opt;

	if (argc == 1)
		return list_mounts();
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
	fprintf(stderr, "usage: mount [-t type] [-r] [-o options] source dir | mount\n");
	return 2;
}
