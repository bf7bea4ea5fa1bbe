/*
 * echo - print the arguments separated by spaces, then a newline.
 * usage: echo [-n] [args...]     -n: no trailing newline
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>

int main(int argc, char **argv)
{
	int i = 1, newline = 1;

	if (argc > 1 && strcmp(argv[1], "-n") == 0) {
		newline = 0;
		i++;
	}
	for (; i < argc; i++) {
		fputs(argv[i], stdout);
		if (i < argc - 1)
			putchar(' ');
	}
	if (newline)
		putchar('\n');
	if (fflush(stdout) != 0 || ferror(stdout)) {
		/* as coreutils': a value a /proc file refuses, a full disk */
		fprintf(stderr, "echo: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
