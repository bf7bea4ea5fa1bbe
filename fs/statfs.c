/* fs/statfs.c: statfs(2) and friends, a filesystem's size and free space
 * (Linux's fs/statfs.c).  df(1) is the user.
 *
 *   statfs(path, buf)                99   struct statfs   (32-bit counts)
 *   fstatfs(fd, buf)                100
 *   statfs64(path, size, buf)       268   struct statfs64 (64-bit counts);
 *   fstatfs64(fd, size, buf)        269   size must be sizeof(struct statfs64)
 *
 * The numbers come from the superblock's ->statfs (ext2 reads its
 * superblock's counters, ramfs reports what it holds); a filesystem with
 * no ->statfs (devfs, proc) reports its magic number, a page-sized block
 * and zero counts, as Linux's simple_statfs.  A count too large for the
 * 32-bit struct statfs is -EOVERFLOW, as Linux's put_compat_statfs.
 */
#include <kernel.h>
#include <errno.h>
#include <err.h>
#include <string.h>
#include <fs.h>
#include <fdtable.h>
#include <fs_syscalls.h>
#include <mm.h>
#include <asm/uaccess.h>
#include <asm/statfs.h>
#include "internal.h"

/* Fill *buf for the filesystem holding inode (Linux's vfs_statfs). */
static int vfs_statfs(struct inode *inode, struct kstatfs *buf, unsigned int *flags,
                      __kernel_fsid_t *fsid)
{
    struct super_block *sb = inode->i_sb;
    memset(buf, 0, sizeof *buf);
    buf->f_type = sb->s_magic;
    buf->f_bsize = PAGE_SIZE;
    buf->f_namelen = NAME_MAX;
    if (sb->s_op && sb->s_op->statfs) {
        int err = sb->s_op->statfs(sb, buf);
        if (err)
            return err;
    }
    *flags = sb->s_flags & MS_RDONLY ? ST_RDONLY : 0;
    fsid->val[0] = sb->s_bdev ? 0x300 : (int)sb->s_anon_dev;   /* st_dev, as stat says */
    fsid->val[1] = 0;
    return 0;
}

/* statfs of the filesystem holding the file upath names (or, if upath is
 * NULL, the file open at fd). */
static int statfs_common(const char *upath, int fd, struct kstatfs *k, unsigned int *flags,
                         __kernel_fsid_t *fsid)
{
    int err;
    if (upath) {
        char *name = getname(upath);
        if (IS_ERR(name))
            return PTR_ERR(name);
        struct path p;
        err = kern_path(name, LOOKUP_FOLLOW, &p);
        putname(name);
        if (err)
            return err;
        err = vfs_statfs(p.inode, k, flags, fsid);
        path_put(&p);
        return err;
    }
    struct file *f = fget_raw(fd);
    if (!f)
        return -EBADF;
    err = vfs_statfs(f->f_inode, k, flags, fsid);
    fput(f);
    return err;
}

/* statfs of upath (or fd) copied out to ubuf, a struct statfs or a struct
 * statfs64: the two name their fields alike (only the counts' widths
 * differ), so one macro fills either (__typeof__ picks the struct).
 * kstatfs's counts are unsigned long, as wide as struct statfs's on i386:
 * nothing can overflow the 32-bit struct yet (Linux checks for
 * -EOVERFLOW). */
#define statfs_to_user(upath, fd, ubuf) ({                                   \
        struct kstatfs k;                                                     \
        __typeof__(*(ubuf)) s;                                                \
        unsigned int flags;                                                   \
        __kernel_fsid_t fsid;                                                 \
        long err = statfs_common(upath, fd, &k, &flags, &fsid);               \
        if (!err) {                                                           \
            memset(&s, 0, sizeof s);                                          \
            s.f_type = k.f_type;                                              \
            s.f_bsize = s.f_frsize = k.f_bsize;                               \
            s.f_blocks = k.f_blocks;                                          \
            s.f_bfree = k.f_bfree;                                            \
            s.f_bavail = k.f_bavail;                                          \
            s.f_files = k.f_files;                                            \
            s.f_ffree = k.f_ffree;                                            \
            s.f_fsid = fsid;                                                  \
            s.f_namelen = k.f_namelen;                                        \
            s.f_flags = flags;                                                \
            err = copy_to_user(ubuf, &s, sizeof s) ? -EFAULT : 0;             \
        }                                                                     \
        err; })

long sys_statfs(const char *path, struct statfs *buf)
{
    return path ? statfs_to_user(path, -1, buf) : -EFAULT;
}

long sys_fstatfs(unsigned int fd, struct statfs *buf)
{
    return statfs_to_user(NULL, fd, buf);
}

long sys_statfs64(const char *path, size_t sz, struct statfs64 *buf)
{
    if (!path)
        return -EFAULT;
    return sz == sizeof *buf ? statfs_to_user(path, -1, buf) : -EINVAL;
}

long sys_fstatfs64(unsigned int fd, size_t sz, struct statfs64 *buf)
{
    return sz == sizeof *buf ? statfs_to_user(NULL, fd, buf) : -EINVAL;
}
