/*
 * boot_init.c - init for the boot-option tests of tools/tests/bootopts.sh.
 * The host copies this program under several names; what it does depends
 * on the name it was started as (init= passes no arguments):
 *
 *   nproc_5         booted with nproc=5: RLIMIT_NPROC is 5; init and four
 *                   children fill it, the next fork fails with EAGAIN, and
 *                   once the children are reaped fork works again.
 *   reboot_restart  reboot(2)'s refusals (bad magic, unknown command: EINVAL;
 *   reboot_halt     CAD_ON/CAD_OFF: 0), then writes /data.txt without
 *                   syncing and calls reboot(RESTART) or reboot(HALT).  On
 *                   Vellum both are a power off (there is no reset path):
 *                   synced, unmounted, off; the host reads /data.txt back.
 *
 * Prints "PASS boot.NAME" / "FAIL boot.NAME (...)" and "boot_init: done N".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "sc.h"

#define RLIMIT_NPROC 6

static void nproc_5(void)
{
	unsigned long lim[2] = { 0, 0 };
	int p[2], forked = 0, st;
	long r = 0;
	pid_t kids[10];

	CHECK("boot.nproc.rlimit", SC(__NR_ugetrlimit, RLIMIT_NPROC, lim) == 0 && lim[0] == 5);
	SC(__NR_pipe, p);
	/* Each child waits for end of file on the pipe, so all stay alive. */
	while (forked < 10) {
		r = SC(__NR_fork);
		if (r == 0) {
			char c;
			SC(__NR_close, p[1]);
			while (SC(__NR_read, p[0], &c, 1) > 0)
				;
			_exit(0);
		}
		if (r < 0)
			break;
		kids[forked++] = (pid_t)r;
	}
	printf("boot_init: %d forks before %ld\n", forked, r);
	CHECK("boot.nproc.four_children", forked == 4);
	CHECK("boot.nproc.eagain", r == -EAGAIN);
	SC(__NR_close, p[1]);           /* the children see end of file */
	int reaped = 0;
	for (int i = 0; i < forked; i++)
		reaped += waitpid(kids[i], &st, 0) == kids[i] && WIFEXITED(st);
	CHECK("boot.nproc.children_exit", reaped == forked);
	r = SC(__NR_fork);
	if (r == 0)
		_exit(7);
	CHECK("boot.nproc.room_again", r > 0 && waitpid((pid_t)r, &st, 0) == r &&
	      WIFEXITED(st) && WEXITSTATUS(st) == 7);
	SC(__NR_close, p[0]);
}

static void reboot_refusals(void)
{
	CHECK("boot.reboot.bad_magic1", SC(__NR_reboot, 0x12345678, LINUX_REBOOT_MAGIC2,
	      LINUX_REBOOT_CMD_POWER_OFF, 0) == -EINVAL);
	CHECK("boot.reboot.bad_magic2", SC(__NR_reboot, LINUX_REBOOT_MAGIC1, 42,
	      LINUX_REBOOT_CMD_HALT, 0) == -EINVAL);
	CHECK("boot.reboot.bad_cmd", SC(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
	      0x1234, 0) == -EINVAL);
	CHECK("boot.reboot.cad_on", SC(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
	      LINUX_REBOOT_CMD_CAD_ON, 0) == 0);
	CHECK("boot.reboot.cad_off", SC(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
	      LINUX_REBOOT_CMD_CAD_OFF, 0) == 0);
}

int main(int argc, char **argv)
{
	const char *me = argc > 0 ? strrchr(argv[0], '/') : NULL;
	unsigned cmd = LINUX_REBOOT_CMD_POWER_OFF;

	me = me ? me + 1 : "?";
	if (!strcmp(me, "nproc_5")) {
		nproc_5();
	} else if (!strcmp(me, "reboot_restart") || !strcmp(me, "reboot_halt")) {
		reboot_refusals();
		cmd = strcmp(me, "reboot_halt") ? LINUX_REBOOT_CMD_RESTART : LINUX_REBOOT_CMD_HALT;
		long fd = SC(__NR_open, "/data.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		CHECK("boot.reboot.data_written", fd >= 0 && SC(__NR_write, fd, me, strlen(me)) ==
		      (long)strlen(me));
		SC(__NR_close, fd);
	} else {
		CHECK("boot.known_name", 0);
	}
	printf("boot_init: done %d\n", check_failures);
	fflush(stdout);
	SC(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, cmd, 0);
	CHECK("boot.reboot.did_not_return", 0);
	return check_summary();
}
