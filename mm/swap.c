/* mm/swap.c: the LRU lists of page-cache pages (Linux's mm/swap.c keeps the
 * same primitives: lru_cache_add, mark_page_accessed, activate_page,
 * __page_cache_release).  Reclaim itself, which scans the lists, is
 * mm/vmscan.c; include/swap.h draws the lists.
 *
 * Cost on the hot paths: a new page-cache page takes lru_lock once
 * (lru_cache_add: a list_add and a counter); a read or write of a cached
 * page sets PG_referenced (mark_page_accessed: a flag, unless it is the
 * second access of an inactive page, which moves it); the free path tests
 * PG_lru.  Linux batches the list adds per CPU (pagevecs); one CPU and a
 * short critical section make that unnecessary here.
 *
 * Locking: lru_lock, a spinlock taken with interrupts off (the free path
 * runs wherever a last put_page does).  It is a leaf: nothing else is taken
 * under it, and no page reference is dropped under it (that could free the
 * page and take lru_lock again).  Its place in the lock order is in
 * mm/filemap.c's header.
 */
#include <kernel.h>
#include <mm.h>
#include <fs.h>
#include <swap.h>
#include <vmstat.h>
#include <errno.h>

struct list_head lru_lists[NR_LRU_LISTS] = {
    LIST_HEAD_INIT(lru_lists[LRU_INACTIVE_FILE]),
    LIST_HEAD_INIT(lru_lists[LRU_ACTIVE_FILE]),
    LIST_HEAD_INIT(lru_lists[LRU_UNEVICTABLE]),
};
DEFINE_SPINLOCK(lru_lock);
long vm_stat[NR_VM_STAT_ITEMS];

static const enum node_stat_item lru_stat[NR_LRU_LISTS] = {
    [LRU_INACTIVE_FILE] = NR_INACTIVE_FILE,
    [LRU_ACTIVE_FILE] = NR_ACTIVE_FILE,
    [LRU_UNEVICTABLE] = NR_UNEVICTABLE,
};

static enum lru_list page_lru(const struct page *page)
{
    if (PageUnevictable(page))
        return LRU_UNEVICTABLE;
    return PageActive(page) ? LRU_ACTIVE_FILE : LRU_INACTIVE_FILE;
}

/* lru_lock held. */
static void add_page_to_lru_list(struct page *page, enum lru_list lru)
{
    list_add(&page->lru, &lru_lists[lru]);
    vm_stat[lru_stat[lru]]++;
}

static void del_page_from_lru_list(struct page *page, enum lru_list lru)
{
    list_del(&page->lru);
    vm_stat[lru_stat[lru]]--;
}

/* A mapping whose pages can never be clean (no ->writepage: ramfs, where
 * the page cache is the storage) is unevictable: reclaim could only waste
 * its time on them (Linux: mapping_set_unevictable in ramfs). */
static bool mapping_unevictable(const struct address_space *mapping)
{
    return !mapping || !mapping->a_ops || !mapping->a_ops->writepage;
}

void lru_cache_add(struct page *page)
{
    unsigned long flags;
    spin_lock_irqsave(&lru_lock, flags);
    if (!WARN_ON(PageLRU(page))) {
        if (mapping_unevictable(page->mapping))
            SetPageUnevictable(page);
        SetPageLRU(page);
        add_page_to_lru_list(page, page_lru(page));
    }
    spin_unlock_irqrestore(&lru_lock, flags);
}

/* Inactive -> active, if it is still on the inactive list. */
static void activate_page(struct page *page)
{
    unsigned long flags;
    spin_lock_irqsave(&lru_lock, flags);
    if (PageLRU(page) && !PageActive(page) && !PageUnevictable(page)) {
        del_page_from_lru_list(page, LRU_INACTIVE_FILE);
        SetPageActive(page);
        add_page_to_lru_list(page, LRU_ACTIVE_FILE);
        vmscan_stats.activated++;
    }
    spin_unlock_irqrestore(&lru_lock, flags);
}

/* Linux 2.6's rule: inactive,unreferenced -> inactive,referenced ->
 * active,unreferenced -> active,referenced. */
void __mark_page_accessed(struct page *page)
{
    if (!PageActive(page) && PageReferenced(page) && PageLRU(page) &&
        !PageUnevictable(page)) {
        activate_page(page);
        ClearPageReferenced(page);
    } else if (!PageReferenced(page)) {
        SetPageReferenced(page);
    }
}

/* From __free_pages, interrupts off, the last reference gone: a page still
 * on a list leaves it (Linux's __page_cache_release). */
void __page_cache_release(struct page *page)
{
    spin_lock(&lru_lock);
    if (PageLRU(page)) {
        del_page_from_lru_list(page, page_lru(page));
        ClearPageLRU(page);
    }
    spin_unlock(&lru_lock);
}

int isolate_lru_page(struct page *page)
{
    unsigned long flags;
    int ret = -EBUSY;
    spin_lock_irqsave(&lru_lock, flags);
    if (PageLRU(page)) {
        get_page(page);
        ClearPageLRU(page);
        del_page_from_lru_list(page, page_lru(page));
        vm_stat[NR_ISOLATED_FILE]++;
        ret = 0;
    }
    spin_unlock_irqrestore(&lru_lock, flags);
    return ret;
}

/* Back on the list its flags say (at the head: it starts its trip to the
 * tail again), then reclaim's reference goes, outside the lock: if it was
 * the last one (truncated meanwhile), the page is freed and the free path
 * takes it off the list again. */
void putback_lru_page(struct page *page)
{
    unsigned long flags;
    spin_lock_irqsave(&lru_lock, flags);
    vm_stat[NR_ISOLATED_FILE]--;
    if (!PageUnevictable(page) && mapping_unevictable(page->mapping) && page->mapping)
        SetPageUnevictable(page);
    SetPageLRU(page);
    add_page_to_lru_list(page, page_lru(page));
    spin_unlock_irqrestore(&lru_lock, flags);
    put_page(page);
}
