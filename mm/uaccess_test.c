/* mm/uaccess_test.c: kernel tests of user access (test=uaccess) and of
 * address spaces (test=vma: mmap, munmap, mprotect, mremap, fork).  Layer:
 * tests of mm/.
 *
 * No process is needed: a test builds an mm_struct, makes it the current
 * task's address space with use_mm() (CR3 switches to its directory), maps
 * anonymous memory with do_mmap() and then touches it exactly as a system
 * call would, through copy_from_user() and friends.  Faults taken inside
 * those copies are real #PF exceptions handled by do_page_fault().
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <mm.h>
#include <asm/mman.h>
#include <sched.h>
#include <ktest.h>
#include <asm/pgtable.h>
#include <asm/uaccess.h>
#include <asm/traps.h>

#define UA  0x10000000UL                 /* where the tests map user memory */

static struct mm_struct *saved_mm;

static struct mm_struct *test_mm(void)
{
    struct mm_struct *mm = mm_alloc();
    if (mm)
        saved_mm = use_mm(mm);
    return mm;
}

static void test_mm_done(struct mm_struct *mm)
{
    use_mm(saved_mm);
    mmput(mm);
}

static long map_anon(struct mm_struct *mm, unsigned long addr, unsigned long len,
                     unsigned long prot)
{
    return do_mmap(mm, NULL, addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0);
}

static pte_t pte_of(struct mm_struct *mm, unsigned long va)
{
    pte_t *p = lookup_pte((pgd_t *)mm->pgd, va);
    return p ? *p : 0;
}

/* ---- access_ok ----------------------------------------------------------- */

KTEST(uaccess, access_ok_edges)
{
    KT_EXPECT(access_ok((void *)0, 0));
    KT_EXPECT(access_ok((void *)0, 1));
    KT_EXPECT(access_ok((void *)(TASK_SIZE - 1), 1));
    KT_EXPECT(access_ok((void *)(TASK_SIZE - 4096), 4096));
    KT_EXPECT(access_ok((void *)TASK_SIZE, 0));             /* empty range at the edge */
    KT_EXPECT(!access_ok((void *)(TASK_SIZE - 1), 2));      /* reaches TASK_SIZE */
    KT_EXPECT(!access_ok((void *)TASK_SIZE, 1));
    KT_EXPECT(!access_ok((void *)0xC0100000, 4));           /* kernel text */
    KT_EXPECT(!access_ok((void *)0xFFFFFFF0, 0x20));        /* wraps */
    KT_EXPECT(!access_ok((void *)0x1000, 0xFFFFFFFF));      /* wraps */
    KT_EXPECT(!access_ok((void *)0, TASK_SIZE + 1));
    KT_EXPECT(access_ok((void *)0, TASK_SIZE));
}

/* ---- THE test: the atomic copy stops at exactly the right byte ------------ */

KTEST(uaccess, atomic_copy_stops_at_unmapped_boundary)
{
    static uint8_t dst[512];
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(map_anon(mm, UA, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    /* Touch the first page only: the second stays never-faulted. */
    uint8_t pattern[PAGE_SIZE / 16];
    for (unsigned k = 0; k < sizeof pattern; k++)
        pattern[k] = (uint8_t)(k * 7 + 1);
    for (unsigned off = 0; off < PAGE_SIZE; off += sizeof pattern)
        KT_ASSERT_EQ(copy_to_user((void *)(UA + off), pattern, sizeof pattern), 0);
    KT_ASSERT_EQ(mm->rss, 1);
    KT_ASSERT(!pte_has_page(pte_of(mm, UA + PAGE_SIZE)));

    /* Every misalignment: start k bytes (1..300) before the boundary. */
    for (unsigned k = 1; k <= 300; k += (k < 9 ? 1 : 97)) {
        unsigned long src = UA + PAGE_SIZE - k;
        memset(dst, 0xEE, sizeof dst);
        unsigned long fix0 = page_fault_atomic_fixups, dz0 = page_fault_demand_zero;
        pagefault_disable();
        unsigned long left = __copy_from_user_inatomic(dst, (void *)src, 400);
        pagefault_enable();
        KT_EXPECT_EQ(left, 400 - k);                      /* copied exactly k bytes */
        /* Fixed up at once.  When the faulting dword straddles the
         * boundary (k % 4 != 0) two faults: the dword body's, then the
         * byte-by-byte retry's that finds the exact byte; else one
         * (copy_user.S, DWORD_FAULT_FIXUP). */
        KT_EXPECT_EQ(page_fault_atomic_fixups, fix0 + (k % 4 ? 2 : 1));
        KT_EXPECT_EQ(page_fault_demand_zero, dz0);        /* nothing was resolved */
        KT_EXPECT_EQ(mm->rss, 1);
        bool ok = true;
        for (unsigned j = 0; j < k; j++)
            ok &= dst[j] == pattern[(PAGE_SIZE - k + j) % sizeof pattern];
        for (unsigned j = k; j < sizeof dst; j++)
            ok &= dst[j] == 0xEE;                       /* the tail is NOT touched */
        KT_EXPECT(ok);
    }
    KT_EXPECT(!pte_has_page(pte_of(mm, UA + PAGE_SIZE)));

    /* Faults enabled: the same copy resolves the fault (demand zero) and
     * copies everything. */
    memset(dst, 0xEE, sizeof dst);
    unsigned long dz0 = page_fault_demand_zero;
    KT_EXPECT_EQ(copy_from_user(dst, (void *)(UA + PAGE_SIZE - 100), 400), 0);
    KT_EXPECT_EQ(page_fault_demand_zero, dz0 + 1);
    KT_EXPECT_EQ(mm->rss, 2);
    KT_EXPECT(pte_present(pte_of(mm, UA + PAGE_SIZE)));
    bool ok = true;
    for (unsigned j = 0; j < 100; j++)
        ok &= dst[j] == pattern[(PAGE_SIZE - 100 + j) % sizeof pattern];
    for (unsigned j = 100; j < 400; j++)
        ok &= dst[j] == 0;                               /* demand-zero page */
    KT_EXPECT(ok);
    /* And now the atomic copy succeeds in full. */
    pagefault_disable();
    KT_EXPECT_EQ(__copy_from_user_inatomic(dst, (void *)(UA + PAGE_SIZE - 100), 400), 0);
    pagefault_enable();
    KT_EXPECT_EQ(current->pagefault_disabled, 0);
    test_mm_done(mm);
}

/* A destination fault in the middle of a dword of the `rep movsl` body:
 * the bytes before the boundary are written, the count is exact, and the
 * bytes past the boundary are not written. */
KTEST(uaccess, copy_to_user_fault_mid_dword_is_exact)
{
    static const uint8_t src[16] __attribute__((aligned(4))) =
        { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(map_anon(mm, UA, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    KT_ASSERT_EQ(clear_user((void *)UA, PAGE_SIZE), 0);      /* page 2 never touched */
    for (unsigned k = 1; k <= 7; k++) {                      /* k bytes before the boundary */
        unsigned long dst = UA + PAGE_SIZE - k;
        KT_ASSERT_EQ(clear_user((void *)(UA + PAGE_SIZE - 8), 8), 0);
        pagefault_disable();
        unsigned long left = __copy_user((void *)dst, src, sizeof src);
        pagefault_enable();
        KT_EXPECT_EQ(left, sizeof src - k);
        bool ok = true;
        for (unsigned j = 0; j < k; j++) {
            uint8_t b = 0;
            ok &= get_user(b, (uint8_t *)(dst + j)) == 0 && b == src[j];
        }
        KT_EXPECT(ok);
        KT_EXPECT(!pte_has_page(pte_of(mm, UA + PAGE_SIZE)));
    }
    test_mm_done(mm);
}

KTEST(uaccess, copy_from_user_unmapped_second_page_zero_fills)
{
    static uint8_t dst[256];
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(map_anon(mm, UA, PAGE_SIZE, PROT_READ | PROT_WRITE), UA);  /* page 2: no VMA */
    KT_ASSERT_EQ(clear_user((void *)UA, PAGE_SIZE), 0);
    KT_ASSERT_EQ(put_user((uint8_t)0x42, (uint8_t *)(UA + PAGE_SIZE - 1)), 0);
    memset(dst, 0xEE, sizeof dst);
    unsigned long fix0 = page_fault_fixups;
    KT_EXPECT_EQ(copy_from_user(dst, (void *)(UA + PAGE_SIZE - 3), 200), 197);
    KT_EXPECT_EQ(page_fault_fixups, fix0 + 2);      /* dword body, then the byte retry */
    KT_EXPECT_EQ(dst[0], 0);
    KT_EXPECT_EQ(dst[2], 0x42);
    bool zero = true;
    for (unsigned j = 3; j < 200; j++)
        zero &= dst[j] == 0;                            /* copy_from_user zero-fills */
    KT_EXPECT(zero);
    KT_EXPECT_EQ(dst[200], 0xEE);
    /* fault_in_readable reports the bytes from the failing page on. */
    KT_EXPECT_EQ(fault_in_readable((void *)(UA + PAGE_SIZE - 3), 200), 197);
    KT_EXPECT_EQ(fault_in_readable((void *)(UA + 5), 100), 0);
    KT_EXPECT_EQ(fault_in_readable((void *)(UA + 2 * PAGE_SIZE), 10), 10);
    KT_EXPECT_EQ(fault_in_readable((void *)(TASK_SIZE - 4), 10), 10);
    test_mm_done(mm);
}

KTEST(uaccess, bad_addresses_give_efault)
{
    static char kbuf[64] = "kernel secret";
    char tmp[64];
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(map_anon(mm, UA, PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    unsigned long faults0 = page_fault_count;
    /* Kernel addresses: refused by access_ok, no fault at all. */
    KT_EXPECT_EQ(copy_to_user(kbuf, "x", 1), 1);
    KT_EXPECT_EQ(copy_from_user(tmp, kbuf, 10), 10);
    KT_EXPECT_EQ(clear_user(kbuf, 4), 4);
    KT_EXPECT_EQ(strncpy_from_user(tmp, kbuf, sizeof tmp), -EFAULT);
    KT_EXPECT_EQ(strnlen_user(kbuf, 64), 0);
    KT_EXPECT(!strcmp(kbuf, "kernel secret"));
    KT_EXPECT_EQ(page_fault_count, faults0);
    /* Unmapped user addresses: the fault is taken and fixed up. */
    KT_EXPECT_EQ(copy_to_user((void *)0x20000000, "abc", 3), 3);
    KT_EXPECT_EQ(copy_from_user(tmp, (void *)0x20000000, 3), 3);
    KT_EXPECT_EQ(clear_user((void *)0x20000000, 3), 3);
    KT_EXPECT_EQ(strncpy_from_user(tmp, (void *)0x20000000, 10), -EFAULT);
    KT_EXPECT_EQ(copy_to_user(NULL, "abc", 3), 3);
    /* A copy running off the end of the mapping copies the prefix. */
    KT_EXPECT_EQ(copy_to_user((void *)(UA + PAGE_SIZE - 2), "abcd", 4), 2);
    KT_EXPECT_EQ(copy_from_user(tmp, (void *)(UA + PAGE_SIZE - 2), 2), 0);
    KT_EXPECT(!memcmp(tmp, "ab", 2));
    KT_EXPECT(page_fault_count > faults0);
    test_mm_done(mm);
}

KTEST(uaccess, get_user_put_user_sizes)
{
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(map_anon(mm, UA, PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    uint8_t *u8 = (uint8_t *)UA;
    uint16_t *u16 = (uint16_t *)(UA + 16);
    uint32_t *u32 = (uint32_t *)(UA + 32);
    uint64_t *u64 = (uint64_t *)(UA + 64);
    char **up = (char **)(UA + 128);
    KT_EXPECT_EQ(put_user(0xABu, u8), 0);
    KT_EXPECT_EQ(put_user(0xBEEFu, u16), 0);
    KT_EXPECT_EQ(put_user(0xDEADBEEFu, u32), 0);
    KT_EXPECT_EQ(put_user(0x0123456789ABCDEFULL, u64), 0);
    KT_EXPECT_EQ(put_user((char *)0xC0DE0000, up), 0);
    uint8_t a = 0; uint16_t b = 0; uint32_t c = 0; uint64_t d = 0; char *p = NULL;
    KT_EXPECT_EQ(get_user(a, u8), 0);
    KT_EXPECT_EQ(get_user(b, u16), 0);
    KT_EXPECT_EQ(get_user(c, u32), 0);
    KT_EXPECT_EQ(get_user(d, u64), 0);
    KT_EXPECT_EQ(get_user(p, up), 0);
    KT_EXPECT_EQ(a, 0xAB);
    KT_EXPECT_EQ(b, 0xBEEF);
    KT_EXPECT_EQ(c, 0xDEADBEEF);
    KT_EXPECT(d == 0x0123456789ABCDEFULL);
    KT_EXPECT(p == (char *)0xC0DE0000);
    /* Unaligned, and straddling into nothing: -EFAULT, value 0. */
    uint32_t *edge = (uint32_t *)(UA + PAGE_SIZE - 2);
    c = 77;
    KT_EXPECT_EQ(get_user(c, edge), -EFAULT);
    KT_EXPECT_EQ(c, 0);
    KT_EXPECT_EQ(put_user(1u, edge), -EFAULT);
    uint64_t *edge64 = (uint64_t *)(UA + PAGE_SIZE - 4);    /* low half ok, high half not */
    d = 5;
    KT_EXPECT_EQ(get_user(d, edge64), -EFAULT);
    KT_EXPECT(d == 0);
    /* Kernel address: refused before any access. */
    static uint32_t kval = 1234;
    c = 9;
    KT_EXPECT_EQ(get_user(c, &kval), -EFAULT);
    KT_EXPECT_EQ(c, 0);
    KT_EXPECT_EQ(put_user(5u, &kval), -EFAULT);
    KT_EXPECT_EQ(kval, 1234);
    test_mm_done(mm);
}

KTEST(uaccess, strings)
{
    char buf[32];
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(map_anon(mm, UA, PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    KT_ASSERT_EQ(copy_to_user((void *)UA, "hello", 6), 0);
    memset(buf, 'X', sizeof buf);
    KT_EXPECT_EQ(strncpy_from_user(buf, (char *)UA, sizeof buf), 5);
    KT_EXPECT(!strcmp(buf, "hello"));
    KT_EXPECT_EQ(strnlen_user((char *)UA, 32), 6);          /* includes the NUL */
    memset(buf, 'X', sizeof buf);
    KT_EXPECT_EQ(strncpy_from_user(buf, (char *)UA, 3), 3);   /* no NUL within count */
    KT_EXPECT(!memcmp(buf, "helX", 4));
    KT_EXPECT_EQ(strnlen_user((char *)UA, 3), 4);           /* > n: too long */
    KT_EXPECT_EQ(strncpy_from_user(buf, (char *)UA, 0), 0);
    /* A string that runs into an unmapped page. */
    KT_ASSERT_EQ(copy_to_user((void *)(UA + PAGE_SIZE - 4), "abcd", 4), 0);
    KT_EXPECT_EQ(strncpy_from_user(buf, (char *)(UA + PAGE_SIZE - 4), sizeof buf), -EFAULT);
    KT_EXPECT_EQ(strnlen_user((char *)(UA + PAGE_SIZE - 4), 32), 0);
    KT_EXPECT_EQ(strncpy_from_user(buf, (char *)(UA + PAGE_SIZE - 4), 4), 4);  /* stops before */
    test_mm_done(mm);
}

KTEST(uaccess, no_mm_fault_is_fixed_up)
{
    /* A kernel thread (no mm) touching a user address: no VMA lookup, the
     * fixup answers. */
    struct mm_struct *old = use_mm(NULL);
    char c;
    KT_EXPECT_EQ(copy_from_user(&c, (void *)0x1000, 1), 1);
    KT_EXPECT_EQ(put_user('a', (char *)0x1000), -EFAULT);
    use_mm(old);
}

/* ---- VMAs ------------------------------------------------------------------ */

static int count_vmas(struct mm_struct *mm)
{
    int n = 0;
    struct vm_area_struct *v;
    list_for_each_entry(v, &mm->mmap, vm_list)
        n++;
    KT_EXPECT_EQ(n, mm->map_count);
    return n;
}

KTEST(vma, mmap_munmap_split_and_merge)
{
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(map_anon(mm, UA, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    KT_ASSERT_EQ(map_anon(mm, UA + 4 * PAGE_SIZE, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE),
               UA + 4 * PAGE_SIZE);
    KT_EXPECT_EQ(count_vmas(mm), 1);                       /* merged */
    KT_EXPECT_EQ(mm->total_vm, 6);
    for (int i = 0; i < 6; i++)
        KT_ASSERT_EQ(put_user(i + 1, (int *)(UA + i * PAGE_SIZE)), 0);
    KT_EXPECT_EQ(mm->rss, 6);
    /* munmap a middle page: split in two, the page is freed */
    unsigned long free0 = nr_free_pages();
    KT_EXPECT_EQ(do_munmap(mm, UA + 2 * PAGE_SIZE, PAGE_SIZE), 0);
    KT_EXPECT_EQ(nr_free_pages(), free0 + 1);
    KT_EXPECT_EQ(count_vmas(mm), 2);
    KT_EXPECT_EQ(mm->rss, 5);
    struct vm_area_struct *v = find_vma(mm, UA + 2 * PAGE_SIZE);
    KT_ASSERT(v);
    KT_EXPECT_EQ(v->vm_start, UA + 3 * PAGE_SIZE);
    KT_EXPECT(find_vma_intersection(mm, UA + 2 * PAGE_SIZE, UA + 3 * PAGE_SIZE) == NULL);
    int x = 0;
    KT_EXPECT_EQ(get_user(x, (int *)(UA + 2 * PAGE_SIZE)), -EFAULT);
    KT_EXPECT_EQ(get_user(x, (int *)(UA + 3 * PAGE_SIZE)), 0);
    KT_EXPECT_EQ(x, 4);                                    /* data kept */
    /* a range over a hole and the edges of two VMAs */
    KT_EXPECT_EQ(do_munmap(mm, UA + PAGE_SIZE, 3 * PAGE_SIZE), 0);
    KT_EXPECT_EQ(count_vmas(mm), 2);
    KT_EXPECT_EQ(find_vma(mm, UA)->vm_end, UA + PAGE_SIZE);
    KT_EXPECT_EQ(find_vma(mm, UA + PAGE_SIZE)->vm_start, UA + 4 * PAGE_SIZE);
    KT_EXPECT_EQ(mm->total_vm, 3);
    /* errors */
    KT_EXPECT_EQ(do_munmap(mm, UA + 1, PAGE_SIZE), -EINVAL);
    KT_EXPECT_EQ(do_munmap(mm, UA, 0), -EINVAL);
    KT_EXPECT_EQ(do_munmap(mm, TASK_SIZE - PAGE_SIZE, 2 * PAGE_SIZE), -EINVAL);
    KT_EXPECT_EQ(do_munmap(mm, 0x30000000, PAGE_SIZE), 0);      /* nothing there: fine */
    KT_EXPECT_EQ(do_mmap(mm, NULL, UA + 1, PAGE_SIZE, PROT_READ,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0), -EINVAL);
    KT_EXPECT_EQ(do_mmap(mm, NULL, 0, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, 0), -EINVAL);
    KT_EXPECT_EQ(do_mmap(mm, NULL, 0, PAGE_SIZE, PROT_READ, MAP_ANONYMOUS, 0), -EINVAL);
    KT_EXPECT_EQ(do_mmap(mm, NULL, UA, PAGE_SIZE, PROT_READ,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, 0), -EEXIST);
    KT_EXPECT_EQ(do_mmap(mm, NULL, TASK_SIZE - PAGE_SIZE, 2 * PAGE_SIZE, PROT_READ,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0), -ENOMEM);
    /* without MAP_FIXED: placed from mmap_base up, never over a mapping */
    long a = do_mmap(mm, NULL, 0, 3 * PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, 0);
    KT_EXPECT_EQ(a, TASK_UNMAPPED_BASE);
    long b = do_mmap(mm, NULL, a, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, 0);
    KT_EXPECT_EQ(b, a + 3 * PAGE_SIZE);                    /* hint taken: next gap */
    /* MAP_FIXED over existing memory replaces it (fresh zero page) */
    KT_EXPECT_EQ(map_anon(mm, UA, PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    KT_EXPECT_EQ(get_user(x, (int *)UA), 0);
    KT_EXPECT_EQ(x, 0);
    test_mm_done(mm);
}

KTEST(vma, mprotect_and_fault_results)
{
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(map_anon(mm, UA, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    for (int i = 0; i < 3; i++)
        KT_ASSERT_EQ(put_user(100 + i, (int *)(UA + i * PAGE_SIZE)), 0);
    /* middle page read-only: split into three VMAs */
    KT_EXPECT_EQ(do_mprotect(mm, UA + PAGE_SIZE, PAGE_SIZE, PROT_READ), 0);
    KT_EXPECT_EQ(count_vmas(mm), 3);
    KT_EXPECT(!(pte_of(mm, UA + PAGE_SIZE) & _PAGE_RW));
    KT_EXPECT_EQ(put_user(1, (int *)(UA + PAGE_SIZE)), -EFAULT);   /* kernel write: fixup */
    int x = 0;
    KT_EXPECT_EQ(get_user(x, (int *)(UA + PAGE_SIZE)), 0);
    KT_EXPECT_EQ(x, 101);
    /* what a user-mode access would get */
    int code = 0;
    KT_EXPECT_EQ(resolve_user_fault(mm, UA + PAGE_SIZE, X86_PF_USER | X86_PF_WRITE | X86_PF_PROT,
                                  &code), SIGSEGV);
    KT_EXPECT_EQ(code, SEGV_ACCERR);
    KT_EXPECT_EQ(resolve_user_fault(mm, UA + PAGE_SIZE, X86_PF_USER | X86_PF_PROT, &code), 0);
    KT_EXPECT_EQ(resolve_user_fault(mm, 0x20000000, X86_PF_USER, &code), SIGSEGV);
    KT_EXPECT_EQ(code, SEGV_MAPERR);
    KT_EXPECT_EQ(resolve_user_fault(mm, 0, X86_PF_USER, &code), SIGSEGV);   /* NULL */
    KT_EXPECT_EQ(code, SEGV_MAPERR);
    /* PROT_NONE: not even the kernel can read it, the frame is kept */
    unsigned long free0 = nr_free_pages();
    KT_EXPECT_EQ(do_mprotect(mm, UA, PAGE_SIZE, PROT_NONE), 0);
    KT_EXPECT_EQ(nr_free_pages(), free0);
    KT_EXPECT(!pte_present(pte_of(mm, UA)) && pte_has_page(pte_of(mm, UA)));
    KT_EXPECT_EQ(get_user(x, (int *)UA), -EFAULT);
    KT_EXPECT_EQ(resolve_user_fault(mm, UA, X86_PF_USER, &code), SIGSEGV);
    KT_EXPECT_EQ(code, SEGV_ACCERR);
    /* back to read-write: everything merges again, the data survived */
    KT_EXPECT_EQ(do_mprotect(mm, UA, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
    KT_EXPECT_EQ(count_vmas(mm), 1);
    KT_EXPECT_EQ(get_user(x, (int *)UA), 0);
    KT_EXPECT_EQ(x, 100);
    KT_EXPECT_EQ(put_user(7, (int *)(UA + PAGE_SIZE)), 0);          /* COW-reuse: RW again */
    KT_EXPECT(pte_of(mm, UA + PAGE_SIZE) & _PAGE_RW);
    /* errors */
    KT_EXPECT_EQ(do_mprotect(mm, UA + 1, PAGE_SIZE, PROT_READ), -EINVAL);
    KT_EXPECT_EQ(do_mprotect(mm, UA, PAGE_SIZE, 0x80), -EINVAL);
    KT_EXPECT_EQ(do_mprotect(mm, UA, 4 * PAGE_SIZE, PROT_READ), -ENOMEM);   /* hole */
    KT_EXPECT(find_vma(mm, UA)->vm_flags & VM_WRITE);                      /* unchanged */
    test_mm_done(mm);
}

KTEST(vma, cow_after_dup_mm)
{
    struct mm_struct *parent = test_mm();
    KT_ASSERT(parent);
    KT_ASSERT_EQ(map_anon(parent, UA, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    KT_ASSERT_EQ(put_user(0x1111, (int *)UA), 0);
    KT_ASSERT_EQ(put_user(0x2222, (int *)(UA + PAGE_SIZE)), 0);
    struct page *pg0 = pfn_to_page(pte_pfn(pte_of(parent, UA)));
    unsigned long free0 = nr_free_pages();

    struct mm_struct *child = dup_mm(parent);
    KT_ASSERT(child);
    KT_EXPECT_EQ(child->rss, 2);
    KT_EXPECT_EQ(page_count(pg0), 2);                      /* shared frame */
    KT_EXPECT(!(pte_of(parent, UA) & _PAGE_RW));           /* both sides read-only */
    KT_EXPECT(!(pte_of(child, UA) & _PAGE_RW));
    KT_EXPECT_EQ(pte_pfn(pte_of(child, UA)), pte_pfn(pte_of(parent, UA)));
    unsigned long after_dup = nr_free_pages();
    KT_EXPECT(after_dup < free0);                          /* only page tables + dir */
    KT_EXPECT(free0 - after_dup <= 3);

    /* Parent writes: it gets a copy; the child still sees the old value. */
    unsigned long cow0 = page_fault_cow, reuse0 = page_fault_cow_reuse;
    KT_EXPECT_EQ(put_user(0x3333, (int *)UA), 0);
    KT_EXPECT_EQ(page_fault_cow, cow0 + 1);
    KT_EXPECT_EQ(nr_free_pages(), after_dup - 1);
    KT_EXPECT_EQ(page_count(pg0), 1);
    int v = 0;
    KT_EXPECT_EQ(access_remote_vm(child, UA, &v, sizeof v, 0), (int)sizeof v);
    KT_EXPECT_EQ(v, 0x1111);
    KT_EXPECT_EQ(get_user(v, (int *)UA), 0);
    KT_EXPECT_EQ(v, 0x3333);

    /* Switch to the child: its write finds the frame unshared now, so no
     * copy is made (count == 1): the PTE just becomes writable. */
    use_mm(child);
    KT_EXPECT_EQ(put_user(0x4444, (int *)UA), 0);
    KT_EXPECT_EQ(page_fault_cow, cow0 + 1);
    KT_EXPECT_EQ(page_fault_cow_reuse, reuse0 + 1);
    KT_EXPECT_EQ(pte_pfn(pte_of(child, UA)), page_to_pfn(pg0));
    /* the second page is still shared: the child's write copies it */
    KT_EXPECT_EQ(put_user(0x5555, (int *)(UA + PAGE_SIZE)), 0);
    KT_EXPECT_EQ(page_fault_cow, cow0 + 2);
    use_mm(parent);
    KT_EXPECT_EQ(get_user(v, (int *)(UA + PAGE_SIZE)), 0);
    KT_EXPECT_EQ(v, 0x2222);
    KT_EXPECT_EQ(access_remote_vm(child, UA + PAGE_SIZE, &v, sizeof v, 0), (int)sizeof v);
    KT_EXPECT_EQ(v, 0x5555);
    mmput(child);
    test_mm_done(parent);
}

KTEST(vma, frames_freed_after_mmput)
{
    /* Warm up kmalloc's caches for mm_struct and VMAs first. */
    for (int round = 0; round < 2; round++) {
        unsigned long free0 = nr_free_pages();
        struct mm_struct *mm = test_mm();
        KT_ASSERT(mm);
        KT_ASSERT_EQ(map_anon(mm, UA, 64 * PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
        KT_ASSERT_EQ(map_anon(mm, 0x20000000, 8 * PAGE_SIZE, PROT_READ | PROT_WRITE), 0x20000000);
        KT_ASSERT_EQ(do_mmap(mm, NULL, 0, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE,
                           MAP_SHARED | MAP_ANONYMOUS, 0), TASK_UNMAPPED_BASE);
        KT_ASSERT_EQ(setup_stack_vma(mm, STACK_TOP, 4 * PAGE_SIZE), 0);
        for (int i = 0; i < 64; i++)
            KT_ASSERT_EQ(put_user(i, (int *)(UA + i * PAGE_SIZE)), 0);
        KT_ASSERT_EQ(put_user(1, (int *)(0x20000000 + 3 * PAGE_SIZE)), 0);
        KT_ASSERT_EQ(put_user(1, (int *)(STACK_TOP - 10 * PAGE_SIZE)), 0);   /* grows */
        KT_ASSERT_EQ(do_mprotect(mm, UA + 8 * PAGE_SIZE, 8 * PAGE_SIZE, PROT_NONE), 0);
        KT_ASSERT_EQ(do_munmap(mm, UA + 32 * PAGE_SIZE, 4 * PAGE_SIZE), 0);
        struct mm_struct *child = dup_mm(mm);
        KT_ASSERT(child);
        use_mm(child);
        for (int i = 0; i < 8; i++)
            KT_ASSERT_EQ(put_user(-i, (int *)(UA + i * PAGE_SIZE)), 0);   /* COW copies */
        KT_ASSERT_EQ(put_user(9, (int *)TASK_UNMAPPED_BASE), 0);          /* shared */
        use_mm(mm);
        int v = 0;
        KT_EXPECT_EQ(get_user(v, (int *)TASK_UNMAPPED_BASE), 0);
        KT_EXPECT_EQ(v, 9);                                 /* MAP_SHARED: both see it */
        KT_EXPECT_EQ(get_user(v, (int *)(UA + 5 * PAGE_SIZE)), 0);
        KT_EXPECT_EQ(v, 5);
        mmput(child);
        test_mm_done(mm);
        if (round == 1)
            KT_EXPECT_EQ(nr_free_pages(), free0);
    }
}

KTEST(vma, stack_grows_to_the_limit)
{
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(setup_stack_vma(mm, STACK_TOP, PAGE_SIZE), 0);
    struct vm_area_struct *st = find_vma(mm, STACK_TOP - 1);
    KT_ASSERT(st && (st->vm_flags & VM_GROWSDOWN));
    unsigned long grow0 = page_fault_stack_grow;
    KT_EXPECT_EQ(put_user(1, (int *)(STACK_TOP - 64 * PAGE_SIZE)), 0);
    KT_EXPECT_EQ(page_fault_stack_grow, grow0 + 1);
    KT_EXPECT_EQ(st->vm_start, STACK_TOP - 64 * PAGE_SIZE);
    /* the last page within 8 MiB is fine, one more is not */
    KT_EXPECT_EQ(put_user(2, (int *)(STACK_TOP - DEFAULT_STACK_RLIMIT)), 0);
    KT_EXPECT_EQ(put_user(3, (int *)(STACK_TOP - DEFAULT_STACK_RLIMIT - 4)), -EFAULT);
    int code = 0;
    KT_EXPECT_EQ(resolve_user_fault(mm, STACK_TOP - DEFAULT_STACK_RLIMIT - 4,
                                  X86_PF_USER | X86_PF_WRITE, &code), SIGSEGV);
    KT_EXPECT_EQ(code, SEGV_MAPERR);
    KT_EXPECT_EQ(st->vm_start, STACK_TOP - DEFAULT_STACK_RLIMIT);
    /* a smaller limit, and a mapping just below: the guard gap holds */
    struct mm_struct *mm2 = mm_alloc();
    KT_ASSERT(mm2);
    KT_ASSERT_EQ(setup_stack_vma(mm2, 0x30000000, PAGE_SIZE), 0);
    KT_ASSERT_EQ(do_mmap(mm2, NULL, 0x30000000 - 8 * PAGE_SIZE, PAGE_SIZE, PROT_READ,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0), 0x30000000 - 8 * PAGE_SIZE);
    struct vm_area_struct *st2 = find_vma(mm2, 0x30000000 - 1);
    KT_EXPECT_EQ(expand_stack(st2, 0x30000000 - 6 * PAGE_SIZE), 0);
    KT_EXPECT_EQ(expand_stack(st2, 0x30000000 - 7 * PAGE_SIZE), -ENOMEM);   /* guard page */
    mm2->stack_rlimit = 2 * PAGE_SIZE;
    mmput(mm2);
    test_mm_done(mm);
}

KTEST(vma, brk_grows_and_shrinks)
{
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    mm->start_brk = mm->brk = 0x08100000;
    KT_EXPECT_EQ(sys_brk(0), 0x08100000);                  /* query */
    KT_EXPECT_EQ(sys_brk(0x08100000 + 5000), 0x08100000 + 5000);
    KT_EXPECT_EQ(mm->brk, 0x08100000 + 5000);
    struct vm_area_struct *h = find_vma(mm, 0x08100000);
    KT_ASSERT(h);
    KT_EXPECT_EQ(h->vm_start, 0x08100000);
    KT_EXPECT_EQ(h->vm_end, 0x08102000);
    KT_EXPECT_EQ(put_user(42, (int *)(0x08100000 + 4996)), 0);
    KT_EXPECT_EQ(sys_brk(0x08100000 + 3 * PAGE_SIZE), 0x08100000 + 3 * PAGE_SIZE);
    KT_EXPECT_EQ(count_vmas(mm), 1);                       /* extended, not a new VMA */
    KT_EXPECT_EQ(find_vma(mm, 0x08100000)->vm_end, 0x08103000);
    KT_EXPECT_EQ(sys_brk(0x08100000 + 10), 0x08100000 + 10);   /* shrink */
    KT_EXPECT_EQ(find_vma(mm, 0x08100000)->vm_end, 0x08101000);
    int v = 1;
    KT_EXPECT_EQ(get_user(v, (int *)(0x08100000 + 4996)), -EFAULT);
    KT_EXPECT_EQ(v, 0);
    KT_EXPECT_EQ(sys_brk(0x08000000), 0x08100000 + 10);    /* below start: refused */
    /* growing into another mapping is refused */
    KT_ASSERT_EQ(map_anon(mm, 0x08110000, PAGE_SIZE, PROT_READ), 0x08110000);
    KT_EXPECT_EQ(sys_brk(0x08110000 + 100), 0x08100000 + 10);
    KT_EXPECT_EQ(sys_brk(0xBFFFF000), 0x08100000 + 10);
    test_mm_done(mm);
}

/* ---- the shared zero page (mm/memory.c) ------------------------------------ */

static bool zero_page_is_zero(void)
{
    const unsigned long *z = (const unsigned long *)empty_zero_page;
    for (unsigned i = 0; i < PAGE_SIZE / sizeof *z; i++)
        if (z[i])
            return false;
    return true;
}

static bool is_zero_pte(pte_t pte)
{
    return pte_present(pte) && is_zero_pfn(pte_pfn(pte)) && !(pte & _PAGE_RW);
}

KTEST(vma, zero_page_read_then_write)
{
    struct page *zp = ZERO_PAGE(0);
    KT_EXPECT(PageReserved(zp));
    int zcount0 = page_count(zp), zmap0 = page_mapcount(zp);
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(map_anon(mm, UA, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    KT_ASSERT_EQ(put_user(5, (int *)(UA + 2 * PAGE_SIZE)), 0);    /* the page table */
    unsigned long free0 = nr_free_pages(), zf0 = page_fault_zero_page;
    unsigned long zc0 = page_fault_zero_cow, cow0 = page_fault_cow;

    /* Reads: both pages map the zero page read-only, nothing allocated. */
    int v = -1;
    KT_EXPECT_EQ(get_user(v, (int *)UA), 0);
    KT_EXPECT_EQ(v, 0);
    v = -1;
    KT_EXPECT_EQ(get_user(v, (int *)(UA + PAGE_SIZE + 100)), 0);
    KT_EXPECT_EQ(v, 0);
    KT_EXPECT(is_zero_pte(pte_of(mm, UA)));
    KT_EXPECT(is_zero_pte(pte_of(mm, UA + PAGE_SIZE)));
    KT_EXPECT_EQ(page_fault_zero_page, zf0 + 2);
    KT_EXPECT_EQ(nr_free_pages(), free0);
    KT_EXPECT_EQ(mm->rss, 3);
    KT_EXPECT_EQ(page_count(zp), zcount0);                    /* no reference per PTE */
    KT_EXPECT_EQ(page_mapcount(zp), zmap0);

    /* A write: page 0 gets a zeroed frame of its own, writable; the
     * zero page and page 1 are untouched. */
    KT_EXPECT_EQ(put_user(0x5a5a, (int *)(UA + 8)), 0);
    pte_t p0 = pte_of(mm, UA);
    KT_EXPECT(pte_present(p0) && (p0 & _PAGE_RW) && !is_zero_pfn(pte_pfn(p0)));
    KT_EXPECT_EQ(page_count(pfn_to_page(pte_pfn(p0))), 1);
    KT_EXPECT_EQ(page_mapcount(pfn_to_page(pte_pfn(p0))), 1);
    KT_EXPECT_EQ(page_fault_zero_cow, zc0 + 1);
    KT_EXPECT_EQ(page_fault_cow, cow0);                       /* zeroed, not copied */
    KT_EXPECT_EQ(nr_free_pages(), free0 - 1);
    KT_EXPECT_EQ(mm->rss, 3);
    int buf[4] = { -1, -1, -1, -1 };
    KT_EXPECT_EQ(copy_from_user(buf, (void *)UA, sizeof buf), 0);
    KT_EXPECT(buf[0] == 0 && buf[1] == 0 && buf[2] == 0x5a5a && buf[3] == 0);
    KT_EXPECT(is_zero_pte(pte_of(mm, UA + PAGE_SIZE)));
    KT_EXPECT(zero_page_is_zero());

    /* access_remote_vm writes the same way (exec's path). */
    v = 77;
    KT_EXPECT_EQ(access_remote_vm(mm, UA + PAGE_SIZE, &v, sizeof v, 1), (int)sizeof v);
    KT_EXPECT(!is_zero_pfn(pte_pfn(pte_of(mm, UA + PAGE_SIZE))));
    KT_EXPECT_EQ(get_user(v, (int *)(UA + PAGE_SIZE)), 0);
    KT_EXPECT_EQ(v, 77);
    KT_EXPECT(zero_page_is_zero());
    test_mm_done(mm);
    KT_EXPECT_EQ(page_count(zp), zcount0);
}

KTEST(vma, zero_page_fork_mprotect_munmap_exit)
{
    struct page *zp = ZERO_PAGE(0);
    int zcount0 = page_count(zp);
    unsigned long bad0 = mm_bad_page_count;
    for (int round = 0; round < 2; round++) {       /* round 0 warms kmalloc */
        unsigned long free_start = nr_free_pages();
        struct mm_struct *mm = test_mm();
        KT_ASSERT(mm);
        KT_ASSERT_EQ(map_anon(mm, UA, 16 * PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
        KT_ASSERT_EQ(put_user(1, (int *)(UA + 15 * PAGE_SIZE)), 0);
        unsigned long free0 = nr_free_pages();
        int v;
        for (int i = 0; i < 15; i++)
            KT_ASSERT_EQ(get_user(v, (int *)(UA + i * PAGE_SIZE)), 0);
        KT_EXPECT_EQ(nr_free_pages(), free0);                 /* 15 reads, no frame */
        KT_EXPECT_EQ(mm->rss, 16);

        /* PROT_NONE and back: still the zero page, still read-only. */
        KT_EXPECT_EQ(do_mprotect(mm, UA, 2 * PAGE_SIZE, PROT_NONE), 0);
        KT_EXPECT(!pte_present(pte_of(mm, UA)) && is_zero_pfn(pte_pfn(pte_of(mm, UA))));
        KT_EXPECT_EQ(do_mprotect(mm, UA, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
        KT_EXPECT(is_zero_pte(pte_of(mm, UA)));

        /* fork: the child maps the zero page too, no reference taken */
        struct mm_struct *child = dup_mm(mm);
        KT_ASSERT(child);
        KT_EXPECT(is_zero_pte(pte_of(child, UA + 3 * PAGE_SIZE)));
        KT_EXPECT_EQ(child->rss, 16);
        KT_EXPECT_EQ(page_count(zp), zcount0);
        use_mm(child);
        KT_EXPECT_EQ(put_user(33, (int *)(UA + 3 * PAGE_SIZE)), 0);     /* child's own */
        use_mm(mm);
        KT_EXPECT(is_zero_pte(pte_of(mm, UA + 3 * PAGE_SIZE)));         /* parent: zeros */
        v = -1;
        KT_EXPECT_EQ(get_user(v, (int *)(UA + 3 * PAGE_SIZE)), 0);
        KT_EXPECT_EQ(v, 0);
        KT_EXPECT_EQ(access_remote_vm(child, UA + 3 * PAGE_SIZE, &v, sizeof v, 0),
                     (int)sizeof v);
        KT_EXPECT_EQ(v, 33);
        KT_EXPECT_EQ(put_user(44, (int *)(UA + 4 * PAGE_SIZE)), 0);     /* parent's own */
        KT_EXPECT(is_zero_pte(pte_of(child, UA + 4 * PAGE_SIZE)));
        KT_EXPECT(zero_page_is_zero());

        /* munmap of zero-page PTEs frees nothing and puts nothing */
        unsigned long free1 = nr_free_pages();
        KT_EXPECT_EQ(do_munmap(mm, UA + 5 * PAGE_SIZE, 8 * PAGE_SIZE), 0);
        KT_EXPECT_EQ(nr_free_pages(), free1);
        KT_EXPECT_EQ(mm->rss, 8);
        KT_EXPECT_EQ(page_count(zp), zcount0);

        /* exit of both: every frame back, the zero page untouched */
        mmput(child);
        test_mm_done(mm);
        KT_EXPECT_EQ(page_count(zp), zcount0);
        KT_EXPECT(PageReserved(zp));
        if (round == 1)
            KT_EXPECT_EQ(nr_free_pages(), free_start);
    }
    KT_EXPECT_EQ(mm_bad_page_count, bad0);
    KT_EXPECT(zero_page_is_zero());
}

KTEST(vma, shared_anonymous_read_is_not_the_zero_page)
{
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    long a = do_mmap(mm, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, 0);
    KT_ASSERT(a > 0);
    int v = -1;
    KT_EXPECT_EQ(get_user(v, (int *)a), 0);
    KT_EXPECT_EQ(v, 0);
    KT_EXPECT(!is_zero_pfn(pte_pfn(pte_of(mm, a))));  /* a frame both sides of a fork share */
    struct mm_struct *child = dup_mm(mm);
    KT_ASSERT(child);
    use_mm(child);
    KT_EXPECT_EQ(put_user(9, (int *)a), 0);
    use_mm(mm);
    KT_EXPECT_EQ(get_user(v, (int *)a), 0);
    KT_EXPECT_EQ(v, 9);
    mmput(child);
    test_mm_done(mm);
}

/* ---- mincore (mm/mincore.c) ---------------------------------------------- */

/* One byte a page: 1 where a PTE maps a frame (touched, or made PROT_NONE
 * after), 0 elsewhere; the errors in Linux's order: EINVAL (unaligned),
 * ENOMEM (past user space), EFAULT (vec in the kernel), then ENOMEM at a
 * hole with the bytes before it written, EFAULT for a read-only vec. */
KTEST(vma, mincore_resident_pages_and_errors)
{
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    unsigned long vec = UA + 16 * PAGE_SIZE;
    KT_ASSERT_EQ(map_anon(mm, UA, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    KT_ASSERT_EQ(map_anon(mm, vec, PAGE_SIZE, PROT_READ | PROT_WRITE), vec);
    KT_ASSERT_EQ(put_user(1, (char *)(UA + PAGE_SIZE)), 0);
    KT_ASSERT_EQ(put_user(1, (char *)(UA + 3 * PAGE_SIZE)), 0);
    KT_EXPECT_EQ(do_mprotect(mm, UA + 3 * PAGE_SIZE, PAGE_SIZE, PROT_NONE), 0);
    unsigned char v[5];
    KT_EXPECT_EQ(copy_to_user((void *)vec, "\7\7\7\7\7", 5), 0);
    KT_EXPECT_EQ(sys_mincore(UA, 4 * PAGE_SIZE - 1, (unsigned char *)vec), 0);
    KT_EXPECT_EQ(copy_from_user(v, (void *)vec, 5), 0);
    KT_EXPECT(v[0] == 0 && v[1] == 1 && v[2] == 0 && v[3] == 1 && v[4] == 7);

    KT_EXPECT_EQ(sys_mincore(UA + 1, PAGE_SIZE, (unsigned char *)vec), -EINVAL);
    KT_EXPECT_EQ(sys_mincore(UA, TASK_SIZE, (unsigned char *)vec), -ENOMEM);
    KT_EXPECT_EQ(sys_mincore(UA, PAGE_SIZE, (unsigned char *)v), -EFAULT);
    KT_EXPECT_EQ(sys_mincore(UA + 8 * PAGE_SIZE, 0, (unsigned char *)vec), 0);

    KT_EXPECT_EQ(do_munmap(mm, UA + 2 * PAGE_SIZE, PAGE_SIZE), 0);
    KT_EXPECT_EQ(copy_to_user((void *)vec, "\7\7\7\7", 4), 0);
    KT_EXPECT_EQ(sys_mincore(UA, 4 * PAGE_SIZE, (unsigned char *)vec), -ENOMEM);
    KT_EXPECT_EQ(copy_from_user(v, (void *)vec, 4), 0);
    KT_EXPECT(v[0] == 0 && v[1] == 1 && v[2] == 7);   /* the first VMA's bytes only */
    KT_EXPECT_EQ(do_mprotect(mm, vec, PAGE_SIZE, PROT_READ), 0);
    KT_EXPECT_EQ(sys_mincore(UA, PAGE_SIZE, (unsigned char *)vec), -EFAULT);
    test_mm_done(mm);
}

/* ---- mremap (mm/mremap.c) ------------------------------------------------ */

KTEST(vma, mremap_moves_ptes_with_their_frames)
{
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(map_anon(mm, UA, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    unsigned long pfn[3];
    for (int i = 0; i < 3; i++) {
        KT_ASSERT_EQ(put_user(0x100 + i, (int *)(UA + i * PAGE_SIZE)), 0);
        pfn[i] = pte_pfn(pte_of(mm, UA + i * PAGE_SIZE));
    }
    struct page *pg0 = pfn_to_page(pfn[0]);
    unsigned long free0 = nr_free_pages();
    /* a move to a fixed place in the same page table: the PTEs go as they
     * are, no frame is allocated or freed, the counts stay */
    const unsigned long to = UA + 8 * PAGE_SIZE;
    KT_EXPECT_EQ(sys_mremap(UA, 3 * PAGE_SIZE, 3 * PAGE_SIZE, MREMAP_MAYMOVE | MREMAP_FIXED, to),
                 (long)to);
    KT_EXPECT_EQ(nr_free_pages(), free0);
    for (int i = 0; i < 3; i++) {
        KT_EXPECT_EQ(pte_pfn(pte_of(mm, to + i * PAGE_SIZE)), pfn[i]);
        KT_EXPECT(!pte_has_page(pte_of(mm, UA + i * PAGE_SIZE)));
    }
    KT_EXPECT_EQ(page_count(pg0), 1);
    KT_EXPECT_EQ(page_mapcount(pg0), 1);
    KT_EXPECT_EQ(mm->rss, 3);
    KT_EXPECT_EQ(mm->total_vm, 3);
    KT_EXPECT_EQ(count_vmas(mm), 1);
    KT_EXPECT(find_vma_intersection(mm, UA, UA + 3 * PAGE_SIZE) == NULL);
    int v = 0;
    KT_EXPECT_EQ(get_user(v, (int *)(to + 2 * PAGE_SIZE)), 0);
    KT_EXPECT_EQ(v, 0x102);
    /* grown in place: the new page reads zeros, no frame until touched */
    KT_EXPECT_EQ(sys_mremap(to, 3 * PAGE_SIZE, 4 * PAGE_SIZE, 0, 0), (long)to);
    KT_EXPECT_EQ(find_vma(mm, to)->vm_end, to + 4 * PAGE_SIZE);
    KT_EXPECT_EQ(mm->total_vm, 4);
    KT_EXPECT_EQ(get_user(v, (int *)(to + 3 * PAGE_SIZE)), 0);
    KT_EXPECT_EQ(v, 0);
    /* shrunk: the tail's frames are freed */
    KT_EXPECT_EQ(put_user(1, (int *)(to + 3 * PAGE_SIZE)), 0);
    unsigned long free1 = nr_free_pages();
    KT_EXPECT_EQ(sys_mremap(to, 4 * PAGE_SIZE, 2 * PAGE_SIZE, 0, 0), (long)to);
    KT_EXPECT_EQ(nr_free_pages(), free1 + 2);
    KT_EXPECT_EQ(mm->rss, 2);
    KT_EXPECT_EQ(mm->total_vm, 2);
    /* no room after it (a mapping in the way): ENOMEM without MAYMOVE */
    KT_ASSERT_EQ(map_anon(mm, to + 2 * PAGE_SIZE, PAGE_SIZE, PROT_READ), (long)(to + 2 * PAGE_SIZE));
    KT_EXPECT_EQ(sys_mremap(to, 2 * PAGE_SIZE, 3 * PAGE_SIZE, 0, 0), -ENOMEM);
    KT_EXPECT_EQ(sys_mremap(UA, PAGE_SIZE, PAGE_SIZE, 0, 0), -EFAULT);
    test_mm_done(mm);
}

KTEST(vma, mremap_dontunmap_shared_anonymous_shares_frames)
{
    struct mm_struct *mm = test_mm();
    KT_ASSERT(mm);
    long a = do_mmap(mm, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, 0);
    KT_ASSERT(a > 0);
    KT_ASSERT_EQ(put_user(5, (int *)a), 0);
    struct page *pg = pfn_to_page(pte_pfn(pte_of(mm, a)));
    long b = sys_mremap(a, PAGE_SIZE, PAGE_SIZE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, 0);
    KT_ASSERT(b > 0 && b != a);
    /* both places map the one frame (Linux: the same shmem page) */
    KT_EXPECT_EQ(pte_pfn(pte_of(mm, b)), page_to_pfn(pg));
    KT_EXPECT_EQ(pte_pfn(pte_of(mm, a)), page_to_pfn(pg));
    KT_EXPECT_EQ(page_count(pg), 2);
    KT_EXPECT_EQ(page_mapcount(pg), 2);
    KT_EXPECT_EQ(mm->rss, 2);
    KT_EXPECT_EQ(put_user(6, (int *)b), 0);
    int v = 0;
    KT_EXPECT_EQ(get_user(v, (int *)a), 0);
    KT_EXPECT_EQ(v, 6);
    /* private anonymous memory: the old place is empty after */
    KT_ASSERT_EQ(map_anon(mm, UA, PAGE_SIZE, PROT_READ | PROT_WRITE), UA);
    KT_ASSERT_EQ(put_user(7, (int *)UA), 0);
    long c = sys_mremap(UA, PAGE_SIZE, PAGE_SIZE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, 0);
    KT_ASSERT(c > 0 && c != (long)UA);
    KT_EXPECT(!pte_has_page(pte_of(mm, UA)));
    KT_EXPECT_EQ(get_user(v, (int *)UA), 0);
    KT_EXPECT_EQ(v, 0);
    KT_EXPECT_EQ(get_user(v, (int *)c), 0);
    KT_EXPECT_EQ(v, 7);
    test_mm_done(mm);
}
