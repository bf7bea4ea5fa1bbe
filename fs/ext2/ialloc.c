/* fs/ext2/ialloc.c: inode allocation through the inode bitmaps.
 *
 * Bit i of group g's inode bitmap is inode g * inodes_per_group + i + 1.
 * A new inode takes the first free bit, trying the parent directory's
 * group first (files) or the group with the most free inodes (directories:
 * spreads the tree, a much simplified form of Linux's Orlov allocator).
 * Counts in the group descriptor (free inodes, used directories) and the
 * superblock follow every change.
 *
 * Sits on: fs/buffer.c, super.c; the VFS inode cache (new_inode).
 * Locking: sb->s_lock around bitmap and count changes.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include "ext2.h"

static int find_group(struct super_block *sb, struct inode *dir, mode_t mode)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    unsigned long parent = EXT2_I(dir)->i_block_group;
    if (S_ISDIR(mode)) {
        long best = -1;
        unsigned best_free = 0;
        for (unsigned long g = 0; g < sbi->s_groups_count; g++) {
            struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);
            if (gd->bg_free_inodes_count > best_free) {
                best_free = gd->bg_free_inodes_count;
                best = g;
            }
        }
        return best;
    }
    for (unsigned long n = 0; n < sbi->s_groups_count; n++) {
        unsigned long g = (parent + n) % sbi->s_groups_count;
        struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);
        if (gd->bg_free_inodes_count)
            return g;
    }
    return -1;
}

/**
 * ext2_new_inode - allocate an inode on disk and in core
 * Return: the new inode (referenced, hashed, dirty, i_nlink 1, mode set),
 * or ERR_PTR(-ENOSPC / -EIO / -ENOMEM).
 */
struct inode *ext2_new_inode(struct inode *dir, mode_t mode)
{
    struct super_block *sb = dir->i_sb;
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    unsigned long ino = 0, group = 0;
    int err = -ENOSPC;

    if (sb->s_flags & MS_RDONLY)
        return ERR_PTR(-EROFS);
    struct inode *inode = new_inode(sb);
    if (!inode)
        return ERR_PTR(-ENOMEM);

    mutex_lock(&sb->s_lock);
    long g = find_group(sb, dir, mode);
    for (unsigned long n = 0; g >= 0 && n < sbi->s_groups_count; n++) {
        group = (g + n) % sbi->s_groups_count;
        struct buffer_head *gdbh;
        struct ext2_group_desc *gd = ext2_get_group_desc(sb, group, &gdbh);
        if (!gd->bg_free_inodes_count)
            continue;
        struct buffer_head *bm = sb_bread(sb, gd->bg_inode_bitmap);
        if (!bm) {
            err = -EIO;
            break;
        }
        uint8_t *map = (uint8_t *)bm->b_data;
        for (unsigned long bit = 0; bit < sbi->s_inodes_per_group; bit++) {
            if (map[bit >> 3] & (1 << (bit & 7)))
                continue;
            unsigned long cand = group * sbi->s_inodes_per_group + bit + 1;
            if (cand < sbi->s_first_ino || cand > sbi->s_inodes_count)
                continue;          /* reserved inodes are never handed out */
            if ((err = ext2_group_write_access(sb, bm, gdbh)))
                break;
            map[bit >> 3] |= 1 << (bit & 7);
            gd->bg_free_inodes_count--;
            if (S_ISDIR(mode))
                gd->bg_used_dirs_count++;
            sbi->s_es->s_free_inodes_count--;
            ext2_group_dirty(sb, bm, gdbh);
            ino = cand;
            break;
        }
        brelse(bm);
        if (ino)
            break;
    }
    mutex_unlock(&sb->s_lock);
    if (!ino) {
        inode->i_nlink = 0;
        iput(inode);               /* i_ino is 0: evict frees nothing on disk */
        return ERR_PTR(err);
    }

    struct ext2_inode_info *ei = EXT2_I(inode);
    inode->i_ino = ino;
    inode_init_owner(inode, dir, mode);    /* i_mode, i_uid, i_gid */
    inode->i_nlink = 1;
    inode->i_size = 0;
    inode->i_blocks = 0;
    inode->i_blkbits = sb->s_blocksize_bits;
    inode->i_atime = inode->i_mtime = inode->i_ctime = current_time();
    memset(ei->i_data, 0, sizeof(ei->i_data));
    ei->i_flags = EXT2_I(dir)->i_flags & ~EXT2_INDEX_FL;
    ei->i_dtime = 0;
    ei->i_file_acl = 0;
    ei->i_block_group = group;
    ei->i_next_alloc_goal = 0;
    ext2_set_inode_ops(inode);
    insert_inode_hash(inode);
    mark_inode_dirty(inode);
    return inode;
}

/* The inode's last link and reference are gone: clear its bitmap bit. */
void ext2_free_inode(struct inode *inode)
{
    struct super_block *sb = inode->i_sb;
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    unsigned long ino = inode->i_ino;

    if (ino < sbi->s_first_ino || ino > sbi->s_inodes_count) {
        ext2_error(sb, "freeing reserved or nonexistent inode %lu", ino);
        return;
    }
    unsigned long group = (ino - 1) / sbi->s_inodes_per_group;
    unsigned long bit = (ino - 1) % sbi->s_inodes_per_group;
    mutex_lock(&sb->s_lock);
    struct buffer_head *gdbh;
    struct ext2_group_desc *gd = ext2_get_group_desc(sb, group, &gdbh);
    struct buffer_head *bm = gd ? sb_bread(sb, gd->bg_inode_bitmap) : NULL;
    if (bm) {
        if (!(bm->b_data[bit >> 3] & (1 << (bit & 7)))) {
            ext2_error(sb, "freeing already free inode %lu", ino);
        } else if (!ext2_group_write_access(sb, bm, gdbh)) {   /* else: aborted, logged */
            bm->b_data[bit >> 3] &= ~(1 << (bit & 7));
            gd->bg_free_inodes_count++;
            if (S_ISDIR(inode->i_mode) && gd->bg_used_dirs_count)
                gd->bg_used_dirs_count--;
            sbi->s_es->s_free_inodes_count++;
            ext2_group_dirty(sb, bm, gdbh);
        }
        brelse(bm);
    }
    mutex_unlock(&sb->s_lock);
}
