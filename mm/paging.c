/* mm/paging.c: page tables.  Builds the kernel's page directory
 * (swapper_pg_dir) at boot and provides the small API later layers use to
 * build user address spaces: pgd_alloc/pgd_free, map_page/unmap_page,
 * lookup_pte, switch_pgd.  Sits on the page allocator (page tables are
 * frames from alloc_page) and under processes and VMAs (mm/memory.c).
 *
 * The kernel half (0xC0000000 up), identical in every directory:
 *
 *   pgd[768]        -> kernel_pt0: 1024 x 4 KiB PTEs for phys 0..4 MiB, so
 *                      that kernel text and rodata can be read-only
 *   pgd[769..]      -> 4 MiB PSE entries, phys 4 MiB .. end of lowmem RAM
 *   pgd[0..767]     -> empty in swapper_pg_dir: no identity map after boot,
 *                      so a NULL (or any user-address) dereference faults
 *
 * Kernel entries are global (CR4.PGE, when the CPU has it), so switching CR3
 * between processes keeps them in the TLB.  Nothing changes the kernel half
 * after paging_init(), so pgd_alloc() copying it is enough to keep every
 * directory in sync (no vmalloc area; see <asm/pgtable.h>).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <mm.h>
#include <asm/pgtable.h>

pgd_t swapper_pg_dir[PTRS_PER_PGD] __attribute__((aligned(PAGE_SIZE)));
static pte_t kernel_pt0[PTRS_PER_PTE] __attribute__((aligned(PAGE_SIZE)));
static bool have_pge;

extern char _text[], __stop_initcalls[];   /* .text .. end of .rodata (linker script) */

#define CR4_PGE  0x80
#define CPUID_PGE (1u << 13)

static bool cpu_has_pge(void)
{
    uint32_t a = 1, b, c = 0, d;
    __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
    return d & CPUID_PGE;
}

void paging_init(unsigned long max_pfn_)
{
    unsigned long lowmem_end = ALIGN_UP(max_pfn_ << PAGE_SHIFT, PGDIR_SIZE);
    unsigned long ro_start = (unsigned long)_text;
    unsigned long ro_end = ALIGN_UP((unsigned long)__stop_initcalls, PAGE_SIZE);

    if (lowmem_end > LOWMEM_LIMIT || !lowmem_end)
        lowmem_end = LOWMEM_LIMIT;
    have_pge = cpu_has_pge();
    unsigned long g = have_pge ? _PAGE_GLOBAL : 0;

    /* Phys 0..4 MiB in 4 KiB pages: text and rodata read-only.  (A kernel
     * image larger than 4 MiB would keep the rest of its text writable.) */
    for (unsigned long i = 0; i < PTRS_PER_PTE; i++) {
        unsigned long pa = i << PAGE_SHIFT, va = pa + KERNEL_BASE;
        unsigned long prot = _PAGE_PRESENT | g;
        if (va < ro_start || va >= ro_end)
            prot |= _PAGE_RW;
        kernel_pt0[i] = pa | prot;
    }
    memset(swapper_pg_dir, 0, sizeof swapper_pg_dir);
    swapper_pg_dir[pgd_index(KERNEL_BASE)] = virt_to_phys(kernel_pt0) | _PAGE_PRESENT | _PAGE_RW;
    for (unsigned long pa = PGDIR_SIZE; pa < lowmem_end; pa += PGDIR_SIZE)
        swapper_pg_dir[pgd_index(pa + KERNEL_BASE)] =
            pa | _PAGE_PRESENT | _PAGE_RW | _PAGE_PSE | g;

    if (have_pge)
        __write_cr4(__read_cr4() | CR4_PGE);
    __write_cr3(virt_to_phys(swapper_pg_dir));    /* the boot directory is gone */
    printk(KERN_INFO "paging: direct map of %lu MiB at %#x (4 MiB pages), "
           "kernel text read-only, %sglobal pages, no identity map\n",
           lowmem_end >> 20, KERNEL_BASE, have_pge ? "" : "no ");
}

pgd_t *current_pgd(void)
{
    return phys_to_virt(__read_cr3() & PTE_PFN_MASK);
}

void switch_pgd(pgd_t *pgd)
{
    __write_cr3(virt_to_phys(pgd));
}

pgd_t *pgd_alloc(void)
{
    pgd_t *pgd = (pgd_t *)get_zeroed_page(GFP_KERNEL);
    if (!pgd)
        return NULL;
    memcpy(pgd + USER_PTRS_PER_PGD, swapper_pg_dir + USER_PTRS_PER_PGD,
           (PTRS_PER_PGD - USER_PTRS_PER_PGD) * sizeof(pgd_t));
    return pgd;
}

void pgd_free(pgd_t *pgd)
{
    if (!pgd)
        return;
    if (WARN(pgd == swapper_pg_dir || pgd == current_pgd(),
             "pgd_free(%p): the kernel's or the current directory", pgd))
        return;                        /* refused: survivable */
    for (unsigned long i = 0; i < USER_PTRS_PER_PGD; i++)
        if (pgd[i] & _PAGE_PRESENT)
            free_page((unsigned long)phys_to_virt(pgd[i] & PTE_PFN_MASK));
    free_page((unsigned long)pgd);
}

int map_page(pgd_t *pgd, unsigned long va, phys_addr_t pa, unsigned long prot)
{
    if (!pgd || va >= TASK_SIZE || (va & ~PAGE_MASK) || (pa & ~PAGE_MASK))
        return -EINVAL;
    pgd_t *pde = &pgd[pgd_index(va)];
    if (!(*pde & _PAGE_PRESENT)) {
        unsigned long pt = get_zeroed_page(GFP_KERNEL);
        if (!pt)
            return -ENOMEM;
        /* The PDE allows everything; each PTE restricts (Linux does the same). */
        *pde = virt_to_phys(pt) | _PAGE_PRESENT | _PAGE_RW | _PAGE_USER;
    }
    pte_t *pte = (pte_t *)phys_to_virt(*pde & PTE_PFN_MASK) + pte_index(va);
    bool was_present = *pte & _PAGE_PRESENT;
    *pte = pa | _PAGE_PRESENT |
           (prot & (_PAGE_RW | _PAGE_USER | _PAGE_PWT | _PAGE_PCD | _PAGE_ACCESSED | _PAGE_DIRTY));
    if (was_present && pgd == current_pgd())
        flush_tlb_page(va);
    return 0;
}

pte_t *lookup_pte(pgd_t *pgd, unsigned long va)
{
    pgd_t pde = pgd[pgd_index(va)];
    if (!(pde & _PAGE_PRESENT) || (pde & _PAGE_PSE))
        return NULL;
    return (pte_t *)phys_to_virt(pde & PTE_PFN_MASK) + pte_index(va);
}

void unmap_page(pgd_t *pgd, unsigned long va)
{
    if (!pgd || va >= TASK_SIZE)
        return;
    pte_t *pte = lookup_pte(pgd, va & PAGE_MASK);
    if (!pte || !(*pte & _PAGE_PRESENT))
        return;
    *pte = 0;
    if (pgd == current_pgd())
        flush_tlb_page(va);
}

/* ---------------------------------------------------------------------- */
/* Tests: test=paging                                                     */
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
