/* fs/open.c: opening and closing files.  filp_open resolves the path
 * (creating the file under O_CREAT, refusing an existing one under O_EXCL),
 * checks the kind against the flags and the caller's permission
 * (inode_permission: read, write, execute as the flags ask), lets the file
 * system's open refuse it, truncates under O_TRUNC and returns a struct file holding a
 * reference on the path.  Sits on fs/namei.c.
 *
 * A regular file's open counts (i_writecount, i_readcount) are kept here,
 * for ETXTBSY (get_write_access / deny_write_access: no writer while the
 * file runs, no execve while it has a writer) and for leases, whose break
 * (fs/locks.c, break_lease) an open waits for once it is counted.  Two
 * opens that are not a file's: O_PATH (a place for the *at calls, fstat
 * and fcntl's few commands; FMODE_PATH, nothing checked or ->open'ed) and
 * O_TMPFILE (open_tmpfile: a new file without a name).  O_DIRECT is taken
 * where Linux takes it (odirect_ok) and served by the page cache.
 *
 * The file keeps the flags that describe it (the access mode, O_APPEND,
 * O_NONBLOCK, O_SYNC, O_LARGEFILE...: what fcntl(F_GETFL) reports) and
 * forgets those that only steered the open (O_CREAT, O_EXCL, O_NOCTTY,
 * O_TRUNC), as Linux's do_dentry_open.  The access mode 3 (O_ACCMODE) is
 * Linux's "neither": the file can be neither read nor written (ioctl only),
 * but opening it needs what a write needs.
 */
#include <kernel.h>
#include <smp_lock.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include "internal.h"

/* O_CREAT: look the last component up under the parent's i_mutex and create
 * it if absent (-ENOENT if the directory was removed).  An existing symlink
 * is followed (unless O_NOFOLLOW: -ELOOP; O_EXCL: -EEXIST): its target,
 * read from the link's directory, is opened or created in turn, so open of
 * a dangling link creates the file it names, as Linux's open_last_lookups.
 * Creating needs write and search permission on the directory
 * (may_create); *created says whether this open made the file. */
static int open_create(const char *name, int flags, mode_t mode, struct path *res,
                       int *created)
{
    struct path parent, start = { NULL, NULL };
    const char *last;
    size_t len;
    char *buf, *target = NULL;
    int trailing, err, links = 0;
    struct inode *inode;

again:
    err = path_parent(start.inode ? &start : NULL, name, &parent, &last, &len, &buf, &trailing);
    if (err)
        goto out_target;
    struct inode *dir = parent.inode;
    if (len == 0 || is_dots_name(last, len) || trailing) {
        err = -EISDIR;
        goto out;
    }
    mutex_lock(&dir->i_mutex);
    if (IS_DEADDIR(dir))
        err = -ENOENT;
    else if (!dir->i_op->lookup)
        err = -ENOTDIR;
    else if ((err = dir->i_op->lookup(dir, last, len, &inode)) == -ENOENT) {
        if (parent.mnt->mnt_sb->s_flags & MS_RDONLY)
            err = -EROFS;
        else if ((err = may_create(dir)))
            ;
        else if (!dir->i_op->create)
            err = -EACCES;
        else if (!(err = dir->i_op->create(dir, last, len, (mode & 07777) | S_IFREG, &inode)))
            *created = 1;
    } else if (!err && (flags & O_EXCL)) {
        iput(inode);
        err = -EEXIST;
    } else if (!err && S_ISLNK(inode->i_mode)) {
        mutex_unlock(&dir->i_mutex);
        struct path link = { parent.mnt, inode };
        char *t = (flags & O_NOFOLLOW) ? ERR_PTR(-ELOOP) :
                  ++links > MAXSYMLINKS ? ERR_PTR(-ELOOP) : vfs_get_link(&link);
        iput(inode);
        err = IS_ERR(t) ? PTR_ERR(t) : 0;
        if (err)
            goto out;
        kfree(target);
        name = target = t;
        if (start.inode)
            path_put(&start);
        start = parent;                 /* the target is read from the link's directory */
        kfree(buf);
        goto again;
    }
    mutex_unlock(&dir->i_mutex);
    if (err)
        goto out;
    res->mnt = mntget(parent.mnt);
    res->inode = inode;
    if (S_ISDIR(inode->i_mode)) {       /* maybe a mount point */
        struct vfsmount *m;
        while ((m = lookup_mnt(res->mnt, res->inode)) != NULL) {
            struct path next = { m, m->mnt_sb->s_root };
            path_get(&next);
            path_put(res);
            *res = next;
        }
    }
out:
    path_put(&parent);
    kfree(buf);
out_target:
    if (start.inode)
        path_put(&start);
    kfree(target);
    return err;
}

/* May inode be opened O_DIRECT?  Simplified on purpose: Vellum's direct
 * I/O is the page cache's (docs/vfs.md), but it is offered where Linux's
 * is, by the file systems on a block device (their a_ops map blocks:
 * ->bmap); a ramfs file, as Linux's, is -EINVAL (no ->direct_IO). */
bool odirect_ok(struct inode *inode)
{
    return !S_ISREG(inode->i_mode) || (inode->i_mapping && inode->i_mapping->a_ops &&
                                       inode->i_mapping->a_ops->bmap);
}

/* i_writecount and i_readcount of every inode (simplified on purpose: one
 * lock where Linux has atomics). */
static DEFINE_SPINLOCK(inode_wc_lock);

int get_write_access(struct inode *inode)
{
    int err = 0;
    spin_lock(&inode_wc_lock);
    if (inode->i_writecount < 0)
        err = -ETXTBSY;
    else
        inode->i_writecount++;
    spin_unlock(&inode_wc_lock);
    return err;
}

void put_write_access(struct inode *inode)
{
    spin_lock(&inode_wc_lock);
    WARN_ON(inode->i_writecount <= 0);
    inode->i_writecount--;
    spin_unlock(&inode_wc_lock);
}

int deny_write_access(struct inode *inode)
{
    int err = 0;
    spin_lock(&inode_wc_lock);
    if (inode->i_writecount > 0)
        err = -ETXTBSY;
    else
        inode->i_writecount--;
    spin_unlock(&inode_wc_lock);
    return err;
}

void allow_write_access(struct inode *inode)
{
    spin_lock(&inode_wc_lock);
    WARN_ON(inode->i_writecount >= 0);
    inode->i_writecount++;
    spin_unlock(&inode_wc_lock);
}

/* Undo what fmode's FMODE_WRITER, FMODE_EXEC and FMODE_READER counted. */
static void put_open_counts(struct inode *inode, unsigned int fmode)
{
    if (fmode & FMODE_WRITER)
        put_write_access(inode);
    if (fmode & FMODE_EXEC)
        allow_write_access(inode);
    if (fmode & FMODE_READER) {
        spin_lock(&inode_wc_lock);
        inode->i_readcount--;
        spin_unlock(&inode_wc_lock);
    }
}

/* A struct file for path p (whose reference it takes over), not yet
 * ->open'ed; on -ENOMEM the reference is dropped. */
static struct file *alloc_file(struct path *p, int flags, unsigned int fmode)
{
    struct file *f = kmalloc(sizeof *f, GFP_KERNEL);
    if (!f) {
        path_put(p);
        return ERR_PTR(-ENOMEM);
    }
    memset(f, 0, sizeof *f);
    f->f_path = *p;
    f->f_inode = p->inode;
    f->f_op = (fmode & FMODE_PATH) ? NULL : p->inode->i_fop;
    f->f_mapping = p->inode->i_mapping;
    f->f_flags = flags;
    f->f_mode = fmode;
    f->f_count = 1;
    mutex_init(&f->f_pos_lock);
    return f;
}

/* O_TMPFILE: a new regular file in the directory name, with no name
 * (Linux's vfs_tmpfile).  Simplified on purpose: Linux's file systems
 * make an inode that never had a name (->tmpfile); here the directory's
 * create and unlink make it under a hidden name, both under the
 * directory's i_mutex, so a readdir never sees it but a crash in between
 * may leave ".vellum-tmpfile-N" behind (on ext3 the unlink puts the inode
 * on the orphan list, as Linux's tmpfile does).  Without O_EXCL linkat may
 * give it a name later (I_LINKABLE).  *res: the file's path. */
static int open_tmpfile(const char *name, int flags, mode_t mode, struct path *res)
{
    static unsigned long tmp_seq;
    struct path dir;
    int err = kern_path(name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dir);
    if (err)
        return err;
    struct inode *d = dir.inode, *inode = NULL;
    char tmp[40];
    mutex_lock(&d->i_mutex);
    if (IS_DEADDIR(d))
        err = -ENOENT;
    else if (dir.mnt->mnt_sb->s_flags & MS_RDONLY)
        err = -EROFS;
    else if ((err = may_create(d)))
        ;
    else if (!d->i_op->create || !d->i_op->unlink)
        err = -EOPNOTSUPP;             /* Linux: no ->tmpfile */
    if (!err) {
        size_t len = snprintf(tmp, sizeof tmp, ".vellum-tmpfile-%lu", ++tmp_seq);
        err = d->i_op->create(d, tmp, len, (mode & 07777) | S_IFREG, &inode);
        if (!err) {
            err = d->i_op->unlink(d, tmp, len);
            if (err) {
                iput(inode);
                inode = NULL;
            }
        }
    }
    mutex_unlock(&d->i_mutex);
    if (!err) {
        if (!(flags & O_EXCL))
            inode->i_state |= I_LINKABLE;
        res->mnt = mntget(dir.mnt);
        res->inode = inode;
    }
    path_put(&dir);
    return err;
}

/* The lookup an open that creates nothing makes (Linux's build_open_flags,
 * its lookup_flags): a last symlink followed unless O_NOFOLLOW, a
 * directory wanted under O_DIRECTORY. */
static unsigned open_lookup_flags(int flags)
{
    unsigned lf = (flags & O_NOFOLLOW) ? 0 : LOOKUP_FOLLOW;
    if (flags & O_DIRECTORY)
        lf |= LOOKUP_DIRECTORY;
    return lf;
}

struct file *filp_open(const char *name, int flags, mode_t mode)
{
    struct path p;
    int err, acc = flags & O_ACCMODE;
    unsigned fmode;

    if (acc == O_RDONLY)
        fmode = FMODE_READ;
    else if (acc == O_WRONLY)
        fmode = FMODE_WRITE;
    else if (acc == O_RDWR)
        fmode = FMODE_READ | FMODE_WRITE;
    else
        fmode = 0;                      /* 3: neither (Linux's OPEN_FMODE) */
    bool may_write = acc != O_RDONLY;   /* what the open is checked for */
    /* The permission asked (Linux's ACC_MODE and build_open_flags): read
     * for O_RDONLY, write for O_WRONLY, both for O_RDWR and for 3; O_TRUNC
     * adds write; execve's open asks for execute only. */
    int acc_mask = acc == O_RDONLY ? MAY_READ : acc == O_WRONLY ? MAY_WRITE
                                              : MAY_READ | MAY_WRITE;
    if (flags & O_TRUNC)
        acc_mask |= MAY_WRITE;
    if (flags & __FMODE_EXEC)
        acc_mask = MAY_EXEC;
    int created = 0;

    if (flags & O_PATH) {
        /* O_PATH: only O_DIRECTORY, O_NOFOLLOW and O_CLOEXEC count
         * (Linux's build_open_flags); the file itself is not checked nor
         * opened, and a symlink under O_NOFOLLOW is the link itself */
        flags &= O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
        fmode = FMODE_PATH;
        err = kern_path(name, open_lookup_flags(flags), &p);
        if (err)
            return ERR_PTR(err);
        if ((flags & O_DIRECTORY) && !S_ISDIR(p.inode->i_mode)) {
            path_put(&p);
            return ERR_PTR(-ENOTDIR);
        }
        return alloc_file(&p, flags, fmode);
    }
    if (flags & __O_TMPFILE) {
        err = open_tmpfile(name, flags, mode, &p);
        created = 1;
    } else if (flags & O_CREAT) {
        err = open_create(name, flags, mode, &p, &created);
    } else {
        err = kern_path(name, open_lookup_flags(flags), &p);
    }
    if (err)
        return ERR_PTR(err);
    struct inode *inode = p.inode;
    err = 0;
    if (S_ISLNK(inode->i_mode))
        err = -ELOOP;                   /* O_NOFOLLOW on a symlink */
    else if (S_ISDIR(inode->i_mode) && (flags & O_CREAT))
        err = -EISDIR;                  /* whatever the access mode (Linux's do_open) */
    else if ((flags & O_DIRECTORY) && !(flags & __O_TMPFILE) && !S_ISDIR(inode->i_mode))
        err = -ENOTDIR;
    else if (S_ISDIR(inode->i_mode) && (may_write || (flags & O_TRUNC)))
        err = -EISDIR;                  /* O_TRUNC asks for writing (may_open) */
    else if ((may_write || (flags & O_TRUNC)) &&
             (inode->i_sb->s_flags & MS_RDONLY) && S_ISREG(inode->i_mode))
        err = -EROFS;                   /* a device or FIFO there is writable (inode_permission) */
    else if (S_ISDIR(inode->i_mode) && (acc_mask & MAY_EXEC))
        err = -EACCES;                  /* execve of a directory (may_open) */
    else if (!created && (err = inode_permission(inode, acc_mask)))
        ;                               /* a file this open created is not checked */
    else if ((flags & O_NOATIME) && !inode_owner_or_capable(inode))
        err = -EPERM;
    else if ((flags & O_DIRECT) && !odirect_ok(inode))
        err = -EINVAL;
    /* The open counts of a regular file (Linux's do_dentry_open): a
     * writer is refused while the file runs, execve while a writer has
     * it; then a lease of another holder is broken (may sleep). */
    if (!err && S_ISREG(inode->i_mode)) {
        if (fmode & FMODE_WRITE) {
            err = get_write_access(inode);
            fmode |= err ? 0 : FMODE_WRITER;
        } else if (flags & __FMODE_EXEC) {
            err = deny_write_access(inode);
            fmode |= err ? 0 : FMODE_EXEC;
        }
        if (!err) {
            err = break_lease(inode, (fmode & FMODE_WRITE) != 0, flags & O_NONBLOCK);
            if (err)
                put_open_counts(inode, fmode);
        }
    }
    if (err) {
        path_put(&p);
        return ERR_PTR(err);
    }
    struct file *f = alloc_file(&p, flags, fmode);
    if (IS_ERR(f)) {
        put_open_counts(inode, fmode);
        return f;
    }
    if (f->f_op && f->f_op->open) {
        err = f->f_op->open(inode, f);
        if (err) {
            put_open_counts(inode, fmode);
            path_put(&f->f_path);
            kfree(f);
            return ERR_PTR(err);
        }
    }
    /* counted once ->open accepted it (Linux's i_readcount_inc) */
    if (S_ISREG(inode->i_mode) && (fmode & (FMODE_READ | FMODE_WRITE)) == FMODE_READ) {
        spin_lock(&inode_wc_lock);
        inode->i_readcount++;
        spin_unlock(&inode_wc_lock);
        f->f_mode |= FMODE_READER;
    }
    /* O_TRUNC once the open is accepted (Linux's handle_truncate after
     * vfs_open): a file the open refused is left as it was, and one it
     * created is empty already: not truncated, so a non-root creator's
     * S_ISGID stays (a truncate by non-root clears the set-ID bits) */
    if ((flags & O_TRUNC) && !created && S_ISREG(inode->i_mode) && (fmode & FMODE_WRITE)) {
        err = do_truncate(inode, 0, ATTR_MTIME | ATTR_CTIME);
        if (err) {
            filp_close(f);
            return ERR_PTR(err);
        }
    }
    /* after ->open, which may look at them (a tty's O_NOCTTY) */
    f->f_flags &= ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | __FMODE_EXEC);
    return f;
}

/**
 * generic_file_open - the open of a regular file whose size may pass 2 GiB
 * Return: -EOVERFLOW if the file is larger than MAX_NON_LFS and was not
 * opened with O_LARGEFILE (a program whose off_t is 32 bits could not
 * address it), else 0.  Linux's; ext2 calls it, ramfs does not (as in
 * Linux, a ramfs file of any size opens).
 */
int generic_file_open(struct inode *inode, struct file *file)
{
    if (!(file->f_flags & O_LARGEFILE) && inode->i_size > (loff_t)MAX_NON_LFS)
        return -EOVERFLOW;
    return 0;
}

/* f_count changes by locked instructions (Linux's atomic_long_t): a
 * read(2) or write(2) without the big kernel lock drops its reference
 * while another CPU's close or fork changes the count. */
struct file *get_file(struct file *file)
{
    __atomic_add_fetch(&file->f_count, 1, __ATOMIC_SEQ_CST);
    return file;
}

static void __fput(struct file *file);

/* The last reference runs the release under the big kernel lock: the
 * drivers' and filesystems' ->release, the locks, the dentry and inode
 * still need it, and the last fput may come from a read or write that
 * runs without it (another thread closed the fd meanwhile). */
int filp_close(struct file *file)
{
    if (!file)
        return -EBADF;
    if (__atomic_sub_fetch(&file->f_count, 1, __ATOMIC_SEQ_CST) > 0)
        return 0;
    lock_kernel();
    __fput(file);
    unlock_kernel();
    return 0;
}

static void __fput(struct file *file)
{
    if (file->f_mode & FMODE_PATH) {
        path_put(&file->f_path);
        kfree(file);
        return;
    }
    if (file->f_flags & FASYNC && file->f_op && file->f_op->fasync)
        file->f_op->fasync(file, 0);
    locks_remove_flock(file);
    if (file->f_op && file->f_op->release)
        file->f_op->release(file->f_inode, file);
    put_open_counts(file->f_inode, file->f_mode);
    path_put(&file->f_path);
    kfree(file);
}
