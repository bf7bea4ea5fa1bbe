/* mm/paging_test.c: the ktests of paging.c (test=paging); built into the test
 * kernel only (make check), never into the production kernel.
 * The tests reach paging.c's static functions and data, so this file
 * includes it: in the test kernel the two are one object (Makefile). */
#include "paging.c"
#include <ktest.h>

#include <asm/uaccess.h>
#include "internal.h"

#define TEST_UVA 0x00400000UL            /* a user address (4 MiB) */

KTEST(paging, kernel_directory)
{
    KEXPECT(current_pgd() == swapper_pg_dir);
    for (unsigned long i = 0; i < USER_PTRS_PER_PGD; i++)
        KEXPECT_EQ(swapper_pg_dir[i], 0);          /* no identity map */
    /* Direct map: the frame of mem_map's last entry is mapped, 4 MiB pages. */
    unsigned long va = (unsigned long)phys_to_virt((max_pfn - 1) << PAGE_SHIFT);
    KEXPECT(swapper_pg_dir[pgd_index(va)] & _PAGE_PSE);
    /* Kernel text through 4 KiB PTEs, read-only; data writable. */
    pte_t *t = lookup_pte(swapper_pg_dir, (unsigned long)_text);
    KASSERT(t != NULL);
    KEXPECT(pte_present(*t) && !(*t & _PAGE_RW) && !(*t & _PAGE_USER));
    KEXPECT_EQ(pte_phys(*t), virt_to_phys(_text));
    pte_t *d = lookup_pte(swapper_pg_dir, (unsigned long)&kernel_pt0);
    KASSERT(d != NULL);
    KEXPECT(pte_present(*d) && (*d & _PAGE_RW));
}

KTEST(paging, text_is_read_only)
{
    uint8_t v = 0, old = *(volatile uint8_t *)_text;
    int r = probe_kernel_read_u8(_text, &v);
    int w = probe_kernel_write_u8(_text, old ^ 0xff);
    KEXPECT_EQ(r, 0);
    KEXPECT_EQ(v, old);
    KEXPECT_EQ(w, -EFAULT);
    KEXPECT_EQ(*(volatile uint8_t *)_text, old);
}

KTEST(paging, map_write_read_unmap)
{
    unsigned long start = nr_free_pages();
    pgd_t *pgd = pgd_alloc();
    KASSERT(pgd != NULL);
    for (unsigned long i = USER_PTRS_PER_PGD; i < PTRS_PER_PGD; i++)
        KEXPECT_EQ(pgd[i], swapper_pg_dir[i]);      /* kernel half shared */
    for (unsigned long i = 0; i < USER_PTRS_PER_PGD; i++)
        KEXPECT_EQ(pgd[i], 0);
    KEXPECT(lookup_pte(pgd, TEST_UVA) == NULL);

    struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
    KASSERT(page != NULL);
    KASSERT_EQ(map_page(pgd, TEST_UVA, page_to_phys(page), PAGE_USER_RW), 0);
    pte_t *pte = lookup_pte(pgd, TEST_UVA);
    KASSERT(pte != NULL);
    KEXPECT(pte_present(*pte) && (*pte & _PAGE_RW) && (*pte & _PAGE_USER));
    KEXPECT_EQ(pte_phys(*pte), page_to_phys(page));

    /* Write through the user mapping, read back through the direct map. */
    pgd_t *old = current_pgd();
    switch_pgd(pgd);
    KEXPECT(current_pgd() == pgd);
    volatile uint32_t *u = (volatile uint32_t *)TEST_UVA;
    for (int i = 0; i < 1024; i++)
        u[i] = 0xC0DE0000 + i;
    switch_pgd(old);
    const uint32_t *k = page_address(page);
    bool same = true;
    for (int i = 0; i < 1024; i++)
        same &= k[i] == 0xC0DE0000u + i;
    KEXPECT(same);
    KEXPECT(*pte & _PAGE_DIRTY);                   /* the CPU saw the writes */

    unmap_page(pgd, TEST_UVA);
    pte = lookup_pte(pgd, TEST_UVA);
    KASSERT(pte != NULL);                          /* the table stays */
    KEXPECT(!pte_present(*pte));

    /* And the address really is gone from that address space. */
    uint8_t v;
    switch_pgd(pgd);
    int r = probe_kernel_read_u8((const void *)TEST_UVA, &v);
    switch_pgd(old);
    KEXPECT_EQ(r, -EFAULT);

    pgd_free(pgd);
    __free_page(page);
    KEXPECT_EQ(nr_free_pages(), start);            /* directory and table freed */
}

KTEST(paging, permission_bits_and_errors)
{
    unsigned long start = nr_free_pages();
    pgd_t *pgd = pgd_alloc();
    KASSERT(pgd != NULL);
    struct page *page = alloc_page(GFP_KERNEL);
    KASSERT(page != NULL);
    phys_addr_t pa = page_to_phys(page);

    KEXPECT_EQ(map_page(pgd, 0x1000, pa, PAGE_USER_RO), 0);
    KEXPECT_EQ(map_page(pgd, 0x2000, pa, PAGE_KERNEL_RW), 0);
    KEXPECT_EQ(map_page(pgd, 0xBFFFF000, pa, PAGE_USER_RW), 0);    /* last user page */
    pte_t a = *lookup_pte(pgd, 0x1000), b = *lookup_pte(pgd, 0x2000),
          c = *lookup_pte(pgd, 0xBFFFF000);
    KEXPECT((a & (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER)) == (_PAGE_PRESENT | _PAGE_USER));
    KEXPECT((b & (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER)) == (_PAGE_PRESENT | _PAGE_RW));
    KEXPECT((c & (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER)) ==
            (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER));
    KEXPECT(lookup_pte(pgd, 0x00400000) == NULL);

    KEXPECT_EQ(map_page(pgd, KERNEL_BASE, pa, PAGE_USER_RW), -EINVAL);
    KEXPECT_EQ(map_page(pgd, 0x1234, pa, PAGE_USER_RW), -EINVAL);
    KEXPECT_EQ(map_page(pgd, 0x3000, pa + 1, PAGE_USER_RW), -EINVAL);
    KEXPECT_EQ(map_page(NULL, 0x3000, pa, PAGE_USER_RW), -EINVAL);
    KEXPECT_EQ(swapper_pg_dir[0], 0);              /* never touched the kernel's */

    pgd_free(pgd);
    __free_page(page);
    KEXPECT_EQ(nr_free_pages(), start);
}

KTEST(paging, write_to_read_only_mapping_faults)
{
    pgd_t *pgd = pgd_alloc();
    KASSERT(pgd != NULL);
    struct page *page = alloc_page(GFP_KERNEL);
    KASSERT(page != NULL);
    memset(page_address(page), 0x77, PAGE_SIZE);
    KASSERT_EQ(map_page(pgd, TEST_UVA, page_to_phys(page), PAGE_USER_RO), 0);

    pgd_t *old = current_pgd();
    uint8_t v = 0;
    unsigned long fixups0 = page_fault_fixups;
    switch_pgd(pgd);
    int r = probe_kernel_read_u8((const void *)(TEST_UVA + 5), &v);
    int w = probe_kernel_write_u8((void *)(TEST_UVA + 5), 0x11);    /* CR0.WP: faults */
    switch_pgd(old);
    KEXPECT_EQ(r, 0);
    KEXPECT_EQ(v, 0x77);
    KEXPECT_EQ(w, -EFAULT);
    KEXPECT_EQ(page_fault_fixups, fixups0 + 1);
    KEXPECT_EQ(((uint8_t *)page_address(page))[5], 0x77);

    /* Remapping read-write (replacing the PTE) lets the write through. */
    KASSERT_EQ(map_page(pgd, TEST_UVA, page_to_phys(page), PAGE_USER_RW), 0);
    switch_pgd(pgd);
    w = probe_kernel_write_u8((void *)(TEST_UVA + 5), 0x11);
    switch_pgd(old);
    KEXPECT_EQ(w, 0);
    KEXPECT_EQ(((uint8_t *)page_address(page))[5], 0x11);
    pgd_free(pgd);
    __free_page(page);
}

KTEST(paging, map_page_out_of_memory)
{
    pgd_t *pgd = pgd_alloc();
    KASSERT(pgd != NULL);
    unsigned long start = nr_free_pages();
    void *chain = NULL;
    unsigned long page;
    while ((page = __get_free_page(GFP_KERNEL | __GFP_NOWARN))) {
        *(void **)page = chain;
        chain = (void *)page;
    }
    /* A new page table is needed and there is no frame for it. */
    KEXPECT_EQ(map_page(pgd, TEST_UVA, 0x200000, PAGE_USER_RW), -ENOMEM);
    KEXPECT(lookup_pte(pgd, TEST_UVA) == NULL);
    while (chain) {
        void *next = *(void **)chain;
        free_page((unsigned long)chain);
        chain = next;
    }
    KEXPECT_EQ(nr_free_pages(), start);
    pgd_free(pgd);
}
