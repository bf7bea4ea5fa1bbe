/* mm/page_alloc_test.c: the ktests of page_alloc.c (test=page_alloc); built
 * into the test kernel only (make check), never into the production kernel.
 * The tests reach page_alloc.c's static functions and data, so this file
 * includes it: in the test kernel the two are one object (Makefile). */
#include "page_alloc.c"
#include <ktest.h>


/* Walk the free lists under zone->lock: every block well formed, each
 * order's count its blocks, the total zone->free_pages.  Also the check of
 * kmalloc's SMP test (mm/kmalloc_test.c; declared in <ktest.h>). */
bool free_lists_consistent(void)
{
    unsigned long frames = 0, flags;
    bool ok = true;
    spin_lock_irqsave(&zone->lock, flags);
    for (unsigned int o = 0; o < MAX_ORDER && ok; o++) {
        unsigned long blocks = 0;
        struct page *p;
        list_for_each_entry(p, &zone->free_area[o].free_list, lru) {
            unsigned long pfn = page_to_pfn(p);
            ok &= PageBuddy(p) && p->private == o && !(pfn & ((1UL << o) - 1));
            for (unsigned long i = 1; i < (1UL << o) && ok; i++)
                ok &= PageBuddy(p + i) && p[i].private == BUDDY_TAIL;
            if (!ok)
                break;
            blocks++;
            frames += 1UL << o;
            if (frames > max_pfn) {     /* a list that loops: corrupted */
                ok = false;
                break;
            }
        }
        ok &= blocks == zone->free_area[o].nr_free;
    }
    ok &= frames == zone->free_pages;
    spin_unlock_irqrestore(&zone->lock, flags);
    return ok;
}

/* Free a chain of pages linked through their first word. */
static void free_chain(void *chain)
{
    while (chain) {
        void *next = *(void **)chain;
        free_page((unsigned long)chain);
        chain = next;
    }
}

KTEST(page_alloc, boot_state)
{
    KT_EXPECT(max_pfn > 0 && totalram_pages > 0 && totalram_pages < max_pfn);
    KT_EXPECT(nr_free_pages() <= totalram_pages);
    KT_EXPECT(free_lists_consistent());
    /* BIOS area, kernel image and mem_map itself are reserved. */
    KT_EXPECT(PageReserved(pfn_to_page(0)));
    extern char _text[];
    KT_EXPECT(PageReserved(virt_to_page(_text)));
    KT_EXPECT(PageReserved(virt_to_page(mem_map)));
    KT_EXPECT(PageReserved(virt_to_page(&mem_map[max_pfn - 1])));
    KT_EXPECT(PageReserved(virt_to_page(boot_info)));
}

KTEST(page_alloc, frames_are_distinct)
{
    enum { N = 512 };
    static struct page *pages[N];
    unsigned long start = nr_free_pages();
    for (int i = 0; i < N; i++) {
        pages[i] = alloc_page(GFP_KERNEL);
        KT_ASSERT(pages[i] != NULL);
        KT_EXPECT_EQ(page_count(pages[i]), 1);
        KT_EXPECT(!PageBuddy(pages[i]) && !PageReserved(pages[i]));
        *(unsigned long *)page_address(pages[i]) = page_to_pfn(pages[i]);   /* mark */
    }
    KT_EXPECT_EQ(nr_free_pages(), start - N);
    for (int i = 0; i < N; i++) {
        /* A frame handed out twice would carry a later page's mark. */
        KT_EXPECT_EQ(*(unsigned long *)page_address(pages[i]), page_to_pfn(pages[i]));
        for (int j = 0; j < i; j++)
            KT_EXPECT(pages[i] != pages[j]);
    }
    for (int i = 0; i < N; i++)
        __free_page(pages[i]);
    KT_EXPECT_EQ(nr_free_pages(), start);
    KT_EXPECT(free_lists_consistent());
}

/* __GFP_MEMALLOC: every free page, the reserves below the watermarks too
 * (and nothing here is reclaimable: this suite boots without a disk). */
KTEST(page_alloc, exhaustion_and_reuse)
{
    unsigned long start = nr_free_pages(), oom0 = mm_oom_count, n = 0;
    void *chain = NULL;                 /* allocated pages linked through their first word */
    for (;;) {
        struct page *p = alloc_pages(GFP_KERNEL | __GFP_MEMALLOC, 0);
        if (!p)
            break;
        *(void **)page_address(p) = chain;
        chain = page_address(p);
        n++;
    }
    KT_EXPECT_EQ(n, start);
    KT_EXPECT_EQ(nr_free_pages(), 0);
    KT_EXPECT_EQ(mm_oom_count, oom0 + 1);         /* reported, not panicked */
    KT_EXPECT(alloc_pages(GFP_KERNEL | __GFP_MEMALLOC | __GFP_NOWARN, 1) == NULL);
    KT_EXPECT(get_zeroed_page(GFP_KERNEL | __GFP_MEMALLOC | __GFP_NOWARN) == 0);

    /* The one frame freed is the one handed out next. */
    void *last = chain;
    chain = *(void **)last;
    free_page((unsigned long)last);
    KT_EXPECT_EQ(nr_free_pages(), 1);
    void *again = (void *)__get_free_page(GFP_KERNEL | __GFP_MEMALLOC);
    KT_EXPECT(again == last);
    *(void **)again = chain;
    chain = again;

    free_chain(chain);
    KT_EXPECT_EQ(nr_free_pages(), start);
    KT_EXPECT(free_lists_consistent());
}

KTEST(page_alloc, orders_are_aligned_and_contiguous)
{
    unsigned long start = nr_free_pages();
    struct page *blocks[MAX_ORDER];
    for (unsigned int o = 0; o < MAX_ORDER; o++) {
        blocks[o] = alloc_pages(GFP_KERNEL, o);
        KT_ASSERT(blocks[o] != NULL);
        KT_EXPECT_EQ(page_to_pfn(blocks[o]) & ((1UL << o) - 1), 0);
        for (unsigned long i = 0; i < (1UL << o); i++)
            KT_EXPECT(!PageBuddy(blocks[o] + i) && !PageReserved(blocks[o] + i));
        /* Contiguous: the whole block is writable through the direct map. */
        memset(page_address(blocks[o]), 0x40 + o, PAGE_SIZE << o);
    }
    KT_EXPECT_EQ(nr_free_pages(), start - ((1UL << MAX_ORDER) - 1));
    for (unsigned int o = 0; o < MAX_ORDER; o++) {
        const unsigned char *b = page_address(blocks[o]);
        bool intact = true;
        for (unsigned long i = 0; i < ((unsigned long)PAGE_SIZE << o); i++)
            intact &= b[i] == 0x40 + o;
        KT_EXPECT(intact);                /* no two blocks overlap */
    }
    for (unsigned int o = 0; o < MAX_ORDER; o++)
        __free_pages(blocks[o], o);
    KT_EXPECT_EQ(nr_free_pages(), start);
    KT_EXPECT(free_lists_consistent());
    KT_EXPECT(alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_ORDER) == NULL);
}

KTEST(page_alloc, bad_frees_are_caught)
{
    unsigned long start = nr_free_pages(), bad0 = mm_bad_page_count;
    struct page *p = alloc_page(GFP_KERNEL);
    KT_ASSERT(p != NULL);
    __free_page(p);
    KT_EXPECT_EQ(nr_free_pages(), start);
    __free_page(p);                                       /* double free */
    KT_EXPECT_EQ(mm_bad_page_count, bad0 + 1);
    KT_EXPECT_EQ(nr_free_pages(), start);

    struct page *q = alloc_pages(GFP_KERNEL, 2);
    KT_ASSERT(q != NULL);
    __free_pages(q, 2);
    __free_page(q + 3);                 /* a frame merged into a free block */
    KT_EXPECT_EQ(mm_bad_page_count, bad0 + 2);
    __free_page(pfn_to_page(0));        /* reserved */
    KT_EXPECT_EQ(mm_bad_page_count, bad0 + 3);
    __free_page((struct page *)0x12345);    /* not a struct page */
    KT_EXPECT_EQ(mm_bad_page_count, bad0 + 4);
    free_page(0xC0000123);              /* not page aligned */
    KT_EXPECT_EQ(mm_bad_page_count, bad0 + 5);
    q = alloc_pages(GFP_KERNEL, 1);
    KT_ASSERT(q != NULL);
    __free_pages(q, 2);                 /* wrong order: 2 is misaligned or too big */
    __free_pages(q, 1);
    KT_EXPECT(mm_bad_page_count >= bad0 + 5);
    KT_EXPECT_EQ(nr_free_pages(), start);
    KT_EXPECT(free_lists_consistent());

    /* The allocator still works: two distinct frames. */
    struct page *a = alloc_page(GFP_KERNEL), *b = alloc_page(GFP_KERNEL);
    KT_EXPECT(a && b && a != b);
    __free_page(a);
    __free_page(b);
    KT_EXPECT_EQ(nr_free_pages(), start);
}

KTEST(page_alloc, put_page_refcount)
{
    unsigned long start = nr_free_pages(), bad0 = mm_bad_page_count;
    struct page *p = alloc_page(GFP_KERNEL);
    KT_ASSERT(p != NULL);
    get_page(p);
    KT_EXPECT_EQ(page_count(p), 2);
    put_page(p);
    KT_EXPECT_EQ(page_count(p), 1);
    KT_EXPECT_EQ(nr_free_pages(), start - 1);     /* still held */
    KT_EXPECT(!PageBuddy(p));
    put_page(p);
    KT_EXPECT_EQ(nr_free_pages(), start);         /* freed at zero */
    KT_EXPECT(PageBuddy(p));
    put_page(p);                                /* one put too many */
    KT_EXPECT_EQ(mm_bad_page_count, bad0 + 1);

    /* A page still in the page cache at count 0 is a bug: reported, kept. */
    p = alloc_page(GFP_KERNEL);
    KT_ASSERT(p != NULL);
    p->mapping = (struct address_space *)p;     /* any non-NULL value */
    put_page(p);
    KT_EXPECT_EQ(mm_bad_page_count, bad0 + 2);
    KT_EXPECT(!PageBuddy(p));
    p->mapping = NULL;
    set_page_count(p, 1);
    put_page(p);
    KT_EXPECT_EQ(nr_free_pages(), start);
    KT_EXPECT(free_lists_consistent());
}

KTEST(page_alloc, gfp_zero_and_flags)
{
    struct page *p = alloc_page(GFP_KERNEL);
    KT_ASSERT(p != NULL);
    memset(page_address(p), 0xAA, PAGE_SIZE);
    __free_page(p);
    p = alloc_page(GFP_KERNEL | __GFP_ZERO);
    KT_ASSERT(p != NULL);
    const unsigned char *b = page_address(p);
    bool zero = true;
    for (int i = 0; i < PAGE_SIZE; i++)
        zero &= b[i] == 0;
    KT_EXPECT(zero);
    /* Flag helpers: atomic test-and-set returns the old bit. */
    KT_EXPECT(!TestSetPageLocked(p));
    KT_EXPECT(PageLocked(p));
    KT_EXPECT(TestSetPageLocked(p));
    KT_EXPECT(TestClearPageLocked(p));
    KT_EXPECT(!PageLocked(p));
    SetPageDirty(p);
    SetPageUptodate(p);
    KT_EXPECT(PageDirty(p) && PageUptodate(p) && !PageWriteback(p));
    ClearPageDirty(p);
    ClearPageUptodate(p);
    KT_EXPECT_EQ(p->flags, 0);
    KT_EXPECT(page_address(p) == phys_to_virt(page_to_phys(p)));
    KT_EXPECT(virt_to_page(page_address(p)) == p);
    KT_EXPECT(pfn_to_page(page_to_pfn(p)) == p);
    __free_page(p);
}

/* The watermarks (include/gfp.h): the kernel's GFP_KERNEL stops at half
 * of min, GFP_ATOMIC at a quarter, GFP_USER (with interrupts off, so it
 * cannot sleep or reclaim) at min itself; __GFP_MEMALLOC goes to 0. */
static unsigned long drain_to(gfp_t gfp, void **chain)
{
    unsigned long n = 0;
    struct page *p;
    while ((p = alloc_pages(gfp | __GFP_NOWARN, 0))) {
        *(void **)page_address(p) = *chain;
        *chain = page_address(p);
        n++;
    }
    return n;
}

KTEST(page_alloc, watermarks_per_gfp)
{
    unsigned long start = nr_free_pages();
    void *chain = NULL;
    KT_ASSERT(min_free_pages >= 32 && low_free_pages > min_free_pages &&
              high_free_pages > low_free_pages);
    unsigned long flags = local_irq_save();
    drain_to(GFP_USER, &chain);
    unsigned long at_user = nr_free_pages();
    local_irq_restore(flags);
    drain_to(GFP_KERNEL, &chain);
    unsigned long at_kernel = nr_free_pages();
    drain_to(GFP_ATOMIC, &chain);
    unsigned long at_atomic = nr_free_pages();
    drain_to(__GFP_MEMALLOC, &chain);
    KT_EXPECT_EQ(at_user, min_free_pages);
    KT_EXPECT_EQ(at_kernel, min_free_pages / 2);
    KT_EXPECT_EQ(at_atomic, min_free_pages / 4);
    KT_EXPECT_EQ(nr_free_pages(), 0);
    free_chain(chain);
    KT_EXPECT_EQ(nr_free_pages(), start);
    KT_EXPECT(free_lists_consistent());
}
