/* include/vmstat.h: global page counters, as Linux's <linux/vmstat.h>
 * (global_node_page_state; one node and one zone here, so one array).
 * /proc/meminfo prints them (fs/pseudofs.c), reclaim and dirty throttling
 * read them (mm/vmscan.c, mm/page-writeback.c).  Who keeps each one:
 *
 *   NR_INACTIVE_FILE, NR_ACTIVE_FILE, NR_UNEVICTABLE
 *                     pages on each LRU list (mm/swap.c, mm/vmscan.c)
 *   NR_FILE_DIRTY     page-cache pages with PG_dirty, of mappings that write
 *                     back (set_page_dirty, clear_page_dirty_for_io,
 *                     cancel_dirty_page: mm/filemap.c, mm/truncate.c)
 *   NR_WRITEBACK      pages with PG_writeback (set_page_writeback,
 *                     end_page_writeback)
 *   NR_FILE_MAPPED    page-cache pages mapped by at least one PTE (mm/memory.c)
 *   NR_ANON_PAGES     anonymous pages mapped by PTEs (mm/memory.c)
 *   NR_SLAB           frames owned by kmalloc (mm/kmalloc.c)
 *   NR_ISOLATED_FILE  pages reclaim has taken off the LRU for a moment
 *
 * Changed by mod_page_state's one locked add (any CPU, any context: kmalloc
 * changes NR_SLAB without the big kernel lock since SMP step 4, docs/smp.md;
 * Linux's vm_stat is atomic_long_t too), the LRU counts under lru_lock with
 * interrupts off (mm/swap.c, mm/vmscan.c); read without a lock (one aligned
 * word).
 */
#ifndef _VMSTAT_H
#define _VMSTAT_H
#include <kernel.h>
#include <asm/irqflags.h>

enum node_stat_item {
    NR_INACTIVE_FILE,
    NR_ACTIVE_FILE,
    NR_UNEVICTABLE,
    NR_ISOLATED_FILE,
    NR_FILE_DIRTY,
    NR_WRITEBACK,
    NR_FILE_MAPPED,
    NR_ANON_PAGES,
    NR_SLAB,
    NR_VM_STAT_ITEMS
};

extern long vm_stat[NR_VM_STAT_ITEMS];

static inline void mod_page_state(enum node_stat_item item, long delta)
{
    __atomic_add_fetch(&vm_stat[item], delta, __ATOMIC_RELAXED);   /* lock add */
}
static inline void inc_page_state(enum node_stat_item item) { mod_page_state(item, 1); }
static inline void dec_page_state(enum node_stat_item item) { mod_page_state(item, -1); }
/* Never negative to a reader (a counter caught between two updates). */
static inline unsigned long global_page_state(enum node_stat_item item)
{
    long v = READ_ONCE(vm_stat[item]);
    return v < 0 ? 0 : (unsigned long)v;
}
/* Page-cache pages on the LRU lists: /proc/meminfo's Cached. */
static inline unsigned long global_file_pages(void)
{
    return global_page_state(NR_INACTIVE_FILE) + global_page_state(NR_ACTIVE_FILE) +
           global_page_state(NR_UNEVICTABLE) + global_page_state(NR_ISOLATED_FILE);
}
#endif
