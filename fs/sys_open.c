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
#include <proc.h>
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
    struct file *f = fget_raw(dfd);    /* an O_PATH directory too */
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
                          O_DSYNC | O_SYNC | O_NOATIME | FASYNC | O_DIRECT | O_PATH)

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
    struct file *f = fget_raw(fildes);
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
        struct file *f = fget_raw(oldfd);
        if (!f)
            return -EBADF;
        fput(f);
        return newfd;
    }
    return do_dup2(oldfd, newfd, 0);
}

/* What F_SETFL changes (Linux's SETFL_MASK); the access mode and the rest
 * stay.  O_NOATIME needs the file's owner (checked at open only, here).
 * FASYNC: the file's driver is told (->fasync); O_DIRECT is only kept. */
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_NOATIME | O_DIRECT | FASYNC)

/* ---- SIGIO's receiver (Linux's fs/fcntl.c f_setown and send_sigio) ------- */

/* Simplified on purpose: the receiver is kept by number (Linux keeps a
 * struct pid, so a receiver that exits is not replaced by a new process
 * with its number), and no sigio_perm check is made (Linux checks the
 * setter's ids against the receiver's).  The signal from F_SETSIG carries
 * si_code band (POLL_IN, POLL_MSG) but no si_fd or si_band. */
void send_sigio(struct fown_struct *fown, int band)
{
    if (!fown->pid)
        return;
    int sig = fown->signum ? fown->signum : SIGIO;
    struct kern_siginfo info = { .code = fown->signum ? band : SI_KERNEL };
    if (fown->pid_type == PIDTYPE_PID) {
        struct task_struct *t = find_task_by_pid(fown->pid);
        if (t)
            send_signal(t, sig, &info);
    } else {
        kill_pid_info(fown->pid_type == PIDTYPE_PGID ? -fown->pid : fown->pid, sig, &info);
    }
}

/* A pid (or group) number that exists?  0 is "nobody" and always does. */
static int owner_exists(int who, int type)
{
    if (!who)
        return 0;
    struct task_struct *t;
    if (type != PIDTYPE_PGID) {
        t = find_task_by_pid(who);
        return t && (type == PIDTYPE_PID || t->is_process) ? 0 : -ESRCH;
    }
    list_for_each_entry(t, &task_list, tasks)
        if (t->pgrp == who)
            return 0;
    return -ESRCH;
}

static long f_setown(struct file *f, int who, int type)
{
    int err = owner_exists(who, type);
    if (!err) {
        f->f_owner.pid = who;
        f->f_owner.pid_type = type;
    }
    return err;
}

/* F_SETOWN: a pid, or minus a process group (Linux's f_setown). */
static long f_setown_legacy(struct file *f, long arg)
{
    int who = (int)arg;
    if (who == -0x7fffffff - 1)
        return -EINVAL;
    return who < 0 ? f_setown(f, -who, PIDTYPE_PGID) : f_setown(f, who, PIDTYPE_TGID);
}

static long f_getown(struct file *f)
{
    return f->f_owner.pid_type == PIDTYPE_PGID ? -f->f_owner.pid : f->f_owner.pid;
}

static long f_setown_ex(struct file *f, void *arg)
{
    struct f_owner_ex o;
    if (copy_from_user(&o, arg, sizeof o))
        return -EFAULT;
    int type = o.type == F_OWNER_TID ? PIDTYPE_PID : o.type == F_OWNER_PID ? PIDTYPE_TGID :
               o.type == F_OWNER_PGRP ? PIDTYPE_PGID : -1;
    if (type < 0)
        return -EINVAL;
    return f_setown(f, o.pid, type);
}

static long f_getown_ex(struct file *f, void *arg)
{
    struct f_owner_ex o = { .pid = f->f_owner.pid };
    o.type = f->f_owner.pid_type == PIDTYPE_PID ? F_OWNER_TID :
             f->f_owner.pid_type == PIDTYPE_TGID ? F_OWNER_PID : F_OWNER_PGRP;
    if (o.pid && owner_exists(o.pid, f->f_owner.pid_type))
        o.pid = 0;                     /* gone: Linux shows 0 too */
    return copy_to_user(arg, &o, sizeof o) ? -EFAULT : 0;
}

static long f_setfl(struct file *f, unsigned long arg)
{
    if (((arg ^ f->f_flags) & FASYNC) && f->f_op && f->f_op->fasync) {
        int err = f->f_op->fasync(f, (arg & FASYNC) != 0);
        if (err < 0)
            return err;
    }
    f->f_flags = (f->f_flags & ~SETFL_MASK) | (arg & SETFL_MASK);
    return 0;
}

/* fcntl and fcntl64 (lk64: struct flock64 for the lock commands).  An
 * O_PATH descriptor takes F_DUPFD(_CLOEXEC), F_GETFD, F_SETFD and F_GETFL
 * only (-EBADF for the rest), as Linux's check_fcntl_cmd. */
static long do_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg, bool lk64)
{
    struct file *f = fget_raw(fd);
    if (!f)
        return -EBADF;
    long ret;
    if ((f->f_mode & FMODE_PATH) && cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC &&
        cmd != F_GETFD && cmd != F_SETFD && cmd != F_GETFL) {
        fput(f);
        return -EBADF;
    }
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
        ret = f_setfl(f, arg);
        break;
    case F_SETOWN:
        ret = f_setown_legacy(f, arg);
        break;
    case F_GETOWN:
        ret = f_getown(f);
        break;
    case F_SETOWN_EX:
        ret = f_setown_ex(f, (void *)arg);
        break;
    case F_GETOWN_EX:
        ret = f_getown_ex(f, (void *)arg);
        break;
    case F_SETSIG:
        ret = arg > _NSIG ? -EINVAL : (f->f_owner.signum = arg, 0);
        break;
    case F_GETSIG:
        ret = f->f_owner.signum;
        break;
    case F_SETLEASE:
        ret = fcntl_setlease(f, arg);
        break;
    case F_GETLEASE:
        ret = fcntl_getlease(f);
        break;
    case F_GETPIPE_SZ:
    case F_SETPIPE_SZ:
        ret = pipe_fcntl(f, cmd, arg);
        break;
    case F_GETLK:
        ret = fcntl_getlk(f, cmd, (void *)arg, false);
        break;
    case F_SETLK:
    case F_SETLKW:
        ret = fcntl_setlk(f, cmd, (void *)arg, false);
        break;
    case F_GETLK64:
    case F_OFD_GETLK:
        ret = lk64 ? fcntl_getlk(f, cmd, (void *)arg, true) : -EINVAL;
        break;
    case F_SETLK64:
    case F_SETLKW64:
    case F_OFD_SETLK:
    case F_OFD_SETLKW:
        ret = lk64 ? fcntl_setlk(f, cmd, (void *)arg, true) : -EINVAL;
        break;
    default:
        ret = -EINVAL;                 /* F_NOTIFY, seals, hints: not modelled */
        break;
    }
    fput(f);
    return ret;
}

/* fcntl: the 32-bit struct flock; the F_*LK64 and F_OFD_* commands are
 * -EINVAL here (Linux's compat fcntl, what the i386 programs compared
 * with it see). */
long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
    return do_fcntl(fd, cmd, arg, false);
}

/* fcntl64: fcntl, plus the record-lock commands with a struct flock64. */
long sys_fcntl64(unsigned int fd, unsigned int cmd, unsigned long arg)
{
    return do_fcntl(fd, cmd, arg, true);
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
