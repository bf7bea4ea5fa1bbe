/* mm/kmalloc.c: kmalloc/kfree, the kernel's small-object allocator, on top
 * of the page allocator.  A much simplified SLUB: one "cache" per
 * power-of-two size class, each carving whole pages into equal objects.
 *
 *   kmalloc_caches[0..7]: 16 32 64 128 256 512 1024 2048 bytes
 *
 *   a slab page (PG_slab)                    struct page of that frame
 *   +------+------+------+-- ... --+------+  private  -> its kmem_cache
 *   | obj0 | obj1 | obj2 |         | objN |  index    =  objects in use
 *   +------+------+------+-- ... --+------+  freelist -> first free object
 *       free objects are chained:            lru      on cache->partial
 *       word 0 = next free, word 1 = FREE_MARK, the rest POISON_FREE (0x6b)
 *
 * (index counts an object parked in a CPU's array as in use: below.)
 * Objects sit at multiples of their size inside a page-aligned frame, so
 * each is naturally aligned to its size.  Larger requests (> 2048 bytes) take
 * 2^order whole pages; their first page is PG_slab too, with private ->
 * a "large" descriptor of that order, so kfree/ksize recognise them.
 *
 * Debugging, always on (this is a teaching kernel):
 *   - kfree of a pointer that is not the start of an object kmalloc handed
 *     out (not a direct-map address, not a kmalloc page, not at an object
 *     boundary) is reported and ignored;
 *   - a double free is recognised by FREE_MARK in word 1, confirmed by finding
 *     the object free, on its page's free list or in a CPU's array (a live
 *     object may contain the mark by chance), reported and ignored;
 *   - freed objects are poisoned; kmalloc checks the poison before handing
 *     an object out again and reports writes made after the free.
 * Reports are WARN()s (the line and a backtrace), counted in
 * kmalloc_bad_free_count / kmalloc_poison_count.
 *
 * Per-CPU arrays (Linux 2.6.24 SLAB's struct array_cache; docs/smp.md,
 * "kmalloc per CPU"): in front of each cache, every CPU has an array of
 * free object pointers, cachep->array[cpu].  kmalloc pops the last one
 * (the hottest) and kfree pushes the object there, under that CPU's
 * ac->lock only; only an empty array takes the cache's lock, to move
 * ac->batchcount objects off the slab pages at once (cache_alloc_refill),
 * and only a full one (ac->limit) gives its ac->batchcount oldest back to
 * their pages (cache_flusharray).  An object in an array is free but still
 * counted in its page's in-use count (index), as in Linux: the pages'
 * books say "in use by the cache"; drain_cpu_caches gives every array's
 * objects back to their pages, so that empty pages go back to the page
 * allocator (the shrinker below, and tests before they count pages).
 *
 *   on a page's free list   word 0 = next free, word 1 = FREE_MARK, poison
 *   in a per-CPU array      word 0 = poison,    word 1 = FREE_MARK, poison
 *   handed out              word 1 = 0 (cleared by kmalloc)
 *
 * So the debugging above sees arrays and pages alike: kfree poisons and
 * marks an object before it goes into an array, kmalloc checks the poison
 * of every object it hands out (from an array or a page), and a double
 * free is confirmed by finding the object on its page's free list or in
 * any CPU's array (object_is_free).  (One loss against the one-lock cache:
 * there the check and the free were one step under cachep->spinlock, so
 * two CPUs freeing one object at the same moment were caught too; now the
 * second may look before the first has parked the object, and both free
 * it.  A double free one after the other is caught as before.)
 *
 * Locking (SMP step 4, docs/smp.md): kmalloc and kfree run on several CPUs
 * at once without the big kernel lock, and from interrupt handlers.  Each
 * per-CPU array has a lock, ac->lock (as pcp->lock in front of zone->lock,
 * mm/page_alloc.c): its own CPU takes it, uncontended, with interrupts
 * off; another CPU takes it only to drain the array or to look for a
 * double free in it, never two at once.  Each cache has its own spinlock,
 * cachep->spinlock (Linux 2.4's SLAB name: one lock per cache), taken under
 * ac->lock or alone, with interrupts off; it guards the cache's partial
 * list, nr_pages and transfers, and the free list and in-use count
 * (freelist, index) of each of its pages.  Both are leaves (the LOCK ORDER
 * comment, mm/filemap.c: ac->lock, then cachep->spinlock): the page
 * allocator is called with both let go, so a new slab page is allocated
 * with interrupts as the caller had them (the page allocator may reclaim,
 * and reclaim drains the arrays) and then linked in under the locks, and
 * an empty page is taken off the cache under them and freed after them;
 * only a report prints under cachep->spinlock.  A large object is pages of
 * its own and takes no lock here.  The counters (NR_SLAB, the report
 * counts) are changed by locked adds.
 *
 * Reclaim: an empty slab page goes back to the page allocator as soon as
 * its last object reaches it (a flush of an array, a drain), so there are
 * no empty slabs to free; what reclaim can get back is the objects parked
 * in the arrays: kmalloc's shrinker (kmalloc_shrinker, mm/vmscan.c's
 * shrink_slab) drains every array, as drain_all_pages drains the pcp
 * lists, and the pages those objects kept go back.  The rest comes back
 * when the caches' users free objects (the buffer cache's shrinker,
 * fs/buffer.c).  Frames owned: NR_SLAB (<vmstat.h>).
 */
#include <kernel.h>
#include <string.h>
#include <mm.h>
#include <slab.h>
#include <vmstat.h>
#include <spinlock.h>
#include <smp.h>
#include <swap.h>

#define FREE_MARK   0xF4EEF4EEUL          /* word 1 of a free object */
#define NR_CACHES   8                     /* 16 << 0 .. 16 << 7 = 2048 */
#define AC_LIMIT_MAX 32                   /* the largest ac->limit */

/* One CPU's free objects of one cache (Linux 2.6.24's struct array_cache).
 * entry[0..avail) are free objects, entry[avail - 1] the last freed (the
 * hottest).  The array is a member of the cache indexed by CPU, not a
 * DEFINE_PER_CPU variable, for pcp_pages' reason (mm/page_alloc.c): an
 * AP's per-CPU area starts as a copy of the boot CPU's, and another CPU
 * must reach it to drain it; each has a cache line of its own. */
struct array_cache {
    spinlock_t lock;                      /* its CPU's, or a drain's */
    unsigned int avail;                   /* objects in entry[] */
    unsigned int limit;                   /* full: give batchcount back */
    unsigned int batchcount;              /* objects moved to or from the slabs at once */
    void *entry[AC_LIMIT_MAX];
} __attribute__((aligned(64)));

struct kmem_cache {
    const char *name;
    size_t size;                          /* object size (power of two) */
    unsigned int order;                   /* large: pages are 2^order */
    bool large;                           /* whole-page allocation, no objects */
    spinlock_t spinlock;                  /* partial, nr_pages, transfers, its pages' freelist and index */
    struct list_head partial;             /* slab pages with free objects */
    unsigned long nr_pages;               /* slab pages owned */
    unsigned long transfers;              /* batches moved between pages and arrays */
    struct array_cache array[NR_CPUS];    /* GDB: p kmalloc_caches[2].array[1] */
};

static struct kmem_cache kmalloc_caches[NR_CACHES];
static struct kmem_cache large_caches[MAX_ORDER];
unsigned long kmalloc_bad_free_count;
unsigned long kmalloc_poison_count;

static const char *const cache_names[NR_CACHES] = {
    "kmalloc-16", "kmalloc-32", "kmalloc-64", "kmalloc-128",
    "kmalloc-256", "kmalloc-512", "kmalloc-1024", "kmalloc-2048",
};

/* An array's limit by object size: Linux 2.6.24's enable_cpucache gives
 * 120 objects up to 256 bytes, 54 up to 1024, 24 above (batchcount half
 * the limit); Vellum's memory is small and so are its arrays: 32, 16 and
 * 8, at most 16 KiB parked per cache and CPU. */
static unsigned int ac_limit(size_t size)
{
    return size <= 256 ? 32 : size <= 1024 ? 16 : 8;
}

static unsigned long kmalloc_shrink_count(struct shrinker *s);
static unsigned long kmalloc_shrink_scan(struct shrinker *s, unsigned long nr, gfp_t gfp);
static struct shrinker kmalloc_shrinker = {
    .count = kmalloc_shrink_count, .scan = kmalloc_shrink_scan,
};

void kmalloc_init(void)
{
    for (int i = 0; i < NR_CACHES; i++) {
        struct kmem_cache *cachep = &kmalloc_caches[i];
        cachep->name = cache_names[i];
        cachep->size = KMALLOC_MIN_SIZE << i;
        spin_lock_init(&cachep->spinlock);   /* one validator class, "&cachep->spinlock" */
        lock_stat_register(&cachep->spinlock, cachep->name);   /* /proc/lock_stat */
        INIT_LIST_HEAD(&cachep->partial);
        for (int cpu = 0; cpu < NR_CPUS; cpu++) {
            struct array_cache *ac = &cachep->array[cpu];
            spin_lock_init(&ac->lock);       /* one class, "&ac->lock": never two at once */
            ac->avail = 0;
            ac->limit = ac_limit(cachep->size);
            ac->batchcount = ac->limit / 2;
        }
    }
    for (unsigned int o = 0; o < MAX_ORDER; o++) {
        large_caches[o].name = "kmalloc-large";
        large_caches[o].size = PAGE_SIZE << o;
        large_caches[o].order = o;
        large_caches[o].large = true;
        INIT_LIST_HEAD(&large_caches[o].partial);
    }
    /* First on the list (kmalloc_init runs before every other init): a
     * reclaim pass drains what the previous pass's shrinkers freed. */
    register_shrinker(&kmalloc_shrinker);
}

static void kmalloc_report(const char *what, const void *p, const struct kmem_cache *c)
{
    WARN(1, "kmalloc: %s: %p%s%s", what, p, c ? " in " : "", c ? c->name : "");
}

static inline void **free_next(void *obj) { return (void **)obj; }
static inline unsigned long *free_mark(void *obj) { return (unsigned long *)obj + 1; }

/* Poison and mark obj as free (word 0 poison too: an array's object). */
static void object_poison(struct kmem_cache *c, void *obj)
{
    memset(obj, POISON_FREE, c->size);
    *free_mark(obj) = FREE_MARK;
}

/* Link a free (poisoned, marked) obj in front of its page's free list. */
static void object_link(struct page *page, void *obj)
{
    *free_next(obj) = page->freelist;
    page->freelist = obj;
}

/* A fresh slab page, every object free.  Interrupts are on or off; no lock
 * of the cache is held (the page is nobody else's until it is linked
 * in). */
static struct page *new_slab(struct kmem_cache *c, gfp_t gfp)
{
    struct page *page = alloc_page(gfp & ~__GFP_ZERO);
    if (!page)
        return NULL;
    char *base = page_address(page);
    page->freelist = NULL;
    for (size_t off = PAGE_SIZE; off >= c->size; off -= c->size) {   /* obj0 first */
        object_poison(c, base + off - c->size);
        object_link(page, base + off - c->size);
    }
    page->private = (unsigned long)c;
    page->index = 0;
    __SetPageSlab(page);
    inc_page_state(NR_SLAB);
    return page;
}

/* Is next a valid free-list link inside page (NULL or an object boundary)? */
static bool link_ok(struct page *page, struct kmem_cache *c, void *next)
{
    char *base = page_address(page);
    return !next || ((char *)next >= base && (char *)next < base + PAGE_SIZE &&
                     ((char *)next - base) % c->size == 0);
}

/* Take the first free object of page, counted in use from now on (it goes
 * into an array); its poison is checked when kmalloc hands it out.  Under
 * c->spinlock. */
static void *slab_take_object(struct page *page, struct kmem_cache *c)
{
    void *obj = page->freelist;
    void *next = *free_next(obj);
    if (!link_ok(page, c, next)) {
        /* The free pointer itself was overwritten: drop the rest of this
         * page's free list (leaking it) rather than follow it. */
        __atomic_add_fetch(&kmalloc_poison_count, 1, __ATOMIC_RELAXED);
        kmalloc_report("free list corrupted (use after free?)", obj, c);
        next = NULL;
        page->index = PAGE_SIZE / c->size - 1;   /* treat the page as full */
    }
    page->freelist = next;
    page->index++;
    return obj;
}

/* An object about to be handed out: it must still be as kfree left it,
 * marked and poisoned (word 0 is the free-list link of a page's object, so
 * not checked).  Any lock or none: the object is the caller's. */
static void object_check_free(struct kmem_cache *c, void *obj)
{
    bool bad = *free_mark(obj) != FREE_MARK;
    /* The poison is checked a word at a time (object sizes are powers of
     * two, at least KMALLOC_MIN_SIZE): any byte written after the free
     * changes its word.  (Byte by byte, this loop was most of the cost of
     * a new page's buffer heads.) */
    const uint32_t *w = (const uint32_t *)obj;
    const uint32_t poison = POISON_FREE * 0x01010101U;
    for (size_t k = 2 * sizeof(void *) / 4; k < c->size / 4 && !bad; k++)
        bad = w[k] != poison;
    if (bad) {
        __atomic_add_fetch(&kmalloc_poison_count, 1, __ATOMIC_RELAXED);
        kmalloc_report("use after free: freed object was written to", obj, c);
    }
    *free_mark(obj) = 0;
}

/* Move up to ac->batchcount objects from the partial pages into ac (Linux's
 * cache_alloc_refill, without its cache_grow: the caller grows, and passes
 * the new slab page, if any, to be linked in first in the same hold of the
 * lock).  Under ac->lock, interrupts off.  The objects go in so that the
 * lowest address of a page comes out first (a page's free list order). */
static void cache_alloc_refill(struct kmem_cache *c, struct array_cache *ac,
                               struct page *grown)
{
    unsigned int n = 0, want = min(ac->batchcount, ac->limit - ac->avail);
    spin_lock(&c->spinlock);
    if (grown) {
        c->nr_pages++;
        list_add(&grown->lru, &c->partial);   /* another CPU may have added one too */
    }
    while (n < want && !list_empty(&c->partial)) {
        struct page *page = list_first_entry(&c->partial, struct page, lru);
        while (n < want && page->freelist)
            ac->entry[ac->avail + want - 1 - n++] = slab_take_object(page, c);
        if (!page->freelist)
            list_del_init(&page->lru);     /* full: off the partial list */
    }
    c->transfers++;
    spin_unlock(&c->spinlock);
    if (n < want)                          /* close the gap: entries at the top */
        memmove(&ac->entry[ac->avail], &ac->entry[ac->avail + want - n], n * sizeof(void *));
    ac->avail += n;
}

/* Give the count oldest objects of ac back to their pages (Linux's
 * free_block, the heart of cache_flusharray and drain_array).  Under
 * ac->lock, interrupts off; takes c->spinlock.  Pages left empty leave the
 * cache and are put on *empty, for the caller to free after the locks. */
static void free_block(struct kmem_cache *c, struct array_cache *ac, unsigned int count,
                       struct list_head *empty)
{
    spin_lock(&c->spinlock);
    for (unsigned int i = 0; i < count; i++) {
        void *obj = ac->entry[i];
        struct page *page = virt_to_page(obj);
        bool was_full = !page->freelist;
        object_link(page, obj);
        if (--page->index) {
            if (was_full)
                list_add(&page->lru, &c->partial);
            continue;
        }
        /* Empty: off the cache (a real slab keeps a few around). */
        if (!was_full)
            list_del(&page->lru);
        __ClearPageSlab(page);
        page->private = 0;
        page->freelist = NULL;
        c->nr_pages--;
        list_add(&page->lru, empty);
    }
    c->transfers++;
    spin_unlock(&c->spinlock);
    ac->avail -= count;
    memmove(&ac->entry[0], &ac->entry[count], ac->avail * sizeof(void *));
}

/* Pages free_block emptied go back to the page allocator; no lock held. */
static void free_empty_slabs(struct list_head *empty)
{
    while (!list_empty(empty)) {
        struct page *page = list_first_entry(empty, struct page, lru);
        list_del(&page->lru);
        dec_page_state(NR_SLAB);
        __free_pages(page, 0);
    }
}

/* Every CPU's array of c back to the slab pages (Linux's drain_cpu_caches,
 * which runs do_drain on each CPU by IPI; here each array under its own
 * lock from this CPU, as drain_all_pages does).  Returns the objects moved.
 * Any context. */
static unsigned long drain_cpu_caches(struct kmem_cache *c)
{
    unsigned long n = 0;
    LIST_HEAD(empty);
    for (int cpu = 0; cpu < NR_CPUS; cpu++) {
        struct array_cache *ac = &c->array[cpu];
        unsigned long flags;
        spin_lock_irqsave(&ac->lock, flags);
        n += ac->avail;
        if (ac->avail)
            free_block(c, ac, ac->avail, &empty);
        spin_unlock_irqrestore(&ac->lock, flags);
    }
    free_empty_slabs(&empty);
    return n;
}

/* Every cache's arrays (the shrinker, tests before they count pages). */
unsigned long kmalloc_drain_cpu_caches(void)
{
    unsigned long n = 0;
    for (int i = 0; i < NR_CACHES; i++)
        n += drain_cpu_caches(&kmalloc_caches[i]);
    return n;
}

/* kmalloc's shrinker: count() is the objects parked in arrays (a snapshot
 * without the locks), scan() drains them all (they are few). */
static unsigned long kmalloc_shrink_count(struct shrinker *s)
{
    (void)s;
    unsigned long n = 0;
    for (int i = 0; i < NR_CACHES; i++)
        for (int cpu = 0; cpu < NR_CPUS; cpu++)
            n += READ_ONCE(kmalloc_caches[i].array[cpu].avail);
    return n;
}

static unsigned long kmalloc_shrink_scan(struct shrinker *s, unsigned long nr, gfp_t gfp)
{
    (void)s, (void)nr, (void)gfp;
    return kmalloc_drain_cpu_caches();
}

static int size_index(size_t size)
{
    int i = 0;
    while (((size_t)KMALLOC_MIN_SIZE << i) < size)
        i++;
    return i;
}

/* This CPU's array had no object and the cache no partial page: a new slab
 * page, allocated with no lock held (the page allocator may reclaim, which
 * drains the arrays), linked in, and a batch from it into this CPU's array
 * (Linux's cache_grow and its retry, in one hold of the locks).  Returns
 * an object; NULL with *nomem false if other CPUs took the batch first. */
static void *cache_grow(struct kmem_cache *c, gfp_t gfp, bool *nomem)
{
    struct page *page = new_slab(c, gfp);
    *nomem = !page;
    if (!page)
        return NULL;
    unsigned long flags = local_irq_save();
    struct array_cache *ac = &c->array[smp_processor_id()];   /* may be another CPU now */
    spin_lock(&ac->lock);
    cache_alloc_refill(c, ac, page);     /* links page in, whatever ac holds */
    void *obj = ac->avail ? ac->entry[--ac->avail] : NULL;
    spin_unlock(&ac->lock);
    local_irq_restore(flags);
    return obj;
}

void *kmalloc(size_t size, gfp_t gfp)
{
    if (!size)
        return ZERO_SIZE_PTR;
    if (size > KMALLOC_MAX_CACHE_SIZE) {
        unsigned int order = 0;
        while (((size_t)PAGE_SIZE << order) < size && order < MAX_ORDER)
            order++;
        struct page *page = alloc_pages(gfp, order);     /* reports failure */
        if (!page)
            return NULL;
        page->private = (unsigned long)&large_caches[order];
        __SetPageSlab(page);
        mod_page_state(NR_SLAB, 1L << order);
        return page_address(page);
    }

    struct kmem_cache *c = &kmalloc_caches[size_index(size)];
    void *obj;
    do {
        unsigned long flags = local_irq_save();
        struct array_cache *ac = &c->array[smp_processor_id()];
        spin_lock(&ac->lock);
        if (!ac->avail)
            cache_alloc_refill(c, ac, NULL);
        obj = ac->avail ? ac->entry[--ac->avail] : NULL;
        spin_unlock(&ac->lock);
        local_irq_restore(flags);
        if (!obj) {
            /* The page allocator may reclaim: not under the locks.  Rarely
             * (other CPUs took the new page's objects first) round again. */
            bool nomem;
            obj = cache_grow(c, gfp, &nomem);
            if (nomem)
                return NULL;
        }
    } while (!obj);

    object_check_free(c, obj);
    if (gfp & __GFP_ZERO)
        memset(obj, 0, c->size);
    return obj;
}

/* The cache of p if p is the start of a live-or-free kmalloc object; else
 * report and return NULL. */
static struct kmem_cache *object_cache(const void *p, struct page **pagep)
{
    if (!virt_addr_valid(p)) {
        kmalloc_report("kfree of a pointer outside the direct map", p, NULL);
        return NULL;
    }
    struct page *page = virt_to_page(p);
    if (!PageSlab(page)) {
        kmalloc_report(PageBuddy(page) ? "kfree of freed memory (double free of a large object?)"
                                       : "kfree of a pointer kmalloc never returned", p, NULL);
        return NULL;
    }
    struct kmem_cache *c = (struct kmem_cache *)page->private;
    unsigned long off = (unsigned long)p - (unsigned long)page_address(page);
    if ((c->large && off) || (!c->large && off % c->size)) {
        kmalloc_report("kfree of a pointer inside an object", p, c);
        return NULL;
    }
    *pagep = page;
    return c;
}

/* Is obj (which carries FREE_MARK) free: on its page's free list or in some
 * CPU's array?  Each looked at under its own lock, one at a time; objects
 * move between pages and arrays only in batches counted by c->transfers,
 * so if none moved meanwhile the answer is exact, else look again.  No lock
 * held on entry. */
static bool object_is_free(struct kmem_cache *c, struct page *page, void *obj)
{
    for (;;) {
        unsigned long flags, transfers;
        bool found = false;
        spin_lock_irqsave(&c->spinlock, flags);
        transfers = c->transfers;
        for (void *f = page->freelist; f && !found; f = *free_next(f))
            found = f == obj;
        spin_unlock_irqrestore(&c->spinlock, flags);
        for (int cpu = 0; cpu < NR_CPUS && !found; cpu++) {
            struct array_cache *ac = &c->array[cpu];
            spin_lock_irqsave(&ac->lock, flags);
            for (unsigned int i = 0; i < ac->avail && !found; i++)
                found = ac->entry[i] == obj;
            spin_unlock_irqrestore(&ac->lock, flags);
        }
        if (found || READ_ONCE(c->transfers) == transfers)
            return found;
    }
}

void kfree(const void *p)
{
    if (ZERO_OR_NULL_PTR(p))
        return;
    /* The page's cache is read without its lock: a live object keeps its
     * page a slab page of that cache until this very free. */
    struct page *page;
    struct kmem_cache *c = object_cache(p, &page);
    if (!c) {
        __atomic_add_fetch(&kmalloc_bad_free_count, 1, __ATOMIC_RELAXED);
        return;
    }
    if (c->large) {
        __ClearPageSlab(page);
        page->private = 0;
        mod_page_state(NR_SLAB, -(1L << c->order));
        __free_pages(page, c->order);
        return;
    }
    void *obj = (void *)p;
    /* A live object that merely contains the mark is freed normally. */
    if (*free_mark(obj) == FREE_MARK && object_is_free(c, page, obj)) {
        __atomic_add_fetch(&kmalloc_bad_free_count, 1, __ATOMIC_RELAXED);
        kmalloc_report("double free", p, c);
        return;
    }
    object_poison(c, obj);                 /* still ours: no lock */
    LIST_HEAD(empty);
    unsigned long flags = local_irq_save();
    struct array_cache *ac = &c->array[smp_processor_id()];
    spin_lock(&ac->lock);
    if (ac->avail == ac->limit)            /* full: the oldest back to their pages */
        free_block(c, ac, ac->batchcount, &empty);   /* Linux's cache_flusharray */
    ac->entry[ac->avail++] = obj;
    spin_unlock(&ac->lock);
    local_irq_restore(flags);
    free_empty_slabs(&empty);              /* after the locks */
}

size_t ksize(const void *p)
{
    if (ZERO_OR_NULL_PTR(p))
        return 0;
    struct page *page;
    struct kmem_cache *c = object_cache(p, &page);   /* reads only, as kfree's */
    if (!c) {
        __atomic_add_fetch(&kmalloc_bad_free_count, 1, __ATOMIC_RELAXED);
        return 0;
    }
    return c->size;
}

void *krealloc(const void *p, size_t size, gfp_t gfp)
{
    if (!size) {
        kfree(p);
        return ZERO_SIZE_PTR;
    }
    size_t old = ksize(p);
    if (old >= size)
        return (void *)p;
    void *n = kmalloc(size, gfp);
    if (n && old)
        memcpy(n, p, old);
    if (n)
        kfree(p);
    return n;
}
