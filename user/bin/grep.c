/*
 * grep - print the lines that match a pattern.
 * usage: grep [-c] [-i] [-n] [-q] [-v] [-x] PATTERN [file...]
 *   -c  print only the number of matching lines   -i  ignore case
 *   -n  prefix each line with its number          -q  quiet: status only
 *   -v  select the lines that do NOT match        -x  the whole line must match
 * Exit status: 0 a line was selected, 1 none was, 2 an error.
 *
 * PATTERN is a basic regular expression with the parts used every day:
 *   c    a character that matches itself      .    any character
 *   [ab] [a-z] [^0-9]   one character of (or not of) a set
 *   x*   zero or more of the previous item    \c   c itself (\. \* \[)
 *   ^    at the start: the line's start        $    at the end: its end
 * The matcher is the backtracking one of Kernighan and Pike's "The Practice
 * of Programming" (9.2), grown with sets and escapes; no \( \) groups, no
 * \{ \} counts, no -E.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int opt_count, opt_icase, opt_number, opt_quiet, opt_invert, opt_line;

/* Does the single item at re (a char, '.', a set or an escape) match c?
 * *len gets the item's length in the pattern. */
static int match_one(const char *re, int c, int *len)
{
	if (*re == '\\' && re[1]) {
		*len = 2;
		re++;
	} else if (*re == '[') {
		const char *p = re + 1;
		int negate = *p == '^', hit = 0;
		if (negate)
			p++;
		do {                            /* a ']' first is a member */
			if (p[1] == '-' && p[2] && p[2] != ']') {
				if (c >= p[0] && c <= p[2])
					hit = 1;
				p += 3;
			} else {
				if (c == *p)
					hit = 1;
				p++;
			}
		} while (*p && *p != ']');
		*len = (int)(p - re) + (*p == ']');
		return c != '\0' && hit != negate;
	} else {
		*len = 1;
		if (*re == '.')
			return c != '\0';
	}
	if (opt_icase)
		return c != '\0' && tolower((unsigned char)*re) == tolower(c);
	return c != '\0' && *re == c;
}

static int match_here(const char *re, const char *text);

/* item* : as many as possible, then back off one at a time. */
static int match_star(const char *item, const char *re, const char *text)
{
	const char *t = text;
	int l;

	while (match_one(item, (unsigned char)*t, &l))
		t++;
	do {
		if (match_here(re, t))
			return 1;
	} while (t-- > text);
	return 0;
}

/* Does re match at the start of text? */
static int match_here(const char *re, const char *text)
{
	int len;

	if (*re == '\0')
		return 1;
	if (*re == '$' && re[1] == '\0')
		return *text == '\0';
	match_one(re, 'x', &len);               /* just the item's length */
	if (re[len] == '*')
		return match_star(re, re + len + 1, text);
	if (match_one(re, (unsigned char)*text, &len))
		return match_here(re + len, text + 1);
	return 0;
}

/* Does re match anywhere in text? */
static int match(const char *re, const char *text)
{
	if (*re == '^')
		return match_here(re + 1, text);
	do {
		if (match_here(re, text))
			return 1;
	} while (*text++ != '\0');
	return 0;
}

/* Search one stream; name is printed before each line if non-NULL.
 * Returns the number of selected lines. */
static long grep(const char *re, FILE *f, const char *name)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long lineno = 0, selected = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len > 0 && line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (match(re, line) == opt_invert)
			continue;
		selected++;
		if (opt_quiet)
			break;
		if (opt_count)
			continue;
		if (name)
			printf("%s:", name);
		if (opt_number)
			printf("%ld:", lineno);
		puts(line);
	}
	free(line);
	if (opt_count && !opt_quiet) {
		if (name)
			printf("%s:", name);
		printf("%ld\n", selected);
	}
	return selected;
}

int main(int argc, char **argv)
{
	int opt, error = 0;
	long selected = 0;

	while ((opt = getopt(argc, argv, "cinqvx")) != -1) {
		switch (opt) {
		case 'c': opt_count = 1; break;
		case 'i': opt_icase = 1; break;
		case 'n': opt_number = 1; break;
		case 'q': opt_quiet = 1; break;
		case 'v': opt_invert = 1; break;
		case 'x': opt_line = 1; break;
		default:
			fprintf(stderr, "usage: grep [-cinqvx] PATTERN [file...]\n");
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: grep [-cinqvx] PATTERN [file...]\n");
		return 2;
	}
	const char *re = argv[optind++];
	if (opt_line) {                         /* -x: the pattern as ^PATTERN$ */
		static char whole[1024];
		size_t n = strlen(re);
		if (n + 3 > sizeof whole) {
			fprintf(stderr, "grep: pattern too long\n");
			return 2;
		}
		snprintf(whole, sizeof whole, "%s%s%s", re[0] == '^' ? "" : "^", re,
			 n > 0 && re[n - 1] == '$' && (n < 2 || re[n - 2] != '\\') ? "" : "$");
		re = whole;
	}
	if (optind == argc)
		selected = grep(re, stdin, NULL);
	for (int i = optind; i < argc && !(opt_quiet && selected); i++) {
		FILE *f = fopen(argv[i], "r");
		if (!f) {
			fprintf(stderr, "grep: %s: %s\n", argv[i], strerror(errno));
			error = 1;
			continue;
		}
		selected += grep(re, f, argc - optind > 1 ? argv[i] : NULL);
		fclose(f);
	}
	if (opt_quiet && selected)
		return 0;                       /* found: errors do not matter (POSIX) */
	return error ? 2 : selected ? 0 : 1;
}
