/* include/uapi/linux/stat.h: the file type and permission bits of a mode,
 * and struct statx (statx(2)).
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md): the
 * VFS keeps i_mode in these bits, stat(2) and statx(2) report them, the
 * userland's <sys/stat.h> tests them. */
#ifndef _UAPI_LINUX_STAT_H
#define _UAPI_LINUX_STAT_H

#define S_IFMT   0170000               /* the file type: */
#define S_IFSOCK 0140000
#define S_IFLNK  0120000
#define S_IFREG  0100000
#define S_IFBLK  0060000
#define S_IFDIR  0040000
#define S_IFCHR  0020000
#define S_IFIFO  0010000
#define S_ISUID  0004000               /* set-user-id on exec */
#define S_ISGID  0002000               /* set-group-id on exec */
#define S_ISVTX  0001000               /* sticky: only the owner unlinks */
#define S_IRWXU  00700                 /* the permission bits: owner, */
#define S_IRUSR  00400
#define S_IWUSR  00200
#define S_IXUSR  00100
#define S_IRWXG  00070                 /* group, */
#define S_IRGRP  00040
#define S_IWGRP  00020
#define S_IXGRP  00010
#define S_IRWXO  00007                 /* others */
#define S_IROTH  00004
#define S_IWOTH  00002
#define S_IXOTH  00001

#define S_ISLNK(m)  (((m) & S_IFMT) == S_IFLNK)
#define S_ISREG(m)  (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)  (((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)  (((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m)  (((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)

/* struct statx, 256 bytes.  Vellum fills the basic fields (no btime). */
struct statx_timestamp {
    long long tv_sec;
    unsigned int tv_nsec;
    int __reserved;
};
struct statx {
    unsigned int stx_mask, stx_blksize;
    unsigned long long stx_attributes;
    unsigned int stx_nlink, stx_uid, stx_gid;
    unsigned short stx_mode, __spare0;
    unsigned long long stx_ino, stx_size, stx_blocks, stx_attributes_mask;
    struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
    unsigned int stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
    unsigned long long __spare2[14];
};
_Static_assert(sizeof(struct statx) == 256, "struct statx is 256 bytes");
#define STATX_BASIC_STATS 0x7ffU       /* type..blocks: everything but btime */
#define STATX__RESERVED   0x80000000U

/* utimensat(2): a tv_nsec that means "now" or "leave this time alone"
 * (Linux keeps these in include/linux/stat.h; glibc in <sys/stat.h>). */
#define UTIME_NOW  ((1l << 30) - 1l)
#define UTIME_OMIT ((1l << 30) - 2l)

#endif
