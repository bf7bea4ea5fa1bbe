/* include/swap.h: the LRU lists and page reclaim (mm/swap.c, mm/vmscan.c),
 * under Linux's header name (Vellum has no swap: only page-cache pages are
 * reclaimed; anonymous memory stays until its process exits or is killed).
 * docs/page-cache.md, "Reclaim and the OOM killer", draws all of it.
 *
 * Every page-cache page of a mapping that writes back (ext2) is on one of
 * two lists, under lru_lock:
 *
 *   active   --shrink_active_list-->   inactive  --shrink_page_list--> freed
 *      ^    (tail: oldest, not mapped     |   (tail: clean -> dropped; dirty
 *      |     and referenced)              |    -> written by kswapd; mapped ->
 *      +------ mark_page_accessed --------+    unmapped first)
 *              (the second access)
 *
 * Pages of mappings that cannot be cleaned (ramfs: no ->writepage) go on a
 * third, unevictable list, which reclaim never scans.
 *
 * Page flags: PG_lru (on a list), PG_active (which one), PG_unevictable,
 * PG_referenced (accessed since reclaim last looked).  A page's LRU
 * membership is dropped by the free path (put_page of the last reference,
 * Linux's __page_cache_release), never by the page cache's delete: so a
 * page on a list always has a reference, and lru_lock is never taken with
 * a reference being dropped under it.
 */
#ifndef _SWAP_H
#define _SWAP_H
#include <kernel.h>
#include <gfp.h>
#include <mm_types.h>
#include <mm.h>
#include <sched.h>               /* current->nr_dirtied */
#include <vmstat.h>
#include <spinlock.h>
#include <list.h>

/* ---- the lists (mm/swap.c) ---- */
/* In the order of their counters in <vmstat.h>: NR_INACTIVE_FILE + lru. */
enum lru_list { LRU_INACTIVE_FILE, LRU_ACTIVE_FILE, LRU_UNEVICTABLE, NR_LRU_LISTS };
extern struct list_head lru_lists[NR_LRU_LISTS];
extern spinlock_t lru_lock;

/* A new page-cache page joins the inactive list (the unevictable one for a
 * mapping without ->writepage).  Page locked, in the cache.  One lock, one
 * list_add: the only LRU cost of a new page. */
void lru_cache_add(struct page *page);
/* An access by read() or write(): PG_referenced set (a flag, the common
 * case); a page already referenced on the inactive list moves to the active
 * one (Linux 2.6's two-touch rule).  A page already active and referenced
 * (a file read or written over and over) has nothing to change: that test
 * is inline, the rest is __mark_page_accessed. */
void __mark_page_accessed(struct page *page);
static inline void mark_page_accessed(struct page *page)
{
    const unsigned long both = 1UL << PG_active | 1UL << PG_referenced;
    if ((page->flags & both) != both)   /* one load: a racy look is harmless here */
        __mark_page_accessed(page);
}
/* The free path: the page's last reference is going; off its list. */
void __page_cache_release(struct page *page);
/* Put pages reclaim isolated back on their lists (drops reclaim's reference). */
void putback_lru_page(struct page *page);
/* Take page off its list for reclaim (a reference is taken); 0 or -EBUSY. */
int isolate_lru_page(struct page *page);

/* ---- reclaim (mm/vmscan.c) ---- */
/* Free page watermarks, in pages (set at boot from the memory size, as
 * Linux's min_free_kbytes = sqrt(16 * lowmem KiB)):
 *   min    GFP_USER allocations stop here and reclaim or wait; the pages
 *          below are the kernel's (GFP_KERNEL to min/2, GFP_ATOMIC to min/4,
 *          kswapd and OOM victims to 0)
 *   low    below it the allocator wakes kswapd
 *   high   kswapd reclaims until free pages are back above it */
extern unsigned long min_free_pages, low_free_pages, high_free_pages;
extern struct task_struct *kswapd_task;

/* Wake kswapd if free pages are below low (any context, cheap if not). */
void wakeup_kswapd(void);
/* Direct reclaim for an allocation of 2^order pages that found free pages
 * below its watermark: scan the LRU lists and the shrinkers without ever
 * sleeping (trylocks only; no writeback: dirty pages are kswapd's and the
 * flusher's).  Returns the pages reclaimed.  Any process context. */
unsigned long try_to_free_pages(gfp_t gfp, unsigned int order);
/* Sleep (TASK_KILLABLE-like: a fatal signal ends it) until kswapd makes
 * progress or timeout jiffies pass; for allocations that may sleep. */
void reclaim_throttle(long timeout);

/* Shrinkers: caches outside the LRU (the buffer cache) give memory back.
 * scan(nr, gfp) frees up to nr objects without sleeping (trylocks only) and
 * returns how many it freed; count() how many it could free.  Called by
 * every reclaim pass, nr in proportion to the LRU pages scanned. */
struct shrinker {
    unsigned long (*count)(struct shrinker *s);
    unsigned long (*scan)(struct shrinker *s, unsigned long nr, gfp_t gfp);
    struct list_head list;
};
void register_shrinker(struct shrinker *s);

/* Counters since boot (/proc/vellum/vmscan, tests). */
struct vmscan_stats {
    unsigned long kswapd_wakeups;       /* kswapd woken below low */
    unsigned long kswapd_runs;          /* balance passes */
    unsigned long direct_reclaims;      /* try_to_free_pages calls */
    unsigned long scanned;              /* inactive pages looked at */
    unsigned long reclaimed;            /* pages freed by reclaim (LRU) */
    unsigned long written;              /* dirty pages written by kswapd (writepage) */
    unsigned long unmapped;             /* PTEs removed (try_to_unmap) */
    unsigned long activated;            /* moved to the active list */
    unsigned long deactivated;          /* moved active -> inactive */
    unsigned long shrinker_freed;       /* objects freed by shrinkers */
    unsigned long throttled;            /* allocations that slept in reclaim_throttle */
    unsigned long dirty_throttled;      /* balance_dirty_pages sleeps/writebacks */
};
extern struct vmscan_stats vmscan_stats;
size_t vmscan_stats_show(char *buf, size_t size);

/* ---- reverse mapping of file pages (mm/memory.c) ---- */
/* How many PTEs mapping page had their accessed bit set (they are cleared). */
int page_referenced(struct page *page);
/* Remove every PTE that maps page (page locked), moving each PTE's dirty
 * bit to the page.  SWAP_SUCCESS when none is left, SWAP_AGAIN when an
 * address space was busy (its page_table_lock held by a fault), SWAP_FAIL
 * when a PTE was used since page_referenced looked (keep the page). */
#define SWAP_SUCCESS 0
#define SWAP_AGAIN   1
#define SWAP_FAIL    2
int try_to_unmap(struct page *page);
static inline bool page_mapped(const struct page *page) { return page->_mapcount >= 0; }

/* ---- dirty throttling (mm/page-writeback.c) ---- */
extern unsigned int vm_dirty_ratio;              /* % of dirtyable memory (20) */
extern unsigned int vm_dirty_background_ratio;   /* % that starts the flusher (10) */
/* Called by writers after each page they may have dirtied (the write loop,
 * shared write faults); once the task has dirtied ratelimit pages
 * (current->nr_dirtied, counted by set_page_dirty when a page of a mapping
 * with ->writepage goes clean -> dirty, as Linux's account_page_dirtied) it
 * checks the dirty limit and, over it, writes back (the writer's own
 * mapping first) and waits.  Rewriting pages already dirty costs one
 * compare. */
#define DIRTY_RATELIMIT 32                  /* pages dirtied between checks (Linux's ratelimit_pages) */
void __balance_dirty_pages_ratelimited(struct address_space *mapping);
static inline void balance_dirty_pages_ratelimited(struct address_space *mapping)
{
    if (current->nr_dirtied >= DIRTY_RATELIMIT)     /* (ramfs pages are never counted) */
        __balance_dirty_pages_ratelimited(mapping);
}
void global_dirty_limits(unsigned long *background, unsigned long *dirty);
#endif
