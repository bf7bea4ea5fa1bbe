/* conform.h - helpers for the differential conformance programs
 * (the .c files of user/conform, docs/conformance.md).  Each program is an ordinary
 * static i386 glibc program, run as
 *
 *     PROGRAM FS DIR        e.g.  write_path ext2 /home/conform
 *
 * on Vellum and on Linux; it works in DIR (a directory it may create) and
 * prints one line per observation, "PROGRAM FS: key value...", on stdout,
 * ending with "PROGRAM FS: end".  It prints what it sees (return values,
 * errno names, sizes, offsets, bytes, signals), never what it expects, and
 * nothing that changes from run to run (pids, times, addresses): the two
 * kernels' outputs are compared line for line (tools/conform.sh).
 */
#ifndef CONFORM_H
#define CONFORM_H
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *c_prog, *c_fs, *c_dir;

/* say(fmt, ...): one observation line, "PROGRAM FS: ..." */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	printf("%s %s: ", c_prog, c_fs);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static const char *errname(int e)
{
	static char other[24];
	switch (e) {
#define E(x) case x: return #x
	E(EPERM); E(ENOENT); E(ESRCH); E(EINTR); E(EIO); E(ENXIO); E(E2BIG);
	E(ENOEXEC); E(EBADF); E(ECHILD); E(EAGAIN); E(ENOMEM); E(EACCES);
	E(EFAULT); E(EBUSY); E(EEXIST); E(EXDEV); E(ENODEV); E(ENOTDIR);
	E(EISDIR); E(EINVAL); E(ENFILE); E(EMFILE); E(ENOTTY); E(ETXTBSY);
	E(EFBIG); E(ENOSPC); E(ESPIPE); E(EROFS); E(EMLINK); E(EPIPE);
	E(EDOM); E(ERANGE); E(ENAMETOOLONG); E(ENOSYS); E(ENOTEMPTY);
	E(ELOOP); E(EOVERFLOW); E(EOPNOTSUPP); E(ETIMEDOUT);
	E(EOWNERDEAD); E(EDEADLK); E(ENOLCK);
#undef E
	}
	snprintf(other, sizeof other, "errno%d", e);
	return other;
}

static const char *signame(int s)
{
	static char other[16];
	switch (s) {
#define S(x) case x: return #x
	S(SIGHUP); S(SIGINT); S(SIGQUIT); S(SIGILL); S(SIGTRAP); S(SIGABRT);
	S(SIGBUS); S(SIGFPE); S(SIGKILL); S(SIGUSR1); S(SIGSEGV); S(SIGUSR2);
	S(SIGPIPE); S(SIGALRM); S(SIGTERM); S(SIGCHLD); S(SIGCONT); S(SIGSTOP);
	S(SIGXCPU); S(SIGXFSZ); S(SIGSYS);
#undef S
	}
	snprintf(other, sizeof other, "signal%d", s);
	return other;
}

/* rv(r): a system call's result as text, "N" or "-1 ENAME" (errno read
 * now: call it right after the call).  A ring of buffers, so a line may
 * hold several. */
static const char *rv(long long r)
{
	static char ring[8][40];
	static int n;
	char *b = ring[n++ & 7];
	if (r < 0)
		snprintf(b, 40, "-1 %s", errname(errno));
	else
		snprintf(b, 40, "%lld", r);
	return b;
}

/* A wait status as text: "exit N", "signal SIGNAME[ core]". */
static inline const char *wstatus(int st)
{
	static char b[48];
	if (WIFEXITED(st))
		snprintf(b, sizeof b, "exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(b, sizeof b, "signal %s%s", signame(WTERMSIG(st)),
			 WCOREDUMP(st) ? " core" : "");
	else
		snprintf(b, sizeof b, "status 0x%x", st);
	return b;
}

/* child(fn, text, size): run fn(wfd) in a child that writes its findings
 * to wfd (with report(), below) and exits; the text, up to size - 1 bytes,
 * in *text; the wait status returned, and the child's pid in c_last_child
 * (for the findings that relate pids). */
static pid_t c_last_child;
static inline int child(void (*fn)(int), char *text, size_t size)
{
	int p[2];
	if (pipe(p) < 0) {
		say("error pipe %s", rv(-1));
		exit(1);
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		fn(p[1]);
		_exit(0);
	}
	c_last_child = pid;
	close(p[1]);
	size_t got = 0;
	ssize_t n;
	while (got < size - 1 && (n = read(p[0], text + got, size - 1 - got)) > 0)
		got += n;
	text[got] = 0;
	close(p[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	return st;
}

/* drop_to_user(): the calling process becomes the ordinary user of the
 * credential programs, uid 1000, gid 1000, groups {1000} (from root; it
 * exits on failure). */
static inline void drop_to_user(void)
{
	gid_t g = 1000;
	if (setgroups(1, &g) < 0 || setresgid(1000, 1000, 1000) < 0 ||
	    setresuid(1000, 1000, 1000) < 0) {
		printf("drop failed %s\n", rv(-1));
		exit(1);
	}
}

/* report(fd, fmt, ...): a child's finding, written to its report pipe */
#define report(fd, ...) dprintf(fd, __VA_ARGS__)

/* path(name): DIR/name (a ring of buffers) */
static const char *path(const char *name)
{
	static char ring[4][256];
	static int n;
	char *b = ring[n++ & 3];
	snprintf(b, 256, "%s/%s", c_dir, name);
	return b;
}

/* fsize(fd): st_size, or -1 with errno */
static inline long long fsize(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -1;
	return st.st_size;
}

/* fpos(fd): the file position, lseek(fd, 0, SEEK_CUR) */
static inline long long fpos(int fd)
{
	return lseek(fd, 0, SEEK_CUR);
}

/* bytes(fd, off, len): the file's bytes at off as runs, "HHxN HHxN ..."
 * (hex byte value, count), after "n=" the count pread returned. */
static inline const char *bytes(int fd, long long off, size_t len)
{
	static char out[512];
	static unsigned char buf[65536];
	if (len > sizeof buf)
		len = sizeof buf;
	ssize_t n = pread(fd, buf, len, off);
	if (n < 0) {
		snprintf(out, sizeof out, "pread %s", rv(n));
		return out;
	}
	size_t o = snprintf(out, sizeof out, "n=%zd", n);
	for (ssize_t i = 0; i < n && o < sizeof out - 24;) {
		ssize_t j = i;
		while (j < n && buf[j] == buf[i])
			j++;
		o += snprintf(out + o, sizeof out - o, " %02xx%zd", buf[i], j - i);
		i = j;
	}
	return out;
}

/* vmlck(): VmLck of this process (/proc/self/status), in kB, or -1 */
static inline long vmlck(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "VmLck:", 6))
			kb = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

/* Start: argv[1] FS, argv[2] DIR; stdout line-buffered; DIR made. */
/* 16 KiB of 'x' (conform_start fills it): what the programs write. */
static char xs[16384];

/* A fresh file NAME holding n bytes of 'x', open O_RDWR | flags. */
static inline int fresh(const char *name, size_t n, int flags)
{
	int fd = open(path(name), O_RDWR | O_CREAT | O_TRUNC | flags, 0644);
	if (fd < 0) {
		say("error open %s %s", name, rv(fd));
		exit(1);
	}
	if (n && pwrite(fd, xs, n, 0) != (ssize_t)n) {
		say("error fill %s", name);
		exit(1);
	}
	return fd;
}

/* Close fd and remove NAME. */
static inline void done(int fd, const char *name)
{
	close(fd);
	unlink(path(name));
}

static void conform_start(const char *prog, int argc, char **argv)
{
	c_prog = prog;
	if (argc != 3) {
		fprintf(stderr, "usage: %s FS DIR\n", prog);
		exit(2);
	}
	c_fs = argv[1];
	c_dir = argv[2];
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(xs, 'x', sizeof xs);
	umask(022);
	if (mkdir(c_dir, 0755) < 0 && errno != EEXIST) {
		say("error mkdir %s", rv(-1));
		exit(1);
	}
}

static void conform_end(void)
{
	say("end");
}

#endif
