/* fs/open.c: opening and closing files.  filp_open resolves the path
 * (creating the file under O_CREAT, refusing an existing one under O_EXCL),
 * checks the kind against the flags and the caller's permission
 * (inode_permission: read, write, execute as the flags ask), lets the file
 * system's open refuse it, truncates under O_TRUNC and returns a struct file holding a
 * reference on the path.  Sits on fs/namei.c.
 *
 * The file keeps the flags that describe it (the access mode, O_APPEND,
 * O_NONBLOCK, O_SYNC, O_LARGEFILE...: what fcntl(F_GETFL) reports) and
 * forgets those that only steered the open (O_CREAT, O_EXCL, O_NOCTTY,
 * O_TRUNC), as Linux's do_dentry_open.  The access mode 3 (O_ACCMODE) is
 * Linux's "neither": the file can be neither read nor written (ioctl only),
 * but opening it needs what a write needs.
 */
#include <kernel.h>
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

    if (flags & O_CREAT) {
        err = open_create(name, flags, mode, &p, &created);
    } else {
        unsigned lf = (flags & O_NOFOLLOW) ? 0 : LOOKUP_FOLLOW;
        if (flags & O_DIRECTORY)
            lf |= LOOKUP_DIRECTORY;
        err = kern_path(name, lf, &p);
    }
    if (err)
        return ERR_PTR(err);
    struct inode *inode = p.inode;
    err = 0;
    if (S_ISLNK(inode->i_mode))
        err = -ELOOP;                   /* O_NOFOLLOW on a symlink */
    else if (S_ISDIR(inode->i_mode) && (flags & O_CREAT))
        err = -EISDIR;                  /* whatever the access mode (Linux's do_open) */
    else if ((flags & O_DIRECTORY) && !S_ISDIR(inode->i_mode))
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
    if (err) {
        path_put(&p);
        return ERR_PTR(err);
    }
    struct file *f = kmalloc(sizeof *f, GFP_KERNEL);
    if (!f) {
        path_put(&p);
        return ERR_PTR(-ENOMEM);
    }
    memset(f, 0, sizeof *f);
    f->f_path = p;
    f->f_inode = inode;
    f->f_op = inode->i_fop;
    f->f_mapping = inode->i_mapping;
    f->f_flags = flags;
    f->f_mode = fmode;
    f->f_count = 1;
    mutex_init(&f->f_pos_lock);
    if (f->f_op && f->f_op->open) {
        err = f->f_op->open(inode, f);
        if (err) {
            path_put(&f->f_path);
            kfree(f);
            return ERR_PTR(err);
        }
    }
    /* O_TRUNC once the open is accepted (Linux's handle_truncate after
     * vfs_open): a file the open refused is left as it was */
    if ((flags & O_TRUNC) && S_ISREG(inode->i_mode) && (fmode & FMODE_WRITE)) {
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

struct file *get_file(struct file *file)
{
    file->f_count++;
    return file;
}

int filp_close(struct file *file)
{
    if (!file)
        return -EBADF;
    if (--file->f_count > 0)
        return 0;
    locks_remove_flock(file);
    if (file->f_op && file->f_op->release)
        file->f_op->release(file->f_inode, file);
    path_put(&file->f_path);
    kfree(file);
    return 0;
}
