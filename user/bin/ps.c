/*
 * ps - list the processes.
 * usage: ps
 * One line per process, for every process (as `ps ax`), from /proc:
 *     PID  PPID S PSR     TIME COMMAND
 * S is the state letter of /proc/PID/stat (R running, S sleeping, D
 * uninterruptible, T stopped, Z zombie), PSR the CPU it runs or last ran
 * on (its field 39, "processor"), TIME the CPU time (user + system)
 * as MM:SS, COMMAND the argv of /proc/PID/cmdline, or [name] for a kernel
 * thread, which has none (procps's ps does the same).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TICKS_PER_SEC 100               /* USER_HZ: /proc's unit of CPU time */

/* The whole of a small /proc file into buf (NUL-terminated); its length. */
static int read_file(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY), n = 0, r;

	if (fd < 0)
		return -1;
	while (n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	return n;
}

/* The k-th (from 0) space-separated field of s, or "" past the end. */
static const char *field(const char *s, int k)
{
	while (k-- > 0) {
		s = strchr(s, ' ');
		if (!s)
			return "";
		s++;
	}
	return s;
}

static void show(const char *pid)
{
	char path[64], stat[512], cmd[256], comm[64];

	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	if (read_file(path, stat, sizeof stat) <= 0)
		return;                         /* exited since readdir: not an error */
	/* "PID (COMM) S PPID ..." ; COMM may hold spaces, so find the last ')' */
	char *open_paren = strchr(stat, '('), *close_paren = strrchr(stat, ')');
	if (!open_paren || !close_paren || close_paren < open_paren)
		return;
	snprintf(comm, sizeof comm, "%.*s", (int)(close_paren - open_paren - 1), open_paren + 1);
	/* after ") ": state ppid pgrp session tty_nr tpgid flags minflt
	 * cminflt majflt cmajflt utime stime ... (proc(5), fields 3..15),
	 * ... processor (field 39) */
	const char *f = close_paren + 2;
	char state = f[0];
	int ppid = atoi(field(f, 1));
	unsigned long utime = strtoul(field(f, 11), NULL, 10);
	unsigned long stime = strtoul(field(f, 12), NULL, 10);
	int psr = atoi(field(f, 36));

	snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
	int n = read_file(path, cmd, sizeof cmd);
	if (n > 0) {
		for (int i = 0; i < n - 1; i++)   /* argv's NULs become spaces */
			if (cmd[i] == '\0')
				cmd[i] = ' ';
	} else {
		snprintf(cmd, sizeof cmd, "[%s]", comm);
	}
	unsigned long secs = (utime + stime) / TICKS_PER_SEC;
	printf("%5s %5d %c %3d %5lu:%02lu %s\n", pid, ppid, state, psr, secs / 60, secs % 60, cmd);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		fprintf(stderr, "usage: ps (no options; %s is not one)\n", argv[1]);
		return 2;
	}
	DIR *d = opendir("/proc");
	if (!d) {
		perror("ps: /proc");
		return 1;
	}
	printf("  PID  PPID S PSR     TIME COMMAND\n");
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9')
			show(e->d_name);
	closedir(d);
	return 0;
}
