/*
 * stat - show everything stat(2) says about a file (without following a
 * final symbolic link, like stat(1)).
 * usage: stat path...
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Linux's dev_t: major in bits 8..19, minor in bits 0..7 and 20..31. */
static unsigned int dev_major(unsigned long long d)
{
	return (d >> 8) & 0xfff;
}

static unsigned int dev_minor(unsigned long long d)
{
	return (d & 0xff) | ((d >> 12) & 0xfff00);
}

static const char *type_name(mode_t m)
{
	if (S_ISREG(m))  return "regular file";
	if (S_ISDIR(m))  return "directory";
	if (S_ISLNK(m))  return "symbolic link";
	if (S_ISCHR(m))  return "character device";
	if (S_ISBLK(m))  return "block device";
	if (S_ISFIFO(m)) return "fifo";
	if (S_ISSOCK(m)) return "socket";
	return "unknown";
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: stat path...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;
		char mode[11], target[256];
		ssize_t n;

		if (lstat(argv[i], &st) < 0) {
			fprintf(stderr, "stat: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		strmode(st.st_mode, mode);
		printf("  File: %s", argv[i]);
		if (S_ISLNK(st.st_mode) && (n = readlink(argv[i], target, sizeof(target) - 1)) >= 0) {
			target[n] = '\0';
			printf(" -> %s", target);
		}
		printf("\n  Type: %s\n", type_name(st.st_mode));
		printf("  Size: %lld\tBlocks: %llu\tIO Block: %lu\n",
		       st.st_size, st.st_blocks, st.st_blksize);
		printf("Device: %u:%u\tInode: %llu\tLinks: %u\n",
		       dev_major(st.st_dev), dev_minor(st.st_dev), st.st_ino, st.st_nlink);
		printf("Access: (%04o/%s)\tUid: %lu\tGid: %lu\n",
		       st.st_mode & 07777, mode, st.st_uid, st.st_gid);
		if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
			printf("Device type: %u,%u\n", dev_major(st.st_rdev), dev_minor(st.st_rdev));
		printf("Access: %lu\nModify: %lu\nChange: %lu\n",
		       st.st_atime, st.st_mtime, st.st_ctime);
	}
	return status;
}
