/* mm/truncate.c: removing pages from the page cache when a file shrinks or
 * an inode is evicted.  Sits on mm/filemap.c; called by the VFS (truncate,
 * evict) and by filesystems' setattr through truncate_setsize().
 *
 * A page that lies wholly past the new end leaves the cache (its private
 * state dropped through ->invalidatepage, its dirty bit cancelled: there is
 * nothing to write).  The page that straddles the new end stays, with the
 * bytes past the end zeroed, so that growing the file later (truncate up,
 * or a write past EOF) shows zeros there, never the old contents.
 * Zeroing the partial BLOCK on disk is the filesystem's job
 * (block_truncate_page in ext2's setattr).
 */
#include <kernel.h>
#include <smp_lock.h>
#include <string.h>
#include <mm.h>
#include <pagemap.h>
#include <writeback.h>
#include <sched.h>
#include <mm.h>
#include <slab.h>
#include <timer.h>

/* Up to n cached pages of mapping with index >= start, each referenced,
 * in no particular order; how many (Linux's pagevec_lookup, which returns
 * them in index order from its tree).  One walk of the list per batch: a
 * walk per page made truncating a file of N pages cost N*N/2 steps with
 * interrupts off (a 256 MiB file: a soft lockup of 20 s in kflushd's
 * evict, found by an outside LTP run). */
#define TRUNCATE_BATCH 16
static unsigned pages_from(struct address_space *mapping, unsigned long start,
                           struct page **pages, unsigned n)
{
    unsigned long flags;
    unsigned found = 0;
    struct page *page;
    spin_lock_irqsave(&mapping->tree_lock, flags);
    list_for_each_entry(page, &mapping->pages, i_pages) {
        if (page->index >= start) {
            get_page(page);
            pages[found++] = page;
            if (found == n)
                break;
        }
    }
    spin_unlock_irqrestore(&mapping->tree_lock, flags);
    return found;
}

static void truncate_complete_page(struct address_space *mapping, struct page *page)
{
    if (PagePrivate(page) && mapping->a_ops->invalidatepage)
        mapping->a_ops->invalidatepage(page, 0);
    cancel_dirty_page(page);            /* nothing left to write */
    ClearPageUptodate(page);
    delete_from_page_cache(page);
}

static void __truncate_inode_pages(struct address_space *mapping, loff_t lstart);

/* Under the big kernel lock (->invalidatepage reaches JBD): a write that
 * failed calls this without it (ext2_write_failed, SMP step 5). */
void truncate_inode_pages(struct address_space *mapping, loff_t lstart)
{
    lock_kernel();
    __truncate_inode_pages(mapping, lstart);
    unlock_kernel();
}

static void __truncate_inode_pages(struct address_space *mapping, loff_t lstart)
{
    unsigned long start = (unsigned long)((lstart + PAGE_SIZE - 1) >> PAGE_SHIFT);
    unsigned partial = (unsigned)(lstart & (PAGE_SIZE - 1));
    struct page *page, *batch[TRUNCATE_BATCH];
    unsigned n;

    /* Whole pages, a batch at a time.  We sleep (page lock, writeback)
     * between lookups, so each batch is looked up afresh: a page truncated
     * or moved meanwhile is no longer mapping's (the check below). */
    while ((n = pages_from(mapping, start, batch, TRUNCATE_BATCH)) != 0) {
        for (unsigned i = 0; i < n; i++) {
            page = batch[i];
            lock_page(page);
            wait_on_page_writeback(page);
            if (page->mapping == mapping)
                truncate_complete_page(mapping, page);
            unlock_page(page);
            put_page(page);
        }
        cond_resched();
    }
    /* The partial page at the new end. */
    if (partial) {
        page = find_lock_page(mapping, (unsigned long)(lstart >> PAGE_SHIFT));
        if (page) {
            wait_on_page_writeback(page);
            memset((char *)page_address(page) + partial, 0, PAGE_SIZE - partial);
            if (PagePrivate(page) && mapping->a_ops->invalidatepage)
                mapping->a_ops->invalidatepage(page, partial);
            unlock_page(page);
            put_page(page);
        }
    }
    if (lstart == 0) {
        mapping->readahead_next = 0;
        mapping->readahead_size = 0;
    }
}

/* Set i_size and drop the cache past it (or, growing, zero what a mapping
 * stored past the old end: pagecache_isize_extended).  Caller holds i_mutex (setattr).
 * Pages wholly past the new end are first unmapped from every address
 * space that maps them (mm/memory.c, unmap_mapping_range), so a later
 * access faults and gets SIGBUS; Linux's truncate_pagecache does the same,
 * and unmaps a second time after dropping the pages in case a fault mapped
 * one again while truncate_inode_pages slept (filemap_fault re-checks
 * i_size after its last sleep, so here the second pass finds nothing, but
 * it is cheap and keeps the code Linux's shape). */
/*
 * The file grew from `from` to `to` (a truncate up, or a write that starts
 * past the old end): the bytes of the page that straddled `from`, past it,
 * become part of the file and must read as zeros (POSIX).  Truncate and
 * writeback zeroed them, but a store through a shared mapping may have put
 * bytes there since (a mapping covers the whole last page), so zero them
 * again, in the cache, from `from` to the page's end or `to`.
 * Simplified/stricter than Linux: Linux's pagecache_isize_extended zeroes
 * only for filesystems whose blocks are smaller than a page, and only since
 * 6.12 (6.1, the conformance reference, exposes the stored bytes:
 * user/conform/KNOWN-DIFFERENCES); Vellum zeroes on every filesystem.
 * Caller holds i_mutex.
 */
void pagecache_isize_extended(struct inode *inode, loff_t from, loff_t to)
{
    unsigned off = (unsigned)(from & (PAGE_SIZE - 1));
    if (from >= to || !off)
        return;                         /* no partial page at the old end */
    struct page *page = find_lock_page(inode->i_mapping, (unsigned long)(from >> PAGE_SHIFT));
    if (!page)
        return;                         /* not cached: disk past EOF is zero */
    unsigned end = (to >> PAGE_SHIFT) == (from >> PAGE_SHIFT) ?
                   (unsigned)(to & (PAGE_SIZE - 1)) : PAGE_SIZE;
    wait_on_page_writeback(page);
    memset((char *)page_address(page) + off, 0, end - off);
    unlock_page(page);
    put_page(page);
}

void truncate_setsize(struct inode *inode, loff_t newsize)
{
    loff_t old = inode->i_size;
    inode->i_size = newsize;
    if (newsize > old)
        pagecache_isize_extended(inode, old, newsize);
    if (newsize < old) {
        unsigned long holebegin = (unsigned long)((newsize + PAGE_SIZE - 1) >> PAGE_SHIFT);
        struct address_space *mapping = inode->i_mapping;
        if (!list_empty(&mapping->i_mmap))
            unmap_mapping_range(mapping, holebegin);
        truncate_inode_pages(mapping, newsize);
        if (!list_empty(&mapping->i_mmap))
            unmap_mapping_range(mapping, holebegin);
    }
}
