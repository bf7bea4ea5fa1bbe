/*
 * uniq - collapse runs of identical adjacent lines into one.
 * usage: uniq [-c] [-d] [-u] [input [output]]
 *   -c  prefix each line with the length of its run
 *   -d  print only lines that were repeated   -u  only lines that were not
 * Only ADJACENT lines compare: `sort | uniq` is the usual pairing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int opt_count, opt_repeated, opt_single;

static void emit(FILE *out, const char *line, long run)
{
	if ((opt_repeated && run < 2) || (opt_single && run > 1))
		return;
	if (opt_count)
		fprintf(out, "%7ld %s", run, line);
	else
		fputs(line, out);
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "cdu")) != -1) {
		switch (opt) {
		case 'c': opt_count = 1; break;
		case 'd': opt_repeated = 1; break;
		case 'u': opt_single = 1; break;
		default:
			fprintf(stderr, "usage: uniq [-c] [-d] [-u] [input [output]]\n");
			return 2;
		}
	}
	if (argc - optind > 2) {
		fprintf(stderr, "usage: uniq [-c] [-d] [-u] [input [output]]\n");
		return 2;
	}
	FILE *in = stdin, *out = stdout;
	if (optind < argc && strcmp(argv[optind], "-") != 0 && !(in = fopen(argv[optind], "r"))) {
		fprintf(stderr, "uniq: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	if (optind + 1 < argc && !(out = fopen(argv[optind + 1], "w"))) {
		fprintf(stderr, "uniq: %s: %s\n", argv[optind + 1], strerror(errno));
		return 1;
	}

	char *prev = NULL, *line = NULL;
	size_t prev_cap = 0, cap = 0;
	long run = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, in)) >= 0) {
		if (len == 0 || line[len - 1] != '\n') {   /* a last line without '\n' */
			if ((size_t)len + 2 > cap) {
				char *n = realloc(line, len + 2);
				if (!n)
					break;
				line = n;
				cap = len + 2;
			}
			line[len++] = '\n';
			line[len] = '\0';
		}
		if (run > 0 && strcmp(prev, line) == 0) {
			run++;
			continue;
		}
		if (run > 0)
			emit(out, prev, run);
		/* line becomes prev: swap the buffers instead of copying */
		char *t = prev; size_t tc = prev_cap;
		prev = line; prev_cap = cap;
		line = t; cap = tc;
		run = 1;
	}
	if (run > 0)
		emit(out, prev, run);
	free(prev);
	free(line);
	return fclose(out) == 0 ? 0 : 1;
}
