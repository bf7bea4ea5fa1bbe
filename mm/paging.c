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
 *   pgd[1023]       -> fixmap_pt: the fixmaps (set_fixmap_nocache: the
 *                      local APIC's registers), empty until set
 *
 * Kernel entries are global (CR4.PGE, when the CPU has it), so switching CR3
 * between processes keeps them in the TLB.  Nothing changes the kernel half
 * after paging_init() (a fixmap changes a PTE in fixmap_pt, which every
 * directory shares), so pgd_alloc() copying it is enough to keep every
 * directory in sync (no vmalloc area; see <asm/pgtable.h>).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <mm.h>
#include <asm/pgtable.h>
#include <asm/processor.h>

pgd_t swapper_pg_dir[PTRS_PER_PGD] __attribute__((aligned(PAGE_SIZE)));
static pte_t kernel_pt0[PTRS_PER_PTE] __attribute__((aligned(PAGE_SIZE)));
static pte_t fixmap_pt[PTRS_PER_PTE] __attribute__((aligned(PAGE_SIZE)));
static bool have_pge;

extern char _text[], __stop_initcalls[];   /* .text .. end of .rodata (linker script) */

static bool cpu_has_pge(void)
{
    return cpuid_edx(1) & (1u << X86_FEATURE_PGE);
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

    swapper_pg_dir[pgd_index(FIXADDR_START)] = virt_to_phys(fixmap_pt) | _PAGE_PRESENT | _PAGE_RW;

    if (have_pge)
        __write_cr4(__read_cr4() | X86_CR4_PGE);
    __write_cr3(virt_to_phys(swapper_pg_dir));    /* the boot directory is gone */
    this_cpu_write(cpu_loaded_pgd, swapper_pg_dir);
    printk(KERN_INFO "paging: direct map of %lu MiB at %#x (4 MiB pages), "
           "kernel text read-only, %sglobal pages, no identity map\n",
           lowmem_end >> 20, KERNEL_BASE, have_pge ? "" : "no ");
}

void set_fixmap_nocache(enum fixed_addresses idx, phys_addr_t pa)
{
    BUG_ON(idx >= __end_of_fixed_addresses || (pa & ~PAGE_MASK));
    unsigned long va = fix_to_virt(idx);
    fixmap_pt[pte_index(va)] = pa | _PAGE_PRESENT | _PAGE_RW | _PAGE_PCD | _PAGE_PWT |
                               (have_pge ? _PAGE_GLOBAL : 0);
    flush_tlb_page(va);
}

pgd_t *current_pgd(void)
{
    return phys_to_virt(__read_cr3() & PTE_PFN_MASK);
}

void switch_pgd(pgd_t *pgd)
{
    __write_cr3(virt_to_phys(pgd));
    this_cpu_write(cpu_loaded_pgd, pgd);    /* whom a TLB shootdown asks (kernel/x86/smp.c) */
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
        __flush_tlb_one(va);           /* no mm's: loaded here at most */
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
        __flush_tlb_one(va);           /* no mm's: loaded here at most */
}
