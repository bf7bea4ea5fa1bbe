/*
 * df - free space on the mounted filesystems.
 * usage: df [-a]
 * One line per mount of /proc/mounts, sizes in 1 KiB blocks, as GNU df:
 *     Filesystem     1K-blocks      Used Available Use% Mounted on
 * from statfs64(2) on the mount point (the kernel's fs/statfs.c).  Without
 * -a, filesystems of zero blocks (proc, devfs) are left out, as GNU df
 * leaves out its "dummy" filesystems.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

/* n blocks of size bytes, in KiB rounded up */
static unsigned long long kib(unsigned long long n, unsigned long long size)
{
	return (n * size + 1023) / 1024;
}

int main(int argc, char **argv)
{
	int opt, all = 0, status = 0;

	while ((opt = getopt(argc, argv, "a")) != -1) {
		if (opt != 'a') {
			fprintf(stderr, "usage: df [-a]\n");
			return 2;
		}
		all = 1;
	}
	if (optind != argc) {
		fprintf(stderr, "usage: df [-a]\n");
		return 2;
	}
	FILE *m = fopen("/proc/mounts", "r");
	if (!m) {
		fprintf(stderr, "df: /proc/mounts: %s\n", strerror(errno));
		return 1;
	}
	printf("%-14s %9s %9s %9s %4s %s\n", "Filesystem", "1K-blocks", "Used", "Available",
	       "Use%", "Mounted on");
	char line[512], dev[128], dir[256];
	while (fgets(line, sizeof line, m)) {
		/* "DEVICE MOUNTPOINT TYPE OPTIONS 0 0" */
		char *sp1 = strchr(line, ' '), *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
		if (!sp2)
			continue;
		snprintf(dev, sizeof dev, "%.*s", (int)(sp1 - line), line);
		snprintf(dir, sizeof dir, "%.*s", (int)(sp2 - sp1 - 1), sp1 + 1);
		struct statfs64 st;
		if (statfs64(dir, &st) < 0) {
			fprintf(stderr, "df: %s: %s\n", dir, strerror(errno));
			status = 1;
			continue;
		}
		if (st.f_blocks == 0 && !all)
			continue;
		/* counts are in fragments (f_frsize, 0 on old kernels: then
		 * f_bsize); to KiB rounding up, as GNU df does */
		unsigned long long fr = st.f_frsize ? st.f_frsize : st.f_bsize;
		unsigned long long total = kib(st.f_blocks, fr), avail = kib(st.f_bavail, fr);
		unsigned long long used = kib(st.f_blocks - st.f_bfree, fr);
		/* Use%: used / (used + available), rounded up, as GNU df */
		unsigned long long base = used + avail;
		unsigned pct = base ? (unsigned)((used * 100 + base - 1) / base) : 0;
		if (base)
			printf("%-14s %9llu %9llu %9llu %3u%% %s\n", dev, total, used, avail, pct, dir);
		else
			printf("%-14s %9llu %9llu %9llu %4s %s\n", dev, total, used, avail, "-", dir);
	}
	fclose(m);
	return status;
}
