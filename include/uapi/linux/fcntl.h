/* include/uapi/linux/fcntl.h: open(2)'s flags, fcntl(2)'s commands, and
 * the *at() calls' dirfd and flags, Linux i386 values.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md).
 * (Linux: asm-generic/fcntl.h and linux/fcntl.h.) */
#ifndef _UAPI_LINUX_FCNTL_H
#define _UAPI_LINUX_FCNTL_H

#define O_ACCMODE   00000003
#define O_RDONLY    00000000
#define O_WRONLY    00000001
#define O_RDWR      00000002
#define O_CREAT     00000100
#define O_EXCL      00000200
#define O_NOCTTY    00000400
#define O_TRUNC     00001000
#define O_APPEND    00002000
#define O_NONBLOCK  00004000
#define O_DSYNC     00010000           /* write(2) returns once the data is on disk */
#define FASYNC      00020000           /* O_ASYNC: SIGIO to the owner on I/O (F_SETFL) */
#define O_DIRECT    00040000           /* accepted; the I/O goes through the page cache */
#define O_LARGEFILE 00100000           /* sizes past 2 GiB - 1 (libc passes it) */
#define O_DIRECTORY 00200000
#define O_NOFOLLOW  00400000
#define O_NOATIME   01000000           /* accepted; reads never update atime here anyway */
#define O_CLOEXEC   02000000
#define __O_SYNC    04000000
#define O_SYNC      (__O_SYNC | O_DSYNC) /* ... and the inode too */
#define O_PATH      010000000          /* a place in the tree, not an open file */
#define __O_TMPFILE 020000000
#define O_TMPFILE   (__O_TMPFILE | O_DIRECTORY)  /* an unnamed file in the directory */

/* fcntl(2) commands */
#define F_DUPFD          0
#define F_GETFD          1
#define F_SETFD          2
#define F_GETFL          3
#define F_SETFL          4
#define F_SETOWN         8             /* SIGIO's receiver: a pid, or -pgrp */
#define F_GETOWN         9
#define F_SETSIG         10            /* the signal sent instead of SIGIO (0: SIGIO) */
#define F_GETSIG         11
#define F_SETOWN_EX      15            /* ... as a struct f_owner_ex */
#define F_GETOWN_EX      16
#define F_OWNER_TID      0
#define F_OWNER_PID      1
#define F_OWNER_PGRP     2
struct f_owner_ex {
    int type;                          /* F_OWNER_TID, F_OWNER_PID, F_OWNER_PGRP */
    int pid;
};
#define F_SETLEASE       1024          /* F_RDLCK, F_WRLCK or F_UNLCK (fs/locks.c) */
#define F_GETLEASE       1025
#define F_DUPFD_CLOEXEC  1030
#define F_SETPIPE_SZ     1031          /* set a pipe's capacity */
#define F_GETPIPE_SZ     1032          /* a pipe's capacity in bytes */
#define FD_CLOEXEC       1             /* F_GETFD/F_SETFD's one flag */

/* POSIX record locks (fs/locks.c): fcntl's F_GETLK/F_SETLK/F_SETLKW take a
 * struct flock; fcntl64 also takes F_GETLK64/F_SETLK64/F_SETLKW64 with a
 * struct flock64 (what glibc uses with 64-bit file offsets). */
#define F_GETLK          5
#define F_SETLK          6
#define F_SETLKW         7
#define F_GETLK64        12
#define F_SETLK64        13
#define F_SETLKW64       14
#define F_OFD_GETLK      36            /* open file description locks: owned */
#define F_OFD_SETLK      37            /* by the open file, l_pid 0 */
#define F_OFD_SETLKW     38
#define F_RDLCK          0
#define F_WRLCK          1
#define F_UNLCK          2

struct flock {
    short l_type;                      /* F_RDLCK, F_WRLCK, F_UNLCK */
    short l_whence;                    /* SEEK_SET, SEEK_CUR, SEEK_END */
    long l_start;                      /* from l_whence */
    long l_len;                        /* 0: to the end; < 0: before l_start */
    int l_pid;                         /* F_GETLK: the holder's pid */
};

struct flock64 {                       /* 24 bytes: i386 aligns long long to 4 */
    short l_type;
    short l_whence;
    long long l_start;
    long long l_len;
    int l_pid;
};

/* flock(2)'s operations */
#define LOCK_SH          1             /* shared */
#define LOCK_EX          2             /* exclusive */
#define LOCK_NB          4             /* or'ed in: do not wait */
#define LOCK_UN          8             /* unlock */

/* the *at() calls */
#define AT_FDCWD            (-100)     /* dirfd: the current directory */
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR        0x200      /* unlinkat: rmdir */
#define AT_SYMLINK_FOLLOW   0x400      /* linkat */
#define AT_EACCESS          0x200      /* faccessat2: the effective ids, not the real */
#define AT_NO_AUTOMOUNT     0x800      /* no automounts here: accepted, ignored */
#define AT_EMPTY_PATH       0x1000     /* "" names dirfd itself */
#define AT_STATX_SYNC_TYPE  0x6000     /* statx: sync mode bits, ignored */

/* renameat2's flags */
#define RENAME_NOREPLACE    (1 << 0)   /* fail with EEXIST if the new name exists */
#define RENAME_EXCHANGE     (1 << 1)   /* swap the two names */
#define RENAME_WHITEOUT     (1 << 2)   /* overlayfs's whiteout: not modelled (-EINVAL) */

#endif
