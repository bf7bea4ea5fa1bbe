/*
 * df - free space on the mounted filesystems.
 * usage: df [-a] [FILE...]
 * One line per mount of /proc/mounts, sizes in 1 KiB blocks, as GNU df:
 *     Filesystem     1K-blocks      Used Available Use% Mounted on
 * from statfs64(2) on the mount point (the kernel's fs/statfs.c).  Without
 * -a, filesystems of zero blocks (proc, devfs) are left out, as GNU df
 * leaves out its "dummy" filesystems.  With FILEs, one line for the mount
 * each FILE is on: the last mount in /proc/mounts whose mount point has the
 * FILE's device (st_dev), as GNU df finds it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

/* n blocks of size bytes, in KiB rounded up */
static unsigned long long kib(unsigned long long n, unsigned long long size)
{
	return (n * size + 1023) / 1024;
}

/* One line of the table for the mount (dev, dir); 1 if statfs64 failed. */
static int show(const char *dev, const char *dir, int all)
{
	struct statfs64 st;
	if (statfs64(dir, &st) < 0) {
		fprintf(stderr, "df: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	if (st.f_blocks == 0 && !all)
		return 0;
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
	return 0;
}

/* The next mount of /proc/mounts ("DEVICE MOUNTPOINT TYPE OPTIONS 0 0"):
 * 1 and dev, dir filled; 0 at the end. */
static int next_mount(FILE *m, char *dev, size_t ndev, char *dir, size_t ndir)
{
	char line[512];
	while (fgets(line, sizeof line, m)) {
		char *sp1 = strchr(line, ' '), *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
		if (!sp2)
			continue;
		snprintf(dev, ndev, "%.*s", (int)(sp1 - line), line);
		snprintf(dir, ndir, "%.*s", (int)(sp2 - sp1 - 1), sp1 + 1);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int opt, all = 0, status = 0;

	while ((opt = getopt(argc, argv, "a")) != -1) {
		if (opt != 'a') {
			fprintf(stderr, "usage: df [-a] [FILE...]\n");
			return 2;
		}
		all = 1;
	}
	FILE *m = fopen("/proc/mounts", "r");
	if (!m) {
		fprintf(stderr, "df: /proc/mounts: %s\n", strerror(errno));
		return 1;
	}
	printf("%-14s %9s %9s %9s %4s %s\n", "Filesystem", "1K-blocks", "Used", "Available",
	       "Use%", "Mounted on");
	char dev[128], dir[256];
	if (optind == argc) {
		while (next_mount(m, dev, sizeof dev, dir, sizeof dir))
			status |= show(dev, dir, all);
		fclose(m);
		return status;
	}
	for (int a = optind; a < argc; a++) {
		struct stat f, d;
		if (stat(argv[a], &f) < 0) {
			fprintf(stderr, "df: %s: %s\n", argv[a], strerror(errno));
			status = 1;
			continue;
		}
		char mdev[128] = "", mdir[256] = "";
		fseek(m, 0, SEEK_SET);
		while (next_mount(m, dev, sizeof dev, dir, sizeof dir))
			if (stat(dir, &d) == 0 && d.st_dev == f.st_dev) {
				strcpy(mdev, dev);      /* the last one: a later mount covers */
				strcpy(mdir, dir);
			}
		if (!mdir[0]) {
			fprintf(stderr, "df: %s: no mount found\n", argv[a]);
			status = 1;
			continue;
		}
		status |= show(mdev, mdir, 1);
	}
	fclose(m);
	return status;
}
