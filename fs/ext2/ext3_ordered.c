/* fs/ext2/ext3_ordered.c: ext3's address-space operations in data=ordered
 * mode, the a_ops of a regular file on ext3 mounted read-write (Linux
 * 2.6.24's fs/ext3/inode.c: ext3_write_begin, ext3_ordered_write_end,
 * ext3_ordered_writepage, ext3_invalidatepage, ext3_releasepage).
 *
 * The promise of ordered mode: a file's data blocks reach the disk before
 * the transaction that gives them to the file (or moves i_size over them)
 * commits, so after a crash a file never shows bytes another file left in
 * a block.  The data itself is not logged.
 *
 *   write_begin   page locked (grab_cache_page_write_begin), then, if the
 *                 write allocates or goes past i_size, a handle (page
 *                 lock, then handle: mm/filemap.c's LOCK ORDER, as
 *                 2.6.24), then __block_write_begin with ext2_get_block,
 *                 whose allocation joins the handle
 *   write_end     with a handle: the page's mapped buffers in the write's
 *                 range are filed as ordered data (journal_dirty_data),
 *                 then generic_write_end, whose mark_inode_dirty puts the
 *                 new i_size in the same transaction (ext3_dirty_inode),
 *                 then the handle stops
 *   writepage     a page with unmapped buffers (a hole written through a
 *                 mapping) allocates in a handle, and its data is on the
 *                 disk before the handle stops
 *   invalidatepage, releasepage   a filed buffer is not freed under the
 *                 journal (journal_invalidatepage,
 *                 journal_try_to_free_buffers)
 * The commit writes the filed buffers before its log blocks (fs/jbd/
 * commit.c).  And fsync (ext3_sync_file): the file's pages and inode, then
 * the running transaction committed.
 *
 * Simplification on purpose: a write into blocks the file already has,
 * inside i_size, starts no handle and files nothing ("a cached overwrite
 * starts no transaction"): no metadata changes, and those bytes never
 * belonged to another file.  Linux 2.6.24 starts a handle for every write
 * and files every buffer it touches; ext4's ordered mode, like this one,
 * orders only what a crash could expose.  A write to a page with no
 * buffers yet (not cached) starts a handle that may find nothing to
 * allocate.
 *
 * Layer: the filesystem (fs/ext2/), on fs/buffer.c's helpers and JBD
 * (include/jbd.h).  Without a journal (after the read-only remount) every
 * operation here is ext2's.
 */
#include <kernel.h>
#include <smp_lock.h>
#include <errno.h>
#include <err.h>
#include <mm.h>
#include <pagemap.h>
#include <writeback.h>
#include <sched.h>
#include <jbd.h>
#include <blkdev.h>
#include <fs.h>
#include "ext2.h"

static journal_t *ext3_journal_of(struct address_space *mapping)
{
    return EXT2_SB(mapping->host->i_sb)->s_journal;
}

/* Does a write of [from, to) of the locked page change metadata: past
 * i_size, or into buffers not mapped (a hole to allocate, or not yet
 * looked up)? */
static bool ext3_write_needs_handle(struct page *page, loff_t pos, unsigned from, unsigned to)
{
    struct inode *inode = page->mapping->host;
    if (pos + (to - from) > inode->i_size || !PagePrivate(page))
        return true;
    struct buffer_head *head = page_buffers(page), *bh = head;
    unsigned start = 0;
    do {
        if (start < to && start + bh->b_size > from && !buffer_mapped(bh))
            return true;
        start += bh->b_size;
        bh = bh->b_this_page;
    } while (bh != head);
    return false;
}

/* File the mapped buffers of the locked page under [from, to) as ordered
 * data of handle's transaction.  A buffer that could not be filed (no
 * memory) is written now instead, so the promise holds either way. */
static void ext3_file_data(handle_t *handle, struct page *page, unsigned from, unsigned to)
{
    if (!PagePrivate(page))
        return;
    struct buffer_head *head = page_buffers(page), *bh = head;
    unsigned start = 0;
    do {
        if (start < to && start + bh->b_size > from && buffer_mapped(bh) &&
            journal_dirty_data(handle, bh) == -ENOMEM)
            write_dirty_buffer(bh);
        start += bh->b_size;
        bh = bh->b_this_page;
    } while (bh != head);
}

static int ext3_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
                            unsigned len, unsigned flags, struct page **pagep, void **fsdata)
{
    struct inode *inode = mapping->host;
    unsigned from = pos & (PAGE_SIZE - 1);
    handle_t *handle = NULL;
    if (pos + len > inode->i_sb->s_maxbytes)
        return -EFBIG;
    struct page *page = grab_cache_page_write_begin(mapping, pos >> PAGE_SHIFT);
    if (!page)
        return -ENOMEM;
    bool jbd = ext3_journal_of(mapping) && ext3_write_needs_handle(page, pos, from, from + len);
    if (jbd) {
        lock_kernel();                 /* JBD still runs under the big lock (SMP step 5) */
        handle = ext3_journal_start(inode->i_sb, ext3_writepage_trans_blocks(inode));
        if (IS_ERR(handle)) {
            unlock_kernel();
            unlock_page(page);
            put_page(page);
            return PTR_ERR(handle);
        }
    }
    int err = __block_write_begin(page, pos, len, ext2_get_block);
    if (err) {
        /* New blocks in the range were zeroed and dirtied: a block
         * inside i_size stays the file's, so its zeros are ordered too. */
        if (handle)
            ext3_file_data(handle, page, from, from + len);
        unlock_page(page);
        put_page(page);
        ext3_journal_stop(handle);
        if (jbd)
            unlock_kernel();
        ext2_write_failed(mapping, pos + len);    /* no page lock, no handle */
        return err;
    }
    if (jbd)
        unlock_kernel();
    *pagep = page;
    *fsdata = handle;
    return 0;
}

/* With a handle: even a short copy files the whole range, since
 * block_write_end zeroes and dirties the new blocks it did not fill. */
static int ext3_ordered_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                                  unsigned len, unsigned copied, struct page *page, void *fsdata)
{
    handle_t *handle = fsdata;
    unsigned from = pos & (PAGE_SIZE - 1);
    if (handle) {
        lock_kernel();                 /* JBD: as in write_begin */
        ext3_file_data(handle, page, from, from + len);
    }
    int ret = generic_write_end(file, mapping, pos, len, copied, page, fsdata);
    int err = ext3_journal_stop(handle);
    if (handle)
        unlock_kernel();
    if (ret < (int)len)
        ext2_write_failed(mapping, pos + len);
    return err ? err : ret;
}

/* Will writepage allocate: a page with no buffers yet (dirtied whole,
 * through a mapping), or an unmapped buffer before i_size? */
static bool ext3_writepage_allocates(struct page *page)
{
    if (!PagePrivate(page))
        return true;
    loff_t i_size = page->mapping->host->i_size;
    loff_t start = (loff_t)page->index << PAGE_SHIFT;
    struct buffer_head *head = page_buffers(page), *bh = head;
    do {
        if (start < i_size && !buffer_mapped(bh))
            return true;
        start += bh->b_size;
        bh = bh->b_this_page;
    } while (bh != head);
    return false;
}

static int ext3_ordered_writepage(struct page *page, struct writeback_control *wbc)
{
    struct inode *inode = page->mapping->host;
    if (!ext3_journal_of(page->mapping) || !ext3_writepage_allocates(page))
        return block_write_full_page(page, ext2_get_block, wbc);
    /* Allocating: the handle may wait for a commit, and the commit for the
     * pages in this task's plug, so they go first. */
    blk_flush_plug();
    handle_t *handle = ext3_journal_start(inode->i_sb, ext3_writepage_trans_blocks(inode));
    if (IS_ERR(handle)) {
        set_page_dirty(page);          /* the data waits for a later pass */
        unlock_page(page);
        return PTR_ERR(handle);
    }
    int err = block_write_full_page(page, ext2_get_block, wbc);
    blk_flush_plug();                  /* on the disk before the allocation commits */
    int e = ext3_journal_stop(handle);
    return err ? err : e;
}

static void ext3_invalidatepage(struct page *page, unsigned long offset)
{
    journal_t *journal = ext3_journal_of(page->mapping);
    if (journal)
        journal_invalidatepage(journal, page, offset);
    block_invalidatepage(page, offset);
}

static int ext3_releasepage(struct page *page)
{
    return journal_try_to_free_buffers(page);
}

static int ext3_readpage(struct file *file, struct page *page)
{
    return block_read_full_page(page, ext2_get_block);
}

static unsigned long ext3_bmap(struct address_space *mapping, unsigned long block)
{
    return generic_block_bmap(mapping, block, ext2_get_block);
}

const struct address_space_operations ext3_ordered_aops = {
    .readpage       = ext3_readpage,
    .writepage      = ext3_ordered_writepage,
    .write_begin    = ext3_write_begin,
    .write_end      = ext3_ordered_write_end,
    .invalidatepage = ext3_invalidatepage,
    .releasepage    = ext3_releasepage,
    .is_partially_uptodate = block_is_partially_uptodate,
    .bmap           = ext3_bmap,
};

/*
 * Linux 2.6.24's ext3_sync_file: write the file's dirty pages (Linux's
 * caller, do_fsync, wrote them; Vellum's vfs_fsync does not, so here) and
 * its inode (the inode's copy joins the running transaction;
 * ext3_write_inode, asked to wait, commits it), then commit
 * the running transaction and wait (journal_force_commit): its ordered data
 * first, the log, and the disk's cache flushed before and after the commit
 * block, so everything is durable when it returns.  When no commit began
 * after the pages were written (nothing of the file's changed but its
 * bytes, and no transaction was running), the pages may still be in the
 * disk's cache: one flush (later Linux's blkdev_issue_flush there).  A
 * commit that began later covers them; before, this flushed whenever no
 * transaction was running at the end, so a new file's fsync, committed by
 * write_inode_now, flushed three times, not two.
 *
 * Not the other files, unlike ext2's generic_file_fsync (the whole
 * filesystem, in the order that keeps it consistent): the journal keeps it
 * consistent, and the commit takes whatever else the transaction holds.
 * Nor the flushes around sync_fs that generic_file_fsync adds: the commit
 * makes its own.
 */
int ext3_sync_file(struct file *file, int datasync)
{
    struct inode *inode = file->f_mapping->host;
    struct super_block *sb = inode->i_sb;
    journal_t *journal = EXT2_SB(sb)->s_journal;
    int err = filemap_write_and_wait(inode->i_mapping);
    if ((sb->s_flags & MS_RDONLY) || !journal) {
        int e = write_inode_now(inode, 1);
        return err ? err : e;           /* remounted read-only: synced then */
    }
    /* The pages are written: a transaction running now, or started later,
     * commits after them, and its flushes cover them. */
    mutex_lock(&journal->j_state_lock);
    tid_t covers = journal->j_running_transaction ? journal->j_running_transaction->t_tid
                                                  : journal->j_transaction_sequence;
    mutex_unlock(&journal->j_state_lock);
    int e = write_inode_now(inode, 1);
    if (!err)
        err = e;
    e = journal_force_commit(journal);
    if (!e && !tid_geq(journal->j_commit_sequence, covers))
        e = blkdev_flush(sb->s_bdev);
    return err ? err : e;
}
