/* mm/page_alloc_test.c: the ktests of page_alloc.c (test=page_alloc); built
 * into the test kernel only (make check), never into the production kernel.
 * The tests reach page_alloc.c's static functions and data, so this file
 * includes it: in the test kernel the two are one object (Makefile). */
#include "page_alloc.c"
#include <ktest.h>
#include <slab.h>


/* Walk the free lists: every CPU's pcp list under its lock (single pages
 * marked BUDDY_PCP, as many as its count), then the buddy lists under
 * zone->lock (every block well formed, each order's count its blocks);
 * the total zone->free_pages.  Also the check of kmalloc's SMP test
 * (mm/kmalloc_test.c; declared in <ktest.h>), run when no allocation is
 * under way. */
bool free_lists_consistent(void)
{
    unsigned long frames = 0, flags;
    bool ok = true;
    for (int cpu = 0; cpu < NR_CPUS && ok; cpu++) {
        struct per_cpu_pages *pcp = &pcp_pages[cpu];
        struct page *p;
        int n = 0;
        spin_lock_irqsave(&pcp->lock, flags);
        list_for_each_entry(p, &pcp->list, lru) {
            ok &= PageBuddy(p) && p->private == BUDDY_PCP && page_count(p) == 0;
            if (!ok || ++n > pcp->high + pcp->batch)
                break;                  /* a bad page, or a list that loops */
        }
        ok &= n == pcp->count && n <= pcp->high;
        frames += n;
        spin_unlock_irqrestore(&pcp->lock, flags);
    }
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
    /* Emptying memory reclaims, and reclaim drains kmalloc's per-CPU
     * arrays (their shrinker): drained first, so that the pages it frees
     * are in the count we start from. */
    kmalloc_drain_cpu_caches();
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

/* ---------------------------------------------------------------------- */
/* Per-CPU page lists (suite smplocks, at -smp 4: tools/suites/smplocks.conf;
 * the course lab `locks`, docs/labs/10-locks.md)                         */

#include <err.h>
#include <smp.h>
#include <smp_lock.h>
#include <timer.h>
#include <asm/atomic.h>

/* This CPU's list fills a batch at a time from the buddy lists, hands out
 * the page freed last (hot) first, and gives a batch back when it grows
 * past high.  Interrupts off: nothing else uses this CPU's list meanwhile. */
KTEST(smplocks, pcp_refills_and_drains_in_batches)
{
    enum { N = PCP_HIGH + PCP_BATCH + 1 };
    static struct page *pages[N];
    unsigned long start = nr_free_pages();
    unsigned long flags = local_irq_save();
    struct per_cpu_pages *pcp = &pcp_pages[smp_processor_id()];
    int batch = pcp->batch, high = pcp->high;
    drain_all_pages();
    int empty = pcp->count;
    pages[0] = alloc_page(GFP_KERNEL);
    int after_one = pcp->count;                 /* refilled: batch, less the one */
    for (int i = 1; i < batch; i++)
        pages[i] = alloc_page(GFP_KERNEL);
    int after_batch = pcp->count;               /* used up */
    pages[batch] = alloc_page(GFP_KERNEL);
    int after_refill = pcp->count;
    for (int i = batch + 1; i < N; i++)
        pages[i] = alloc_page(GFP_KERNEL);
    unsigned long held = start - nr_free_pages();
    /* Free them all: count + 1 each, less batch whenever it passes high. */
    int want = pcp->count, worst = 0;
    bool counts_ok = true, on_list = true;
    for (int i = 0; i < N; i++) {
        __free_page(pages[i]);
        if (++want > high)
            want -= batch;
        counts_ok &= pcp->count == want;
        on_list &= PageBuddy(pages[i]);         /* free, and a double free is caught */
        worst = pcp->count > worst ? pcp->count : worst;
    }
    struct page *last = pages[N - 1], *again = alloc_page(GFP_KERNEL);
    local_irq_restore(flags);
    if (again)
        __free_page(again);

    KT_EXPECT_EQ(empty, 0);
    KT_EXPECT_EQ(after_one, batch - 1);
    KT_EXPECT_EQ(after_batch, 0);
    KT_EXPECT_EQ(after_refill, batch - 1);
    KT_EXPECT_EQ(held, N);
    KT_EXPECT(counts_ok);
    KT_EXPECT(on_list);
    KT_EXPECT(worst <= high);
    KT_EXPECT(again == last);                   /* the hottest page first */
    KT_EXPECT_EQ(nr_free_pages(), start);       /* pages on a list are free */
    KT_EXPECT(free_lists_consistent());
}

/* Pages left on another CPU's list are free, and an allocation that finds
 * the buddy lists empty drains every list and gets them. */
static volatile int pcp_filled;
static int fill_other_pcp(void *data)
{
    struct page *p[8];
    set_cpus_allowed(current, 1ul << (long)data);   /* moves there now */
    for (int i = 0; i < 8; i++)
        p[i] = alloc_page(GFP_KERNEL);
    for (int i = 0; i < 8; i++)
        if (p[i])
            __free_page(p[i]);
    pcp_filled = 1;
    return 0;
}

KTEST(smplocks, pcp_pages_are_free_and_drained_when_short)
{
    KT_ASSERT(num_online_cpus() >= 2);          /* smplocks.conf: -smp 4 */
    unsigned long start = nr_free_pages(), oom0 = mm_oom_count, n = 0;
    pcp_filled = 0;
    struct task_struct *t = kthread_run(fill_other_pcp, (void *)1L, "fill-pcp/1");
    KT_ASSERT(!IS_ERR(t));
    KT_EXPECT_EQ(kthread_stop(t), 0);
    KT_ASSERT(pcp_filled);
    int on_cpu1 = pcp_pages[1].count;
    KT_EXPECT(on_cpu1 >= 8);                    /* the eight freed there stayed there */
    KT_EXPECT_EQ(nr_free_pages(), start);       /* and count as free */

    void *chain = NULL;
    struct page *p;
    while ((p = alloc_pages(GFP_KERNEL | __GFP_MEMALLOC | __GFP_NOWARN, 0))) {
        *(void **)page_address(p) = chain;
        chain = page_address(p);
        n++;
    }
    KT_EXPECT_EQ(n, start);                     /* CPU 1's pages too */
    KT_EXPECT_EQ(pcp_pages[1].count, 0);
    KT_EXPECT_EQ(nr_free_pages(), 0);
    KT_EXPECT_EQ(mm_oom_count, oom0 + 1);       /* the one that found none, counted */
    free_chain(chain);
    KT_EXPECT_EQ(nr_free_pages(), start);
    KT_EXPECT(free_lists_consistent());
}

/* The evidence of the lab: a worker per CPU, without the big kernel lock,
 * takes and gives back single pages at random, first with the lists off
 * (batch 1, high 0: every allocation and every free takes zone->lock, as
 * before them) and then on.  zone->lock's counters (/proc/lock_stat) must
 * show it contended at least four times less with them; every page's
 * pattern intact, the free count back, the lists consistent. */
#define PCP_STRESS_ROUNDS 20000
#define PCP_STRESS_SLOTS  24
struct pcp_worker {
    int cpu;
    int ran_on;
    unsigned long changed, failed, blocks;
};
static atomic_t pcp_stress_ready;
static volatile int pcp_stress_go;

static int pcp_stress_fn(void *data)
{
    struct pcp_worker *w = data;
    struct { uint32_t *p; uint32_t tag; } held[PCP_STRESS_SLOTS];
    uint32_t rnd = 0x9E3779B9u * (uint32_t)(w->cpu + 1);
    memset(held, 0, sizeof held);
    set_cpus_allowed(current, 1ul << w->cpu);   /* moves there now */
    unlock_kernel();                            /* kthread_main's; back below */
    atomic_inc(&pcp_stress_ready);
    while (!READ_ONCE(pcp_stress_go))
        msleep(1);
    for (int round = 0; round < PCP_STRESS_ROUNDS; round++) {
        rnd = rnd * 1664525u + 1013904223u;     /* Numerical Recipes' LCG */
        int s = (rnd >> 16) % PCP_STRESS_SLOTS;
        if (held[s].p) {
            bool intact = true;
            for (int i = 0; i < PAGE_SIZE / 4; i += 64)
                intact &= held[s].p[i] == (held[s].tag ^ (uint32_t)i);
            w->changed += !intact;
            free_page((unsigned long)held[s].p);
            held[s].p = NULL;
        } else {
            held[s].p = (uint32_t *)__get_free_page(GFP_KERNEL);
            if (!held[s].p) {
                w->failed++;
                continue;
            }
            w->blocks++;
            held[s].tag = rnd;
            for (int i = 0; i < PAGE_SIZE / 4; i += 64)
                held[s].p[i] = rnd ^ (uint32_t)i;
        }
        if (round % 512 == 0)
            cond_resched();
    }
    for (int s = 0; s < PCP_STRESS_SLOTS; s++)
        if (held[s].p)
            free_page((unsigned long)held[s].p);
    w->ran_on = smp_processor_id();
    lock_kernel();
    return 0;
}

/* One round of the stress with every list's batch and high set so; the
 * zone->lock counters' growth in *acq and *con. */
static bool pcp_stress(int batch, int high, unsigned long *acq, unsigned long *con)
{
    static struct pcp_worker w[NR_CPUS];
    struct task_struct *t[NR_CPUS];
    int n = 0, cpu;
    bool ok = true;
    drain_all_pages();
    for (int c = 0; c < NR_CPUS; c++) {
        unsigned long flags;
        spin_lock_irqsave(&pcp_pages[c].lock, flags);
        pcp_pages[c].batch = batch;
        pcp_pages[c].high = high;
        spin_unlock_irqrestore(&pcp_pages[c].lock, flags);
    }
    atomic_set(&pcp_stress_ready, 0);
    pcp_stress_go = 0;
    for_each_online_cpu(cpu) {
        memset(&w[n], 0, sizeof w[n]);
        w[n].cpu = cpu;
        w[n].ran_on = -1;
        t[n] = kthread_run(pcp_stress_fn, &w[n], "pcp-stress");
        if (IS_ERR(t[n]))
            return false;
        n++;
    }
    while (atomic_read(&pcp_stress_ready) < n)
        msleep(1);
    unsigned long acq0 = READ_ONCE(zone->lock.acquisitions);
    unsigned long con0 = READ_ONCE(zone->lock.contentions);
    pcp_stress_go = 1;
    for (int i = 0; i < n; i++)
        ok &= kthread_stop(t[i]) == 0;
    *acq = READ_ONCE(zone->lock.acquisitions) - acq0;
    *con = READ_ONCE(zone->lock.contentions) - con0;
    for (int i = 0; i < n; i++)
        ok &= w[i].ran_on == w[i].cpu && !w[i].changed && !w[i].failed &&
              w[i].blocks >= PCP_STRESS_ROUNDS / 4;
    return ok;
}

KTEST(smplocks, pcp_lists_cut_zone_lock_contention)
{
    KT_ASSERT(num_online_cpus() >= 2);          /* smplocks.conf: -smp 4 */
    unsigned long start = nr_free_pages(), bad0 = mm_bad_page_count;
    unsigned long off_acq, off_con, on_acq, on_con;
    bool off_ok = pcp_stress(1, 0, &off_acq, &off_con);
    bool on_ok = pcp_stress(PCP_BATCH, PCP_HIGH, &on_acq, &on_con);
    printk(KERN_INFO "pcp stress: %d CPUs, zone->lock: lists off %lu contentions in %lu "
           "acquisitions, lists on %lu in %lu\n",
           num_online_cpus(), off_con, off_acq, on_con, on_acq);
    KT_EXPECT(off_ok);                          /* patterns intact, no failure */
    KT_EXPECT(on_ok);
    KT_EXPECT(off_con >= 20);                   /* the workers met there */
    KT_EXPECT(on_con * 4 <= off_con);
    KT_EXPECT(on_acq * 4 <= off_acq);
    KT_EXPECT_EQ(nr_free_pages(), start);
    KT_EXPECT_EQ(mm_bad_page_count, bad0);
    KT_EXPECT(free_lists_consistent());
}
