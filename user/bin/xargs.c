/*
 * xargs - build command lines from standard input and run them.
 * usage: xargs [-n MAX] [command [initial-arguments]]
 * Words (separated by blanks and newlines; no quoting) are read from
 * standard input and appended to the command (default: echo), at most MAX
 * per run (default: all, up to MAX_ARGS).  Each run is fork + execvp + wait.
 * Exit status as GNU xargs: 123 if a run exited non-zero, 124 if one was
 * killed by a signal... 125 (here: could not fork), 126 not executable,
 * 127 not found.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 256

/* The next blank-separated word of stdin, malloc'd, or NULL at the end. */
static char *next_word(void)
{
	char *w = NULL;
	size_t len = 0, cap = 0;
	int c;

	while ((c = getchar()) != EOF && isspace(c))
		;
	for (; c != EOF && !isspace(c); c = getchar()) {
		if (len + 2 > cap) {
			cap = cap ? cap * 2 : 32;
			char *n = realloc(w, cap);
			if (!n) {
				free(w);
				return NULL;
			}
			w = n;
		}
		w[len++] = (char)c;
	}
	if (w)
		w[len] = '\0';
	return w;
}

/* Run argv to completion; the xargs status this run contributes. */
static int run(char **argv)
{
	pid_t pid = fork();
	int st;

	if (pid < 0) {
		fprintf(stderr, "xargs: fork: %s\n", strerror(errno));
		return 125;
	}
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "xargs: %s: %s\n", argv[0], strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (waitpid(pid, &st, 0) < 0)
		return 125;
	if (WIFSIGNALED(st))
		return 125;
	if (WEXITSTATUS(st) == 126 || WEXITSTATUS(st) == 127)
		return WEXITSTATUS(st);
	return WEXITSTATUS(st) ? 123 : 0;
}

int main(int argc, char **argv)
{
	static char *args[MAX_ARGS + 1];
	long max = MAX_ARGS;
	int opt, status = 0;

	while ((opt = getopt(argc, argv, "+n:")) != -1) {
		char *end;
		if (opt == 'n' && (max = strtol(optarg, &end, 10)) > 0 && !*end)
			continue;
		fprintf(stderr, "usage: xargs [-n MAX] [command [initial-arguments]]\n");
		return 2;
	}
	int fixed = 0;
	if (optind == argc)
		args[fixed++] = "echo";
	for (int i = optind; i < argc; i++) {
		if (fixed == MAX_ARGS) {
			fprintf(stderr, "xargs: too many arguments\n");
			return 2;
		}
		args[fixed++] = argv[i];
	}
	if (max > MAX_ARGS - fixed)
		max = MAX_ARGS - fixed;
	if (max < 1) {
		fprintf(stderr, "xargs: too many initial arguments\n");
		return 2;
	}

	int n = fixed, ran = 0;
	char *w;
	while ((w = next_word()) != NULL) {
		args[n++] = w;
		if (n - fixed == max) {
			args[n] = NULL;
			int s = run(args);
			if (s > status)
				status = s;
			ran = 1;
			while (n > fixed)
				free(args[--n]);
		}
	}
	if (n > fixed || !ran) {                /* the rest, or once with no words */
		args[n] = NULL;
		int s = run(args);
		if (s > status)
			status = s;
	}
	return status;
}
