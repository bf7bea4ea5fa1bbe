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
 * A frame mapped by a PTE holds one reference (page->_count) per PTE, and
 * counts the PTE in page->_mapcount (page_mapcount() = _mapcount + 1).
 * A fault on an empty PTE goes, as in Linux's handle_pte_fault, to
 * do_fault() when an object backs the VMA and to do_anonymous_page() when
 * none does.  fork shares private frames (copy_one_pte: two references,
 * both PTEs read-only); the first write on either side faults into
 * do_wp_page(), which copies the frame (wp_page_copy), or, if this PTE
 * holds the only reference left, just makes it writable again.
 *
 * The zero page (Linux's ZERO_PAGE, <mm.h>): a read fault on private
 * anonymous memory maps the one global page of zeros read-only instead of
 * allocating and zeroing a frame (do_anonymous_page, its read branch, as
 * Linux's).  Such a PTE holds no reference and is not in _mapcount (Linux:
 * vm_normal_page() is NULL for it), so vm_normal_page() below is what
 * every walker asks; it is counted in rss like any mapped page (as Linux
 * 2.6 counted it in file_rss; today's Linux leaves it out).  The first
 * write faults into do_wp_page(), which maps a fresh zeroed frame in its
 * place (Linux's wp_page_copy for is_zero_pfn): zeroing, not copying, and
 * nothing to put.
 *
 * File pages (vma->vm_ops->fault = filemap_fault) are page-cache pages:
 *   MAP_SHARED   the PTE maps the cache page itself.  A read fault maps it
 *                read-only; a write fault (or the first write to a
 *                read-only PTE) makes it writable and marks the page dirty
 *                (set_page_dirty, every buffer of it too).  Writeback write-
 *                protects the PTEs again (page_mkclean), so the next write
 *                faults and re-dirties: Linux's dirty tracking, without
 *                ->page_mkwrite (the filesystem is not asked first; a full
 *                disk shows up at writeback, not as SIGBUS at the fault).
 *                The fault that dirties the page also sets the file's
 *                mtime and ctime (file_update_time), as Linux's
 *                fault_dirty_shared_page does for a filesystem without
 *                ->page_mkwrite: so a store after writeback (page_mkclean)
 *                updates them again, and stores to a page already dirty
 *                and writable do not (no fault).
 *   MAP_PRIVATE  a read fault maps the cache page read-only; a write fault
 *                copies it into an anonymous page (COW), which the file
 *                never sees.
 * Fault-around (Linux's do_fault_around): a read fault on a file mapping
 * also maps the neighbours in its 16-page block that are already cached
 * and ready (vm_ops->map_pages, filemap_map_pages), read-only in both
 * kinds of mapping, so a first write still faults: dirty tracking and COW
 * work as for a page ->fault mapped.  Simplified: Linux tries map_pages
 * first and calls ->fault only when the faulting page was not ready; we
 * call ->fault first, always (one page-cache lookup more per fault).
 * Reverse mapping: to find the PTEs of a file page we walk the VMAs on
 * mapping->i_mmap (Linux's "object-based rmap"); anonymous pages have none.
 */
#include <kernel.h>
#include <asm/cmpxchg.h>
#include <string.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <asm/pgtable.h>
#include <asm/uaccess.h>
#include <pagemap.h>
#include <buffer_head.h>
#include <swap.h>
#include <vmstat.h>
#include "internal.h"            /* move_page_tables, for mm/mremap.c */

struct filemap_fault_stats filemap_fault_stats;

/* The zero page itself (Linux: arch/x86/kernel/head_32.S, .bss..page_aligned).
 * In the kernel image, so PG_reserved: put_page could never free it. */
char empty_zero_page[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

static inline struct page *pte_page(pte_t pte) { return pfn_to_page(pte_pfn(pte)); }

/* One more frame mapped in mm, and the peak that getrusage reports.
 * mm->page_table_lock held: faults run at once under mmap_sem read. */
static void mm_rss_inc(struct mm_struct *mm)
{
    if (++mm->rss > mm->hiwater_rss)
        mm->hiwater_rss = mm->rss;
}

/* The page a PTE that holds a frame maps, if it is a "normal" page, one
 * whose references and mapcount the PTE holds; NULL for the zero page
 * (Linux's vm_normal_page, which also says NULL for VM_PFNMAP mappings we
 * do not have). */
static struct page *vm_normal_page(pte_t pte)
{
    if (is_zero_pfn(pte_pfn(pte)))
        return NULL;
    return pte_page(pte);
}

/* One more / one less PTE maps page (Linux's page_add_*_rmap / page_remove_rmap).
 * The first and last mapping count the page in /proc/meminfo's Mapped
 * (a page-cache page) or AnonPages. */
static void page_add_rmap(struct page *page)
{
    if (++page->_mapcount == 0)
        inc_page_state(page->mapping ? NR_FILE_MAPPED : NR_ANON_PAGES);
}

static void page_remove_rmap(struct page *page)
{
    BUG_ON(--page->_mapcount < -1);       /* more unmaps than maps */
    if (page->_mapcount < 0)
        dec_page_state(page->mapping ? NR_FILE_MAPPED : NR_ANON_PAGES);
}

/* A page-cache page was (or may have been) written through a mapping: any
 * byte may have changed, so the whole page is dirty, every buffer of it
 * (Linux's __set_page_dirty_buffers; block_write_full_page writes only the
 * dirty buffers when some are marked). */
static void set_page_dirty_mapped(struct page *page)
{
    if (!page->mapping)
        return;                         /* truncated meanwhile: nothing to write */
    if (PagePrivate(page)) {
        struct buffer_head *head = (struct buffer_head *)page->private, *bh = head;
        do {
            set_buffer_dirty(bh);
            bh = bh->b_this_page;
        } while (bh != head);
    }
    set_page_dirty(page);
}

/* Store a PTE of mm and return the old one.  One atomic exchange: another
 * CPU running mm's user code may set the old PTE's accessed and dirty bits
 * up to that instant, and they come back in the old value (Linux's
 * ptep_get_and_clear); callers that care for those bits read them there.
 * Then, if the old PTE was present, every CPU in mm's cpu_vm_mask drops
 * the stale TLB entry (a lazy one drops mm: flush_tlb_mm_page).  A PTE
 * that was not present needs no flush: x86 never caches a translation
 * whose present bit is 0 (Intel SDM vol. 3, "Caching Translation
 * Information"), so filling one -- every demand fault -- makes no TLB
 * entry stale (Linux's set_pte_at never flushes; its callers that replace
 * a present PTE flush, as ptep_clear_flush). */
static pte_t set_pte_at(struct mm_struct *mm, unsigned long va, pte_t *ptep, pte_t val)
{
    pte_t old = xchg(ptep, val);
    if (old & _PAGE_PRESENT)
        flush_tlb_mm_page(mm, va);
    return old;
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
    spin_lock(&mm->page_table_lock);
    if (lookup_pte(pgd, va)) {          /* another thread's fault, on another CPU */
        spin_unlock(&mm->page_table_lock);
        free_page(pt);
        return lookup_pte(pgd, va);
    }
    /* The PDE allows everything; each PTE restricts (as map_page does). */
    pgd[pgd_index(va)] = virt_to_phys(pt) | _PAGE_PRESENT | _PAGE_RW | _PAGE_USER;
    spin_unlock(&mm->page_table_lock);
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

void do_set_pte(struct vm_area_struct *vma, unsigned long address, struct page *page,
                pte_t *ptep)
{
    struct mm_struct *mm = vma->vm_mm;
    spin_lock(&mm->page_table_lock);
    if (pte_has_page(*ptep)) {          /* another thread's fault got there first */
        spin_unlock(&mm->page_table_lock);
        put_page(page);
        return;
    }
    set_pte_at(mm, address, ptep, mk_pte(page, vma->vm_flags, false));
    page_add_rmap(page);
    mm_rss_inc(mm);
    spin_unlock(&mm->page_table_lock);
}

/* After a read fault at address (its PTE: ptep) was resolved: the other
 * pages of its FAULT_AROUND_PAGES-aligned block inside the VMA (so inside
 * ptep's page table: 64 KiB blocks never straddle a 4 MiB one), as Linux's
 * do_fault_around. */
static void do_fault_around(struct vm_area_struct *vma, unsigned long address, pte_t *ptep)
{
    unsigned long block = address & ~(FAULT_AROUND_PAGES * PAGE_SIZE - 1);
    unsigned long start = max(block, vma->vm_start);
    unsigned long end = min(block + FAULT_AROUND_PAGES * PAGE_SIZE, vma->vm_end);
    struct vm_fault vmf = {
        .pgoff = vma->vm_pgoff + ((start - vma->vm_start) >> PAGE_SHIFT),
        .address = start,
        .pte = ptep - ((address - start) >> PAGE_SHIFT),
    };
    vmf.max_pgoff = vmf.pgoff + ((end - start) >> PAGE_SHIFT) - 1;
    vma->vm_ops->map_pages(vma, &vmf);
}

/* The copy of copy-on-write: old (the frame the read-only PTE pte at
 * ptep maps) is shared, so the writer gets a private copy of it, mapped
 * writable in its place (Linux's wp_page_copy). */
static int wp_page_copy(struct vm_area_struct *vma, unsigned long address, pte_t *ptep,
                        pte_t pte, struct page *old)
{
    struct mm_struct *mm = vma->vm_mm;
    /* Our own reference while the allocation may sleep: reclaim leaves a
     * page alone when someone beyond the cache and its PTEs holds it, and
     * the PTE is re-checked after (Linux: pte_same under the PTE lock). */
    get_page(old);
    struct page *new = alloc_page(GFP_HIGHUSER);
    if (!new) {
        put_page(old);
        return VM_FAULT_OOM;
    }
    memcpy(page_address(new), page_address(old), PAGE_SIZE);
    spin_lock(&mm->page_table_lock);
    if (*ptep != pte) {                 /* changed meanwhile (another thread): retry */
        spin_unlock(&mm->page_table_lock);
        put_page(new);
        put_page(old);
        return 0;
    }
    put_page(old);
    set_pte_at(mm, address, ptep, mk_pte(new, vma->vm_flags, true));
    page_add_rmap(new);
    page_remove_rmap(old);
    spin_unlock(&mm->page_table_lock);
    if (old->mapping)
        filemap_fault_stats.private_cow++;           /* a private copy of a file page */
    put_page(old);                                   /* our reference to the shared frame */
    page_fault_cow++;
    return 0;
}

/* A write to a present, read-only PTE of a writable VMA: copy-on-write. */
static int do_wp_page(struct vm_area_struct *vma, unsigned long address, pte_t *ptep,
                      pte_t pte)
{
    struct mm_struct *mm = vma->vm_mm;
    struct page *old = vm_normal_page(pte);

    if (!old) {
        /* The first write to a page that was only read: the zero page.
         * A zeroed frame of our own, no copy; the zero page's PTE held no
         * reference, so there is none to put (Linux's wp_page_copy with
         * is_zero_pfn: alloc_zeroed_user_highpage).  Only private
         * anonymous VMAs map it, so the reuse case below cannot apply. */
        BUG_ON(vma->vm_flags & VM_SHARED);
        struct page *new = alloc_page(GFP_HIGHUSER | __GFP_ZERO);
        if (!new)
            return VM_FAULT_OOM;
        spin_lock(&mm->page_table_lock);
        if (*ptep != pte) {                          /* changed meanwhile: retry */
            spin_unlock(&mm->page_table_lock);
            put_page(new);
            return 0;
        }
        set_pte_at(mm, address, ptep, mk_pte(new, vma->vm_flags, true));
        page_add_rmap(new);
        spin_unlock(&mm->page_table_lock);
        page_fault_zero_cow++;
        return 0;
    }
    /* Shared mapping, or nobody else holds the frame (the other side of the
     * fork already copied or exited): reuse it, just make it writable. */
    if ((vma->vm_flags & VM_SHARED) || (page_count(old) == 1 && !old->mapping)) {
        bool dirtied = (vma->vm_flags & VM_SHARED) && vma->vm_file && old->mapping;
        if (dirtied) {
            set_page_dirty_mapped(old);              /* first write since clean */
            filemap_fault_stats.shared_dirtied++;
        }
        spin_lock(&mm->page_table_lock);
        if (*ptep == pte)                            /* else changed meanwhile: retry */
            set_pte_at(mm, address, ptep, pte | _PAGE_RW);
        spin_unlock(&mm->page_table_lock);
        page_fault_cow_reuse++;
        if (dirtied) {
            balance_dirty_pages_ratelimited(old->mapping);
            file_update_time(vma->vm_file);          /* a store is a write */
        }
        return 0;
    }
    return wp_page_copy(vma, address, ptep, pte, old);
}

/* Map page, new to this address space, at address (its PTE: ptep), and
 * count it.  mmap_sem is held for reading only, so another thread of the
 * process may have faulted on the same page meanwhile (while a read or an
 * allocation slept, or at once on another CPU): under page_table_lock, a
 * filled PTE wins and our page goes back (Linux: pte_same under the PTE
 * lock). */
static void map_new_page(struct vm_area_struct *vma, unsigned long address, pte_t *ptep,
                         struct page *page, bool writable)
{
    struct mm_struct *mm = vma->vm_mm;
    spin_lock(&mm->page_table_lock);
    if (pte_has_page(*ptep)) {
        spin_unlock(&mm->page_table_lock);
        put_page(page);
        return;
    }
    set_pte_at(mm, address, ptep, mk_pte(page, vma->vm_flags, writable));
    page_add_rmap(page);
    mm_rss_inc(mm);
    spin_unlock(&mm->page_table_lock);
    page_fault_demand_zero++;
}

/* A fault with no page yet in a VMA its object backs (a file): the object
 * finds the page (filemap_fault, which may sleep reading it from disk), and
 * it is mapped (Linux's do_fault: do_read_fault, do_cow_fault,
 * do_shared_fault in one).  mmap_sem is held (for reading), so the page
 * table is still there when ->fault returns; the slot may have been filled
 * by another thread's fault meanwhile (map_new_page). */
static int do_fault(struct vm_area_struct *vma, unsigned long address, pte_t *ptep,
                    unsigned int flags)
{
    struct page *page;
    struct address_space *dirtied = NULL;
    bool writable = true;
    int err = vma->vm_ops->fault(vma, address, &page);
    if (err)
        return err == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
    if (vma->vm_flags & VM_SHARED) {
        /* Writable only for a write: a read-only PTE means the first
         * write faults again and dirties the page then. */
        writable = flags & FAULT_FLAG_WRITE;
        if (writable) {
            set_page_dirty_mapped(page);
            filemap_fault_stats.shared_dirtied++;
            dirtied = page->mapping;
        }
    } else if (flags & FAULT_FLAG_WRITE) {
        /* Private write: copy now (one fault, not two). */
        struct page *copy = alloc_page(GFP_HIGHUSER);
        if (!copy) {
            put_page(page);
            return VM_FAULT_OOM;
        }
        memcpy(page_address(copy), page_address(page), PAGE_SIZE);
        put_page(page);
        page = copy;
        page_fault_cow++;
        filemap_fault_stats.private_cow++;
    } else {
        writable = false;                    /* private: COW on the first write */
    }
    map_new_page(vma, address, ptep, page, writable);
    if (!(flags & FAULT_FLAG_WRITE) && vma->vm_ops->map_pages)
        do_fault_around(vma, address, ptep);
    if (dirtied) {
        balance_dirty_pages_ratelimited(dirtied);   /* PTE set: may write back, sleep */
        file_update_time(vma->vm_file);             /* a store is a write */
    }
    return 0;
}

/* A fault with no page yet in anonymous memory (Linux's
 * do_anonymous_page).  A read of private memory maps the zero page,
 * read-only, with no reference taken (Linux: my_zero_pfn); its first write
 * faults again into do_wp_page().  Otherwise (a write, or shared anonymous
 * memory, which needs one frame both sides of a fork see) a fresh zeroed
 * frame: "demand zero". */
static int do_anonymous_page(struct vm_area_struct *vma, unsigned long address, pte_t *ptep,
                             unsigned int flags)
{
    if (!(flags & FAULT_FLAG_WRITE) && !(vma->vm_flags & VM_SHARED)) {
        struct mm_struct *mm = vma->vm_mm;
        spin_lock(&mm->page_table_lock);
        if (pte_has_page(*ptep)) {      /* another thread's fault got there first */
            spin_unlock(&mm->page_table_lock);
            return 0;
        }
        set_pte_at(mm, address, ptep, mk_pte(ZERO_PAGE(address), vma->vm_flags, false));
        mm_rss_inc(mm);
        spin_unlock(&mm->page_table_lock);
        page_fault_demand_zero++;
        page_fault_zero_page++;
        return 0;
    }
    struct page *page = alloc_page(GFP_HIGHUSER | __GFP_ZERO);
    if (!page)
        return VM_FAULT_OOM;
    map_new_page(vma, address, ptep, page, true);
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
        /* Nothing there yet.  A backed VMA asks its object (a file:
         * filemap_fault); private anonymous memory maps the zero page on a
         * read and gets a fresh zeroed frame on a write ("demand zero"). */
        if (vma->vm_ops && vma->vm_ops->fault)
            return do_fault(vma, address, ptep, flags);
        return do_anonymous_page(vma, address, ptep, flags);
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
        /* page_table_lock: MADV_DONTNEED zaps with mmap_sem held for
         * reading, while other threads' faults fill PTEs. */
        spin_lock(&mm->page_table_lock);
        pte_t pte = *ptep;
        if (pte_has_page(pte)) {
            struct page *page = vm_normal_page(pte);
            pte = set_pte_at(mm, va, ptep, 0);       /* with its latest dirty bit */
            mm->rss--;
            spin_unlock(&mm->page_table_lock);
            if (page) {                              /* not the zero page */
                if ((pte & _PAGE_DIRTY) && page->mapping)
                    set_page_dirty_mapped(page);     /* written through this PTE */
                page_remove_rmap(page);
                put_page(page);
            }
        } else {
            spin_unlock(&mm->page_table_lock);
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
        struct page *page = pte_page(pte);
        if ((pte & _PAGE_DIRTY) && page->mapping)
            set_page_dirty_mapped(page);             /* mk_pte drops the D bit */
        /* (The zero page is never RW, so it stays read-only below.) */
        /* A private page stays read-only when write is added: if it is
         * shared with a fork, the next write must copy it; if not,
         * do_wp_page() just sets RW.  A shared file page too, unless it
         * already was writable: its first write must fault to dirty it. */
        bool writable = ((newflags & VM_SHARED) && !vma->vm_file) ||
                        (pte_present(pte) && (pte & _PAGE_RW));
        set_pte_at(mm, va, ptep, mk_pte(page, newflags, writable));
    }
}

/* fork's copy of one present PTE (Linux's copy_one_pte): the child maps
 * the same frame.  A private writable page becomes read-only on both sides,
 * so that the first write on either side faults into do_wp_page() and
 * copies (copy-on-write). */
static void copy_one_pte(struct mm_struct *dst, struct mm_struct *src, pte_t *dptep,
                         pte_t *sptep, struct vm_area_struct *vma, unsigned long va)
{
    if (!(vma->vm_flags & VM_SHARED) && (*sptep & _PAGE_RW))
        set_pte_at(src, va, sptep, *sptep & ~_PAGE_RW);   /* COW: parent side */
    struct page *page = vm_normal_page(*sptep);
    if (page) {                                           /* the zero page: no ref */
        get_page(page);
        page_add_rmap(page);
    }
    *dptep = *sptep;                                      /* child side: same, RO */
    mm_rss_inc(dst);
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
        if (!pte_has_page(*sptep))          /* reclaim unmapped it meanwhile */
            continue;
        copy_one_pte(dst, src, dptep, sptep, vma, va);
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
            continue;       /* look again: reclaim may have unmapped it if the fault slept */
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

/* mremap's move of the PTEs of [old_addr, old_addr + len) to new_addr in
 * the same mm (Linux's move_page_tables).  Each PTE goes as it is (frame,
 * permission, dirty and accessed bits): the frame's reference, mapcount
 * and rss go with it, and set_pte_at flushes the old address's TLB entry.
 * A file page is found again through the new VMA, which has the same
 * vm_pgoff for it (vma_address).  With share the PTE is copied instead,
 * the frame one reference and mapping more (fork's copy_one_pte): shared
 * anonymous memory that stays mapped at old_addr too (MREMAP_DONTUNMAP,
 * old_len 0), whose frames are its only object here.  Simplified on
 * purpose: one PTE at a time (Linux moves whole page tables when both
 * ranges are PMD-aligned: only faster), and the emptied tables stay.
 * Returns the bytes done: less than len only when a page table for
 * new_addr could not be allocated. */
unsigned long move_page_tables(struct mm_struct *mm, unsigned long old_addr,
                               unsigned long new_addr, unsigned long len, bool share)
{
    unsigned long done;
    for (done = 0; done < len; done += PAGE_SIZE) {
        pte_t *oldp = lookup_pte((pgd_t *)mm->pgd, old_addr + done);
        if (!oldp || !pte_has_page(*oldp))
            continue;
        pte_t *newp = pte_alloc(mm, new_addr + done);
        if (!newp)
            break;
        pte_t pte = *oldp;              /* again: reclaim may have unmapped it */
        if (!pte_has_page(pte))
            continue;
        if (share) {
            struct page *page = vm_normal_page(pte);
            if (page) {
                get_page(page);
                page_add_rmap(page);
            }
            mm_rss_inc(mm);
        } else {
            pte = set_pte_at(mm, old_addr + done, oldp, 0);   /* with its latest dirty bit */
        }
        set_pte_at(mm, new_addr + done, newp, pte);
    }
    return done;
}

/* ---- file mappings: msync, truncate, writeback ------------------------ */

void msync_pte_range(struct vm_area_struct *v, unsigned long start, unsigned long end)
{
    struct mm_struct *mm = v->vm_mm;
    for (unsigned long va = start; va < end; va += PAGE_SIZE) {
        pte_t *ptep = lookup_pte((pgd_t *)mm->pgd, va);
        if (!ptep || !pte_present(*ptep) || !(*ptep & _PAGE_DIRTY))
            continue;
        struct page *page = pte_page(*ptep);
        set_pte_at(mm, va, ptep, *ptep & ~_PAGE_DIRTY);   /* now the page's */
        set_page_dirty_mapped(page);   /* dirty anyway: the bit cannot be lost */
    }
}

/* The user address at which vma maps file page pgoff, or 0 if it does not. */
static unsigned long vma_address(struct vm_area_struct *v, unsigned long pgoff)
{
    if (pgoff < v->vm_pgoff || pgoff - v->vm_pgoff >= ((v->vm_end - v->vm_start) >> PAGE_SHIFT))
        return 0;
    return v->vm_start + ((pgoff - v->vm_pgoff) << PAGE_SHIFT);
}

/*
 * Truncate's half of the job (Linux's unmap_mapping_range with even_cows):
 * the pages beyond the new EOF leave every address space that maps them.
 * Caller holds i_mutex.  We do not take the mms' mmap_sem: Vellum is
 * uniprocessor and not preemptible, and nothing here sleeps, so no fault
 * can be half-way through one of these PTEs (filemap_fault re-checks
 * i_size after its last sleep, and truncate set i_size before calling us).
 */
void unmap_mapping_range(struct address_space *mapping, unsigned long pgoff)
{
    unsigned long flags;
    struct vm_area_struct *v;
    spin_lock_irqsave(&mapping->i_mmap_lock, flags);
    list_for_each_entry(v, &mapping->i_mmap, shared) {
        unsigned long vpages = (v->vm_end - v->vm_start) >> PAGE_SHIFT;
        if (v->vm_pgoff + vpages <= pgoff)
            continue;                               /* wholly before the cut */
        unsigned long start = pgoff <= v->vm_pgoff ? v->vm_start
                              : v->vm_start + ((pgoff - v->vm_pgoff) << PAGE_SHIFT);
        unsigned long rss0 = v->vm_mm->rss;
        zap_page_range(v->vm_mm, start, v->vm_end);
        filemap_fault_stats.unmapped += rss0 - v->vm_mm->rss;
    }
    spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
}

int page_mkclean(struct page *page)
{
    struct address_space *mapping = page->mapping;
    int dirty = 0;
    unsigned long flags;
    struct vm_area_struct *v;
    if (!mapping)
        return 0;
    spin_lock_irqsave(&mapping->i_mmap_lock, flags);
    list_for_each_entry(v, &mapping->i_mmap, shared) {
        if (!(v->vm_flags & VM_SHARED))
            continue;                   /* private PTEs of a cache page are read-only */
        unsigned long va = vma_address(v, page->index);
        if (!va)
            continue;
        pte_t *ptep = lookup_pte((pgd_t *)v->vm_mm->pgd, va);
        if (!ptep || !pte_present(*ptep) || pte_page(*ptep) != page)
            continue;
        if (*ptep & (_PAGE_RW | _PAGE_DIRTY)) {
            pte_t old = set_pte_at(v->vm_mm, va, ptep, *ptep & ~(_PAGE_RW | _PAGE_DIRTY));
            dirty |= !!(old & _PAGE_DIRTY);
            filemap_fault_stats.mkclean++;
        }
    }
    spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
    return dirty;
}

/* ---- reverse mapping for reclaim (mm/vmscan.c) ------------------------
 * Reclaim finds the PTEs of a page-cache page the way page_mkclean does:
 * the VMAs on mapping->i_mmap, each one's address for the page's index.
 * It takes no mmap_sem (Linux's try_to_unmap takes none either: it holds
 * the page-table lock of each PTE).  Vellum's equivalent of that lock is
 * that nothing sleeps between reading a PTE and writing it, and every path
 * that sleeps in between (an allocation in handle_mm_fault, do_wp_page,
 * copy_page_range, the fault in access_remote_vm) reads the PTE again
 * afterwards: Linux's pte_same re-check.  So reclaim may unmap a page of a
 * task that is itself asleep in a page fault, holding its mmap_sem. */

/* The PTE that maps page in v, or NULL. */
static pte_t *page_pte_in(struct vm_area_struct *v, struct page *page, unsigned long *vap)
{
    unsigned long va = vma_address(v, page->index);
    if (!va || !v->vm_mm->pgd)
        return NULL;
    pte_t *ptep = lookup_pte((pgd_t *)v->vm_mm->pgd, va);
    if (!ptep || !pte_has_page(*ptep) || pte_pfn(*ptep) != page_to_pfn(page))
        return NULL;
    *vap = va;
    return ptep;
}

int page_referenced(struct page *page)
{
    struct address_space *mapping = page->mapping;
    struct vm_area_struct *v;
    unsigned long flags, va;
    int referenced = 0;
    if (!mapping || !page_mapped(page))
        return 0;
    spin_lock_irqsave(&mapping->i_mmap_lock, flags);
    list_for_each_entry(v, &mapping->i_mmap, shared) {
        pte_t *ptep = page_pte_in(v, page, &va);
        if (ptep && (*ptep & _PAGE_ACCESSED)) {
            set_pte_at(v->vm_mm, va, ptep, *ptep & ~_PAGE_ACCESSED);
            referenced++;
        }
    }
    spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
    return referenced;
}

int try_to_unmap(struct page *page)
{
    struct address_space *mapping = page->mapping;
    struct vm_area_struct *v;
    unsigned long flags, va;
    int ret = SWAP_SUCCESS;
    if (!mapping)
        return SWAP_FAIL;
    spin_lock_irqsave(&mapping->i_mmap_lock, flags);
    list_for_each_entry(v, &mapping->i_mmap, shared) {
        if (!page_mapped(page))
            break;
        pte_t *ptep = page_pte_in(v, page, &va);
        if (!ptep)
            continue;
        pte_t pte = *ptep;
        if (pte & _PAGE_ACCESSED) {     /* used since page_referenced looked */
            ret = SWAP_FAIL;
            break;
        }
        /* Its faults may be filling PTEs (mmap_sem read): their lock, by
         * trylock, as interrupts are off here and its holder may be
         * waiting for this CPU to answer a TLB flush; busy: not now.
         * Under it, the PTE must still map the page (a COW may have
         * replaced it). */
        struct mm_struct *mm = v->vm_mm;
        if (!spin_trylock(&mm->page_table_lock)) {
            ret = SWAP_AGAIN;
            continue;
        }
        if (!pte_has_page(*ptep) || pte_page(*ptep) != page) {
            spin_unlock(&mm->page_table_lock);
            continue;
        }
        pte = set_pte_at(mm, va, ptep, 0);  /* with its latest dirty bit */
        mm->rss--;
        spin_unlock(&mm->page_table_lock);
        if (pte & _PAGE_DIRTY)
            set_page_dirty_mapped(page);    /* written through this PTE: the page's now */
        page_remove_rmap(page);
        put_page(page);                     /* the PTE's; the cache and reclaim hold theirs */
        vmscan_stats.unmapped++;
    }
    spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
    if (ret == SWAP_SUCCESS && page_mapped(page))
        ret = SWAP_AGAIN;                   /* a PTE no VMA of the file accounts for */
    return ret;
}
