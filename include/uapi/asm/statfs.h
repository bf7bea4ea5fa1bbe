/* include/uapi/asm/statfs.h: what statfs(2)/fstatfs(2) (struct statfs, 64
 * bytes) and statfs64(2)/fstatfs64(2) (struct statfs64, 84 bytes) fill in
 * on Linux i386.  The kernel's own view is struct kstatfs (include/fs.h).
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md).
 * (Linux: asm-generic/statfs.h, with a 32-bit __statfs_word; on i386 the
 * 64-bit fields are 4-byte aligned, so there is no padding.) */
#ifndef _UAPI_ASM_STATFS_H
#define _UAPI_ASM_STATFS_H

typedef struct { int val[2]; } __kernel_fsid_t;

struct statfs {
    unsigned int f_type;               /* magic number: 0xEF53 ext2, 0x858458f6 ramfs */
    unsigned int f_bsize;              /* block size */
    unsigned int f_blocks;             /* blocks in the filesystem, in f_bsize units */
    unsigned int f_bfree;              /* free blocks */
    unsigned int f_bavail;             /* free blocks an unprivileged user may use */
    unsigned int f_files;              /* inodes */
    unsigned int f_ffree;              /* free inodes */
    __kernel_fsid_t f_fsid;
    unsigned int f_namelen;            /* longest name */
    unsigned int f_frsize;             /* fragment size (= f_bsize) */
    unsigned int f_flags;              /* ST_RDONLY... */
    unsigned int f_spare[4];
};
_Static_assert(sizeof(struct statfs) == 64, "struct statfs is 64 bytes on i386");

struct statfs64 {
    unsigned int f_type;
    unsigned int f_bsize;
    unsigned long long f_blocks;
    unsigned long long f_bfree;
    unsigned long long f_bavail;
    unsigned long long f_files;
    unsigned long long f_ffree;
    __kernel_fsid_t f_fsid;
    unsigned int f_namelen;
    unsigned int f_frsize;
    unsigned int f_flags;
    unsigned int f_spare[4];
};
_Static_assert(sizeof(struct statfs64) == 84, "struct statfs64 is 84 bytes on i386");

#define ST_RDONLY 0x0001               /* f_flags: mounted read-only */

#endif
