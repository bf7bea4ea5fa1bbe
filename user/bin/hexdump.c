/*
 * hexdump - show a file's bytes in hex and ASCII ("canonical" format, the
 * same as hexdump -C on Linux).
 * usage: hexdump [-C] [-v] [file]
 *   -C  canonical format (the only format; accepted for habit's sake)
 *   -v  show every line (otherwise a run of identical lines becomes "*")
 *
 *   00000000  68 65 6c 6c 6f 0a                                 |hello.|
 *   00000006
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void print_line(unsigned long off, const unsigned char *b, int n)
{
	printf("%08lx ", off);
	for (int i = 0; i < 16; i++) {
		if (i == 8)
			putchar(' ');
		if (i < n)
			printf(" %02x", b[i]);
		else
			printf("   ");
	}
	printf("  |");
	for (int i = 0; i < n; i++)
		putchar(b[i] >= 32 && b[i] < 127 ? b[i] : '.');
	printf("|\n");
}

/* Fill line with up to 16 bytes (short reads from pipes are normal). */
static int read_line(int fd, unsigned char *line)
{
	int got = 0;

	while (got < 16) {
		ssize_t n = read(fd, line + got, 16 - got);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += n;
	}
	return got;
}

int main(int argc, char **argv)
{
	unsigned char line[16], prev[16];
	unsigned long off = 0;
	int opt, verbose = 0, fd = 0, n, have_prev = 0, squeezing = 0;

	while ((opt = getopt(argc, argv, "Cv")) != -1) {
		if (opt == 'v')
			verbose = 1;
		else if (opt != 'C')
			goto usage;
	}
	if (argc - optind > 1)
		goto usage;
	if (optind < argc) {
		fd = open(argv[optind], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "hexdump: %s: %s\n", argv[optind], strerror(errno));
			return 1;
		}
	}
	while ((n = read_line(fd, line)) > 0) {
		if (!verbose && have_prev && n == 16 && memcmp(line, prev, 16) == 0) {
			if (!squeezing)
				printf("*\n");
			squeezing = 1;
		} else {
			squeezing = 0;
			print_line(off, line, n);
		}
		memcpy(prev, line, 16);
		have_prev = (n == 16);
		off += n;
	}
	if (n < 0) {
		fprintf(stderr, "hexdump: read: %s\n", strerror(errno));
		return 1;
	}
	if (off > 0)
		printf("%08lx\n", off);
	return 0;
usage:
	fprintf(stderr, "usage: hexdump [-C] [-v] [file]\n");
	return 2;
}
