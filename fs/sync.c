/* fs/sync.c: sync(2), fsync(2), syncing a filesystem on unmount, and the
 * emergency sync for power off.  Sits on fs/fs-writeback.c.
 *
 * The order is always: data pages, then inodes (write_inode_now does both
 * for each inode), then the filesystem's own metadata (->sync_fs: the
 * superblock, group descriptors, bitmaps and metadata buffers).
 */
#include <kernel.h>
#include <errno.h>
#include <writeback.h>
#include <blkdev.h>
#include "internal.h"

/* The drive's write cache (kernel/drivers/ata.c): the data written so far
 * to the medium before the metadata that names it (Linux's REQ_PREFLUSH
 * before a journal commit), then the metadata too (blkdev_issue_flush at
 * the end of fsync). */
static int sync_fs_flushed(struct super_block *sb)
{
    int err = sb->s_bdev ? blkdev_flush(sb->s_bdev) : 0;
    if (sb->s_op && sb->s_op->sync_fs) {
        int e = sb->s_op->sync_fs(sb, 1);
        if (e && !err)
            err = e;
    }
    int e = sb->s_bdev ? blkdev_flush(sb->s_bdev) : 0;
    return err ? err : e;
}

int sync_filesystem(struct super_block *sb)
{
    if (sb->s_flags & MS_RDONLY)
        return 0;
    /* Two passes as Linux: start everything without waiting, then write and
     * wait for what is left.  Each writes what was dirty when it began
     * (tagged_writepages, as Linux's writeback_inodes_sb; WB_SYNC_ALL is
     * tagged anyway): dirt made meanwhile by other tasks cannot keep a
     * sync from ending (fs/fs-writeback.c, mm/page-writeback.c, and
     * sync_blockdev in fs/buffer.c for the metadata). */
    struct writeback_control wbc = {
        .sync_mode = WB_SYNC_NONE, .nr_to_write = 0x7fffffff, .tagged_writepages = 1,
    };
    int err = writeback_inodes_sb(sb, &wbc);
    sync_inodes_sb(sb);
    int e = sync_fs_flushed(sb);
    return err ? err : e;
}

void ksys_sync(void)
{
    struct super_block *sb;
    mutex_lock(&sb_list_lock);
    list_for_each_entry(sb, &super_blocks, s_list)
        sync_filesystem(sb);
    mutex_unlock(&sb_list_lock);
}

/*
 * Power off and reboot call this first (kernel/x86/power.c's machine_power_off,
 * from process context, before interrupts go off): every dirty page, inode
 * and superblock reaches the disk.  Not from panic (the state may be
 * corrupt) nor with interrupts disabled (the disk driver sleeps).
 */
void emergency_sync(void)
{
    printk(KERN_NOTICE "sync: writing all dirty data before power off\n");
    ksys_sync();
    printk(KERN_NOTICE "sync: done\n");
}

/*
 * fsync for page-cache files: the file's pages (waiting for them) and its
 * inode first, then everything its metadata may depend on.  Crash
 * consistency is the contract: after fsync returns, a power cut must leave
 * an image e2fsck finds clean with the file's bytes in it.  The file's
 * directory entry sits in a directory block beside entries of other new
 * files, its blocks in a bitmap beside their blocks, so writing those
 * blocks alone would name inodes and blocks whose own metadata is still in
 * memory (e2fsck: entries pointing at zeroed inodes, bitmap differences).
 * Vellum keeps no per-inode dependency list (Linux ext2 does not either,
 * and is not crash consistent; ext4 solves it with the journal), so fsync
 * writes every dirty inode of the filesystem, data first, and then the
 * metadata (->sync_fs: bitmaps, descriptors, inode tables, indirect and
 * directory blocks, superblock last).  That is sync_filesystem: like
 * ext3's fsync, which commits the whole running transaction.
 * Its time is bounded by what was dirty when it began, whatever other tasks
 * dirty meanwhile: each pass below writes only what was dirty at its own
 * start (do_writepages' PG_towrite tags, writeback_inodes_sb's private
 * list, sync_blockdev's BH_Towrite), as Linux's sync bounds its passes by
 * their start (wb_writeback's older_than_this, tag_pages_for_writeback).
 * Linux's ext2 fsync is this function's namesake: file_write_and_wait_range,
 * sync_mapping_buffers (the file's indirect blocks), sync_inode_metadata,
 * then a flush of the device; here the whole filesystem stands in for the
 * file's own metadata (above), so the bound is the filesystem's dirt at
 * the start, and another process creating and unlinking files delays an
 * fsync by its own dirt of that moment, never for ever (before, it did:
 * tools/tests/powercut.sh, fsyncchurn).
 * Simplification: sync_filesystem's WB_SYNC_ALL pass also collects (and
 * clears) write errors recorded on other files' mappings; Linux keeps those
 * for their own fsync (errseq_t).  The error returned is this file's and
 * the metadata's.
 */
int generic_file_fsync(struct file *file, int datasync)
{
    struct inode *inode = file->f_mapping->host;
    struct super_block *sb = inode->i_sb;
    int err = write_inode_now(inode, 1);
    if (sb->s_flags & MS_RDONLY)
        return err;
    struct writeback_control wbc = {
        .sync_mode = WB_SYNC_NONE, .nr_to_write = 0x7fffffff, .tagged_writepages = 1,
    };
    writeback_inodes_sb(sb, &wbc);      /* other files: their errors are theirs */
    sync_inodes_sb(sb);
    int e = sync_fs_flushed(sb);
    return err ? err : e;
}

int vfs_fsync(struct file *file, int datasync)
{
    if (!file)
        return -EBADF;
    if (file->f_op && file->f_op->fsync)
        return file->f_op->fsync(file, datasync);
    return -EINVAL;
}
