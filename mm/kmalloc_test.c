/* mm/kmalloc_test.c: the ktests of kmalloc.c (test=kmalloc), and the SMP
 * test of kmalloc and the page allocator together on several CPUs without
 * the big kernel lock (SMP step 4, docs/smp.md); built into the test kernel
 * only (make check), never into the production kernel. The tests
 * reach kmalloc.c's static functions and data, so this file includes it: in
 * the test kernel the two are one object (Makefile). */
#include "kmalloc.c"
#include <ktest.h>
#include <err.h>
#include <sched.h>
#include <smp.h>
#include <smp_lock.h>
#include <timer.h>
#include <asm/atomic.h>
#include <swap.h>


static void fill(void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        ((unsigned char *)p)[i] = (unsigned char)(seed * 31 + i);
}
static bool check(const void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (((const unsigned char *)p)[i] != (unsigned char)(seed * 31 + i))
            return false;
    return true;
}

KTEST(kmalloc, sizes_alignment_no_overlap)
{
    static const size_t sizes[] = { 1, 7, 8, 15, 16, 17, 24, 31, 32, 33, 63, 64, 100, 128,
        129, 200, 256, 300, 512, 700, 1000, 1024, 1500, 2047, 2048, 2049, 4096, 5000,
        9000, 20000 };
    enum { N = ARRAY_SIZE(sizes), REP = 5 };
    static void *ptrs[N * REP];
    kmalloc_drain_cpu_caches();                       /* no object parked: pages exact */
    unsigned long start = nr_free_pages();
    for (unsigned i = 0; i < N * REP; i++) {
        size_t sz = sizes[i % N];
        ptrs[i] = kmalloc(sz, GFP_KERNEL);
        KT_ASSERT(ptrs[i] != NULL);
        size_t ks = ksize(ptrs[i]);
        KT_EXPECT(ks >= sz && ks >= KMALLOC_MIN_SIZE);
        KT_EXPECT(ks >= KMALLOC_MAX_CACHE_SIZE || ks < 2 * sz || sz < KMALLOC_MIN_SIZE);
        /* Naturally aligned to the class size, pages for large ones. */
        KT_EXPECT_EQ((unsigned long)ptrs[i] % min_t(size_t, ks, PAGE_SIZE), 0);
        fill(ptrs[i], sz, i);
    }
    for (unsigned i = 0; i < N * REP; i++)
        KT_EXPECT(check(ptrs[i], sizes[i % N], i));   /* nobody overwrote anybody */
    for (unsigned i = 0; i < N * REP; i++)
        kfree(ptrs[i]);
    kmalloc_drain_cpu_caches();
    KT_EXPECT_EQ(nr_free_pages(), start);             /* empty slabs go back */
}

KTEST(kmalloc, many_small_objects)
{
    enum { N = 2000 };
    static uint32_t *objs[N];
    kmalloc_drain_cpu_caches();
    unsigned long start = nr_free_pages();
    for (int i = 0; i < N; i++) {
        objs[i] = kmalloc(24, GFP_KERNEL);
        KT_ASSERT(objs[i] != NULL);
        for (int w = 0; w < 6; w++)
            objs[i][w] = i * 8 + w;
    }
    /* 32-byte class: 128 objects a page, so at least N/128 pages in use. */
    KT_EXPECT(start - nr_free_pages() >= N / 128);
    for (int i = 0; i < N; i++) {
        bool ok = true;
        for (int w = 0; w < 6; w++)
            ok &= objs[i][w] == (uint32_t)(i * 8 + w);
        KT_EXPECT(ok);
        KT_EXPECT(PageSlab(virt_to_page(objs[i])));
    }
    for (int i = 0; i < N; i += 2)                  /* free every other one */
        kfree(objs[i]);
    for (int i = 0; i < N; i += 2) {                /* and take them back */
        objs[i] = kzalloc(24, GFP_KERNEL);
        KT_ASSERT(objs[i] != NULL);
        KT_EXPECT(objs[i][0] == 0 && objs[i][5] == 0);
    }
    for (int i = 1; i < N; i += 2)
        KT_EXPECT_EQ(objs[i][3], (uint32_t)(i * 8 + 3));
    for (int i = 0; i < N; i++)
        kfree(objs[i]);
    kmalloc_drain_cpu_caches();
    KT_EXPECT_EQ(nr_free_pages(), start);
}

KTEST(kmalloc, reuse_after_free)
{
    void *a = kmalloc(64, GFP_KERNEL), *b = kmalloc(64, GFP_KERNEL);
    KT_ASSERT(a && b && a != b);
    kfree(a);
    void *c = kmalloc(64, GFP_KERNEL);
    KT_EXPECT(c == a);                                /* LIFO free list */
    kfree(b);
    kfree(c);
    KT_EXPECT(kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR);
    kfree(ZERO_SIZE_PTR);
    kfree(NULL);
    KT_EXPECT_EQ(ksize(NULL), 0);
}

KTEST(kmalloc, large_allocations)
{
    kmalloc_drain_cpu_caches();
    unsigned long start = nr_free_pages();
    char *p = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
    KT_ASSERT(p != NULL);
    KT_EXPECT_EQ((unsigned long)p % PAGE_SIZE, 0);
    KT_EXPECT_EQ(ksize(p), 4 * PAGE_SIZE);
    KT_EXPECT_EQ(nr_free_pages(), start - 4);
    fill(p, 4 * PAGE_SIZE, 9);
    KT_EXPECT(check(p, 4 * PAGE_SIZE, 9));
    kfree(p);
    KT_EXPECT_EQ(nr_free_pages(), start);
    unsigned long oom0 = mm_oom_count;
    KT_EXPECT(kmalloc(64 << 20, GFP_KERNEL) == NULL);  /* > MAX_ORDER: NULL, no panic */
    KT_EXPECT_EQ(mm_oom_count, oom0 + 1);
    char *q = krealloc(NULL, 40, GFP_KERNEL);
    KT_ASSERT(q != NULL);
    fill(q, 40, 3);
    q = krealloc(q, 5000, GFP_KERNEL);
    KT_ASSERT(q != NULL);
    KT_EXPECT(check(q, 40, 3));
    KT_EXPECT_EQ(ksize(q), 2 * PAGE_SIZE);
    kfree(q);
    kmalloc_drain_cpu_caches();                       /* krealloc's 40 bytes */
    KT_EXPECT_EQ(nr_free_pages(), start);
}

/* Two objects of one class on the same slab page, so that freeing one does
 * not hand the page back (tests then look at the freed object).  kmalloc
 * hands out a page's objects in address order, so a and b are on one page
 * unless a was a page's last: then a is kept aside (freed last) and the
 * next one comes from b's page. */
static void *pair_on_one_page(size_t size, void **keep)
{
    void *a = kmalloc(size, GFP_KERNEL), *b = kmalloc(size, GFP_KERNEL);
    if (a && b && virt_to_page(a) != virt_to_page(b)) {
        void *spare = a;
        a = kmalloc(size, GFP_KERNEL);   /* from b's page */
        kfree(spare);
    }
    *keep = b;
    return a;
}

KTEST(kmalloc, double_free_detected)
{
    void *keep, *p = pair_on_one_page(100, &keep);
    KT_ASSERT(p && keep && virt_to_page(p) == virt_to_page(keep));
    unsigned long bad0 = kmalloc_bad_free_count;
    kfree(p);
    kfree(p);                                       /* double free */
    KT_EXPECT_EQ(kmalloc_bad_free_count, bad0 + 1);
    /* The list was not corrupted: p comes back exactly once. */
    void *x = kmalloc(100, GFP_KERNEL), *y = kmalloc(100, GFP_KERNEL);
    KT_EXPECT(x == p);
    KT_EXPECT(y != p && y != keep && y != NULL);
    /* A live object containing the free mark is not a double free. */
    ((unsigned long *)x)[1] = FREE_MARK;
    kfree(x);
    KT_EXPECT_EQ(kmalloc_bad_free_count, bad0 + 1);
    kfree(y);
    kfree(keep);
    /* A large object freed twice: its pages are back in the buddy lists. */
    void *l = kmalloc(8192, GFP_KERNEL);
    KT_ASSERT(l != NULL);
    kfree(l);
    kfree(l);
    KT_EXPECT_EQ(kmalloc_bad_free_count, bad0 + 2);
}

KTEST(kmalloc, bad_pointers_detected)
{
    kmalloc_drain_cpu_caches();
    unsigned long start = nr_free_pages();
    char *p = kmalloc(128, GFP_KERNEL);
    KT_ASSERT(p != NULL);
    unsigned long bad0 = kmalloc_bad_free_count;
    kfree(p + 8);                                   /* inside an object */
    kfree((void *)0x1000);                          /* not a kernel address */
    static int not_kmalloced;
    kfree(&not_kmalloced);                          /* kernel image */
    struct page *pg = alloc_page(GFP_KERNEL);
    KT_ASSERT(pg != NULL);
    kfree(page_address(pg));                        /* a page, not kmalloc's */
    char *l = kmalloc(3 * PAGE_SIZE, GFP_KERNEL);
    KT_ASSERT(l != NULL);
    kfree(l + PAGE_SIZE);                           /* inside a large object */
    KT_EXPECT_EQ(kmalloc_bad_free_count, bad0 + 5);
    KT_EXPECT_EQ(ksize(p + 8), 0);
    KT_EXPECT_EQ(kmalloc_bad_free_count, bad0 + 6);
    /* Nothing was freed by mistake: p, l and pg are still ours. */
    KT_EXPECT(PageSlab(virt_to_page(p)) && PageSlab(virt_to_page(l)) && !PageBuddy(pg));
    kfree(l);
    __free_page(pg);
    kfree(p);
    KT_EXPECT_EQ(kmalloc_bad_free_count, bad0 + 6);
    kmalloc_drain_cpu_caches();
    KT_EXPECT_EQ(nr_free_pages(), start);
}

KTEST(kmalloc, use_after_free_poison)
{
    void *keep;
    unsigned char *p = pair_on_one_page(64, &keep);
    KT_ASSERT(p && keep && virt_to_page(p) == virt_to_page(keep));
    kfree(p);
    KT_EXPECT_EQ(p[20], POISON_FREE);                 /* freed memory is poisoned */
    KT_EXPECT_EQ(p[63], POISON_FREE);
    unsigned long poison0 = kmalloc_poison_count;
    p[20] = 0x55;                                   /* use after free */
    unsigned char *q = kmalloc(64, GFP_KERNEL);
    KT_EXPECT(q == p);
    KT_EXPECT_EQ(kmalloc_poison_count, poison0 + 1);  /* caught on reallocation */
    kfree(q);
    q = kmalloc(64, GFP_KERNEL);                    /* clean again: no report */
    KT_EXPECT_EQ(kmalloc_poison_count, poison0 + 1);
    kfree(q);
    kfree(keep);
}

/* ---- kmalloc per CPU: the arrays in front of the caches' locks ---- */

/* A burst of N allocations and then N frees of one class: each object
 * comes from and goes back to this CPU's array, and cachep->spinlock is
 * taken once a batch (a refill, a flush), plus once for each new slab page
 * (the refill that found no partial page; the page is linked in by the
 * refill that follows), instead of once an object (2N). */
KTEST(kmalloc, cache_lock_taken_once_a_batch)
{
    enum { N = 512 };
    static void *objs[N];
    struct kmem_cache *c = &kmalloc_caches[size_index(64)];
    kmalloc_drain_cpu_caches();
    unsigned long pages0 = c->nr_pages, pages = 0;
    unsigned long acq0 = READ_ONCE(c->spinlock.acquisitions);
    for (int i = 0; i < N; i++) {
        objs[i] = kmalloc(64, GFP_KERNEL);
        KT_ASSERT(objs[i] != NULL);
        pages = max(pages, c->nr_pages - pages0);
    }
    for (int i = 0; i < N; i++)
        kfree(objs[i]);
    unsigned long acq = READ_ONCE(c->spinlock.acquisitions) - acq0;
    unsigned int batch = c->array[smp_processor_id()].batchcount;
    KT_EXPECT(batch >= 8);
    KT_EXPECT(pages >= N / (PAGE_SIZE / 64));
    KT_EXPECT(acq <= 2 * N / batch + 2 * pages + 2);
    KT_EXPECT(acq * 8 <= 2 * N);        /* without the arrays: 2N and more */
    printk(KERN_INFO "kmalloc per cpu: %d kmalloc + %d kfree of 64 bytes, %lu slab pages: "
           "cachep->spinlock taken %lu times (batchcount %u)\n", N, N, pages, acq, batch);
    kmalloc_drain_cpu_caches();
}

/* One step of a test on a given CPU: a kernel thread bound there runs
 * fn(arg) and exits (set_cpus_allowed moves it at once, as the hammer's
 * workers); false if it did not run there. */
struct cpu_step {
    int cpu, ran_on;
    volatile int done;
    void (*fn)(void *arg);
    void *arg;
};

static int cpu_step_fn(void *data)
{
    struct cpu_step *st = data;
    set_cpus_allowed(current, 1ul << st->cpu);
    unsigned long flags = local_irq_save();   /* the step stays on this CPU */
    st->ran_on = smp_processor_id();
    local_irq_restore(flags);
    st->fn(st->arg);
    st->done = 1;
    return 0;
}

static bool on_cpu(int cpu, void (*fn)(void *), void *arg)
{
    struct cpu_step st = { .cpu = cpu, .ran_on = -1, .fn = fn, .arg = arg };
    struct task_struct *t = kthread_run(cpu_step_fn, &st, "kmstep");
    if (IS_ERR(t))
        return false;
    /* Wait asleep, a tick at a time, not in kthread_stop: a thread that
     * leaves this CPU in set_cpus_allowed stays this CPU's current until
     * this CPU switches to another task, and nothing else may run here
     * (seen at -smp 4: kmstep never left, the boot hung). */
    while (!st.done)
        msleep(1);
    kthread_stop(t);
    return st.ran_on == cpu;
}

enum { XCPU_N = 8 };
struct xcpu {
    void *objs[XCPU_N], *again[XCPU_N];
};

static void xcpu_alloc(void *arg)
{
    struct xcpu *t = arg;
    for (int i = 0; i < XCPU_N; i++) {
        t->objs[i] = kmalloc(128, GFP_KERNEL);
        if (t->objs[i])
            fill(t->objs[i], 128, i);
    }
}
static void xcpu_free(void *arg)
{
    struct xcpu *t = arg;
    for (int i = 0; i < XCPU_N; i++)
        kfree(t->objs[i]);
}
static void xcpu_alloc_again(void *arg)
{
    struct xcpu *t = arg;
    for (int i = 0; i < XCPU_N; i++) {
        t->again[i] = kmalloc(128, GFP_KERNEL);
        if (t->again[i])
            fill(t->again[i], 128, 40 + i);
    }
}
static void xcpu_free_again(void *arg)
{
    struct xcpu *t = arg;
    for (int i = 0; i < XCPU_N; i++)
        kfree(t->again[i]);
}

/* Objects taken on one CPU and freed on another go into the second CPU's
 * array and come out of it there (last freed first, poison intact: no
 * report); a double free on the first CPU finds the object in the second
 * one's array; the first drains the second's.  The reports come last and
 * from the test's own CPU: a WARN stops the other CPUs (warn_at,
 * kernel/panic.c).  On one CPU both "CPUs" are CPU 0: the same, without
 * the crossing. */
KTEST(kmalloc, freed_on_one_cpu_allocated_on_another)
{
    static struct xcpu t;
    int a = smp_processor_id(), b = a, cpu;
    for_each_online_cpu(cpu)
        if (cpu != a) {
            b = cpu;
            break;
        }
    struct kmem_cache *c = &kmalloc_caches[size_index(128)];
    unsigned long bad0 = kmalloc_bad_free_count, poison0 = kmalloc_poison_count;
    memset(&t, 0, sizeof t);
    kmalloc_drain_cpu_caches();
    KT_ASSERT(on_cpu(a, xcpu_alloc, &t));
    for (int i = 0; i < XCPU_N; i++)
        KT_ASSERT(t.objs[i] != NULL);
    unsigned int avail_a = c->array[a].avail, avail_b = c->array[b].avail;
    KT_ASSERT(on_cpu(b, xcpu_free, &t));
    if (a != b)
        KT_EXPECT_EQ(c->array[a].avail, avail_a);       /* not into a's */
    KT_EXPECT_EQ(c->array[b].avail, avail_b + XCPU_N);  /* into b's array */
    KT_EXPECT(c->array[b].entry[c->array[b].avail - 1] == t.objs[XCPU_N - 1]);
    KT_ASSERT(on_cpu(b, xcpu_alloc_again, &t));
    for (int i = 0; i < XCPU_N; i++)                      /* last freed first */
        KT_EXPECT(t.again[i] == t.objs[XCPU_N - 1 - i]);
    KT_EXPECT_EQ(kmalloc_poison_count, poison0);          /* intact poison */
    KT_EXPECT_EQ(kmalloc_bad_free_count, bad0);
    KT_ASSERT(on_cpu(b, xcpu_free_again, &t));            /* parked in b's array */
    KT_EXPECT_EQ(c->array[b].avail, avail_b + XCPU_N);
    KT_ASSERT(smp_processor_id() == a);
    kfree(t.objs[5]);                                     /* double free, on a */
    KT_EXPECT_EQ(kmalloc_bad_free_count, bad0 + 1);
    KT_EXPECT_EQ(c->array[b].avail, avail_b + XCPU_N);    /* nothing taken in */
    kmalloc_drain_cpu_caches();                           /* b's array drained from a */
    KT_EXPECT_EQ(c->array[b].avail, 0);
    KT_EXPECT_EQ(c->array[a].avail, 0);
    KT_EXPECT_EQ(kmalloc_poison_count, poison0);
}

/* ---- SMP step 4: kmalloc and the page allocator without the big lock ---- */

/* One cache as its pages tell it, under its lock: pages is every PG_slab
 * frame of mem_map whose private is the cache, objects their objects in
 * use.  false if its books disagree: nr_pages against the pages found, a
 * page's free list against its in-use count, the partial list against the
 * pages with a free object. */
struct cache_census {
    unsigned long pages, objects;
};

static bool cache_census(struct kmem_cache *c, struct cache_census *n)
{
    unsigned long flags, per_page = PAGE_SIZE / c->size, partial = 0, with_free = 0;
    struct page *page;
    bool ok = true;
    n->pages = n->objects = 0;
    spin_lock_irqsave(&c->spinlock, flags);
    list_for_each_entry(page, &c->partial, lru) {
        ok &= PageSlab(page) && page->private == (unsigned long)c && page->freelist;
        if (++partial > max_pfn) {      /* a list that loops: corrupted */
            ok = false;
            break;
        }
    }
    for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
        page = pfn_to_page(pfn);
        if (!PageSlab(page) || page->private != (unsigned long)c)
            continue;
        unsigned long free = 0;
        for (void *f = page->freelist; f && free <= per_page; f = *free_next(f))
            free++;
        ok &= page->index >= 1 && page->index + free == per_page;
        with_free += free > 0;
        n->pages++;
        n->objects += page->index;
    }
    ok &= n->pages == c->nr_pages && partial == with_free;
    spin_unlock_irqrestore(&c->spinlock, flags);
    return ok;
}

/* A worker (ktest_smp_run: bound to one CPU, without the big kernel
 * lock), for a fixed number of rounds, takes or gives back one of its
 * blocks at random: pages of order 0-3 (alloc_pages/__free_pages) or a
 * kmalloc object of a mixed size, small and large (kmalloc/kfree).  Each block is filled with a
 * pattern of its own when taken and checked when given back: a block handed
 * to two workers at once, or one still in use handed out again, shows as a
 * changed pattern. */
enum { HAMMER_SLOTS = 32, HAMMER_ROUNDS = 60000 };
static const size_t hammer_sizes[] = { 8, 24, 60, 128, 250, 500, 1000, 2000, 3000, 6000 };

struct hammer {
    int cpu;                            /* the CPU it is bound to */
    unsigned long blocks, changed, failed;
};

struct hammer_block {
    uint32_t *p;
    size_t words;
    int order;                          /* pages of this order; -1: kmalloc */
    uint32_t tag;
};

static atomic_t hammer_calls;           /* allocator calls finished */
static atomic_t hammer_overlaps;        /* calls during which another one finished */

static int hammer_enter(void) { return atomic_read(&hammer_calls); }

static void hammer_leave(int calls)
{
    if (atomic_inc_return(&hammer_calls) != calls + 1)
        atomic_inc(&hammer_overlaps);
}

/* The pattern is every word of a block under 256 bytes, one word in 64 (a
 * word per 256 bytes, at the same offsets in every page) of a larger one:
 * two blocks that overlap anywhere share pattern words, so a block handed
 * out twice shows, and the rounds' time goes to the allocators, where the
 * races are. */
static size_t hammer_stride(const struct hammer_block *b) { return b->words >= 64 ? 64 : 1; }

static void hammer_take(struct hammer *h, struct hammer_block *b, uint32_t rnd, int round)
{
    b->tag = (uint32_t)h->cpu << 24 ^ (uint32_t)round << 4 ^ rnd;
    int calls = hammer_enter();
    if (rnd & 0x100) {
        b->order = (rnd >> 9) & 3;
        struct page *page = alloc_pages(GFP_KERNEL, b->order);
        b->p = page ? page_address(page) : NULL;
        b->words = (PAGE_SIZE << b->order) / 4;
    } else {
        b->order = -1;
        b->words = hammer_sizes[(rnd >> 9) % ARRAY_SIZE(hammer_sizes)] / 4;
        b->p = kmalloc(b->words * 4, GFP_KERNEL);
    }
    hammer_leave(calls);
    if (!b->p) {
        h->failed++;
        return;
    }
    h->blocks++;
    for (size_t i = 0; i < b->words; i += hammer_stride(b))
        b->p[i] = b->tag ^ (uint32_t)i * 0x9E3779B9u;
}

static void hammer_give_back(struct hammer *h, struct hammer_block *b)
{
    bool intact = true;
    for (size_t i = 0; i < b->words; i += hammer_stride(b))
        intact &= b->p[i] == (b->tag ^ (uint32_t)i * 0x9E3779B9u);
    h->changed += !intact;
    int calls = hammer_enter();
    if (b->order >= 0)
        __free_pages(virt_to_page(b->p), b->order);
    else
        kfree(b->p);
    hammer_leave(calls);
    b->p = NULL;
}

static int hammer_fn(struct ktest_smp_worker *w, void *hammers)
{
    struct hammer *h = (struct hammer *)hammers + w->id;
    struct hammer_block held[HAMMER_SLOTS];
    uint32_t rnd = 0x9E3779B9u * (uint32_t)(w->id + 1);   /* its own sequence */
    memset(held, 0, sizeof held);
    h->cpu = w->cpu;
    for (int round = 0; round < HAMMER_ROUNDS; round++) {
        rnd = rnd * 1664525u + 1013904223u;     /* Numerical Recipes' LCG */
        struct hammer_block *b = &held[(rnd >> 16) % HAMMER_SLOTS];
        if (b->p)
            hammer_give_back(h, b);
        else
            hammer_take(h, b, rnd, round);
        /* A schedule point: on one CPU the other worker's turn, often;
         * alone on a CPU, rarely (the watchdog's). */
        if (round % (w->shares_cpu ? 16 : 512) == 0)
            yield();
    }
    for (int i = 0; i < HAMMER_SLOTS; i++)
        if (held[i].p)
            hammer_give_back(h, &held[i]);
    return 0;
}

/* SMP step 4 (docs/smp.md): a worker per online CPU (two on one CPU), each
 * bound to its CPU and without the big kernel lock, take and give back
 * pages and kmalloc objects at once.  No block is handed out twice (every
 * pattern intact), and afterwards the free page count, NR_SLAB and every
 * cache's pages and objects are back where they were, with the free lists
 * and the caches' books consistent; no report was made.  The log line
 * counts the calls during which another worker's call finished: the
 * workers were in the allocators at once (under -icount, QEMU's turns
 * decide how often; at -smp 2 it ran the two workers one after the other,
 * at -smp 4 they overlap by the thousand). */
KTEST(kmalloc, smp_alloc_free_without_the_big_lock)
{
    static struct hammer h[KTEST_SMP_MAX];
    static struct ktest_smp s;
    struct cache_census before[NR_CACHES], after;
    kmalloc_drain_cpu_caches();         /* the books count parked objects in use */
    for (int i = 0; i < NR_CACHES; i++)
        KT_ASSERT(cache_census(&kmalloc_caches[i], &before[i]));
    KT_ASSERT(free_lists_consistent());
    unsigned long free0 = nr_free_pages(), slab0 = global_page_state(NR_SLAB);
    unsigned long bad_page0 = mm_bad_page_count, bad_free0 = kmalloc_bad_free_count;
    unsigned long acq0 = 0, cont0 = 0, acq = 0, cont = 0;
    for (int i = 0; i < NR_CACHES; i++) {
        acq0 += READ_ONCE(kmalloc_caches[i].spinlock.acquisitions);
        cont0 += READ_ONCE(kmalloc_caches[i].spinlock.contentions);
    }
    unsigned long poison0 = kmalloc_poison_count, oom0 = mm_oom_count;

    atomic_set(&hammer_calls, 0);
    atomic_set(&hammer_overlaps, 0);
    memset(h, 0, sizeof h);
    KT_ASSERT_EQ(ktest_smp_run(&s, "hammer", hammer_fn, h), 0);
    int n = s.nr;

    unsigned long blocks = 0;
    for (int i = 0; i < n; i++) {
        KT_EXPECT_EQ(s.w[i].ret, 0);
        KT_EXPECT(!s.w[i].had_big_lock);
        KT_EXPECT_EQ(s.w[i].ran_on, s.w[i].cpu);
        KT_EXPECT_EQ(h[i].changed, 0);
        KT_EXPECT_EQ(h[i].failed, 0);
        blocks += h[i].blocks;
    }
    KT_EXPECT(blocks >= (unsigned long)n * HAMMER_ROUNDS / 4);
    for (int i = 0; i < NR_CACHES; i++) {
        acq += READ_ONCE(kmalloc_caches[i].spinlock.acquisitions);
        cont += READ_ONCE(kmalloc_caches[i].spinlock.contentions);
    }
    kmalloc_drain_cpu_caches();         /* every worker's CPU's arrays, from here */
    KT_EXPECT_EQ(nr_free_pages(), free0);
    KT_EXPECT_EQ(global_page_state(NR_SLAB), slab0);
    KT_EXPECT(free_lists_consistent());
    for (int i = 0; i < NR_CACHES; i++) {
        KT_EXPECT(cache_census(&kmalloc_caches[i], &after));
        KT_EXPECT_EQ(after.pages, before[i].pages);
        KT_EXPECT_EQ(after.objects, before[i].objects);
    }
    KT_EXPECT_EQ(mm_bad_page_count, bad_page0);
    KT_EXPECT_EQ(kmalloc_bad_free_count, bad_free0);
    KT_EXPECT_EQ(kmalloc_poison_count, poison0);
    KT_EXPECT_EQ(mm_oom_count, oom0);
    printk(KERN_INFO "kmalloc smp test: %d workers on %d CPUs, %lu blocks in %lu ms, %d calls "
           "overlapped another's\n", n, s.ncpus, blocks, s.ms, atomic_read(&hammer_overlaps));
    printk(KERN_INFO "kmalloc smp test: the caches' locks: %lu contentions in %lu acquisitions\n",
           cont - cont0, acq - acq0);
}

/* Objects parked in arrays count as in use in their pages' books, which
 * stay consistent; a drain by reclaim (kmalloc's shrinker, from
 * try_to_free_pages as under memory pressure) gives them back to their
 * pages and the empty pages to the page allocator: every cache's books and
 * NR_SLAB are exactly as before. */
KTEST(kmalloc, drained_arrays_leave_the_books_exact)
{
    enum { N = 300 };
    static void *objs[N];
    static const size_t sizes[] = { 16, 40, 64, 100, 200, 500, 1000, 2000 };
    struct cache_census before[NR_CACHES], now;
    kmalloc_drain_cpu_caches();
    for (int i = 0; i < NR_CACHES; i++)
        KT_ASSERT(cache_census(&kmalloc_caches[i], &before[i]));
    unsigned long slab0 = global_page_state(NR_SLAB);
    for (int i = 0; i < N; i++) {
        objs[i] = kmalloc(sizes[i % ARRAY_SIZE(sizes)], GFP_KERNEL);
        KT_ASSERT(objs[i] != NULL);
    }
    for (int i = 0; i < N; i += 2)                       /* evens, then odds */
        kfree(objs[i]);
    for (int i = 1; i < N; i += 2)
        kfree(objs[i]);
    unsigned long parked = kmalloc_shrink_count(&kmalloc_shrinker), in_use = 0;
    for (int i = 0; i < NR_CACHES; i++) {
        KT_EXPECT(cache_census(&kmalloc_caches[i], &now));   /* consistent, parked in use */
        KT_EXPECT(now.objects >= before[i].objects);
        in_use += now.objects - before[i].objects;
    }
    KT_EXPECT(parked >= ARRAY_SIZE(sizes));              /* some in every class */
    KT_EXPECT_EQ(in_use, parked);                        /* all of them parked */
    KT_EXPECT(global_page_state(NR_SLAB) > slab0);        /* their pages kept */
    unsigned long shrunk0 = vmscan_stats.shrinker_freed;
    try_to_free_pages(GFP_KERNEL, 0);                     /* reclaim: the shrinker */
    KT_EXPECT(vmscan_stats.shrinker_freed - shrunk0 >= parked);
    KT_EXPECT_EQ(kmalloc_shrink_count(&kmalloc_shrinker), 0);
    for (int i = 0; i < NR_CACHES; i++) {
        KT_EXPECT(cache_census(&kmalloc_caches[i], &now));
        KT_EXPECT_EQ(now.pages, before[i].pages);
        KT_EXPECT_EQ(now.objects, before[i].objects);
    }
    KT_EXPECT_EQ(global_page_state(NR_SLAB), slab0);
}
