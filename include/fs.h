/* include/fs.h: the VFS, the specification every filesystem implements.
 *
 *   struct file_system_type   a kind of filesystem (ext2, ramfs); mounts it
 *   struct super_block        one mounted filesystem instance
 *   struct inode              one file, directory or symlink (in the inode cache)
 *   struct address_space      the inode's page cache (i_data), with a_ops
 *   struct file               one open() of an inode: position, flags
 *   struct vfsmount           where a super_block is attached in the tree
 *
 *   file --f_inode--> inode --i_mapping--> address_space --pages--> struct page
 *                       |  \--i_sb--> super_block --s_bdev--> block_device
 *                       \--i_op, i_fop               \--s_op
 *
 * Simplification on purpose: there is no dentry cache.  Names are resolved
 * by asking each directory's i_op->lookup, and a `struct path` is (mount,
 * inode) instead of Linux's (mount, dentry).  ".." is the filesystem's own
 * ".." entry, except at a mount's root, where the VFS steps to the mount
 * point first, as Linux's follow_dotdot does.
 *
 * Locking (the one place the order is written is the comment at the top of
 * mm/filemap.c): inode->i_mutex (Linux's i_rwsem) is held by the VFS around
 * every directory operation on that directory and around write() and
 * truncate on a regular file; page locks nest inside i_mutex.
 *
 * References: iget_locked()/igrab() take an inode reference, iput() drops
 * it; at the last iput of an inode with i_nlink == 0 the filesystem's
 * evict_inode frees it on disk.  Functions that return an inode in *res
 * return it with a reference the caller must iput().
 */
#ifndef _FS_H
#define _FS_H
#include <kernel.h>
#include <list.h>
#include <mutex.h>
#include <spinlock.h>
#include <mm_types.h>

struct super_block;
struct inode;
struct file;
struct page;
struct iov_iter;
struct block_device;
struct writeback_control;
struct kstat;
struct vfsmount;

/* ---- modes and flags: the ABI (include/uapi/) ------------------- */
#include <linux/stat.h>                /* S_IFMT, S_IFREG, S_ISDIR()... */
#include <linux/fcntl.h>               /* O_RDONLY, O_CREAT, O_APPEND... */
#include <linux/fs.h>                  /* SEEK_SET.., RWF_DSYNC.. */
#include <linux/dirent.h>              /* DT_REG, DT_DIR... */

/* preadv2/pwritev2 flags: per call, not per file.  RWF_NOWAIT only on a
 * file opened with FMODE_NOWAIT (fs/read_write.c); the newer ones are not
 * supported (-EOPNOTSUPP). */
#define RWF_SUPPORTED (RWF_HIPRI | RWF_DSYNC | RWF_SYNC | RWF_NOWAIT | RWF_APPEND)

#define NAME_MAX    255
#define PATH_MAX    4096
#define MAXSYMLINKS 40                 /* symlinks followed in one lookup (ELOOP) */
#define MS_RDONLY   1

/* ---- address_space: an inode's page cache --------------------------- */

/* Flags for write_begin. */
#define AOP_FLAG_UNINTERRUPTIBLE 0x0001 /* the source is kernel memory: the copy
                                           cannot come up short, copied == len */

/*
 * The address-space operations: how the page cache talks to a filesystem.
 *
 * readpage(file, page)
 *     Entry: page locked, not uptodate, in the page cache.  Start reading it
 *     (holes read as zeros).  On success set PG_uptodate; on failure set
 *     PG_error; in both cases unlock the page (possibly after the I/O, from
 *     another context).  Returns 0 or a negative errno (page then unlocked too).
 * writepage(page, wbc)
 *     Entry: page locked, dirty bit already cleared by clear_page_dirty_for_io.
 *     Write it to disk (the part before i_size only).  Set PG_writeback while
 *     I/O runs, end_page_writeback() when done; unlock the page.  On error
 *     set PG_error and mapping_set_error(); return the errno.
 * write_begin(file, mapping, pos, len, flags, &page, &fsdata)
 *     Entry: i_mutex held, no page locked.  Find or create the page for pos,
 *     lock it, and make a write of len bytes at pos possible: map or allocate
 *     the blocks, read any block the write covers only partly if the page is
 *     not uptodate (unless ..._UNINTERRUPTIBLE lets it assume a full copy).
 *     Exit on success: 0, *pagep locked with a reference; fsdata is passed
 *     to write_end.  On error: no page locked or referenced; blocks it
 *     allocated past i_size are trimmed back.  len never crosses a page.
 * write_end(file, mapping, pos, len, copied, page, fsdata)
 *     Entry: page locked (from write_begin); copied <= len bytes were copied
 *     into it at pos.  Commit copied bytes: if the page is not uptodate and
 *     copied < len, commit nothing (return 0; Linux's block_write_end rule,
 *     the caller retries), zeroing newly allocated blocks outside what was
 *     written.  Mark the page (and blocks) dirty, extend i_size under the page
 *     lock if pos + copied passes it, unlock and release the page.
 *     Returns the bytes committed (0..copied) or a negative errno.
 * prepare_write(file, page, from, to) / commit_write(file, page, from, to)
 *     The pre-2.6.24 API, for filesystems not yet converted.  The VFS locks
 *     the page and calls prepare_write (same job as write_begin for bytes
 *     from..to of a page), copies, then calls commit_write (mark dirty,
 *     update i_size); the page stays locked across both and the VFS unlocks
 *     it.  A filesystem provides either these or write_begin/write_end.
 * invalidatepage(page, offset)
 *     Entry: page locked.  Truncation is removing bytes from offset to the
 *     page's end: drop any private (per-block) state for them.
 * releasepage(page)
 *     Entry: page locked, clean.  Free page->private so the page can leave
 *     the cache.  Returns 1 if released.
 * is_partially_uptodate(page, from, count)
 *     Optional.  Entry: page locked, not uptodate.  1 if the bytes from
 *     `from` for count (cut at the page's end) can be read from the page
 *     as it is (their blocks are uptodate), else 0.  A RWF_NOWAIT read asks
 *     it (filemap_nowait_limit).
 * bmap(mapping, block)
 *     Optional.  The disk block holding file block `block`, or 0 for a
 *     hole (and, as Linux's, for a map it cannot read: the caller cannot
 *     tell the two apart).  Never allocates.  Entry: no page locked; the
 *     file's block map must not change meanwhile (the journal inode's,
 *     its one user, never does while mounted).
 */
struct address_space_operations {
    int (*readpage)(struct file *file, struct page *page);
    int (*writepage)(struct page *page, struct writeback_control *wbc);
    int (*write_begin)(struct file *file, struct address_space *mapping, loff_t pos,
                       unsigned len, unsigned flags, struct page **pagep, void **fsdata);
    int (*write_end)(struct file *file, struct address_space *mapping, loff_t pos,
                     unsigned len, unsigned copied, struct page *page, void *fsdata);
    int (*prepare_write)(struct file *file, struct page *page, unsigned from, unsigned to);
    int (*commit_write)(struct file *file, struct page *page, unsigned from, unsigned to);
    void (*invalidatepage)(struct page *page, unsigned long offset);
    int (*releasepage)(struct page *page);
    int (*is_partially_uptodate)(struct page *page, unsigned long from, unsigned long count);
    unsigned long (*bmap)(struct address_space *mapping, unsigned long block);
};

struct address_space {
    struct inode *host;
    const struct address_space_operations *a_ops;
    unsigned long nrpages;
    struct list_head pages;            /* every cached page (page->i_pages) */
    spinlock_t tree_lock;              /* pages, nrpages (the global hash chains
                                          have their own lock, nested inside) */
    unsigned long flags;               /* AS_EIO, AS_ENOSPC: writeback errors */
    unsigned long dirtied_when;        /* jiffies when first page became dirty */
    unsigned long readahead_next;      /* sequential-readahead state: next index expected */
    unsigned long readahead_size;      /* pages of the current readahead window */
    struct list_head i_mmap;           /* VMAs mapping this file (vma->shared);
                                          changed under i_mmap_lock by mmap,
                                          munmap, fork, exit; walked by
                                          truncate and page_mkclean */
    spinlock_t i_mmap_lock;            /* i_mmap (inside the page lock) */
};
#define AS_EIO    0
#define AS_ENOSPC 1

/* ---- inodes ----------------------------------------------------------- */

struct iattr {
    unsigned int ia_valid;             /* ATTR_* bits say which fields count */
    mode_t ia_mode;
    uid_t ia_uid;
    gid_t ia_gid;
    loff_t ia_size;
    time_t ia_atime, ia_mtime, ia_ctime;
};
#define ATTR_MODE  0x01
#define ATTR_UID   0x02
#define ATTR_GID   0x04
#define ATTR_SIZE  0x08
#define ATTR_ATIME 0x10
#define ATTR_MTIME 0x20
#define ATTR_CTIME 0x40
#define ATTR_FORCE      0x200          /* no owner or permission checks (file_remove_privs) */
#define ATTR_KILL_SUID  0x800          /* clear S_ISUID (chown, a write) */
#define ATTR_KILL_SGID  0x1000         /* clear S_ISGID if group-executable */
#define ATTR_TIMES_SET  0x10000        /* utimensat with explicit times: the owner only */
#define ATTR_TOUCH      0x20000        /* utimensat to now: owner or write permission */

/*
 * Inode operations.  For every directory operation: entry with dir->i_mutex
 * held by the VFS; name is not NUL-terminated (use len) and is a single
 * component (no '/'), never "." or "..", 1..NAME_MAX bytes.  The VFS has
 * already checked that the name does (for unlink/rmdir/rename's source) or
 * does not (create/mkdir/symlink/link) exist only where it says so below;
 * the filesystem checks the rest.  Errors are negative errnos.
 *
 * lookup(dir, name, len, &res)   0 and *res (referenced), or -ENOENT, -EIO.
 *                                Exception to the rule above: lookup may be
 *                                asked for ".." (there is no dentry cache, so
 *                                the VFS learns a directory's parent from the
 *                                filesystem) and must return the parent (the
 *                                root returns itself).  Never for ".".
 * create(dir, name, len, mode, &res)  new regular file; -EEXIST if present,
 *                                -ENOSPC, -EIO.  *res referenced.
 * mkdir(dir, name, len, mode)    new directory with . and ..; -EEXIST, -ENOSPC, -EMLINK
 * rmdir(dir, name, len)          -ENOTDIR, -ENOTEMPTY, -ENOENT
 * unlink(dir, name, len)         removes a non-directory entry; -EISDIR for a directory;
 *                                the inode is freed at its last iput if i_nlink hit 0
 * rename(odir, oname, olen, ndir, nname, nlen)
 *                                both dirs' i_mutex held (lower address first);
 *                                same filesystem (the VFS returns -EXDEV otherwise);
 *                                replaces a target of the same kind (an empty
 *                                directory only: else -ENOTEMPTY; kinds differ:
 *                                -EISDIR / -ENOTDIR); refuses moving a directory
 *                                into its own subtree (-EINVAL, VFS checks it)
 * link(old, dir, name, len)      hard link to a non-directory; -EEXIST, -EMLINK
 * symlink(dir, name, len, target) new symlink holding target (NUL-terminated)
 * readlink(inode, buf, size)     copy the target (no NUL); returns its length
 *                                or errno.  Entry: no locks.
 * setattr(inode, attr)           entry: inode->i_mutex held, the change
 *                                already allowed (notify_change applied
 *                                setattr_prepare's owner and permission
 *                                rules and the ATTR_KILL_* bits, fs/attr.c);
 *                                the filesystem stores it (setattr_copy).
 *                                For ATTR_SIZE it truncates or extends (with
 *                                truncate_setsize() for the page cache and
 *                                freeing blocks past the new size).
 */
struct path;
struct inode_operations {
    int (*lookup)(struct inode *dir, const char *name, size_t len, struct inode **res);
    int (*create)(struct inode *dir, const char *name, size_t len, mode_t mode,
                  struct inode **res);
    int (*mkdir)(struct inode *dir, const char *name, size_t len, mode_t mode);
    /* A device node, FIFO or socket (mode's type; rdev for a device) named
     * name in dir (VFS: parent's i_mutex held, name absent, mode checked). */
    int (*mknod)(struct inode *dir, const char *name, size_t len, mode_t mode, dev_t rdev);
    int (*rmdir)(struct inode *dir, const char *name, size_t len);
    int (*unlink)(struct inode *dir, const char *name, size_t len);
    int (*rename)(struct inode *odir, const char *oname, size_t olen,
                  struct inode *ndir, const char *nname, size_t nlen);
    int (*link)(struct inode *old, struct inode *dir, const char *name, size_t len);
    int (*symlink)(struct inode *dir, const char *name, size_t len, const char *target);
    int (*readlink)(struct inode *inode, char *buf, size_t size);
    int (*setattr)(struct inode *inode, struct iattr *attr);
    /* A "magic link" (/proc/PID/fd/N, /proc/PID/exe): following it goes to
     * this path itself (referenced), not to its text: an unlinked file or
     * one with no reachable name too (Linux's nd_jump_link).  0 or -errno;
     * NULL: an ordinary symlink, followed by its readlink text. */
    int (*get_path)(struct inode *inode, struct path *res);
};

struct inode {
    unsigned long i_ino;
    mode_t i_mode;
    unsigned int i_nlink;
    uid_t i_uid;
    gid_t i_gid;
    dev_t i_rdev;
    loff_t i_size;                     /* changed under i_mutex, and for writes
                                          also under the page lock (write_end) */
    time_t i_atime, i_mtime, i_ctime;
    unsigned long i_blocks;            /* 512-byte sectors allocated */
    unsigned int i_blkbits;            /* log2 of the filesystem block size */
    unsigned long i_state;             /* I_NEW, I_DIRTY, I_FREEING */
    int i_count;                       /* references (iget/igrab/iput) */
    struct super_block *i_sb;
    const struct inode_operations *i_op;
    const struct file_operations *i_fop;
    struct address_space *i_mapping;   /* = &i_data */
    struct address_space i_data;
    struct mutex i_mutex;
    struct list_head i_sb_list;        /* on sb->s_inodes */
    struct list_head i_hash;           /* inode-cache hash chain */
    struct list_head i_dirty;          /* on sb->s_dirty while I_DIRTY or pages dirty */
    void *i_private;
    unsigned int i_flags;              /* S_DEAD */
    struct file_lock *i_flock;         /* advisory locks and leases, fs/locks.c
                                          (file_lock_lock) */
    int i_writecount;                  /* open for writing (> 0: that many files),
                                          or executing (< 0): fs/open.c,
                                          inode_wc_lock; Linux's atomic_t */
    int i_readcount;                   /* files open read-only (leases) */
    struct pipe *i_pipe;               /* a FIFO's pipe while it is open (fs/pipe.c,
                                          fifo_lock) */
};
/* i_flags.  S_DEAD: a directory that rmdir (or a rename over it) removed;
 * the VFS sets it, and nothing may be looked up or created in it any more
 * (-ENOENT), nor read from it (getdents: -ENOENT), as Linux's IS_DEADDIR.
 * "." and ".." still work: a removed cwd can be left. */
#define S_DEAD      0x10
#define IS_DEADDIR(inode) ((inode)->i_flags & S_DEAD)
#define I_NEW       0x01
#define I_DIRTY     0x02               /* the on-disk inode needs writing */
#define I_FREEING   0x04
#define I_DIRTY_PAGES 0x08             /* some page of i_data is dirty */
#define I_FAILED    0x10               /* iget_failed: never filled; evict_inode
                                          is not called for it */
#define I_LINKABLE  0x20               /* an O_TMPFILE file opened without O_EXCL:
                                          linkat may give it a name (nlink 0) */

/* The inode cache (fs/inode.c). */
struct inode *iget_locked(struct super_block *sb, unsigned long ino);
                                       /* cached inode (referenced), or a new one
                                          with I_NEW set that the caller fills and
                                          then calls unlock_new_inode() on */
void unlock_new_inode(struct inode *inode);
void iget_failed(struct inode *inode); /* filling an I_NEW inode failed: drop it */
struct inode *new_inode(struct super_block *sb);  /* not hashed: fs sets i_ino, calls insert_inode_hash */
void insert_inode_hash(struct inode *inode);
struct inode *igrab(struct inode *inode);
void iput(struct inode *inode);
unsigned long bmap(struct inode *inode, unsigned long block);  /* a_ops->bmap, 0 without one */
void mark_inode_dirty(struct inode *inode);
void inode_init_once(struct inode *inode);  /* for alloc_inode implementations */
void clear_nlink(struct inode *inode);
void inc_nlink(struct inode *inode);
void drop_nlink(struct inode *inode);
time_t current_time(void);                  /* seconds since the epoch (RTC at boot + uptime) */
void file_update_time(struct file *file);   /* mtime/ctime = now; dirty the inode only if they change */
struct path;
/* The access time (fs/inode.c): touch_atime sets path's inode's atime to now
 * if relatime says so (Linux's default mount option, and Vellum's only
 * one): atime not after mtime or ctime, or a day old.  Never on a read-only
 * filesystem.  file_accessed: the same for an open file, unless it was
 * opened O_NOATIME.  Callers: the read path, mmap, getdents, readlink and
 * following a symlink, as in Linux. */
void touch_atime(const struct path *path);
void file_accessed(struct file *file);

/* ---- files -------------------------------------------------------------- */

struct dir_context;
typedef int (*filldir_t)(struct dir_context *ctx, const char *name, int len,
                         loff_t pos, unsigned long ino, unsigned int d_type);
struct dir_context {
    filldir_t actor;                   /* returns nonzero to stop: buffer full */
    loff_t pos;                        /* the fs advances it past each entry it emits */
};

/* Every ->iterate's first two entries, Linux's dir_emit_dots: "." (position
 * 0, inode ino) and ".." (position 1, inode parent_ino), those ctx is still
 * before.  false if the actor is full (->iterate then returns 0).  Vellum
 * has no dentries: the caller names both inodes. */
static inline bool dir_emit_dots(struct dir_context *ctx, unsigned long ino,
                                 unsigned long parent_ino)
{
    if (ctx->pos == 0) {
        if (ctx->actor(ctx, ".", 1, 0, ino, DT_DIR))
            return false;
        ctx->pos = 1;
    }
    if (ctx->pos == 1) {
        if (ctx->actor(ctx, "..", 2, 1, parent_ino, DT_DIR))
            return false;
        ctx->pos = 2;
    }
    return true;
}

/*
 * File operations.  f_pos is owned by the VFS (vfs_read/vfs_write pass a
 * pointer to it or, for pread/pwrite, to a local).
 *
 * read_iter(file, to, &pos)    copy up to iov_iter_count(to) bytes from *pos,
 *                              advance *pos; 0 at EOF; partial counts are
 *                              fine; -EFAULT only if nothing was copied.
 *                              IOCB_NOWAIT (only if open set FMODE_NOWAIT):
 *                              what can be copied without waiting, -EAGAIN
 *                              if that is nothing.
 * write_iter(file, from, &pos) the VFS holds nothing; the fs takes i_mutex
 *                              (generic_file_write_iter does); O_APPEND writes
 *                              at i_size.  *pos ends after the bytes written,
 *                              moved only if some were.  Returns bytes written
 *                              or errno (errno only if nothing was written).
 * iterate(file, ctx)           emit directory entries from ctx->pos on;
 *                              entry: dir's i_mutex held.  0 or errno.
 * fsync(file, datasync)        write the file's dirty pages and its inode
 * llseek(file, off, whence)    new position or -EINVAL; NULL means
 *                              generic_file_llseek; no_llseek: -ESPIPE
 * open(inode, file)            optional; called by filp_open once file is
 *                              built (f_op = i_fop; a device's open may
 *                              replace f_op, as chrdev_open does), before
 *                              O_TRUNC is done.  0, or an errno that fails
 *                              the open (file is freed and release is NOT
 *                              called).  No locks held.  generic_file_open
 *                              refuses a file past MAX_NON_LFS without
 *                              O_LARGEFILE (-EOVERFLOW).
 * release(inode, file)         optional; at the last fput of the file.
 * ioctl(file, cmd, arg)        optional; arg is a user value or pointer (use
 *                              copy_from_user).  No locks held.  NULL or an
 *                              unknown cmd: -ENOTTY.  sys_ioctl handles
 *                              FIOCLEX, FIONCLEX and FIONBIO itself first.
 * mmap(file, vma)              set up a new VMA for this file: check the
 *                              file can be mapped, set vma->vm_ops (the
 *                              page-cache files use generic_file_mmap,
 *                              mm/filemap.c).  Entry: mmap_sem held; the
 *                              VMA is not linked yet.  0 or errno (-ENODEV:
 *                              cannot be mapped).  NULL: mmap is -ENODEV.
 */
struct vm_area_struct;
struct file_operations {
    loff_t (*llseek)(struct file *file, loff_t off, int whence);
    ssize_t (*read_iter)(struct file *file, struct iov_iter *to, loff_t *pos);
    ssize_t (*write_iter)(struct file *file, struct iov_iter *from, loff_t *pos);
    int (*iterate)(struct file *file, struct dir_context *ctx);
    int (*fsync)(struct file *file, int datasync);
    int (*open)(struct inode *inode, struct file *file);
    int (*release)(struct inode *inode, struct file *file);
    long (*ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
    int (*mmap)(struct file *file, struct vm_area_struct *vma);
    /* poll: which of POLLIN/POLLOUT/POLLHUP/POLLERR (include/poll.h) hold
     * now, without sleeping; no locks held on entry.  Unlike Linux's it
     * registers no wait queue: sys_poll (fs/select.c) asks again every tick.
     * NULL means DEFAULT_POLLMASK (always readable and writable: files). */
    unsigned int (*poll)(struct file *file);
    /* O_ASYNC (FASYNC) set (on) or cleared on file by fcntl(F_SETFL), or
     * cleared at its last close: the driver adds it to or removes it from
     * the files it signals (send_sigio) when data comes.  0 or -errno.
     * NULL: O_ASYNC is kept in f_flags and nothing is signalled. */
    int (*fasync)(struct file *file, int on);
    unsigned int fop_flags;            /* FOP_* (Linux 6.11's field) */
};
/* fop_flags: read_iter and write_iter run without the big kernel lock (SMP
 * step 5, docs/smp.md): they and everything they call take the locks they
 * need.  Without the bit, vfs_read and vfs_write take the big lock around
 * the call, as Linux 2.6.11-2.6.36 called ->ioctl under it and
 * ->unlocked_ioctl without. */
#define FOP_UNLOCKED_RW 0x1

struct path {
    struct vfsmount *mnt;
    struct inode *inode;               /* referenced (igrab) while the path is held */
};

/* Who a file's SIGIO goes to (fcntl F_SETOWN, F_SETOWN_EX, F_SETSIG;
 * Linux's fown_struct): a thread (F_OWNER_TID), a process (F_OWNER_PID)
 * or a process group (F_OWNER_PGRP), by number; 0: nobody.  signum 0 is
 * SIGIO.  send_sigio: the signal for an I/O event (O_ASYNC) or a lease
 * break, band the si_code for a signum set by F_SETSIG (POLL_IN...). */
struct fown_struct {
    int pid;
    int pid_type;                      /* PIDTYPE_PID, _TGID, _PGID */
    int signum;
};
#define PIDTYPE_PID  0
#define PIDTYPE_TGID 1
#define PIDTYPE_PGID 2
#define POLL_IN  1                     /* si_code of an F_SETSIG signal: data came */
#define POLL_OUT 2                     /* ... room came */
#define POLL_MSG 3                     /* ... a lease is being broken */
void send_sigio(struct fown_struct *fown, int band);

struct file {
    struct path f_path;
    struct inode *f_inode;             /* = f_path.inode */
    const struct file_operations *f_op;
    struct address_space *f_mapping;
    unsigned int f_flags;              /* O_* given to open */
    unsigned int f_mode;               /* FMODE_READ | FMODE_WRITE | FMODE_NOWAIT */
    loff_t f_pos;
    struct mutex f_pos_lock;           /* serialises f_pos updates */
    int f_count;
    void *private_data;
    unsigned int f_pipe;               /* a FIFO's reader: the pipe's w_counter at open (fs/pipe.c) */
    struct fown_struct f_owner;        /* who gets SIGIO (fcntl F_SETOWN, F_SETSIG) */
};
#define FMODE_READ   0x1
#define FMODE_WRITE  0x2
#define FMODE_NOWAIT 0x8               /* takes RWF_NOWAIT (the file system's open sets it) */
#define FMODE_EXEC   0x20              /* opened by execve: denies writers while open
                                          (i_writecount < 0, deny_write_access) */
#define FMODE_WRITER 0x40              /* counted in i_writecount (a regular file
                                          open for writing) */
#define FMODE_READER 0x80              /* counted in i_readcount (read-only) */
#define FMODE_PATH   0x100             /* O_PATH: a place, not an open file: no
                                          read, write, ioctl or mapping (-EBADF) */

/* The open-count rules (fs/open.c; Linux's get_write_access and
 * deny_write_access): a regular file cannot be opened for writing (or
 * truncated by name) while it is being executed, nor executed while open
 * for writing: -ETXTBSY.  The running program's file stays denied while
 * any address space holds it (mm->exe_file). */
int get_write_access(struct inode *inode);      /* 0 or -ETXTBSY */
bool odirect_ok(struct inode *inode);           /* may it be opened O_DIRECT? */
void put_write_access(struct inode *inode);
int deny_write_access(struct inode *inode);     /* 0 or -ETXTBSY */
void allow_write_access(struct inode *inode);


/* Advisory locks (fs/locks.c).  fcntl's record-lock commands, cmd
 * F_GETLK(64) and F_SETLK(W)(64), arg a user struct flock or flock64:
 * 0, -EFAULT, -EINVAL, -EBADF (a read lock on a file not open for
 * reading, a write lock not open for writing), -EAGAIN (F_SETLK: another
 * process holds a conflicting lock), -EDEADLK (F_SETLKW would wait for a
 * process that waits for us), -ERESTARTSYS, -EOVERFLOW, -ENOLCK. */
struct files_struct;
struct file_lock {
    struct file_lock *fl_next;         /* the inode's i_flock list */
    struct list_head fl_link;          /* a request: on the blocked list while it sleeps */
    void *fl_owner;                    /* POSIX: the files_struct; flock: the file */
    void *fl_waits_for;                /* a blocked request: the owner it waits for */
    struct inode *fl_inode;            /* a blocked request: the inode */
    struct file *fl_file;              /* the file the lock was taken through */
    pid_t fl_pid;                      /* POSIX: the owner's tgid, for F_GETLK */
    unsigned char fl_flags;            /* FL_POSIX (| FL_OFDLCK), FL_FLOCK or FL_LEASE */
    unsigned char fl_type;             /* F_RDLCK, F_WRLCK (a request: or F_UNLCK) */
    unsigned char fl_target;           /* a lease being broken: the type it must
                                          become (F_RDLCK or F_UNLCK); else fl_type */
    unsigned long fl_break_time;       /* ... and the jiffies it has until then */
    loff_t fl_start, fl_end;           /* inclusive; fl_end OFFSET_MAX: to the end */
};
#define FL_POSIX  1
#define FL_FLOCK  2
#define FL_LEASE  4
#define FL_OFDLCK 8                    /* with FL_POSIX: owned by the open file
                                          description (F_OFD_*), not the process */
/* lk64: the call was fcntl64 (struct flock64 for F_*LK64 and F_OFD_*). */
int fcntl_getlk(struct file *file, unsigned int cmd, void *arg, bool lk64);
int fcntl_setlk(struct file *file, unsigned int cmd, void *arg, bool lk64);
/* Leases (fcntl F_SETLEASE, F_GETLEASE).  break_lease: an open (mode
 * for writing (want_write, a truncate too) or for reading that conflicts
 * with another file's lease sends its holder SIGIO and waits until the
 * lease is given up or lease_break_time passes (nonblock: -EWOULDBLOCK at
 * once); 0, -EWOULDBLOCK or -ERESTARTSYS. */
int fcntl_setlease(struct file *file, long type);
int fcntl_getlease(struct file *file);
int break_lease(struct inode *inode, bool want_write, bool nonblock);
/* A descriptor of file was closed by owner: its POSIX locks on the file
 * go (every one, whichever descriptor took it: POSIX's rule). */
void locks_remove_posix(struct file *file, struct files_struct *owner);
/* The last reference to file is going: its flock(2) lock goes. */
void locks_remove_flock(struct file *file);

/* The largest size a file opened without O_LARGEFILE may reach or show
 * (open, write, the 32-bit stat and lseek): 2 GiB - 1. */
#define MAX_NON_LFS ((1UL << 31) - 1)

/* ---- superblocks and mounts --------------------------------------------- */

struct kstatfs {
    unsigned long f_type, f_bsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree, f_namelen;
};

/*
 * Super operations.
 * alloc_inode(sb) / destroy_inode(inode)  the fs embeds struct inode in its own
 *                        (container_of); alloc calls inode_init_once
 * write_inode(inode, sync)  write the in-core inode to disk (to its metadata
 *                        buffer; if sync, wait for the disk).  Entry: no locks.
 * evict_inode(inode)     last reference gone: if i_nlink == 0 truncate to 0 and
 *                        free the inode on disk.  The page cache was already emptied.
 * put_super(sb)          unmount: release everything (after sync_fs)
 * sync_fs(sb, wait)      write the superblock, group descriptors, bitmaps
 * statfs(sb, buf)
 */
struct super_operations {
    struct inode *(*alloc_inode)(struct super_block *sb);
    void (*destroy_inode)(struct inode *inode);
    int (*write_inode)(struct inode *inode, int sync);
    /* Linux's dirty_inode: mark_inode_dirty calls it first (may sleep;
     * optional): ext3 copies the inode into its journaled buffer when the
     * task is inside a transaction's handle. */
    void (*dirty_inode)(struct inode *inode);
    void (*evict_inode)(struct inode *inode);
    void (*put_super)(struct super_block *sb);
    int (*sync_fs)(struct super_block *sb, int wait);
    int (*statfs)(struct super_block *sb, struct kstatfs *buf);
    /* Linux's remount_fs, only for going read-only (power off's emergency
     * remount of the root): *flags holds the new MS_RDONLY. */
    int (*remount_fs)(struct super_block *sb, int *flags, char *data);
    /* Linux's show_options (optional): the mount's options for /proc/mounts,
     * each as ",name" or ",name=value" (only those not at their default, as
     * Linux), written into buf; returns the length (snprintf's rule). */
    int (*show_options)(struct super_block *sb, char *buf, size_t size);
};

struct super_block {
    struct block_device *s_bdev;       /* NULL for ramfs */
    unsigned long s_blocksize;
    unsigned int s_blocksize_bits;
    loff_t s_maxbytes;                 /* largest file size (EFBIG beyond) */
    unsigned long s_flags;             /* MS_RDONLY */
    unsigned long s_magic;
    const struct super_operations *s_op;
    struct file_system_type *s_type;
    struct inode *s_root;              /* referenced */
    struct list_head s_inodes;         /* every in-core inode */
    struct list_head s_dirty;          /* inodes with I_DIRTY or dirty pages */
    struct list_head s_list;           /* on the list of all superblocks */
    struct mutex s_lock;               /* fs-wide allocation lock, for the fs to use */
    int s_dirt;                        /* superblock metadata needs writing */
    void *s_fs_info;
    int s_fs_inodes;                   /* inodes the filesystem holds itself (ext3's
                                        * journal inode), released by put_super:
                                        * not "in use" to umount */
    char s_id[16];                     /* device name, for messages */
    unsigned int s_anon_dev;           /* no s_bdev: Linux's anonymous dev (major 0,
                                        * minor n), so each ramfs has its own st_dev */
};

struct file_system_type {
    const char *name;
    /* Fill a fresh sb (s_bdev set if dev_name named a device) from the disk.
     * Returns 0 or errno (e.g. -EINVAL not this fs, -EIO, -ENOTSUP for
     * incompatible features) after printing why; the VFS frees sb on error. */
    int (*fill_super)(struct super_block *sb, const char *data, int silent);
    int requires_dev;                  /* needs a block device (ext2 yes, ramfs no) */
    struct file_system_type *next;
};

struct vfsmount {
    struct super_block *mnt_sb;
    int mnt_count;                     /* references from held paths (open files,
                                          cwd, walks in progress): umount -EBUSY */
    struct vfsmount *mnt_parent;       /* itself for the root mount */
    struct inode *mnt_mountpoint;      /* inode in the parent covered by this mount */
    struct list_head mnt_list;
};

int register_filesystem(struct file_system_type *fs);
/* Mount fstype from dev_name ("hda", or "none") on the directory at path
 * ("/" first, to make the root).  flags: MS_RDONLY. */
int do_mount(const char *dev_name, const char *path, const char *fstype,
             unsigned long flags, const char *data);
int do_umount(const char *path);       /* syncs first; -EBUSY if inodes are in use */

struct fs_struct {                     /* per-task root and cwd */
    struct path root, pwd;
    int users;
    unsigned int umask;                /* umask(2): permission bits open(O_CREAT) and
                                          mkdir clear; copied on fork; init_fs: 022 */
};
/* The calling task's umask (its fs_struct's, else init_fs's). */
unsigned int current_umask(void);

/* ---- the VFS API: path-based operations (fs/namei.c, fs/open.c ...) ----
 * Paths are resolved against current->fs (or the global root for tasks
 * without one).  All return 0 / a count, or a negative errno. */
struct file *filp_open(const char *path, int flags, mode_t mode);  /* ERR_PTR on error */
int filp_close(struct file *file);
struct file *get_file(struct file *file);
ssize_t vfs_read(struct file *file, struct iov_iter *to, loff_t *pos);
ssize_t vfs_write(struct file *file, struct iov_iter *from, loff_t *pos);
ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t *pos);
ssize_t kernel_write(struct file *file, const void *buf, size_t count, loff_t *pos);
loff_t vfs_llseek(struct file *file, loff_t off, int whence);
int vfs_fsync(struct file *file, int datasync);
int iterate_dir(struct file *file, struct dir_context *ctx);
int vfs_mkdir(const char *path, mode_t mode);
/* mknod(2) below the system call: a node of mode's type (S_IFCHR, S_IFBLK,
 * S_IFIFO, S_IFSOCK) at path.  -EPERM for a device without CAP_MKNOD or a
 * directory without ->mknod, and create's errors (-EEXIST, -ENOENT,
 * -EACCES, -EROFS ...). */
int vfs_mknod(const char *path, mode_t mode, dev_t rdev);
int vfs_rmdir(const char *path);
int vfs_unlink(const char *path);
int vfs_rename(const char *oldpath, const char *newpath);
/* link(2) of an already resolved path (linkat with AT_EMPTY_PATH or
 * AT_SYMLINK_FOLLOW): the caller keeps its reference. */
int vfs_link_path(const struct path *old, const char *newpath);
/* renameat2's flags: RENAME_NOREPLACE (an existing new name: -EEXIST),
 * RENAME_EXCHANGE (both names must exist, -ENOENT; they swap). */
int vfs_rename2(const char *oldpath, const char *newpath, unsigned int flags);
int vfs_link(const char *oldpath, const char *newpath);
int vfs_symlink(const char *target, const char *linkpath);
int vfs_readlink(const char *path, char *buf, size_t size);
int vfs_truncate(const char *path, loff_t length);
/* Takes i_mutex.  time_attrs: ATTR_MTIME | ATTR_CTIME from ftruncate and
 * O_TRUNC (the times change even when the size does not), 0 from
 * truncate(2), as Linux: there the filesystem's setattr decides. */
int do_truncate(struct inode *inode, loff_t length, unsigned int time_attrs);
int vfs_chdir(const char *path);
int vfs_getcwd(char *buf, size_t size);   /* length including the NUL, as
                                             getcwd(2); -ERANGE if size too small */
/* file's absolute name, found by searching its file system (fs/namei.c says
 * how, and what it simplifies): the length with the NUL, "(deleted)" for an
 * unlinked file, -ENOENT (none found: a pipe, a file too deep), -ERANGE. */
int file_path_name(struct file *file, char *buf, size_t size);

struct kstat {
    dev_t dev;
    unsigned long ino;
    mode_t mode;
    unsigned int nlink;
    uid_t uid;
    gid_t gid;
    dev_t rdev;
    loff_t size;
    unsigned long blksize;
    unsigned long blocks;
    time_t atime, mtime, ctime;
};
int vfs_stat(const char *path, struct kstat *st);      /* follows symlinks */
int vfs_lstat(const char *path, struct kstat *st);
int vfs_fstat(struct file *file, struct kstat *st);

/* Path walking, for the system-call layer: resolve to a referenced path. */
#define LOOKUP_FOLLOW    0x1           /* follow a symlink in the last component */
#define LOOKUP_DIRECTORY 0x2           /* the result must be a directory */
int kern_path(const char *name, unsigned int flags, struct path *res);
void path_put(struct path *p);

/* sync(2): write every dirty page and inode of every filesystem, and wait. */
void ksys_sync(void);
int sync_filesystem(struct super_block *sb);
/* Power off calls this first (process context, interrupts on): sync everything. */
void emergency_sync(void);

/* Generic helpers filesystems plug into their tables (mm/filemap.c). */
ssize_t generic_file_read_iter(struct file *file, struct iov_iter *to, loff_t *pos);
int filemap_nowait_limit(struct address_space *mapping, struct iov_iter *to, loff_t pos);
ssize_t generic_file_write_iter(struct file *file, struct iov_iter *from, loff_t *pos);
ssize_t generic_perform_write(struct file *file, struct iov_iter *i, loff_t pos);
int inode_newsize_ok(const struct inode *inode, loff_t offset);
loff_t generic_file_llseek(struct file *file, loff_t off, int whence);
loff_t vfs_setpos(struct file *file, loff_t off, loff_t maxsize);
int generic_file_open(struct inode *inode, struct file *file);
int generic_file_fsync(struct file *file, int datasync);
int simple_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
                       unsigned len, unsigned flags, struct page **pagep, void **fsdata);
int simple_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                     unsigned len, unsigned copied, struct page *page, void *fsdata);
int simple_readpage(struct file *file, struct page *page);
void truncate_setsize(struct inode *inode, loff_t newsize);
void pagecache_isize_extended(struct inode *inode, loff_t from, loff_t to);
void setattr_copy(struct inode *inode, const struct iattr *attr);
int generic_readlink(struct inode *inode, char *buf, size_t size);  /* = page_readlink */
/* Symlink bodies kept in the page cache (ramfs; ext2's slow symlinks):
 * page_symlink writes target (len bytes, no NUL) through write_begin/write_end
 * with AOP_FLAG_UNINTERRUPTIBLE; page_readlink reads page 0 back. */
int page_symlink(struct inode *inode, const char *target, size_t len);
int page_readlink(struct inode *inode, char *buf, size_t size);
/* setattr for page-cache-only filesystems (truncate_setsize + times/mode). */
int simple_setattr(struct inode *inode, struct iattr *attr);
/* fs/attr.c.  notify_change(inode, attr): every attribute change
 * (truncate, utimensat, chmod, chown) goes through here, with i_mutex
 * held: the set-ID bits ATTR_KILL_* asks to clear, setattr_prepare's
 * owner and permission rules (0, -EPERM, -EACCES), then the inode's
 * ->setattr, or simple_setattr for an inode without one (a pipe's has no
 * i_op at all). */
int notify_change(struct inode *inode, struct iattr *attr);
int setattr_prepare(struct inode *inode, struct iattr *attr);
/* Is the caller the inode's owner (fsuid) or CAP_FOWNER? */
bool inode_owner_or_capable(const struct inode *inode);
/* A new inode's owner and mode (Linux's inode_init_owner): the caller's
 * fsuid; the group of dir if dir is set-group-ID (a directory inherits the
 * bit, a file keeps it only if the caller is in that group), else the
 * caller's fsgid.  dir may be NULL (a filesystem's root).  Sets i_mode. */
void inode_init_owner(struct inode *inode, const struct inode *dir, mode_t mode);

/* fs/permission.c: may the caller access inode as mask says (MAY_READ,
 * MAY_WRITE, MAY_EXEC)?  0 or -EACCES (Linux's inode_permission and
 * generic_permission: the owner's, the group's or the others' bits, then
 * root's override, see fs/permission.c).  A read-only mount is the
 * callers' check (-EROFS), made before this one. */
#define MAY_EXEC   0x1
#define MAY_WRITE  0x2
#define MAY_READ   0x4
int inode_permission(struct inode *inode, int mask);
int generic_permission(struct inode *inode, int mask);
/* May the caller create an entry in dir (write and search on it; -ENOENT
 * if dir was removed)?  May it remove victim from dir (write and search,
 * the sticky bit: -EPERM unless it owns the file or the directory, then
 * the kinds: -ENOTDIR when isdir and victim is not a directory, -EISDIR
 * the other way round)?  Linux's may_create and may_delete. */
int may_create(struct inode *dir);
int may_delete(struct inode *dir, struct inode *victim, int isdir);
/* A write or a truncate by a caller without CAP_FSETID clears S_ISUID (and
 * S_ISGID when group-execute is set) of a regular file: should_remove_suid
 * says which (ATTR_KILL_SUID | ATTR_KILL_SGID, or 0), file_remove_privs
 * clears them (0 or -errno).  Linux's; caller holds i_mutex. */
int should_remove_suid(const struct inode *inode);
int file_remove_privs(struct file *file);
/* filp_open's flag for execve: the open is checked for MAY_EXEC, not
 * MAY_READ (Linux's __FMODE_EXEC; no user open flag has this bit). */
#define __FMODE_EXEC 0x20
void generic_fillattr(struct inode *inode, struct kstat *st);
/* fs/namespace.c: mount a ramfs on / if nothing is mounted yet (boot,
 * and the kernel tests that need a root).  0 or -errno. */
int vfs_ensure_root(void);
#endif
