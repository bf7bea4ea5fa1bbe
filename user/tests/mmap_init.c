/*
 * mmap_init.c - init for the file-mapping tests on Vellum
 * (tools/tests/mmap.sh boots init=/tests/mmap_init, twice).  Makes /st on
 * the ext2 root and runs, printing "mmap_init: PROG ARGS status S" for each:
 *   legacy_write_mode=2copy (the default boot):
 *     mmap_file /st, mmap_file /tmp (ext2, ramfs), the legacy demo in 2copy
 *     mode, fsx on ext2 and on ramfs (fixed seeds)
 *   legacy_write_mode=naive: only the legacy demo (it must DETECT the
 *     self-deadlock), then a plain mmap_file /tmp to show the system is fine.
 * The mode is read from /proc/vellum/writepath.  Then sync and power off.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int naive_mode(void)
{
	char buf[2048], *p;
	int fd = open("/proc/vellum/writepath", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strstr(buf, "\nlegacy_write_mode ");
	return p && atoi(p + 19) == 1;
}

static void run(const char *prog, const char *a1, const char *a2, const char *a3)
{
	pid_t pid = fork();
	if (pid == 0) {
		char *av[] = { (char *)prog, (char *)a1, (char *)a2, (char *)a3, NULL };
		char *ev[] = { "PATH=/bin", NULL };
		execve(prog, av, ev);
		_exit(127);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	printf("mmap_init: %s %s%s%s%s%s status %d\n", prog, a1, a2 ? " " : "", a2 ? a2 : "",
	       a3 ? " " : "", a3 ? a3 : "", st);
	fflush(stdout);
}

int main(void)
{
	mkdir("/st", 0755);
	if (naive_mode()) {
		run("/tests/mmap_file", "/tmp", "legacy", "naive");
		run("/tests/mmap_file", "/tmp", NULL, NULL);
	} else {
		run("/tests/mmap_file", "/st", NULL, NULL);
		run("/tests/mmap_file", "/tmp", NULL, NULL);
		run("/tests/mmap_file", "/tmp", "legacy", "2copy");
		run("/tests/fsx", "/st/fsx.dat", "12345", "1500");
		run("/tests/fsx", "/tmp/fsx.dat", "777", "3000");
	}
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
