/*
 * tail - the last lines of a file.
 * usage: tail [-n LINES | -LINES] [file]
 * Default: the last 10 lines.  The input is read whole into memory (this
 * is a teaching tail: no seeking from the end, no -f), then printed from
 * the start of the LINES-th line counted from the end.
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

/* The whole stream in one malloc'd buffer; *len gets its size. */
static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 4096, n = 0, got;
	char *buf = malloc(cap);

	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				free(buf);
				return NULL;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	long lines = 10;
	int opt;

	old_style_count(argc, argv);
	while ((opt = getopt(argc, argv, "n:")) != -1) {
		char *end;
		switch (opt) {
		case 'n':
			lines = strtol(optarg, &end, 10);
			if (*optarg && !*end && lines >= 0)
				break;
			fprintf(stderr, "tail: invalid number '%s'\n", optarg);
			return 2;
		default:
			fprintf(stderr, "usage: tail [-n LINES] [file]\n");
			return 2;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "usage: tail [-n LINES] [file]\n");
		return 2;
	}
	FILE *f = optind < argc ? fopen(argv[optind], "r") : stdin;
	if (!f) {
		fprintf(stderr, "tail: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	size_t len;
	char *buf = slurp(f, &len);
	if (!buf) {
		fprintf(stderr, "tail: out of memory\n");
		return 1;
	}
	/* Walk back over `lines` newlines; a last line without one counts too. */
	size_t start = len;
	if (start > 0 && buf[start - 1] != '\n')
		lines--;                        /* the unterminated last line */
	while (start > 0) {
		if (buf[start - 1] == '\n' && lines-- == 0)
			break;
		start--;
	}
	fwrite(buf + start, 1, len - start, stdout);
	return 0;
}
