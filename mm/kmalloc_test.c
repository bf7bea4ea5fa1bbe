/* mm/kmalloc_test.c: the ktests of kmalloc.c (test=kmalloc); built into the
 * test kernel only (make check), never into the production kernel. The tests
 * reach kmalloc.c's static functions and data, so this file includes it: in
 * the test kernel the two are one object (Makefile). */
#include "kmalloc.c"
#include <ktest.h>


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
    KT_EXPECT_EQ(nr_free_pages(), start);             /* empty slabs go back */
}

KTEST(kmalloc, many_small_objects)
{
    enum { N = 2000 };
    static uint32_t *objs[N];
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
    KT_EXPECT_EQ(nr_free_pages(), start);
}

/* Two objects of one class on the same slab page, so that freeing one does
 * not hand the page back (tests then look at the freed object). */
static void *pair_on_one_page(size_t size, void **keep)
{
    void *a = kmalloc(size, GFP_KERNEL), *b = kmalloc(size, GFP_KERNEL);
    if (a && b && virt_to_page(a) != virt_to_page(b)) {
        kfree(a);                        /* a was a page's last object */
        a = kmalloc(size, GFP_KERNEL);   /* comes from b's page now */
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
