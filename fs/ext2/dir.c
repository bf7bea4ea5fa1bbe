/* fs/ext2/dir.c: directory blocks.
 *
 * A directory's data blocks hold a chain of variable-length entries
 * (struct ext2_dir_entry_2): rec_len leads from one entry to the next, and
 * the last entry of a block reaches the block's end.  Adding an entry
 * reuses an unused entry or splits one whose rec_len has room to spare, or
 * appends a new block; removing one merges it into the previous entry's
 * rec_len (or, first in its block, marks it unused with inode 0).
 *
 *   block:  | . (12) | .. (12) | name1 (rec_len 16) | name2 (rec_len to block end) |
 *
 * Every entry is validated before use (rec_len >= 8 + name_len rounded,
 * 4-aligned, inside the block; inode number in range): a bad one is -EIO
 * with a log line.
 * Simplification: Linux ext2 reads directories through the page cache
 * (ext2_get_page); Vellum reads them as metadata buffers (ext2_bread).
 *
 * Sits on: inode.c (ext2_bread), fs/buffer.c.  Locking: the VFS holds the
 * directory's i_mutex around every call.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include "ext2.h"

static unsigned de_name_len(struct super_block *sb, const struct ext2_dir_entry_2 *de)
{
    /* without the filetype feature, name_len is 16 bits */
    return ext2_has_filetype(sb) ? de->name_len : de->name_len | (de->file_type << 8);
}

static int ext2_check_dirent(struct inode *dir, const struct ext2_dir_entry_2 *de,
                             unsigned long blk, unsigned offset)
{
    struct super_block *sb = dir->i_sb;
    unsigned rec_len = de->rec_len, name_len = de_name_len(sb, de);
    const char *why = NULL;
    if (offset + 8 > sb->s_blocksize)
        why = "entry header runs off the block";
    else if (rec_len < EXT2_DIR_REC_LEN(1))
        why = "rec_len is smaller than minimal";
    else if (rec_len % 4)
        why = "rec_len is not a multiple of 4";
    else if (rec_len < EXT2_DIR_REC_LEN(name_len))
        why = "rec_len is too small for name_len";
    else if (offset + rec_len > sb->s_blocksize)
        why = "rec_len runs off the block";
    else if (de->inode > EXT2_SB(sb)->s_inodes_count)
        why = "inode number out of range";
    if (!why)
        return 0;
    ext2_error(sb, "directory inode %lu: bad entry at block %lu offset %u: %s "
               "(rec_len %u, name_len %u, inode %u)", dir->i_ino, blk, offset, why,
               rec_len, name_len, de->inode);
    return -EIO;
}

static unsigned long dir_blocks(struct inode *dir)
{
    return (dir->i_size + dir->i_sb->s_blocksize - 1) >> dir->i_sb->s_blocksize_bits;
}

/* Calls fn on each entry (used or not) of each block; fn returns 0 to go on,
 * > 0 to stop (returned), < 0 for an error (returned).  prev is the entry
 * before de in the same block (NULL for the first). */
typedef int (*dirent_fn)(struct inode *dir, struct buffer_head *bh,
                         struct ext2_dir_entry_2 *de, struct ext2_dir_entry_2 *prev,
                         void *arg);

static int ext2_foreach_dirent(struct inode *dir, dirent_fn fn, void *arg)
{
    unsigned long bs = dir->i_sb->s_blocksize;
    for (unsigned long n = 0; n < dir_blocks(dir); n++) {
        int err;
        struct buffer_head *bh = ext2_bread(dir, n, 0, &err);
        if (!bh)
            return err;
        struct ext2_dir_entry_2 *prev = NULL;
        for (unsigned off = 0; off < bs;) {
            struct ext2_dir_entry_2 *de = (struct ext2_dir_entry_2 *)(bh->b_data + off);
            int r = ext2_check_dirent(dir, de, n, off);
            if (!r)
                r = fn(dir, bh, de, prev, arg);
            if (r) {
                brelse(bh);
                return r;
            }
            prev = de;
            off += de->rec_len;
        }
        brelse(bh);
    }
    return 0;
}

struct name_arg {
    const char *name;
    size_t len;
    unsigned long ino;                 /* found / to set */
    struct inode *inode;               /* set_link */
    size_t need;                       /* add_link: rec_len needed */
};

static int name_matches(struct inode *dir, struct ext2_dir_entry_2 *de, struct name_arg *a)
{
    return de->inode && de_name_len(dir->i_sb, de) == a->len && !memcmp(de->name, a->name, a->len);
}

static unsigned char ext2_type_of(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG:  return EXT2_FT_REG_FILE;
    case S_IFDIR:  return EXT2_FT_DIR;
    case S_IFCHR:  return EXT2_FT_CHRDEV;
    case S_IFBLK:  return EXT2_FT_BLKDEV;
    case S_IFIFO:  return EXT2_FT_FIFO;
    case S_IFSOCK: return EXT2_FT_SOCK;
    case S_IFLNK:  return EXT2_FT_SYMLINK;
    }
    return EXT2_FT_UNKNOWN;
}

static void set_de(struct inode *dir, struct ext2_dir_entry_2 *de, const char *name,
                   size_t len, struct inode *inode)
{
    de->inode = inode->i_ino;
    de->name_len = len;
    de->file_type = ext2_has_filetype(dir->i_sb) ? ext2_type_of(inode->i_mode) : 0;
    memcpy(de->name, name, len);
}

static int find_fn(struct inode *dir, struct buffer_head *bh, struct ext2_dir_entry_2 *de,
                   struct ext2_dir_entry_2 *prev, void *arg)
{
    struct name_arg *a = arg;
    if (!name_matches(dir, de, a))
        return 0;
    a->ino = de->inode;
    return 1;
}

/* 0 and *ino, or -ENOENT, -EIO. */
int ext2_inode_by_name(struct inode *dir, const char *name, size_t len, unsigned long *ino)
{
    struct name_arg a = { .name = name, .len = len };
    int r = ext2_foreach_dirent(dir, find_fn, &a);
    if (r < 0)
        return r;
    if (r == 0)
        return -ENOENT;
    if (a.ino < 1) {
        ext2_error(dir->i_sb, "directory inode %lu: entry with inode 0", dir->i_ino);
        return -EIO;
    }
    *ino = a.ino;
    return 0;
}

static void dir_changed(struct inode *dir)
{
    dir->i_mtime = dir->i_ctime = current_time();
    EXT2_I(dir)->i_flags &= ~EXT2_INDEX_FL;     /* we do not keep a hash index */
    mark_inode_dirty(dir);
}

static int add_fn(struct inode *dir, struct buffer_head *bh, struct ext2_dir_entry_2 *de,
                  struct ext2_dir_entry_2 *prev, void *arg)
{
    struct name_arg *a = arg;
    size_t used = EXT2_DIR_REC_LEN(de_name_len(dir->i_sb, de));
    bool in_free = !de->inode && de->rec_len >= a->need;
    if (!in_free && !(de->inode && de->rec_len >= used + a->need))
        return 0;
    int err = ext2_journal_get_write_access(dir->i_sb, bh);
    if (err)
        return err;
    if (in_free) {
        set_de(dir, de, a->name, a->len, a->inode);
    } else {
        struct ext2_dir_entry_2 *n = (struct ext2_dir_entry_2 *)((char *)de + used);
        n->rec_len = de->rec_len - used;
        de->rec_len = used;
        set_de(dir, n, a->name, a->len, a->inode);
    }
    ext2_journal_dirty(dir->i_sb, bh);
    return 1;
}

/* Add name -> inode to dir.  -EEXIST, -ENOSPC, -EIO. */
int ext2_add_link(struct inode *dir, const char *name, size_t len, struct inode *inode)
{
    unsigned long ino;
    int err = ext2_inode_by_name(dir, name, len, &ino);
    if (err == 0)
        return -EEXIST;
    if (err != -ENOENT)
        return err;
    struct name_arg a = { .name = name, .len = len, .inode = inode,
                          .need = EXT2_DIR_REC_LEN(len) };
    int r = ext2_foreach_dirent(dir, add_fn, &a);
    if (r < 0)
        return r;
    if (r == 0) {                      /* no room: a new block at the end */
        struct buffer_head *bh = ext2_bread(dir, dir_blocks(dir), 1, &err);
        if (!bh)
            return err;
        struct ext2_dir_entry_2 *de = (struct ext2_dir_entry_2 *)bh->b_data;
        de->rec_len = dir->i_sb->s_blocksize;
        set_de(dir, de, name, len, inode);
        ext2_journal_dirty(dir->i_sb, bh);     /* write access: ext2_bread's */
        brelse(bh);
        dir->i_size += dir->i_sb->s_blocksize;
    }
    dir_changed(dir);
    return 0;
}

static int del_fn(struct inode *dir, struct buffer_head *bh, struct ext2_dir_entry_2 *de,
                  struct ext2_dir_entry_2 *prev, void *arg)
{
    if (!name_matches(dir, de, arg))
        return 0;
    int err = ext2_journal_get_write_access(dir->i_sb, bh);
    if (err)
        return err;
    if (prev)
        prev->rec_len += de->rec_len;  /* merge into the previous entry */
    else
        de->inode = 0;                 /* first in its block: mark unused */
    ext2_journal_dirty(dir->i_sb, bh);
    return 1;
}

/* Run fn (del_fn or set_fn) over dir's entries until it changes the one
 * named in a; then, if update_times, the directory's times.  -ENOENT if no
 * entry has the name, -EIO if a block cannot be read. */
static int change_entry(struct inode *dir, dirent_fn fn, struct name_arg *a, bool update_times)
{
    int r = ext2_foreach_dirent(dir, fn, a);
    if (r < 0)
        return r;
    if (r == 0)
        return -ENOENT;
    if (update_times)
        dir_changed(dir);
    else
        mark_inode_dirty(dir);
    return 0;
}

/* Remove the entry name from dir.  -ENOENT, -EIO. */
int ext2_delete_entry(struct inode *dir, const char *name, size_t len)
{
    struct name_arg a = { .name = name, .len = len };
    return change_entry(dir, del_fn, &a, true);
}

static int set_fn(struct inode *dir, struct buffer_head *bh, struct ext2_dir_entry_2 *de,
                  struct ext2_dir_entry_2 *prev, void *arg)
{
    struct name_arg *a = arg;
    if (!name_matches(dir, de, a))
        return 0;
    int err = ext2_journal_get_write_access(dir->i_sb, bh);
    if (err)
        return err;
    de->inode = a->inode->i_ino;
    if (ext2_has_filetype(dir->i_sb))
        de->file_type = ext2_type_of(a->inode->i_mode);
    ext2_journal_dirty(dir->i_sb, bh);
    return 1;
}

/* Point the existing entry name at inode: a rename over a target
 * (update_times: dir's mtime and ctime), or a moved directory's ".." (not:
 * its times stay, as Linux's ext2_set_link(..., update_times = false)). */
int ext2_set_link(struct inode *dir, const char *name, size_t len, struct inode *inode,
                  bool update_times)
{
    struct name_arg a = { .name = name, .len = len, .inode = inode };
    return change_entry(dir, set_fn, &a, update_times);
}

/* A removed directory has size 0 but keeps its blocks until its last
 * reference goes (evict frees them): its ".." entry, the second of block
 * 0, still names the directory it was removed from, where a cwd in it
 * climbs (Linux climbs its dentry's d_parent).  0 and *ino, or -EIO. */
int ext2_removed_dir_parent(struct inode *dir, unsigned long *ino)
{
    int err;
    struct buffer_head *bh = ext2_bread(dir, 0, 0, &err);
    if (!bh)
        return err;
    struct ext2_dir_entry_2 *de = (struct ext2_dir_entry_2 *)bh->b_data;
    err = ext2_check_dirent(dir, de, 0, 0);
    if (!err) {
        unsigned off = de->rec_len;
        de = (struct ext2_dir_entry_2 *)(bh->b_data + off);
        err = ext2_check_dirent(dir, de, 0, off);
        if (!err && (de_name_len(dir->i_sb, de) != 2 || memcmp(de->name, "..", 2) || !de->inode)) {
            ext2_error(dir->i_sb, "directory inode %lu: no '..' in block 0", dir->i_ino);
            err = -EIO;
        }
    }
    if (!err)
        *ino = de->inode;
    brelse(bh);
    return err;
}

static int empty_fn(struct inode *dir, struct buffer_head *bh, struct ext2_dir_entry_2 *de,
                    struct ext2_dir_entry_2 *prev, void *arg)
{
    unsigned nl = de_name_len(dir->i_sb, de);
    if (!de->inode)
        return 0;
    if ((nl == 1 && de->name[0] == '.') || (nl == 2 && de->name[0] == '.' && de->name[1] == '.'))
        return 0;
    return 1;
}

/* 1 if dir holds only . and .., 0 if not, -EIO if unreadable. */
int ext2_empty_dir(struct inode *dir)
{
    int r = ext2_foreach_dirent(dir, empty_fn, NULL);
    return r < 0 ? r : !r;
}

/* The first block of a new directory: "." and "..". */
int ext2_make_empty(struct inode *inode, struct inode *parent)
{
    int err;
    struct buffer_head *bh = ext2_bread(inode, 0, 1, &err);
    if (!bh)
        return err;
    struct ext2_dir_entry_2 *de = (struct ext2_dir_entry_2 *)bh->b_data;
    de->rec_len = EXT2_DIR_REC_LEN(1);
    set_de(inode, de, ".", 1, inode);
    de = (struct ext2_dir_entry_2 *)(bh->b_data + EXT2_DIR_REC_LEN(1));
    de->rec_len = inode->i_sb->s_blocksize - EXT2_DIR_REC_LEN(1);
    set_de(inode, de, "..", 2, parent);
    ext2_journal_dirty(inode->i_sb, bh);     /* write access: ext2_bread's */
    brelse(bh);
    inode->i_size = inode->i_sb->s_blocksize;
    mark_inode_dirty(inode);
    return 0;
}

static const unsigned char ext2_ft_to_dt[EXT2_FT_MAX] = {
    DT_UNKNOWN, DT_REG, DT_DIR, DT_CHR, DT_BLK, DT_FIFO, DT_SOCK, DT_LNK,
};

static unsigned dt_from_inode(struct super_block *sb, unsigned long ino)
{
    struct inode *inode = ext2_iget(sb, ino);
    if (IS_ERR(inode))
        return DT_UNKNOWN;
    unsigned dt = ext2_ft_to_dt[ext2_type_of(inode->i_mode)];
    iput(inode);
    return dt;
}

/* file_operations->iterate: entries from ctx->pos (a byte offset in the
 * directory) on.  d_type comes from the entry (filetype feature) or, without
 * it, from the inode itself. */
static int ext2_readdir(struct file *file, struct dir_context *ctx)
{
    struct inode *dir = file->f_inode;
    struct super_block *sb = dir->i_sb;
    unsigned long bs = sb->s_blocksize;

    while (ctx->pos < dir->i_size) {
        unsigned long n = ctx->pos >> sb->s_blocksize_bits;
        unsigned start = ctx->pos & (bs - 1);
        int err;
        struct buffer_head *bh = ext2_bread(dir, n, 0, &err);
        if (!bh)
            return err;
        for (unsigned off = 0; off < bs;) {
            struct ext2_dir_entry_2 *de = (struct ext2_dir_entry_2 *)(bh->b_data + off);
            if (ext2_check_dirent(dir, de, n, off)) {
                brelse(bh);
                return -EIO;
            }
            if (off >= start && de->inode) {
                unsigned dt = ext2_has_filetype(sb) ?
                    (de->file_type < EXT2_FT_MAX ? ext2_ft_to_dt[de->file_type] : DT_UNKNOWN) :
                    dt_from_inode(sb, de->inode);
                if (ctx->actor(ctx, de->name, de_name_len(sb, de), ((loff_t)n << sb->s_blocksize_bits) + off,
                               de->inode, dt)) {
                    brelse(bh);
                    return 0;
                }
            }
            off += de->rec_len;
            if (off > start)
                ctx->pos = ((loff_t)n << sb->s_blocksize_bits) + off;
        }
        brelse(bh);
        ctx->pos = (loff_t)(n + 1) << sb->s_blocksize_bits;
    }
    return 0;
}

const struct file_operations ext2_dir_operations = {
    .llseek  = generic_file_llseek,
    .iterate = ext2_readdir,
    .fsync   = generic_file_fsync,
};
