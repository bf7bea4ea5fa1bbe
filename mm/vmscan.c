/* mm/vmscan.c: page reclaim, Linux 2.6's in our own words: the scan of the
 * LRU lists (include/swap.h draws them), kswapd, direct reclaim and the
 * shrinkers.  Sits on the LRU primitives (mm/swap.c), the reverse mapping
 * (page_referenced / try_to_unmap, mm/memory.c), the page cache and the
 * filesystems' ->writepage; the page allocator calls in (mm/page_alloc.c).
 *
 *   alloc_pages: free < low ---------------> wakeup_kswapd
 *                free < its watermark -----> try_to_free_pages (direct)
 *
 *   kswapd / try_to_free_pages
 *     for priority 12 .. 0 (scan 1/4096 of the lists, then more, then all):
 *       shrink_lru: inactive list short of the active one?
 *                     shrink_active_list: oldest active pages -> inactive
 *                       (a mapped page whose PTEs were used stays active)
 *                   shrink_inactive_list: the oldest inactive pages,
 *                     isolated 32 at a time, through shrink_page_list
 *       shrink_slab: the shrinkers (the buffer cache)
 *     until enough was reclaimed
 *
 *   shrink_page_list, for each page (locked with trylock_page only):
 *     under writeback            -> keep (it will be clean soon)
 *     referenced (page_check_references):
 *        PTEs used twice, or used and PG_referenced -> activate
 *        PTEs used once          -> keep, PG_referenced set (one more trip)
 *        PG_referenced only      -> reclaim if clean, keep if dirty
 *     mapped                     -> try_to_unmap (PTE dirty bits -> page)
 *     dirty                      -> kswapd: ->writepage (pageout), and if
 *                                   the write is done, go on; direct reclaim:
 *                                   keep (the flusher and kswapd write)
 *     buffers                    -> try_to_free_buffers
 *     __remove_mapping           -> off the page cache (nobody else holds a
 *                                   reference, still clean); freed
 *
 * Direct reclaim never sleeps: trylock_page, no ->writepage, and the
 * shrinkers only trylock.  So any allocation in process context with
 * interrupts on may reclaim, whatever locks its caller holds (those locks
 * are all above the page lock in the lock order, and nothing here waits).
 * Writing dirty pages is left to kswapd (which holds no locks) and the
 * flusher, as Linux has done since 3.2 ("no writeback from direct reclaim").
 * kswapd batches its writes in a plug, so their writeback ends when the
 * plug is flushed: such pages are freed on a later pass.
 */
#include <kernel.h>
#include <errno.h>
#include <init.h>
#include <mm.h>
#include <fs.h>
#include <pagemap.h>
#include <writeback.h>
#include <blkdev.h>
#include <buffer_head.h>
#include <sched.h>
#include <swap.h>
#include <vmstat.h>
#include <timer.h>
#include <err.h>
#include <oom.h>

#define SWAP_CLUSTER_MAX 32            /* pages isolated per batch */
#define DEF_PRIORITY     12            /* first pass scans lists >> 12 */

struct task_struct *kswapd_task;
static DECLARE_WAIT_QUEUE_HEAD(kswapd_wait);
static DECLARE_WAIT_QUEUE_HEAD(reclaim_wait);   /* allocators throttled (Linux: pfmemalloc_wait) */
static int kswapd_kick;
struct vmscan_stats vmscan_stats;
static LIST_HEAD(shrinker_list);

struct scan_control {
    gfp_t gfp_mask;
    unsigned long nr_to_reclaim;       /* stop when this many were freed */
    unsigned long nr_reclaimed;
    unsigned long nr_scanned;
    int priority;                      /* scan lists >> priority */
    bool may_writepage;                /* kswapd: ->writepage dirty pages */
    unsigned long nr_dirty;            /* dirty pages met and kept */
    unsigned long nr_writeback;        /* pages under writeback met */
};

/* ---- waking kswapd ----------------------------------------------------- */

void wakeup_kswapd(void)
{
    if (!kswapd_task || kswapd_kick || nr_free_pages() >= low_free_pages)
        return;
    kswapd_kick = 1;
    vmscan_stats.kswapd_wakeups++;
    wake_up(&kswapd_wait);
}

void reclaim_throttle(long timeout)
{
    DEFINE_WAIT(w);
    vmscan_stats.throttled++;
    /* TASK_INTERRUPTIBLE: SIGKILL (send_signal) ends the sleep at once;
     * the caller looks at fatal_signal_pending.  Linux: TASK_KILLABLE. */
    prepare_to_wait(&reclaim_wait, &w, TASK_INTERRUPTIBLE);
    if (!fatal_signal_pending(current))
        schedule_timeout(timeout);
    finish_wait(&reclaim_wait, &w);
}

/* ---- the shrinkers ----------------------------------------------------- */

void register_shrinker(struct shrinker *s)
{
    list_add_tail(&s->list, &shrinker_list);
}

/* Each shrinker frees objects in proportion to the scan's depth: 1/2^priority
 * of what it could free (all of it at priority 0).  Returns the pages that
 * came back to the free lists meanwhile. */
static unsigned long shrink_slab(struct scan_control *sc)
{
    unsigned long before = nr_free_pages();
    struct shrinker *s;
    list_for_each_entry(s, &shrinker_list, list) {
        unsigned long count = s->count(s);
        if (!count)
            continue;
        unsigned long nr = (count >> sc->priority) + 1;
        vmscan_stats.shrinker_freed += s->scan(s, nr, sc->gfp_mask);
    }
    unsigned long after = nr_free_pages();
    return after > before ? after - before : 0;
}

/* ---- the inactive list ------------------------------------------------- */

/* Up to nr pages from the tail (the oldest) of list lru onto dst, each
 * with a reference, PG_lru cleared (Linux's isolate_lru_pages). */
static unsigned long isolate_lru_pages(unsigned long nr, enum lru_list lru,
                                       struct list_head *dst)
{
    unsigned long flags, n = 0;
    spin_lock_irqsave(&lru_lock, flags);
    struct list_head *src = &lru_lists[lru];
    while (n < nr && !list_empty(src)) {
        struct page *page = list_last_entry(src, struct page, lru);
        get_page(page);                 /* on a list: never a count of 0 */
        ClearPageLRU(page);
        list_move(&page->lru, dst);
        n++;
    }
    vm_stat[NR_INACTIVE_FILE + lru] -= n;
    vm_stat[NR_ISOLATED_FILE] += n;
    spin_unlock_irqrestore(&lru_lock, flags);
    return n;
}

enum page_references { PAGEREF_RECLAIM, PAGEREF_RECLAIM_CLEAN, PAGEREF_KEEP, PAGEREF_ACTIVATE };

/* Linux 2.6.34's page_check_references. */
static enum page_references page_check_references(struct page *page)
{
    int referenced_ptes = page_referenced(page);
    int referenced_page = TestClearPageReferenced(page);
    if (referenced_ptes) {
        if (referenced_page || referenced_ptes > 1)
            return PAGEREF_ACTIVATE;
        SetPageReferenced(page);        /* one more trip down the list */
        return PAGEREF_KEEP;
    }
    return referenced_page ? PAGEREF_RECLAIM_CLEAN : PAGEREF_RECLAIM;
}

enum pageout_t { PAGE_KEEP, PAGE_ACTIVATE, PAGE_SUCCESS, PAGE_CLEAN };

/* Write one dirty, locked, unmapped page (kswapd only).  ->writepage
 * unlocks it; PAGE_SUCCESS means the write was issued (it may still be in
 * kswapd's plug, PG_writeback). */
static enum pageout_t pageout(struct page *page, struct address_space *mapping)
{
    if (!mapping->a_ops || !mapping->a_ops->writepage)
        return PAGE_ACTIVATE;
    if (!clear_page_dirty_for_io(page))
        return PAGE_CLEAN;
    struct writeback_control wbc = { .sync_mode = WB_SYNC_NONE, .nr_to_write = SWAP_CLUSTER_MAX };
    pagecache_stats.writepage_calls++;
    vmscan_stats.written++;
    int err = mapping->a_ops->writepage(page, &wbc);   /* unlocks the page */
    if (err < 0)
        mapping_set_error(mapping, err);
    return PAGE_SUCCESS;
}

/* The filesystem's private data (buffer heads) must go before the page can:
 * Linux's try_to_release_page.  Page locked, clean. */
static int try_to_release_page(struct page *page)
{
    struct address_space *mapping = page->mapping;
    if (mapping && mapping->a_ops && mapping->a_ops->releasepage)
        return mapping->a_ops->releasepage(page);
    return try_to_free_buffers(page);
}

/* Off the page cache if nobody but the cache and us holds the page, it is
 * still clean and unmapped: Linux's __remove_mapping, which freezes the
 * count under tree_lock.  Here interrupts off are enough: one CPU, so
 * nothing can take a reference between the check and the delete.  Page
 * locked.  1 if removed (the cache's reference is gone; ours is left). */
static int __remove_mapping(struct address_space *mapping, struct page *page)
{
    unsigned long flags = local_irq_save();
    int ok = page->mapping == mapping && page_count(page) == 2 && !PageDirty(page) &&
             !page_mapped(page) && !PageWriteback(page) && !spin_is_locked(&mapping->tree_lock);
    if (ok)
        delete_from_page_cache(page);   /* remove_from_page_cache under the page lock */
    local_irq_restore(flags);
    return ok;
}

/* Try to free each page of page_list (isolated, referenced by us); what
 * cannot be freed goes back on the LRU.  Returns the pages freed. */
static unsigned long shrink_page_list(struct list_head *page_list, struct scan_control *sc)
{
    LIST_HEAD(ret_pages);
    unsigned long nr_reclaimed = 0;

    while (!list_empty(page_list)) {
        struct page *page = list_first_entry(page_list, struct page, lru);
        struct address_space *mapping;
        enum page_references references;
        list_del(&page->lru);
        sc->nr_scanned++;
        vmscan_stats.scanned++;

        if (!trylock_page(page))
            goto keep;
        mapping = page->mapping;
        if (!mapping) {                 /* truncated while on the list */
            if (page_count(page) == 1) {    /* ours alone: free it */
                unlock_page(page);
                dec_page_state(NR_ISOLATED_FILE);
                put_page(page);
                continue;
            }
            goto keep_locked;
        }
        if (PageWriteback(page)) {
            sc->nr_writeback++;
            goto keep_locked;
        }
        references = page_check_references(page);
        if (references == PAGEREF_ACTIVATE)
            goto activate_locked;
        if (references == PAGEREF_KEEP)
            goto keep_locked;
        /* Someone beyond the cache, its PTEs and us holds it (a read
         * copying from it, a fault about to map it, writeback's batch):
         * busy, leave it.  (Buffers take no page reference here.) */
        if (page_count(page) > 2 + page_mapcount(page))
            goto keep_locked;

        if (page_mapped(page)) {
            int r = try_to_unmap(page);
            if (r == SWAP_FAIL)
                goto activate_locked;
            if (r == SWAP_AGAIN)
                goto keep_locked;
        }
        if (PageDirty(page)) {
            sc->nr_dirty++;
            if (references == PAGEREF_RECLAIM_CLEAN || !sc->may_writepage)
                goto keep_locked;
            switch (pageout(page, mapping)) {
            case PAGE_KEEP:
                goto keep_locked;
            case PAGE_ACTIVATE:
                goto activate_locked;
            case PAGE_SUCCESS:          /* unlocked by ->writepage */
                if (PageWriteback(page) || PageDirty(page))
                    goto keep;          /* in the plug, or redirtied: a later pass */
                if (!trylock_page(page))
                    goto keep;
                if (PageDirty(page) || PageWriteback(page))
                    goto keep_locked;
                mapping = page->mapping;
                if (!mapping)
                    goto keep_locked;
                break;
            case PAGE_CLEAN:
                break;
            }
        }
        if (PagePrivate(page) && !try_to_release_page(page))
            goto keep_locked;
        if (!__remove_mapping(mapping, page))
            goto keep_locked;
        unlock_page(page);
        nr_reclaimed++;
        dec_page_state(NR_ISOLATED_FILE);
        ClearPageActive(page);
        put_page(page);                 /* the last reference: back to the buddy lists */
        continue;

activate_locked:
        SetPageActive(page);
        vmscan_stats.activated++;
keep_locked:
        unlock_page(page);
keep:
        list_add(&page->lru, &ret_pages);
    }
    while (!list_empty(&ret_pages)) {
        struct page *page = list_first_entry(&ret_pages, struct page, lru);
        list_del(&page->lru);
        putback_lru_page(page);
    }
    vmscan_stats.reclaimed += nr_reclaimed;
    return nr_reclaimed;
}

static unsigned long shrink_inactive_list(unsigned long nr, struct scan_control *sc)
{
    LIST_HEAD(page_list);
    if (!isolate_lru_pages(nr, LRU_INACTIVE_FILE, &page_list))
        return 0;
    return shrink_page_list(&page_list, sc);
}

/* ---- the active list --------------------------------------------------- */

/* The oldest nr active pages: a mapped page whose PTEs were used since the
 * last look goes round again; every other one becomes inactive, its
 * PG_referenced cleared (it must be used again to come back).  Linux
 * 2.6.31 keeps only executable mapped pages active; we keep any mapped one
 * in use (there are few: Vellum's programs are small). */
static void shrink_active_list(unsigned long nr)
{
    LIST_HEAD(l_hold);
    isolate_lru_pages(nr, LRU_ACTIVE_FILE, &l_hold);
    while (!list_empty(&l_hold)) {
        struct page *page = list_first_entry(&l_hold, struct page, lru);
        list_del(&page->lru);
        if (!(page_mapped(page) && page_referenced(page))) {
            ClearPageActive(page);
            ClearPageReferenced(page);
            vmscan_stats.deactivated++;
        }
        putback_lru_page(page);
    }
}

/* Linux's inactive_file_is_low: keep at least as many inactive pages as
 * active ones, so new pages have room to prove themselves. */
static bool inactive_is_low(void)
{
    return global_page_state(NR_ACTIVE_FILE) > global_page_state(NR_INACTIVE_FILE);
}

/* One pass over the lists at sc->priority (Linux's shrink_zone). */
static void shrink_lru(struct scan_control *sc)
{
    unsigned long nr_inactive = global_page_state(NR_INACTIVE_FILE);
    unsigned long nr_active = global_page_state(NR_ACTIVE_FILE);
    nr_inactive = max(nr_inactive >> sc->priority, min(nr_inactive, (unsigned long)SWAP_CLUSTER_MAX));
    nr_active = max(nr_active >> sc->priority, min(nr_active, (unsigned long)SWAP_CLUSTER_MAX));

    while (nr_inactive || nr_active) {
        if (nr_active) {
            unsigned long n = min(nr_active, (unsigned long)SWAP_CLUSTER_MAX);
            nr_active -= n;
            if (inactive_is_low())
                shrink_active_list(n);
        }
        if (nr_inactive) {
            unsigned long n = min(nr_inactive, (unsigned long)SWAP_CLUSTER_MAX);
            nr_inactive -= n;
            sc->nr_reclaimed += shrink_inactive_list(n, sc);
        }
        if (sc->nr_reclaimed >= sc->nr_to_reclaim)
            break;
    }
}

/* Priorities 12 down to 0 until sc->nr_to_reclaim pages were freed. */
static unsigned long do_try_to_free_pages(struct scan_control *sc)
{
    for (sc->priority = DEF_PRIORITY; sc->priority >= 0; sc->priority--) {
        shrink_lru(sc);
        sc->nr_reclaimed += shrink_slab(sc);
        if (sc->nr_reclaimed >= sc->nr_to_reclaim)
            break;
    }
    return sc->nr_reclaimed;
}

unsigned long try_to_free_pages(gfp_t gfp, unsigned int order)
{
    struct scan_control sc = {
        .gfp_mask = gfp,
        .nr_to_reclaim = max((unsigned long)SWAP_CLUSTER_MAX, 2UL << order),
        .may_writepage = false,
    };
    vmscan_stats.direct_reclaims++;
    /* PF_MEMALLOC: allocations from inside reclaim (a shrinker's) use the
     * reserve and never reclaim again. */
    unsigned int saved = current->flags & PF_MEMALLOC;
    current->flags |= PF_MEMALLOC;
    unsigned long n = do_try_to_free_pages(&sc);
    current->flags = (current->flags & ~PF_MEMALLOC) | saved;
    if (sc.nr_dirty) {                  /* the dirty pages we had to skip: */
        wakeup_kswapd();                /* kswapd writes them, */
        wakeup_flusher_background();    /* and the flusher, in file order */
    }
    return n;
}

/* ---- kswapd ------------------------------------------------------------ */

/* Reclaim until free pages are above high (Linux's balance_pgdat).  Gives
 * up when two whole passes (priorities 12 .. 0) free nothing: then only the
 * OOM killer can help, and the allocators call it. */
static void balance_pgdat(void)
{
    int fruitless = 0;
    vmscan_stats.kswapd_runs++;
    while (nr_free_pages() < high_free_pages && !kthread_should_stop()) {
        struct scan_control sc = {
            .gfp_mask = GFP_KERNEL,
            .nr_to_reclaim = max(high_free_pages - nr_free_pages(), (unsigned long)SWAP_CLUSTER_MAX),
            .may_writepage = true,
        };
        struct blk_plug *plug = blk_start_plug();
        do_try_to_free_pages(&sc);
        blk_finish_plug(plug);          /* the batched writes: their pages are clean now */
        if (sc.nr_dirty)
            wakeup_flusher_background();
        wake_up_all(&reclaim_wait);
        if (sc.nr_reclaimed)
            fruitless = 0;
        else if (++fruitless >= (sc.nr_dirty || sc.nr_writeback ? 8 : 2))
            break;                      /* (dirty or in-flight pages: worth more tries) */
        cond_resched();
    }
}

static int kswapd(void *unused)
{
    current->flags |= PF_MEMALLOC | PF_KSWAPD;
    for (;;) {
        /* An idle sleep, as the flusher's: kswapd waiting for work is not
         * counted in the load average (Linux's kswapd_try_to_sleep sleeps
         * TASK_INTERRUPTIBLE). */
        while (!wait_event_idle_timeout(kswapd_wait, kswapd_kick || kthread_should_stop(),
                                        60 * HZ))
            ;
        if (kthread_should_stop())
            break;
        balance_pgdat();
        kswapd_kick = 0;
        wake_up_all(&reclaim_wait);
        /* Woken again at once with nothing freed: pause, not spin. */
        if (nr_free_pages() < low_free_pages)
            msleep(20);
    }
    return 0;
}

static void kswapd_init(void)
{
    kswapd_task = kthread_run(kswapd, NULL, "kswapd0");
    if (IS_ERR(kswapd_task)) {
        WARN(1, "vmscan: cannot start kswapd");
        kswapd_task = NULL;             /* direct reclaim still works */
    }
}
late_initcall(kswapd_init);

size_t vmscan_stats_show(char *buf, size_t size)
{
    struct vmscan_stats s = vmscan_stats;
    return snprintf(buf, size,
                    "kswapd_wakeups %lu\nkswapd_runs %lu\ndirect_reclaims %lu\nscanned %lu\n"
                    "reclaimed %lu\nwritten %lu\nunmapped %lu\nactivated %lu\ndeactivated %lu\n"
                    "shrinker_freed %lu\nthrottled %lu\ndirty_throttled %lu\n"
                    "oom_kills %lu\noom_victim %d\nmin_free %lu\nlow_free %lu\nhigh_free %lu\n",
                    s.kswapd_wakeups, s.kswapd_runs, s.direct_reclaims, s.scanned, s.reclaimed,
                    s.written, s.unmapped, s.activated, s.deactivated, s.shrinker_freed,
                    s.throttled, s.dirty_throttled, oom_kill_count, oom_last_victim_pid,
                    min_free_pages, low_free_pages, high_free_pages);
}
