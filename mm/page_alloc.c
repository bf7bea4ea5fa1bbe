/* mm/page_alloc.c: physical page frames.  Owns mem_map[] (one struct page
 * per frame of lowmem RAM) and the buddy allocator behind alloc_pages().
 * Sits at the bottom of mm/: it needs only the Multiboot memory map and the
 * direct map that mm/paging.c sets up; kmalloc, page tables, the page cache
 * and kernel stacks all take their frames from here.
 *
 * Buddy allocator (Knuth; Linux's mm/page_alloc.c without zones or
 * migrate types), with per-CPU lists of single pages in front of it:
 *
 *   free_area[0]  -> 4 KiB blocks          a block of order k is 2^k frames,
 *   free_area[1]  -> 8 KiB blocks          its first pfn a multiple of 2^k.
 *   ...                                    Its "buddy" is the block at
 *   free_area[10] -> 4 MiB blocks          pfn ^ 2^k; two free buddies merge.
 *
 *   alloc: take the smallest free block of order >= k, split off halves
 *          (putting them on the lower lists) until it is order k.
 *   free:  while the buddy is a free block of the same order, unlink it and
 *          merge; put the result on its list.
 *
 * Per-CPU page lists (Linux's struct per_cpu_pages, "pcp", since 2.5):
 * most allocations are one page, and most of those are freed soon after on
 * the same CPU.  Each CPU keeps a short list of free single pages; an
 * order-0 allocation takes the list's first page and an order-0 free puts
 * the page first (hot: its cache lines may still be in this CPU's cache,
 * Linux 2.6's free_hot_cold_page).  Only when the list is empty does the
 * CPU take zone->lock, to move pcp->batch pages from the buddy lists onto
 * it at once (rmqueue_bulk); only when it grows past pcp->high does it
 * give pcp->batch pages back, from the cold end (free_pcppages_bulk).  So
 * zone->lock is taken once per batch instead of once per page, and CPUs
 * that allocate at once mostly do not meet there (/proc/lock_stat shows
 * it; docs/smp.md, "Per-CPU page lists").  Each list has a lock of its own,
 * pcp->lock (Linux's since 5.19): its CPU takes it, uncontended, with
 * interrupts off; another CPU takes it only to drain the list back into
 * the buddy lists (drain_all_pages: when an allocation finds no block,
 * pages may be sitting on other CPUs' lists).
 *
 * Page states, as seen in struct page:
 *   free       PG_buddy on every frame of the block; private = order on the
 *              first one (linked on free_area[order] by lru), BUDDY_TAIL on
 *              the rest; _count 0.
 *   on a pcp   PG_buddy, private = BUDDY_PCP (so never taken for a buddy to
 *              merge with, and a double free is still caught), linked on
 *              its CPU's pcp->list by lru; _count 0.  Free: counted in
 *              zone->free_pages.
 *   taken      a block just taken off a list, on its way out: PG_buddy,
 *              private = BUDDY_TAKEN on the first frame (set under the
 *              list's lock, so that a CPU freeing its buddy meanwhile does
 *              not merge with it) until prep_new_page clears them.
 * A frame becomes PG_buddy only after its private says which list it is on
 * (a free under zone->lock checks both without the pcp lists' locks).
 *   allocated  no PG_buddy; _count >= 1 on the first page of the block.
 *   reserved   PG_reserved: BIOS area, holes, kernel image, mem_map itself,
 *              Multiboot data and modules.  Never handed out or freed.
 * Marking every frame of a free block (not just the first, as Linux does)
 * costs a loop per free but lets __free_pages() catch a double free of any
 * frame, even one that was merged into a larger block.
 *
 * Watermarks and reclaim (Linux's zone watermarks and __alloc_pages_slowpath,
 * one zone): free pages are kept above three marks set at boot
 * (setup_watermarks, from the memory size):
 *
 *   free >= low    the fast path: take a block, nothing else
 *   free <  low    wake kswapd (mm/vmscan.c), which reclaims up to high
 *   free <  min    GFP_USER (user memory, the page cache) stops: direct
 *                  reclaim, then sleep until kswapd frees something, then
 *                  the OOM killer (mm/oom_kill.c); the kernel's own
 *                  allocations go on into the reserve (GFP_KERNEL to min/2,
 *                  GFP_ATOMIC to min/4, kswapd and a dying OOM victim to 0),
 *                  reclaiming clean pages first but never sleeping
 *
 * A page-cache page's last reference also takes it off its LRU list here
 * (__page_cache_release, mm/swap.c).
 *
 * Locking (SMP step 4, docs/smp.md): the allocator runs on several CPUs at
 * once without the big kernel lock, and from interrupt handlers.  zone->lock
 * (Linux's name; a spinlock, taken with interrupts off) guards the buddy
 * free lists, their counts (free_area[].nr_free) and the PG_buddy and
 * private of every frame on them; pcp->lock guards its CPU's list, count
 * and pages, and is taken before zone->lock when both are (a refill, a
 * drain).  zone->free_pages, every free frame (buddy and pcp lists), is
 * one atomic word: an allocation takes its frames off the count first, by a
 * compare-and-swap that fails if the count would go below the watermark
 * (zone_take_free: check and take are one step, with no lock), and then
 * finds the frames, which are there; a free puts them on a list first and
 * adds them to the count after.  zone->lock is innermost (the LOCK ORDER comment,
 * mm/filemap.c): __free_pages checks the block, drops the reference and
 * takes the page off its LRU list before it takes zone->lock, and the
 * __GFP_ZERO clearing comes after it is let go; only a corrupted free page's
 * report prints under it.  nr_free_pages() reads the count without it (one
 * aligned word, a snapshot, as Linux's NR_FREE_PAGES), and so do /proc/meminfo
 * and the reclaim heuristics that call it.  The slow path (kswapd, reclaim,
 * the OOM killer, sleeping) never holds zone->lock.  Reclaim and what follows
 * are one-CPU kernel code under the big kernel lock: a caller that runs
 * without it takes it for the slow path if it may sleep (alloc_pages).  The
 * slow path runs with interrupts as the caller had them; it reclaims only
 * with them on, and sleeps only for __GFP_WAIT.
 */
#include <kernel.h>
#include <string.h>
#include <mm.h>
#include <multiboot.h>
#include <sched.h>
#include <swap.h>
#include <oom.h>
#include <timer.h>
#include <spinlock.h>
#include <smp.h>
#include <smp_lock.h>
#include <asm/irqflags.h>

#define BUDDY_TAIL ((unsigned long)-1)
#define BUDDY_PCP ((unsigned long)-2)
#define BUDDY_TAKEN ((unsigned long)-3)

struct page *mem_map;
unsigned long max_pfn;
unsigned long totalram_pages;
unsigned long mm_bad_page_count;
unsigned long mm_oom_count;
unsigned long kernel_image_bytes;
unsigned long min_free_pages, low_free_pages, high_free_pages;

struct free_area {
    struct list_head free_list;     /* first pages of free blocks of this order */
    unsigned long nr_free;          /* blocks on the list */
};

/* The one zone (Linux's struct zone, ZONE_NORMAL: all of lowmem), cut down to
 * the buddy allocator's part: the free lists under zone->lock and the free
 * frames' count (Linux 2.6.20's zone->free_pages; atomic: the locking note
 * above).  The watermarks are the globals min/low/high_free_pages. */
struct zone {
    spinlock_t lock;
    unsigned long free_pages;       /* free frames, all orders, buddy and pcp lists */
    struct free_area free_area[MAX_ORDER];
} normal_zone = { .lock = __SPIN_LOCK_UNLOCKED(&zone->lock) };    /* GDB: p normal_zone */
static struct zone *const zone = &normal_zone;

/* One CPU's list of free single pages (Linux's struct per_cpu_pages; the
 * header comment says how it is used).  An array indexed by CPU, not a
 * DEFINE_PER_CPU variable: an AP's per-CPU area starts as a copy of the
 * boot CPU's (include/asm/percpu.h), which would copy the list's pointers;
 * each entry has a cache line of its own, so that CPUs do not write one
 * line.  PCP_BATCH and PCP_HIGH are Linux 2.6's proportions (high = 6 *
 * batch) for a small zone. */
#define PCP_BATCH 16
#define PCP_HIGH  (6 * PCP_BATCH)
struct per_cpu_pages {
    spinlock_t lock;                /* its CPU's, or a drain's */
    int count;                      /* pages on list */
    int high;                       /* more than this: give batch back */
    int batch;                      /* pages moved to or from the buddy lists at once */
    struct list_head list;          /* hot (last freed) first */
} __attribute__((aligned(64)));
struct per_cpu_pages pcp_pages[NR_CPUS];       /* GDB: p pcp_pages[1] */

extern char _kernel_end[];

/* ---------------------------------------------------------------------- */
/* The Multiboot memory map                                               */

#define MAX_RAM_REGIONS 32
static struct { uint64_t start, end; } ram[MAX_RAM_REGIONS];   /* usable, clipped to lowmem */
static int nr_ram;

static void add_ram(uint64_t start, uint64_t end)
{
    if (end > LOWMEM_LIMIT)
        end = LOWMEM_LIMIT;
    if (start >= end || nr_ram == MAX_RAM_REGIONS)
        return;
    ram[nr_ram].start = start;
    ram[nr_ram].end = end;
    nr_ram++;
    if ((end >> PAGE_SHIFT) > max_pfn)
        max_pfn = end >> PAGE_SHIFT;
}

/* Read the boot loader's memory map (or the mem_lower/mem_upper fallback),
 * print it, and set max_pfn.  Runs before paging_init(): it reads only the
 * Multiboot structures, which lie in the low 16 MiB the boot map covers. */
void memory_scan(void)
{
    struct multiboot_info *mbi = boot_info;

    if (mbi->flags & MB_INFO_MEM_MAP) {
        unsigned long p = mbi->mmap_addr, end = mbi->mmap_addr + mbi->mmap_length;
        printk(KERN_INFO "physical memory map (from Multiboot):\n");
        while (p + sizeof(uint32_t) <= end) {
            const struct multiboot_mmap_entry *e = phys_to_virt(p);
            printk(KERN_INFO "  [mem 0x%08llx-0x%08llx] %s\n", e->addr,
                   e->addr + e->len - 1,
                   e->type == 1 ? "usable" : e->type == 3 ? "ACPI data" :
                   e->type == 4 ? "ACPI NVS" : e->type == 5 ? "bad RAM" : "reserved");
            if (e->type == 1)
                add_ram(e->addr, e->addr + e->len);
            p += e->size + sizeof(e->size);
        }
    }
    if (!nr_ram && (mbi->flags & MB_INFO_MEMORY)) {
        printk(KERN_INFO "physical memory (Multiboot mem_lower/mem_upper): %u KiB + %u KiB\n",
               mbi->mem_lower, mbi->mem_upper);
        add_ram(0, (uint64_t)mbi->mem_lower * 1024);
        add_ram(0x100000, 0x100000 + (uint64_t)mbi->mem_upper * 1024);
    }
    if (!nr_ram)
        panic("no memory information from the boot loader");
}

/* ---------------------------------------------------------------------- */
/* Boot-time reservations                                                 */

#define MAX_RESERVED 24
static struct { phys_addr_t start, end; } resv[MAX_RESERVED];
static int nr_resv;

static void reserve(phys_addr_t start, phys_addr_t end)
{
    if (start >= end)
        return;
    if (nr_resv == MAX_RESERVED)
        panic("too many boot reservations");
    resv[nr_resv].start = ALIGN_DOWN(start, PAGE_SIZE);
    resv[nr_resv].end = ALIGN_UP(end, PAGE_SIZE);
    nr_resv++;
}

/* Is [start, end) free of every reservation?  If not, *next is the end of
 * the reservation in the way. */
static bool range_free(phys_addr_t start, phys_addr_t end, phys_addr_t *next)
{
    for (int i = 0; i < nr_resv; i++)
        if (start < resv[i].end && resv[i].start < end) {
            *next = resv[i].end;
            return false;
        }
    return true;
}

/* Everything the kernel must not hand out: the first MiB (BIOS data, EBDA,
 * VGA, ROMs; simplification: we give up the 640 KiB of conventional memory
 * rather than trust each byte of it), the kernel image, and the Multiboot
 * structures (info, memory map, command line, modules and their names),
 * which later code may still read. */
static void reserve_boot_memory(void)
{
    struct multiboot_info *mbi = boot_info;
    reserve(0, 0x100000);
    reserve(0x100000, virt_to_phys(_kernel_end));
    reserve(virt_to_phys(mbi), virt_to_phys(mbi) + sizeof(*mbi));
    if (mbi->flags & MB_INFO_MEM_MAP)
        reserve(mbi->mmap_addr, mbi->mmap_addr + mbi->mmap_length);
    if (mbi->flags & MB_INFO_CMDLINE)
        reserve(mbi->cmdline, mbi->cmdline + strlen(phys_to_virt(mbi->cmdline)) + 1);
    if ((mbi->flags & MB_INFO_MODS) && mbi->mods_count) {
        struct multiboot_module *m = phys_to_virt(mbi->mods_addr);
        reserve(mbi->mods_addr, mbi->mods_addr + mbi->mods_count * sizeof(*m));
        for (uint32_t i = 0; i < mbi->mods_count; i++) {
            reserve(m[i].mod_start, m[i].mod_end);
            if (m[i].string)
                reserve(m[i].string, m[i].string + strlen(phys_to_virt(m[i].string)) + 1);
        }
    }
}

/* The lowest place in RAM, above the kernel image, for size bytes that
 * overlaps no reservation. */
static phys_addr_t find_free_range(unsigned long size)
{
    phys_addr_t best = 0;
    for (int r = 0; r < nr_ram; r++) {
        phys_addr_t s = ALIGN_UP((phys_addr_t)ram[r].start, PAGE_SIZE), next;
        if (s < virt_to_phys(_kernel_end))
            s = virt_to_phys(_kernel_end);
        while (s + size <= ram[r].end && !range_free(s, s + size, &next))
            s = next;
        if (s + size <= ram[r].end && (!best || s < best))
            best = s;
    }
    if (!best)
        panic("no room for mem_map (%lu bytes)", size);
    return best;
}

/* ---------------------------------------------------------------------- */
/* The buddy allocator                                                    */

/* Put the block [pfn, pfn + 2^order) on the free lists, merging with free
 * buddies.  The caller has checked the block and holds zone->lock; it adds
 * the frames to zone->free_pages (zone_give_free), unless they were
 * counted free already (a pcp list's). */
static void free_one_block(unsigned long pfn, unsigned int order)
{
    for (unsigned long i = 0; i < (1UL << order); i++) {
        struct page *p = pfn_to_page(pfn + i);
        /* Every PG_ bit goes: a freed page must not carry its last owner's
         * PG_uptodate, PG_error or PG_dirty into the next allocation (Linux
         * clears PAGE_FLAGS_CHECK_AT_PREP in free_pages_prepare). */
        p->flags = 1UL << PG_buddy;
        p->private = BUDDY_TAIL;
        set_page_count(p, 0);
    }
    while (order < MAX_ORDER - 1) {
        unsigned long buddy_pfn = pfn ^ (1UL << order);
        if (buddy_pfn + (1UL << order) > max_pfn)
            break;
        struct page *buddy = pfn_to_page(buddy_pfn);
        if (!PageBuddy(buddy) || buddy->private != order)
            break;                      /* buddy (partly) in use, or split smaller */
        list_del(&buddy->lru);
        zone->free_area[order].nr_free--;
        pfn_to_page(pfn | (1UL << order))->private = BUDDY_TAIL;  /* upper half's head */
        pfn &= ~(1UL << order);
        order++;
    }
    struct page *head = pfn_to_page(pfn);
    head->private = order;
    list_add(&head->lru, &zone->free_area[order].free_list);
    zone->free_area[order].nr_free++;
}

static void bad_page(const struct page *page, const char *reason)
{
    __atomic_add_fetch(&mm_bad_page_count, 1, __ATOMIC_RELAXED);   /* any CPU */
    if (page_in_mem_map(page))
        WARN(1, "bad page state: %s: page %p pfn %#lx flags %#lx count %d mapping %p",
             reason, page, page_to_pfn(page), page->flags, page->_count, page->mapping);
    else
        WARN(1, "bad page: %s: %p is not a struct page in mem_map", reason, page);
}

static void report_oom(gfp_t gfp, unsigned int order)
{
    unsigned long n = __atomic_add_fetch(&mm_oom_count, 1, __ATOMIC_RELAXED);
    /* Rate limit: the first few, then one in 1024. */
    if (!(gfp & __GFP_NOWARN) && (n <= 3 || !(n & 1023)))
        printk(KERN_WARNING "page allocation failure: order %u, %lu pages free "
               "(%lu failures so far)\n", order, nr_free_pages(), n);
}

/* Take pages frames off the free count if at least mark stay free after
 * it (the watermark check and the take in one step: two CPUs cannot both
 * pass it for the last frames above a mark); false if they would not. */
static bool zone_take_free(unsigned long pages, unsigned long mark)
{
    unsigned long old = __atomic_load_n(&zone->free_pages, __ATOMIC_RELAXED);
    do {
        if (old < mark + pages)
            return false;
    } while (!__atomic_compare_exchange_n(&zone->free_pages, &old, old - pages, false,
                                          __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return true;
}

/* Frames are back on a list: count them free. */
static void zone_give_free(unsigned long pages)
{
    __atomic_add_fetch(&zone->free_pages, pages, __ATOMIC_SEQ_CST);
}

/* Take a free 2^order block off the buddy lists, splitting a larger one
 * (Linux's __rmqueue); NULL if there is none.  Its frames keep PG_buddy
 * until prep_new_page, its first frame BUDDY_TAKEN.  The caller holds
 * zone->lock. */
static struct page *__rmqueue(unsigned int order)
{
    unsigned int o = order;
    while (o < MAX_ORDER && list_empty(&zone->free_area[o].free_list))
        o++;
    if (o == MAX_ORDER)
        return NULL;
    struct page *page = list_first_entry(&zone->free_area[o].free_list, struct page, lru);
    list_del(&page->lru);
    zone->free_area[o].nr_free--;
    page->private = BUDDY_TAKEN;        /* off the lists: no buddy merges with it now */
    unsigned long pfn = page_to_pfn(page);
    while (o > order) {                 /* split: give back the upper halves */
        o--;
        struct page *upper = pfn_to_page(pfn + (1UL << o));
        upper->private = o;
        list_add(&upper->lru, &zone->free_area[o].free_list);
        zone->free_area[o].nr_free++;
    }
    return page;
}

/* A 2^order block from the buddy lists, under zone->lock. */
static struct page *rmqueue_buddy(unsigned int order)
{
    unsigned long flags;
    spin_lock_irqsave(&zone->lock, flags);
    struct page *page = __rmqueue(order);
    spin_unlock_irqrestore(&zone->lock, flags);
    return page;
}

/* Move up to count single pages from the buddy lists onto pcp's list, in
 * one hold of zone->lock (Linux's rmqueue_bulk); how many it moved (fewer
 * if the buddy lists ran out).  The caller holds pcp->lock.  The pages
 * stay free (and counted so): PG_buddy, private BUDDY_PCP. */
static int rmqueue_bulk(struct per_cpu_pages *pcp, int count)
{
    int n = 0;
    spin_lock(&zone->lock);             /* interrupts are off: pcp->lock's irqsave */
    for (; n < count; n++) {
        struct page *page = __rmqueue(0);
        if (!page)
            break;
        page->private = BUDDY_PCP;
        list_add_tail(&page->lru, &pcp->list);   /* in the buddy lists' order */
    }
    spin_unlock(&zone->lock);
    pcp->count += n;
    return n;
}

/* Give count pages from the cold end of pcp's list back to the buddy lists,
 * in one hold of zone->lock (Linux's free_pcppages_bulk).  The caller holds
 * pcp->lock.  They were counted free and stay so. */
static void free_pcppages_bulk(struct per_cpu_pages *pcp, int count)
{
    spin_lock(&zone->lock);             /* interrupts are off: pcp->lock's irqsave */
    while (count-- > 0 && !list_empty(&pcp->list)) {
        struct page *page = list_last_entry(&pcp->list, struct page, lru);
        list_del(&page->lru);
        pcp->count--;
        free_one_block(page_to_pfn(page), 0);
    }
    spin_unlock(&zone->lock);
}

/* One page from this CPU's list, refilling it with a batch from the buddy
 * lists if it is empty (the order-0 half of Linux's rmqueue); NULL if the
 * buddy lists are empty too.  The page, still PG_buddy, leaves the list;
 * its frame was taken off the free count already (zone_take_free). */
static struct page *rmqueue_pcplist(void)
{
    unsigned long flags = local_irq_save();     /* no move to another CPU, no interrupt */
    struct per_cpu_pages *pcp = &pcp_pages[smp_processor_id()];
    struct page *page = NULL;
    spin_lock(&pcp->lock);
    if (list_empty(&pcp->list))
        rmqueue_bulk(pcp, pcp->batch);
    if (!list_empty(&pcp->list)) {
        page = list_first_entry(&pcp->list, struct page, lru);   /* the hottest */
        list_del(&page->lru);
        pcp->count--;
    }
    spin_unlock(&pcp->lock);
    local_irq_restore(flags);
    return page;
}

/* A page about to go on a pcp list is free: BUDDY_PCP before PG_buddy (the
 * page-states note at the top: a CPU freeing its buddy under zone->lock
 * must never see it PG_buddy with an allocated page's private 0, an
 * order-0 buddy to merge with). */
static void mark_pcp_page(struct page *page)
{
    set_page_count(page, 0);
    page->private = BUDDY_PCP;
    barrier();                          /* x86 keeps stores in order; the compiler must too */
    page->flags = 1UL << PG_buddy;
}

/* Put a free page (checked, its last reference gone) first on this CPU's
 * list, and give a batch back to the buddy lists if the list has grown past
 * pcp->high (Linux 2.6's free_hot_cold_page).  True if it took the page;
 * the caller then counts it free. */
static bool free_pcppage(struct page *page)
{
    unsigned long flags = local_irq_save();
    struct per_cpu_pages *pcp = &pcp_pages[smp_processor_id()];
    mark_pcp_page(page);
    spin_lock(&pcp->lock);
    list_add(&page->lru, &pcp->list);
    pcp->count++;
    if (pcp->count > pcp->high)
        free_pcppages_bulk(pcp, pcp->batch);
    spin_unlock(&pcp->lock);
    local_irq_restore(flags);
    return true;
}

/* Every CPU's list back into the buddy lists (Linux's drain_all_pages):
 * an allocation found no block, and the pages may be on other CPUs' lists
 * (and single pages there keep their buddies from merging).  Each list
 * under its own lock, one at a time. */
static void drain_all_pages(void)
{
    for (int cpu = 0; cpu < NR_CPUS; cpu++) {
        struct per_cpu_pages *pcp = &pcp_pages[cpu];
        unsigned long flags;
        spin_lock_irqsave(&pcp->lock, flags);
        if (pcp->count)
            free_pcppages_bulk(pcp, pcp->count);
        spin_unlock_irqrestore(&pcp->lock, flags);
    }
}

/* A block just taken off a list becomes an allocated block: every frame
 * had better look free (else memory was corrupted), then loses it. */
static void prep_new_page(struct page *page, unsigned int order)
{
    for (unsigned long i = 0; i < (1UL << order); i++) {
        struct page *p = page + i;
        if (p->flags != (1UL << PG_buddy) || p->_count != 0)
            bad_page(p, "free page with unexpected state");   /* memory corruption */
        p->flags = 0;
        barrier();                      /* not PG_buddy before private goes: mark_pcp_page */
        p->private = 0;
        p->mapping = NULL;
        p->freelist = NULL;
        p->_mapcount = -1;
    }
    set_page_count(page, 1);
}

/* Take a 2^order block if free pages stay at or above mark after it;
 * NULL otherwise.  (Linux checks the mark per order too; a block of the
 * order existing is our whole check for order > 0.)  The frames come off
 * the count first; then one page from this CPU's list, or a block from
 * the buddy lists; if there is none, every CPU's list is drained into
 * the buddy lists and they are tried again (a few times: a CPU's refill
 * may take the drained pages first).  None at all (order > 0: the free
 * frames are not in one block) gives the frames back to the count. */
static struct page *get_page_from_freelist(gfp_t gfp, unsigned int order, unsigned long mark)
{
    if (!zone_take_free(1UL << order, mark))
        return NULL;
    struct page *page = order == 0 ? rmqueue_pcplist() : NULL;
    for (int tries = 0; !page && tries < 4; tries++) {
        page = rmqueue_buddy(order);
        if (!page)
            drain_all_pages();
    }
    if (!page) {
        zone_give_free(1UL << order);
        return NULL;
    }
    prep_new_page(page, order);
    if (gfp & __GFP_ZERO)
        memset(page_address(page), 0, PAGE_SIZE << order);
    return page;
}

/* How far below min this allocation may go (Linux's gfp_to_alloc_flags:
 * ALLOC_HARDER, ALLOC_HIGH, ALLOC_NO_WATERMARKS). */
static unsigned long alloc_mark(gfp_t gfp)
{
    if ((gfp & __GFP_MEMALLOC) || (current->flags & (PF_MEMALLOC | PF_MEMDIE)))
        return 0;
    if (gfp & __GFP_WAIT)
        return min_free_pages;
    if (gfp & __GFP_HIGH)
        return min_free_pages / 4;
    return min_free_pages / 2;
}

/* Give up after this many rounds of reclaim + sleep that freed nothing
 * (Linux's MAX_RECLAIM_RETRIES); then the OOM killer. */
#define MAX_RECLAIM_RETRIES 16
/* ... or after this long without a page, however much others freed in the
 * meantime: under a fork bomb every freed page goes to one of dozens of
 * allocators, and one that keeps losing (a shell, a monitor reading
 * /proc) would otherwise wait for minutes while the others keep resetting
 * its count.  The OOM killer does not kill again while its last victim
 * is still exiting, so this does not start a cascade of kills. */
#define ALLOC_STALL_JIFFIES (5 * HZ)

/* Free pages are short: kswapd, direct reclaim, sleeping, the OOM killer
 * (Linux's __alloc_pages_slowpath). */
static struct page *alloc_pages_slowpath(gfp_t gfp, unsigned int order)
{
    unsigned long mark = alloc_mark(gfp);
    struct page *page;
    int no_progress = 0;
    unsigned long stall_end = jiffies + ALLOC_STALL_JIFFIES;

    wakeup_kswapd();
    page = get_page_from_freelist(gfp, order, mark);
    if (page)
        return page;
    /* Interrupts off (an interrupt handler, a spinlock held): no reclaim.
     * Reclaim itself (PF_MEMALLOC) must not recurse.  Reclaim is one-CPU
     * kernel code: without the big kernel lock (a caller that runs without
     * it and may not sleep, alloc_pages), none either. */
    bool can_reclaim = !irqs_disabled() && !(current->flags & PF_MEMALLOC) && kernel_locked();
    bool can_sleep = can_reclaim && (gfp & __GFP_WAIT) && kswapd_task;
    while (can_reclaim) {
        unsigned long before = nr_free_pages();
        unsigned long got = try_to_free_pages(gfp, order);
        page = get_page_from_freelist(gfp, order, mark);
        if (page)
            return page;
        if (!can_sleep)
            break;
        /* A dying task (SIGKILL: the OOM killer's, or anyone's) does not
         * wait: it takes what is free, or fails, and exits. */
        if (fatal_signal_pending(current) && !(gfp & __GFP_NOFAIL)) {
            page = get_page_from_freelist(gfp, order, 0);
            if (page)
                return page;
            break;
        }
        if (got)
            no_progress = 0;
        if ((!got && ++no_progress >= MAX_RECLAIM_RETRIES) || time_after(jiffies, stall_end)) {
            /* Nothing reclaimed for a long while: some task must go.
             * Large orders are not worth a kill (Linux: COSTLY_ORDER). */
            if (order > 3 && !(gfp & __GFP_NOFAIL))
                break;
            if (!out_of_memory(gfp, order) && !(gfp & __GFP_NOFAIL))
                break;                  /* nothing can be killed: fail, do not loop */
            no_progress = 0;
            stall_end = jiffies + ALLOC_STALL_JIFFIES;
        }
        reclaim_throttle(HZ / 10);      /* kswapd or writeback, or a victim exiting */
        page = get_page_from_freelist(gfp, order, mark);
        if (page)
            return page;
        if (nr_free_pages() > before)
            no_progress = 0;            /* someone freed pages: they were taken, retry */
    }
    /* Must not fail (a few bytes the caller cannot do without, under a
     * page lock): the last reserve, as Linux's __GFP_NOFAIL. */
    if (gfp & __GFP_NOFAIL) {
        page = get_page_from_freelist(gfp, order, 0);
        if (page)
            return page;
    }
    report_oom(gfp, order);
    return NULL;
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
    if (order >= MAX_ORDER) {
        report_oom(gfp, order);
        return NULL;
    }
    /* The fast path: free pages stay above low. */
    struct page *page = get_page_from_freelist(gfp, order, low_free_pages);
    if (__builtin_expect(page != NULL, 1))
        return page;
    /* The slow path reclaims, kills and sleeps under the big kernel lock.
     * A caller that runs without it (a kernel thread after unlock_kernel(),
     * include/smp_lock.h) takes it here if it may sleep: __GFP_WAIT says it
     * holds no spinlock, so it may wait for the lock (interrupts on).  One
     * that may not sleep goes without reclaim (can_reclaim, above). */
    if (!kernel_locked() && (gfp & __GFP_WAIT) && !irqs_disabled()) {
        lock_kernel();
        page = alloc_pages_slowpath(gfp, order);
        unlock_kernel();
        return page;
    }
    return alloc_pages_slowpath(gfp, order);
}

/* Checks shared by the free paths; true if the block may be freed. */
static bool free_pages_check(struct page *page, unsigned int order)
{
    if (!page_in_mem_map(page)) {
        bad_page(page, "freeing a bad pointer");
        return false;
    }
    if (order >= MAX_ORDER || (page_to_pfn(page) & ((1UL << order) - 1)) ||
        page_to_pfn(page) + (1UL << order) > max_pfn) {
        bad_page(page, "freeing a block with a wrong order");
        return false;
    }
    for (unsigned long i = 0; i < (1UL << order); i++) {
        if (PageBuddy(page + i)) {
            bad_page(page + i, "double free (page is already free)");
            return false;
        }
        if (PageReserved(page + i)) {
            bad_page(page + i, "freeing a reserved page");
            return false;
        }
    }
    if (PageSlab(page)) {
        bad_page(page, "freeing a kmalloc page with __free_pages (use kfree)");
        return false;
    }
    return true;
}

/* Drop the caller's reference to page; free the 2^order block at zero. */
void __free_pages(struct page *page, unsigned int order)
{
    unsigned long flags = local_irq_save();
    if (!free_pages_check(page, order))
        goto out;
    int count = __atomic_sub_fetch(&page->_count, 1, __ATOMIC_SEQ_CST);
    if (count > 0)
        goto out;                       /* someone else still holds it */
    if (count < 0) {
        set_page_count(page, 0);
        bad_page(page, "freeing a page with no references (count < 0)");
        goto out;
    }
    if (PageLRU(page))
        __page_cache_release(page);     /* a page-cache page leaves its LRU list */
    if (page->mapping) {
        bad_page(page, "freeing a page still in the page cache (mapping set)");
        goto out;                       /* leak it rather than corrupt the cache */
    }
    if (order != 0 || !free_pcppage(page)) {
        spin_lock(&zone->lock);         /* interrupts are off already */
        free_one_block(page_to_pfn(page), order);
        spin_unlock(&zone->lock);
    }
    zone_give_free(1UL << order);       /* on a list: now it may be taken */
out:
    local_irq_restore(flags);
}

void put_page(struct page *page)
{
    /* Fast path, Linux's put_page_testzero: a reference that is not the
     * last is one atomic decrement (a compare-and-swap, so an interrupt
     * dropping a reference in between cannot make us miss the zero).
     * The last reference, and reserved frames, take the checked path. */
    if (page_in_mem_map(page) && !PageReserved(page)) {
        int c = __atomic_load_n(&page->_count, __ATOMIC_RELAXED);
        if (c > 1 && __atomic_compare_exchange_n(&page->_count, &c, c - 1, false,
                                                 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            return;
    }
    if (!page_in_mem_map(page)) {
        bad_page(page, "put_page on a bad pointer");
        return;
    }
    if (PageReserved(page)) {
        /* Reserved frames have a count (1 from boot) but are never freed. */
        if (__atomic_sub_fetch(&page->_count, 1, __ATOMIC_SEQ_CST) <= 0) {
            set_page_count(page, 1);
            bad_page(page, "put_page dropped the last reference of a reserved page");
        }
        return;
    }
    __free_pages(page, 0);
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
    struct page *page = alloc_pages(gfp, order);
    return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp)
{
    return __get_free_pages(gfp | __GFP_ZERO, 0);
}

void free_pages(unsigned long addr, unsigned int order)
{
    if (!addr)
        return;
    if (WARN((addr & (PAGE_SIZE - 1)) || !virt_addr_valid((void *)addr),
             "free_pages(%#lx): not a page-aligned direct-map address", addr)) {
        __atomic_add_fetch(&mm_bad_page_count, 1, __ATOMIC_RELAXED);
        return;                        /* refused: survivable */
    }
    __free_pages(virt_to_page((void *)addr), order);
}

unsigned long nr_free_pages(void)
{
    return __atomic_load_n(&zone->free_pages, __ATOMIC_RELAXED);
}

/* The OOM report's memory summary (Linux's show_mem / show_free_areas,
 * one zone called Normal). */
void show_mem(void)
{
    unsigned long k = PAGE_SIZE / 1024;
    char line[256];
    int n;
    printk(KERN_INFO "Mem-Info:\n");
    printk(KERN_INFO "active_file:%lu inactive_file:%lu isolated_file:%lu\n",
           global_page_state(NR_ACTIVE_FILE), global_page_state(NR_INACTIVE_FILE),
           global_page_state(NR_ISOLATED_FILE));
    printk(KERN_INFO " unevictable:%lu dirty:%lu writeback:%lu\n",
           global_page_state(NR_UNEVICTABLE), global_page_state(NR_FILE_DIRTY),
           global_page_state(NR_WRITEBACK));
    printk(KERN_INFO " slab:%lu mapped:%lu anon:%lu free:%lu\n", global_page_state(NR_SLAB),
           global_page_state(NR_FILE_MAPPED), global_page_state(NR_ANON_PAGES), nr_free_pages());
    printk(KERN_INFO "Normal free:%lukB min:%lukB low:%lukB high:%lukB active_file:%lukB "
           "inactive_file:%lukB unevictable:%lukB present:%lukB\n", nr_free_pages() * k,
           min_free_pages * k, low_free_pages * k, high_free_pages * k,
           global_page_state(NR_ACTIVE_FILE) * k, global_page_state(NR_INACTIVE_FILE) * k,
           global_page_state(NR_UNEVICTABLE) * k, totalram_pages * k);
    n = snprintf(line, sizeof line, "Normal:");
    unsigned long flags, total = 0;
    spin_lock_irqsave(&zone->lock, flags);   /* one moment's counts */
    for (unsigned int o = 0; o < MAX_ORDER && n < (int)sizeof line; o++) {
        n += snprintf(line + n, sizeof line - n, " %lu*%lukB", zone->free_area[o].nr_free, k << o);
        total += zone->free_area[o].nr_free << o;
    }
    spin_unlock_irqrestore(&zone->lock, flags);
    if (n < (int)sizeof line)
        snprintf(line + n, sizeof line - n, " = %lukB", total * k);
    printk(KERN_INFO "%s\n", line);
    printk(KERN_INFO "%lu total pagecache pages\n", global_file_pages());
    printk(KERN_INFO "%lu pages RAM\n", totalram_pages);
}

/* ---------------------------------------------------------------------- */
/* Boot                                                                   */

static unsigned long int_sqrt(unsigned long x)
{
    unsigned long r = 0;
    while ((r + 1) * (r + 1) <= x)
        r++;
    return r;
}

/* Linux's init_per_zone_wmark_min and setup_per_zone_wmarks, one zone:
 * min_free_kbytes = sqrt(16 * lowmem KiB), kept between 128 KiB and 64 MiB;
 * low = min + min/4, high = min + min/2.  QEMU -m 32 (7720 pages managed)
 * gives min 175 pages (700 KiB), low 218, high 262; -m 128: 356, 445, 534. */
static void setup_watermarks(void)
{
    unsigned long kbytes = int_sqrt(totalram_pages * (PAGE_SIZE / 1024) * 16);
    if (kbytes < 128)
        kbytes = 128;
    if (kbytes > 65536)
        kbytes = 65536;
    min_free_pages = kbytes / (PAGE_SIZE / 1024);
    low_free_pages = min_free_pages + min_free_pages / 4;
    high_free_pages = min_free_pages + min_free_pages / 2;
}

/* Build mem_map[] and free every usable frame into the buddy lists.
 * Runs after paging_init(), so all of lowmem is addressable. */
void page_alloc_init(void)
{
    reserve_boot_memory();

    unsigned long size = ALIGN_UP(max_pfn * sizeof(struct page), PAGE_SIZE);
    phys_addr_t at = find_free_range(size);
    mem_map = phys_to_virt(at);
    reserve(at, at + size);

    for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
        struct page *p = &mem_map[pfn];
        memset(p, 0, sizeof(*p));
        p->flags = 1UL << PG_reserved;  /* until proven usable RAM */
        p->_count = 1;
        p->_mapcount = -1;
        INIT_LIST_HEAD(&p->lru);
        INIT_LIST_HEAD(&p->i_pages);
    }
    for (int o = 0; o < MAX_ORDER; o++)
        INIT_LIST_HEAD(&zone->free_area[o].free_list);
    for (int cpu = 0; cpu < NR_CPUS; cpu++) {
        struct per_cpu_pages *pcp = &pcp_pages[cpu];
        spin_lock_init(&pcp->lock);     /* one validator class: never two at once */
        pcp->count = 0;
        pcp->high = PCP_HIGH;
        pcp->batch = PCP_BATCH;
        INIT_LIST_HEAD(&pcp->list);
    }
    lock_stat_register(&zone->lock, "zone->lock");   /* /proc/lock_stat */

    /* The boot CPU alone (the others start later, smp_init), but
     * free_one_block's contract holds here too. */
    unsigned long flags;
    spin_lock_irqsave(&zone->lock, flags);
    for (int r = 0; r < nr_ram; r++) {
        unsigned long first = DIV_ROUND_UP(ram[r].start, PAGE_SIZE);
        unsigned long last = ram[r].end >> PAGE_SHIFT;       /* exclusive */
        for (unsigned long pfn = first; pfn < last; pfn++) {
            phys_addr_t pa = pfn << PAGE_SHIFT, dummy;
            struct page *p = pfn_to_page(pfn);
            if (!PageReserved(p) || !range_free(pa, pa + PAGE_SIZE, &dummy))
                continue;               /* overlapping map entries, or reserved */
            p->flags = 0;
            free_one_block(pfn, 0);
            zone_give_free(1);
            totalram_pages++;
        }
    }
    spin_unlock_irqrestore(&zone->lock, flags);
    kernel_image_bytes = virt_to_phys(_kernel_end) - 0x100000;   /* loaded at 1 MiB */
    setup_watermarks();
    printk(KERN_DEBUG "mem_map: %lu struct pages (%lu KiB) at phys %#x\n",
           max_pfn, size >> 10, at);
}
