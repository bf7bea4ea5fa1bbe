/* sync - write every dirty buffer and page to disk. usage: sync */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: sync\n");
		return 2;
	}
	sync();
	return 0;
}
