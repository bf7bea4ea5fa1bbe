/*
 * chmod - change files' permission bits.
 * usage: chmod MODE file...
 * MODE is octal (755, 4755, 1777: the set-user-ID, set-group-ID and sticky
 * bits included); symbolic modes (u+x) are not understood.  Only the
 * owner or root may (the kernel's rule: fs/attr.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	char *end;
	unsigned long mode;
	int status = 0;

	if (argc < 3 || !argv[1][0]) {
		fprintf(stderr, "usage: chmod MODE file...\n");
		return 2;
	}
	mode = strtoul(argv[1], &end, 8);
	if (*end || mode > 07777) {
		fprintf(stderr, "chmod: invalid mode: '%s' (octal only)\n", argv[1]);
		return 2;
	}
	for (int i = 2; i < argc; i++)
		if (chmod(argv[i], mode) < 0) {
			fprintf(stderr, "chmod: %s: %s\n", argv[i], strerror(errno));
			status = 1;
		}
	return status;
}
