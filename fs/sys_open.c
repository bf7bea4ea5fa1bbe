/* fs/sys_open.c: open/openat/openat2/creat/close, dup/dup2/dup3, fcntl and
 * ioctl: the system calls that create, copy and configure descriptors;
 * fcntl's file owner (F_SETOWN, F_SETOWN_EX, F_SETSIG) and send_sigio,
 * which signals it (a lease break, O_ASYNC I/O on a pipe); openat2's
 * RESOLVE_* checks.  Sits on
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
                          O_DSYNC | O_SYNC | O_NOATIME | FASYNC | O_DIRECT | O_PATH | \
                          __O_TMPFILE)

/* Linux's build_open_flags checks of O_TMPFILE: with O_DIRECTORY, without
 * O_CREAT, and for writing. */
static int check_tmpfile_flags(int flags)
{
    if (!(flags & __O_TMPFILE))
        return 0;
    if ((flags & (O_TMPFILE | O_CREAT)) != O_TMPFILE || (flags & O_ACCMODE) == O_RDONLY)
        return -EINVAL;
    return 0;
}

/* ---- openat2's RESOLVE_* flags ------------------------------------------
 * Simplified on purpose: Linux checks them inside its path walk; here the
 * name is checked before the open, one prefix at a time from the start
 * directory (each prefix looked up without following its last component):
 *   RESOLVE_NO_SYMLINKS   a symlink anywhere: -ELOOP (exact);
 *   RESOLVE_NO_MAGICLINKS a magic link (/proc/PID/fd/N, exe) anywhere:
 *                         -ELOOP;
 *   RESOLVE_NO_XDEV       a prefix on another mount than the start: -EXDEV;
 *   RESOLVE_BENEATH       an absolute name, a ".." above the start, or a
 *                         symlink whose text is absolute or has "..":
 *                         -EXDEV (Linux follows the last kind when it stays
 *                         beneath);
 *   RESOLVE_IN_ROOT       the start directory is "/": a leading '/' and
 *                         ".." at the top are dropped; a symlink with an
 *                         absolute text or "..": -EXDEV (Linux resolves it
 *                         inside the root).
 * The check and the open are two walks: a rename between them is not seen
 * (Linux's is one walk). */
#define RESOLVE_NO_XDEV       0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS   0x04
#define RESOLVE_BENEATH       0x08
#define RESOLVE_IN_ROOT       0x10
#define RESOLVE_CACHED        0x20
#define VALID_RESOLVE_FLAGS   0x3f

struct open_how {
    unsigned long long flags, mode, resolve;
};

/* The end of the component starting at c: the next '/' or the NUL. */
static char *comp_end(char *c)
{
    while (*c && *c != '/')
        c++;
    return c;
}

/* May a symlink's text be followed beneath the start? */
static bool link_stays_beneath(const struct path *link)
{
    char *t = vfs_get_link(link);
    if (IS_ERR(t))
        return false;
    bool ok = t[0] != '/';
    for (char *c = t; ok && *c; ) {
        char *e = comp_end(c);
        if (e - c == 2 && c[0] == '.' && c[1] == '.')
            ok = false;
        c = *e ? e + 1 : e;
    }
    kfree(t);
    return ok;
}

/* Rewrite name (a PATH_MAX buffer) for RESOLVE_IN_ROOT: relative to the
 * start directory, never above it.  Before at_enter. */
static void resolve_in_root(char *name, unsigned long long resolve)
{
    if (resolve & RESOLVE_IN_ROOT) {
        /* drop the leading '/' and each ".." that would climb above the top */
        char *out = name, *c = name;
        int depth = 0;
        while (*c) {
            while (*c == '/')
                c++;
            char *e = comp_end(c);
            size_t n = e - c;
            if (n == 2 && c[0] == '.' && c[1] == '.') {
                if (depth == 0) {
                    c = e;
                    continue;
                }
                depth--;
            } else if (n && !(n == 1 && c[0] == '.')) {
                depth++;
            }
            if (n) {
                if (out != name)
                    *out++ = '/';
                memmove(out, c, n);
                out += n;
            }
            c = e;
        }
        if (out == name)
            *out++ = '.';
        *out = '\0';
    }
}

/* Check the prefixes of name: 0 or -ELOOP / -EXDEV.  follow_last: the
 * open follows a final symlink (not O_NOFOLLOW, nor O_CREAT | O_EXCL). */
static int resolve_check(char *name, unsigned long long resolve, bool follow_last)
{
    if (!(resolve & (RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV |
                     RESOLVE_BENEATH | RESOLVE_IN_ROOT)))
        return 0;
    if ((resolve & RESOLVE_BENEATH) && name[0] == '/')
        return -EXDEV;
    struct path start;
    int err = kern_path(".", LOOKUP_FOLLOW, &start);
    if (err)
        return err;
    char *pre = kmalloc(PATH_MAX, GFP_KERNEL);
    if (!pre) {
        path_put(&start);
        return -ENOMEM;
    }
    int depth = 0;
    for (char *c = name; !err && *c; ) {
        while (*c == '/')
            c++;
        if (!*c)
            break;
        char *e = comp_end(c);
        size_t n = e - c;
        if (n == 2 && c[0] == '.' && c[1] == '.' && --depth < 0 &&
            (resolve & RESOLVE_BENEATH)) {
            err = -EXDEV;
            break;
        }
        if (!(n == 1 && c[0] == '.') && !(n == 2 && c[0] == '.' && c[1] == '.'))
            depth++;
        memcpy(pre, name, e - name);
        pre[e - name] = '\0';
        struct path p;
        if (kern_path(pre, 0, &p))
            break;                     /* not there (yet): the open says what */
        if (S_ISLNK(p.inode->i_mode) && (*e || follow_last)) {
            if ((resolve & RESOLVE_NO_SYMLINKS) ||
                ((resolve & RESOLVE_NO_MAGICLINKS) && p.inode->i_op->get_path))
                err = -ELOOP;
            else if ((resolve & (RESOLVE_BENEATH | RESOLVE_IN_ROOT)) && !link_stays_beneath(&p))
                err = -EXDEV;
        }
        if (!err && (resolve & RESOLVE_NO_XDEV) && p.mnt != start.mnt)
            err = -EXDEV;
        path_put(&p);
        c = e;
    }
    kfree(pre);
    path_put(&start);
    return err;
}

/* openat and openat2: flags checked, mode already masked; resolve 0 for
 * openat. */
static long do_openat(int dfd, const char *filename, int flags, mode_t mode,
                      unsigned long long resolve)
{
    char *name = getname(filename);
    if (IS_ERR(name))
        return PTR_ERR(name);
    int fd = get_unused_fd_flags(flags);
    if (fd >= 0) {
        struct at_ctx at;
        resolve_in_root(name, resolve);
        int err = at_enter(dfd, name, &at);
        bool follow_last = !(flags & O_NOFOLLOW) && (flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);
        if (!err && resolve)
            err = resolve_check(name, resolve, follow_last);
        struct file *f = err ? ERR_PTR(err) : filp_open(name, flags & ~O_CLOEXEC, mode);
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

long sys_openat(int dfd, const char *filename, int flags, mode_t mode)
{
    if (flags & ~VALID_OPEN_FLAGS)
        return -EINVAL;
    if (check_tmpfile_flags(flags))
        return -EINVAL;
    return do_openat(dfd, filename, flags, mode & 07777 & ~current_umask(), 0);
}

/* openat2(dfd, name, how, size): Linux's copy_struct_from_user rules for
 * how (size below 24: -EINVAL; above a page: -E2BIG; bytes past the
 * struct must be zero: -E2BIG), then build_open_flags's strict checks:
 * unknown open flags, a mode without O_CREAT/O_TMPFILE or with bits
 * outside 07777, unknown resolve flags, RESOLVE_BENEATH with
 * RESOLVE_IN_ROOT: -EINVAL; RESOLVE_CACHED: -EAGAIN (no lookup cache here
 * to answer from, what Linux says when the cache cannot). */
long sys_openat2(int dfd, const char *filename, const void *uhow, size_t size)
{
    struct open_how how;
    if (size < sizeof how)
        return -EINVAL;
    if (size > PAGE_SIZE)
        return -E2BIG;
    if (copy_from_user(&how, uhow, sizeof how))
        return -EFAULT;
    for (size_t i = sizeof how; i < size; i++) {
        char c;
        if (copy_from_user(&c, (const char *)uhow + i, 1))
            return -EFAULT;
        if (c)
            return -E2BIG;
    }
    if ((how.flags >> 32) || (how.flags & ~(unsigned long long)VALID_OPEN_FLAGS))
        return -EINVAL;
    int flags = (int)how.flags;
    if ((flags & (O_CREAT | __O_TMPFILE)) ? how.mode & ~07777ULL : how.mode != 0)
        return -EINVAL;
    if ((how.resolve & ~(unsigned long long)VALID_RESOLVE_FLAGS) ||
        ((how.resolve & RESOLVE_BENEATH) && (how.resolve & RESOLVE_IN_ROOT)))
        return -EINVAL;
    if ((flags & O_PATH) && (flags & ~(O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)))
        return -EINVAL;
    if (check_tmpfile_flags(flags))
        return -EINVAL;
    if (how.resolve & RESOLVE_CACHED)
        return -EAGAIN;
    return do_openat(dfd, filename, flags, (mode_t)how.mode & ~current_umask(), how.resolve);
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
    } else if (fown->pid_type == PIDTYPE_TGID) {
        kill_pid_info(fown->pid, sig, &info);
    } else {
        /* every live process of the group, each once, by its leader (not
         * kill_pid_info(-pgrp): group 1 would be "everyone") */
        unsigned long flags = local_irq_save();
        struct task_struct *t;
        list_for_each_entry(t, &task_list, tasks)
            if (t->is_process && tg_leader(t) == t && t->group_live > 0 && t->pgrp == fown->pid)
                send_group_signal(t, sig, &info);
        local_irq_restore(flags);
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
    int err = -ESRCH;
    unsigned long flags = local_irq_save();   /* the task list holds still (find_task_by_pid's rule) */
    list_for_each_entry(t, &task_list, tasks)
        if (t->pgrp == who) {
            err = 0;
            break;
        }
    local_irq_restore(flags);
    return err;
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
    if ((arg & O_DIRECT) && !odirect_ok(f->f_inode))
        return -EINVAL;
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
