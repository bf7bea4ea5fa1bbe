/*
 * cmp - compare two files byte by byte.
 * usage: cmp file1 file2
 * Exit status: 0 same, 1 different, 2 trouble.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	FILE *a, *b;
	unsigned long long pos = 1, line = 1;

	if (argc != 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: cmp file1 file2\n");
		return 2;
	}
	a = fopen(argv[1], "r");
	b = fopen(argv[2], "r");
	if (!a || !b) {
		fprintf(stderr, "cmp: %s: %s\n", a ? argv[2] : argv[1], strerror(errno));
		return 2;
	}
	for (;; pos++) {
		int ca = fgetc(a), cb = fgetc(b);

		if (ca == EOF && cb == EOF)
			return 0;
		if (ca == EOF || cb == EOF) {
			printf("cmp: EOF on %s\n", ca == EOF ? argv[1] : argv[2]);
			return 1;
		}
		if (ca != cb) {
			printf("%s %s differ: byte %llu, line %llu\n", argv[1], argv[2], pos, line);
			return 1;
		}
		if (ca == '\n')
			line++;
	}
}
