/*
 * rm - remove files (and, with -r, directories and everything in them).
 * usage: rm [-r] [-f] path...    -f: ignore missing files
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int recursive, force;

static int remove_path(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (force && errno == ENOENT)
			return 0;
		fprintf(stderr, "rm: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		DIR *d;
		struct dirent *e;
		int status = 0;

		if (!recursive) {
			fprintf(stderr, "rm: %s: is a directory (use -r)\n", path);
			return -1;
		}
		d = opendir(path);
		if (!d) {
			fprintf(stderr, "rm: %s: %s\n", path, strerror(errno));
			return -1;
		}
		while ((e = readdir(d)) != NULL) {
			char child[512];

			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
			status |= remove_path(child);
		}
		closedir(d);
		if (rmdir(path) < 0) {
			fprintf(stderr, "rm: %s: %s\n", path, strerror(errno));
			return -1;
		}
		return status;
	}
	if (unlink(path) < 0) {
		fprintf(stderr, "rm: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int status = 0, opt;

	while ((opt = getopt(argc, argv, "rRf")) != -1) {
		if (opt == 'r' || opt == 'R')
			recursive = 1;
		else if (opt == 'f')
			force = 1;
		else
			goto usage;
	}
	if (optind == argc)
		goto usage;
	for (int i = optind; i < argc; i++)
		status |= remove_path(argv[i]) < 0;
	return status;
usage:
	fprintf(stderr, "usage: rm [-r] [-f] path...\n");
	return 2;
}
