/*
 * poweroff - flush the file systems and switch the machine off.
 * usage: poweroff
 * reboot(2) checks two magic numbers before acting (libc passes them).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: poweroff\n");
		return 2;
	}
	sync();
	reboot(LINUX_REBOOT_CMD_POWER_OFF);
	fprintf(stderr, "poweroff: %s\n", strerror(errno));
	return 1;
}
