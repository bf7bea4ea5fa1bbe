/*
 * ext2walk.c - the corrupt-image fuzzer's walker, an init
 * (tools/tests/ext2fuzz.sh boots the test kernel with root=hda
 * init=/tests/ext2walk blkslice=KIB; kernel/test/blkslice.c cuts hdb into
 * the slices hdb1, hdb2, ...).  /etc/ext2walk on the root holds N, the
 * number of images.  For each image K in 1..N:
 *
 *   print "ext2walk: K start"
 *   mount /dev/hdbK on /mK (ext2, read-write); if refused:
 *       "ext2walk: K end refused ERRNO-NAME"
 *   else walk the tree (getdents, lstat, stat, readlink, read every file,
 *   a read far past the start), then change it: mkdir fz.d, write fz.d/new
 *   and read it back, rename it to fz.new, symlink fz.lnk, rename the first
 *   file the walk found into fz.d, unlink the second, truncate the third,
 *   create and unlink a file in each directory walked, rmdir what it made,
 *   sync, and unmount:
 *       "ext2walk: K end mounted entries=E bytes=B eio=I errs=R ops=O opsfail=F"
 *   An unmount that fails is "ext2walk: K FAIL umount ERRNO" (the kernel
 *   kept a reference: an inode or file leaked), a mismatch in the file it
 *   wrote and read back is counted in opsfail (a corrupt bitmap may hand
 *   out a block twice: the host holds the control image, slice 1, to exact
 *   results).
 *
 * Then "ext2walk: done" and power off.  Limits keep a corrupt image from
 * making the walk endless: depth 12, 400 entries per directory, 3000 per
 * image, 256 KiB read per file.  Everything the walker opens it closes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 12
#define MAX_PER_DIR 400
#define MAX_ENTRIES 3000
#define MAX_READ (256 * 1024)

static struct {
	int entries, eio, errs, ops, opsfail;
	long bytes;
} st;
static char files[3][512];      /* the first regular files found */
static int nfiles;
static char dirs[8][512];       /* the first directories found */
static int ndirs;
static char buf[16384];

static const char *ename(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EIO: return "EIO";
	case ENOMEM: return "ENOMEM";
	case ENOSPC: return "ENOSPC";
	case ENOENT: return "ENOENT";
	case ENOTDIR: return "ENOTDIR";
	case EROFS: return "EROFS";
	case ENODEV: return "ENODEV";
	case ENOTBLK: return "ENOTBLK";
	case EBUSY: return "EBUSY";
	default: {
		static char s[16];
		snprintf(s, sizeof s, "E%d", e);
		return s;
	}
	}
}

static void err_seen(void)
{
	if (errno == EIO)
		st.eio++;
	else
		st.errs++;
}

static void read_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		err_seen();
		return;
	}
	long total = 0;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0) {
			err_seen();
			break;
		}
		if (n == 0)
			break;
		total += n;
		if (total >= MAX_READ)
			break;
	}
	st.bytes += total;
	/* Far blocks: through the indirect tree of a file that claims to be big. */
	static const off_t far[] = { 12 * 1024, 268 * 1024, 70 * 1024 * 1024, 0x7ffff000 };
	for (unsigned i = 0; i < sizeof far / sizeof far[0]; i++)
		if (pread(fd, buf, 512, far[i]) < 0)
			err_seen();
	close(fd);
}

static void walk(const char *dir, int depth)
{
	if (depth > MAX_DEPTH || st.entries >= MAX_ENTRIES)
		return;
	DIR *d = opendir(dir);
	if (!d) {
		err_seen();
		return;
	}
	/* Names first, then recursion: no directory stays open below. */
	static char names[MAX_DEPTH + 1][MAX_PER_DIR][64];
	int n = 0;
	struct dirent *e;
	errno = 0;
	while (n < MAX_PER_DIR && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		strncpy(names[depth][n], e->d_name, 63);
		names[depth][n][63] = 0;
		n++;
		errno = 0;
	}
	if (errno)
		err_seen();
	closedir(d);
	for (int i = 0; i < n && st.entries < MAX_ENTRIES; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, names[depth][i]);
		st.entries++;
		struct stat s;
		if (lstat(path, &s) < 0) {
			err_seen();
			continue;
		}
		if (S_ISLNK(s.st_mode)) {
			char t[300];
			if (readlink(path, t, sizeof t) < 0)
				err_seen();
			struct stat s2;
			if (stat(path, &s2) < 0 && errno == EIO)
				st.eio++;
		} else if (S_ISREG(s.st_mode)) {
			read_file(path);
			if (nfiles < 3)
				strcpy(files[nfiles++], path);
		} else if (S_ISDIR(s.st_mode)) {
			if (ndirs < 8)
				strcpy(dirs[ndirs++], path);
			walk(path, depth + 1);
		}
	}
}

/* An operation that should succeed on a sound image: count it, and its failure. */
static void op(int ok)
{
	st.ops++;
	if (!ok) {
		st.opsfail++;
		err_seen();
	}
}

static void change(const char *mnt)
{
	char d[64], f[80], f2[80], l[80], p[600];
	snprintf(d, sizeof d, "%s/fz.d", mnt);
	snprintf(f, sizeof f, "%s/new", d);
	snprintf(f2, sizeof f2, "%s/fz.new", mnt);
	snprintf(l, sizeof l, "%s/fz.lnk", mnt);
	op(mkdir(d, 0755) == 0);
	int fd = open(f, O_RDWR | O_CREAT | O_TRUNC, 0644);
	op(fd >= 0);
	if (fd >= 0) {
		for (unsigned i = 0; i < 5000; i++)
			buf[i] = (char)(i * 7 + 3);
		op(write(fd, buf, 5000) == 5000);
		op(fsync(fd) == 0);
		memset(buf, 0, 5000);
		int good = pread(fd, buf, 5000, 0) == 5000;
		for (unsigned i = 0; good && i < 5000; i++)
			good = buf[i] == (char)(i * 7 + 3);
		op(good);
		close(fd);
	}
	op(rename(f, f2) == 0);
	op(symlink("fz.new", l) == 0);
	char t[32];
	ssize_t tn = readlink(l, t, sizeof t);
	op(tn == 6 && !memcmp(t, "fz.new", 6));
	op(unlink(l) == 0);
	if (nfiles > 0) {
		snprintf(p, sizeof p, "%s/moved", d);
		op(rename(files[0], p) == 0);
	}
	if (nfiles > 1)
		op(unlink(files[1]) == 0);
	if (nfiles > 2)
		op(truncate(files[2], 100) == 0);
	for (int i = 0; i < ndirs; i++) {
		snprintf(p, sizeof p, "%s/fz.tmp", dirs[i]);
		int t2 = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
		op(t2 >= 0);
		if (t2 >= 0) {
			op(write(t2, "x", 1) == 1);
			close(t2);
			op(unlink(p) == 0);
		}
	}
	if (nfiles > 0) {                       /* fz.d must be empty to go */
		snprintf(p, sizeof p, "%s/moved", d);
		snprintf(f, sizeof f, "%s/fz.moved", mnt);
		op(rename(p, f) == 0);
	}
	op(rmdir(d) == 0);
	sync();
}

int main(void)
{
	int n = 0;
	int fd = open("/etc/ext2walk", O_RDONLY);
	if (fd >= 0) {
		ssize_t r = read(fd, buf, 31);
		if (r > 0) {
			buf[r] = 0;
			n = atoi(buf);
		}
		close(fd);
	}
	if (n <= 0)
		printf("ext2walk: FAIL no image count in /etc/ext2walk\n");
	/* The mount points first: from one mount to the next the kernel then
	 * allocates little, so a superblock freed by a refused mount is likely
	 * to be reused by the next (where leftovers of the first would show). */
	for (int k = 1; k <= n; k++) {
		char mnt[16];
		snprintf(mnt, sizeof mnt, "/m%d", k);
		if (mkdir(mnt, 0755) < 0 && errno != EEXIST)
			printf("ext2walk: %d FAIL mkdir %s: %s\n", k, mnt, ename(errno));
	}
	for (int k = 1; k <= n; k++) {
		char dev[16], mnt[16];
		snprintf(dev, sizeof dev, "/dev/hdb%d", k);
		snprintf(mnt, sizeof mnt, "/m%d", k);
		memset(&st, 0, sizeof st);
		nfiles = ndirs = 0;
		printf("ext2walk: %d start\n", k);
		if (mount(dev, mnt, "ext2", 0, NULL) < 0) {
			printf("ext2walk: %d end refused %s\n", k, ename(errno));
			continue;
		}
		walk(mnt, 0);
		change(mnt);
		if (umount(mnt) < 0)
			printf("ext2walk: %d FAIL umount %s\n", k, ename(errno));
		printf("ext2walk: %d end mounted entries=%d bytes=%ld eio=%d errs=%d ops=%d opsfail=%d\n",
		       k, st.entries, st.bytes, st.eio, st.errs, st.ops, st.opsfail);
	}
	printf("ext2walk: done\n");
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
