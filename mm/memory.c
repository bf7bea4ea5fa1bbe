/* mm/memory.c: the page tables of user address spaces.  Layer: mm, between
 * the VMA bookkeeping (mm/mmap.c) and the raw page tables (mm/paging.c).
 *
 * What a user PTE can be:
 *   0                           nothing mapped yet (a fault fills it)
 *   frame | P | U [| RW]        mapped; RW clear on a private page means
 *                               "copy on write" if the VMA is writable
 *   frame | PROTNONE (P clear)  mapped PROT_NONE: the frame is kept but
 *                               every access faults
 *
 * A frame mapped by a PTE holds one reference (page->_count) per PTE.
 * fork shares private frames (two references, both PTEs read-only); the
 * first write on either side faults into do_wp_page(), which copies the
 * frame, or, if this PTE holds the only reference left, just makes it
 * writable again.  (Linux also keeps page->_mapcount and reverse maps to
 * find the PTEs of a page; Vellum never needs to, so _count is enough.)
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <asm/pgtable.h>
#include <asm/uaccess.h>

static inline struct page *pte_page(pte_t pte) { return pfn_to_page(pte_pfn(pte)); }

/* Store a PTE of mm; drop the stale TLB entry if mm is the loaded one. */
static void set_pte_at(struct mm_struct *mm, unsigned long va, pte_t *ptep, pte_t val)
{
    *ptep = val;
    if ((pgd_t *)mm->pgd == current_pgd())
        flush_tlb_page(va);
}

/* The PTE slot for va in mm, allocating the page table if needed (Linux's
 * pte_alloc).  NULL when out of memory. */
static pte_t *pte_alloc(struct mm_struct *mm, unsigned long va)
{
    pgd_t *pgd = (pgd_t *)mm->pgd;
    pte_t *ptep = lookup_pte(pgd, va);
    if (ptep)
        return ptep;
    unsigned long pt = get_zeroed_page(GFP_KERNEL);
    if (!pt)
        return NULL;
    /* The PDE allows everything; each PTE restricts (as map_page does). */
    pgd[pgd_index(va)] = virt_to_phys(pt) | _PAGE_PRESENT | _PAGE_RW | _PAGE_USER;
    return lookup_pte(pgd, va);
}

/* The PTE for frame page in a VMA with flags vm_flags.  writable: the page
 * may be written through this PTE (private pages: only if exclusively ours). */
static pte_t mk_pte(struct page *page, unsigned long vm_flags, bool writable)
{
    pte_t pte = (pte_t)page_to_phys(page);
    if (!(vm_flags & VM_ACCESS_FLAGS))
        return pte | _PAGE_PROTNONE;                 /* PROT_NONE: not present */
    pte |= _PAGE_PRESENT | _PAGE_USER;               /* i386: readable = executable */
    if ((vm_flags & VM_WRITE) && writable)
        pte |= _PAGE_RW;
    return pte;
}

/* A write to a present, read-only PTE of a writable VMA: copy-on-write. */
static int do_wp_page(struct vm_area_struct *vma, unsigned long address, pte_t *ptep,
                      pte_t pte)
{
    struct mm_struct *mm = vma->vm_mm;
    struct page *old = pte_page(pte);

    /* Shared mapping, or nobody else holds the frame (the other side of the
     * fork already copied or exited): reuse it, just make it writable. */
    if ((vma->vm_flags & VM_SHARED) || (page_count(old) == 1 && !old->mapping)) {
        set_pte_at(mm, address, ptep, pte | _PAGE_RW);
        page_fault_cow_reuse++;
        return 0;
    }
    struct page *new = alloc_page(GFP_KERNEL);
    if (!new)
        return VM_FAULT_OOM;
    memcpy(page_address(new), page_address(old), PAGE_SIZE);
    set_pte_at(mm, address, ptep, mk_pte(new, vma->vm_flags, true));
    put_page(old);                                   /* our reference to the shared frame */
    page_fault_cow++;
    return 0;
}

int handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags)
{
    struct mm_struct *mm = vma->vm_mm;
    address &= PAGE_MASK;
    pte_t *ptep = pte_alloc(mm, address);
    if (!ptep)
        return VM_FAULT_OOM;
    pte_t pte = *ptep;

    if (!pte_has_page(pte)) {
        /* Nothing there yet.  A backed VMA asks its object (a file, a later
         * issue); anonymous memory gets a fresh zeroed frame ("demand
         * zero").  Linux maps a shared read-only zero page on a read fault
         * and copies it on the first write; we allocate at once: simpler,
         * one fault less per written page, more memory for read-only use. */
        struct page *page;
        bool writable = true;
        if (vma->vm_ops && vma->vm_ops->fault) {
            int err = vma->vm_ops->fault(vma, address, &page);
            if (err)
                return err == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
            writable = vma->vm_flags & VM_SHARED;    /* private file page: COW later */
        } else {
            page = alloc_page(GFP_KERNEL | __GFP_ZERO);
            if (!page)
                return VM_FAULT_OOM;
        }
        set_pte_at(mm, address, ptep, mk_pte(page, vma->vm_flags, writable));
        mm->rss++;
        page_fault_demand_zero++;
        return 0;
    }
    if (!pte_present(pte))          /* PROT_NONE frame: the caller should not be here */
        return VM_FAULT_SIGSEGV;
    if ((flags & FAULT_FLAG_WRITE) && !(pte & _PAGE_RW)) {
        if (!(vma->vm_flags & VM_WRITE))
            return VM_FAULT_SIGSEGV;
        return do_wp_page(vma, address, ptep, pte);
    }
    /* Present and allowed: another path already fixed it, or a stale TLB
     * entry faulted.  Drop the entry and let the access retry. */
    flush_tlb_page(address);
    return 0;
}

void zap_page_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
    pgd_t *pgd = (pgd_t *)mm->pgd;
    for (unsigned long va = start & PAGE_MASK; va < end && va < TASK_SIZE; ) {
        pte_t *ptep = lookup_pte(pgd, va);
        if (!ptep) {                                 /* no page table: skip 4 MiB */
            va = (va & ~(PGDIR_SIZE - 1)) + PGDIR_SIZE;
            if (!va)
                break;
            continue;
        }
        pte_t pte = *ptep;
        if (pte_has_page(pte)) {
            set_pte_at(mm, va, ptep, 0);
            put_page(pte_page(pte));
            mm->rss--;
        }
        va += PAGE_SIZE;
    }
}

void change_protection(struct vm_area_struct *vma, unsigned long start, unsigned long end,
                       unsigned long newflags)
{
    struct mm_struct *mm = vma->vm_mm;
    for (unsigned long va = start; va < end; va += PAGE_SIZE) {
        pte_t *ptep = lookup_pte((pgd_t *)mm->pgd, va);
        if (!ptep || !pte_has_page(*ptep))
            continue;
        pte_t pte = *ptep;
        /* A private page stays read-only when write is added: if it is
         * shared with a fork, the next write must copy it; if not,
         * do_wp_page() just sets RW. */
        bool writable = (newflags & VM_SHARED) || (pte_present(pte) && (pte & _PAGE_RW));
        set_pte_at(mm, va, ptep, mk_pte(pte_page(pte), newflags, writable));
    }
}

int copy_page_range(struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *vma)
{
    for (unsigned long va = vma->vm_start; va < vma->vm_end; va += PAGE_SIZE) {
        pte_t *sptep = lookup_pte((pgd_t *)src->pgd, va);
        if (!sptep || !pte_has_page(*sptep))
            continue;
        pte_t *dptep = pte_alloc(dst, va);
        if (!dptep)
            return -ENOMEM;
        if (!(vma->vm_flags & VM_SHARED) && (*sptep & _PAGE_RW))
            set_pte_at(src, va, sptep, *sptep & ~_PAGE_RW);   /* COW: parent side */
        get_page(pte_page(*sptep));
        *dptep = *sptep;                                      /* child side: same, RO */
        dst->rss++;
    }
    return 0;
}

int access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, int len, int write)
{
    int done = 0;
    while (done < len) {
        unsigned long va = addr + done;
        struct vm_area_struct *vma = find_vma(mm, va);
        if (!vma)
            break;
        if (vma->vm_start > va && ((vma->vm_flags & VM_GROWSDOWN) == 0 ||
                                   expand_stack(vma, va)))
            break;
        if (!(vma->vm_flags & (write ? VM_WRITE : VM_READ)))
            break;
        pte_t *ptep = lookup_pte((pgd_t *)mm->pgd, va);
        if (!ptep || !pte_present(*ptep) || (write && !(*ptep & _PAGE_RW))) {
            if (handle_mm_fault(vma, va, write ? FAULT_FLAG_WRITE : 0))
                break;
            ptep = lookup_pte((pgd_t *)mm->pgd, va);
        }
        int n = min((int)(PAGE_SIZE - (va & ~PAGE_MASK)), len - done);
        char *kaddr = (char *)page_address(pte_page(*ptep)) + (va & ~PAGE_MASK);
        if (write)
            memcpy(kaddr, (char *)buf + done, n);
        else
            memcpy((char *)buf + done, kaddr, n);
        done += n;
    }
    return done;
}
