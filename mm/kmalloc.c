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
 *     the object on its page's free list (a live object may contain the
 *     mark by chance), reported and ignored;
 *   - freed objects are poisoned; kmalloc checks the poison before handing
 *     an object out again and reports writes made after the free.
 * Reports are WARN()s (the line and a backtrace), counted in
 * kmalloc_bad_free_count / kmalloc_poison_count.
 *
 * Locking (SMP step 4, docs/smp.md): kmalloc and kfree run on several CPUs
 * at once without the big kernel lock, and from interrupt handlers.  Each
 * cache has its own spinlock, cachep->spinlock (Linux 2.4's SLAB name: one
 * lock per cache), taken with interrupts off (spin_lock_irqsave); it guards
 * the cache's partial list and nr_pages, and the free list and in-use count
 * (freelist, index) of each of its pages.  It is innermost (the LOCK ORDER
 * comment, mm/filemap.c): the page allocator is called with it let go, so a
 * new slab page is allocated with interrupts as the caller had them (the page
 * allocator may reclaim) and then linked in under the lock, and an empty page
 * is taken off the cache under it and freed after it; only a report prints
 * under it.  A large object is pages of its own and takes no cache lock.
 * The counters (NR_SLAB, the report counts) are changed by locked adds.
 *
 * Reclaim: an empty slab page goes back to the page allocator at once (in
 * kfree), so there are no empty slabs for a shrinker to free; memory comes
 * back to kmalloc's caches when their users free objects (the buffer
 * cache's shrinker, fs/buffer.c).  Frames owned: NR_SLAB (<vmstat.h>).
 */
#include <kernel.h>
#include <string.h>
#include <mm.h>
#include <slab.h>
#include <vmstat.h>
#include <spinlock.h>

#define FREE_MARK   0xF4EEF4EEUL          /* word 1 of a free object */
#define NR_CACHES   8                     /* 16 << 0 .. 16 << 7 = 2048 */

struct kmem_cache {
    const char *name;
    size_t size;                          /* object size (power of two) */
    unsigned int order;                   /* large: pages are 2^order */
    bool large;                           /* whole-page allocation, no objects */
    spinlock_t spinlock;                  /* partial, nr_pages, its pages' freelist and index */
    struct list_head partial;             /* slab pages with free objects */
    unsigned long nr_pages;               /* slab pages owned */
};

static struct kmem_cache kmalloc_caches[NR_CACHES];
static struct kmem_cache large_caches[MAX_ORDER];
unsigned long kmalloc_bad_free_count;
unsigned long kmalloc_poison_count;

static const char *const cache_names[NR_CACHES] = {
    "kmalloc-16", "kmalloc-32", "kmalloc-64", "kmalloc-128",
    "kmalloc-256", "kmalloc-512", "kmalloc-1024", "kmalloc-2048",
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
    }
    for (unsigned int o = 0; o < MAX_ORDER; o++) {
        large_caches[o].name = "kmalloc-large";
        large_caches[o].size = PAGE_SIZE << o;
        large_caches[o].order = o;
        large_caches[o].large = true;
        INIT_LIST_HEAD(&large_caches[o].partial);
    }
}

static void kmalloc_report(const char *what, const void *p, const struct kmem_cache *c)
{
    WARN(1, "kmalloc: %s: %p%s%s", what, p, c ? " in " : "", c ? c->name : "");
}

static inline void **free_next(void *obj) { return (void **)obj; }
static inline unsigned long *free_mark(void *obj) { return (unsigned long *)obj + 1; }

/* Poison and mark obj as free; link it in front of the page's free list. */
static void object_make_free(struct page *page, struct kmem_cache *c, void *obj)
{
    memset(obj, POISON_FREE, c->size);
    *free_next(obj) = page->freelist;
    *free_mark(obj) = FREE_MARK;
    page->freelist = obj;
}

/* A fresh slab page, every object free.  Interrupts are on or off; the
 * cache's lock is not held (the page is nobody else's until it is linked
 * in). */
static struct page *new_slab(struct kmem_cache *c, gfp_t gfp)
{
    struct page *page = alloc_page(gfp & ~__GFP_ZERO);
    if (!page)
        return NULL;
    char *base = page_address(page);
    page->freelist = NULL;
    for (size_t off = PAGE_SIZE; off >= c->size; off -= c->size)   /* obj0 first */
        object_make_free(page, c, base + off - c->size);
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

/* Take the first free object of page; check its poison.  Under
 * c->spinlock. */
static void *slab_take_object(struct page *page, struct kmem_cache *c)
{
    unsigned char *obj = page->freelist;
    void *next = *free_next(obj);
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
    *free_mark(obj) = 0;
    return obj;
}

static int size_index(size_t size)
{
    int i = 0;
    while (((size_t)KMALLOC_MIN_SIZE << i) < size)
        i++;
    return i;
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
    unsigned long flags;
    spin_lock_irqsave(&c->spinlock, flags);
    if (list_empty(&c->partial)) {
        /* The page allocator may reclaim: not under the lock. */
        spin_unlock_irqrestore(&c->spinlock, flags);
        struct page *page = new_slab(c, gfp);
        if (!page)
            return NULL;
        spin_lock_irqsave(&c->spinlock, flags);
        c->nr_pages++;
        list_add(&page->lru, &c->partial);   /* another CPU may have added one too */
    }
    struct page *page = list_first_entry(&c->partial, struct page, lru);
    void *obj = slab_take_object(page, c);
    if (!page->freelist)
        list_del_init(&page->lru);         /* full: off the partial list */
    spin_unlock_irqrestore(&c->spinlock, flags);

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
    unsigned long flags;
    spin_lock_irqsave(&c->spinlock, flags);
    if (*free_mark(obj) == FREE_MARK) {
        for (void *f = page->freelist; f; f = *free_next(f))
            if (f == obj) {
                __atomic_add_fetch(&kmalloc_bad_free_count, 1, __ATOMIC_RELAXED);
                kmalloc_report("double free", p, c);
                spin_unlock_irqrestore(&c->spinlock, flags);
                return;
            }
        /* A live object that merely contains the mark: free it normally. */
    }
    bool was_full = !page->freelist;
    object_make_free(page, c, obj);
    page->index--;
    if (page->index) {
        if (was_full)
            list_add(&page->lru, &c->partial);
        spin_unlock_irqrestore(&c->spinlock, flags);
        return;
    }
    /* Empty: off the cache under its lock, then the frame goes back to the
     * page allocator after it (a real slab keeps a few around). */
    if (!was_full)
        list_del(&page->lru);
    __ClearPageSlab(page);
    page->private = 0;
    page->freelist = NULL;
    c->nr_pages--;
    spin_unlock_irqrestore(&c->spinlock, flags);
    dec_page_state(NR_SLAB);
    __free_pages(page, 0);
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
