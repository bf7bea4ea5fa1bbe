/* fs/ext2/balloc.c: block allocation through the block bitmaps.
 *
 * Each group has one bitmap block; bit i set means block
 * (first_data_block + group * blocks_per_group + i) is in use.  Allocating
 * a block sets its bit and decrements the free counts in the group
 * descriptor and in the superblock; freeing does the reverse.  All three
 * live in metadata buffers that are marked dirty and reach the disk at
 * sync_fs.  Also here: ext2_data_block_valid, the range check every block
 * pointer read from disk goes through before it is used.
 *
 * Sits on: fs/buffer.c; super.c (group descriptors).
 * Locking: sb->s_lock around every bitmap and count change.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include "ext2.h"

/* Is block a legal data or indirect block: inside the filesystem and not
 * the superblock, a descriptor block, a bitmap or the inode table? */
int ext2_data_block_valid(struct super_block *sb, unsigned long block)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    if (block < sbi->s_first_data_block || block >= sbi->s_blocks_count)
        return 0;
    unsigned long g = (block - sbi->s_first_data_block) / sbi->s_blocks_per_group;
    unsigned long first = sbi->s_first_data_block + g * sbi->s_blocks_per_group;
    if (ext2_group_has_super(sb, g) && block < first + 1 + sbi->s_gdb_count)
        return 0;
    struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);
    if (!gd || block == gd->bg_block_bitmap || block == gd->bg_inode_bitmap ||
        (block >= gd->bg_inode_table && block < gd->bg_inode_table + sbi->s_itb_per_group))
        return 0;
    return 1;
}

static int bitmap_find_zero(const uint8_t *map, unsigned long size, unsigned long start)
{
    for (unsigned long i = start; i < size; i++) {
        if ((i & 7) == 0 && map[i >> 3] == 0xff && i + 8 <= size) {
            i += 7;
            continue;
        }
        if (!(map[i >> 3] & (1 << (i & 7))))
            return (int)i;
    }
    return -1;
}

static unsigned long group_nblocks(struct ext2_sb_info *sbi, unsigned long g)
{
    unsigned long first = sbi->s_first_data_block + g * sbi->s_blocks_per_group;
    return min(sbi->s_blocks_per_group, sbi->s_blocks_count - first);
}

/**
 * ext2_new_block - allocate one block for inode, as close to goal as we can
 * Tries goal's group from goal on, then every group from its start.
 * Return: the block number, or 0 with *err set (-ENOSPC, -EIO).
 * The caller adds the block to i_blocks.
 */
int ext2_group_write_access(struct super_block *sb, struct buffer_head *bm,
                            struct buffer_head *gdbh)
{
    int err = ext2_journal_get_write_access(sb, bm);
    if (!err)
        err = ext2_journal_get_write_access(sb, gdbh);
    if (!err)
        err = ext2_journal_get_write_access(sb, EXT2_SB(sb)->s_sbh);
    return err;
}

void ext2_group_dirty(struct super_block *sb, struct buffer_head *bm, struct buffer_head *gdbh)
{
    ext2_journal_dirty(sb, bm);
    ext2_journal_dirty(sb, gdbh);
    ext2_journal_dirty(sb, EXT2_SB(sb)->s_sbh);
}

unsigned long ext2_new_block(struct inode *inode, unsigned long goal, int *err)
{
    struct super_block *sb = inode->i_sb;
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    unsigned long block = 0;

    if (sb->s_flags & MS_RDONLY) {
        *err = -EROFS;
        return 0;
    }
    if (goal < sbi->s_first_data_block || goal >= sbi->s_blocks_count)
        goal = sbi->s_first_data_block +
               EXT2_I(inode)->i_block_group * sbi->s_blocks_per_group;
    unsigned long g0 = (goal - sbi->s_first_data_block) / sbi->s_blocks_per_group;
    unsigned long start = (goal - sbi->s_first_data_block) % sbi->s_blocks_per_group;

    mutex_lock(&sb->s_lock);
    *err = -ENOSPC;
    if (sbi->s_es->s_free_blocks_count == 0)
        goto out;
    for (unsigned long n = 0; n <= sbi->s_groups_count; n++) {
        unsigned long g = (g0 + n) % sbi->s_groups_count;
        struct buffer_head *gdbh;
        struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, &gdbh);
        if (!gd || gd->bg_free_blocks_count == 0)
            continue;
        struct buffer_head *bm = sb_bread(sb, gd->bg_block_bitmap);
        if (!bm) {
            *err = -EIO;
            goto out;
        }
        int bit = bitmap_find_zero((uint8_t *)bm->b_data, group_nblocks(sbi, g),
                                   n == 0 ? start : 0);
        if (bit < 0 && n == 0 && start)
            bit = bitmap_find_zero((uint8_t *)bm->b_data, group_nblocks(sbi, g), 0);
        if (bit < 0) {
            brelse(bm);
            continue;
        }
        block = sbi->s_first_data_block + g * sbi->s_blocks_per_group + bit;
        if (!ext2_data_block_valid(sb, block)) {
            ext2_error(sb, "block bitmap of group %lu marks system block %lu free", g, block);
            brelse(bm);
            block = 0;
            *err = -EIO;
            goto out;
        }
        if ((*err = ext2_group_write_access(sb, bm, gdbh))) {
            brelse(bm);
            block = 0;
            goto out;
        }
        bm->b_data[bit >> 3] |= 1 << (bit & 7);
        gd->bg_free_blocks_count--;
        sbi->s_es->s_free_blocks_count--;
        ext2_group_dirty(sb, bm, gdbh);
        brelse(bm);
        *err = 0;
        break;
    }
out:
    mutex_unlock(&sb->s_lock);
    if (block)
        clean_bdev_aliases(sb->s_bdev, block, sb->s_blocksize);
    return block;
}

/* Free count blocks from block on, belonging to inode (i_blocks drops). */
void ext2_free_blocks(struct inode *inode, unsigned long block, unsigned long count)
{
    struct super_block *sb = inode->i_sb;
    struct ext2_sb_info *sbi = EXT2_SB(sb);

    mutex_lock(&sb->s_lock);
    for (unsigned long b = block; b < block + count; b++) {
        if (!ext2_data_block_valid(sb, b)) {
            ext2_error(sb, "inode %lu: freeing block %lu out of range", inode->i_ino, b);
            continue;
        }
        unsigned long g = (b - sbi->s_first_data_block) / sbi->s_blocks_per_group;
        unsigned long bit = (b - sbi->s_first_data_block) % sbi->s_blocks_per_group;
        struct buffer_head *gdbh;
        struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, &gdbh);
        struct buffer_head *bm = gd ? sb_bread(sb, gd->bg_block_bitmap) : NULL;
        if (!bm)
            continue;
        if (!(bm->b_data[bit >> 3] & (1 << (bit & 7)))) {
            ext2_error(sb, "inode %lu: freeing already free block %lu", inode->i_ino, b);
        } else if (!ext2_group_write_access(sb, bm, gdbh)) {   /* else: aborted, logged */
            bm->b_data[bit >> 3] &= ~(1 << (bit & 7));
            gd->bg_free_blocks_count++;
            sbi->s_es->s_free_blocks_count++;
            ext2_group_dirty(sb, bm, gdbh);
            if (!S_ISREG(inode->i_mode))
                ext2_journal_revoke(sb, b);   /* ext3: a directory's or symlink's
                                                 blocks were logged (metadata) */
            if (inode->i_blocks >= (sb->s_blocksize >> 9))
                inode->i_blocks -= sb->s_blocksize >> 9;
        }
        brelse(bm);
    }
    mutex_unlock(&sb->s_lock);
    mark_inode_dirty(inode);
}

/* Sum of the groups' free counts (tests compare it with the superblock's). */
unsigned long ext2_count_free_blocks(struct super_block *sb)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    unsigned long n = 0;
    for (unsigned long g = 0; g < sbi->s_groups_count; g++)
        n += ext2_get_group_desc(sb, g, NULL)->bg_free_blocks_count;
    return n;
}
