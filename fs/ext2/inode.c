/* fs/ext2/inode.c: ext2 inodes and their block trees.
 *
 *   ext2_iget / ext2_write_inode / ext2_evict_inode   on-disk inode <-> struct inode
 *   ext2_get_block       file block -> disk block through i_block[]:
 *                        12 direct, then single, double, triple indirect;
 *                        allocates (create) the missing blocks of the path
 *   ext2_truncate_blocks free every block past a size, including indirect
 *                        blocks that become empty
 *   ext2_setattr         size changes (truncate down or up), modes, times
 *   ext2_aops            readpage/writepage/write_begin/write_end on top of
 *                        the fs/buffer.c helpers (ext3 read-write: a regular
 *                        file's are ext3_ordered.c's)
 *   ext2_file_operations open (-EOVERFLOW past 2 GiB without O_LARGEFILE;
 *                        RWF_NOWAIT reads), llseek (SEEK_DATA/SEEK_HOLE
 *                        find the holes of the block tree)
 *
 * Every block number read from disk goes through ext2_data_block_valid
 * before it is used; a bad one is -EIO with
 *   "ext2: hda: inode N: block M out of range".
 * A path through the indirect tree that revisits one of its own blocks (a
 * loop) is -EIO too; the depth is at most 4, so nothing can recurse or
 * iterate without bound.
 *
 * Sits on: fs/buffer.c, balloc.c, the VFS inode cache and page cache.
 * Locking: EXT2_I(inode)->truncate_mutex serialises get_block against
 * truncate_blocks (readpage runs without i_mutex).  i_mutex is held by
 * the VFS around write_begin/write_end and setattr.
 */
#include <kernel.h>
#include <smp_lock.h>
#include <string.h>
#include <chrdev.h>
#include <errno.h>
#include <err.h>
#include <mm.h>
#include <pagemap.h>
#include <writeback.h>
#include <uio.h>
#include <sched.h>
#include <jbd.h>
#include "ext2.h"

/* ---- on-disk inode <-> struct inode ---- */

static struct ext2_inode *ext2_get_raw_inode(struct super_block *sb, unsigned long ino,
                                             struct buffer_head **bhp)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    if (ino < 1 || ino > sbi->s_inodes_count) {
        ext2_error(sb, "inode number %lu out of range", ino);
        return ERR_PTR(-EIO);
    }
    unsigned long group = (ino - 1) / sbi->s_inodes_per_group;
    struct ext2_group_desc *gd = ext2_get_group_desc(sb, group, NULL);
    if (!gd)
        return ERR_PTR(-EIO);
    unsigned long offset = ((ino - 1) % sbi->s_inodes_per_group) * sbi->s_inode_size;
    unsigned long block = gd->bg_inode_table + (offset >> sb->s_blocksize_bits);
    struct buffer_head *bh = sb_bread(sb, block);
    if (!bh) {
        ext2_error(sb, "cannot read inode %lu (block %lu)", ino, block);
        return ERR_PTR(-EIO);
    }
    *bhp = bh;
    return (struct ext2_inode *)(bh->b_data + (offset & (sb->s_blocksize - 1)));
}

/* ext3's orphan list (namei.c): inode ino's i_dtime on disk becomes next,
 * the next orphan's number, in the running handle, through the inode-table
 * block alone: the in-core inode may be on its way out.  Under s_lock. */
int ext3_set_next_orphan(struct super_block *sb, unsigned long ino, uint32_t next)
{
    struct buffer_head *bh;
    struct ext2_inode *raw = ext2_get_raw_inode(sb, ino, &bh);
    if (IS_ERR(raw))
        return PTR_ERR(raw);
    int err = ext2_journal_get_write_access(sb, bh);
    if (!err) {
        raw->i_dtime = next;
        err = ext2_journal_dirty(sb, bh);
    }
    brelse(bh);
    return err;
}

/* A fast symlink keeps its target in i_block[] and owns no blocks. */
int ext2_inode_is_fast_symlink(struct inode *inode)
{
    unsigned long acl_blocks = EXT2_I(inode)->i_file_acl ? inode->i_sb->s_blocksize >> 9 : 0;
    return S_ISLNK(inode->i_mode) && inode->i_blocks - acl_blocks == 0;
}

/* A device's number in i_block[], as Linux's ext2: the 16-bit encoding in
 * i_block[0] when the major and the minor fit a byte each, else the 32-bit
 * one in i_block[1].  (A FIFO or a socket has none: all zeros.) */
static dev_t ext2_decode_dev(const uint32_t *data)
{
    return data[0] ? data[0] & 0xffff : data[1];
}

void ext2_encode_dev(struct inode *inode, dev_t rdev)
{
    uint32_t *data = EXT2_I(inode)->i_data;
    data[0] = rdev <= 0xffff ? rdev : 0;
    data[1] = rdev <= 0xffff ? 0 : rdev;
}

void ext2_set_inode_ops(struct inode *inode)
{
    /* ext3 read-write: a regular file's data is ordered (ext3_ordered.c) */
    inode->i_mapping->a_ops = S_ISREG(inode->i_mode) && EXT2_SB(inode->i_sb)->s_journal ?
                              &ext3_ordered_aops : &ext2_aops;
    if (S_ISREG(inode->i_mode)) {
        inode->i_op = &ext2_file_inode_operations;
        inode->i_fop = &ext2_file_operations;
    } else if (S_ISDIR(inode->i_mode)) {
        inode->i_op = &ext2_dir_inode_operations;
        inode->i_fop = &ext2_dir_operations;
    } else if (S_ISLNK(inode->i_mode)) {
        inode->i_op = &ext2_symlink_inode_operations;
    } else {
        inode->i_op = &ext2_file_inode_operations;   /* devices, fifos: attributes only */
        init_special_inode(inode, inode->i_mode, ext2_decode_dev(EXT2_I(inode)->i_data));
    }
}

/**
 * ext2_iget - the in-core inode for ino, read from disk if not cached
 * Return: referenced inode, or ERR_PTR(-EIO) (bad number, unreadable,
 * deleted inode).
 */
struct inode *ext2_iget(struct super_block *sb, unsigned long ino)
{
    struct buffer_head *bh;
    struct inode *inode = iget_locked(sb, ino);
    if (!inode)
        return ERR_PTR(-ENOMEM);
    if (!(inode->i_state & I_NEW))
        return inode;

    struct ext2_inode_info *ei = EXT2_I(inode);
    struct ext2_inode *raw = ext2_get_raw_inode(sb, ino, &bh);
    if (IS_ERR(raw)) {
        iget_failed(inode);
        return ERR_PTR(PTR_ERR(raw));
    }
    inode->i_mode = raw->i_mode;
    inode->i_uid = raw->i_uid | ((uint32_t)raw->l_i_uid_high << 16);
    inode->i_gid = raw->i_gid | ((uint32_t)raw->l_i_gid_high << 16);
    inode->i_nlink = raw->i_links_count;
    inode->i_size = raw->i_size;
    if (S_ISREG(inode->i_mode) && EXT2_SB(sb)->s_es->s_rev_level >= EXT2_DYNAMIC_REV)
        inode->i_size |= (loff_t)raw->i_size_high << 32;
    inode->i_atime = raw->i_atime;
    inode->i_ctime = raw->i_ctime;
    inode->i_mtime = raw->i_mtime;
    inode->i_blocks = raw->i_blocks;
    inode->i_blkbits = sb->s_blocksize_bits;
    ei->i_dtime = raw->i_dtime;
    ei->i_flags = raw->i_flags;
    ei->i_file_acl = raw->i_file_acl;
    ei->i_generation = raw->i_generation;
    ei->i_block_group = (ino - 1) / EXT2_SB(sb)->s_inodes_per_group;
    memcpy(ei->i_data, raw->i_block, sizeof(ei->i_data));
    brelse(bh);

    /* No links: deleted, unless the mount is freeing its orphans, whose
     * i_dtime names the next orphan (ext3_orphan_cleanup). */
    if (inode->i_nlink == 0 && (inode->i_mode == 0 ||
        (ei->i_dtime && !(EXT2_SB(sb)->s_mount_state & EXT3_ORPHAN_FS)))) {
        ext2_error(sb, "inode %lu is deleted (stale directory entry?)", ino);
        iget_failed(inode);
        return ERR_PTR(-EIO);
    }
    if (inode->i_size < 0 || inode->i_size > sb->s_maxbytes ||
        (S_ISLNK(inode->i_mode) && inode->i_size >= (loff_t)sb->s_blocksize) ||
        (ext2_inode_is_fast_symlink(inode) && inode->i_size >= (loff_t)sizeof(ei->i_data))) {
        ext2_error(sb, "inode %lu: bad size %lld", ino, (long long)inode->i_size);
        iget_failed(inode);
        return ERR_PTR(-EIO);
    }
    ext2_set_inode_ops(inode);
    unlock_new_inode(inode);
    return inode;
}

int ext2_write_inode(struct inode *inode, int sync)
{
    struct super_block *sb = inode->i_sb;
    struct ext2_inode_info *ei = EXT2_I(inode);
    struct buffer_head *bh;
    int err = 0;

    if (sb->s_flags & MS_RDONLY || !inode->i_ino)
        return 0;
    /* ext3: the copy is a metadata change of its own (nested in the
     * system call's handle when there is one, as ext3_mark_inode_dirty). */
    handle_t *handle = ext3_journal_start(sb, 2);
    if (IS_ERR(handle))
        return PTR_ERR(handle);
    struct ext2_inode *raw = ext2_get_raw_inode(sb, inode->i_ino, &bh);
    if (IS_ERR(raw)) {
        ext3_journal_stop(handle);
        return PTR_ERR(raw);
    }
    if ((err = ext2_journal_get_write_access(sb, bh))) {
        brelse(bh);
        ext3_journal_stop(handle);
        return err;
    }
    if (ei->i_dtime == 0 && inode->i_nlink == 0 && inode->i_mode == 0)
        memset(raw, 0, EXT2_SB(sb)->s_inode_size);
    raw->i_mode = inode->i_mode;
    raw->i_uid = inode->i_uid & 0xffff;
    raw->l_i_uid_high = inode->i_uid >> 16;
    raw->i_gid = inode->i_gid & 0xffff;
    raw->l_i_gid_high = inode->i_gid >> 16;
    raw->i_links_count = inode->i_nlink;
    loff_t size = max(inode->i_size, ei->i_truncate_size);   /* truncate_credits */
    raw->i_size = (uint32_t)size;
    if (S_ISREG(inode->i_mode)) {
        raw->i_size_high = (uint32_t)(size >> 32);
        if (size > 0x7fffffff) {
            struct ext2_sb_info *sbi = EXT2_SB(sb);
            if (!(sbi->s_es->s_feature_ro_compat & EXT2_FEATURE_RO_COMPAT_LARGE_FILE)) {
                mutex_lock(&sb->s_lock);
                if (!ext2_journal_get_write_access(sb, sbi->s_sbh)) {
                    sbi->s_es->s_feature_ro_compat |= EXT2_FEATURE_RO_COMPAT_LARGE_FILE;
                    sbi->s_feature_ro_compat |= EXT2_FEATURE_RO_COMPAT_LARGE_FILE;
                    ext2_journal_dirty(sb, sbi->s_sbh);
                }
                mutex_unlock(&sb->s_lock);
            }
        }
    }
    raw->i_atime = inode->i_atime;
    raw->i_ctime = inode->i_ctime;
    raw->i_mtime = inode->i_mtime;
    raw->i_dtime = ei->i_dtime;
    raw->i_blocks = inode->i_blocks;
    raw->i_flags = ei->i_flags;
    raw->i_file_acl = ei->i_file_acl;
    raw->i_generation = ei->i_generation;
    memcpy(raw->i_block, ei->i_data, sizeof(raw->i_block));
    err = ext2_journal_dirty(sb, bh);
    if (sync && !err && !handle)
        err = sync_dirty_buffer(bh);
    brelse(bh);
    int e = ext3_journal_stop(handle);
    if (sync && !err && handle && !current->journal_info)
        e = journal_force_commit(EXT2_SB(sb)->s_journal);  /* ext3: on disk = committed */
    return err ? err : e;
}

/* Last reference gone (page cache already empty).  Unlinked: free it all. */
void ext2_evict_inode(struct inode *inode)
{
    if (!inode->i_ino || inode->i_nlink || (inode->i_sb->s_flags & MS_RDONLY))
        return;
    struct ext2_inode_info *ei = EXT2_I(inode);
    handle_t *handle = ext3_journal_start(inode->i_sb, ext3_blocks_for_truncate(inode));
    if (IS_ERR(handle)) {                /* ext3 aborted: the orphan stays on disk */
        ext3_orphan_del(inode);
        return;
    }
    inode->i_size = 0;
    if (ext2_inode_is_fast_symlink(inode))
        memset(ei->i_data, 0, sizeof(ei->i_data));
    else
        ext2_truncate_blocks(inode, 0);  /* may span transactions: on the orphan list */
    ext3_orphan_del(inode);              /* ext3: in the transaction that frees it */
    ei->i_dtime = current_time();
    ext2_write_inode(inode, 0);
    ext2_free_inode(inode);
    ext3_journal_stop(handle);
}

/* ---- the block tree ---- */

/* Turn a file block number into the path of slot indices through the tree.
 * Returns the depth (1 direct .. 4 triple indirect), or 0 if too big. */
static int ext2_block_to_path(struct inode *inode, sector_t i_block, unsigned offsets[4])
{
    unsigned long ptrs = EXT2_SB(inode->i_sb)->s_addr_per_block;
    unsigned bits = EXT2_SB(inode->i_sb)->s_addr_per_block_bits;
    uint64_t b = i_block;

    if (b < EXT2_NDIR_BLOCKS) {
        offsets[0] = b;
        return 1;
    }
    b -= EXT2_NDIR_BLOCKS;
    if (b < ptrs) {
        offsets[0] = EXT2_IND_BLOCK;
        offsets[1] = b;
        return 2;
    }
    b -= ptrs;
    if (b < (1ULL << (2 * bits))) {
        offsets[0] = EXT2_DIND_BLOCK;
        offsets[1] = b >> bits;
        offsets[2] = b & (ptrs - 1);
        return 3;
    }
    b -= 1ULL << (2 * bits);
    if (b < (1ULL << (3 * bits))) {
        offsets[0] = EXT2_TIND_BLOCK;
        offsets[1] = b >> (2 * bits);
        offsets[2] = (b >> bits) & (ptrs - 1);
        offsets[3] = b & (ptrs - 1);
        return 4;
    }
    return 0;
}

static int bad_block(struct inode *inode, unsigned long block)
{
    ext2_error(inode->i_sb, "inode %lu: block %lu out of range", inode->i_ino, block);
    return -EIO;
}

/* A new indirect block nr, zeroed through the buffer cache (ext3: in the
 * handle, create access).  On failure nr is freed again.  0 or -errno. */
static int ext2_zero_indirect(struct inode *inode, unsigned long nr)
{
    struct super_block *sb = inode->i_sb;
    struct buffer_head *nbh = sb_getblk(sb, nr);
    int err = nbh ? ext2_journal_get_create_access(sb, nbh) : -EIO;
    if (err) {
        brelse(nbh);
        ext2_free_blocks(inode, nr, 1);
        return err;
    }
    memset(nbh->b_data, 0, sb->s_blocksize);
    set_buffer_uptodate(nbh);
    ext2_journal_dirty(sb, nbh);
    brelse(nbh);
    return 0;
}

/* Point *slot (in i_data, or in the indirect block parent) at the new block
 * nr, or clear it (nr 0: truncate).  ext3: parent's write access first; on
 * failure a new block nr is freed again. */
static int ext2_set_slot(struct inode *inode, struct buffer_head *parent, uint32_t *slot,
                         unsigned long nr)
{
    struct super_block *sb = inode->i_sb;
    int err = parent ? ext2_journal_get_write_access(sb, parent) : 0;
    if (err) {
        if (nr)
            ext2_free_blocks(inode, nr, 1);
        return err;
    }
    *slot = nr;
    if (parent)
        ext2_journal_dirty(sb, parent);
    return 0;
}

/**
 * ext2_get_block - the get_block_t of ext2 (see include/buffer_head.h)
 * Walks i_block[] (and indirect blocks) to iblock's pointer; with create,
 * allocates what is missing: indirect blocks are zeroed through the buffer
 * cache, the data block is returned with BH_New (its contents are garbage
 * until the caller writes or zeroes it).  i_blocks counts every block.
 * ext3: an allocation is one handle's change (nested in the system call's,
 * or in the one ext3's write_begin or writepage started after the page
 * lock: page lock, then handle, as 2.6.24's ext3, ext3_ordered.c);
 * mark_inode_dirty puts the inode's new i_data and i_blocks in the same
 * transaction (ext3_dirty_inode).
 * SMP: the block tree, the allocator and the journal are still under the
 * big kernel lock, taken here (as Linux 2.4's ext2_get_block took it):
 * read and write reach this without it since SMP step 5 (docs/smp.md).
 */
int ext2_get_block(struct inode *inode, sector_t iblock, struct buffer_head *bh_result, int create)
{
    struct super_block *sb = inode->i_sb;
    struct ext2_inode_info *ei = EXT2_I(inode);
    unsigned offsets[4];
    unsigned long chain[4];
    struct buffer_head *parent = NULL;
    int depth = ext2_block_to_path(inode, iblock, offsets);
    int err = 0;

    if (depth == 0)                    /* beyond the tree: a hole for reading */
        return create ? -EFBIG : 0;
    lock_kernel();
    handle_t *handle = create ? ext3_journal_start(sb, EXT3_ALLOC_CREDITS) : NULL;
    if (IS_ERR(handle)) {
        unlock_kernel();
        return PTR_ERR(handle);
    }
    mutex_lock(&ei->truncate_mutex);
    uint32_t *slot = &ei->i_data[offsets[0]];
    for (int level = 0; level < depth; level++) {
        unsigned long nr = *slot;
        if (nr == 0) {
            if (!create)
                goto out;              /* a hole */
            unsigned long goal = ei->i_next_alloc_goal;
            if (!goal && level > 0)
                goal = chain[level - 1] + 1;
            nr = ext2_new_block(inode, goal, &err);
            if (!nr)
                goto out;
            ei->i_next_alloc_goal = nr + 1;
            inode->i_blocks += sb->s_blocksize >> 9;
            if (level < depth - 1) {   /* a new indirect block: all holes */
                if ((err = ext2_zero_indirect(inode, nr)))
                    goto out;          /* (it freed nr) */
            } else {
                set_buffer_new(bh_result);
            }
            if ((err = ext2_set_slot(inode, parent, slot, nr)))
                goto out;              /* (it freed nr) */
            mark_inode_dirty(inode);
        } else {
            if (!ext2_data_block_valid(sb, nr)) {
                err = bad_block(inode, nr);
                goto out;
            }
            for (int i = 0; i < level; i++) {
                if (chain[i] == nr) {
                    ext2_error(sb, "inode %lu: loop in indirect blocks at block %lu",
                               inode->i_ino, nr);
                    err = -EIO;
                    goto out;
                }
            }
        }
        chain[level] = nr;
        if (level < depth - 1) {
            struct buffer_head *bh = sb_bread(sb, nr);
            if (!bh) {
                err = -EIO;
                goto out;
            }
            brelse(parent);
            parent = bh;
            slot = (uint32_t *)bh->b_data + offsets[level + 1];
        }
    }
    map_bh(bh_result, sb, chain[depth - 1]);
out:
    brelse(parent);
    mutex_unlock(&ei->truncate_mutex);
    int e = ext3_journal_stop(handle);
    unlock_kernel();
    return err ? err : e;
}

/* A metadata buffer for block iblock of a directory or slow symlink; with
 * create, allocates it (zeroed).  NULL with *err on failure or for a hole. */
struct buffer_head *ext2_bread(struct inode *inode, sector_t iblock, int create, int *err)
{
    struct buffer_head map = { 0 };
    *err = ext2_get_block(inode, iblock, &map, create);
    if (*err)
        return NULL;
    if (!buffer_mapped(&map)) {
        *err = -EIO;                   /* directories and symlinks have no holes */
        ext2_error(inode->i_sb, "inode %lu: hole at block %lu", inode->i_ino,
                   (unsigned long)iblock);
        return NULL;
    }
    if (buffer_new(&map)) {
        struct buffer_head *bh = sb_getblk(inode->i_sb, map.b_blocknr);
        if (!bh || (*err = ext2_journal_get_create_access(inode->i_sb, bh))) {
            brelse(bh);
            *err = *err ? *err : -EIO;
            return NULL;
        }
        memset(bh->b_data, 0, bh->b_size);
        set_buffer_uptodate(bh);
        ext2_journal_dirty(inode->i_sb, bh);
        return bh;
    }
    struct buffer_head *bh = sb_bread(inode->i_sb, map.b_blocknr);
    if (!bh)
        *err = -EIO;
    return bh;
}

/* ---- truncate ---- */

/*
 * ext3: a truncate frees as many blocks as the file has, more than one
 * transaction may hold (a quarter of the log).  Before each block it frees,
 * the handle must have room for what freeing changes (a bitmap, a group
 * descriptor, the superblock, a revoke, the parent, the inode: 6, and
 * EXT3_RESERVE_TRANS_BLOCKS to spare).  When it has not, it grows
 * (journal_extend) or, if the transaction cannot, what the truncate did so
 * far commits and it goes on in the next transaction (journal_restart):
 * Linux 2.6.24's try_to_extend_transaction and ext3_journal_test_restart.
 *
 * What commits is consistent on its own: each freed block's pointer was
 * cleared in the transaction that freed it, the blocks are freed from the
 * end of the file back, and the inode goes with them, its size on disk
 * (i_truncate_size) still covering the blocks that are left (all below
 * block next).  A crash between the two transactions leaves the file cut
 * to a length between the old and the new, clean to e2fsck.  (Linux keeps
 * the new size and puts the inode on the orphan list, which the next mount
 * finishes; Vellum has no orphan list.  An unlinked inode being freed is in
 * the same place: a crash there leaves it to e2fsck.)
 *
 * truncate_mutex is let go across the restart (as ext4's
 * ext4_truncate_restart_trans lets go of i_data_sem): a writeback task
 * waiting for it in get_block may hold a handle the commit waits for.
 */
static void truncate_credits(struct inode *inode, uint64_t next)
{
    struct ext2_inode_info *ei = EXT2_I(inode);
    handle_t *handle = current->journal_info;
    if (!EXT2_SB(inode->i_sb)->s_journal || handle->h_buffer_credits >= EXT3_RESERVE_TRANS_BLOCKS)
        return;
    if (journal_extend(handle, ext3_blocks_for_truncate(inode)) != 1)
        return;                          /* extended, or aborted (logged) */
    ei->i_truncate_size = max(inode->i_size, (loff_t)(next << inode->i_blkbits));
    ext2_write_inode(inode, 0);
    mutex_unlock(&ei->truncate_mutex);
    journal_restart(handle, ext3_blocks_for_truncate(inode));   /* failed: aborted, the rest is -EROFS */
    mutex_lock(&ei->truncate_mutex);
}

/* Truncate the subtree at *slot (in the indirect block parent, or in the
 * inode: parent NULL), which maps the file blocks [base, base +
 * ptrs^level), so that only blocks < first remain.  A block goes when
 * nothing is left under it; its slot is cleared in the same transaction
 * (Linux's ext3_free_branches).  The entries are walked from the last, so
 * that the blocks left are always a beginning of the file. */
static void truncate_tree(struct inode *inode, struct buffer_head *parent, uint32_t *slot,
                          int level, uint64_t base, uint64_t first)
{
    struct super_block *sb = inode->i_sb;
    unsigned bits = EXT2_SB(sb)->s_addr_per_block_bits;
    uint64_t span = 1ULL << (bits * level);
    unsigned long nr = *slot;
    struct buffer_head *bh = NULL;

    if (!nr || first >= base + span)
        return;
    if (!ext2_data_block_valid(sb, nr)) {
        bad_block(inode, nr);
        if (first <= base)             /* nothing of it is kept: cut it off */
            ext2_set_slot(inode, parent, slot, 0);
        return;
    }
    if (level > 0) {
        if (!(bh = sb_bread(sb, nr)))
            return;
        uint32_t *p = (uint32_t *)bh->b_data;
        uint64_t child_span = span >> bits;
        for (long i = EXT2_SB(sb)->s_addr_per_block - 1; i >= 0; i--) {
            if (p[i] == nr) {          /* a loop: cut it, never follow it */
                bad_block(inode, nr);
                ext2_set_slot(inode, bh, &p[i], 0);
            } else {
                truncate_tree(inode, bh, &p[i], level - 1, base + i * child_span, first);
            }
        }
        for (unsigned long i = 0; i < EXT2_SB(sb)->s_addr_per_block; i++) {
            if (p[i]) {                /* blocks left under it: it stays */
                brelse(bh);
                return;
            }
        }
    }
    /* nr goes: a data block at or past first, or an indirect block emptied */
    truncate_credits(inode, level ? base : base + 1);
    if (bh)
        ext2_journal_forget(sb, bh);   /* (drops bh) */
    ext2_free_blocks(inode, nr, 1);
    ext2_set_slot(inode, parent, slot, 0);
}

static void __ext2_truncate_blocks(struct inode *inode, loff_t offset);

/* Free every block that maps file bytes at or past offset, from the end of
 * the file back; ext3: in a handle of its own, or the caller's (setattr,
 * evict), restarted as often as the blocks need (truncate_credits).  Under
 * the big kernel lock, as ext2_get_block: a write that failed calls this
 * without it (ext2_write_failed, SMP step 5). */
void ext2_truncate_blocks(struct inode *inode, loff_t offset)
{
    lock_kernel();
    __ext2_truncate_blocks(inode, offset);
    unlock_kernel();
}

static void __ext2_truncate_blocks(struct inode *inode, loff_t offset)
{
    if (!(S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode) || S_ISLNK(inode->i_mode)) ||
        ext2_inode_is_fast_symlink(inode))
        return;
    struct ext2_inode_info *ei = EXT2_I(inode);
    unsigned bits = inode->i_sb->s_blocksize_bits;
    uint64_t first = ((uint64_t)offset + inode->i_sb->s_blocksize - 1) >> bits;
    uint64_t base[4] = { 0, EXT2_NDIR_BLOCKS };  /* where each tree level's blocks begin */

    for (int level = 2; level <= 3; level++)
        base[level] = base[level - 1] + (1ULL << ((level - 1) * (bits - 2)));
    handle_t *handle = ext3_journal_start(inode->i_sb, ext3_blocks_for_truncate(inode));
    if (IS_ERR(handle))
        return;                          /* ext3 aborted: logged; e2fsck frees them */
    mutex_lock(&ei->truncate_mutex);
    for (int level = 3; level >= 1; level--)
        truncate_tree(inode, NULL, &ei->i_data[EXT2_IND_BLOCK + level - 1], level,
                      base[level], first);
    for (int i = EXT2_NDIR_BLOCKS - 1; i >= 0; i--)
        truncate_tree(inode, NULL, &ei->i_data[i], 0, i, first);
    ei->i_next_alloc_goal = 0;
    ei->i_truncate_size = 0;
    mutex_unlock(&ei->truncate_mutex);
    inode->i_mtime = inode->i_ctime = current_time();
    mark_inode_dirty(inode);
    ext3_journal_stop(handle);
}

int ext2_setattr(struct inode *inode, struct iattr *attr)
{
    handle_t *handle = NULL;
    if (attr->ia_valid & ATTR_SIZE && attr->ia_size != inode->i_size) {
        if (!S_ISREG(inode->i_mode))
            return -EINVAL;
        if (attr->ia_size < 0)
            return -EINVAL;
        if (attr->ia_size > inode->i_sb->s_maxbytes)
            return -EFBIG;
        if (inode->i_sb->s_flags & MS_RDONLY)
            return -EROFS;
        /* Zero the rest of the new last block (on disk, via the page cache),
         * so a later extension reads zeros there. */
        int err = block_truncate_page(inode->i_mapping, attr->ia_size, ext2_get_block);
        if (err)
            return err;
        truncate_setsize(inode, attr->ia_size);
        /* ext3: after the page locks above (page lock, then handle) */
        handle = ext3_journal_start(inode->i_sb, ext3_blocks_for_truncate(inode));
        if (IS_ERR(handle))
            return PTR_ERR(handle);
        ext2_truncate_blocks(inode, attr->ia_size);
    } else if (!(inode->i_sb->s_flags & MS_RDONLY)) {
        handle = ext3_journal_start(inode->i_sb, 2);
        if (IS_ERR(handle))
            return PTR_ERR(handle);
    }
    /* A truncate sets mtime and ctime even to the same size, and even from
     * truncate(2), which asks for no times: so does Linux's ext4 driver
     * (ext4_setattr), which mounts these images on the conformance suite's
     * Linux side (user/conform/times); Linux's ext2 only on a change. */
    if (attr->ia_valid & ATTR_SIZE)
        inode->i_mtime = inode->i_ctime = current_time();
    setattr_copy(inode, attr);
    if (handle)
        ext2_write_inode(inode, 0);      /* ext3: in the same transaction */
    return ext3_journal_stop(handle);
}

/* ---- address-space operations ---- */

static int ext2_readpage(struct file *file, struct page *page)
{
    return block_read_full_page(page, ext2_get_block);
}

static int ext2_writepage(struct page *page, struct writeback_control *wbc)
{
    return block_write_full_page(page, ext2_get_block, wbc);
}

/* Linux's ext2_write_failed (ext2.h); ext3's write path calls it too. */
void ext2_write_failed(struct address_space *mapping, loff_t to)
{
    struct inode *inode = mapping->host;
    if (to > inode->i_size) {
        truncate_inode_pages(mapping, inode->i_size);
        ext2_truncate_blocks(inode, inode->i_size);
    }
}

static int ext2_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
                            unsigned len, unsigned flags, struct page **pagep, void **fsdata)
{
    if (pos + len > mapping->host->i_sb->s_maxbytes)
        return -EFBIG;
    int err = block_write_begin(mapping, pos, len, pagep, ext2_get_block);
    if (err)
        ext2_write_failed(mapping, pos + len);
    return err;
}

static int ext2_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                          unsigned len, unsigned copied, struct page *page, void *fsdata)
{
    int ret = generic_write_end(file, mapping, pos, len, copied, page, fsdata);
    if (ret < (int)len)
        ext2_write_failed(mapping, pos + len);
    return ret;
}

static unsigned long ext2_bmap(struct address_space *mapping, unsigned long block)
{
    return generic_block_bmap(mapping, block, ext2_get_block);
}

const struct address_space_operations ext2_aops = {
    .readpage       = ext2_readpage,
    .writepage      = ext2_writepage,
    .write_begin    = ext2_write_begin,
    .write_end      = ext2_write_end,
    .invalidatepage = block_invalidatepage,
    .releasepage    = try_to_free_buffers,
    .is_partially_uptodate = block_is_partially_uptodate,
    .bmap           = ext2_bmap,
};

/* ---- file operations ---- */

/* The first file block in [first, end) that is mapped (data) or not
 * (!data), looked for in the subtree nr (0: none) of the given level (0: a
 * data block), which maps the file blocks from base on.  Returns the
 * block, end if there is none, or -EIO for a bad block number.  A missing
 * indirect block is a hole as wide as its subtree: nothing under it is
 * read.  Caller holds truncate_mutex. */
static long long seek_tree(struct inode *inode, unsigned long nr, int level, uint64_t base,
                           uint64_t first, uint64_t end, int data)
{
    struct super_block *sb = inode->i_sb;
    unsigned bits = EXT2_SB(sb)->s_addr_per_block_bits;
    uint64_t span = 1ULL << (bits * level);
    if (base + span <= first || base >= end)
        return end;
    uint64_t from = max(first, base);
    if (!nr)
        return data ? end : from;
    if (level == 0)
        return data ? from : end;
    if (!ext2_data_block_valid(sb, nr))
        return bad_block(inode, nr);
    struct buffer_head *bh = sb_bread(sb, nr);
    if (!bh)
        return -EIO;
    uint32_t *p = (uint32_t *)bh->b_data;
    uint64_t child_span = span >> bits;
    long long r = end;
    for (unsigned long i = (from - base) >> (bits * (level - 1));
         i < EXT2_SB(sb)->s_addr_per_block && r == (long long)end; i++)
        r = seek_tree(inode, p[i], level - 1, base + i * child_span, first, end, data);
    brelse(bh);
    return r;
}

/*
 * llseek: SEEK_DATA and SEEK_HOLE see the block tree, as Linux's ext4
 * (which mounts the reference ext2 images) does for files mapped through
 * indirect blocks (ext4_llseek, iomap_seek_data/iomap_seek_hole): data is
 * a mapped block, a hole an unmapped one, and the end of the file is a
 * hole.  Every written byte has its block (write_begin allocates it), so
 * the tree alone answers.  An offset at or past EOF is -ENXIO; the result
 * is never before the offset.  The other whences are generic_file_llseek.
 */
static loff_t ext2_llseek(struct file *file, loff_t off, int whence)
{
    if (whence != SEEK_DATA && whence != SEEK_HOLE)
        return generic_file_llseek(file, off, whence);
    struct inode *inode = file->f_inode;
    struct ext2_inode_info *ei = EXT2_I(inode);
    unsigned bits = inode->i_blkbits;
    int data = whence == SEEK_DATA;

    mutex_lock(&inode->i_mutex);
    loff_t isize = inode->i_size;
    if (off < 0 || off >= isize) {
        mutex_unlock(&inode->i_mutex);
        return -ENXIO;
    }
    uint64_t first = (uint64_t)off >> bits;
    uint64_t end = ((uint64_t)isize + (1U << bits) - 1) >> bits;
    uint64_t ptrs = EXT2_SB(inode->i_sb)->s_addr_per_block;
    uint64_t base = EXT2_NDIR_BLOCKS, span = ptrs;
    long long r = end;
    mutex_lock(&ei->truncate_mutex);
    for (unsigned i = 0; i < EXT2_NDIR_BLOCKS && r == (long long)end; i++)
        r = seek_tree(inode, ei->i_data[i], 0, i, first, end, data);
    for (int level = 1; level <= 3 && r == (long long)end; level++) {
        r = seek_tree(inode, ei->i_data[EXT2_IND_BLOCK + level - 1], level, base, first, end, data);
        base += span;
        span *= ptrs;
    }
    mutex_unlock(&ei->truncate_mutex);
    mutex_unlock(&inode->i_mutex);
    if (r < 0)
        return r;
    loff_t pos;
    if (r == (long long)end)
        pos = data ? -ENXIO : isize;   /* no data left; the hole at EOF */
    else
        pos = max(off, (loff_t)r << bits);
    return pos < 0 ? pos : vfs_setpos(file, pos, inode->i_sb->s_maxbytes);
}

/* open: a file past MAX_NON_LFS needs O_LARGEFILE (generic_file_open);
 * reads may be RWF_NOWAIT (FMODE_NOWAIT), as ext4_file_open allows. */
static int ext2_file_open(struct inode *inode, struct file *file)
{
    file->f_mode |= FMODE_NOWAIT;
    return generic_file_open(inode, file);
}

/* read_iter: generic_file_read_iter, cut first to what is cached under
 * RWF_NOWAIT (filemap_nowait_limit: -EAGAIN if nothing is). */
static ssize_t ext2_file_read_iter(struct file *file, struct iov_iter *to, loff_t *ppos)
{
    if (to->iocb_flags & IOCB_NOWAIT) {
        int err = filemap_nowait_limit(file->f_mapping, to, *ppos);
        if (err)
            return err;
    }
    return generic_file_read_iter(file, to, ppos);
}

/* fsync of a regular file: ext2's is the whole filesystem, in order
 * (generic_file_fsync, fs/sync.c); ext3's is the journal's (ext3_sync_file,
 * ext3_ordered.c). */
static int ext2_fsync(struct file *file, int datasync)
{
    if (EXT2_SB(file->f_mapping->host->i_sb)->s_journal)
        return ext3_sync_file(file, datasync);
    return generic_file_fsync(file, datasync);
}

const struct file_operations ext2_file_operations = {
    .open       = ext2_file_open,
    .llseek     = ext2_llseek,
    .read_iter  = ext2_file_read_iter,
    .write_iter = generic_file_write_iter,
    .fsync      = ext2_fsync,
    .mmap       = generic_file_mmap,
    .fop_flags  = FOP_UNLOCKED_RW,     /* SMP step 5: the big lock is taken below */
};

const struct inode_operations ext2_file_inode_operations = {
    .setattr = ext2_setattr,
};
