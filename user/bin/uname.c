/*
 * uname - print the system name (and with -a, everything uname(2) knows).
 * usage: uname [-a]
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

int main(int argc, char **argv)
{
	struct utsname u;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "-a") != 0)) {
		fprintf(stderr, "usage: uname [-a]\n");
		return 2;
	}
	if (uname(&u) < 0) {
		perror("uname");
		return 1;
	}
	if (argc == 2)
		printf("%s %s %s %s %s\n", u.sysname, u.nodename, u.release, u.version, u.machine);
	else
		printf("%s\n", u.sysname);
	return 0;
}
