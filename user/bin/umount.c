/*
 * umount - detach the file system mounted on a directory.
 * usage: umount dir
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

int main(int argc, char **argv)
{
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: umount dir\n");
		return 2;
	}
	if (umount(argv[1]) < 0) {
		fprintf(stderr, "umount: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
