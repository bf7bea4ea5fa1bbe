/*
 * kill - send a signal to processes.
 * usage: kill [-SIGNAL | -s SIGNAL] pid...     (default TERM)
 *        kill -l                               list signal names
 * SIGNAL is a number (9) or a name with or without "SIG" (KILL, SIGKILL).
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_signal(const char *s)
{
	if (isdigit((unsigned char)*s)) {
		char *end;
		long n = strtol(s, &end, 10);
		return (*end == '\0' && n >= 0 && n < NSIG) ? (int)n : -1;
	}
	return sig_from_name(s);
}

int main(int argc, char **argv)
{
	int sig = SIGTERM, i = 1, status = 0;

	if (argc == 2 && strcmp(argv[1], "-l") == 0) {
		for (int s = 1; s < 32; s++)
			if (sig_name(s))
				printf("%2d %s\n", s, sig_name(s));
		return 0;
	}
	if (argc > 2 && strcmp(argv[1], "-s") == 0) {
		sig = parse_signal(argv[2]);
		i = 3;
	} else if (argc > 1 && argv[1][0] == '-') {
		sig = parse_signal(argv[1] + 1);
		i = 2;
	}
	if (sig < 0) {
		fprintf(stderr, "kill: unknown signal\n");
		goto usage;
	}
	if (i >= argc)
		goto usage;
	for (; i < argc; i++) {
		char *end;
		long pid = strtol(argv[i], &end, 10);

		if (*end != '\0' || end == argv[i]) {
			fprintf(stderr, "kill: %s: not a pid\n", argv[i]);
			status = 1;
			continue;
		}
		if (kill((pid_t)pid, sig) < 0) {
			fprintf(stderr, "kill: %ld: %s\n", pid, strerror(errno));
			status = 1;
		}
	}
	return status;
usage:
	fprintf(stderr, "usage: kill [-SIGNAL | -s SIGNAL] pid... | kill -l\n");
	return 2;
}
