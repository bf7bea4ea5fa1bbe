/* fs/ramfs/inode.c: ramfs, a filesystem that lives only in memory (also
 * mountable as "tmpfs", below).  File
 * data lives in the page cache and nowhere else (simple_readpage /
 * simple_write_begin / simple_write_end from fs/libfs.c, no writepage);
 * directories are in-memory lists of (name, inode) entries kept in the
 * directory inode's i_private.  Mountable anywhere ("mount none /tmp ramfs"),
 * and the root when there is no disk.  Sits on the VFS only.
 *
 * Inodes are hashed, so a linked inode stays in the inode cache with no
 * references (fs/inode.c keeps hashed, linked inodes); directory entries
 * point at inodes without holding references, as Linux's dentries would.
 * An unlinked inode is freed at its last iput; unmount evicts the rest.
 * A removed directory still in use (a cwd) holds a reference on its
 * parent, as a Linux dentry on its d_parent, so its ".." stays valid.
 * Directories have size 0, as Linux's ramfs ones.
 *
 * Mount option "legacy_aops" (mount -t ramfs -o legacy_aops none /mnt):
 * the files of that mount get address-space operations of the OLD API
 * only, prepare_write/commit_write, so the VFS drives them through its
 * legacy fallback (mm/filemap.c, boot option legacy_write_mode=2copy|naive).
 * It exists for the deadlock demonstration of docs/mmap.md.
 *
 * "tmpfs" is this filesystem under Linux's other name for a memory
 * filesystem: its statfs says TMPFS_MAGIC, its root is 1777, and it takes
 * tmpfs's options (mode=, uid=, gid= applied to the root; size=,
 * nr_blocks=, nr_inodes= accepted and not enforced: a simplification, as
 * Linux's ramfs-backed tmpfs without CONFIG_SHMEM; an unknown option is
 * -EINVAL, as tmpfs's).  Device nodes, FIFOs and sockets are inodes of
 * their kind (mknod), their opens those of fs/char_dev.c and fs/pipe.c.
 */
#include <kernel.h>
#include <string.h>
#include <chrdev.h>
#include <errno.h>
#include <init.h>
#include "../internal.h"

#define RAMFS_MAGIC 0x858458f6
#define TMPFS_MAGIC 0x01021994

struct ramfs_dirent {
    struct list_head list;
    struct inode *inode;
    size_t len;
    char name[];
};

struct ramfs_dir {
    struct list_head entries;
    struct inode *parent;              /* for ".."; the root points to itself */
    bool parent_ref;                   /* removed: it holds a reference on parent */
};

struct ramfs_sb_info {
    unsigned long next_ino;
    bool legacy_aops;                  /* mount -o legacy_aops */
};

static const struct super_operations ramfs_sops;
static const struct inode_operations ramfs_dir_iops, ramfs_file_iops, ramfs_symlink_iops;
static const struct file_operations ramfs_dir_fops, ramfs_file_fops;
static const struct address_space_operations ramfs_aops, ramfs_legacy_aops;

static struct ramfs_dir *RDIR(struct inode *dir) { return dir->i_private; }

/* A new inode, referenced once, hashed. */
static struct inode *ramfs_get_inode(struct super_block *sb, struct inode *dir, mode_t mode,
                                     dev_t rdev)
{
    struct inode *inode = new_inode(sb);
    if (!inode)
        return NULL;
    struct ramfs_sb_info *sbi = sb->s_fs_info;
    inode->i_ino = ++sbi->next_ino;
    inode_init_owner(inode, dir, mode);    /* i_mode, i_uid, i_gid */
    inode->i_atime = inode->i_mtime = inode->i_ctime = current_time();
    inode->i_blkbits = PAGE_SHIFT;
    inode->i_data.a_ops = sbi->legacy_aops ? &ramfs_legacy_aops : &ramfs_aops;
    switch (mode & S_IFMT) {
    case S_IFDIR: {
        struct ramfs_dir *d = kmalloc(sizeof *d, GFP_KERNEL);
        if (!d) {
            inode->i_nlink = 0;
            iput(inode);
            return NULL;
        }
        INIT_LIST_HEAD(&d->entries);
        d->parent = dir ? dir : inode;
        d->parent_ref = false;
        inode->i_private = d;
        inode->i_op = &ramfs_dir_iops;
        inode->i_fop = &ramfs_dir_fops;
        inode->i_nlink = 2;
        break;
    }
    case S_IFLNK:
        inode->i_op = &ramfs_symlink_iops;
        break;
    case S_IFCHR: case S_IFBLK: case S_IFIFO: case S_IFSOCK:
        inode->i_op = &ramfs_file_iops;
        init_special_inode(inode, inode->i_mode, rdev);
        break;
    default:
        inode->i_op = &ramfs_file_iops;
        inode->i_fop = &ramfs_file_fops;
        break;
    }
    insert_inode_hash(inode);
    return inode;
}

static struct ramfs_dirent *find_entry(struct inode *dir, const char *name, size_t len)
{
    struct ramfs_dirent *de;
    list_for_each_entry(de, &RDIR(dir)->entries, list)
        if (de->len == len && !memcmp(de->name, name, len))
            return de;
    return NULL;
}

static int add_entry(struct inode *dir, const char *name, size_t len, struct inode *inode)
{
    struct ramfs_dirent *de = kmalloc(sizeof *de + len + 1, GFP_KERNEL);
    if (!de)
        return -ENOMEM;
    de->inode = inode;
    de->len = len;
    memcpy(de->name, name, len);
    de->name[len] = '\0';
    list_add_tail(&de->list, &RDIR(dir)->entries);
    dir->i_mtime = dir->i_ctime = current_time();
    return 0;
}

static void del_entry(struct inode *dir, struct ramfs_dirent *de)
{
    list_del(&de->list);
    kfree(de);
    dir->i_mtime = dir->i_ctime = current_time();
}

static int ramfs_lookup(struct inode *dir, const char *name, size_t len, struct inode **res)
{
    struct inode *found = NULL;
    if (len == 2 && name[0] == '.' && name[1] == '.') {
        found = RDIR(dir)->parent;
    } else {
        struct ramfs_dirent *de = find_entry(dir, name, len);
        if (de)
            found = de->inode;
    }
    if (!found || !(*res = igrab(found)))
        return -ENOENT;
    return 0;
}

/* Make a new inode of mode (a device: rdev) and link it into dir as name;
 * referenced in *res. */
static int ramfs_new_entry(struct inode *dir, const char *name, size_t len, mode_t mode,
                           dev_t rdev, struct inode **res)
{
    if (find_entry(dir, name, len))
        return -EEXIST;
    struct inode *inode = ramfs_get_inode(dir->i_sb, dir, mode, rdev);
    if (!inode)
        return -ENOSPC;
    int err = add_entry(dir, name, len, inode);
    if (err) {
        clear_nlink(inode);
        iput(inode);
        return err;
    }
    *res = inode;
    return 0;
}

static int ramfs_create(struct inode *dir, const char *name, size_t len, mode_t mode,
                        struct inode **res)
{
    return ramfs_new_entry(dir, name, len, (mode & ~S_IFMT) | S_IFREG, 0, res);
}

static int ramfs_mknod(struct inode *dir, const char *name, size_t len, mode_t mode, dev_t rdev)
{
    struct inode *inode;
    int err = ramfs_new_entry(dir, name, len, mode, rdev, &inode);
    if (!err)
        iput(inode);
    return err;
}

static int ramfs_mkdir(struct inode *dir, const char *name, size_t len, mode_t mode)
{
    struct inode *inode;
    int err = ramfs_new_entry(dir, name, len, (mode & ~S_IFMT) | S_IFDIR, 0, &inode);
    if (err)
        return err;
    inc_nlink(dir);                     /* the child's ".." */
    iput(inode);
    return 0;
}

static int ramfs_symlink(struct inode *dir, const char *name, size_t len, const char *target)
{
    struct inode *inode;
    int err = ramfs_new_entry(dir, name, len, S_IFLNK | 0777, 0, &inode);
    if (err)
        return err;
    err = page_symlink(inode, target, strlen(target));
    if (err) {
        del_entry(dir, find_entry(dir, name, len));
        clear_nlink(inode);
    }
    iput(inode);
    return err;
}

static int ramfs_link(struct inode *old, struct inode *dir, const char *name, size_t len)
{
    if (find_entry(dir, name, len))
        return -EEXIST;
    int err = add_entry(dir, name, len, old);
    if (err)
        return err;
    inc_nlink(old);
    old->i_ctime = current_time();
    return 0;
}

static int ramfs_unlink(struct inode *dir, const char *name, size_t len)
{
    struct ramfs_dirent *de = find_entry(dir, name, len);
    if (!de)
        return -ENOENT;
    struct inode *inode = de->inode;
    if (S_ISDIR(inode->i_mode))
        return -EISDIR;
    del_entry(dir, de);
    drop_nlink(inode);
    inode->i_ctime = current_time();
    return 0;
}

/* A directory is removed (rmdir, or renamed over): no links left; while it
 * is still in use its ".." must reach the parent, so it pins it. */
static void dir_removed(struct inode *dir, struct inode *inode)
{
    clear_nlink(inode);
    inode->i_ctime = current_time();
    RDIR(inode)->parent_ref = igrab(dir) != NULL;
}

static int ramfs_rmdir(struct inode *dir, const char *name, size_t len)
{
    struct ramfs_dirent *de = find_entry(dir, name, len);
    if (!de)
        return -ENOENT;
    struct inode *inode = de->inode;
    if (!S_ISDIR(inode->i_mode))
        return -ENOTDIR;
    if (!list_empty(&RDIR(inode)->entries))
        return -ENOTEMPTY;
    del_entry(dir, de);
    dir_removed(dir, inode);
    drop_nlink(dir);
    return 0;
}

static int ramfs_rename(struct inode *odir, const char *oname, size_t olen,
                        struct inode *ndir, const char *nname, size_t nlen)
{
    struct ramfs_dirent *ode = find_entry(odir, oname, olen);
    if (!ode)
        return -ENOENT;
    struct inode *inode = ode->inode;
    struct ramfs_dirent *nde = find_entry(ndir, nname, nlen);
    int isdir = S_ISDIR(inode->i_mode);
    if (nde) {
        struct inode *target = nde->inode;
        if (target == inode)
            return 0;
        if (isdir && !S_ISDIR(target->i_mode))
            return -ENOTDIR;
        if (!isdir && S_ISDIR(target->i_mode))
            return -EISDIR;
        if (S_ISDIR(target->i_mode)) {
            if (!list_empty(&RDIR(target)->entries))
                return -ENOTEMPTY;
            dir_removed(ndir, target);
            drop_nlink(ndir);
        } else {
            drop_nlink(target);
            target->i_ctime = current_time();   /* as Linux's simple_rename */
        }
        del_entry(ndir, nde);
    }
    int err = add_entry(ndir, nname, nlen, inode);
    if (err)
        return err;                     /* (a replaced target is already gone) */
    del_entry(odir, find_entry(odir, oname, olen));
    if (isdir && odir != ndir) {
        RDIR(inode)->parent = ndir;
        drop_nlink(odir);
        inc_nlink(ndir);
    }
    inode->i_ctime = current_time();
    return 0;
}

static unsigned char dt_type(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFDIR: return DT_DIR;
    case S_IFLNK: return DT_LNK;
    case S_IFREG: return DT_REG;
    default: return DT_UNKNOWN;
    }
}

/* Positions: 0 ".", 1 "..", 2 + k the k-th entry. */
static int ramfs_iterate(struct file *file, struct dir_context *ctx)
{
    struct inode *dir = file->f_inode;
    if (!dir_emit_dots(ctx, dir->i_ino, RDIR(dir)->parent->i_ino))
        return 0;
    loff_t k = 2;
    struct ramfs_dirent *de;
    list_for_each_entry(de, &RDIR(dir)->entries, list) {
        if (k++ < ctx->pos)
            continue;
        if (ctx->actor(ctx, de->name, (int)de->len, ctx->pos, de->inode->i_ino,
                       dt_type(de->inode->i_mode)))
            return 0;
        ctx->pos++;
    }
    return 0;
}

static void ramfs_evict_inode(struct inode *inode)
{
    if (S_ISDIR(inode->i_mode) && inode->i_private) {
        struct ramfs_dir *d = RDIR(inode);
        struct ramfs_dirent *de, *tmp;
        list_for_each_entry_safe(de, tmp, &d->entries, list)
            kfree(de);                  /* unmount: the children are evicted on their own */
        struct inode *parent = d->parent_ref ? d->parent : NULL;
        kfree(d);
        inode->i_private = NULL;
        iput(parent);                   /* a removed directory let go of its parent */
    }
}

static void ramfs_put_super(struct super_block *sb)
{
    kfree(sb->s_fs_info);
    sb->s_fs_info = NULL;
}

static int ramfs_statfs(struct super_block *sb, struct kstatfs *buf)
{
    memset(buf, 0, sizeof *buf);
    buf->f_type = sb->s_magic;          /* RAMFS_MAGIC, or TMPFS_MAGIC */
    buf->f_bsize = PAGE_SIZE;
    buf->f_namelen = NAME_MAX;
    return 0;
}

/* The superblock of a ramfs or tmpfs mount: root is its root's mode and
 * owner (uid, gid; -1: the mounter's). */
static int fill_super(struct super_block *sb, bool legacy, unsigned long magic, mode_t root_mode,
                      uid_t uid, gid_t gid)
{
    struct ramfs_sb_info *sbi = kmalloc(sizeof *sbi, GFP_KERNEL);
    if (!sbi)
        return -ENOMEM;
    sbi->next_ino = 0;
    sbi->legacy_aops = legacy;
    sb->s_fs_info = sbi;
    sb->s_op = &ramfs_sops;
    sb->s_magic = magic;
    sb->s_blocksize = PAGE_SIZE;
    sb->s_blocksize_bits = PAGE_SHIFT;
    sb->s_maxbytes = (loff_t)0x7fffffff << PAGE_SHIFT;   /* page index fits 31 bits */
    struct inode *root = ramfs_get_inode(sb, NULL, S_IFDIR | root_mode, 0);
    if (!root) {
        kfree(sbi);
        return -ENOMEM;
    }
    if (uid != (uid_t)-1)
        root->i_uid = uid;
    if (gid != (gid_t)-1)
        root->i_gid = gid;
    sb->s_root = root;                  /* keeps the reference */
    return 0;
}

static int ramfs_fill_super(struct super_block *sb, const char *data, int silent)
{
    bool legacy = false;
    if (data && *data) {
        if (strcmp(data, "legacy_aops")) {
            printk(KERN_ERR "ramfs: unknown mount option '%s'\n", data);
            return -EINVAL;
        }
        legacy = true;
        printk(KERN_INFO "ramfs: legacy_aops: files use prepare_write/commit_write\n");
    }
    return fill_super(sb, legacy, RAMFS_MAGIC, 0755, -1, -1);
}

/* tmpfs's options, comma-separated (Linux's shmem_parse_one). */
static int tmpfs_fill_super(struct super_block *sb, const char *data, int silent)
{
    mode_t mode = 01777;
    uid_t uid = -1;
    gid_t gid = -1;
    const char *opt = data ? data : "";
    while (*opt) {
        const char *comma = strchr(opt, ',');
        size_t len = comma ? (size_t)(comma - opt) : strlen(opt);
        size_t klen = 0;
        while (klen < len && opt[klen] != '=')
            klen++;
        const char *eq = klen < len ? opt + klen : NULL;
#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(opt, k, klen))
        unsigned long v = eq ? simple_strtoul(eq + 1, NULL, KEY("mode") ? 8 : 10) : 0;
        if (KEY("mode") && eq)
            mode = v & 07777;
        else if (KEY("uid") && eq)
            uid = v;
        else if (KEY("gid") && eq)
            gid = v;
        else if (!((KEY("size") || KEY("nr_blocks") || KEY("nr_inodes")) && eq)) {
            printk(KERN_ERR "tmpfs: an unknown parameter in '%s'\n", data);
            return -EINVAL;
        }                               /* the sizes: accepted, not enforced */
#undef KEY
        opt += len + (comma != NULL);
    }
    return fill_super(sb, false, TMPFS_MAGIC, mode, uid, gid);
}

static const struct super_operations ramfs_sops = {
    .evict_inode = ramfs_evict_inode,
    .put_super = ramfs_put_super,
    .statfs = ramfs_statfs,
};

static const struct inode_operations ramfs_dir_iops = {
    .lookup = ramfs_lookup,
    .create = ramfs_create,
    .mkdir = ramfs_mkdir,
    .mknod = ramfs_mknod,
    .rmdir = ramfs_rmdir,
    .unlink = ramfs_unlink,
    .rename = ramfs_rename,
    .link = ramfs_link,
    .symlink = ramfs_symlink,
    .setattr = simple_setattr,
};

static const struct inode_operations ramfs_file_iops = {
    .setattr = simple_setattr,
};

static const struct inode_operations ramfs_symlink_iops = {
    .readlink = generic_readlink,
};

static const struct file_operations ramfs_file_fops = {
    .llseek = generic_file_llseek,
    .read_iter = generic_file_read_iter,
    .write_iter = generic_file_write_iter,
    .fsync = generic_file_fsync,
    .mmap = generic_file_mmap,
    .fop_flags = FOP_UNLOCKED_RW,      /* SMP step 5: the page cache has its locks */
};

static const struct file_operations ramfs_dir_fops = {
    .llseek = generic_file_llseek,
    .iterate = ramfs_iterate,
};

static const struct address_space_operations ramfs_aops = {
    .readpage = simple_readpage,
    .write_begin = simple_write_begin,
    .write_end = simple_write_end,
};

/* The old API (before 2.6.24), for "-o legacy_aops".  The VFS has locked
 * the page.  prepare_write: make bytes from..to writable; a new page gets
 * zeros around them (as simple_write_begin).  commit_write: the caller
 * copied from..to; the page is now uptodate (ramfs has no disk copy: the
 * rest is zeros), i_size grows, the page is dirty.  0 or errno. */
static int ramfs_prepare_write(struct file *file, struct page *page, unsigned from, unsigned to)
{
    if (!PageUptodate(page)) {
        char *p = page_address(page);
        memset(p, 0, from);
        memset(p + to, 0, PAGE_SIZE - to);
    }
    return 0;
}

static int ramfs_commit_write(struct file *file, struct page *page, unsigned from, unsigned to)
{
    struct inode *inode = page->mapping->host;
    loff_t end = ((loff_t)page->index << PAGE_SHIFT) + to;
    SetPageUptodate(page);
    if (end > inode->i_size)
        inode->i_size = end;
    if (to > from)
        set_page_dirty(page);
    return 0;
}

static const struct address_space_operations ramfs_legacy_aops = {
    .readpage = simple_readpage,
    .prepare_write = ramfs_prepare_write,
    .commit_write = ramfs_commit_write,
};

static struct file_system_type ramfs_fs_type = {
    .name = "ramfs",
    .fill_super = ramfs_fill_super,
    .requires_dev = 0,
};

static struct file_system_type tmpfs_fs_type = {
    .name = "tmpfs",
    .fill_super = tmpfs_fill_super,
    .requires_dev = 0,
};

static void init_ramfs(void)
{
    register_filesystem(&ramfs_fs_type);
    register_filesystem(&tmpfs_fs_type);
}
fs_initcall(init_ramfs);
