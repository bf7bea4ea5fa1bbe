/*
 * mkdir - make directories.
 * usage: mkdir [-p] dir...     -p: make missing parents, no error if it exists
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p: create each prefix "a", "a/b", "a/b/c" in turn. */
static int make_parents(const char *path)
{
	char buf[512];
	size_t len = strlen(path);
	struct stat st;

	if (len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(buf, path);
	for (size_t i = 1; i <= len; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -1;
		if (i < len)
			buf[i] = '/';
	}
	/* It must now be a directory (EEXIST could mean a file). */
	if (stat(path, &st) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int parents = 0, status = 0, opt;

	while ((opt = getopt(argc, argv, "p")) != -1) {
		if (opt != 'p')
			goto usage;
		parents = 1;
	}
	if (optind == argc)
		goto usage;
	for (int i = optind; i < argc; i++) {
		int r = parents ? make_parents(argv[i]) : mkdir(argv[i], 0777);
		if (r < 0) {
			fprintf(stderr, "mkdir: %s: %s\n", argv[i], strerror(errno));
			status = 1;
		}
	}
	return status;
usage:
	fprintf(stderr, "usage: mkdir [-p] dir...\n");
	return 2;
}
