/* fs/ext2/namei.c: ext2's inode_operations for directories and symlinks:
 * lookup, create, mkdir, rmdir, unlink, rename, link, symlink, readlink.
 * Each changes directory entries (dir.c), link counts and inodes
 * (ialloc.c, inode.c).  The contracts are the ones in include/fs.h; the
 * VFS holds the directories' i_mutex.
 *
 * Link counts, as on every Unix filesystem: a file has one link per name;
 * a directory has 2 (its name and its ".") plus one per subdirectory
 * (each subdirectory's "..").
 */
#include <kernel.h>
#include <string.h>
#include <chrdev.h>
#include <errno.h>
#include <err.h>
#include <sched.h>
#include <jbd.h>
#include "ext2.h"

static int ext2_lookup(struct inode *dir, const char *name, size_t len, struct inode **res)
{
    unsigned long ino;
    int err;
    if (len > NAME_MAX)
        return -ENAMETOOLONG;
    if (dir->i_nlink == 0 && len == 2 && name[0] == '.' && name[1] == '.')
        err = ext2_removed_dir_parent(dir, &ino);   /* size 0: read its block itself */
    else
        err = ext2_inode_by_name(dir, name, len, &ino);
    if (err)
        return err;
    struct inode *inode = ext2_iget(dir->i_sb, ino);
    if (IS_ERR(inode))
        return PTR_ERR(inode);
    *res = inode;
    return 0;
}

/* A new inode failed to get a name: let its last iput free it. */
static void discard_new_inode(struct inode *inode)
{
    clear_nlink(inode);
    mark_inode_dirty(inode);
    iput(inode);
}

static int ext2_create(struct inode *dir, const char *name, size_t len, mode_t mode,
                       struct inode **res)
{
    struct inode *inode = ext2_new_inode(dir, S_IFREG | (mode & ~S_IFMT));
    if (IS_ERR(inode))
        return PTR_ERR(inode);
    int err = ext2_add_link(dir, name, len, inode);
    if (err) {
        discard_new_inode(inode);
        return err;
    }
    *res = inode;
    return 0;
}

static int ext2_mknod(struct inode *dir, const char *name, size_t len, mode_t mode, dev_t rdev)
{
    struct inode *inode = ext2_new_inode(dir, mode);
    if (IS_ERR(inode))
        return PTR_ERR(inode);
    init_special_inode(inode, inode->i_mode, rdev);
    ext2_encode_dev(inode, inode->i_rdev);
    mark_inode_dirty(inode);
    int err = ext2_add_link(dir, name, len, inode);
    if (err) {
        discard_new_inode(inode);
        return err;
    }
    iput(inode);
    return 0;
}

static int ext2_mkdir(struct inode *dir, const char *name, size_t len, mode_t mode)
{
    if (dir->i_nlink >= EXT2_LINK_MAX)
        return -EMLINK;
    struct inode *inode = ext2_new_inode(dir, S_IFDIR | (mode & ~S_IFMT));
    if (IS_ERR(inode))
        return PTR_ERR(inode);
    inode->i_nlink = 2;                /* its name and its "." */
    int err = ext2_make_empty(inode, dir);
    if (!err)
        err = ext2_add_link(dir, name, len, inode);
    if (err) {
        discard_new_inode(inode);
        return err;
    }
    inc_nlink(dir);                    /* the new ".." */
    mark_inode_dirty(dir);
    mark_inode_dirty(inode);
    iput(inode);
    return 0;
}

static int ext2_unlink(struct inode *dir, const char *name, size_t len)
{
    struct inode *inode;
    int err = ext2_lookup(dir, name, len, &inode);
    if (err)
        return err;
    if (S_ISDIR(inode->i_mode)) {
        iput(inode);
        return -EISDIR;
    }
    err = ext2_delete_entry(dir, name, len);
    if (!err) {
        inode->i_ctime = dir->i_ctime;
        drop_nlink(inode);
        mark_inode_dirty(inode);
    }
    iput(inode);                       /* frees it if that was the last link */
    return err;
}

static int ext2_rmdir(struct inode *dir, const char *name, size_t len)
{
    struct inode *inode;
    int err = ext2_lookup(dir, name, len, &inode);
    if (err)
        return err;
    if (!S_ISDIR(inode->i_mode)) {
        err = -ENOTDIR;
        goto out;
    }
    err = ext2_empty_dir(inode);
    if (err <= 0) {
        err = err ? err : -ENOTEMPTY;
        goto out;
    }
    err = ext2_delete_entry(dir, name, len);
    if (err)
        goto out;
    inode->i_size = 0;
    clear_nlink(inode);                /* its name and its "." */
    inode->i_ctime = current_time();
    mark_inode_dirty(inode);
    drop_nlink(dir);                   /* its ".." */
    mark_inode_dirty(dir);
out:
    iput(inode);
    return err;
}

static int ext2_link(struct inode *old, struct inode *dir, const char *name, size_t len)
{
    if (S_ISDIR(old->i_mode))
        return -EPERM;
    if (old->i_nlink >= EXT2_LINK_MAX)
        return -EMLINK;
    int err = ext2_add_link(dir, name, len, old);
    if (err)
        return err;
    inc_nlink(old);
    old->i_ctime = current_time();
    mark_inode_dirty(old);
    return 0;
}

static int ext2_symlink(struct inode *dir, const char *name, size_t len, const char *target)
{
    size_t tlen = strlen(target);
    if (tlen == 0)
        return -ENOENT;
    if (tlen >= dir->i_sb->s_blocksize)
        return -ENAMETOOLONG;
    struct inode *inode = ext2_new_inode(dir, S_IFLNK | 0777);
    if (IS_ERR(inode))
        return PTR_ERR(inode);
    struct ext2_inode_info *ei = EXT2_I(inode);
    int err = 0;
    if (tlen < sizeof(ei->i_data)) {
        memcpy(ei->i_data, target, tlen);   /* fast symlink: the target lives in i_block[] */
    } else {
        struct buffer_head *bh = ext2_bread(inode, 0, 1, &err);  /* slow: in a data block */
        if (bh) {
            memcpy(bh->b_data, target, tlen);
            ext2_journal_dirty(dir->i_sb, bh);   /* write access: ext2_bread's */
            brelse(bh);
        }
    }
    inode->i_size = tlen;
    mark_inode_dirty(inode);
    if (!err)
        err = ext2_add_link(dir, name, len, inode);
    if (err) {
        discard_new_inode(inode);
        return err;
    }
    iput(inode);
    return 0;
}

static int ext2_readlink(struct inode *inode, char *buf, size_t size)
{
    size_t len = min((size_t)inode->i_size, size);
    if (ext2_inode_is_fast_symlink(inode)) {
        memcpy(buf, EXT2_I(inode)->i_data, len);
        return len;
    }
    int err;
    struct buffer_head *bh = ext2_bread(inode, 0, 0, &err);
    if (!bh)
        return err;
    memcpy(buf, bh->b_data, len);
    brelse(bh);
    return len;
}

static int ext2_rename(struct inode *odir, const char *oname, size_t olen,
                       struct inode *ndir, const char *nname, size_t nlen)
{
    struct inode *old, *new = NULL;
    int err = ext2_lookup(odir, oname, olen, &old);
    if (err)
        return err;
    err = ext2_lookup(ndir, nname, nlen, &new);
    if (err == -ENOENT) {
        new = NULL;
    } else if (err) {
        goto out;
    }
    bool is_dir = S_ISDIR(old->i_mode);
    if (new) {
        if (new == old) {              /* two names of one inode: nothing to do */
            err = 0;
            goto out;
        }
        if (is_dir && !S_ISDIR(new->i_mode)) {
            err = -ENOTDIR;
            goto out;
        }
        if (!is_dir && S_ISDIR(new->i_mode)) {
            err = -EISDIR;
            goto out;
        }
        if (is_dir) {
            err = ext2_empty_dir(new);
            if (err <= 0) {
                err = err ? err : -ENOTEMPTY;
                goto out;
            }
        }
        err = ext2_set_link(ndir, nname, nlen, old, true);
        if (err)
            goto out;
        new->i_ctime = current_time();
        drop_nlink(new);
        if (is_dir)
            drop_nlink(new);           /* its "." : the replaced directory is gone */
        mark_inode_dirty(new);
    } else {
        if (is_dir && ndir != odir && ndir->i_nlink >= EXT2_LINK_MAX) {
            err = -EMLINK;
            goto out;
        }
        err = ext2_add_link(ndir, nname, nlen, old);
        if (err)
            goto out;
        if (is_dir)
            inc_nlink(ndir);           /* old's ".." will point here */
    }
    err = ext2_delete_entry(odir, oname, olen);
    if (err)
        goto out;
    if (is_dir) {
        err = ext2_set_link(old, "..", 2, ndir, false);
        drop_nlink(odir);              /* old's ".." no longer points here */
        mark_inode_dirty(odir);
        mark_inode_dirty(ndir);
    }
    old->i_ctime = current_time();
    mark_inode_dirty(old);
out:
    if (new)
        iput(new);
    iput(old);
    return err;
}

/* ---- ext3's orphan list (ext2.h) ---- */

int ext3_orphan_add(struct inode *inode)
{
    struct super_block *sb = inode->i_sb;
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    struct ext2_inode_info *ei = EXT2_I(inode);
    int err = 0;
    if (!sbi->s_journal || inode->i_nlink)
        return 0;
    mutex_lock(&sb->s_lock);
    if (list_empty(&ei->i_orphan)) {
        err = ext2_journal_get_write_access(sb, sbi->s_sbh);
        if (!err)
            err = ext3_set_next_orphan(sb, inode->i_ino, sbi->s_es->s_last_orphan);
        if (!err) {
            ei->i_dtime = sbi->s_es->s_last_orphan;     /* Linux's NEXT_ORPHAN */
            sbi->s_es->s_last_orphan = inode->i_ino;
            err = ext2_journal_dirty(sb, sbi->s_sbh);
            list_add(&ei->i_orphan, &sbi->s_orphan);
        }
    }
    mutex_unlock(&sb->s_lock);
    return err;
}

/* The in-core list is in the on-disk order, newest first: the entry before
 * inode's names it on disk (the superblock, for the head), and now names
 * inode's next instead.  Without a handle (evict after the journal
 * aborted) only the in-core list changes: the on-disk one stays for the
 * next mount or e2fsck. */
void ext3_orphan_del(struct inode *inode)
{
    struct super_block *sb = inode->i_sb;
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    struct ext2_inode_info *ei = EXT2_I(inode);
    mutex_lock(&sb->s_lock);
    if (!list_empty(&ei->i_orphan)) {
        uint32_t next = ei->i_dtime;
        struct list_head *prev = ei->i_orphan.prev;
        list_del_init(&ei->i_orphan);
        ei->i_dtime = 0;
        if (!current->journal_info) {
            /* the journal aborted: nothing more reaches the disk */
        } else if (prev == &sbi->s_orphan) {
            if (!ext2_journal_get_write_access(sb, sbi->s_sbh)) {
                sbi->s_es->s_last_orphan = next;
                ext2_journal_dirty(sb, sbi->s_sbh);
            }
        } else {
            struct ext2_inode_info *pi = list_entry(prev, struct ext2_inode_info, i_orphan);
            pi->i_dtime = next;
            ext3_set_next_orphan(sb, pi->vfs_inode.i_ino, next);
        }
    }
    mutex_unlock(&sb->s_lock);
}

/* The victim of an unlink, rmdir or rename lost its last link in the
 * operation's handle: onto the orphan list in it (err: the operation's). */
static int ext3_orphan_if_unlinked(int err, struct inode *victim)
{
    return err || !victim ? err : ext3_orphan_add(victim);
}

/* ---- ext3: each operation in one handle (ext3_journal.c) ----
 * On ext2 (no journal) ext3_journal_start returns NULL and these are the
 * ext2 operations.  Every metadata buffer an operation changes joins the
 * handle's transaction, and so does every inode it marks dirty
 * (ext3_dirty_inode, super.c).  The inodes an operation may drop the last
 * reference of (unlink's, rmdir's, rename's) are held across it and let go
 * after journal_stop: evict truncates the page cache and may write pages,
 * which lock pages, and a page lock is never taken under a handle (the
 * lock order, mm/filemap.c).  Freeing the inode then takes a handle of its
 * own (ext2_evict_inode), as Linux's final iput runs after ext3_unlink's
 * handle stopped. */
#define EXT3_OP(call, sb, credits) ({                                      \
        handle_t *_h = ext3_journal_start(sb, credits);                   \
        int _err = IS_ERR(_h) ? PTR_ERR(_h) : (call);                     \
        if (!IS_ERR(_h)) {                                                \
            int _e = ext3_journal_stop(_h);                               \
            if (!_err)                                                    \
                _err = _e;                                                \
        }                                                                 \
        _err; })

static int ext3_create(struct inode *dir, const char *name, size_t len, mode_t mode,
                       struct inode **res)
{
    return EXT3_OP(ext2_create(dir, name, len, mode, res), dir->i_sb, EXT3_CREATE_CREDITS);
}

static int ext3_mknod(struct inode *dir, const char *name, size_t len, mode_t mode, dev_t rdev)
{
    return EXT3_OP(ext2_mknod(dir, name, len, mode, rdev), dir->i_sb, EXT3_CREATE_CREDITS);
}

static int ext3_mkdir(struct inode *dir, const char *name, size_t len, mode_t mode)
{
    return EXT3_OP(ext2_mkdir(dir, name, len, mode), dir->i_sb, EXT3_CREATE_CREDITS);
}

/* ext3: a reference on the inode dir's entry name points at (NULL if none,
 * or on ext2), dropped by the caller after its handle stopped. */
static struct inode *ext3_hold(struct inode *dir, const char *name, size_t len)
{
    unsigned long ino;
    if (!EXT2_SB(dir->i_sb)->s_journal || ext2_inode_by_name(dir, name, len, &ino))
        return NULL;
    struct inode *inode = ext2_iget(dir->i_sb, ino);
    return IS_ERR(inode) ? NULL : inode;
}

static void ext3_release(struct inode *inode)
{
    if (inode)
        iput(inode);                     /* maybe the last: evict, outside the handle */
}

static int ext3_rmdir(struct inode *dir, const char *name, size_t len)
{
    struct inode *victim = ext3_hold(dir, name, len);
    int err = EXT3_OP(ext3_orphan_if_unlinked(ext2_rmdir(dir, name, len), victim), dir->i_sb,
                      EXT3_UNLINK_CREDITS);
    ext3_release(victim);
    return err;
}

static int ext3_unlink(struct inode *dir, const char *name, size_t len)
{
    struct inode *victim = ext3_hold(dir, name, len);
    int err = EXT3_OP(ext3_orphan_if_unlinked(ext2_unlink(dir, name, len), victim), dir->i_sb,
                      EXT3_UNLINK_CREDITS);
    ext3_release(victim);
    return err;
}

static int ext3_rename(struct inode *odir, const char *oname, size_t olen,
                       struct inode *ndir, const char *nname, size_t nlen)
{
    struct inode *old = ext3_hold(odir, oname, olen), *target = ext3_hold(ndir, nname, nlen);
    int err = EXT3_OP(ext3_orphan_if_unlinked(ext2_rename(odir, oname, olen, ndir, nname, nlen),
                                              target), odir->i_sb, EXT3_RENAME_CREDITS);
    ext3_release(target);
    ext3_release(old);
    return err;
}

/* An O_TMPFILE file (no links, on the orphan list since its unlink) that
 * linkat names leaves the orphan list in the same handle. */
static int ext2_link_orphan(struct inode *old, struct inode *dir, const char *name, size_t len)
{
    bool orphan = old->i_nlink == 0;
    int err = ext2_link(old, dir, name, len);
    if (!err && orphan)
        ext3_orphan_del(old);
    return err;
}

static int ext3_link(struct inode *old, struct inode *dir, const char *name, size_t len)
{
    /* ext3_orphan_del in the same handle: the superblock or the previous
     * orphan's inode block, well inside the link's credits */
    return EXT3_OP(ext2_link_orphan(old, dir, name, len), dir->i_sb, EXT3_LINK_CREDITS);
}

static int ext3_symlink(struct inode *dir, const char *name, size_t len, const char *target)
{
    return EXT3_OP(ext2_symlink(dir, name, len, target), dir->i_sb, EXT3_SYMLINK_CREDITS);
}

const struct inode_operations ext2_dir_inode_operations = {
    .lookup  = ext2_lookup,
    .create  = ext3_create,
    .mkdir   = ext3_mkdir,
    .mknod   = ext3_mknod,
    .rmdir   = ext3_rmdir,
    .unlink  = ext3_unlink,
    .rename  = ext3_rename,
    .link    = ext3_link,
    .symlink = ext3_symlink,
    .setattr = ext2_setattr,
};

const struct inode_operations ext2_symlink_inode_operations = {
    .readlink = ext2_readlink,
    .setattr  = ext2_setattr,
};
