/*
 * sleep - pause for a number of seconds (a fraction like 0.5 is fine).
 * usage: sleep seconds
 */
#include <ctype.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 0 };
	const char *p;
	long scale = 100000000;     /* nanoseconds of the first decimal digit */

	if (argc != 2 || !isdigit((unsigned char)argv[1][0]))
		goto usage;
	for (p = argv[1]; isdigit((unsigned char)*p); p++)
		ts.tv_sec = ts.tv_sec * 10 + (*p - '0');
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, scale /= 10)
			ts.tv_nsec += (*p - '0') * scale;
	}
	if (*p != '\0')
		goto usage;
	while (nanosleep(&ts, &ts) < 0)
		;       /* interrupted by a handled signal: sleep the rest */
	return 0;
usage:
	fprintf(stderr, "usage: sleep seconds\n");
	return 2;
}
