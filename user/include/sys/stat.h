/*
 * sys/stat.h - file status.
 *
 * struct stat is laid out exactly as the kernel's struct stat64 on i386
 * (what stat64/lstat64/fstat64 fill in): 96 bytes, 64-bit sizes and inode
 * numbers, with padding where Linux keeps the old 16-bit fields' room.
 * Note that on i386 a long long inside a struct is only 4-byte aligned.
 */
#ifndef _SYS_STAT_H
#define _SYS_STAT_H

#include <sys/types.h>
#include <time.h>

struct stat {
	unsigned long long st_dev;
	unsigned char      __pad0[4];
	unsigned long      __st_ino;      /* low 32 bits of st_ino */
	unsigned int       st_mode;
	unsigned int       st_nlink;
	unsigned long      st_uid;
	unsigned long      st_gid;
	unsigned long long st_rdev;
	unsigned char      __pad3[4];
	long long          st_size;
	unsigned long      st_blksize;
	unsigned long long st_blocks;     /* in 512-byte units */
	unsigned long      st_atime;
	unsigned long      st_atime_nsec;
	unsigned long      st_mtime;
	unsigned long      st_mtime_nsec;
	unsigned long      st_ctime;
	unsigned long      st_ctime_nsec;
	unsigned long long st_ino;
};
_Static_assert(sizeof(struct stat) == 96, "struct stat64 is 96 bytes on i386");

#define S_IFMT   0170000
#define S_IFSOCK 0140000
#define S_IFLNK  0120000
#define S_IFREG  0100000
#define S_IFBLK  0060000
#define S_IFDIR  0040000
#define S_IFCHR  0020000
#define S_IFIFO  0010000
#define S_ISUID  04000
#define S_ISGID  02000
#define S_ISVTX  01000

#define S_ISLNK(m)  (((m) & S_IFMT) == S_IFLNK)
#define S_ISREG(m)  (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)  (((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)  (((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m)  (((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)

int stat(const char *path, struct stat *st);
int lstat(const char *path, struct stat *st);
int fstat(int fd, struct stat *st);
int mkdir(const char *path, mode_t mode);

/* buf (11 bytes) <- "drwxr-xr-x": the type letter and permission bits. */
void strmode(mode_t mode, char *buf);

#endif
