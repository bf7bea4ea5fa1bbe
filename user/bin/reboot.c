/*
 * reboot - flush the file systems and restart the machine.
 * usage: reboot
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
		fprintf(stderr, "usage: reboot\n");
		return 2;
	}
	sync();
	reboot(LINUX_REBOOT_CMD_RESTART);
	fprintf(stderr, "reboot: %s\n", strerror(errno));
	return 1;
}
