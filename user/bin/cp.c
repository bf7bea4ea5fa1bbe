/*
 * cp - copy files.
 * usage: cp source target   |   cp source... directory
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "target.h"

static char buf[8192];

static int copy_file(const char *src, const char *dst)
{
	struct stat st;
	int in, out, status = 0;
	ssize_t n;

	in = open(src, O_RDONLY);
	if (in < 0 || fstat(in, &st) < 0) {
		fprintf(stderr, "cp: %s: %s\n", src, strerror(errno));
		if (in >= 0)
			close(in);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "cp: %s: is a directory\n", src);
		close(in);
		return -1;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, st.st_mode & 0777);
	if (out < 0) {
		fprintf(stderr, "cp: %s: %s\n", dst, strerror(errno));
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buf + done, n - done);
			if (w < 0) {
				fprintf(stderr, "cp: %s: %s\n", dst, strerror(errno));
				status = -1;
				goto out;
			}
			done += w;
		}
	}
	if (n < 0) {
		fprintf(stderr, "cp: %s: %s\n", src, strerror(errno));
		status = -1;
	}
out:
	close(in);
	if (close(out) < 0)
		status = -1;
	return status;
}

int main(int argc, char **argv)
{
	int to_dir, status;

	status = check_target("cp", argc, argv, &to_dir);
	if (status)
		return status;
	for (int i = 1; i < argc - 1; i++) {
		char dest[512];

		target_path(dest, sizeof(dest), argv[argc - 1], to_dir, argv[i]);
		status |= copy_file(argv[i], dest) < 0;
	}
	return status;
}
