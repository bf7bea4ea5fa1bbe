/* fs/namei.c: path names.  Walking a path component by component
 * (kern_path), with mounts crossed both ways, symlinks followed in the
 * middle and (with LOOKUP_FOLLOW) at the end, and the directory operations
 * built on it: mkdir, mknod, rmdir, unlink, rename, link, symlink, readlink,
 * truncate, getcwd, and a file's name for /proc (file_path_name).  Sits
 * on the inode cache and the mount table; calls the filesystems'
 * inode_operations with the parent directory's i_mutex held.
 *
 * Errors, as POSIX and Linux:
 *   ENOENT        a component does not exist, or the path is empty
 *   ENOTDIR       a non-final component (or a final one followed by '/') is
 *                 not a directory
 *   ENAMETOOLONG  a component longer than NAME_MAX, a path of PATH_MAX or more
 *   ELOOP         more than MAXSYMLINKS symlinks in one lookup, or symlinks
 *                 nested deeper than MAX_NESTED_LINKS (a symlink whose target
 *                 has a symlink in its middle, whose target ...; a symlink
 *                 at the end of a target is followed in a loop, not nested)
 *   EACCES        no search permission on a directory of the path (every
 *                 one a name is looked up in, the last name's parent
 *                 included), checked before that name's length or
 *                 existence; no write permission on the directory an
 *                 operation changes (may_create, may_delete:
 *                 fs/permission.c)
 *   EPERM         the sticky bit (may_delete)
 *   EEXIST, ENOTEMPTY, EXDEV, EISDIR, EBUSY, EINVAL for the operations
 * Which comes first is Linux's: a component is checked for being a
 * directory before the next one's length (so "file/<256 bytes>" is
 * ENOTDIR, "missing/<256 bytes>" ENOENT), and the last component's length
 * only once its parent is found.
 *
 * A removed directory (S_DEAD, include/fs.h) has nothing in it: lookups
 * and creations there are -ENOENT; its "." and ".." still resolve.
 * Following a symlink touches its access time (relatime), as Linux's walk.
 *
 * Simplification (see include/fs.h): no dentry cache.  Every component is
 * a call to the directory's ->lookup, and ".." asks the filesystem too.
 * Linux nests up to MAXSYMLINKS links in the middle of targets on a stack
 * of its own; here that nesting is recursion on the kernel stack, so it
 * stops at MAX_NESTED_LINKS.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include "internal.h"

#define MAX_NESTED_LINKS 8             /* recursion depth of symlink following */

struct nameidata {
    struct path root;                  /* where "/" and ".." stop */
    int total_links;                   /* symlinks followed so far */
    int depth;                         /* current nesting */
};

static DEFINE_MUTEX(rename_mutex);     /* Linux's s_vfs_rename_mutex: the tree's
                                          shape for the subtree check */

int is_dots_name(const char *name, size_t len)
{
    return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

/* dir->i_op->lookup, with dir's i_mutex held by the caller: nothing but ".."
 * is found in a removed directory (Linux's IS_DEADDIR test in its lookups). */
static int lookup_locked(struct inode *dir, const char *name, size_t len, struct inode **res)
{
    if (IS_DEADDIR(dir) && !(len == 2 && name[0] == '.' && name[1] == '.'))
        return -ENOENT;
    return dir->i_op->lookup(dir, name, len, res);
}

int vfs_lookup_one(struct inode *dir, const char *name, size_t len, struct inode **res)
{
    if (!S_ISDIR(dir->i_mode) || !dir->i_op->lookup)
        return -ENOTDIR;
    mutex_lock(&dir->i_mutex);
    int err = lookup_locked(dir, name, len, res);
    mutex_unlock(&dir->i_mutex);
    return err;
}

/* Step down into whatever is mounted on p (repeatedly). */
static void follow_mount(struct path *p)
{
    struct vfsmount *m;
    while ((m = lookup_mnt(p->mnt, p->inode)) != NULL) {
        struct path next = { m, m->mnt_sb->s_root };
        path_get(&next);
        path_put(p);
        *p = next;
    }
}

/* "..": stay at the walk's root; at a mount's root, first climb to the mount
 * point in the parent mount (as often as needed); then ask the filesystem. */
static int follow_dotdot(struct nameidata *nd, struct path *p)
{
    for (;;) {
        if (p->mnt == nd->root.mnt && p->inode == nd->root.inode)
            return 0;
        if (p->inode != p->mnt->mnt_sb->s_root)
            break;
        if (p->mnt->mnt_parent == p->mnt)
            return 0;                   /* the global root */
        struct path up = { p->mnt->mnt_parent, p->mnt->mnt_mountpoint };
        path_get(&up);
        path_put(p);
        *p = up;
    }
    struct inode *parent;
    int err = vfs_lookup_one(p->inode, "..", 2, &parent);
    if (err)
        return err;
    iput(p->inode);
    p->inode = parent;
    follow_mount(p);
    return 0;
}

static int link_path_walk(struct nameidata *nd, const char *name, struct path *path,
                          unsigned flags);

char *vfs_get_link(const struct path *link)
{
    struct inode *inode = link->inode;
    if (!inode->i_op->readlink)
        return ERR_PTR(-EINVAL);
    char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
    if (!buf)
        return ERR_PTR(-ENOMEM);
    int n = inode->i_op->readlink(inode, buf, PATH_MAX - 1);
    if (n <= 0) {
        kfree(buf);
        return ERR_PTR(n < 0 ? n : -ENOENT);
    }
    buf[n] = '\0';
    touch_atime(link);
    return buf;
}

/* The body of the symlink *link, counted against MAXSYMLINKS: as Linux's
 * pick_link, the 41st link one lookup follows is -ELOOP. */
static char *get_link(struct nameidata *nd, const struct path *link)
{
    if (++nd->total_links > MAXSYMLINKS)
        return ERR_PTR(-ELOOP);
    return vfs_get_link(link);
}

/* A magic link: *link becomes the path it stands for.  Counted as a link. */
static int jump_link(struct nameidata *nd, struct path *link)
{
    if (++nd->total_links > MAXSYMLINKS)
        return -ELOOP;
    struct path to;
    int err = link->inode->i_op->get_path(link->inode, &to);
    if (err)
        return err;
    path_put(link);
    *link = to;
    return 0;
}

/* Replace *link (a symlink found in the middle of a name, in directory dir)
 * by what it points to. */
static int follow_link(struct nameidata *nd, const struct path *dir, struct path *link)
{
    if (link->inode->i_op->get_path)
        return jump_link(nd, link);
    if (nd->depth >= MAX_NESTED_LINKS)
        return -ELOOP;
    char *buf = get_link(nd, link);
    if (IS_ERR(buf))
        return PTR_ERR(buf);
    struct path p = *dir;
    path_get(&p);
    nd->depth++;
    int err = link_path_walk(nd, buf, &p, LOOKUP_FOLLOW);
    nd->depth--;
    kfree(buf);
    if (err) {
        path_put(&p);
        return err;
    }
    path_put(link);
    *link = p;
    return 0;
}

/* Walk name from *path (a referenced path that the result replaces).  A
 * symlink that is the last component (and is to be followed) is replaced
 * by its target in place: the walk goes on with the target's text from the
 * directory holding the link, in this loop, so a chain of links costs no
 * stack.  A symlink in the middle is resolved by follow_link (recursion). */
static int link_path_walk(struct nameidata *nd, const char *name, struct path *path,
                          unsigned flags)
{
    char *body = NULL;                 /* the target text name now points into */
    int err = 0;
    for (;;) {                          /* once per name: the given one, then targets */
        if (*name == '/') {
            path_put(path);
            *path = nd->root;
            path_get(path);
            while (*name == '/')
                name++;
        }
        if (!*name) {
            if ((flags & LOOKUP_DIRECTORY) && !S_ISDIR(path->inode->i_mode))
                err = -ENOTDIR;
            goto out;
        }
        for (;;) {
            size_t len = 0;
            while (name[len] && name[len] != '/')
                len++;
            const char *next = name + len;
            int trailing = 0;
            while (*next == '/') {
                next++;
                trailing = 1;
            }
            int last = (*next == '\0');
            if (!S_ISDIR(path->inode->i_mode)) {
                err = -ENOTDIR;
                goto out;
            }
            err = inode_permission(path->inode, MAY_EXEC);   /* Linux's may_lookup */
            if (err)
                goto out;
            if (len > NAME_MAX) {
                err = -ENAMETOOLONG;
                goto out;
            }
            if (len == 1 && name[0] == '.') {
                /* stay */
            } else if (len == 2 && name[0] == '.' && name[1] == '.') {
                err = follow_dotdot(nd, path);
                if (err)
                    goto out;
            } else {
                struct inode *child;
                err = vfs_lookup_one(path->inode, name, len, &child);
                if (err)
                    goto out;
                struct path np = { mntget(path->mnt), child };
                follow_mount(&np);
                if (S_ISLNK(np.inode->i_mode) && last && (trailing || (flags & LOOKUP_FOLLOW)) &&
                    np.inode->i_op->get_path) {
                    err = jump_link(nd, &np);   /* a magic link: there, and done */
                    if (err) {
                        path_put(&np);
                        goto out;
                    }
                    path_put(path);
                    *path = np;
                    if ((trailing || (flags & LOOKUP_DIRECTORY)) && !S_ISDIR(path->inode->i_mode))
                        err = -ENOTDIR;
                    goto out;
                }
                if (S_ISLNK(np.inode->i_mode) && last && (trailing || (flags & LOOKUP_FOLLOW))) {
                    /* a trailing symlink: go on with its target from here */
                    char *target = get_link(nd, &np);
                    path_put(&np);
                    if (IS_ERR(target)) {
                        err = PTR_ERR(target);
                        goto out;
                    }
                    kfree(body);
                    name = body = target;
                    flags |= LOOKUP_FOLLOW | (trailing ? LOOKUP_DIRECTORY : 0);
                    break;
                }
                if (S_ISLNK(np.inode->i_mode) && !last) {
                    err = follow_link(nd, path, &np);
                    if (err) {
                        path_put(&np);
                        goto out;
                    }
                }
                path_put(path);
                *path = np;
            }
            if (last) {
                if ((trailing || (flags & LOOKUP_DIRECTORY)) && !S_ISDIR(path->inode->i_mode))
                    err = -ENOTDIR;
                goto out;
            }
            name = next;
        }
    }
out:
    kfree(body);
    return err;
}

static int check_name(const char *name)
{
    if (!name)
        return -EFAULT;
    size_t len = strnlen(name, PATH_MAX);
    if (len >= PATH_MAX)
        return -ENAMETOOLONG;
    if (len == 0)
        return -ENOENT;
    return 0;
}

/* kern_path, a relative name starting at *start (NULL: the cwd). */
static int kern_path_at(const struct path *start, const char *name, unsigned int flags,
                        struct path *res)
{
    struct nameidata nd = { .total_links = 0, .depth = 0 };
    struct path p;
    int err = check_name(name);
    if (err)
        return err;
    get_fs_root(&nd.root);
    if (!nd.root.mnt) {
        path_put(&nd.root);
        return -ENOENT;                 /* nothing mounted yet */
    }
    if (name[0] == '/') {
        p = nd.root;
        path_get(&p);
    } else if (start) {
        p = *start;
        path_get(&p);
    } else {
        get_fs_pwd(&p);
    }
    err = link_path_walk(&nd, name, &p, flags);
    path_put(&nd.root);
    if (err) {
        path_put(&p);
        return err;
    }
    *res = p;
    return 0;
}

int kern_path(const char *name, unsigned int flags, struct path *res)
{
    return kern_path_at(NULL, name, flags, res);
}

int path_parent(const struct path *start, const char *name, struct path *parent,
                const char **last, size_t *len, char **bufp, int *trailing_slash)
{
    int err = check_name(name);
    if (err)
        return err;
    size_t n = strlen(name);
    char *buf = kmalloc(n + 1, GFP_KERNEL);
    if (!buf)
        return -ENOMEM;
    memcpy(buf, name, n + 1);
    *trailing_slash = 0;
    while (n > 1 && buf[n - 1] == '/') {
        buf[--n] = '\0';
        *trailing_slash = 1;
    }
    const char *dir;
    char *slash = strrchr(buf, '/');
    if (!slash) {
        dir = ".";
        *last = buf;
    } else if (slash == buf) {
        dir = "/";
        *last = buf + 1;
    } else {
        *slash = '\0';
        dir = buf;
        *last = slash + 1;
    }
    *len = strlen(*last);
    err = kern_path_at(start, dir, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, parent);
    if (!err && *len) {                /* the last name is looked up in it: search */
        err = inode_permission(parent->inode, MAY_EXEC);
        if (err)
            path_put(parent);
    }
    if (!err && *len > NAME_MAX) {     /* the parent's errors come first */
        path_put(parent);
        err = -ENAMETOOLONG;
    }
    if (err) {
        kfree(buf);
        return err;
    }
    *bufp = buf;
    return 0;
}

/* ---- the directory operations ------------------------------------------ */

struct parent_op {
    struct path parent;
    const char *name;
    size_t len;
    char *buf;
    int trailing;
};

static int get_parent(const char *path, struct parent_op *op)
{
    return path_parent(NULL, path, &op->parent, &op->name, &op->len, &op->buf, &op->trailing);
}

static void put_parent(struct parent_op *op)
{
    path_put(&op->parent);
    kfree(op->buf);
}

static int rdonly(struct path *p)
{
    return (p->mnt->mnt_sb->s_flags & MS_RDONLY) != 0;
}

/* The shared front half of mkdir, link and symlink (Linux's
 * filename_create): may op's last component be created?  Takes the parent
 * directory's i_mutex, looks the name up under it and answers, in this order:
 *   -EEXIST   the name is "", ".", ".." or already exists (even on a
 *             read-only filesystem, as Linux: "mkdir -p" relies on it)
 *   other     the lookup failed otherwise (-EIO; -ENOENT: the directory
 *             was removed)
 *   -ENOENT   the name ends in '/' and is not to be a directory (link,
 *             symlink: want_dir is 0)
 *   -EROFS    the parent's filesystem is mounted read-only
 *   -EACCES   no write or search permission on the directory (may_create)
 *   -EPERM    the directory has no such operation (has_op is 0)
 *   0         go ahead: the i_mutex is still held; the caller calls the
 *             directory operation, then done_path_create().
 * On an error nothing is held (the parent path stays the caller's). */
static int filename_create(struct parent_op *op, int has_op, int want_dir)
{
    struct inode *dir = op->parent.inode, *ex;
    if (op->len == 0 || is_dots_name(op->name, op->len))
        return -EEXIST;
    mutex_lock(&dir->i_mutex);
    int err = lookup_locked(dir, op->name, op->len, &ex);
    if (err == 0) {
        iput(ex);
        err = -EEXIST;
    } else if (err == -ENOENT && !IS_DEADDIR(dir)) {
        err = op->trailing && !want_dir ? -ENOENT :
              rdonly(&op->parent) ? -EROFS : may_create(dir);
        if (!err && !has_op)
            err = -EPERM;
    }
    if (err)
        mutex_unlock(&dir->i_mutex);
    return err;
}

/* Linux's done_path_create: the directory operation is done. */
static void done_path_create(struct parent_op *op)
{
    mutex_unlock(&op->parent.inode->i_mutex);
}

int vfs_mkdir(const char *path, mode_t mode)
{
    struct parent_op op;
    struct inode *dir;
    int err = get_parent(path, &op);
    if (err)
        return err;
    dir = op.parent.inode;
    err = filename_create(&op, dir->i_op->mkdir != NULL, 1);
    if (!err) {
        /* the permission bits and the sticky bit: never set-id (Linux's vfs_mkdir) */
        err = dir->i_op->mkdir(dir, op.name, op.len, (mode & (0777 | S_ISVTX)) | S_IFDIR);
        done_path_create(&op);
    }
    put_parent(&op);
    return err;
}

int vfs_mknod(const char *path, mode_t mode, dev_t rdev)
{
    struct parent_op op;
    int err = get_parent(path, &op);
    if (err)
        return err;
    struct inode *dir = op.parent.inode;
    err = filename_create(&op, dir->i_op->mknod != NULL, 0);
    if (!err && (S_ISCHR(mode) || S_ISBLK(mode)) && !capable(CAP_MKNOD)) {
        done_path_create(&op);
        err = -EPERM;                  /* after create's checks, as Linux's vfs_mknod */
    } else if (!err) {
        err = dir->i_op->mknod(dir, op.name, op.len, mode, rdev);
        done_path_create(&op);
    }
    put_parent(&op);
    return err;
}

/* Remove name from its directory: rmdir (isdir = 1) or unlink (0). */
static int do_remove(const char *path, int isdir)
{
    struct parent_op op;
    struct inode *dir, *victim = NULL;
    int err = get_parent(path, &op);
    if (err)
        return err;
    dir = op.parent.inode;
    if (op.len == 0)
        err = isdir ? -EBUSY : -EISDIR;         /* "/" */
    else if (is_dots_name(op.name, op.len))
        err = !isdir ? -EISDIR : op.len == 1 ? -EINVAL : -ENOTEMPTY;
    else if (rdonly(&op.parent))
        err = -EROFS;
    else if (!(isdir ? dir->i_op->rmdir : dir->i_op->unlink))
        err = -EPERM;
    else {
        mutex_lock(&dir->i_mutex);
        err = lookup_locked(dir, op.name, op.len, &victim);
        if (err)
            victim = NULL;
        else if (!isdir && op.trailing)         /* Linux's "slashes": before may_delete */
            err = S_ISDIR(victim->i_mode) ? -EISDIR : -ENOTDIR;
        else if ((err = may_delete(dir, victim, isdir)))
            ;                                   /* -EACCES, sticky -EPERM, the kinds */
        else if (lookup_mnt(op.parent.mnt, victim))
            err = -EBUSY;                       /* a mount point */
        else
            err = isdir ? dir->i_op->rmdir(dir, op.name, op.len)
                        : dir->i_op->unlink(dir, op.name, op.len);
        if (!err && isdir)
            victim->i_flags |= S_DEAD;          /* a cwd in it stays, empty */
        mutex_unlock(&dir->i_mutex);
    }
    iput(victim);                       /* the last reference frees an unlinked inode */
    put_parent(&op);
    return err;
}

int vfs_rmdir(const char *path) { return do_remove(path, 1); }
int vfs_unlink(const char *path) { return do_remove(path, 0); }

/* Is inode an ancestor of (or equal to) dir, within dir's filesystem? */
static int is_ancestor(struct inode *inode, struct inode *dir)
{
    struct inode *cur = igrab(dir);
    int found = 0;
    while (cur) {
        if (cur == inode) {
            found = 1;
            break;
        }
        if (cur == cur->i_sb->s_root)
            break;
        struct inode *up;
        if (vfs_lookup_one(cur, "..", 2, &up))
            break;
        if (up == cur) {
            iput(up);
            break;
        }
        iput(cur);
        cur = up;
    }
    iput(cur);
    return found;
}

/* RENAME_EXCHANGE of old (odir/oname) and target (ndir/nname), both
 * directories' i_mutex held: three renames of the file system through a
 * temporary name in odir (simplified on purpose: Linux asks the file
 * system for one atomic exchange, so no other name is ever seen and a
 * crash leaves one or the other; here a lookup in between may miss a
 * name, and a crash in the middle leaves the temporary name, which fsck
 * does not mind).  0 or the first failure, undone as far as it went. */
static int rename_exchange(struct inode *odir, const char *oname, size_t olen,
                           struct inode *ndir, const char *nname, size_t nlen,
                           struct inode *old)
{
    char tmp[40];
    size_t tlen = snprintf(tmp, sizeof tmp, ".vellum-exchange-%lu", old->i_ino);
    struct inode *ex;
    int err = lookup_locked(odir, tmp, tlen, &ex);
    if (!err) {
        iput(ex);
        return -EBUSY;                 /* a leftover: refuse rather than lose it */
    }
    if (err != -ENOENT)
        return err;
    err = odir->i_op->rename(odir, oname, olen, odir, tmp, tlen);
    if (err)
        return err;
    err = odir->i_op->rename(ndir, nname, nlen, odir, oname, olen);
    if (err) {
        WARN_ON(odir->i_op->rename(odir, tmp, tlen, odir, oname, olen));
        return err;
    }
    err = odir->i_op->rename(odir, tmp, tlen, ndir, nname, nlen);
    if (err) {
        WARN_ON(odir->i_op->rename(odir, oname, olen, ndir, nname, nlen));
        WARN_ON(odir->i_op->rename(odir, tmp, tlen, odir, oname, olen));
    }
    return err;
}

int vfs_rename(const char *oldpath, const char *newpath)
{
    return vfs_rename2(oldpath, newpath, 0);
}

int vfs_rename2(const char *oldpath, const char *newpath, unsigned int flags)
{
    struct parent_op o, n;
    struct inode *odir, *ndir, *old = NULL, *target = NULL;
    int err = get_parent(oldpath, &o);
    if (err)
        return err;
    err = get_parent(newpath, &n);
    if (err) {
        put_parent(&o);
        return err;
    }
    odir = o.parent.inode;
    ndir = n.parent.inode;
    if (o.parent.mnt != n.parent.mnt)
        err = -EXDEV;
    else if (o.len == 0 || n.len == 0 || is_dots_name(o.name, o.len) ||
             is_dots_name(n.name, n.len))
        err = -EBUSY;                   /* "/", ".", "..": Linux's type != LAST_NORM */
    else if (rdonly(&o.parent))
        err = -EROFS;
    else if (!odir->i_op->rename)
        err = -EPERM;
    if (err)
        goto out;

    mutex_lock(&rename_mutex);
    err = vfs_lookup_one(odir, o.name, o.len, &old);
    if (err) {
        old = NULL;
        goto out_unlock_rename;
    }
    if ((o.trailing || n.trailing) && !S_ISDIR(old->i_mode)) {
        err = -ENOTDIR;
        goto out_unlock_rename;
    }
    if (S_ISDIR(old->i_mode) && odir != ndir && is_ancestor(old, ndir)) {
        err = -EINVAL;                  /* a directory into its own subtree */
        goto out_unlock_rename;
    }
    /* both directories' i_mutex, lower address first (the second is
     * "nested" for the lock validator: the order is the address's) */
    if (odir == ndir) {
        mutex_lock(&odir->i_mutex);
    } else if (odir < ndir) {
        mutex_lock(&odir->i_mutex);
        mutex_lock_nested(&ndir->i_mutex, 1);
    } else {
        mutex_lock(&ndir->i_mutex);
        mutex_lock_nested(&odir->i_mutex, 1);
    }
    struct inode *t;
    err = lookup_locked(ndir, n.name, n.len, &t);
    target = err ? NULL : t;
    if (err == -ENOENT && !IS_DEADDIR(ndir))
        err = 0;                        /* no target (a removed directory takes none) */
    int isdir = S_ISDIR(old->i_mode);
    if (!err && (flags & RENAME_NOREPLACE) && target)
        err = -EEXIST;
    else if (!err && (flags & RENAME_EXCHANGE) && !target)
        err = -ENOENT;
    if (err || target == old)
        ;                               /* same file: nothing to do (POSIX) */
    else if (flags & RENAME_EXCHANGE) {
        bool tdir = S_ISDIR(target->i_mode);
        if ((err = may_delete(odir, old, isdir)) || (err = may_delete(ndir, target, tdir)))
            ;
        else if (odir != ndir && ((isdir && (err = inode_permission(old, MAY_WRITE))) ||
                                  (tdir && (err = inode_permission(target, MAY_WRITE)))))
            ;
        else if (tdir && odir != ndir && is_ancestor(target, odir))
            err = -EINVAL;              /* the target into its own subtree */
        else if (lookup_mnt(o.parent.mnt, old) || lookup_mnt(n.parent.mnt, target))
            err = -EBUSY;
        else
            err = rename_exchange(odir, o.name, o.len, ndir, n.name, n.len, old);
    }
    else if ((err = may_delete(odir, old, isdir)))
        ;
    else if ((err = target ? may_delete(ndir, target, isdir) : may_create(ndir)))
        ;                               /* the kinds: -ENOTDIR, -EISDIR */
    else if (isdir && odir != ndir && (err = inode_permission(old, MAY_WRITE)))
        ;                               /* its ".." changes */
    else if (lookup_mnt(o.parent.mnt, old) || (target && lookup_mnt(n.parent.mnt, target)))
        err = -EBUSY;
    else if (!(err = odir->i_op->rename(odir, o.name, o.len, ndir, n.name, n.len)) &&
             target && S_ISDIR(target->i_mode))
        target->i_flags |= S_DEAD;      /* an empty directory renamed over */
    mutex_unlock(&odir->i_mutex);
    if (odir != ndir)
        mutex_unlock(&ndir->i_mutex);
out_unlock_rename:
    mutex_unlock(&rename_mutex);
    iput(target);                       /* a replaced target is freed here */
    iput(old);
out:
    put_parent(&n);
    put_parent(&o);
    return err;
}

int vfs_link(const char *oldpath, const char *newpath)
{
    struct path oldp;
    int err = kern_path(oldpath, 0, &oldp);
    if (err)
        return err;
    err = vfs_link_path(&oldp, newpath);
    path_put(&oldp);
    return err;
}

int vfs_link_path(const struct path *old, const char *newpath)
{
    struct path oldp = *old;
    struct parent_op n;
    int err = get_parent(newpath, &n);
    if (err)
        return err;
    struct inode *dir = n.parent.inode;
    err = filename_create(&n, dir->i_op->link != NULL, 0);
    if (!err) {                         /* Linux's order: the new name, then these */
        if (oldp.mnt != n.parent.mnt)
            err = -EXDEV;
        else if (S_ISDIR(oldp.inode->i_mode))
            err = -EPERM;
        else if (!oldp.inode->i_nlink && !(oldp.inode->i_state & I_LINKABLE))
            err = -ENOENT;              /* unlinked while open (Linux's vfs_link) */
        else
            err = dir->i_op->link(oldp.inode, dir, n.name, n.len);
        if (!err)
            oldp.inode->i_state &= ~I_LINKABLE;   /* an O_TMPFILE file has a name now */
        done_path_create(&n);
    }
    put_parent(&n);
    return err;
}

int vfs_symlink(const char *target, const char *linkpath)
{
    struct parent_op n;
    int err = check_name(target);
    if (err)
        return err;
    err = get_parent(linkpath, &n);
    if (err)
        return err;
    struct inode *dir = n.parent.inode;
    err = filename_create(&n, dir->i_op->symlink != NULL, 0);
    if (!err) {
        err = dir->i_op->symlink(dir, n.name, n.len, target);
        done_path_create(&n);
    }
    put_parent(&n);
    return err;
}

int vfs_readlink(const char *path, char *buf, size_t size)
{
    struct path p;
    int err = kern_path(path, 0, &p);
    if (err)
        return err;
    if (!S_ISLNK(p.inode->i_mode) || !p.inode->i_op->readlink)
        err = -EINVAL;
    else
        err = p.inode->i_op->readlink(p.inode, buf, size);
    if (err >= 0)
        touch_atime(&p);
    path_put(&p);
    return err;
}

int do_truncate(struct inode *inode, loff_t length, unsigned int time_attrs)
{
    if (length < 0)
        return -EINVAL;
    if (S_ISDIR(inode->i_mode))
        return -EISDIR;
    if (!S_ISREG(inode->i_mode))
        return -EINVAL;
    if (inode->i_sb->s_flags & MS_RDONLY)
        return -EROFS;
    struct iattr attr = {
        .ia_valid = ATTR_SIZE | time_attrs,
        .ia_size = length,
    };
    attr.ia_mtime = attr.ia_ctime = current_time();
    mutex_lock(&inode->i_mutex);
    int kill = should_remove_suid(inode);        /* a non-root truncate clears the set-ID bits */
    if (kill)
        attr.ia_valid |= kill | ATTR_FORCE;
    int err = inode_newsize_ok(inode, length);   /* RLIMIT_FSIZE, s_maxbytes */
    if (!err)
        err = notify_change(inode, &attr);
    mutex_unlock(&inode->i_mutex);
    return err;
}

int vfs_truncate(const char *path, loff_t length)
{
    struct path p;
    int err = kern_path(path, LOOKUP_FOLLOW, &p);
    if (err)
        return err;
    /* Write permission, after do_truncate's -EINVAL, -EISDIR and -EROFS
     * (Linux's vfs_truncate); ftruncate needs a descriptor open for writing
     * instead. */
    if (length >= 0 && S_ISREG(p.inode->i_mode) && !(p.inode->i_sb->s_flags & MS_RDONLY))
        err = inode_permission(p.inode, MAY_WRITE);
    /* a running program's file: -ETXTBSY; a lease is broken first, as an
     * open for writing would (Linux's vfs_truncate) */
    bool writer = !err && S_ISREG(p.inode->i_mode) && length >= 0;
    if (writer) {
        err = get_write_access(p.inode);
        writer = !err;
        if (!err)
            err = break_lease(p.inode, true, false);
    }
    if (!err)
        err = do_truncate(p.inode, length, 0);   /* times: the filesystem's call */
    if (writer)
        put_write_access(p.inode);
    path_put(&p);
    return err;
}

/* ---- names from inodes: getcwd, and a file's name for /proc -------------
 *
 * Vellum keeps no dentries, so an inode knows no name of its own.  A
 * directory's is found by climbing: look up "..", find the entry with our
 * inode number in it, repeat up to the reader's root (crossing mounts at
 * their roots).  A file's (file_path_name, for /proc/PID/maps) is found by
 * searching the file system it was opened through, depth first from its
 * root, for a directory entry with its inode number; the name of the
 * mount's root is then the climb's.  Simplifications on purpose: a file
 * with several hard links shows the first name the search meets (Linux:
 * the name it was opened by), one that was unlinked "(deleted)" alone
 * (Linux: its old name and " (deleted)"), and the search gives up below
 * NAME_SEARCH_DEPTH directories.
 */

struct name_finder {
    struct dir_context ctx;
    unsigned long ino;
    char *name;                        /* NAME_MAX + 1 bytes */
    int found;
    char *subdirs;                     /* if not NULL: the names of the directories */
    size_t used, room;                 /* met, NUL-separated, up to room bytes */
};

static int find_name_actor(struct dir_context *ctx, const char *name, int len, loff_t pos,
                           unsigned long ino, unsigned int d_type)
{
    struct name_finder *f = container_of(ctx, struct name_finder, ctx);
    if (is_dots_name(name, len))
        return 0;
    if (ino == f->ino) {
        memcpy(f->name, name, len);
        f->name[len] = '\0';
        f->found = 1;
        return 1;
    }
    if (f->subdirs && (d_type == DT_DIR || d_type == DT_UNKNOWN) &&
        f->used + len + 1 <= f->room) {
        memcpy(f->subdirs + f->used, name, len);
        f->subdirs[f->used + len] = '\0';
        f->used += len + 1;
    }
    return 0;
}

/* Read the directory dir (of mount mnt) through f's actor, under its
 * i_mutex.  0, -ENOENT (f found nothing), or the file system's error. */
static int find_name_in(struct vfsmount *mnt, struct inode *dir, struct name_finder *f)
{
    struct file file;
    memset(&file, 0, sizeof file);
    file.f_path.mnt = mnt;
    file.f_path.inode = dir;
    file.f_inode = dir;
    file.f_op = dir->i_fop;
    file.f_mapping = dir->i_mapping;
    file.f_mode = FMODE_READ;
    int err = -ENOTDIR;
    if (file.f_op && file.f_op->iterate) {
        mutex_lock(&dir->i_mutex);
        err = file.f_op->iterate(&file, &f->ctx);
        mutex_unlock(&dir->i_mutex);
    }
    return err ? err : f->found ? 0 : -ENOENT;
}

/* The name of the directory cur, climbing to the reader's root, into buf:
 * its length with the NUL, -ENOENT (it was removed), -ERANGE (buf is too
 * small) or -ENAMETOOLONG.  Puts cur. */
static int climb_to_root(struct path cur, char *buf, size_t size)
{
    struct path root;
    char *tmp = kmalloc(PATH_MAX, GFP_KERNEL), *name = kmalloc(NAME_MAX + 1, GFP_KERNEL);
    int err = 0;
    if (!tmp || !name) {
        kfree(tmp);
        kfree(name);
        path_put(&cur);
        return -ENOMEM;
    }
    get_fs_root(&root);
    char *p = tmp + PATH_MAX - 1;
    *p = '\0';
    while (cur.inode && !(cur.mnt == root.mnt && cur.inode == root.inode)) {
        if (cur.inode == cur.mnt->mnt_sb->s_root) {
            if (cur.mnt->mnt_parent == cur.mnt)
                break;
            struct path up = { cur.mnt->mnt_parent, cur.mnt->mnt_mountpoint };
            path_get(&up);
            path_put(&cur);
            cur = up;
            continue;
        }
        struct inode *parent;
        err = vfs_lookup_one(cur.inode, "..", 2, &parent);
        if (err)
            break;
        struct name_finder nf = { { find_name_actor, 0 }, cur.inode->i_ino, name, 0, NULL, 0, 0 };
        err = find_name_in(cur.mnt, parent, &nf);    /* -ENOENT: cur was removed */
        if (err) {
            iput(parent);
            break;
        }
        size_t n = strlen(name);
        if ((size_t)(p - tmp) < n + 1) {
            iput(parent);
            err = -ENAMETOOLONG;
            break;
        }
        p -= n;
        memcpy(p, name, n);
        *--p = '/';
        iput(cur.inode);
        cur.inode = parent;
    }
    if (!err) {
        if (!*p)
            *--p = '/';
        size_t n = strlen(p) + 1;
        if (n > size)
            err = -ERANGE;
        else {
            memcpy(buf, p, n);
            err = (int)n;
        }
    }
    path_put(&cur);
    path_put(&root);
    kfree(tmp);
    kfree(name);
    return err;
}

int vfs_getcwd(char *buf, size_t size)
{
    struct path cur;
    get_fs_pwd(&cur);
    return climb_to_root(cur, buf, size);
}

#define NAME_SEARCH_DEPTH 16

/* Depth first below dir for an entry numbered ino; path[0..*len) is dir's
 * name, extended with what is found.  1 found, 0 not below dir, < 0 an
 * error. */
static int search_below(struct vfsmount *mnt, struct inode *dir, unsigned long ino,
                        char *path, size_t *len, size_t size, int depth)
{
    if (depth > NAME_SEARCH_DEPTH)
        return 0;
    char *name = kmalloc(NAME_MAX + 1, GFP_KERNEL), *subdirs = kmalloc(PAGE_SIZE, GFP_KERNEL);
    int r = -ENOMEM;
    if (!name || !subdirs)
        goto out;
    struct name_finder nf = { { find_name_actor, 0 }, ino, name, 0, subdirs, 0, PAGE_SIZE };
    r = find_name_in(mnt, dir, &nf);
    if (r == 0 || r != -ENOENT) {
        if (r == 0) {                  /* here: dir's name + "/" + name */
            size_t n = strlen(name);
            r = *len + 1 + n < size ? 1 : -ENAMETOOLONG;
            if (r == 1) {
                path[(*len)++] = '/';
                memcpy(path + *len, name, n + 1);
                *len += n;
            }
        }
        goto out;
    }
    r = 0;
    for (size_t i = 0; i < nf.used && r == 0; i += strlen(subdirs + i) + 1) {
        const char *sub = subdirs + i;
        size_t n = strlen(sub), was = *len;
        struct inode *child;
        if (*len + 1 + n >= size || vfs_lookup_one(dir, sub, n, &child))
            continue;
        if (S_ISDIR(child->i_mode)) {
            path[(*len)++] = '/';
            memcpy(path + *len, sub, n + 1);
            *len += n;
            r = search_below(mnt, child, ino, path, len, size, depth + 1);
            if (r <= 0)
                *len = was;            /* not there: back to dir's name */
        }
        iput(child);
    }
out:
    kfree(name);
    kfree(subdirs);
    return r;
}

int file_path_name(struct file *file, char *buf, size_t size)
{
    struct path p = file->f_path;
    if (!p.mnt || !p.inode)
        return -ENOENT;                /* a pipe's: no name */
    struct inode *inode = p.inode;
    if (S_ISDIR(inode->i_mode)) {
        path_get(&p);
        return climb_to_root(p, buf, size);
    }
    struct path top = { p.mnt, p.mnt->mnt_sb->s_root };
    path_get(&top);
    int n = climb_to_root(top, buf, size);     /* the mount's own name */
    if (n < 0)
        return n;
    size_t len = strcmp(buf, "/") ? (size_t)n - 1 : 0;
    int r = search_below(p.mnt, p.mnt->mnt_sb->s_root, inode->i_ino, buf, &len, size, 0);
    if (r < 0)
        return r;
    if (r == 0) {
        if (inode->i_nlink)
            return -ENOENT;            /* too deep to find */
        if (size < sizeof "(deleted)")
            return -ERANGE;
        strcpy(buf, "(deleted)");
        return sizeof "(deleted)";
    }
    return (int)len + 1;
}
