/* fs/namespace.c: the mount table.  A vfsmount attaches a superblock's root
 * over a directory (the mount point) of a parent mount; the first mount is
 * the root ("/").  Path walking (fs/namei.c) crosses mounts downwards with
 * lookup_mnt and upwards at a mount's root on "..".  do_umount refuses with
 * -EBUSY while anything holds a path into the mount (open file, cwd,
 * child mount) or an inode of it.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <blkdev.h>
#include <sched.h>
#include "internal.h"

struct vfsmount *root_mnt;
LIST_HEAD(vfsmount_list);
DEFINE_MUTEX(namespace_sem);
struct fs_struct init_fs = { .umask = 0022 };  /* root and cwd of tasks with fs == NULL */

unsigned int current_umask(void)
{
    return (current->fs ? current->fs : &init_fs)->umask;
}

struct vfsmount *mntget(struct vfsmount *mnt)
{
    if (mnt)
        mnt->mnt_count++;
    return mnt;
}

void mntput(struct vfsmount *mnt)
{
    if (mnt && WARN(--mnt->mnt_count < 0, "mntput: mount count below zero"))
        mnt->mnt_count = 0;
}

void path_get(struct path *p)
{
    if (p->inode)
        igrab(p->inode);
    mntget(p->mnt);
}

void path_put(struct path *p)
{
    if (p->inode)
        iput(p->inode);
    mntput(p->mnt);
    p->inode = NULL;
    p->mnt = NULL;
}

static struct fs_struct *cur_fs(void)
{
    return current->fs ? current->fs : &init_fs;
}

void get_fs_root(struct path *root)
{
    *root = cur_fs()->root;
    path_get(root);
}

void get_fs_pwd(struct path *pwd)
{
    *pwd = cur_fs()->pwd;
    path_get(pwd);
}

struct vfsmount *lookup_mnt(struct vfsmount *mnt, struct inode *inode)
{
    struct vfsmount *m;
    list_for_each_entry(m, &vfsmount_list, mnt_list)
        if (m != mnt && m->mnt_parent == mnt && m->mnt_mountpoint == inode)
            return m;
    return NULL;
}

int vfs_chdir(const char *name)
{
    struct path p;
    int err = kern_path(name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &p);
    if (err)
        return err;
    err = inode_permission(p.inode, MAY_EXEC);   /* search permission */
    if (err) {
        path_put(&p);
        return err;
    }
    struct fs_struct *fs = cur_fs();
    struct path old = fs->pwd;
    fs->pwd = p;
    path_put(&old);
    return 0;
}

int do_mount(const char *dev_name, const char *path, const char *fstype,
             unsigned long flags, const char *data)
{
    struct file_system_type *type = get_fs_type(fstype);
    struct path mp = { NULL, NULL };
    struct block_device *bdev = NULL;
    struct super_block *sb;
    struct vfsmount *mnt;
    int err;

    if (!type)
        return -ENODEV;
    mutex_lock(&namespace_sem);
    if (!root_mnt) {
        err = -ENOENT;                  /* nothing to walk until "/" exists */
        if (strcmp(path, "/"))
            goto out;
    } else {
        err = kern_path(path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &mp);
        if (err)
            goto out;
        err = -EBUSY;                   /* no stacking: one mount per directory */
        if (lookup_mnt(mp.mnt, mp.inode) || mp.inode == mp.mnt->mnt_sb->s_root)
            goto out_path;
    }
    if (type->requires_dev) {
        err = -ENODEV;
        bdev = dev_name ? blkdev_get(dev_name) : NULL;
        if (!bdev) {
            printk(KERN_ERR "mount: no block device '%s'\n", dev_name ? dev_name : "(null)");
            goto out_path;
        }
    }
    err = -ENOMEM;
    sb = alloc_super(type);
    if (!sb)
        goto out_path;
    sb->s_bdev = bdev;
    sb->s_flags = flags;
    strlcpy(sb->s_id, dev_name ? dev_name : "none", sizeof sb->s_id);
    err = type->fill_super(sb, data, 0);
    if (!err && !sb->s_root)
        err = -EINVAL;
    if (err) {
        /* fill_super may have read inodes (the root, say) before it gave up:
         * they are cached on sb, which is about to be freed; evict them, or
         * the next mount whose superblock lands at the same address finds
         * them (Linux: iput_final evicts at once while SB_ACTIVE is clear,
         * and deactivate_locked_super shuts the superblock down). */
        evict_inodes(sb);
        WARN(inodes_in_use(sb), "mount %s: inodes still in use after a failed mount",
             sb->s_id);
        destroy_super(sb);
        goto out_path;
    }
    mnt = kmalloc(sizeof *mnt, GFP_KERNEL);
    if (!mnt) {
        err = -ENOMEM;
        if (sb->s_op && sb->s_op->put_super)
            sb->s_op->put_super(sb);
        destroy_super(sb);
        goto out_path;
    }
    memset(mnt, 0, sizeof *mnt);
    mnt->mnt_sb = sb;
    if (!root_mnt) {
        mnt->mnt_parent = mnt;
        root_mnt = mnt;
        struct path root = { mnt, sb->s_root };
        init_fs.root = root;
        path_get(&init_fs.root);
        init_fs.pwd = root;
        path_get(&init_fs.pwd);
        init_fs.users = 1;
    } else {
        mnt->mnt_parent = mp.mnt;       /* mp's references move into the mount */
        mnt->mnt_mountpoint = mp.inode;
        mp.mnt = NULL;
        mp.inode = NULL;
    }
    list_add_tail(&mnt->mnt_list, &vfsmount_list);
    mutex_lock(&sb_list_lock);
    list_add_tail(&sb->s_list, &super_blocks);
    mutex_unlock(&sb_list_lock);
    /* the type fill_super made it (ext2 on a journaled disk: ext3) */
    printk(KERN_INFO "mount: %s (%s) on %s\n", sb->s_id, sb->s_type->name, path);
    err = 0;
out_path:
    if (mp.inode)
        path_put(&mp);
out:
    mutex_unlock(&namespace_sem);
    return err;
}

int do_umount(const char *path)
{
    struct path p;
    int err;

    mutex_lock(&namespace_sem);
    err = kern_path(path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &p);
    if (err)
        goto out;
    struct vfsmount *mnt = p.mnt;
    struct super_block *sb = mnt->mnt_sb;
    err = -EINVAL;
    if (p.inode != sb->s_root) {        /* not the root of a mount */
        path_put(&p);
        goto out;
    }
    path_put(&p);
    err = -EBUSY;
    if (mnt == root_mnt || mnt->mnt_count > 0)   /* open files, cwds, child mounts */
        goto out;

    mutex_lock(&sb_list_lock);          /* the flusher and sync() stop seeing it */
    list_del_init(&sb->s_list);
    mutex_unlock(&sb_list_lock);
    sync_filesystem(sb);
    if (inodes_in_use(sb) > 1 + sb->s_fs_inodes) {   /* the root (sb->s_root), the
                                                        fs's own (ext3's journal) */
        printk(KERN_WARNING "umount %s: inodes still in use\n", path);
        mutex_lock(&sb_list_lock);
        list_add_tail(&sb->s_list, &super_blocks);
        mutex_unlock(&sb_list_lock);
        goto out;
    }
    iput(sb->s_root);
    sb->s_root = NULL;
    evict_inodes(sb);
    WARN(inodes_in_use(sb) > sb->s_fs_inodes, "umount %s: busy inodes after unmount", path);
    if (sb->s_op && sb->s_op->put_super)
        sb->s_op->put_super(sb);
    evict_inodes(sb);                   /* the ones put_super released (s_fs_inodes) */
    WARN(inodes_in_use(sb), "umount %s: put_super left inodes in use", path);
    list_del(&mnt->mnt_list);
    iput(mnt->mnt_mountpoint);
    mntput(mnt->mnt_parent);
    kfree(mnt);
    destroy_super(sb);
    err = 0;
out:
    mutex_unlock(&namespace_sem);
    return err;
}

/* Make sure there is a root: mount ramfs on "/" if nothing is mounted (no
 * disk, and the kernel tests).  Returns 0 or the mount's error. */
int vfs_ensure_root(void)
{
    if (root_mnt)
        return 0;
    return do_mount("none", "/", "ramfs", 0, NULL);
}

/* Mount dev (type fstype) at dir, making sure there is a root and that dir
 * exists first (an existing dir is fine).  For the kernel tests and the
 * benchmarks, which mount their disks without a shell.  Returns 0 or a
 * negative errno from vfs_ensure_root, vfs_mkdir or do_mount. */
int vfs_mount_at(const char *dev, const char *dir, const char *fstype)
{
    int err = vfs_ensure_root();
    if (err)
        return err;
    err = vfs_mkdir(dir, 0755);
    if (err && err != -EEXIST)
        return err;
    return do_mount(dev, dir, fstype, 0, NULL);
}
