/*
 * wc - count lines, words and bytes.
 * usage: wc [-l] [-w] [-c] [file...]
 * With no option all three are printed, in the order lines, words, bytes.
 * Output: the counts separated by spaces, then the file name if given.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int show_lines, show_words, show_bytes;

struct counts {
	unsigned long long lines, words, bytes;
};

static int count(int fd, struct counts *c)
{
	static char buf[4096];
	int in_word = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		c->bytes += n;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n')
				c->lines++;
			if (isspace((unsigned char)buf[i])) {
				in_word = 0;
			} else if (!in_word) {
				in_word = 1;
				c->words++;
			}
		}
	}
	return n < 0 ? -1 : 0;
}

static void print(const struct counts *c, const char *name)
{
	const char *sep = "";

	if (show_lines) {
		printf("%llu", c->lines);
		sep = " ";
	}
	if (show_words) {
		printf("%s%llu", sep, c->words);
		sep = " ";
	}
	if (show_bytes)
		printf("%s%llu", sep, c->bytes);
	if (name)
		printf(" %s", name);
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct counts total = { 0, 0, 0 };
	int opt, status = 0;

	while ((opt = getopt(argc, argv, "lwc")) != -1) {
		switch (opt) {
		case 'l': show_lines = 1; break;
		case 'w': show_words = 1; break;
		case 'c': show_bytes = 1; break;
		default:
			fprintf(stderr, "usage: wc [-l] [-w] [-c] [file...]\n");
			return 2;
		}
	}
	if (!show_lines && !show_words && !show_bytes)
		show_lines = show_words = show_bytes = 1;

	if (optind == argc) {
		struct counts c = { 0, 0, 0 };
		if (count(0, &c) < 0) {
			fprintf(stderr, "wc: stdin: %s\n", strerror(errno));
			return 1;
		}
		print(&c, NULL);
		return 0;
	}
	for (int i = optind; i < argc; i++) {
		struct counts c = { 0, 0, 0 };
		int fd = open(argv[i], O_RDONLY);

		if (fd < 0 || count(fd, &c) < 0) {
			fprintf(stderr, "wc: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			if (fd >= 0)
				close(fd);
			continue;
		}
		close(fd);
		print(&c, argv[i]);
		total.lines += c.lines;
		total.words += c.words;
		total.bytes += c.bytes;
	}
	if (argc - optind > 1)
		print(&total, "total");
	return status;
}
