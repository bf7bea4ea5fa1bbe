/*
 * mv - rename a file, or move files into a directory.
 * usage: mv source target   |   mv source... directory
 * Only within one file system (rename(2)); EXDEV is reported, not copied.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int main(int argc, char **argv)
{
	struct stat st;
	const char *target;
	int to_dir, status = 0;

	if (argc < 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: mv source target | mv source... directory\n");
		return 2;
	}
	target = argv[argc - 1];
	to_dir = stat(target, &st) == 0 && S_ISDIR(st.st_mode);
	if (argc > 3 && !to_dir) {
		fprintf(stderr, "mv: %s: not a directory\n", target);
		return 1;
	}
	for (int i = 1; i < argc - 1; i++) {
		char dest[512];

		if (to_dir)
			snprintf(dest, sizeof(dest), "%s/%s", target, base_name(argv[i]));
		else
			snprintf(dest, sizeof(dest), "%s", target);
		if (rename(argv[i], dest) < 0) {
			fprintf(stderr, "mv: %s -> %s: %s\n", argv[i], dest, strerror(errno));
			status = 1;
		}
	}
	return status;
}
