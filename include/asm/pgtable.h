/* include/asm/pgtable.h: i386 two-level page tables (no PAE), as Linux's
 * <asm/pgtable.h> names them.  mm/paging.c owns the kernel's directory
 * (swapper_pg_dir) and the per-process directories made by pgd_alloc().
 *
 *   virtual address:  | 31 .. 22 | 21 .. 12 | 11 .. 0 |
 *                     | pgd index| pte index|  offset |
 *
 *   CR3 -> pgd (1024 pgd_t) -> page table (1024 pte_t) -> 4 KiB frame
 *                          \-> or a 4 MiB frame if _PAGE_PSE (kernel half)
 *
 * Simplification: pgd_t/pte_t are plain integers, not Linux's one-member
 * structs (Linux wraps them so the compiler catches mix-ups).
 */
#ifndef _ASM_PGTABLE_H
#define _ASM_PGTABLE_H
#include <types.h>
#include <asm/layout.h>
#include <asm/percpu.h>

typedef uint32_t pgd_t;
typedef uint32_t pte_t;

#define PGDIR_SHIFT     22
#define PGDIR_SIZE      (1UL << PGDIR_SHIFT)          /* 4 MiB per pgd entry */
#define PTRS_PER_PGD    1024
#define PTRS_PER_PTE    1024
#define USER_PTRS_PER_PGD (TASK_SIZE / PGDIR_SIZE)    /* 768: entries 0..767 */

#define pgd_index(va)   (((unsigned long)(va) >> PGDIR_SHIFT) & (PTRS_PER_PGD - 1))
#define pte_index(va)   (((unsigned long)(va) >> PAGE_SHIFT) & (PTRS_PER_PTE - 1))

/* Bits of a pgd or pte entry (Intel SDM vol. 3, 4.3). */
#define _PAGE_PRESENT   0x001
#define _PAGE_RW        0x002     /* writable (kernel too: CR0.WP is set) */
#define _PAGE_USER      0x004     /* accessible from ring 3 */
#define _PAGE_PWT       0x008
#define _PAGE_PCD       0x010
#define _PAGE_ACCESSED  0x020     /* set by the CPU on any access */
#define _PAGE_DIRTY     0x040     /* set by the CPU on a write */
#define _PAGE_PSE       0x080     /* pgd entry maps 4 MiB directly */
#define _PAGE_GLOBAL    0x100     /* survives CR3 reloads (CR4.PGE) */
#define _PAGE_PROTNONE  0x200     /* software bit, only in NOT-present PTEs: the
                                   * frame is kept but mapped PROT_NONE (the CPU
                                   * ignores every bit of a non-present PTE;
                                   * Linux uses the same trick) */
#define PTE_FLAGS_MASK  0xFFF
#define PTE_PFN_MASK    0xFFFFF000

#define pte_present(p)  ((p) & _PAGE_PRESENT)
/* Does the PTE hold a frame (present, or PROT_NONE)? */
#define pte_has_page(p) ((p) & (_PAGE_PRESENT | _PAGE_PROTNONE))
#define pte_pfn(p)      ((p) >> PAGE_SHIFT)
#define pte_phys(p)     ((phys_addr_t)((p) & PTE_PFN_MASK))

/* Protections callers pass to map_page (_PAGE_PRESENT is always added). */
#define PAGE_USER_RO    (_PAGE_USER)
#define PAGE_USER_RW    (_PAGE_USER | _PAGE_RW)
#define PAGE_KERNEL_RO  0
#define PAGE_KERNEL_RW  (_PAGE_RW)

/* The kernel's page directory: the direct map of lowmem at KERNEL_BASE and
 * nothing below it.  Its kernel half (entries 768..1023) is built once by
 * paging_init() and never changes afterwards. */
extern pgd_t swapper_pg_dir[PTRS_PER_PGD];

/* --- per-process page tables (4 KiB pages, user half only) ---
 *
 * pgd_alloc: a new directory, user half empty, kernel half copied from
 *   swapper_pg_dir.  Because the kernel half never changes after boot (it is
 *   all 4 MiB PSE entries plus one static page table), copying at pgd_alloc
 *   time keeps every directory in sync; Linux i386 without PAE does the same
 *   and additionally walks a pgd_list when vmalloc changes the kernel half.
 *   Returns NULL when out of memory.
 * pgd_free: frees the directory and the page tables of its user half.  It
 *   does NOT free the frames those tables map: their owners (VMAs, the page
 *   cache) drop their own references.  Must not be the current directory.
 * map_page: map the 4 KiB page at user address va to physical pa with
 *   protection prot (_PAGE_RW, _PAGE_USER, ...; _PAGE_PRESENT is implied).
 *   Allocates the page table if needed.  An existing mapping is replaced.
 *   Returns 0, -ENOMEM (no memory for a page table) or -EINVAL (va not a
 *   page-aligned user address, pa not page-aligned).  Takes no reference
 *   on the frame: the caller manages page counts.
 * unmap_page: clear the PTE for va (if any) and flush the TLB entry.  Does
 *   not free the frame (see map_page) nor the page table (pgd_free does).
 *   map_page and unmap_page are for a directory of no mm (the tests'),
 *   loaded on this CPU at most: they flush here only (mm/ changes an mm's
 *   PTEs through set_pte_at and flush_tlb_mm_page).
 * lookup_pte: the PTE slot for va, or NULL if va has no page table (or is
 *   mapped by a 4 MiB kernel entry).  The slot may hold a non-present PTE.
 * switch_pgd: load pgd into CR3 (flushes non-global TLB entries) and note it
 *   in cpu_loaded_pgd.  Leaves cpu_tlbstate alone: switch_mm and leave_mm
 *   call it, and the tests, which load a directory of no mm with
 *   interrupts off and load the previous one back before they turn them on.
 */
pgd_t *pgd_alloc(void);
void pgd_free(pgd_t *pgd);
int map_page(pgd_t *pgd, unsigned long va, phys_addr_t pa, unsigned long prot);
void unmap_page(pgd_t *pgd, unsigned long va);
pte_t *lookup_pte(pgd_t *pgd, unsigned long va);
void switch_pgd(pgd_t *pgd);
pgd_t *current_pgd(void);              /* the directory in CR3 (virtual address) */

void paging_init(unsigned long max_pfn);   /* mm_init(): build and load swapper_pg_dir */

/* --- fixmaps (Linux's <asm/fixmap.h>): kernel pages at addresses fixed at
 * compile time, counted down from FIXADDR_TOP, for device registers outside
 * the direct map.  Their page table is in every directory's kernel half
 * from paging_init on, so a fixmap set later is seen by every process. */
enum fixed_addresses {
    FIX_APIC_BASE,                     /* the local APIC (kernel/x86/apic.c) */
    FIX_IO_APIC_BASE_0,                /* the first I/O APIC (kernel/x86/io_apic.c) */
    __end_of_fixed_addresses
};
#define fix_to_virt(idx) (FIXADDR_TOP - ((unsigned long)(idx) << PAGE_SHIFT))
/* Map fixmap idx to physical page pa, uncached (PCD|PWT: device registers). */
void set_fixmap_nocache(enum fixed_addresses idx, phys_addr_t pa);

/* --- control registers and the TLB --- */
static inline unsigned long __read_cr2(void)
{ unsigned long v; __asm__ volatile("mov %%cr2, %0" : "=r"(v)); return v; }
static inline unsigned long __read_cr3(void)
{ unsigned long v; __asm__ volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static inline void __write_cr3(unsigned long v)
{ __asm__ volatile("mov %0, %%cr3" :: "r"(v) : "memory"); }
static inline unsigned long __read_cr4(void)
{ unsigned long v; __asm__ volatile("mov %%cr4, %0" : "=r"(v)); return v; }
static inline void __write_cr4(unsigned long v)
{ __asm__ volatile("mov %0, %%cr4" :: "r"(v) : "memory"); }

/* Drop the TLB entry for one virtual address on this CPU only. */
static inline void __flush_tlb_one(unsigned long va)
{ __asm__ volatile("invlpg (%0)" :: "r"(va) : "memory"); }

/* The TLB shootdown (kernel/x86/smp.c, docs/smp.md), Linux 2.6.24's
 * arch/x86/kernel/tlb_32.c.  flush_tlb_mm_page: drop va's entry in mm's
 * address space on every CPU that may hold it: this one, and through the
 * INVALIDATE_TLB IPI the others in mm->cpu_vm_mask, of which those in lazy
 * TLB mode leave mm instead (leave_mm); it returns once they all have
 * (Linux's flush_tlb_page(vma, va)).  A kernel address: every online CPU.
 * flush_tlb_mm: every entry of mm, the same way (a lazy CPU leaves).
 * flush_tlb_page: va in the address space this CPU has (or keeps lazily)
 * loaded, or a kernel address.  flush_tlb_all: every entry, global ones
 * too, on every online CPU.  __flush_tlb_all: that on this CPU only.
 *
 * cpu_tlbstate (Linux's): the mm this CPU has loaded (active_mm, NULL when
 * it runs on swapper_pg_dir) and its state: TLBSTATE_OK while a task of
 * active_mm runs here, TLBSTATE_LAZY while a kernel thread keeps it loaded
 * (enter_lazy_tlb, include/mm.h).  Written by its CPU alone, interrupts
 * off.  leave_mm: a lazy CPU drops its mm (CR3 = swapper_pg_dir, out of
 * the mask, active_mm NULL); interrupts off.  cpu_loaded_pgd: the
 * directory each CPU has in CR3 (switch_pgd, and the APs'
 * swapper_pg_dir): what exit_mmap checks before it frees one. */
#define TLB_FLUSH_ALL 0xFFFFFFFFul
#define TLBSTATE_OK   1
#define TLBSTATE_LAZY 2
struct mm_struct;
struct tlb_state {
    struct mm_struct *active_mm;
    int state;
};
DECLARE_PER_CPU(struct tlb_state, cpu_tlbstate);
void flush_tlb_mm_page(struct mm_struct *mm, unsigned long va);
void flush_tlb_mm(struct mm_struct *mm);
void flush_tlb_page(unsigned long va);
void flush_tlb_all(void);
void __flush_tlb_all(void);
void leave_mm(int cpu);
DECLARE_PER_CPU(pgd_t *, cpu_loaded_pgd);
#endif
