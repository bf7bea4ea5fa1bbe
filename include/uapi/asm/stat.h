/* include/uapi/asm/stat.h: struct stat64, what stat64/lstat64/fstat64/
 * fstatat64 fill in on Linux i386: 96 bytes, 64-bit sizes and inode numbers,
 * with padding where Linux keeps the old 16-bit fields' room.  On i386 a
 * long long inside a struct is only 4-byte aligned, which the layout relies
 * on.  And struct stat, the 32-bit one of stat/lstat/fstat (106-108): 64
 * bytes, a 32-bit st_size, 16-bit modes, links and ids.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md): filled
 * by fs/sys_stat.c; the userland's struct stat IS this structure
 * (user/include/sys/stat.h), since its libc always uses the 64-bit calls. */
#ifndef _UAPI_ASM_STAT_H
#define _UAPI_ASM_STAT_H

struct stat64 {
    unsigned long long st_dev;
    unsigned char      __pad0[4];
    unsigned long      __st_ino;       /* low 32 bits of st_ino */
    unsigned int       st_mode;
    unsigned int       st_nlink;
    unsigned long      st_uid;
    unsigned long      st_gid;
    unsigned long long st_rdev;
    unsigned char      __pad3[4];
    long long          st_size;
    unsigned long      st_blksize;
    unsigned long long st_blocks;      /* in 512-byte units */
    unsigned long      st_atime;
    unsigned long      st_atime_nsec;
    unsigned long      st_mtime;
    unsigned long      st_mtime_nsec;
    unsigned long      st_ctime;
    unsigned long      st_ctime_nsec;
    unsigned long long st_ino;
};
_Static_assert(sizeof(struct stat64) == 96, "struct stat64 is 96 bytes on i386");

/* Left out where stat64 is a macro: user/include/sys/stat.h includes this
 * file with struct stat64 renamed to stat, its libc's only struct stat. */
#ifndef stat64
struct stat {
    unsigned long  st_dev;
    unsigned long  st_ino;
    unsigned short st_mode;
    unsigned short st_nlink;
    unsigned short st_uid;
    unsigned short st_gid;
    unsigned long  st_rdev;
    unsigned long  st_size;
    unsigned long  st_blksize;
    unsigned long  st_blocks;          /* in 512-byte units */
    unsigned long  st_atime;
    unsigned long  st_atime_nsec;
    unsigned long  st_mtime;
    unsigned long  st_mtime_nsec;
    unsigned long  st_ctime;
    unsigned long  st_ctime_nsec;
    unsigned long  __unused4;
    unsigned long  __unused5;
};
_Static_assert(sizeof(struct stat) == 64, "struct stat is 64 bytes on i386");
#endif

#endif
