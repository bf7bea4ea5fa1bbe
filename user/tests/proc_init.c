/*
 * proc_init.c - a tiny init for the process layer's boot test
 * (tools/tests/proc_boot.sh): runs each program named on its command line
 * (init=/tests/proc_init -- prog1 prog2 ... is not possible on Linux's
 * command line, so the list is fixed below), prints "proc_init: PROG
 * status S" for each, then powers off with reboot(2).
 */
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *progs[] = {
	"/tests/proc_core",         /* our libc: fork/exec/signals/faults/stress */
	"/tests/t_proc",            /* user/tests/t_proc.c: our libc's process calls */
	"/tests/glibc_hello",       /* glibc static: print, write and read a file */
	NULL
};

int main(void)
{
	for (int i = 0; progs[i]; i++) {
		if (access(progs[i], 0) != 0) {
			printf("proc_init: %s missing (skipped)\n", progs[i]);
			continue;
		}
		pid_t pid = fork();
		if (pid == 0) {
			char *av[] = { (char *)progs[i], NULL };
			char *ev[] = { "PATH=/bin", NULL };
			execve(progs[i], av, ev);
			_exit(127);
		}
		int st = -1;
		waitpid(pid, &st, 0);
		printf("proc_init: %s status %d\n", progs[i], st);
		fflush(stdout);
	}
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
