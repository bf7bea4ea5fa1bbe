/* fs/sys_open.c: open/openat/creat/close, dup/dup2/dup3, fcntl and ioctl:
 * the system calls that create, copy and configure descriptors.  Sits on
 * the fd table (fs/fdtable.c) and the VFS's filp_open.  Also the helpers
 * every path-taking call uses: getname() (copy a path from user space) and
 * the *at() directory-descriptor handling.
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
#include <asm/ioctls.h>
#include <signal.h>
#include "sys_internal.h"

char *getname(const char *filename)
{
    char *name = kmalloc(PATH_MAX, GFP_KERNEL);
    if (!name)
        return ERR_PTR(-ENOMEM);
    long len = strncpy_from_user(name, filename, PATH_MAX);
    if (len < 0 || !access_ok(filename, 1)) {
        kfree(name);
        return ERR_PTR(-EFAULT);
    }
    if (len == PATH_MAX) {
        kfree(name);
        return ERR_PTR(-ENAMETOOLONG);
    }
    if (len == 0) {
        kfree(name);
        return ERR_PTR(-ENOENT);
    }
    return name;
}

void putname(char *name) { kfree(name); }

/* *at() calls: a relative name is resolved against the directory open at
 * dfd.  The VFS resolves relative names against the task's cwd, so for the
 * duration of the call the cwd is switched to that directory (simplification
 * on purpose: Linux passes the starting point to the path walk instead; the
 * switch is private to the task, whose fs_struct is its own). */
int at_enter(int dfd, const char *name, struct at_ctx *c)
{
    c->fs = NULL;
    if (dfd == AT_FDCWD || name[0] == '/')
        return 0;
    struct file *f = fget(dfd);
    if (!f)
        return -EBADF;
    int err = 0;
    if (!S_ISDIR(f->f_inode->i_mode))
        err = -ENOTDIR;
    else if (!current->fs)
        err = -EINVAL;                 /* kernel threads share init_fs: no switching */
    if (!err) {
        c->fs = current->fs;
        c->saved = c->fs->pwd;
        c->fs->pwd = f->f_path;
        path_get(&c->fs->pwd);
    }
    fput(f);
    return err;
}

void at_leave(struct at_ctx *c)
{
    if (!c->fs)
        return;
    path_put(&c->fs->pwd);
    c->fs->pwd = c->saved;
    c->fs = NULL;
}

int user_path_at(int dfd, const char *upath, unsigned int flags, struct path *path)
{
    char *name = getname(upath);
    if (IS_ERR(name))
        return PTR_ERR(name);
    struct at_ctx at;
    int err = at_enter(dfd, name, &at);
    if (!err)
        err = kern_path(name, flags, path);
    at_leave(&at);
    putname(name);
    return err;
}

#define VALID_OPEN_FLAGS (O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | \
                          O_NONBLOCK | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_LARGEFILE | \
                          O_DSYNC | O_SYNC | O_NOATIME)

long sys_openat(int dfd, const char *filename, int flags, mode_t mode)
{
    if (flags & ~VALID_OPEN_FLAGS)
        return -EINVAL;
    char *name = getname(filename);
    if (IS_ERR(name))
        return PTR_ERR(name);
    int fd = get_unused_fd_flags(flags);
    if (fd >= 0) {
        struct at_ctx at;
        int err = at_enter(dfd, name, &at);
        struct file *f = err ? ERR_PTR(err) : filp_open(name, flags & ~O_CLOEXEC, mode & 07777 & ~current_umask());
        at_leave(&at);
        if (IS_ERR(f)) {
            put_unused_fd(fd);
            fd = PTR_ERR(f);
        } else {
            fd_install(fd, f);
        }
    }
    putname(name);
    return fd;
}

long sys_open(const char *filename, int flags, mode_t mode)
{ return sys_openat(AT_FDCWD, filename, flags, mode); }
long sys_creat(const char *filename, mode_t mode)
{ return sys_openat(AT_FDCWD, filename, O_CREAT | O_WRONLY | O_TRUNC, mode); }

long sys_close(unsigned int fd) { return close_fd(fd); }

long sys_dup(unsigned int fildes)
{
    struct file *f = fget(fildes);
    if (!f)
        return -EBADF;
    long ret = f_dupfd(0, f, 0);
    fput(f);
    return ret;
}

long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags)
{
    if (flags & ~O_CLOEXEC)
        return -EINVAL;
    if (oldfd == newfd)
        return -EINVAL;
    return do_dup2(oldfd, newfd, flags);
}

long sys_dup2(unsigned int oldfd, unsigned int newfd)
{
    if (oldfd == newfd) {              /* valid oldfd: returned as is */
        struct file *f = fget(oldfd);
        if (!f)
            return -EBADF;
        fput(f);
        return newfd;
    }
    return do_dup2(oldfd, newfd, 0);
}

/* What F_SETFL changes (Linux's SETFL_MASK without O_DIRECT and FASYNC,
 * which are not modelled); the access mode and the rest stay.  O_NOATIME
 * needs the file's owner, which every process is (root). */
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_NOATIME)

long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long ret;
    switch (cmd) {
    case F_DUPFD:
    case F_DUPFD_CLOEXEC:
        ret = f_dupfd(arg, f, cmd == F_DUPFD_CLOEXEC ? O_CLOEXEC : 0);
        break;
    case F_GETFD:
        ret = get_close_on_exec(fd) ? FD_CLOEXEC : 0;
        break;
    case F_SETFD:
        set_close_on_exec(fd, arg & FD_CLOEXEC);
        ret = 0;
        break;
    case F_GETFL:
        ret = f->f_flags & ~O_CLOEXEC;
        break;
    case F_SETFL:
        f->f_flags = (f->f_flags & ~SETFL_MASK) | (arg & SETFL_MASK);
        ret = 0;
        break;
    case F_GETPIPE_SZ:
    case F_SETPIPE_SZ:
        ret = pipe_fcntl(f, cmd, arg);
        break;
    case F_GETLK:
        ret = fcntl_getlk(f, cmd, (void *)arg);
        break;
    case F_SETLK:
    case F_SETLKW:
        ret = fcntl_setlk(f, cmd, (void *)arg);
        break;
    default:
        ret = -EINVAL;                 /* leases, F_OFD_* locks and the rest: not modelled */
        break;
    }
    fput(f);
    return ret;
}

/* fcntl64: fcntl, plus the record-lock commands with a struct flock64. */
long sys_fcntl64(unsigned int fd, unsigned int cmd, unsigned long arg)
{
    if (cmd != F_GETLK64 && cmd != F_SETLK64 && cmd != F_SETLKW64)
        return sys_fcntl(fd, cmd, arg);
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long ret = cmd == F_GETLK64 ? fcntl_getlk(f, cmd, (void *)arg)
                                : fcntl_setlk(f, cmd, (void *)arg);
    fput(f);
    return ret;
}

long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long ret;
    int on;
    switch (cmd) {
    case FIOCLEX:
    case FIONCLEX:
        set_close_on_exec(fd, cmd == FIOCLEX);
        ret = 0;
        break;
    case FIONBIO:
        if (copy_from_user(&on, (void *)arg, sizeof on)) {
            ret = -EFAULT;
            break;
        }
        f->f_flags = on ? f->f_flags | O_NONBLOCK : f->f_flags & ~O_NONBLOCK;
        ret = 0;
        break;
    default:
        ret = f->f_op && f->f_op->ioctl ? f->f_op->ioctl(f, cmd, arg) : -ENOTTY;
    }
    fput(f);
    return ret;
}
