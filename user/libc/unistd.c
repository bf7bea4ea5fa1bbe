/*
 * unistd.c - POSIX helpers built from the system calls: exec with a
 * PATH search, isatty, access, sleep, time and getopt.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

/*
 * execvp: a name with a '/' is used as is; otherwise try each directory
 * of $PATH (default "/bin:/sbin:/usr/bin") in turn. If some candidate existed but
 * could not run, report that error rather than ENOENT.
 */
int execvp(const char *file, char *const argv[])
{
	const char *path = getenv("PATH");
	char buf[256];
	int saved = ENOENT;

	if (strchr(file, '/'))
		return execv(file, argv);
	if (!path)
		path = "/bin:/sbin:/usr/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		if (n + strlen(file) + 2 <= sizeof(buf)) {
			memcpy(buf, path, n);
			buf[n] = '\0';
			if (n == 0)
				strcpy(buf, ".");
			strcat(buf, "/");
			strcat(buf, file);
			execv(buf, argv);
			if (errno != ENOENT && errno != ENOTDIR)
				saved = errno;
		}
		path += n;
		if (*path == ':')
			path++;
	}
	errno = saved;
	return -1;
}

/* A terminal is whatever answers the TCGETS ioctl. */
int isatty(int fd)
{
	char termios[64];   /* struct termios is 36..60 bytes; we only probe */

	return ioctl(fd, TCGETS, termios) == 0;
}

/*
 * access() without the access system call: we check existence with stat
 * and the permission bits for "anyone" (user, group or other). A
 * simplification: it ignores who we are.
 */
int access(const char *path, int mode)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	if ((mode & R_OK) && !(st.st_mode & 0444))
		goto denied;
	if ((mode & W_OK) && !(st.st_mode & 0222))
		goto denied;
	if ((mode & X_OK) && !(st.st_mode & 0111))
		goto denied;
	return 0;
denied:
	errno = EACCES;
	return -1;
}

unsigned int sleep(unsigned int seconds)
{
	struct timespec req = { (time_t)seconds, 0 }, rem = { 0, 0 };

	if (nanosleep(&req, &rem) < 0)
		return rem.tv_sec;
	return 0;
}

int usleep(unsigned int usec)
{
	struct timespec req = { (time_t)(usec / 1000000), (long)(usec % 1000000) * 1000 };

	return nanosleep(&req, NULL);
}

time_t time(time_t *t)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) < 0)
		return -1;
	if (t)
		*t = ts.tv_sec;
	return ts.tv_sec;
}

/* ---- getopt ------------------------------------------------------------ */

char *optarg;
int optind = 1, opterr = 1, optopt;

/*
 * Options are "-a -b" or "-ab"; "x:" in optstring means -x takes an
 * argument ("-xVAL" or "-x VAL"). Parsing stops at the first non-option
 * or at "--". Returns '?' for unknown options or missing arguments.
 */
int getopt(int argc, char *const argv[], const char *optstring)
{
	static int pos = 1;     /* next character within argv[optind] */
	const char *arg, *spec;

	if (optind >= argc)
		return -1;
	arg = argv[optind];
	if (pos == 1) {
		if (arg[0] != '-' || arg[1] == '\0')
			return -1;
		if (strcmp(arg, "--") == 0) {
			optind++;
			return -1;
		}
	}
	optopt = arg[pos];
	spec = strchr(optstring, optopt);
	if (optopt == ':' || spec == NULL) {
		if (opterr)
			fprintf(stderr, "%s: unknown option -%c\n", argv[0], optopt);
		if (arg[++pos] == '\0') {
			optind++;
			pos = 1;
		}
		return '?';
	}
	if (spec[1] == ':') {
		if (arg[pos + 1]) {
			optarg = (char *)arg + pos + 1;
		} else if (optind + 1 < argc) {
			optarg = argv[++optind];
		} else {
			if (opterr)
				fprintf(stderr, "%s: option -%c needs an argument\n",
					argv[0], optopt);
			optind++;
			pos = 1;
			return '?';
		}
		optind++;
		pos = 1;
		return optopt;
	}
	if (arg[++pos] == '\0') {
		optind++;
		pos = 1;
	}
	return optopt;
}
