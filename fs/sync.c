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
#include "internal.h"

int sync_filesystem(struct super_block *sb)
{
    if (sb->s_flags & MS_RDONLY)
        return 0;
    /* Two passes as Linux: start everything without waiting, then write and
     * wait for what is left. */
    struct writeback_control wbc = { .sync_mode = WB_SYNC_NONE, .nr_to_write = 0x7fffffff };
    int err = writeback_inodes_sb(sb, &wbc);
    sync_inodes_sb(sb);
    if (sb->s_op && sb->s_op->sync_fs) {
        int e = sb->s_op->sync_fs(sb, 1);
        if (e && !err)
            err = e;
    }
    return err;
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
 * fsync for page-cache files: the file's pages (waiting for them), its
 * inode, and then the filesystem's metadata.  Simplification on purpose:
 * Linux writes only this inode's metadata buffers (sync_mapping_buffers);
 * we call ->sync_fs, which writes all of the filesystem's metadata, so an
 * fsync'ed file's indirect blocks and bitmaps are surely on disk.
 */
int generic_file_fsync(struct file *file, int datasync)
{
    struct inode *inode = file->f_mapping->host;
    int err = write_inode_now(inode, 1);
    struct super_block *sb = inode->i_sb;
    if (!(sb->s_flags & MS_RDONLY) && sb->s_op && sb->s_op->sync_fs) {
        int e = sb->s_op->sync_fs(sb, 1);
        if (e && !err)
            err = e;
    }
    return err;
}

int vfs_fsync(struct file *file, int datasync)
{
    if (!file)
        return -EBADF;
    if (file->f_op && file->f_op->fsync)
        return file->f_op->fsync(file, datasync);
    return -EINVAL;
}
