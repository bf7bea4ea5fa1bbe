/* mm/mincore.c: mincore(2), which pages of a range are in memory (Linux's
 * mm/mincore.c, as of 6.1).  Layer: mm, beside mm/madvise.c: it walks the
 * VMAs of mm/mmap.c and the page tables mm/memory.c fills, and asks the
 * page cache (mm/filemap.c) about file pages no PTE maps.
 *
 *   mincore(start, len, vec): one byte per page of [start, start + len)
 *     (len rounded up to pages), bit 0 set if the page is resident:
 *       a PTE maps a frame (present, or PROT_NONE)          -> 1
 *         (shared anonymous memory: once accessed, see below)
 *       no PTE, file VMA: the file's page in the page cache
 *         (and up to date)                                   -> 1
 *       no PTE, anonymous                                    -> 0
 *       a file mapping of a file the caller could not open for
 *         writing (not its owner, no write permission): 1 for every
 *         page, as Linux, which tells such a caller nothing about the
 *         page cache (a side channel otherwise)
 *   errors, in Linux's order: start not page-aligned -> EINVAL; the range
 *     reaching past user space -> ENOMEM; vec (one byte a page) not in
 *     user space -> EFAULT; then, walking the range: a page no VMA covers
 *     -> ENOMEM, a vec that cannot be written -> EFAULT.  len 0 is 0.
 *
 * As Linux, the walk goes a chunk at a time (at most a page of bytes, one
 * VMA): each chunk is filled under mmap_sem into a kernel page and copied
 * out after it is dropped (the copy may fault).  So a range with a hole
 * after a mapped part gets its first bytes written before ENOMEM.
 *
 * Simplification, on purpose: nothing here swaps, so there are no swap
 * entries to look up.  Shared anonymous memory is not shmem here (<mm.h>):
 * mmap populates it at once, so that fork shares its frames through the
 * PTEs (mm/mmap.c), where Linux's shmem has a page only once something
 * touched it.  So a page of it counts as resident when its PTE's accessed
 * or dirty bit is set: the CPU sets them on the first access, and the
 * populates Linux makes too (MAP_POPULATE, mlock) set the accessed bit
 * (mm/mmap.c, mark_populated).  Linux's answer but for one case: a page
 * that another process of a fork's family touched, and this one did not,
 * reads 0 here (1 on Linux: the shmem page exists).
 */
#include <kernel.h>
#include <errno.h>
#include <string.h>
#include <mm.h>
#include <fs.h>
#include <pagemap.h>
#include <sched.h>
#include <asm/pgtable.h>
#include <asm/uaccess.h>

/* Is the file's page at index in the page cache and up to date (Linux's
 * mincore_page)? */
static unsigned char mincore_page(struct address_space *mapping, unsigned long index)
{
    struct page *page = find_get_page(mapping, index);
    if (!page)
        return 0;
    unsigned char present = PageUptodate(page) ? 1 : 0;
    put_page(page);
    return present;
}

/* May the caller learn which pages of v's file are cached (Linux's
 * can_do_mincore)?  Anonymous memory: yes; a file: if it owns it, or
 * could open it for writing. */
static bool can_do_mincore(struct vm_area_struct *v)
{
    if (!v->vm_file)
        return true;
    struct inode *inode = v->vm_file->f_inode;
    return inode_owner_or_capable(inode) || inode_permission(inode, MAY_WRITE) == 0;
}

/* Fill vec for up to pages pages from addr, inside the VMA that holds
 * addr (Linux's do_mincore).  The number of bytes filled, or -ENOMEM if
 * no VMA holds addr.  Called with mmap_sem held. */
static long do_mincore(struct mm_struct *mm, unsigned long addr, unsigned long pages,
                       unsigned char *vec)
{
    struct vm_area_struct *v = find_vma(mm, addr);
    if (!v || v->vm_start > addr)
        return -ENOMEM;
    unsigned long end = addr + (pages << PAGE_SHIFT);
    if (end > v->vm_end || end < addr)
        end = v->vm_end;
    unsigned long nr = (end - addr) >> PAGE_SHIFT;
    if (!can_do_mincore(v)) {
        memset(vec, 1, nr);
        return nr;
    }
    bool shared_anon = (v->vm_flags & VM_SHARED) && !v->vm_file;   /* populated at mmap */
    for (unsigned long i = 0; i < nr; i++) {
        unsigned long va = addr + (i << PAGE_SHIFT);
        pte_t *ptep = lookup_pte((pgd_t *)mm->pgd, va);
        if (ptep && pte_has_page(*ptep))
            vec[i] = !shared_anon || (*ptep & (_PAGE_ACCESSED | _PAGE_DIRTY));
        else if (v->vm_file)
            vec[i] = mincore_page(v->vm_file->f_mapping,
                                  v->vm_pgoff + ((va - v->vm_start) >> PAGE_SHIFT));
        else
            vec[i] = 0;
    }
    return nr;
}

long sys_mincore(unsigned long start, size_t len, unsigned char __user *vec)
{
    struct mm_struct *mm = current->mm;
    if (start & ~PAGE_MASK)
        return -EINVAL;
    if (!access_ok((const void __user *)start, len))
        return -ENOMEM;
    unsigned long pages = len >> PAGE_SHIFT;   /* no overflow, unlike PAGE_ALIGN */
    pages += (len & ~PAGE_MASK) != 0;
    if (!access_ok(vec, pages))
        return -EFAULT;
    if (!pages || !mm)
        return 0;
    unsigned char *tmp = (unsigned char *)__get_free_page(GFP_KERNEL);
    if (!tmp)
        return -EAGAIN;                /* as Linux */
    long ret = 0;
    while (pages) {
        down_read(&mm->mmap_sem);
        ret = do_mincore(mm, start, min(pages, (unsigned long)PAGE_SIZE), tmp);
        up_read(&mm->mmap_sem);
        if (ret <= 0)
            break;
        if (copy_to_user(vec, tmp, ret)) {
            ret = -EFAULT;
            break;
        }
        pages -= ret;
        vec += ret;
        start += (unsigned long)ret << PAGE_SHIFT;
        ret = 0;
    }
    free_page((unsigned long)tmp);
    return ret;
}
