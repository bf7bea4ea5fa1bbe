/* fs/ext2/ext2.h: what the files of fs/ext2/ share (not a public interface).
 *
 *   super.c   mount: superblock and group-descriptor validation, ext3's
 *             journal checked and recovered (fs/jbd/), statfs,
 *             sync_fs, put_super; registers "ext2"
 *   balloc.c  block bitmaps: ext2_new_block, ext2_free_blocks; the
 *             "is this a data block" range check every pointer goes through
 *   ialloc.c  inode bitmaps: ext2_new_inode, ext2_free_inode
 *   inode.c   ext2_iget, write_inode, evict_inode, ext2_get_block (the
 *             i_block[] tree), truncate, setattr, the a_ops
 *   dir.c     directory blocks: lookup, readdir, add/delete entries
 *   namei.c   the inode_operations: create, mkdir, rmdir, unlink, rename,
 *             link, symlink, readlink
 *   ext3_journal.c  ext3: the handle calls around each metadata change
 *             (ext2's own calls when there is no journal)
 *   ext3_ordered.c  ext3: a regular file's a_ops in data=ordered mode
 */
#ifndef _FS_EXT2_EXT2_H
#define _FS_EXT2_EXT2_H
#include <kernel.h>
#include <fs.h>
#include <ext2_fs.h>
#include <buffer_head.h>

/* super.c */
struct ext2_group_desc *ext2_get_group_desc(struct super_block *sb, unsigned long group,
                                            struct buffer_head **bhp);
int ext2_group_has_super(struct super_block *sb, unsigned long g);
void ext2_error(struct super_block *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* balloc.c */
int ext2_data_block_valid(struct super_block *sb, unsigned long block);
unsigned long ext2_new_block(struct inode *inode, unsigned long goal, int *err);
void ext2_free_blocks(struct inode *inode, unsigned long block, unsigned long count);
unsigned long ext2_count_free_blocks(struct super_block *sb);
/* A bitmap, its group's descriptor block and the superblock (the free
 * counts) are about to change / have changed (ext3_journal.c's calls). */
int ext2_group_write_access(struct super_block *sb, struct buffer_head *bm,
                            struct buffer_head *gdbh);
void ext2_group_dirty(struct super_block *sb, struct buffer_head *bm, struct buffer_head *gdbh);

/* ialloc.c */
struct inode *ext2_new_inode(struct inode *dir, mode_t mode);   /* ERR_PTR */
void ext2_free_inode(struct inode *inode);

/* inode.c */
struct inode *ext2_iget(struct super_block *sb, unsigned long ino);  /* ERR_PTR */
int ext2_write_inode(struct inode *inode, int sync);
void ext2_evict_inode(struct inode *inode);
int ext2_get_block(struct inode *inode, sector_t iblock, struct buffer_head *bh, int create);
struct buffer_head *ext2_bread(struct inode *inode, sector_t iblock, int create, int *err);
void ext2_truncate_blocks(struct inode *inode, loff_t offset);
/* A write that failed or came up short may have allocated blocks past
 * i_size: drop them and the cached pages there.  No page lock, no handle
 * held (it takes both). */
void ext2_write_failed(struct address_space *mapping, loff_t to);
/* A device node's number into i_data (i_block[] on disk), as Linux's ext2. */
void ext2_encode_dev(struct inode *inode, dev_t rdev);
int ext2_setattr(struct inode *inode, struct iattr *attr);
void ext2_set_inode_ops(struct inode *inode);
int ext2_inode_is_fast_symlink(struct inode *inode);
extern const struct address_space_operations ext2_aops;
extern const struct file_operations ext2_file_operations;
extern const struct inode_operations ext2_file_inode_operations;
extern const struct inode_operations ext2_symlink_inode_operations;

/* dir.c */
int ext2_inode_by_name(struct inode *dir, const char *name, size_t len, unsigned long *ino);
int ext2_add_link(struct inode *dir, const char *name, size_t len, struct inode *inode);
int ext2_delete_entry(struct inode *dir, const char *name, size_t len);
int ext2_set_link(struct inode *dir, const char *name, size_t len, struct inode *inode,
                  bool update_times);
int ext2_removed_dir_parent(struct inode *dir, unsigned long *ino);
int ext2_empty_dir(struct inode *dir);
int ext2_make_empty(struct inode *inode, struct inode *parent);
extern const struct file_operations ext2_dir_operations;

/* ext3_journal.c: with sbi->s_journal (ext3 mounted read-write) JBD's
 * calls on the task's handle; without, what ext2 does.  Before a metadata
 * buffer's bytes change: get_write_access (get_create_access for a block
 * just allocated); after: ext2_journal_dirty (ext2: mark_buffer_dirty); a
 * freed metadata block: ext2_journal_forget (ext2: bforget; ext3: a
 * revoke).  ext3_journal_start returns NULL without a journal. */
struct handle_s;
/* The journal's half of each, out of line in ext3_journal.c: */
struct handle_s *ext3_journal_start_sb(struct super_block *sb, int nblocks);
int ext3_journal_stop_handle(struct handle_s *handle);
int ext3_get_write_access(struct buffer_head *bh);
int ext3_get_create_access(struct buffer_head *bh);
int ext3_dirty_metadata(struct buffer_head *bh);
/* Every block a write allocates goes through six or more of these, so the
 * test "is there a journal" is inline and ext2 pays no call for it (Linux's
 * ext4 makes the same test, ext4_handle_valid, inline, and calls JBD2 out
 * of line only with a journal). */
static inline struct handle_s *ext3_journal_start(struct super_block *sb, int nblocks)
{
    return EXT2_SB(sb)->s_journal ? ext3_journal_start_sb(sb, nblocks) : NULL; /* or ERR_PTR */
}
static inline int ext3_journal_stop(struct handle_s *handle)
{
    return handle ? ext3_journal_stop_handle(handle) : 0;
}
static inline int ext2_journal_get_write_access(struct super_block *sb, struct buffer_head *bh)
{
    return EXT2_SB(sb)->s_journal ? ext3_get_write_access(bh) : 0;
}
static inline int ext2_journal_get_create_access(struct super_block *sb, struct buffer_head *bh)
{
    return EXT2_SB(sb)->s_journal ? ext3_get_create_access(bh) : 0;
}
static inline int ext2_journal_dirty(struct super_block *sb, struct buffer_head *bh)
{
    if (EXT2_SB(sb)->s_journal)
        return ext3_dirty_metadata(bh);
    mark_buffer_dirty(bh);
    return 0;
}
void ext2_journal_forget(struct super_block *sb, struct buffer_head *bh);
void ext2_journal_revoke(struct super_block *sb, unsigned long blocknr);   /* ext2: nothing */
/* Credits: the metadata buffers a handle may dirty, as Linux 2.6.24's
 * include/linux/ext3_jbd.h and fs/ext3 compute them (without quotas; the
 * xattr term stays, as Linux counts it even for a file without xattrs).  A
 * nested journal_start adds none: the outermost handle's reservation must
 * cover everything done under it, and JBD WARNs when a handle dirties more
 * buffers than it reserved (fs/jbd/transaction.c). */
#define EXT3_SINGLEDATA_TRANS_BLOCKS  8  /* one data block: the inode, the block
                                            bitmap, group descriptor, superblock,
                                            three indirect blocks, and one more */
#define EXT3_XATTR_TRANS_BLOCKS       6
#define EXT3_DATA_TRANS_BLOCKS  (EXT3_SINGLEDATA_TRANS_BLOCKS + EXT3_XATTR_TRANS_BLOCKS - 2) /* 12 */
#define EXT3_DELETE_TRANS_BLOCKS      (2 * EXT3_DATA_TRANS_BLOCKS + 64)                    /* 88 */
#define EXT3_INDEX_EXTRA_TRANS_BLOCKS 8  /* a directory that grows */
#define EXT3_MAX_TRANS_DATA           64 /* a truncate's first handle, at most */
#define EXT3_RESERVE_TRANS_BLOCKS     12 /* a truncate extends its handle below this */
/* each directory operation's handle (fs/ext3/namei.c's journal_start calls) */
#define EXT3_CREATE_CREDITS  (EXT3_DATA_TRANS_BLOCKS + EXT3_INDEX_EXTRA_TRANS_BLOCKS + 3) /* 23:
                                            create, mknod, mkdir */
#define EXT3_SYMLINK_CREDITS (EXT3_DATA_TRANS_BLOCKS + EXT3_INDEX_EXTRA_TRANS_BLOCKS + 5) /* 25 */
#define EXT3_LINK_CREDITS    (EXT3_DATA_TRANS_BLOCKS + EXT3_INDEX_EXTRA_TRANS_BLOCKS)     /* 20 */
#define EXT3_UNLINK_CREDITS  EXT3_DELETE_TRANS_BLOCKS                                   /* 88:
                                            unlink, rmdir */
#define EXT3_RENAME_CREDITS  (2 * EXT3_DATA_TRANS_BLOCKS + EXT3_INDEX_EXTRA_TRANS_BLOCKS + 2) /* 34 */
/* ext2_get_block's own handle, when it is not nested in one (Vellum's:
 * Linux's get_block always runs in its caller's) */
#define EXT3_ALLOC_CREDITS   16

/* Linux's ext3_writepage_trans_blocks: a page's worth of blocks allocated
 * in data=ordered mode: each block and its indirect blocks (3, or 5 when a
 * page can straddle the direct blocks' end), the bitmaps and descriptors
 * twice over, the inode and the superblock: 16 at 1 KiB blocks, 10 at 4 KiB. */
static inline int ext3_writepage_trans_blocks(struct inode *inode)
{
    int bpp = 1 << (PAGE_SHIFT - inode->i_blkbits);
    int indirects = (EXT2_NDIR_BLOCKS % bpp) ? 5 : 3;
    return 2 * (bpp + indirects) + 2;
}

/* Linux's blocks_for_truncate: a truncate's (and a freed inode's) handle,
 * and each extension of it: the file's blocks (2 to EXT3_MAX_TRANS_DATA)
 * plus a data allocation's worth. */
static inline int ext3_blocks_for_truncate(struct inode *inode)
{
    unsigned long needed = inode->i_blocks >> (inode->i_blkbits - 9);
    if (needed < 2)
        needed = 2;
    if (needed > EXT3_MAX_TRANS_DATA)
        needed = EXT3_MAX_TRANS_DATA;
    return EXT3_DATA_TRANS_BLOCKS + needed;
}

/* ext3_ordered.c: the a_ops of a regular file on ext3 mounted read-write
 * (data=ordered); ext2_set_inode_ops picks them. */
extern const struct address_space_operations ext3_ordered_aops;
/* ... and its fsync (ext2_file_operations calls it when there is a journal) */
int ext3_sync_file(struct file *file, int datasync);

/* namei.c: ext3's orphan list (Linux 2.6.24's ext3_orphan_add and
 * ext3_orphan_del).  An inode whose last link goes is put at the head of
 * the on-disk list (the superblock's s_last_orphan; each orphan's i_dtime
 * names the next) in the handle that unlinked it, and taken off in the
 * transaction that frees it (ext2_evict_inode): a crash in between leaves
 * it for the next mount (ext3_orphan_cleanup, super.c).  Both run in a
 * handle; ext2 (no journal): nothing.  ext3_orphan_add: 0 or -errno. */
int ext3_orphan_add(struct inode *inode);
void ext3_orphan_del(struct inode *inode);
int ext3_set_next_orphan(struct super_block *sb, unsigned long ino, uint32_t next);  /* inode.c */

/* namei.c */
extern const struct inode_operations ext2_dir_inode_operations;
#endif
