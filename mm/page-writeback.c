/* mm/page-writeback.c: writing an address_space's dirty pages through
 * ->writepage, and waiting for them (filemap_fdatawrite / fdatawait), and
 * dirty throttling (balance_dirty_pages).  The per-inode and per-superblock
 * driving (which inodes, when) is in fs/fs-writeback.c; the flusher thread
 * lives there too.
 *
 * Dirty throttling, Linux 2.6's: "dirtyable" memory is the free pages plus
 * the page cache (reclaim could turn either into the other), less the high
 * watermark.  Over vm_dirty_background_ratio % of it dirty, the flusher is
 * woken to write in the background; over vm_dirty_ratio %, counting pages
 * under writeback, the writer itself stops after its chunk, writes its own
 * file's dirty pages (and waits for the disk: our writes are synchronous),
 * until the total is under the limit again.  So one writer cannot fill
 * memory with dirty pages, which reclaim cannot free until written, and
 * the pages reclaim finds are mostly clean.  (Linux 3.2 and later let the
 * flusher do all the writing and only sleep the writer, in proportion.)
 *
 * Tunables (boot options, and globals the tests change):
 *   dirty_writeback_centisecs  flusher period           (default 500 = 5 s)
 *                              boot: dirty_writeback=CENTISECS
 *   dirty_expire_centisecs     age at which dirty data is written (3000 = 30 s)
 *                              boot: dirty_expire=CENTISECS
 *   vm_dirty_ratio             writers throttled above this % (20)
 *                              boot: dirty_ratio=N
 *   vm_dirty_background_ratio  background writeback above this % (10)
 *                              boot: dirty_background_ratio=N
 */
#include <kernel.h>
#include <smp_lock.h>
#include <errno.h>
#include <init.h>
#include <cmdline.h>
#include <string.h>
#include <writeback.h>
#include <pagemap.h>
#include <writeback.h>
#include <sched.h>
#include <mm.h>
#include <slab.h>
#include <timer.h>
#include <blkdev.h>
#include <swap.h>
#include <vmstat.h>

unsigned int dirty_writeback_centisecs = 500;
unsigned int dirty_expire_centisecs = 3000;
unsigned int vm_dirty_ratio = 20;
unsigned int vm_dirty_background_ratio = 10;

static void writeback_params_init(void)
{
    const char *v = cmdline_get("dirty_expire");
    if (v && *v)
        dirty_expire_centisecs = simple_strtoul(v, NULL, 10);
    v = cmdline_get("dirty_writeback");
    if (v && *v)
        dirty_writeback_centisecs = simple_strtoul(v, NULL, 10);
    v = cmdline_get("dirty_ratio");
    if (v && *v)
        vm_dirty_ratio = simple_strtoul(v, NULL, 10);
    v = cmdline_get("dirty_background_ratio");
    if (v && *v)
        vm_dirty_background_ratio = simple_strtoul(v, NULL, 10);
}
subsys_initcall(writeback_params_init);

/* Up to max dirty pages of mapping with index >= start, the lowest first,
 * referenced, into batch (sorted by index); returns how many.  Linux's
 * pagevec_lookup_range_tag, which finds them by the radix tree's dirty
 * tag; we scan the mapping's list once per batch (in index order after
 * sequential writes: each page is then one compare).  The loop is written
 * so that gcc keeps start in a register on i386: as a list_for_each_entry
 * it reloaded it for every page visited (2% of write.ext2.4k.fsync). */
#define WB_BATCH 32
static unsigned find_dirty_pages(struct address_space *mapping, unsigned long start,
                                 struct page **batch, unsigned max)
{
    struct list_head *head = &mapping->pages, *l;
    unsigned long flags;
    unsigned n = 0;
    spin_lock_irqsave(&mapping->tree_lock, flags);
    for (l = head->next; l != head; l = l->next) {
        struct page *page = list_entry(l, struct page, i_pages);
        unsigned long index = page->index;
        if (index < start || !PageDirty(page) || (n == max && index > batch[n - 1]->index))
            continue;
        unsigned k = n < max ? n++ : n - 1;     /* full: the highest drops out */
        for (; k && batch[k - 1]->index > index; k--)
            batch[k] = batch[k - 1];
        batch[k] = page;
    }
    for (unsigned k = 0; k < n; k++)
        get_page(batch[k]);
    spin_unlock_irqrestore(&mapping->tree_lock, flags);
    return n;
}

/* Tag PG_towrite every page of mapping that is dirty now (Linux's
 * tag_pages_for_writeback); returns how many, and in *end the highest
 * index tagged.  The tag goes when the page is put under writeback
 * (set_page_writeback) or a pass finds it clean; a page that leaves the
 * cache keeps it until it is freed, which clears every flag. */
static unsigned long tag_pages_for_writeback(struct address_space *mapping, unsigned long *end)
{
    unsigned long flags, nr = 0;
    struct page *page;
    *end = 0;
    spin_lock_irqsave(&mapping->tree_lock, flags);
    list_for_each_entry(page, &mapping->pages, i_pages)
        if (PageDirty(page)) {
            SetPageTowrite(page);
            nr++;
            if (page->index > *end)
                *end = page->index;
        }
    spin_unlock_irqrestore(&mapping->tree_lock, flags);
    return nr;
}

/*
 * Write the dirty pages of mapping, in index order (Linux's
 * write_cache_pages).  WB_SYNC_ALL waits for a page already under writeback
 * before writing it again; WB_SYNC_NONE skips such pages.  The pages come
 * WB_BATCH at a time (find_dirty_pages), and a plug (include/blkdev.h)
 * merges the blocks of successive pages that follow each other on the disk
 * into one request, as Linux's writeback under blk_start_plug.  Before
 * sleeping on a page the plug is flushed: its pages are under writeback,
 * and the task holding that page lock may be waiting for one of them.
 *
 * A pass for sync or fsync (WB_SYNC_ALL, or tagged_writepages) writes only
 * the pages dirty when it began: it tags them PG_towrite first, stops past
 * the highest page it tagged and passes over a dirty page without the tag.
 * A page dirtied later, below or above the pass's position, waits for the
 * next pass, so the pass ends however fast another task dirties the file
 * (Linux tags PAGECACHE_TAG_TOWRITE for the same reason, "livelock
 * avoidance", and then looks the tag up; here the lookup stays
 * find_dirty_pages', whose scan of the whole list per batch is the cost
 * of an fsync to watch: a lookup by a tag in a register made it 3% dearer
 * for 4 MiB, write.ext2.4k.fsync of make bench; this pass costs 1% more
 * than an untagged one, the tagging itself).
 * Before, a WB_SYNC_ALL pass over a file another process was appending to
 * followed the writer page after page (ktest
 * writeback.sync_pass_writes_the_pages_dirty_at_its_start).  Other
 * passes (background, dirty throttling) are bounded by nr_to_write.
 */
int do_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
    const struct address_space_operations *a_ops = mapping->a_ops;
    unsigned long next = 0, end = ~0UL;
    struct page *batch[WB_BATCH];
    unsigned n = 0, k = 0;
    bool tagged = false;
    int ret = 0;

    if (!a_ops || !a_ops->writepage)
        return 0;                       /* ramfs: the page cache is the storage */
    if (wbc->sync_mode == WB_SYNC_ALL || wbc->tagged_writepages) {
        if (!tag_pages_for_writeback(mapping, &end))
            return 0;                   /* nothing was dirty */
        tagged = true;
    }
    struct blk_plug *plug = blk_start_plug();
    for (;;) {
        if (k == n) {
            k = 0;
            n = wbc->nr_to_write > 0 && next <= end ?
                find_dirty_pages(mapping, next, batch, WB_BATCH) : 0;
            if (!n)
                break;
        }
        struct page *page = batch[k++];
        next = page->index + 1;
        if (wbc->nr_to_write <= 0 || page->index > end) {   /* done: drop the rest */
            put_page(page);
            continue;
        }
        if (!trylock_page(page)) {
            blk_flush_plug();
            lock_page(page);
        }
        if (page->mapping != mapping || !PageDirty(page) || (tagged && !PageTowrite(page))) {
            if (tagged && page->mapping == mapping && !PageDirty(page))
                ClearPageTowrite(page);  /* written by someone else meanwhile */
            unlock_page(page);          /* (or dirtied after the pass began) */
            put_page(page);
            continue;
        }
        if (PageWriteback(page)) {
            if (wbc->sync_mode == WB_SYNC_NONE) {
                unlock_page(page);
                put_page(page);
                continue;
            }
            blk_flush_plug();
            wait_on_page_writeback(page);
        }
        if (!clear_page_dirty_for_io(page)) {
            if (tagged)
                ClearPageTowrite(page);
            unlock_page(page);
            put_page(page);
            continue;
        }
        pagecache_stats.writepage_calls++;
        int err = a_ops->writepage(page, wbc);  /* unlocks the page */
        if (err < 0) {
            mapping_set_error(mapping, err);
            if (!ret)
                ret = err;
        }
        put_page(page);
        wbc->nr_to_write--;
        cond_resched();
    }
    blk_finish_plug(plug);
    return ret;
}

int filemap_fdatawrite(struct address_space *mapping)
{
    struct writeback_control wbc = { .sync_mode = WB_SYNC_ALL, .nr_to_write = 0x7fffffff };
    return do_writepages(mapping, &wbc);
}

/* Wait for every page under writeback, then report (and clear) any error
 * recorded on the mapping since the last call. */
int filemap_fdatawait(struct address_space *mapping)
{
    unsigned long next = 0;
    for (;;) {
        unsigned long flags;
        struct page *page, *best = NULL;
        spin_lock_irqsave(&mapping->tree_lock, flags);
        list_for_each_entry(page, &mapping->pages, i_pages)
            if (page->index >= next && PageWriteback(page) &&
                (!best || page->index < best->index))
                best = page;
        if (best)
            get_page(best);
        spin_unlock_irqrestore(&mapping->tree_lock, flags);
        if (!best)
            break;
        next = best->index + 1;
        wait_on_page_writeback(best);
        put_page(best);
    }
    int err = 0;
    if (test_and_clear_bit(AS_ENOSPC, &mapping->flags))
        err = -ENOSPC;
    if (test_and_clear_bit(AS_EIO, &mapping->flags))
        err = -EIO;
    return err;
}

int filemap_write_and_wait(struct address_space *mapping)
{
    int err = filemap_fdatawrite(mapping);
    int err2 = filemap_fdatawait(mapping);
    return err ? err : err2;
}

/* ---- dirty throttling ---------------------------------------------------- */

/* Pages that could hold dirty data: free ones and the page cache, less the
 * reserve kswapd keeps free (Linux's global_dirtyable_memory). */
static unsigned long dirtyable_memory(void)
{
    unsigned long x = nr_free_pages() + global_page_state(NR_INACTIVE_FILE) +
                      global_page_state(NR_ACTIVE_FILE);
    return x > high_free_pages ? x - high_free_pages : 1;
}

void global_dirty_limits(unsigned long *background, unsigned long *dirty)
{
    unsigned long avail = dirtyable_memory();
    unsigned long ratio = vm_dirty_ratio ? vm_dirty_ratio : 1;
    *dirty = avail * ratio / 100 + 1;
    *background = avail * vm_dirty_background_ratio / 100;
    if (*background >= *dirty)
        *background = *dirty / 2;
}

#define DIRTY_CHUNK      64            /* pages a throttled writer writes per round */

/* Over the dirty limit: write back (this file's pages, the writer's own),
 * or, if it has none, sleep while the flusher writes everyone's. */
static void balance_dirty_pages(struct address_space *mapping)
{
    unsigned long background, thresh;
    for (;;) {
        global_dirty_limits(&background, &thresh);
        unsigned long dirty = global_page_state(NR_FILE_DIRTY);
        if (dirty + global_page_state(NR_WRITEBACK) <= thresh)
            break;
        if (fatal_signal_pending(current))
            break;                      /* dying: no more waiting */
        vmscan_stats.dirty_throttled++;
        wakeup_flusher_background();
        struct writeback_control wbc = { .sync_mode = WB_SYNC_NONE, .nr_to_write = DIRTY_CHUNK };
        do_writepages(mapping, &wbc);
        if (wbc.nr_to_write == DIRTY_CHUNK)         /* nothing of ours to write */
            reclaim_throttle(HZ / 10);              /* the flusher writes; SIGKILL wakes */
    }
    if (global_page_state(NR_FILE_DIRTY) > background)
        wakeup_flusher_background();
}

/* Writeback runs under the big kernel lock; a write that runs without it
 * (SMP step 5) takes it here, once every ratelimit pages. */
void __balance_dirty_pages_ratelimited(struct address_space *mapping)
{
    current->nr_dirtied = 0;
    lock_kernel();
    balance_dirty_pages(mapping);
    unlock_kernel();
}
