/* mm/paging_test.c: the ktests of paging.c (test=paging); built into the test
 * kernel only (make check), never into the production kernel. The tests reach
 * paging.c's static functions and data, so this file includes it: in the test
 * kernel the two are one object (Makefile). */
#include "paging.c"
#include <ktest.h>

#include <asm/uaccess.h>
#include "internal.h"

#define TEST_UVA 0x00400000UL            /* a user address (4 MiB) */

KTEST(paging, kernel_directory)
{
    KT_EXPECT(current_pgd() == swapper_pg_dir);
    for (unsigned long i = 0; i < USER_PTRS_PER_PGD; i++)
        KT_EXPECT_EQ(swapper_pg_dir[i], 0);          /* no identity map */
    /* Direct map: the frame of mem_map's last entry is mapped, 4 MiB pages. */
    unsigned long va = (unsigned long)phys_to_virt((max_pfn - 1) << PAGE_SHIFT);
    KT_EXPECT(swapper_pg_dir[pgd_index(va)] & _PAGE_PSE);
    /* Kernel text through 4 KiB PTEs, read-only; data writable. */
    pte_t *t = lookup_pte(swapper_pg_dir, (unsigned long)_text);
    KT_ASSERT(t != NULL);
    KT_EXPECT(pte_present(*t) && !(*t & _PAGE_RW) && !(*t & _PAGE_USER));
    KT_EXPECT_EQ(pte_phys(*t), virt_to_phys(_text));
    pte_t *d = lookup_pte(swapper_pg_dir, (unsigned long)&kernel_pt0);
    KT_ASSERT(d != NULL);
    KT_EXPECT(pte_present(*d) && (*d & _PAGE_RW));
}

KTEST(paging, text_is_read_only)
{
    uint8_t v = 0, old = *(volatile uint8_t *)_text;
    int r = probe_kernel_read_u8(_text, &v);
    int w = probe_kernel_write_u8(_text, old ^ 0xff);
    KT_EXPECT_EQ(r, 0);
    KT_EXPECT_EQ(v, old);
    KT_EXPECT_EQ(w, -EFAULT);
    KT_EXPECT_EQ(*(volatile uint8_t *)_text, old);
}

KTEST(paging, map_write_read_unmap)
{
    unsigned long start = nr_free_pages();
    pgd_t *pgd = pgd_alloc();
    KT_ASSERT(pgd != NULL);
    for (unsigned long i = USER_PTRS_PER_PGD; i < PTRS_PER_PGD; i++)
        KT_EXPECT_EQ(pgd[i], swapper_pg_dir[i]);      /* kernel half shared */
    for (unsigned long i = 0; i < USER_PTRS_PER_PGD; i++)
        KT_EXPECT_EQ(pgd[i], 0);
    KT_EXPECT(lookup_pte(pgd, TEST_UVA) == NULL);

    struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
    KT_ASSERT(page != NULL);
    KT_ASSERT_EQ(map_page(pgd, TEST_UVA, page_to_phys(page), PAGE_USER_RW), 0);
    pte_t *pte = lookup_pte(pgd, TEST_UVA);
    KT_ASSERT(pte != NULL);
    KT_EXPECT(pte_present(*pte) && (*pte & _PAGE_RW) && (*pte & _PAGE_USER));
    KT_EXPECT_EQ(pte_phys(*pte), page_to_phys(page));

    /* Write through the user mapping, read back through the direct map. */
    pgd_t *old = current_pgd();
    switch_pgd(pgd);
    KT_EXPECT(current_pgd() == pgd);
    volatile uint32_t *u = (volatile uint32_t *)TEST_UVA;
    for (int i = 0; i < 1024; i++)
        u[i] = 0xC0DE0000 + i;
    switch_pgd(old);
    const uint32_t *k = page_address(page);
    bool same = true;
    for (int i = 0; i < 1024; i++)
        same &= k[i] == 0xC0DE0000u + i;
    KT_EXPECT(same);
    KT_EXPECT(*pte & _PAGE_DIRTY);                   /* the CPU saw the writes */

    unmap_page(pgd, TEST_UVA);
    pte = lookup_pte(pgd, TEST_UVA);
    KT_ASSERT(pte != NULL);                          /* the table stays */
    KT_EXPECT(!pte_present(*pte));

    /* And the address really is gone from that address space. */
    uint8_t v;
    switch_pgd(pgd);
    int r = probe_kernel_read_u8((const void *)TEST_UVA, &v);
    switch_pgd(old);
    KT_EXPECT_EQ(r, -EFAULT);

    pgd_free(pgd);
    __free_page(page);
    KT_EXPECT_EQ(nr_free_pages(), start);            /* directory and table freed */
}

KTEST(paging, permission_bits_and_errors)
{
    unsigned long start = nr_free_pages();
    pgd_t *pgd = pgd_alloc();
    KT_ASSERT(pgd != NULL);
    struct page *page = alloc_page(GFP_KERNEL);
    KT_ASSERT(page != NULL);
    phys_addr_t pa = page_to_phys(page);

    KT_EXPECT_EQ(map_page(pgd, 0x1000, pa, PAGE_USER_RO), 0);
    KT_EXPECT_EQ(map_page(pgd, 0x2000, pa, PAGE_KERNEL_RW), 0);
    KT_EXPECT_EQ(map_page(pgd, 0xBFFFF000, pa, PAGE_USER_RW), 0);    /* last user page */
    pte_t a = *lookup_pte(pgd, 0x1000), b = *lookup_pte(pgd, 0x2000),
          c = *lookup_pte(pgd, 0xBFFFF000);
    KT_EXPECT((a & (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER)) == (_PAGE_PRESENT | _PAGE_USER));
    KT_EXPECT((b & (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER)) == (_PAGE_PRESENT | _PAGE_RW));
    KT_EXPECT((c & (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER)) ==
            (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER));
    KT_EXPECT(lookup_pte(pgd, 0x00400000) == NULL);

    KT_EXPECT_EQ(map_page(pgd, KERNEL_BASE, pa, PAGE_USER_RW), -EINVAL);
    KT_EXPECT_EQ(map_page(pgd, 0x1234, pa, PAGE_USER_RW), -EINVAL);
    KT_EXPECT_EQ(map_page(pgd, 0x3000, pa + 1, PAGE_USER_RW), -EINVAL);
    KT_EXPECT_EQ(map_page(NULL, 0x3000, pa, PAGE_USER_RW), -EINVAL);
    KT_EXPECT_EQ(swapper_pg_dir[0], 0);              /* never touched the kernel's */

    pgd_free(pgd);
    __free_page(page);
    KT_EXPECT_EQ(nr_free_pages(), start);
}

KTEST(paging, write_to_read_only_mapping_faults)
{
    pgd_t *pgd = pgd_alloc();
    KT_ASSERT(pgd != NULL);
    struct page *page = alloc_page(GFP_KERNEL);
    KT_ASSERT(page != NULL);
    memset(page_address(page), 0x77, PAGE_SIZE);
    KT_ASSERT_EQ(map_page(pgd, TEST_UVA, page_to_phys(page), PAGE_USER_RO), 0);

    pgd_t *old = current_pgd();
    uint8_t v = 0;
    unsigned long fixups0 = page_fault_fixups;
    switch_pgd(pgd);
    int r = probe_kernel_read_u8((const void *)(TEST_UVA + 5), &v);
    int w = probe_kernel_write_u8((void *)(TEST_UVA + 5), 0x11);    /* CR0.WP: faults */
    switch_pgd(old);
    KT_EXPECT_EQ(r, 0);
    KT_EXPECT_EQ(v, 0x77);
    KT_EXPECT_EQ(w, -EFAULT);
    KT_EXPECT_EQ(page_fault_fixups, fixups0 + 1);
    KT_EXPECT_EQ(((uint8_t *)page_address(page))[5], 0x77);

    /* Remapping read-write (replacing the PTE) lets the write through. */
    KT_ASSERT_EQ(map_page(pgd, TEST_UVA, page_to_phys(page), PAGE_USER_RW), 0);
    switch_pgd(pgd);
    w = probe_kernel_write_u8((void *)(TEST_UVA + 5), 0x11);
    switch_pgd(old);
    KT_EXPECT_EQ(w, 0);
    KT_EXPECT_EQ(((uint8_t *)page_address(page))[5], 0x11);
    pgd_free(pgd);
    __free_page(page);
}

KTEST(paging, map_page_out_of_memory)
{
    pgd_t *pgd = pgd_alloc();
    KT_ASSERT(pgd != NULL);
    unsigned long start = nr_free_pages();
    void *chain = NULL;
    unsigned long page;
    while ((page = __get_free_page(GFP_KERNEL | __GFP_NOWARN))) {
        *(void **)page = chain;
        chain = (void *)page;
    }
    /* A new page table is needed and there is no frame for it. */
    KT_EXPECT_EQ(map_page(pgd, TEST_UVA, 0x200000, PAGE_USER_RW), -ENOMEM);
    KT_EXPECT(lookup_pte(pgd, TEST_UVA) == NULL);
    while (chain) {
        void *next = *(void **)chain;
        free_page((unsigned long)chain);
        chain = next;
    }
    KT_EXPECT_EQ(nr_free_pages(), start);
    pgd_free(pgd);
}
