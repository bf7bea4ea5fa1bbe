/* mm/vmscan_test.c: kernel tests of the LRU lists and page reclaim
 * (test=vmscan).  The tests reach vmscan.c's static functions (the scan
 * with kswapd's settings, may_writepage), so this file includes it.
 *
 * The pages are those of ramfs files whose a_ops are swapped, before any
 * page exists, for vt_aops: ramfs's write path plus a ->writepage and a
 * ->readpage on a "disk" in memory (vt_store), so the pages are evictable
 * and a page reclaim drops comes back from the store with its bytes.  The
 * suite boots without a disk: these are the only evictable pages, and
 * with 128 MiB free nothing reclaims behind a test's back. */
#include "vmscan.c"
#include <ktest.h>
#include <string.h>
#include <slab.h>
#include <asm/mman.h>
#include <asm/pgtable.h>
#include <asm/uaccess.h>

#define VT_PAGES 16
static char *vt_store;                 /* the "disk": VT_PAGES pages */
static int vt_writepages, vt_readpages;
static struct address_space_operations vt_aops;

static int vt_readpage(struct file *file, struct page *page)
{
    vt_readpages++;
    if (page->index < VT_PAGES)
        memcpy(page_address(page), vt_store + page->index * PAGE_SIZE, PAGE_SIZE);
    else
        memset(page_address(page), 0, PAGE_SIZE);
    SetPageUptodate(page);
    unlock_page(page);
    return 0;
}

static int vt_writepage(struct page *page, struct writeback_control *wbc)
{
    vt_writepages++;
    set_page_writeback(page);
    if (page->index < VT_PAGES)
        memcpy(vt_store + page->index * PAGE_SIZE, page_address(page), PAGE_SIZE);
    unlock_page(page);
    end_page_writeback(page);
    return 0;
}

static char vbuf[PAGE_SIZE];

/* /NAME on ramfs with vt_aops and `pages` pages of 'a', 'b', ... (dirty). */
static struct file *vt_open(const char *name, int pages)
{
    if (!vt_store)
        vt_store = (char *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, 4);
    if (!vt_store || vfs_ensure_root())
        return NULL;
    vfs_unlink(name);
    struct file *f = filp_open(name, O_RDWR | O_CREAT | O_EXCL, 0644);
    if (IS_ERR(f))
        return NULL;
    vt_aops = *f->f_mapping->a_ops;
    vt_aops.readpage = vt_readpage;
    vt_aops.writepage = vt_writepage;
    f->f_mapping->a_ops = &vt_aops;
    for (int p = 0; p < pages; p++) {
        memset(vbuf, 'a' + p, PAGE_SIZE);
        loff_t pos = (loff_t)p * PAGE_SIZE;
        if (kernel_write(f, vbuf, PAGE_SIZE, &pos) != PAGE_SIZE)
            return NULL;
    }
    vt_writepages = vt_readpages = 0;
    return f;
}

static void vt_close(struct file *f, const char *name)
{
    const struct address_space_operations *ramfs = f->f_mapping->a_ops;
    truncate_inode_pages(f->f_mapping, 0);     /* before the a_ops go back */
    (void)ramfs;
    filp_close(f);
    vfs_unlink(name);
}

/* Page p of f holds its letter (read through the page cache). */
static bool vt_page_intact(struct file *f, int p, char letter)
{
    loff_t pos = (loff_t)p * PAGE_SIZE;
    if (kernel_read(f, vbuf, PAGE_SIZE, &pos) != PAGE_SIZE)
        return false;
    for (int i = 0; i < PAGE_SIZE; i++)
        if (vbuf[i] != letter)
            return false;
    return true;
}

/* Inactive and unreferenced: as reclaim finds a page it has not seen used. */
static void make_cold(struct page *page)
{
    if (!isolate_lru_page(page)) {
        ClearPageActive(page);
        putback_lru_page(page);
    }
    ClearPageReferenced(page);
}

static void make_all_cold(struct file *f, int pages)
{
    for (int p = 0; p < pages; p++) {
        struct page *page = find_get_page(f->f_mapping, p);
        if (page) {
            make_cold(page);
            put_page(page);
        }
    }
}

static bool cached(struct file *f, int p)
{
    struct page *page = find_get_page(f->f_mapping, p);
    if (page)
        put_page(page);
    return page != NULL;
}

/* Reclaim as kswapd (writes) or as direct reclaim (does not): every
 * priority, 12 down to 0, so a page kept once is looked at again. */
static unsigned long reclaim(bool kswapd_mode)
{
    kmalloc_drain_cpu_caches();         /* else kmalloc's shrinker frees pages too */
    struct scan_control sc = { .gfp_mask = GFP_KERNEL, .nr_to_reclaim = 1024,
                               .may_writepage = kswapd_mode };
    return do_try_to_free_pages(&sc);
}

/* One look at every page of the (short) lists: priority 0, one pass. */
static unsigned long scan_once(bool kswapd_mode)
{
    struct scan_control sc = { .gfp_mask = GFP_KERNEL, .nr_to_reclaim = 1024,
                               .may_writepage = kswapd_mode, .priority = 0 };
    shrink_lru(&sc);
    return sc.nr_reclaimed;
}

KTEST(vmscan, new_pages_go_inactive_then_active_and_counters_follow)
{
    unsigned long inact0 = global_page_state(NR_INACTIVE_FILE);
    unsigned long act0 = global_page_state(NR_ACTIVE_FILE);
    unsigned long dirty0 = global_page_state(NR_FILE_DIRTY);
    struct file *f = vt_open("/vt_lru", 4);
    KT_ASSERT(f);
    KT_EXPECT_EQ(global_page_state(NR_INACTIVE_FILE), inact0 + 4);
    KT_EXPECT_EQ(global_page_state(NR_FILE_DIRTY), dirty0 + 4);
    struct page *page = find_get_page(f->f_mapping, 0);
    KT_ASSERT(page);
    /* written once: on the inactive list, referenced (mark_page_accessed) */
    KT_EXPECT(PageLRU(page) && !PageActive(page) && PageReferenced(page));
    mark_page_accessed(page);                  /* the second use: active */
    KT_EXPECT(PageLRU(page) && PageActive(page) && !PageReferenced(page));
    KT_EXPECT_EQ(global_page_state(NR_ACTIVE_FILE), act0 + 1);
    KT_EXPECT_EQ(global_page_state(NR_INACTIVE_FILE), inact0 + 3);
    mark_page_accessed(page);
    KT_EXPECT(PageActive(page) && PageReferenced(page));
    put_page(page);
    KT_EXPECT_EQ(filemap_write_and_wait(f->f_mapping), 0);
    KT_EXPECT_EQ(vt_writepages, 4);
    KT_EXPECT_EQ(global_page_state(NR_FILE_DIRTY), dirty0);
    KT_EXPECT_EQ(global_page_state(NR_WRITEBACK), 0);
    vt_close(f, "/vt_lru");                    /* freed pages leave the lists */
    KT_EXPECT_EQ(global_page_state(NR_INACTIVE_FILE), inact0);
    KT_EXPECT_EQ(global_page_state(NR_ACTIVE_FILE), act0);
    KT_EXPECT_EQ(global_page_state(NR_ISOLATED_FILE), 0);
}

KTEST(vmscan, ramfs_pages_are_unevictable)
{
    unsigned long unev0 = global_page_state(NR_UNEVICTABLE);
    vfs_ensure_root();
    vfs_unlink("/vt_ram");
    struct file *f = filp_open("/vt_ram", O_RDWR | O_CREAT | O_EXCL, 0644);
    KT_ASSERT(!IS_ERR(f));
    loff_t pos = 0;
    KT_EXPECT_EQ(kernel_write(f, "x", 1, &pos), 1);
    KT_EXPECT_EQ(global_page_state(NR_UNEVICTABLE), unev0 + 1);
    struct page *page = find_get_page(f->f_mapping, 0);
    KT_ASSERT(page);
    KT_EXPECT(PageLRU(page) && PageUnevictable(page));
    put_page(page);
    reclaim(true);
    KT_EXPECT(cached(f, 0));                   /* never scanned, never dropped */
    filp_close(f);
    vfs_unlink("/vt_ram");
    KT_EXPECT_EQ(global_page_state(NR_UNEVICTABLE), unev0);
}

/* Direct reclaim: clean pages are dropped (and read back from the store);
 * dirty ones stay, not written (that is kswapd's and the flusher's job). */
KTEST(vmscan, direct_reclaim_drops_clean_pages_keeps_dirty_ones)
{
    struct file *f = vt_open("/vt_clean", 8);
    KT_ASSERT(f);
    KT_EXPECT_EQ(filemap_write_and_wait(f->f_mapping), 0);
    loff_t pos = 0;
    KT_EXPECT_EQ(kernel_write(f, "A", 1, &pos), 1);      /* page 0 dirty again */
    pos = PAGE_SIZE;
    KT_EXPECT_EQ(kernel_write(f, "B", 1, &pos), 1);      /* page 1 */
    make_all_cold(f, 8);
    int written = vt_writepages;
    unsigned long reclaimed0 = vmscan_stats.reclaimed;
    kmalloc_drain_cpu_caches();                          /* only the file's pages */
    unsigned long n = try_to_free_pages(GFP_KERNEL, 0);
    KT_EXPECT_EQ(n, 6);
    KT_EXPECT_EQ(vmscan_stats.reclaimed - reclaimed0, 6);
    KT_EXPECT_EQ(vt_writepages, written);                /* nothing written */
    KT_EXPECT_EQ(f->f_mapping->nrpages, 2);
    KT_EXPECT(cached(f, 0) && cached(f, 1) && !cached(f, 2) && !cached(f, 7));
    for (int p = 2; p < 8; p++)
        KT_EXPECT(vt_page_intact(f, p, 'a' + p));        /* back from the store */
    KT_EXPECT_EQ(vt_readpages, 6);
    pos = 0;
    KT_EXPECT_EQ(kernel_read(f, vbuf, 2, &pos), 2);
    KT_EXPECT(vbuf[0] == 'A' && vbuf[1] == 'a');
    KT_EXPECT_EQ(global_page_state(NR_ISOLATED_FILE), 0);
    vt_close(f, "/vt_clean");
}

/* kswapd's pass writes dirty pages (->writepage) and, the write being done
 * (synchronous here), frees them in the same pass, as Linux's pageout. */
KTEST(vmscan, kswapd_writes_dirty_pages_then_frees_them)
{
    struct file *f = vt_open("/vt_dirty", 4);
    KT_ASSERT(f);
    make_all_cold(f, 4);
    unsigned long dirty0 = global_page_state(NR_FILE_DIRTY);
    KT_EXPECT_EQ(reclaim(true), 4);
    KT_EXPECT_EQ(vt_writepages, 4);
    KT_EXPECT_EQ(f->f_mapping->nrpages, 0);
    KT_EXPECT_EQ(global_page_state(NR_FILE_DIRTY), dirty0 - 4);
    for (int p = 0; p < 4; p++)
        KT_EXPECT(vt_page_intact(f, p, 'a' + p));
    vt_close(f, "/vt_dirty");
}

/* What reclaim must leave alone: a page used since it was last looked at
 * (PG_referenced: reclaimed only if clean), a page someone holds, a page
 * under writeback, a locked page. */
KTEST(vmscan, referenced_busy_writeback_and_locked_pages_are_kept)
{
    struct file *f = vt_open("/vt_keep", 5);
    KT_ASSERT(f);
    KT_EXPECT_EQ(filemap_write_and_wait(f->f_mapping), 0);
    make_all_cold(f, 5);
    struct page *p0 = find_get_page(f->f_mapping, 0), *p1 = find_get_page(f->f_mapping, 1);
    struct page *p2 = find_get_page(f->f_mapping, 2), *p3 = find_get_page(f->f_mapping, 3);
    struct page *p4 = find_get_page(f->f_mapping, 4);
    KT_ASSERT(p0 && p1 && p2 && p3 && p4);
    SetPageReferenced(p0);                     /* clean, referenced: reclaimed */
    SetPageReferenced(p1);                     /* dirty, referenced: kept, not written */
    set_page_dirty(p1);
    /* p2: our reference from find_get_page stays: busy */
    SetPageWriteback(p3);                      /* as if in flight */
    KT_EXPECT(trylock_page(p4));               /* locked by us */
    put_page(p0);
    put_page(p1);
    put_page(p3);
    put_page(p4);
    int written = vt_writepages;
    KT_EXPECT_EQ(scan_once(true), 1);
    KT_EXPECT_EQ(vt_writepages, written);
    KT_EXPECT(!cached(f, 0) && cached(f, 1) && cached(f, 2) && cached(f, 3) && cached(f, 4));
    KT_EXPECT(PageDirty(p1) && PageLRU(p1));
    unlock_page(p4);
    ClearPageWriteback(p3);
    put_page(p2);
    make_all_cold(f, 5);
    KT_EXPECT_EQ(reclaim(true), 4);            /* all fair game now */
    KT_EXPECT_EQ(f->f_mapping->nrpages, 0);
    KT_EXPECT(vt_page_intact(f, 1, 'b'));      /* the dirty one was written first */
    vt_close(f, "/vt_keep");
}

/* Active pages age: with the inactive list shorter than the active one,
 * shrink_active_list moves the oldest active pages to the inactive list
 * (unreferenced), where the next step reclaims them. */
KTEST(vmscan, active_pages_are_deactivated_then_reclaimed)
{
    struct file *f = vt_open("/vt_active", 4);
    KT_ASSERT(f);
    KT_EXPECT_EQ(filemap_write_and_wait(f->f_mapping), 0);
    for (int p = 0; p < 4; p++) {
        struct page *page = find_get_page(f->f_mapping, p);
        KT_ASSERT(page);
        mark_page_accessed(page);              /* second use: active */
        KT_EXPECT(PageActive(page));
        put_page(page);
    }
    unsigned long deact0 = vmscan_stats.deactivated;
    KT_EXPECT_EQ(reclaim(false), 4);
    KT_EXPECT_EQ(vmscan_stats.deactivated - deact0, 4);
    KT_EXPECT_EQ(f->f_mapping->nrpages, 0);
    vt_close(f, "/vt_active");
}

/* ---- mapped pages ------------------------------------------------------ */

#define VT_UADDR 0x50000000UL

static pte_t *vt_pte(struct mm_struct *mm, unsigned long va)
{
    return lookup_pte((pgd_t *)mm->pgd, va);
}

/* A mapped page is unmapped first (every PTE, through mapping->i_mmap);
 * the PTE's dirty bit moves to the page, which direct reclaim then keeps
 * (dirty); a clean mapped page is freed.  Touching the mapping again faults
 * the data back in. */
KTEST(vmscan, mapped_pages_are_unmapped_and_pte_dirty_bits_kept)
{
    struct file *f = vt_open("/vt_map", 2);
    KT_ASSERT(f);
    KT_EXPECT_EQ(filemap_write_and_wait(f->f_mapping), 0);
    struct mm_struct *mm = mm_alloc();
    KT_ASSERT(mm);
    struct mm_struct *prev = use_mm(mm);
    KT_EXPECT_EQ(do_mmap(mm, f, VT_UADDR, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_FIXED, 0), (long)VT_UADDR);
    KT_EXPECT_EQ(copy_to_user((void *)VT_UADDR, "M", 1), 0UL);          /* page 0: written */
    char c;
    KT_EXPECT_EQ(copy_from_user(&c, (void *)(VT_UADDR + PAGE_SIZE), 1), 0UL);  /* page 1: read */
    KT_EXPECT_EQ(c, 'b');
    pte_t *pte0 = vt_pte(mm, VT_UADDR), *pte1 = vt_pte(mm, VT_UADDR + PAGE_SIZE);
    KT_ASSERT(pte0 && pte1 && pte_present(*pte0) && pte_present(*pte1));
    KT_EXPECT(*pte0 & _PAGE_DIRTY);
    struct page *p0 = find_get_page(f->f_mapping, 0);
    KT_ASSERT(p0);
    KT_EXPECT_EQ(page_mapcount(p0), 1);
    cancel_dirty_page(p0);                     /* the dirt is in the PTE only now */
    put_page(p0);
    *pte0 &= ~_PAGE_ACCESSED;                  /* not used since (page_referenced) */
    *pte1 &= ~_PAGE_ACCESSED;
    flush_tlb_page(VT_UADDR);
    flush_tlb_page(VT_UADDR + PAGE_SIZE);
    make_all_cold(f, 2);
    unsigned long rss0 = mm->rss, unmapped0 = vmscan_stats.unmapped;
    KT_EXPECT_EQ(reclaim(false), 1);           /* page 1 freed; page 0 dirty: kept */
    KT_EXPECT_EQ(vmscan_stats.unmapped - unmapped0, 2);
    KT_EXPECT_EQ(mm->rss, rss0 - 2);
    KT_EXPECT(*pte0 == 0 && *pte1 == 0);
    KT_EXPECT(cached(f, 0) && !cached(f, 1));
    p0 = find_get_page(f->f_mapping, 0);
    KT_ASSERT(p0);
    KT_EXPECT(PageDirty(p0) && !page_mapped(p0));
    put_page(p0);
    /* The data is all there: page 0 from the cache, page 1 from the store. */
    KT_EXPECT_EQ(copy_from_user(&c, (void *)VT_UADDR, 1), 0UL);
    KT_EXPECT_EQ(c, 'M');
    KT_EXPECT_EQ(copy_from_user(&c, (void *)(VT_UADDR + PAGE_SIZE), 1), 0UL);
    KT_EXPECT_EQ(c, 'b');
    KT_EXPECT_EQ(do_munmap(mm, VT_UADDR, 2 * PAGE_SIZE), 0);
    use_mm(prev);
    mmput(mm);
    KT_EXPECT_EQ(filemap_write_and_wait(f->f_mapping), 0);
    KT_EXPECT_EQ(vt_store[0], 'M');            /* the PTE's write reached the disk */
    vt_close(f, "/vt_map");
}

/* A PTE used since the last look keeps its page: twice (or with
 * PG_referenced) it is activated; once, it gets one more trip. */
KTEST(vmscan, recently_used_mapped_page_is_activated)
{
    struct file *f = vt_open("/vt_young", 1);
    KT_ASSERT(f);
    KT_EXPECT_EQ(filemap_write_and_wait(f->f_mapping), 0);
    struct mm_struct *mm = mm_alloc();
    KT_ASSERT(mm);
    struct mm_struct *prev = use_mm(mm);
    KT_EXPECT_EQ(do_mmap(mm, f, VT_UADDR, PAGE_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, 0),
                 (long)VT_UADDR);
    char c;
    KT_EXPECT_EQ(copy_from_user(&c, (void *)VT_UADDR, 1), 0UL);
    make_all_cold(f, 1);
    struct page *page = find_get_page(f->f_mapping, 0);
    KT_ASSERT(page);
    KT_EXPECT_EQ(scan_once(false), 0);         /* young PTE: one more trip, referenced */
    KT_EXPECT(PageReferenced(page) && !PageActive(page) && page_mapped(page));
    KT_EXPECT_EQ(copy_from_user(&c, (void *)VT_UADDR, 1), 0UL);   /* used again */
    flush_tlb_page(VT_UADDR);
    *vt_pte(mm, VT_UADDR) |= _PAGE_ACCESSED;   /* (the TLB may hold the entry) */
    KT_EXPECT_EQ(scan_once(false), 0);
    KT_EXPECT(PageActive(page) && page_mapped(page));
    put_page(page);
    KT_EXPECT_EQ(do_munmap(mm, VT_UADDR, PAGE_SIZE), 0);
    use_mm(prev);
    mmput(mm);
    vt_close(f, "/vt_young");
}

/* ---- shrinkers and dirty throttling ------------------------------------- */

static unsigned long vt_objects, vt_scans;
static unsigned long vt_count(struct shrinker *s) { return vt_objects; }
static unsigned long vt_scan(struct shrinker *s, unsigned long nr, gfp_t gfp)
{
    vt_scans++;
    unsigned long n = min(nr, vt_objects);
    vt_objects -= n;
    return n;
}

KTEST(vmscan, shrinkers_are_asked_in_proportion_to_priority)
{
    static struct shrinker s = { .count = vt_count, .scan = vt_scan };
    register_shrinker(&s);
    vt_objects = 1 << 14;
    struct scan_control sc = { .gfp_mask = GFP_KERNEL, .priority = DEF_PRIORITY };
    shrink_slab(&sc);
    KT_EXPECT_EQ(vt_scans, 1);
    KT_EXPECT_EQ(vt_objects, (1 << 14) - 5);   /* 2^14 >> 12, plus one */
    sc.priority = 0;
    shrink_slab(&sc);
    KT_EXPECT_EQ(vt_objects, 0);               /* priority 0: everything */
    list_del(&s.list);
}

/* A writer over the dirty limit writes back its own pages and the dirty
 * count stays near the limit (one ratelimit's worth over at most). */
KTEST(vmscan, balance_dirty_pages_bounds_a_writer)
{
    unsigned saved = vm_dirty_ratio, saved_bg = vm_dirty_background_ratio;
    vm_dirty_ratio = 1;
    vm_dirty_background_ratio = 0;
    unsigned long bg, thresh;
    global_dirty_limits(&bg, &thresh);
    struct file *f = vt_open("/vt_bdp", 0);
    KT_ASSERT(f);
    unsigned long throttled0 = vmscan_stats.dirty_throttled, peak = 0;
    int pages = (int)(3 * thresh);
    for (int p = 0; p < pages; p++) {
        loff_t pos = (loff_t)p * PAGE_SIZE;
        memset(vbuf, 'x', PAGE_SIZE);
        KT_ASSERT(kernel_write(f, vbuf, PAGE_SIZE, &pos) == PAGE_SIZE);
        peak = max(peak, global_page_state(NR_FILE_DIRTY));
    }
    KT_EXPECT(vmscan_stats.dirty_throttled > throttled0);
    KT_EXPECT(vt_writepages >= pages - (int)thresh - 64);
    KT_EXPECT(peak <= thresh + 32 + 1);        /* one ratelimit (32 pages) over */
    vm_dirty_ratio = saved;
    vm_dirty_background_ratio = saved_bg;
    vt_close(f, "/vt_bdp");
}
