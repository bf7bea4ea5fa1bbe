/*
 * mv - rename a file, or move files into a directory.
 * usage: mv source target   |   mv source... directory
 * Only within one file system (rename(2)); EXDEV is reported, not copied.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "target.h"

int main(int argc, char **argv)
{
	int to_dir, status;

	status = check_target("mv", argc, argv, &to_dir);
	if (status)
		return status;
	for (int i = 1; i < argc - 1; i++) {
		char dest[512];

		target_path(dest, sizeof(dest), argv[argc - 1], to_dir, argv[i]);
		if (rename(argv[i], dest) < 0) {
			fprintf(stderr, "mv: %s -> %s: %s\n", argv[i], dest, strerror(errno));
			status = 1;
		}
	}
	return status;
}
