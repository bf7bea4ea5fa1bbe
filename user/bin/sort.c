/*
 * sort - sort lines of text.
 * usage: sort [-n] [-r] [-u] [file...]
 *   -n  compare by the number at the start of the line (then by text)
 *   -r  reverse the order        -u  print only the first of equal lines
 * All input is read into memory and sorted with qsort(3); lines compare
 * byte by byte (the C locale, as LC_ALL=C sort).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int opt_numeric, opt_reverse, opt_unique;

static char **lines;
static size_t nlines, cap;

static int add_line(char *s)
{
	if (nlines == cap) {
		size_t ncap = cap ? cap * 2 : 256;
		char **n = realloc(lines, ncap * sizeof *n);
		if (!n)
			return -1;
		lines = n;
		cap = ncap;
	}
	lines[nlines++] = s;
	return 0;
}

static int read_lines(FILE *f)
{
	char *line = NULL;
	size_t lcap = 0;
	ssize_t len;

	while ((len = getline(&line, &lcap, f)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		char *copy = strdup(line);
		if (!copy || add_line(copy) < 0) {
			free(line);
			return -1;
		}
	}
	free(line);
	return 0;
}

/* The comparison the options ask for, before -r. */
static int compare(const char *a, const char *b)
{
	if (opt_numeric) {
		long long x = strtoll(a, NULL, 10), y = strtoll(b, NULL, 10);
		if (x != y)
			return x < y ? -1 : 1;
	}
	return strcmp(a, b);
}

static int qsort_cmp(const void *pa, const void *pb)
{
	int c = compare(*(char *const *)pa, *(char *const *)pb);
	return opt_reverse ? -c : c;
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "nru")) != -1) {
		switch (opt) {
		case 'n': opt_numeric = 1; break;
		case 'r': opt_reverse = 1; break;
		case 'u': opt_unique = 1; break;
		default:
			fprintf(stderr, "usage: sort [-n] [-r] [-u] [file...]\n");
			return 2;
		}
	}
	int err = optind == argc ? read_lines(stdin) : 0;
	for (int i = optind; i < argc && !err; i++) {
		FILE *f = fopen(argv[i], "r");
		if (!f) {
			fprintf(stderr, "sort: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		err = read_lines(f);
		fclose(f);
	}
	if (err) {
		fprintf(stderr, "sort: out of memory\n");
		return 2;
	}
	qsort(lines, nlines, sizeof *lines, qsort_cmp);
	for (size_t i = 0; i < nlines; i++)
		if (!opt_unique || i == 0 || compare(lines[i - 1], lines[i]) != 0)
			puts(lines[i]);
	return 0;
}
