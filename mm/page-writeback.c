/* mm/page-writeback.c: writing an address_space's dirty pages through
 * ->writepage, and waiting for them (filemap_fdatawrite / fdatawait).  The
 * per-inode and per-superblock driving (which inodes, when) is in
 * fs/fs-writeback.c; the flusher thread lives there too.
 *
 * Tunables (boot options, and globals the tests change):
 *   dirty_writeback_centisecs  flusher period           (default 500 = 5 s)
 *                              boot: dirty_writeback=CENTISECS
 *   dirty_expire_centisecs     age at which dirty data is written (3000 = 30 s)
 *                              boot: dirty_expire=CENTISECS
 */
#include <kernel.h>
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

unsigned int dirty_writeback_centisecs = 500;
unsigned int dirty_expire_centisecs = 3000;

static void writeback_params_init(void)
{
    const char *v = cmdline_get("dirty_expire");
    if (v && *v)
        dirty_expire_centisecs = simple_strtoul(v, NULL, 10);
    v = cmdline_get("dirty_writeback");
    if (v && *v)
        dirty_writeback_centisecs = simple_strtoul(v, NULL, 10);
}
subsys_initcall(writeback_params_init);

/* The dirty page of mapping with the lowest index >= start, referenced. */
static struct page *next_dirty_page(struct address_space *mapping, unsigned long start)
{
    unsigned long flags;
    struct page *page, *best = NULL;
    spin_lock_irqsave(&mapping->tree_lock, flags);
    list_for_each_entry(page, &mapping->pages, lru)
        if (page->index >= start && PageDirty(page) && (!best || page->index < best->index))
            best = page;
    if (best)
        get_page(best);
    spin_unlock_irqrestore(&mapping->tree_lock, flags);
    return best;
}

/*
 * Write every dirty page of mapping, in index order (Linux's
 * write_cache_pages).  WB_SYNC_ALL waits for a page already under writeback
 * before writing it again; WB_SYNC_NONE skips such pages.  Simplification:
 * finding the next dirty page scans the mapping's list (Linux tags its radix
 * tree), which is quadratic in the number of cached pages; fine at our sizes.
 */
int do_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
    const struct address_space_operations *a_ops = mapping->a_ops;
    unsigned long next = 0;
    struct page *page;
    int ret = 0;

    if (!a_ops || !a_ops->writepage)
        return 0;                       /* ramfs: the page cache is the storage */
    while (wbc->nr_to_write > 0 && (page = next_dirty_page(mapping, next)) != NULL) {
        next = page->index + 1;
        lock_page(page);
        if (page->mapping != mapping || !PageDirty(page)) {
            unlock_page(page);
            put_page(page);
            continue;
        }
        if (PageWriteback(page)) {
            if (wbc->sync_mode == WB_SYNC_NONE) {
                unlock_page(page);
                put_page(page);
                continue;
            }
            wait_on_page_writeback(page);
        }
        if (!clear_page_dirty_for_io(page)) {
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
        list_for_each_entry(page, &mapping->pages, lru)
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
    if (pgflag_test_and_clear_bit(AS_ENOSPC, &mapping->flags))
        err = -ENOSPC;
    if (pgflag_test_and_clear_bit(AS_EIO, &mapping->flags))
        err = -EIO;
    return err;
}

int filemap_write_and_wait(struct address_space *mapping)
{
    int err = filemap_fdatawrite(mapping);
    int err2 = filemap_fdatawait(mapping);
    return err ? err : err2;
}
