/* fs/sys_namei.c: the name-space system calls (mkdir, mknod, rmdir, unlink,
 * rename, link, symlink, readlink and their *at forms; chdir, fchdir,
 * getcwd; truncate, ftruncate, fallocate; fsync, fdatasync, sync).  Each
 * copies its path arguments in with getname() and calls the VFS's
 * path-based API.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <slab.h>
#include <sched.h>
#include <fs.h>
#include <fdtable.h>
#include <fs_syscalls.h>
#include "internal.h"
#include <asm/uaccess.h>
#include <signal.h>
#include "sys_internal.h"

/* One path argument, resolved against dfd: fn(name). */
static long with_name(int dfd, const char *upath, int (*fn)(const char *, long), long arg)
{
    char *name = getname(upath);
    if (IS_ERR(name))
        return PTR_ERR(name);
    struct at_ctx at;
    long err = at_enter(dfd, name, &at);
    if (!err)
        err = fn(name, arg);
    at_leave(&at);
    putname(name);
    return err;
}

/* name relative to the directory open at dfd, made absolute in place
 * (name is a PATH_MAX getname buffer): "<dfd's path>/<name>".  -ENOENT if
 * that directory has no name any more, -ENAMETOOLONG. */
static int absolute_at(int dfd, char *name)
{
    struct file *f = fget_raw(dfd);
    if (!f)
        return -EBADF;
    char *dir = kmalloc(PATH_MAX, GFP_KERNEL);
    int err = dir ? 0 : -ENOMEM;
    if (!err && !S_ISDIR(f->f_inode->i_mode))
        err = -ENOTDIR;
    int n = err ? err : file_path_name(f, dir, PATH_MAX);
    fput(f);
    if (n < 0) {
        kfree(dir);
        return n;
    }
    size_t dl = strlen(dir), nl = strlen(name);
    bool slash = dl && dir[dl - 1] != '/';
    if (dl + slash + nl + 1 > PATH_MAX) {
        kfree(dir);
        return -ENAMETOOLONG;
    }
    memmove(name + dl + slash, name, nl + 1);
    memcpy(name, dir, dl);
    if (slash)
        name[dl] = '/';
    kfree(dir);
    return 0;
}

/* Two path arguments (rename, link, symlink's link name).  The *at()
 * calls switch the cwd to one directory (at_enter); when both names are
 * relative to two different directories, the first is made absolute from
 * its directory's path first (simplified on purpose: Linux walks from each
 * directory; here a directory renamed between the two steps is missed,
 * and one that has no name any more gives -ENOENT). */
static long with_names(int dfd1, const char *u1, int dfd2, const char *u2,
                       int (*fn)(const char *, const char *, unsigned int), unsigned int flags)
{
    char *a = getname(u1);
    if (IS_ERR(a))
        return PTR_ERR(a);
    char *b = getname(u2);
    if (IS_ERR(b)) {
        putname(a);
        return PTR_ERR(b);
    }
    long err = 0;
    struct at_ctx at = { 0 };
    if (dfd1 != AT_FDCWD && a[0] != '/' && dfd2 != AT_FDCWD && b[0] != '/' && dfd1 != dfd2)
        err = absolute_at(dfd1, a);
    if (err)
        ;
    else if (a[0] != '/' && dfd1 != AT_FDCWD)
        err = at_enter(dfd1, a, &at);
    else if (b[0] != '/' && dfd2 != AT_FDCWD)
        err = at_enter(dfd2, b, &at);
    if (!err)
        err = fn(a, b, flags);
    at_leave(&at);
    putname(b);
    putname(a);
    return err;
}

static int do_mkdir(const char *n, long mode) { return vfs_mkdir(n, mode & 01777 & ~current_umask()); }
static int do_rmdir(const char *n, long unused) { return vfs_rmdir(n); }
static int do_unlink(const char *n, long unused) { return vfs_unlink(n); }
static int do_chdir(const char *n, long unused) { return vfs_chdir(n); }
static int do_truncate_path(const char *n, long len) { return vfs_truncate(n, len); }

long sys_mkdirat(int dfd, const char *pathname, mode_t mode) { return with_name(dfd, pathname, do_mkdir, mode); }
long sys_mkdir(const char *pathname, mode_t mode) { return sys_mkdirat(AT_FDCWD, pathname, mode); }
/* mknod(2), as Linux's do_mknodat: the type checked first (a directory is
 * -EPERM, an unknown type -EINVAL), the umask applied; a regular file (type
 * 0 or S_IFREG) is made as open(O_CREAT | O_EXCL) makes it; dev (Linux's
 * 32-bit encoding, glibc's makedev for numbers below 256) only for devices. */
long sys_mknodat(int dfd, const char *pathname, mode_t mode, unsigned dev)
{
    switch (mode & S_IFMT) {
    case 0: case S_IFREG: case S_IFCHR: case S_IFBLK: case S_IFIFO: case S_IFSOCK:
        break;
    case S_IFDIR:
        return -EPERM;
    default:
        return -EINVAL;
    }
    char *name = getname(pathname);
    if (IS_ERR(name))
        return PTR_ERR(name);
    struct at_ctx at;
    long err = at_enter(dfd, name, &at);
    mode &= ~current_umask();
    if (!err && (mode & S_IFMT) && !S_ISREG(mode)) {
        err = vfs_mknod(name, mode, S_ISCHR(mode) || S_ISBLK(mode) ? dev : 0);
    } else if (!err) {
        struct file *f = filp_open(name, O_CREAT | O_EXCL | O_RDONLY, mode & 07777);
        err = IS_ERR(f) ? PTR_ERR(f) : 0;
        if (!err)
            filp_close(f);
    }
    at_leave(&at);
    putname(name);
    return err;
}

long sys_mknod(const char *pathname, mode_t mode, unsigned dev)
{
    return sys_mknodat(AT_FDCWD, pathname, mode, dev);
}

long sys_rmdir(const char *pathname) { return with_name(AT_FDCWD, pathname, do_rmdir, 0); }
long sys_unlink(const char *pathname) { return with_name(AT_FDCWD, pathname, do_unlink, 0); }

long sys_unlinkat(int dfd, const char *pathname, int flag)
{
    if (flag & ~AT_REMOVEDIR)
        return -EINVAL;
    return with_name(dfd, pathname, flag & AT_REMOVEDIR ? do_rmdir : do_unlink, 0);
}

static int do_rename(const char *a, const char *b, unsigned int flags) { return vfs_rename2(a, b, flags); }
static int do_link(const char *a, const char *b, unsigned int unused) { return vfs_link(a, b); }
static int do_symlink(const char *a, const char *b, unsigned int unused) { return vfs_symlink(a, b); }

/* renameat2's flags, checked before the names as Linux: RENAME_WHITEOUT
 * (overlayfs's) is not modelled: -EPERM without CAP_MKNOD, else -EINVAL,
 * what Linux gives on a file system without whiteouts. */
long sys_renameat2(int olddfd, const char *oldname, int newdfd, const char *newname,
                   unsigned int flags)
{
    if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
        return -EINVAL;
    if ((flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)) && (flags & RENAME_EXCHANGE))
        return -EINVAL;
    if (flags & RENAME_WHITEOUT)
        return capable(CAP_MKNOD) ? -EINVAL : -EPERM;
    return with_names(olddfd, oldname, newdfd, newname, do_rename, flags);
}
long sys_renameat(int olddfd, const char *oldname, int newdfd, const char *newname)
{ return sys_renameat2(olddfd, oldname, newdfd, newname, 0); }
long sys_rename(const char *oldname, const char *newname)
{ return sys_renameat(AT_FDCWD, oldname, AT_FDCWD, newname); }
long sys_link(const char *oldname, const char *newname)
{ return with_names(AT_FDCWD, oldname, AT_FDCWD, newname, do_link, 0); }

/* linkat: the old name resolved from olddfd (following a final symlink
 * with AT_SYMLINK_FOLLOW; with AT_EMPTY_PATH and "", the file olddfd is
 * open on, which needs CAP_DAC_READ_SEARCH, else -ENOENT, as Linux), then
 * the new one created from newdfd. */
long sys_linkat(int olddfd, const char *oldname, int newdfd, const char *newname, int flags)
{
    if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
        return -EINVAL;
    struct path oldp;
    long err;
    char c;
    if ((flags & AT_EMPTY_PATH) && !copy_from_user(&c, oldname, 1) && c == 0) {
        if (!capable(CAP_DAC_READ_SEARCH))
            return -ENOENT;
        struct file *f = olddfd == AT_FDCWD ? NULL : fget_raw(olddfd);
        if (!f && olddfd != AT_FDCWD)
            return -EBADF;
        if (f) {
            oldp = f->f_path;
            path_get(&oldp);
            fput(f);
            err = 0;
        } else {
            err = kern_path(".", LOOKUP_FOLLOW, &oldp);
        }
    } else {
        err = user_path_at(olddfd, oldname, flags & AT_SYMLINK_FOLLOW ? LOOKUP_FOLLOW : 0, &oldp);
    }
    if (err)
        return err;
    char *b = getname(newname);
    err = IS_ERR(b) ? PTR_ERR(b) : 0;
    if (!err) {
        struct at_ctx at;
        err = at_enter(newdfd, b, &at);
        if (!err)
            err = vfs_link_path(&oldp, b);
        at_leave(&at);
        putname(b);
    }
    path_put(&oldp);
    return err;
}

/* symlink's target is stored as given, never resolved: only the link name is a path */
long sys_symlinkat(const char *oldname, int newdfd, const char *newname)
{ return with_names(AT_FDCWD, oldname, newdfd, newname, do_symlink, 0); }
long sys_symlink(const char *oldname, const char *newname)
{ return sys_symlinkat(oldname, AT_FDCWD, newname); }

/* readlinkat(fd, "", ...): the link fd itself was opened on
 * (O_PATH | O_NOFOLLOW); anything else there is -ENOENT (Linux's
 * do_readlinkat with an empty name). */
static long readlink_fd(int dfd, char *buf, int bufsiz)
{
    struct file *f = dfd == AT_FDCWD ? NULL : fget_raw(dfd);
    if (!f)
        return dfd == AT_FDCWD ? -ENOENT : -EBADF;
    long ret = -ENOENT;
    if (S_ISLNK(f->f_inode->i_mode)) {
        char *t = vfs_get_link(&f->f_path);
        ret = IS_ERR(t) ? PTR_ERR(t) : 0;
        if (!ret) {
            ret = min(strlen(t), (size_t)bufsiz);
            if (copy_to_user(buf, t, ret))
                ret = -EFAULT;
            kfree(t);
        }
    }
    fput(f);
    return ret;
}

long sys_readlinkat(int dfd, const char *path, char *buf, int bufsiz)
{
    if (bufsiz <= 0)
        return -EINVAL;
    if (!access_ok(buf, bufsiz))
        return -EFAULT;
    char c;
    if (!copy_from_user(&c, path, 1) && c == 0)
        return readlink_fd(dfd, buf, bufsiz);
    char *name = getname(path);
    if (IS_ERR(name))
        return PTR_ERR(name);
    size_t n = min((size_t)bufsiz, (size_t)PATH_MAX);
    char *kbuf = kmalloc(n, GFP_KERNEL);
    long ret = -ENOMEM;
    if (kbuf) {
        struct at_ctx at;
        ret = at_enter(dfd, name, &at);
        if (!ret)
            ret = vfs_readlink(name, kbuf, n);
        at_leave(&at);
        if (ret > 0 && copy_to_user(buf, kbuf, ret))
            ret = -EFAULT;
        kfree(kbuf);
    }
    putname(name);
    return ret;
}

long sys_readlink(const char *path, char *buf, int bufsiz)
{ return sys_readlinkat(AT_FDCWD, path, buf, bufsiz); }

long sys_chdir(const char *filename) { return with_name(AT_FDCWD, filename, do_chdir, 0); }

/* fchdir: the cwd becomes the directory open at fd */
long sys_fchdir(unsigned int fd)
{
    struct file *f = fget_raw(fd);
    if (!f)
        return -EBADF;
    long err = 0;
    if (!S_ISDIR(f->f_inode->i_mode))
        err = -ENOTDIR;
    else if ((err = inode_permission(f->f_inode, MAY_EXEC)))
        ;                              /* search permission, as chdir */
    else if (!current->fs)
        err = -EINVAL;
    else {
        struct path old = current->fs->pwd;
        current->fs->pwd = f->f_path;
        path_get(&current->fs->pwd);
        path_put(&old);
    }
    fput(f);
    return err;
}

/* getcwd returns the length including the NUL, as Linux's system call */
long sys_getcwd(char *buf, unsigned long size)
{
    if (!access_ok(buf, size))
        return -EFAULT;
    char *k = kmalloc(PATH_MAX, GFP_KERNEL);
    if (!k)
        return -ENOMEM;
    long ret = vfs_getcwd(k, min(size, (unsigned long)PATH_MAX));
    if (ret > 0 && copy_to_user(buf, k, ret))
        ret = -EFAULT;
    kfree(k);
    return ret;
}

long sys_truncate(const char *path, long length)
{
    if (length < 0)
        return -EINVAL;
    return with_name(AT_FDCWD, path, do_truncate_path, length);
}

/* truncate64: the 64-bit length does not fit the helper's long; done here */
long sys_truncate64(const char *path, unsigned long lo, unsigned long hi)
{
    loff_t len = (loff_t)(((uint64_t)hi << 32) | lo);
    if (len < 0)
        return -EINVAL;
    char *name = getname(path);
    if (IS_ERR(name))
        return PTR_ERR(name);
    long err = vfs_truncate(name, len);
    putname(name);
    return err;
}

static long do_ftruncate(unsigned int fd, loff_t len)
{
    if (len < 0)
        return -EINVAL;
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long err;
    if (!S_ISREG(f->f_inode->i_mode))
        err = -EINVAL;
    else if (!(f->f_mode & FMODE_WRITE))
        err = -EINVAL;                 /* Linux: -EINVAL for a file not open for writing */
    else
        err = do_truncate(f->f_inode, len, ATTR_MTIME | ATTR_CTIME);
    fput(f);
    return err;
}

long sys_ftruncate(unsigned int fd, unsigned long length) { return do_ftruncate(fd, (long)length); }
long sys_ftruncate64(unsigned int fd, unsigned long lo, unsigned long hi)
{ return do_ftruncate(fd, (loff_t)(((uint64_t)hi << 32) | lo)); }

/* fallocate(2) (Linux's vfs_fallocate, with its checks in its order):
 * -EINVAL for a negative offset or a length not above 0, -EOPNOTSUPP for
 * an unknown mode bit or a combination Linux refuses so (PUNCH_HOLE with
 * ZERO_RANGE, or without KEEP_SIZE), -EINVAL for COLLAPSE_RANGE,
 * INSERT_RANGE or UNSHARE_RANGE with other bits, -EBADF not open for
 * writing, -ESPIPE for a pipe, -EISDIR, -ENODEV for anything not a
 * regular file, -EFBIG past the file system's largest size; then
 * -EOPNOTSUPP: no file system here implements it (Linux's ext2 and ramfs
 * do not either; glibc's posix_fallocate then writes the blocks itself).
 * Vellum has no append-only or immutable inodes, nor swap files. */
#define FALLOC_FL_KEEP_SIZE      0x01
#define FALLOC_FL_PUNCH_HOLE     0x02
#define FALLOC_FL_COLLAPSE_RANGE 0x08
#define FALLOC_FL_ZERO_RANGE     0x10
#define FALLOC_FL_INSERT_RANGE   0x20
#define FALLOC_FL_UNSHARE_RANGE  0x40
#define FALLOC_FL_SUPPORTED_MASK 0x7b

static long vfs_fallocate(struct file *f, int mode, loff_t offset, loff_t len)
{
    struct inode *inode = f->f_inode;
    if (offset < 0 || len <= 0)
        return -EINVAL;
    if (mode & ~FALLOC_FL_SUPPORTED_MASK)
        return -EOPNOTSUPP;
    if ((mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) ==
        (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE))
        return -EOPNOTSUPP;
    if ((mode & FALLOC_FL_PUNCH_HOLE) && !(mode & FALLOC_FL_KEEP_SIZE))
        return -EOPNOTSUPP;
    if (((mode & FALLOC_FL_COLLAPSE_RANGE) && (mode & ~FALLOC_FL_COLLAPSE_RANGE)) ||
        ((mode & FALLOC_FL_INSERT_RANGE) && (mode & ~FALLOC_FL_INSERT_RANGE)) ||
        ((mode & FALLOC_FL_UNSHARE_RANGE) &&
         (mode & ~(FALLOC_FL_UNSHARE_RANGE | FALLOC_FL_KEEP_SIZE))))
        return -EINVAL;
    if (!(f->f_mode & FMODE_WRITE))
        return -EBADF;
    if (S_ISFIFO(inode->i_mode))
        return -ESPIPE;
    if (S_ISDIR(inode->i_mode))
        return -EISDIR;
    if (!S_ISREG(inode->i_mode))
        return -ENODEV;
    if ((uint64_t)offset + (uint64_t)len > (uint64_t)inode->i_sb->s_maxbytes)
        return -EFBIG;                 /* past the largest size, or wrapping */
    return -EOPNOTSUPP;
}

long sys_fallocate(int fd, int mode, unsigned long off_lo, unsigned long off_hi,
                   unsigned long len_lo, unsigned long len_hi)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long err = vfs_fallocate(f, mode, (loff_t)(((uint64_t)off_hi << 32) | off_lo),
                             (loff_t)(((uint64_t)len_hi << 32) | len_lo));
    fput(f);
    return err;
}

static long do_fsync(unsigned int fd, int datasync)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long err = f->f_op && f->f_op->fsync ? vfs_fsync(f, datasync) : -EINVAL;
    fput(f);
    return err;
}

long sys_fsync(unsigned int fd) { return do_fsync(fd, 0); }
long sys_fdatasync(unsigned int fd) { return do_fsync(fd, 1); }
long sys_sync(void) { ksys_sync(); return 0; }
