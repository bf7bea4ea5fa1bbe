/*
 * dmesg - print the kernel log, read with syslog(2) action 3 (READ_ALL),
 * which copies the log into our buffer without clearing it.
 * usage: dmesg
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int size, n;
	char *buf;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: dmesg\n");
		return 2;
	}
	/* Ask for the log's size (action 10); assume 64 KiB if unsupported. */
	size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	if (size <= 0)
		size = 64 * 1024;
	buf = malloc(size);
	if (!buf) {
		fprintf(stderr, "dmesg: out of memory\n");
		return 1;
	}
	n = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (n < 0) {
		fprintf(stderr, "dmesg: %s\n", strerror(errno));
		return 1;
	}
	fwrite(buf, 1, n, stdout);
	if (n > 0 && buf[n - 1] != '\n')
		putchar('\n');
	return 0;
}
