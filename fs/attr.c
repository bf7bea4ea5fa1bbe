/* fs/attr.c: changing a file's attributes (Linux's fs/attr.c and the chmod
 * and chown halves of fs/open.c): notify_change, the one door every
 * attribute change goes through (truncate, utimensat, chmod, chown), the
 * owner and permission rules it applies (setattr_prepare), the owner of a
 * new inode (inode_init_owner), and the system calls chmod, fchmod,
 * fchmodat, chown, lchown, fchown (16- and 32-bit) and fchownat.  VFS layer:
 * reads the caller's ids (include/cred.h), calls the filesystem's
 * ->setattr with the inode's i_mutex held.
 *
 * The rules, Linux's (setattr_prepare, chown_ok, chgrp_ok):
 *   chmod            the owner (fsuid == i_uid) or CAP_FOWNER; else -EPERM.
 *                    The new mode loses S_ISGID when the file's group is
 *                    not one of the caller's and it lacks CAP_FSETID.
 *   chown uid        only CAP_CHOWN, unless it is the present owner.
 *   chown gid        the owner to one of its own groups (or the present
 *                    group), or CAP_CHOWN; else -EPERM.
 *   chown (any)      of a non-directory clears S_ISUID, and S_ISGID when
 *                    group-execute is set (without it S_ISGID means
 *                    mandatory locking and stays), even for root (Linux's
 *                    ATTR_KILL_SUID / ATTR_KILL_SGID in notify_change).
 *   explicit times   (utimensat with times, unless both are UTIME_NOW) the
 *                    owner or CAP_FOWNER: -EPERM.
 *   "now" times      (no times, or both UTIME_NOW) the owner, CAP_FOWNER,
 *                    or write permission: -EACCES.
 * Every change sets ctime.  -EROFS on a read-only mount comes first.
 *
 * Simplified on purpose: Linux's setattr_prepare is called by each
 * filesystem's ->setattr; here notify_change calls it once for all of them.
 */
#include <kernel.h>
#include <errno.h>
#include <err.h>
#include <fs.h>
#include <cred.h>
#include <fdtable.h>
#include <fs_syscalls.h>
#include <mutex.h>
#include <sched.h>
#include <asm/uaccess.h>
#include "internal.h"
#include "sys_internal.h"

#define S_IALLUGO (S_ISUID | S_ISGID | S_ISVTX | 0777)

/* Linux's inode_owner_or_capable. */
bool inode_owner_or_capable(const struct inode *inode)
{
    return current_fsuid() == inode->i_uid || capable(CAP_FOWNER);
}

static bool chown_ok(const struct inode *inode, uid_t uid)
{
    return (current_fsuid() == inode->i_uid && uid == inode->i_uid) || capable(CAP_CHOWN);
}

static bool chgrp_ok(const struct inode *inode, gid_t gid)
{
    return (current_fsuid() == inode->i_uid && (in_group_p(gid) || gid == inode->i_gid)) ||
           capable(CAP_CHOWN);
}

/* Linux's setattr_prepare: may the caller make this change?  0, -EPERM or
 * (for "now" times) inode_permission's error.  May clear S_ISGID from
 * attr->ia_mode. */
int setattr_prepare(struct inode *inode, struct iattr *attr)
{
    unsigned int v = attr->ia_valid;
    if ((v & ATTR_UID) && !chown_ok(inode, attr->ia_uid))
        return -EPERM;
    if ((v & ATTR_GID) && !chgrp_ok(inode, attr->ia_gid))
        return -EPERM;
    if (v & ATTR_MODE) {
        if (!inode_owner_or_capable(inode))
            return -EPERM;
        if (!in_group_p(v & ATTR_GID ? attr->ia_gid : inode->i_gid) && !capable(CAP_FSETID))
            attr->ia_mode &= ~S_ISGID;
    }
    if ((v & ATTR_TIMES_SET) && !inode_owner_or_capable(inode))
        return -EPERM;
    return 0;
}

int notify_change(struct inode *inode, struct iattr *attr)
{
    BUG_ON(!mutex_is_locked(&inode->i_mutex));
    unsigned int v = attr->ia_valid;
    if ((v & ATTR_TOUCH) && !inode_owner_or_capable(inode)) {
        int err = inode_permission(inode, MAY_WRITE);
        if (err)
            return err;
    }
    /* chown's (and a write's) clearing of the set-ID bits. */
    if ((v & ATTR_KILL_SUID) && (inode->i_mode & S_ISUID)) {
        attr->ia_valid |= ATTR_MODE;
        attr->ia_mode = inode->i_mode & ~S_ISUID;
    }
    if ((v & ATTR_KILL_SGID) && (inode->i_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP)) {
        if (!(attr->ia_valid & ATTR_MODE)) {
            attr->ia_valid |= ATTR_MODE;
            attr->ia_mode = inode->i_mode;
        }
        attr->ia_mode &= ~S_ISGID;
    }
    if (!(v & ATTR_FORCE)) {
        int err = setattr_prepare(inode, attr);
        if (err)
            return err;
    }
    if (inode->i_op && inode->i_op->setattr)
        return inode->i_op->setattr(inode, attr);
    return simple_setattr(inode, attr);
}

void inode_init_owner(struct inode *inode, const struct inode *dir, mode_t mode)
{
    inode->i_uid = current_fsuid();
    if (dir && (dir->i_mode & S_ISGID)) {
        inode->i_gid = dir->i_gid;
        if (S_ISDIR(mode))
            mode |= S_ISGID;           /* directories always inherit S_ISGID */
        else if ((mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) &&
                 !in_group_p(inode->i_gid) && !capable(CAP_FSETID))
            mode &= ~S_ISGID;
    } else {
        inode->i_gid = current_fsgid();
    }
    inode->i_mode = mode;
}

/* ---- the system calls ---------------------------------------------------- */

static int mnt_rdonly(const struct inode *inode)
{
    return (inode->i_sb->s_flags & MS_RDONLY) ? -EROFS : 0;
}

/* Linux's chmod_common. */
static int chmod_common(struct inode *inode, mode_t mode)
{
    int err = mnt_rdonly(inode);
    if (err)
        return err;
    mutex_lock(&inode->i_mutex);
    struct iattr attr = {
        .ia_valid = ATTR_MODE | ATTR_CTIME,
        .ia_mode = (mode & S_IALLUGO) | (inode->i_mode & ~S_IALLUGO),
        .ia_ctime = current_time(),
    };
    err = notify_change(inode, &attr);
    mutex_unlock(&inode->i_mutex);
    return err;
}

/* Linux's chown_common: -1 leaves an id alone. */
static int chown_common(struct inode *inode, uid_t user, gid_t group)
{
    int err = mnt_rdonly(inode);
    if (err)
        return err;
    struct iattr attr = { .ia_valid = ATTR_CTIME, .ia_ctime = current_time() };
    if (user != (uid_t)-1) {
        attr.ia_valid |= ATTR_UID;
        attr.ia_uid = user;
    }
    if (group != (gid_t)-1) {
        attr.ia_valid |= ATTR_GID;
        attr.ia_gid = group;
    }
    if (!S_ISDIR(inode->i_mode))
        attr.ia_valid |= ATTR_KILL_SUID | ATTR_KILL_SGID;
    mutex_lock(&inode->i_mutex);
    err = notify_change(inode, &attr);
    mutex_unlock(&inode->i_mutex);
    return err;
}

/* The inode a path names, relative to dfd, following a final symlink when
 * follow; AT_EMPTY_PATH with "" names dfd itself.  fn runs on it. */
static long with_inode_at(int dfd, const char *upath, int follow, int empty_ok,
                          int (*fn)(struct inode *, unsigned long, unsigned long),
                          unsigned long a, unsigned long b)
{
    char c;
    if (empty_ok && !copy_from_user(&c, upath, 1) && c == 0) {
        if (dfd == AT_FDCWD) {
            struct path p;
            long err = kern_path(".", LOOKUP_FOLLOW, &p);
            if (!err) {
                err = fn(p.inode, a, b);
                path_put(&p);
            }
            return err;
        }
        struct file *f = fget_raw(dfd);
        if (!f)
            return -EBADF;
        long err = fn(f->f_inode, a, b);
        fput(f);
        return err;
    }
    struct path p;
    long err = user_path_at(dfd, upath, follow ? LOOKUP_FOLLOW : 0, &p);
    if (!err) {
        err = fn(p.inode, a, b);
        path_put(&p);
    }
    return err;
}

static long with_fd(unsigned int fd, int (*fn)(struct inode *, unsigned long, unsigned long),
                    unsigned long a, unsigned long b)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    long err = fn(f->f_inode, a, b);
    fput(f);
    return err;
}

static int do_chmod(struct inode *inode, unsigned long mode, unsigned long unused)
{
    (void)unused;
    return chmod_common(inode, mode);
}

static int do_chown(struct inode *inode, unsigned long user, unsigned long group)
{
    return chown_common(inode, user, group);
}

/* fchmodat has no flags argument (Linux's fchmodat2, 6.6, added one). */
long sys_fchmodat(int dfd, const char *filename, mode_t mode)
{
    return with_inode_at(dfd, filename, 1, 0, do_chmod, mode, 0);
}
long sys_chmod(const char *filename, mode_t mode) { return sys_fchmodat(AT_FDCWD, filename, mode); }
long sys_fchmod(unsigned int fd, mode_t mode) { return with_fd(fd, do_chmod, mode, 0); }

long sys_fchownat(int dfd, const char *filename, uid_t user, gid_t group, int flag)
{
    if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
        return -EINVAL;
    return with_inode_at(dfd, filename, !(flag & AT_SYMLINK_NOFOLLOW), flag & AT_EMPTY_PATH,
                         do_chown, user, group);
}
long sys_chown(const char *filename, uid_t user, gid_t group)
{
    return sys_fchownat(AT_FDCWD, filename, user, group, 0);
}
long sys_lchown(const char *filename, uid_t user, gid_t group)
{
    return sys_fchownat(AT_FDCWD, filename, user, group, AT_SYMLINK_NOFOLLOW);
}
long sys_fchown(unsigned int fd, uid_t user, gid_t group) { return with_fd(fd, do_chown, user, group); }

/* The 16-bit calls (Linux's kernel/uid16.c): 0xffff is -1. */
long sys_chown16(const char *filename, unsigned long user, unsigned long group)
{
    return sys_chown(filename, low2highuid(user), low2highgid(group));
}
long sys_lchown16(const char *filename, unsigned long user, unsigned long group)
{
    return sys_lchown(filename, low2highuid(user), low2highgid(group));
}
long sys_fchown16(unsigned int fd, unsigned long user, unsigned long group)
{
    return sys_fchown(fd, low2highuid(user), low2highgid(group));
}

/* fgetxattr: Vellum's file systems keep no extended attributes, so every
 * name is absent (-ENODATA, what Linux says of an attribute a file does
 * not have); an O_PATH descriptor is -EBADF.  (The other *xattr calls are
 * not in the table: -ENOSYS.) */
long sys_fgetxattr(int fd, const char *name, void *value, size_t size)
{
    struct file *f = fget(fd);
    if (!f)
        return -EBADF;
    fput(f);
    return -ENODATA;
}
