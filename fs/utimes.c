/* fs/utimes.c: utimensat(2), setting a file's access and modification
 * times (Linux's fs/utimes.c).  touch(1) is its user.
 *
 *   utimensat(dfd, path, times, flags)         i386 number 320, times are
 *                                              two { long sec; long nsec; }
 *   utimensat_time64(dfd, path, times, flags)  412, two { s64 sec; long nsec; }
 *
 * times == NULL sets both to now; an nsec of UTIME_NOW means now, UTIME_OMIT
 * leaves that time alone; both UTIME_OMIT is 0 at once, before the flags or
 * the path are looked at (Linux's "we must not even check the path").
 * path == NULL with a dfd other than AT_FDCWD (Linux's futimens) means the
 * file dfd itself; with AT_FDCWD it is a bad address, -EFAULT.  The change
 * time becomes now whenever anything changes.
 *
 * Simplified on purpose: inode times are whole seconds here (struct inode
 * has no nanoseconds), so tv_nsec is checked and then dropped.  Who may
 * set which times is fs/attr.c's (notify_change).
 */
#include <kernel.h>
#include <errno.h>
#include <err.h>
#include <fs.h>
#include <fdtable.h>
#include <fs_syscalls.h>
#include <mutex.h>
#include <asm/uaccess.h>
#include "internal.h"
#include "sys_internal.h"

struct utime_pair { time_t sec[2]; long nsec[2]; };   /* [0] atime, [1] mtime */

/* One time from user space: -EINVAL unless nsec is 0..999999999 or one of
 * the two specials (Linux: nsec_valid). */
static int nsec_valid(long nsec)
{
    return (nsec >= 0 && nsec <= 999999999) || nsec == UTIME_NOW || nsec == UTIME_OMIT;
}

/* Apply the pair to the inode through ->setattr, as every attribute change
 * does (Linux's utimes_common -> notify_change). */
static int utimes_common(struct inode *inode, const struct utime_pair *t)
{
    time_t now = current_time();
    struct iattr attr = { .ia_valid = ATTR_CTIME, .ia_ctime = now };

    if (t->nsec[0] != UTIME_OMIT) {
        attr.ia_valid |= ATTR_ATIME;
        attr.ia_atime = t->nsec[0] == UTIME_NOW ? now : t->sec[0];
    }
    if (t->nsec[1] != UTIME_OMIT) {
        attr.ia_valid |= ATTR_MTIME;
        attr.ia_mtime = t->nsec[1] == UTIME_NOW ? now : t->sec[1];
    }
    if (!(attr.ia_valid & (ATTR_ATIME | ATTR_MTIME)))
        return 0;                              /* both omitted: nothing at all */
    /* Both now (or no times at all) asks for owner or write permission,
     * anything else for the owner (fs/attr.c; Linux's do_utimes). */
    attr.ia_valid |= t->nsec[0] == UTIME_NOW && t->nsec[1] == UTIME_NOW ? ATTR_TOUCH
                                                                        : ATTR_TIMES_SET;
    if (inode->i_sb->s_flags & MS_RDONLY)
        return -EROFS;
    mutex_lock(&inode->i_mutex);
    int err = notify_change(inode, &attr);
    mutex_unlock(&inode->i_mutex);
    return err;
}

static long do_utimensat(int dfd, const char *upath, struct utime_pair *t, int flags)
{
    if (flags & ~AT_SYMLINK_NOFOLLOW)
        return -EINVAL;
    if (!nsec_valid(t->nsec[0]) || !nsec_valid(t->nsec[1]))
        return -EINVAL;

    if (!upath && dfd != AT_FDCWD) {           /* futimens(dfd, times) */
        if (flags)
            return -EINVAL;
        struct file *f = fget(dfd);
        if (!f)
            return -EBADF;
        long err = utimes_common(f->f_inode, t);
        fput(f);
        return err;
    }

    struct path p;
    long err = user_path_at(dfd, upath, flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW, &p);
    if (!err) {
        err = utimes_common(p.inode, t);
        path_put(&p);
    }
    return err;
}

static const struct utime_pair now_pair = { { 0, 0 }, { UTIME_NOW, UTIME_NOW } };

long sys_utimensat(int dfd, const char *path, const void *utimes, int flags)
{
    struct utime_pair t = now_pair;
    if (utimes) {
        struct { long tv_sec, tv_nsec; } ts[2];
        if (copy_from_user(ts, utimes, sizeof ts))
            return -EFAULT;
        for (int i = 0; i < 2; i++) {
            t.sec[i] = ts[i].tv_sec;
            t.nsec[i] = ts[i].tv_nsec;
        }
        if (t.nsec[0] == UTIME_OMIT && t.nsec[1] == UTIME_OMIT)
            return 0;
    }
    return do_utimensat(dfd, path, &t, flags);
}

long sys_utimensat_time64(int dfd, const char *path, const void *utimes, int flags)
{
    struct utime_pair t = now_pair;
    if (utimes) {
        struct { int64_t tv_sec; long tv_nsec; long pad; } ts[2];   /* __kernel_timespec */
        if (copy_from_user(ts, utimes, sizeof ts))
            return -EFAULT;
        for (int i = 0; i < 2; i++) {
            t.sec[i] = (time_t)ts[i].tv_sec;   /* 32-bit time_t: simplified, as above */
            t.nsec[i] = ts[i].tv_nsec;
        }
        if (t.nsec[0] == UTIME_OMIT && t.nsec[1] == UTIME_OMIT)
            return 0;
    }
    return do_utimensat(dfd, path, &t, flags);
}
