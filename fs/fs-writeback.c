/* fs/fs-writeback.c: which inodes get written back, and when.  Owns the
 * per-superblock dirty lists (sb->s_dirty), mark_inode_dirty, write_inode_now,
 * writeback_inodes_sb and the flusher kernel thread.  Sits on
 * mm/page-writeback.c (pages) and the filesystems' ->write_inode (inodes).
 *
 * An inode is on its sb->s_dirty list while I_DIRTY (the inode itself must
 * be written) or I_DIRTY_PAGES (some page of its mapping is dirty).
 * i_data.dirtied_when records when it became dirty; the flusher writes the
 * inodes that have been dirty longer than dirty_expire_centisecs, every
 * dirty_writeback_centisecs (Linux's "kupdate" style writeback).
 *
 * Background writeback (Linux's wb_start_background_writeback): when dirty
 * pages pass vm_dirty_background_ratio (mm/page-writeback.c) or reclaim
 * meets dirty pages, the flusher is woken to write dirty PAGES, of any age,
 * until the count is under the background threshold again.  Only pages:
 * their blocks were allocated when written, so writing them early names
 * nothing on the disk that is not there yet; inodes, directories and
 * bitmaps keep the expiry and its ordered sync_filesystem.
 */
#include <kernel.h>
#include <errno.h>
#include <init.h>
#include <writeback.h>
#include <err.h>
#include <blkdev.h>
#include <swap.h>
#include <vmstat.h>
#include "internal.h"

DEFINE_SPINLOCK(inode_wb_lock);
static DECLARE_WAIT_QUEUE_HEAD(flusher_wait);
static int flusher_kick;
static int flusher_background;         /* write dirty pages now (background writeback) */
static struct task_struct *flusher_task;
unsigned long flusher_runs;            /* passes made, for tests */

static unsigned long cs_to_jiffies(unsigned cs)
{
    unsigned long j = (unsigned long)cs * HZ / 100;
    return j ? j : 1;
}

/* Put inode on its superblock's dirty list with the given bits. */
static void __mark_inode_dirty(struct inode *inode, unsigned long bits)
{
    unsigned long flags;
    spin_lock_irqsave(&inode_wb_lock, flags);
    if ((inode->i_state & bits) != bits) {
        if (!(inode->i_state & (I_DIRTY | I_DIRTY_PAGES)))
            inode->i_data.dirtied_when = jiffies;
        inode->i_state |= bits;
        if (list_empty(&inode->i_dirty) && !(inode->i_state & I_FREEING) && inode->i_sb)
            list_add_tail(&inode->i_dirty, &inode->i_sb->s_dirty);
    }
    spin_unlock_irqrestore(&inode_wb_lock, flags);
}

void mark_inode_dirty(struct inode *inode)
{
    if (inode->i_sb && inode->i_sb->s_op && inode->i_sb->s_op->dirty_inode)
        inode->i_sb->s_op->dirty_inode(inode);
    if (inode->i_sb && inode->i_sb->s_op && inode->i_sb->s_op->write_inode)
        __mark_inode_dirty(inode, I_DIRTY);
}

void inode_mark_dirty_pages(struct inode *inode)
{
    __mark_inode_dirty(inode, I_DIRTY_PAGES);
}

static int mapping_has_dirty(struct address_space *mapping)
{
    unsigned long flags;
    struct page *page;
    int dirty = 0;
    spin_lock_irqsave(&mapping->tree_lock, flags);
    list_for_each_entry(page, &mapping->pages, i_pages)
        if (PageDirty(page)) {
            dirty = 1;
            break;
        }
    spin_unlock_irqrestore(&mapping->tree_lock, flags);
    return dirty;
}

/*
 * Write inode's dirty pages as wbc says, then the inode itself (Linux's
 * writeback_single_inode).  WB_SYNC_ALL: wait for the pages' I/O and ask
 * ->write_inode to wait too.  Caller holds a reference.  Returns 0 or the
 * first error (a page write error is also recorded on the mapping, where
 * fsync finds it).
 */
static int writeback_single_inode(struct inode *inode, struct writeback_control *wbc)
{
    struct address_space *mapping = inode->i_mapping;
    int sync = wbc->sync_mode == WB_SYNC_ALL;
    unsigned long flags;
    int err, err2 = 0;

    spin_lock_irqsave(&inode_wb_lock, flags);
    inode->i_state &= ~I_DIRTY_PAGES;   /* set again by any set_page_dirty from now */
    spin_unlock_irqrestore(&inode_wb_lock, flags);

    err = do_writepages(mapping, wbc);
    if (sync)
        err2 = filemap_fdatawait(mapping);
    if (!err)
        err = err2;

    spin_lock_irqsave(&inode_wb_lock, flags);
    int inode_dirty = inode->i_state & I_DIRTY;
    inode->i_state &= ~I_DIRTY;
    spin_unlock_irqrestore(&inode_wb_lock, flags);
    if (inode_dirty && inode->i_sb->s_op->write_inode) {
        int e = inode->i_sb->s_op->write_inode(inode, sync);
        if (e) {
            __mark_inode_dirty(inode, I_DIRTY);
            if (!err)
                err = e;
        }
    }
    if (mapping_has_dirty(mapping))     /* skipped (under writeback) or redirtied */
        __mark_inode_dirty(inode, I_DIRTY_PAGES);

    spin_lock_irqsave(&inode_wb_lock, flags);
    if (!(inode->i_state & (I_DIRTY | I_DIRTY_PAGES)))
        list_del_init(&inode->i_dirty);
    spin_unlock_irqrestore(&inode_wb_lock, flags);
    return err;
}

/* Write inode's dirty pages, then the inode; sync: WB_SYNC_ALL, which
 * writes the pages dirty at the call and waits for them (do_writepages). */
int write_inode_now(struct inode *inode, int sync)
{
    struct writeback_control wbc = {
        .sync_mode = sync ? WB_SYNC_ALL : WB_SYNC_NONE,
        .nr_to_write = 0x7fffffff,
    };
    return writeback_single_inode(inode, &wbc);
}

/*
 * Write back the inodes on sb->s_dirty (those dirtied before
 * wbc->older_than_this, if set), each with wbc's sync_mode and
 * tagged_writepages.  The eligible inodes move to a private list first, so
 * inodes dirtied or re-dirtied while we work wait for the next pass: Linux
 * bounds a sync's pass the same way ("livelock avoidance": sync_inodes_sb
 * and writeback_inodes_sb take only the inodes dirtied before the work
 * started, wb_writeback's older_than_this / dirtied_before), and within an
 * inode do_writepages writes only the pages dirty when it started.
 */
int writeback_inodes_sb(struct super_block *sb, struct writeback_control *wbc)
{
    LIST_HEAD(io);
    struct inode *inode, *tmp;
    unsigned long flags;
    int err = 0;

    spin_lock_irqsave(&inode_wb_lock, flags);
    list_for_each_entry_safe(inode, tmp, &sb->s_dirty, i_dirty) {
        if (wbc->older_than_this &&
            (long)(inode->i_data.dirtied_when - wbc->older_than_this) > 0)
            continue;                   /* not old enough yet */
        list_move_tail(&inode->i_dirty, &io);
    }
    while (!list_empty(&io)) {
        inode = list_first_entry(&io, struct inode, i_dirty);
        list_del_init(&inode->i_dirty);
        if (inode->i_state & (I_FREEING | I_NEW))
            continue;
        inode->i_count++;               /* igrab: we hold inode_wb_lock, see lock order */
        spin_unlock_irqrestore(&inode_wb_lock, flags);
        struct writeback_control iwbc = {
            .sync_mode = wbc->sync_mode,
            .nr_to_write = 0x7fffffff,
            .tagged_writepages = wbc->tagged_writepages,
        };
        int e = writeback_single_inode(inode, &iwbc);
        if (e && !err)
            err = e;
        iput(inode);
        spin_lock_irqsave(&inode_wb_lock, flags);
    }
    spin_unlock_irqrestore(&inode_wb_lock, flags);
    return err;
}

void sync_inodes_sb(struct super_block *sb)
{
    struct writeback_control wbc = { .sync_mode = WB_SYNC_ALL, .nr_to_write = 0x7fffffff };
    writeback_inodes_sb(sb, &wbc);
}

/* ---- background writeback --------------------------------------------- */

#define WB_INODE_BATCH 16

/* Write dirty pages of sb's dirty inodes, up to wbc->nr_to_write: pages
 * only, not the inodes (see the header).  Inodes are taken a batch at a
 * time with a reference, so the writing happens without inode_wb_lock. */
static void writeback_sb_pages(struct super_block *sb, struct writeback_control *wbc)
{
    for (;;) {
        struct inode *batch[WB_INODE_BATCH], *inode;
        unsigned long flags;
        unsigned n = 0;
        spin_lock_irqsave(&inode_wb_lock, flags);
        list_for_each_entry(inode, &sb->s_dirty, i_dirty) {
            if (n == WB_INODE_BATCH)
                break;
            if (!(inode->i_state & I_DIRTY_PAGES) || (inode->i_state & (I_FREEING | I_NEW)))
                continue;
            inode->i_count++;           /* igrab: we hold inode_wb_lock, see lock order */
            batch[n++] = inode;
        }
        spin_unlock_irqrestore(&inode_wb_lock, flags);
        long before = wbc->nr_to_write;
        for (unsigned k = 0; k < n; k++) {
            if (wbc->nr_to_write > 0)
                do_writepages(batch[k]->i_mapping, wbc);
            iput(batch[k]);
        }
        if (!n || wbc->nr_to_write <= 0 || wbc->nr_to_write == before)
            return;
    }
}

static bool over_bground_thresh(void)
{
    unsigned long background, dirty;
    global_dirty_limits(&background, &dirty);
    return global_page_state(NR_FILE_DIRTY) > background;
}

/* The flusher's background pass: every writable filesystem, 1024 pages at
 * a time, while dirty pages are over the background threshold. */
static void writeback_background(void)
{
    struct super_block *sb;
    mutex_lock(&sb_list_lock);
    for (int round = 0; round < 64 && over_bground_thresh(); round++) {
        long written = 0;
        list_for_each_entry(sb, &super_blocks, s_list) {
            if (sb->s_flags & MS_RDONLY)
                continue;
            struct writeback_control wbc = { .sync_mode = WB_SYNC_NONE, .nr_to_write = 1024 };
            writeback_sb_pages(sb, &wbc);
            written += 1024 - wbc.nr_to_write;
        }
        if (!written)
            break;
    }
    mutex_unlock(&sb_list_lock);
}

void wakeup_flusher_background(void)
{
    if (flusher_background)
        return;
    flusher_background = 1;
    flusher_kick = 1;
    wake_up(&flusher_wait);
}

/* ---- the flusher ------------------------------------------------------- */

/* Has anything of sb been dirty since before older_than: an inode (its
 * pages or itself) or a metadata buffer of its device? */
static int sb_dirty_expired(struct super_block *sb, unsigned long older_than)
{
    struct inode *inode;
    unsigned long flags;
    int expired = 0;
    spin_lock_irqsave(&inode_wb_lock, flags);
    list_for_each_entry(inode, &sb->s_dirty, i_dirty)
        if ((long)(inode->i_data.dirtied_when - older_than) <= 0) {
            expired = 1;
            break;
        }
    spin_unlock_irqrestore(&inode_wb_lock, flags);
    unsigned long meta = sb->s_bdev ? sb->s_bdev->bd_meta_dirtied : 0;
    return expired || (meta && (long)(meta - older_than) <= 0);
}

static int flusher_fn(void *unused)
{
    for (;;) {
        wait_event_idle_timeout(flusher_wait, flusher_kick || kthread_should_stop(),
                                (long)cs_to_jiffies(dirty_writeback_centisecs));
        if (kthread_should_stop())
            break;
        flusher_kick = 0;
        if (flusher_background) {
            writeback_background();
            flusher_background = 0;
        }
        struct writeback_control wbc = {
            .sync_mode = WB_SYNC_NONE,
            .nr_to_write = 0x7fffffff,
            .older_than_this = jiffies - cs_to_jiffies(dirty_expire_centisecs),
        };
        if (!wbc.older_than_this)
            wbc.older_than_this = 1;
        struct super_block *sb;
        mutex_lock(&sb_list_lock);
        /* Once anything of a filesystem has expired, all of it is written,
         * in sync_filesystem's order (data, inodes, then ->sync_fs's ordered
         * metadata), so the disk holds a consistent image: writing only the
         * expired part would write bitmaps and directory blocks that also
         * name younger, unwritten inodes (docs/page-cache.md, "The
         * flusher").  Linux writes only the expired inodes and ext2's
         * metadata buffers with the block device's inode, in no order;
         * ext3 commits its whole transaction every 5 s: we do as ext3. */
        list_for_each_entry(sb, &super_blocks, s_list)
            if (!(sb->s_flags & MS_RDONLY) && sb_dirty_expired(sb, wbc.older_than_this))
                sync_filesystem(sb);
        mutex_unlock(&sb_list_lock);
        flusher_runs++;
    }
    return 0;
}

/* Make the flusher run a pass now (it still writes only expired data);
 * also how a changed dirty_writeback_centisecs takes effect at once. */
void wakeup_flusher_threads(void)
{
    flusher_kick = 1;
    wake_up(&flusher_wait);
}

static void flusher_init(void)
{
    flusher_task = kthread_run(flusher_fn, NULL, "flush");
    /* Survivable: without it dirty data still reaches the disk through
     * sync(2), fsync(2), unmount and power off, only not in the background. */
    WARN(IS_ERR_OR_NULL(flusher_task), "writeback: cannot start the flusher thread");
}
late_initcall(flusher_init);
