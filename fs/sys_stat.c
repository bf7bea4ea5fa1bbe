/* fs/sys_stat.c: stat64/lstat64/fstat64/fstatat64, the 32-bit
 * stat/lstat/fstat, statx and getdents64: the VFS's struct kstat and
 * directory iteration turned into the Linux i386 user layouts; and
 * access/faccessat/faccessat2.  Sits on vfs_stat/vfs_fstat, iterate_dir
 * and inode_permission.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <slab.h>
#include <fs.h>
#include <fdtable.h>
#include <fs_syscalls.h>
#include <sched.h>
#include <asm/uaccess.h>
#include <asm/stat.h>
#include <signal.h>
#include "sys_internal.h"

/* A device number's parts as statx gives them: dev_t is Linux's 32-bit
 * encoding (new_encode_dev: the major in bits 8..19, the minor in bits
 * 0..7 and 20..31), which for numbers below 256 is MKDEV's. */
static unsigned int dev_major(dev_t d) { return (d & 0xfff00) >> 8; }
static unsigned int dev_minor(dev_t d) { return (d & 0xff) | ((d >> 12) & 0xfff00); }

/* struct stat64 (include/uapi/asm/stat.h), the Linux i386 layout. */
static int cp_stat64(const struct kstat *k, void *ubuf)
{
    struct stat64 s;
    memset(&s, 0, sizeof s);
    s.st_dev = k->dev;
    s.__st_ino = k->ino;
    s.st_ino = k->ino;
    s.st_mode = k->mode;
    s.st_nlink = k->nlink;
    s.st_uid = k->uid;
    s.st_gid = k->gid;
    s.st_rdev = k->rdev;
    s.st_size = k->size;
    s.st_blksize = k->blksize;
    s.st_blocks = k->blocks;
    s.st_atime = k->atime;
    s.st_mtime = k->mtime;
    s.st_ctime = k->ctime;
    return copy_to_user(ubuf, &s, sizeof s) ? -EFAULT : 0;
}

/* struct stat, the layout of the 32-bit calls (Linux's cp_new_stat on
 * i386): a size past MAX_NON_LFS, a device number or link count that does
 * not fit, is -EOVERFLOW (the program must use stat64); a uid or gid past
 * 16 bits reads as the overflow id 65534. */
static int cp_new_stat(const struct kstat *k, void *ubuf)
{
    struct stat s;
    if ((k->dev >> 16) || (k->rdev >> 16) || k->size > (loff_t)MAX_NON_LFS || k->nlink > 0xffff)
        return -EOVERFLOW;
    memset(&s, 0, sizeof s);
    s.st_dev = k->dev;
    s.st_ino = k->ino;
    s.st_mode = k->mode;
    s.st_nlink = k->nlink;
    s.st_uid = k->uid > 0xffff ? 65534 : k->uid;
    s.st_gid = k->gid > 0xffff ? 65534 : k->gid;
    s.st_rdev = k->rdev;
    s.st_size = k->size;
    s.st_blksize = k->blksize;
    s.st_blocks = k->blocks;
    s.st_atime = k->atime;
    s.st_mtime = k->mtime;
    s.st_ctime = k->ctime;
    return copy_to_user(ubuf, &s, sizeof s) ? -EFAULT : 0;
}

/* stat a user path (follow: LOOKUP_FOLLOW for the last component) */
static int stat_user(int dfd, const char *filename, int follow, struct kstat *k)
{
    char *name = getname(filename);
    if (IS_ERR(name))
        return PTR_ERR(name);
    struct at_ctx at;
    int err = at_enter(dfd, name, &at);
    if (!err)
        err = follow ? vfs_stat(name, k) : vfs_lstat(name, k);
    at_leave(&at);
    putname(name);
    return err;
}

static int fstat_fd(unsigned int fd, struct kstat *k)
{
    struct file *f = fget_raw(fd);
    if (!f)
        return -EBADF;
    int err = vfs_fstat(f, k);
    fput(f);
    return err;
}

long sys_stat64(const char *filename, void *statbuf)
{
    struct kstat k;
    int err = stat_user(AT_FDCWD, filename, 1, &k);
    return err ? err : cp_stat64(&k, statbuf);
}

long sys_lstat64(const char *filename, void *statbuf)
{
    struct kstat k;
    int err = stat_user(AT_FDCWD, filename, 0, &k);
    return err ? err : cp_stat64(&k, statbuf);
}

long sys_fstat64(unsigned long fd, void *statbuf)
{
    struct kstat k;
    int err = fstat_fd(fd, &k);
    return err ? err : cp_stat64(&k, statbuf);
}

long sys_newstat(const char *filename, void *statbuf)
{
    struct kstat k;
    int err = stat_user(AT_FDCWD, filename, 1, &k);
    return err ? err : cp_new_stat(&k, statbuf);
}

long sys_newlstat(const char *filename, void *statbuf)
{
    struct kstat k;
    int err = stat_user(AT_FDCWD, filename, 0, &k);
    return err ? err : cp_new_stat(&k, statbuf);
}

long sys_newfstat(unsigned int fd, void *statbuf)
{
    struct kstat k;
    int err = fstat_fd(fd, &k);
    return err ? err : cp_new_stat(&k, statbuf);
}

/* AT_EMPTY_PATH with "" means dfd itself.  Returns 1 if handled. */
static int empty_path(const char *filename, int flags)
{
    char c;
    return (flags & AT_EMPTY_PATH) && !copy_from_user(&c, filename, 1) && c == 0;
}

long sys_fstatat64(int dfd, const char *filename, void *statbuf, int flag)
{
    struct kstat k;
    int err;
    if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
        return -EINVAL;
    if (empty_path(filename, flag))
        err = dfd == AT_FDCWD ? vfs_stat(".", &k) : fstat_fd(dfd, &k);
    else
        err = stat_user(dfd, filename, !(flag & AT_SYMLINK_NOFOLLOW), &k);
    return err ? err : cp_stat64(&k, statbuf);
}

long sys_statx(int dfd, const char *filename, unsigned flags, unsigned int mask, void *buffer)
{
    struct kstat k;
    int err;
    if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT | AT_STATX_SYNC_TYPE))
        return -EINVAL;
    if (mask & STATX__RESERVED)
        return -EINVAL;
    if (empty_path(filename, flags))
        err = dfd == AT_FDCWD ? vfs_stat(".", &k) : fstat_fd(dfd, &k);
    else
        err = stat_user(dfd, filename, !(flags & AT_SYMLINK_NOFOLLOW), &k);
    if (err)
        return err;
    struct statx s;
    memset(&s, 0, sizeof s);
    s.stx_mask = STATX_BASIC_STATS;
    s.stx_blksize = k.blksize;
    s.stx_nlink = k.nlink;
    s.stx_uid = k.uid;
    s.stx_gid = k.gid;
    s.stx_mode = k.mode;
    s.stx_ino = k.ino;
    s.stx_size = k.size;
    s.stx_blocks = k.blocks;
    s.stx_atime.tv_sec = k.atime;
    s.stx_mtime.tv_sec = k.mtime;
    s.stx_ctime.tv_sec = k.ctime;
    s.stx_rdev_major = dev_major(k.rdev);
    s.stx_rdev_minor = dev_minor(k.rdev);
    s.stx_dev_major = dev_major(k.dev);
    s.stx_dev_minor = dev_minor(k.dev);
    return copy_to_user(buffer, &s, sizeof s) ? -EFAULT : 0;
}

/* ---- getdents64 ---------------------------------------------------------
 * Entries are gathered in a kernel buffer, then copied out in one go: if the
 * user buffer is bad, f_pos is put back and nothing was consumed. */
struct getdents_ctx {
    struct dir_context ctx;            /* first: the actor gets &ctx */
    char *buf;
    size_t size, used;
    struct linux_dirent64 *prev;
    int error;
};

static int filldir64(struct dir_context *ctx, const char *name, int len, loff_t pos,
                     unsigned long ino, unsigned int d_type)
{
    struct getdents_ctx *g = (struct getdents_ctx *)ctx;
    size_t reclen = (offsetof(struct linux_dirent64, d_name) + len + 1 + 7) & ~7u;
    if (g->used + reclen > g->size) {
        g->error = -EINVAL;            /* reported only if nothing fitted */
        return 1;
    }
    if (g->prev)
        g->prev->d_off = pos;
    struct linux_dirent64 *d = (struct linux_dirent64 *)(g->buf + g->used);
    memset(d, 0, reclen);
    d->d_ino = ino;
    d->d_off = pos + 1;                /* corrected when the next entry comes */
    d->d_reclen = reclen;
    d->d_type = d_type;
    memcpy(d->d_name, name, len);
    g->prev = d;
    g->used += reclen;
    return 0;
}

/* Fill kbuf (size bytes) with entries from f_pos on, advancing f_pos.
 * Returns the bytes used, 0 at the end, -EINVAL if not even one fits. */
long getdents64_kernel(struct file *f, void *kbuf, size_t size)
{
    struct getdents_ctx g = { .ctx.actor = filldir64, .buf = kbuf, .size = size };
    long ret = iterate_dir(f, &g.ctx);
    if (ret == 0 && g.prev)
        g.prev->d_off = f->f_pos;
    if (ret == 0)
        ret = g.used ? (long)g.used : (g.error ? g.error : 0);
    return ret;
}

long sys_getdents64(unsigned int fd, void *dirent, unsigned int count)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long ret;
    size_t size = min(count, 65536u);
    char *buf = NULL;
    if (!access_ok(dirent, count))
        ret = -EFAULT;
    else if (!(buf = kmalloc(size ? size : 1, GFP_KERNEL)))
        ret = -ENOMEM;
    else {
        mutex_lock(&f->f_pos_lock);
        loff_t old = f->f_pos;
        ret = getdents64_kernel(f, buf, size);
        if (ret > 0 && copy_to_user(dirent, buf, ret)) {
            f->f_pos = old;            /* nothing consumed */
            ret = -EFAULT;
        }
        mutex_unlock(&f->f_pos_lock);
        kfree(buf);
    }
    fput(f);
    return ret;
}

/* access/faccessat/faccessat2 (Linux's do_faccessat): may the caller read,
 * write, execute (R_OK, W_OK, X_OK) the file, or does it exist (F_OK, 0)?
 * Checked with the REAL uid and gid standing in for the file-system ids,
 * for the path walk too, unless faccessat2's AT_EACCESS asks for the
 * effective ones (Linux's access_override_creds: a set-user-ID program asks
 * what its user may do).  Then inode_permission (root: any x bit for
 * X_OK), and W_OK on a read-only mount is -EROFS for a file or directory. */
#define X_OK 1
#define W_OK 2
#define R_OK 4
static int access_inode(struct inode *inode, int mode)
{
    int err = inode_permission(inode, mode);
    if (!err && (mode & W_OK) && (inode->i_sb->s_flags & MS_RDONLY) &&
        (S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode) || S_ISLNK(inode->i_mode)))
        err = -EROFS;
    return err;
}

long sys_faccessat2(int dfd, const char *filename, int mode, int flags)
{
    if (mode & ~(R_OK | W_OK | X_OK))
        return -EINVAL;
    if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
        return -EINVAL;
    struct cred saved = current->cred;
    if (!(flags & AT_EACCESS)) {
        current->cred.fsuid = saved.uid;
        current->cred.fsgid = saved.gid;
    }
    int err;
    if (empty_path(filename, flags)) {
        struct file *f = dfd == AT_FDCWD ? NULL : fget_raw(dfd);
        if (dfd != AT_FDCWD && !f) {
            err = -EBADF;
        } else if (f) {
            err = access_inode(f->f_inode, mode);
            fput(f);
        } else {
            struct path p;
            err = kern_path(".", LOOKUP_FOLLOW, &p);
            if (!err) {
                err = access_inode(p.inode, mode);
                path_put(&p);
            }
        }
    } else {
        struct path p;
        err = user_path_at(dfd, filename, flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW, &p);
        if (!err) {
            err = access_inode(p.inode, mode);
            path_put(&p);
        }
    }
    current->cred = saved;
    return err;
}

long sys_faccessat(int dfd, const char *filename, int mode)
{
    return sys_faccessat2(dfd, filename, mode, 0);
}

long sys_access(const char *filename, int mode) { return sys_faccessat(AT_FDCWD, filename, mode); }
