/* include/uapi/linux/dirent.h: the records getdents64(2) fills a buffer
 * with, and their d_type values.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md):
 * written by fs/sys_stat.c, read by user/libc/dirent.c.  Each record is
 *
 *     u64 d_ino | s64 d_off | u16 d_reclen | u8 d_type | name '\0' pad
 *
 * and d_reclen (a multiple of 8) says where the next one starts.  (Linux
 * keeps the struct in include/linux/dirent.h and DT_* in
 * include/linux/fs_types.h; glibc repeats them.  Here both sides share it.) */
#ifndef _UAPI_LINUX_DIRENT_H
#define _UAPI_LINUX_DIRENT_H

struct linux_dirent64 {
    unsigned long long d_ino;
    long long          d_off;          /* position of the NEXT entry (telldir) */
    unsigned short     d_reclen;
    unsigned char      d_type;
    char               d_name[];
} __attribute__((packed));

#define DT_UNKNOWN 0
#define DT_FIFO    1
#define DT_CHR     2
#define DT_DIR     4
#define DT_BLK     6
#define DT_REG     8
#define DT_LNK    10
#define DT_SOCK   12

#endif
