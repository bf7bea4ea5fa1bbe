/*
 * head - the first lines (or bytes) of files.
 * usage: head [-n LINES | -LINES] [-c BYTES] [file...]
 * Default: the first 10 lines.  With more than one file, each is preceded
 * by "==> NAME <==" (and a blank line between them), as GNU head does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The old form "-N" (head -5) means "-n N", as GNU and BSD still accept:
 * argv[1] becomes "-nN", which getopt reads as -n with its argument. */
static void old_style_count(int argc, char **argv)
{
	static char buf[32];

	if (argc > 1 && argv[1][0] == '-' && argv[1][1] >= '0' && argv[1][1] <= '9') {
		snprintf(buf, sizeof buf, "-n%s", argv[1] + 1);
		argv[1] = buf;
	}
}

static long count = 10;
static int bytes;                       /* -c: count bytes, not lines */

static int number(const char *s, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < 0)
		return -1;
	*out = v;
	return 0;
}

static void head(FILE *f)
{
	long left = count;
	int c;

	while (left > 0 && (c = fgetc(f)) != EOF) {
		putchar(c);
		if (bytes || c == '\n')
			left--;
	}
}

int main(int argc, char **argv)
{
	int opt, status = 0;

	old_style_count(argc, argv);
	while ((opt = getopt(argc, argv, "n:c:")) != -1) {
		switch (opt) {
		case 'n':
		case 'c':
			bytes = opt == 'c';
			if (number(optarg, &count) == 0)
				break;
			fprintf(stderr, "head: invalid number '%s'\n", optarg);
			return 2;
		default:
			fprintf(stderr, "usage: head [-n LINES] [-c BYTES] [file...]\n");
			return 2;
		}
	}
	if (optind == argc) {
		head(stdin);
		return 0;
	}
	for (int i = optind; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");

		if (!f) {
			fprintf(stderr, "head: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		if (argc - optind > 1)
			printf("%s==> %s <==\n", i > optind ? "\n" : "", argv[i]);
		head(f);
		fclose(f);
	}
	return status;
}
