/* mm/page_alloc_test.c: the ktests of page_alloc.c (test=page_alloc); built into the test
 * kernel only (make check), never into the production kernel.
 * The tests reach page_alloc.c's static functions and data, so this file
 * includes it: in the test kernel the two are one object (Makefile). */
#include "page_alloc.c"
#include <ktest.h>


/* Walk the free lists: every block well formed, the total equals nr_free. */
static bool free_lists_consistent(void)
{
    unsigned long frames = 0;
    unsigned long flags = local_irq_save();
    for (unsigned int o = 0; o < MAX_ORDER; o++) {
        unsigned long blocks = 0;
        struct page *p;
        list_for_each_entry(p, &free_area[o].free_list, lru) {
            unsigned long pfn = page_to_pfn(p);
            if (!PageBuddy(p) || p->private != o || (pfn & ((1UL << o) - 1)))
                goto bad;
            for (unsigned long i = 1; i < (1UL << o); i++)
                if (!PageBuddy(p + i) || p[i].private != BUDDY_TAIL)
                    goto bad;
            blocks++;
            frames += 1UL << o;
        }
        if (blocks != free_area[o].nr_free)
            goto bad;
    }
    local_irq_restore(flags);
    return frames == nr_free;
bad:
    local_irq_restore(flags);
    return false;
}

KTEST(page_alloc, boot_state)
{
    KEXPECT(max_pfn > 0 && totalram_pages > 0 && totalram_pages < max_pfn);
    KEXPECT(nr_free_pages() <= totalram_pages);
    KEXPECT(free_lists_consistent());
    /* BIOS area, kernel image and mem_map itself are reserved. */
    KEXPECT(PageReserved(pfn_to_page(0)));
    extern char _text[];
    KEXPECT(PageReserved(virt_to_page(_text)));
    KEXPECT(PageReserved(virt_to_page(mem_map)));
    KEXPECT(PageReserved(virt_to_page(&mem_map[max_pfn - 1])));
    KEXPECT(PageReserved(virt_to_page(boot_info)));
}

KTEST(page_alloc, frames_are_distinct)
{
    enum { N = 512 };
    static struct page *pages[N];
    unsigned long start = nr_free_pages();
    for (int i = 0; i < N; i++) {
        pages[i] = alloc_page(GFP_KERNEL);
        KASSERT(pages[i] != NULL);
        KEXPECT_EQ(page_count(pages[i]), 1);
        KEXPECT(!PageBuddy(pages[i]) && !PageReserved(pages[i]));
        *(unsigned long *)page_address(pages[i]) = page_to_pfn(pages[i]);   /* mark */
    }
    KEXPECT_EQ(nr_free_pages(), start - N);
    for (int i = 0; i < N; i++) {
        /* A frame handed out twice would carry a later page's mark. */
        KEXPECT_EQ(*(unsigned long *)page_address(pages[i]), page_to_pfn(pages[i]));
        for (int j = 0; j < i; j++)
            KEXPECT(pages[i] != pages[j]);
    }
    for (int i = 0; i < N; i++)
        __free_page(pages[i]);
    KEXPECT_EQ(nr_free_pages(), start);
    KEXPECT(free_lists_consistent());
}

KTEST(page_alloc, exhaustion_and_reuse)
{
    unsigned long start = nr_free_pages(), oom0 = mm_oom_count, n = 0;
    void *chain = NULL;                 /* allocated pages linked through their first word */
    for (;;) {
        struct page *p = alloc_pages(GFP_KERNEL, 0);
        if (!p)
            break;
        *(void **)page_address(p) = chain;
        chain = page_address(p);
        n++;
    }
    KEXPECT_EQ(n, start);
    KEXPECT_EQ(nr_free_pages(), 0);
    KEXPECT_EQ(mm_oom_count, oom0 + 1);         /* reported, not panicked */
    KEXPECT(alloc_pages(GFP_KERNEL | __GFP_NOWARN, 1) == NULL);
    KEXPECT(get_zeroed_page(GFP_KERNEL | __GFP_NOWARN) == 0);

    /* The one frame freed is the one handed out next. */
    void *last = chain;
    chain = *(void **)last;
    free_page((unsigned long)last);
    KEXPECT_EQ(nr_free_pages(), 1);
    void *again = (void *)__get_free_page(GFP_KERNEL);
    KEXPECT(again == last);
    *(void **)again = chain;
    chain = again;

    while (chain) {
        void *next = *(void **)chain;
        free_page((unsigned long)chain);
        chain = next;
    }
    KEXPECT_EQ(nr_free_pages(), start);
    KEXPECT(free_lists_consistent());
}

KTEST(page_alloc, orders_are_aligned_and_contiguous)
{
    unsigned long start = nr_free_pages();
    struct page *blocks[MAX_ORDER];
    for (unsigned int o = 0; o < MAX_ORDER; o++) {
        blocks[o] = alloc_pages(GFP_KERNEL, o);
        KASSERT(blocks[o] != NULL);
        KEXPECT_EQ(page_to_pfn(blocks[o]) & ((1UL << o) - 1), 0);
        for (unsigned long i = 0; i < (1UL << o); i++)
            KEXPECT(!PageBuddy(blocks[o] + i) && !PageReserved(blocks[o] + i));
        /* Contiguous: the whole block is writable through the direct map. */
        memset(page_address(blocks[o]), 0x40 + o, PAGE_SIZE << o);
    }
    KEXPECT_EQ(nr_free_pages(), start - ((1UL << MAX_ORDER) - 1));
    for (unsigned int o = 0; o < MAX_ORDER; o++) {
        const unsigned char *b = page_address(blocks[o]);
        bool intact = true;
        for (unsigned long i = 0; i < ((unsigned long)PAGE_SIZE << o); i++)
            intact &= b[i] == 0x40 + o;
        KEXPECT(intact);                /* no two blocks overlap */
    }
    for (unsigned int o = 0; o < MAX_ORDER; o++)
        __free_pages(blocks[o], o);
    KEXPECT_EQ(nr_free_pages(), start);
    KEXPECT(free_lists_consistent());
    KEXPECT(alloc_pages(GFP_KERNEL | __GFP_NOWARN, MAX_ORDER) == NULL);
}

KTEST(page_alloc, bad_frees_are_caught)
{
    unsigned long start = nr_free_pages(), bad0 = mm_bad_page_count;
    struct page *p = alloc_page(GFP_KERNEL);
    KASSERT(p != NULL);
    __free_page(p);
    KEXPECT_EQ(nr_free_pages(), start);
    __free_page(p);                                       /* double free */
    KEXPECT_EQ(mm_bad_page_count, bad0 + 1);
    KEXPECT_EQ(nr_free_pages(), start);

    struct page *q = alloc_pages(GFP_KERNEL, 2);
    KASSERT(q != NULL);
    __free_pages(q, 2);
    __free_page(q + 3);                 /* a frame merged into a free block */
    KEXPECT_EQ(mm_bad_page_count, bad0 + 2);
    __free_page(pfn_to_page(0));        /* reserved */
    KEXPECT_EQ(mm_bad_page_count, bad0 + 3);
    __free_page((struct page *)0x12345);    /* not a struct page */
    KEXPECT_EQ(mm_bad_page_count, bad0 + 4);
    free_page(0xC0000123);              /* not page aligned */
    KEXPECT_EQ(mm_bad_page_count, bad0 + 5);
    q = alloc_pages(GFP_KERNEL, 1);
    KASSERT(q != NULL);
    __free_pages(q, 2);                 /* wrong order: 2 is misaligned or too big */
    __free_pages(q, 1);
    KEXPECT(mm_bad_page_count >= bad0 + 5);
    KEXPECT_EQ(nr_free_pages(), start);
    KEXPECT(free_lists_consistent());

    /* The allocator still works: two distinct frames. */
    struct page *a = alloc_page(GFP_KERNEL), *b = alloc_page(GFP_KERNEL);
    KEXPECT(a && b && a != b);
    __free_page(a);
    __free_page(b);
    KEXPECT_EQ(nr_free_pages(), start);
}

KTEST(page_alloc, put_page_refcount)
{
    unsigned long start = nr_free_pages(), bad0 = mm_bad_page_count;
    struct page *p = alloc_page(GFP_KERNEL);
    KASSERT(p != NULL);
    get_page(p);
    KEXPECT_EQ(page_count(p), 2);
    put_page(p);
    KEXPECT_EQ(page_count(p), 1);
    KEXPECT_EQ(nr_free_pages(), start - 1);     /* still held */
    KEXPECT(!PageBuddy(p));
    put_page(p);
    KEXPECT_EQ(nr_free_pages(), start);         /* freed at zero */
    KEXPECT(PageBuddy(p));
    put_page(p);                                /* one put too many */
    KEXPECT_EQ(mm_bad_page_count, bad0 + 1);

    /* A page still in the page cache at count 0 is a bug: reported, kept. */
    p = alloc_page(GFP_KERNEL);
    KASSERT(p != NULL);
    p->mapping = (struct address_space *)p;     /* any non-NULL value */
    put_page(p);
    KEXPECT_EQ(mm_bad_page_count, bad0 + 2);
    KEXPECT(!PageBuddy(p));
    p->mapping = NULL;
    set_page_count(p, 1);
    put_page(p);
    KEXPECT_EQ(nr_free_pages(), start);
    KEXPECT(free_lists_consistent());
}

KTEST(page_alloc, gfp_zero_and_flags)
{
    struct page *p = alloc_page(GFP_KERNEL);
    KASSERT(p != NULL);
    memset(page_address(p), 0xAA, PAGE_SIZE);
    __free_page(p);
    p = alloc_page(GFP_KERNEL | __GFP_ZERO);
    KASSERT(p != NULL);
    const unsigned char *b = page_address(p);
    bool zero = true;
    for (int i = 0; i < PAGE_SIZE; i++)
        zero &= b[i] == 0;
    KEXPECT(zero);
    /* Flag helpers: atomic test-and-set returns the old bit. */
    KEXPECT(!TestSetPageLocked(p));
    KEXPECT(PageLocked(p));
    KEXPECT(TestSetPageLocked(p));
    KEXPECT(TestClearPageLocked(p));
    KEXPECT(!PageLocked(p));
    SetPageDirty(p);
    SetPageUptodate(p);
    KEXPECT(PageDirty(p) && PageUptodate(p) && !PageWriteback(p));
    ClearPageDirty(p);
    ClearPageUptodate(p);
    KEXPECT_EQ(p->flags, 0);
    KEXPECT(page_address(p) == phys_to_virt(page_to_phys(p)));
    KEXPECT(virt_to_page(page_address(p)) == p);
    KEXPECT(pfn_to_page(page_to_pfn(p)) == p);
    __free_page(p);
}
