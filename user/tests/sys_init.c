/*
 * sys_init.c - a tiny init for the system-call tests on Vellum
 * (tools/tests/systests.sh boots init=/tests/sys_init).  Makes /st on the
 * ext2 root, runs each test program below (on ext2 and on /tmp, a ramfs),
 * prints "sys_init: PROG ARG status S" for each, syncs and powers off with
 * reboot(2).  The host test parses the PASS/FAIL lines and the statuses.
 */
#include <stdio.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *runs[][3] = {
	{ "/tests/files_fs", "/st", NULL },
	{ "/tests/files_fs", "/tmp", NULL },
	{ "/tests/files_sys", NULL, NULL },
	{ "/tests/t_uaccess", "/st", NULL },
	{ "/tests/t_uaccess", "/tmp", NULL },
	{ "/tests/files_mission", "/tmp", NULL },
	{ "/tests/files_mission", "/st", "-k" },   /* leaves files for debugfs */
	{ NULL, NULL, NULL },
};

int main(void)
{
	mkdir("/st", 0755);
	for (int i = 0; runs[i][0]; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			char *av[] = { (char *)runs[i][0], (char *)runs[i][1], (char *)runs[i][2], NULL };
			char *ev[] = { "PATH=/bin", NULL };
			execve(runs[i][0], av, ev);
			_exit(127);
		}
		int st = -1;
		waitpid(pid, &st, 0);
		printf("sys_init: %s %s status %d\n", runs[i][0], runs[i][1] ? runs[i][1] : "-", st);
		fflush(stdout);
	}
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
