/* mm/mremap.c: mremap(2), resizing and moving a mapping (Linux's
 * mm/mremap.c, as of 6.1).  Layer: mm, beside mm/mmap.c, whose VMAs it
 * copies, grows and unmaps (copy_vma, vma_expand_to, do_munmap), and
 * mm/memory.c, whose PTEs it moves (move_page_tables).
 *
 *   mremap(addr, old_len, new_len, flags, new_addr)
 *
 *   shrink (new_len <= old_len)    unmap [addr + new_len, addr + old_len)
 *   grow in place                  the range ends where its VMA ends and
 *                                  the space after it is free: the VMA
 *                                  grows (merged with the next if it can)
 *   grow by moving (MAYMOVE)       a new VMA of new_len elsewhere
 *                                  (get_unmapped_area), the old pages' PTEs
 *                                  moved into it, the old range unmapped
 *   MREMAP_FIXED (with MAYMOVE)    the same to new_addr, after unmapping
 *                                  whatever is there
 *   MREMAP_DONTUNMAP (MAYMOVE, old_len == new_len)   a move that leaves
 *                                  the old range mapped, with no pages: it
 *                                  faults in again as new (zeros for
 *                                  private anonymous memory, the file for
 *                                  a file mapping); unlocked
 *
 * The checks come in Linux's order: flags (unknown ones, FIXED without
 * MAYMOVE, DONTUNMAP without MAYMOVE or with a new size: EINVAL), an
 * unaligned addr (EINVAL), new_len 0 after rounding (EINVAL); under
 * mmap_sem, no VMA at addr (EFAULT); for FIXED and DONTUNMAP an unaligned
 * or too high new_addr, or new and old ranges that overlap (EINVAL); then
 * vma_to_resize: old_len 0 on a private mapping (EINVAL: Linux "duplicates"
 * only shared ones), old_len past the VMA's end (EFAULT), a file offset
 * that would wrap (EINVAL), a locked mapping that would pass
 * RLIMIT_MEMLOCK (EAGAIN, as mlock's accounting: CAP_IPC_LOCK exempt);
 * then no room to grow in place and no MAYMOVE, or no room anywhere
 * (ENOMEM).  A shrink checks nothing past the VMA lookup, as Linux's: it
 * is an munmap of the tail, whatever is mapped there.
 *
 * The contents stay: a moved PTE keeps its frame (private anonymous
 * pages, private copies of file pages), and a file VMA maps the same file
 * pages at the new place (vm_pgoff kept), so shared file mappings go on
 * sharing with the page cache.  A grown anonymous mapping reads zeros in
 * its new part; a grown file mapping maps the file's next pages.  A locked
 * mapping that grows is populated (Linux's mm_populate); locked_vm
 * (VmLck) follows the VMAs.
 *
 * Simplifications, on purpose:
 *   - Shared anonymous memory is not a shmem file here (<mm.h>; its frames
 *     are shared by PTEs, populated at mmap time): its grown part is
 *     populated at once, like a new mapping of it, and where Linux maps the
 *     same shmem pages twice (DONTUNMAP, old_len 0) the PTEs are copied,
 *     sharing the frames (move_page_tables' share).  Linux's shmem object
 *     keeps its first size; growing past it there reads SIGBUS
 *     (user/conform/KNOWN-DIFFERENCES).
 *   - VM_DONTEXPAND and VM_PFNMAP (EFAULT for a grow, EINVAL for
 *     DONTUNMAP) and hugetlb's rules do not arise: Vellum has no special or
 *     driver mappings, nor huge pages.  Nor does RLIMIT_AS/RLIMIT_DATA
 *     (may_expand_vm: not modelled by mmap either) or vm.max_map_count.
 *   - A moved anonymous VMA merges with a compatible neighbour as any VMA
 *     does here (vma_can_merge); Linux merges one that was faulted in only
 *     where its anon_vma and page offset agree.
 *   - DONTUNMAP unlocks the old range; Linux clears VM_LOCKED on the whole
 *     old VMA (the same when the range is the whole VMA).
 *   - userfaultfd, KSM, the mremap vm_op (special mappings) and the
 *     commit accounting (VM_ACCOUNT) have nothing to do here.
 *
 * Locking: mmap_sem for writing, held from the lookup to the end, the
 * populate of a grown locked mapping included (simplified: Linux
 * downgrades to read for that, downgrade_write).  Faults it makes take page locks under it: mmap_sem ->
 * page lock, the order written in mm/filemap.c.
 */
#include <kernel.h>
#include <errno.h>
#include <err.h>
#include <mm.h>
#include <asm/mman.h>
#include <sched.h>
#include <cred.h>
#include "internal.h"

/* The VMA holding addr, or NULL (Linux's vma_lookup). */
static struct vm_area_struct *vma_lookup(struct mm_struct *mm, unsigned long addr)
{
    struct vm_area_struct *v = find_vma(mm, addr);
    return v && v->vm_start <= addr ? v : NULL;
}

/* The VMA [addr, addr + old_len) lies in, if it may become new_len long
 * (Linux's vma_to_resize), or an ERR_PTR. */
static struct vm_area_struct *vma_to_resize(struct mm_struct *mm, unsigned long addr,
                                            unsigned long old_len, unsigned long new_len)
{
    struct vm_area_struct *v = vma_lookup(mm, addr);
    if (!v)
        return ERR_PTR(-EFAULT);
    /* old_len 0 "duplicates" a mapping: only a shared one can be */
    if (!old_len && !(v->vm_flags & VM_SHARED))
        return ERR_PTR(-EINVAL);
    if (old_len > v->vm_end - addr)
        return ERR_PTR(-EFAULT);         /* not across VMA boundaries */
    if (new_len == old_len)
        return v;
    unsigned long pgoff = v->vm_pgoff + ((addr - v->vm_start) >> PAGE_SHIFT);
    if (pgoff + (new_len >> PAGE_SHIFT) < pgoff)
        return ERR_PTR(-EINVAL);
    if ((v->vm_flags & VM_LOCKED) && !mlock_future_ok(mm, new_len - old_len))
        return ERR_PTR(-EAGAIN);
    return v;
}

/* May v grow by delta bytes where it is (Linux's vma_expandable)? */
static bool vma_expandable(struct mm_struct *mm, struct vm_area_struct *v, unsigned long delta)
{
    unsigned long end = v->vm_end + delta;
    return end > v->vm_end && end <= TASK_SIZE && !find_vma_intersection(mm, v->vm_end, end);
}

/* The pages of [start, end) of a mapping that just became that long: a
 * locked one is populated (Linux's mm_populate after mremap, its errors
 * ignored), and shared anonymous memory has its frames from the start
 * (do_mmap's rule).  Nothing for a shrink. */
static void populate_new(struct mm_struct *mm, unsigned long start, unsigned long end)
{
    if (start >= end)
        return;
    struct vm_area_struct *v = vma_lookup(mm, start);
    if (v && vma_shared_anon(v))
        populate_range(v, start, min(end, v->vm_end));
    populate_locked(mm, start, end, true);
}

/* Move [old_addr, old_addr + old_len) of v to a new VMA of new_len at
 * new_addr, which is free (Linux's move_vma).  Returns new_addr or -errno. */
static long move_vma(struct mm_struct *mm, struct vm_area_struct *v, unsigned long old_addr,
                     unsigned long old_len, unsigned long new_len, unsigned long new_addr,
                     unsigned long flags)
{
    unsigned long pgoff = v->vm_pgoff + ((old_addr - v->vm_start) >> PAGE_SHIFT);
    /* Shared anonymous memory that stays mapped where it was shares its
     * frames with the new place (Linux: the same shmem pages) */
    bool share = vma_shared_anon(v) && ((flags & MREMAP_DONTUNMAP) || !old_len);
    unsigned long share_len = share && !old_len ? min(new_len, v->vm_end - old_addr) : old_len;
    bool locked = v->vm_flags & VM_LOCKED;
    if (!copy_vma(mm, v, new_addr, new_len, pgoff))   /* v may be gone: not used below */
        return -ENOMEM;
    unsigned long moved = move_page_tables(mm, old_addr, new_addr, share_len, share);
    if (moved < share_len) {
        /* Out of memory for a page table: what moved goes back (its
         * tables are there), and the new range is unmapped instead. */
        if (!share)
            move_page_tables(mm, new_addr, old_addr, moved, false);
        do_munmap(mm, new_addr, new_len);
        return -ENOMEM;
    }
    populate_new(mm, new_addr + share_len, new_addr + new_len);
    if (flags & MREMAP_DONTUNMAP) {
        /* The old range stays, empty and unlocked; locked_vm counted the
         * new VMA's pages at copy_vma and gives the old range's back here,
         * so VmLck is unchanged, as Linux's */
        if (locked)
            change_vma_range(mm, old_addr, old_addr + old_len, mlock_vma, 0);
        return new_addr;
    }
    do_munmap(mm, old_addr, old_len);    /* old_len 0 (a duplicate): EINVAL, nothing */
    return new_addr;
}

/* MREMAP_FIXED and MREMAP_DONTUNMAP (Linux's mremap_to). */
static long mremap_to(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
                      unsigned long new_addr, unsigned long new_len, unsigned long flags)
{
    if (new_addr & ~PAGE_MASK)
        return -EINVAL;
    if (new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
        return -EINVAL;
    if (addr + old_len > new_addr && new_addr + new_len > addr)
        return -EINVAL;                  /* the ranges overlap */
    int err;
    if (flags & MREMAP_FIXED) {
        err = do_munmap(mm, new_addr, new_len);
        if (err)
            return err;
    }
    if (old_len > new_len) {
        err = do_munmap(mm, addr + new_len, old_len - new_len);
        if (err)
            return err;
        old_len = new_len;
    }
    struct vm_area_struct *v = vma_to_resize(mm, addr, old_len, new_len);
    if (IS_ERR(v))
        return PTR_ERR(v);
    if (!(flags & MREMAP_FIXED)) {
        new_addr = get_unmapped_area(mm, new_addr, new_len);   /* new_addr a hint */
        if (!new_addr)
            return -ENOMEM;
    }
    return move_vma(mm, v, addr, old_len, new_len, new_addr, flags);
}

static long do_mremap(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
                      unsigned long new_len, unsigned long flags, unsigned long new_addr)
{
    if (!vma_lookup(mm, addr))
        return -EFAULT;
    if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
        return mremap_to(mm, addr, old_len, new_addr, new_len, flags);

    /* Always allow a shrink: it unmaps the tail (an equal length: nothing,
     * do_munmap's EINVAL for a zero length ignored) */
    if (old_len >= new_len) {
        int err = do_munmap(mm, addr + new_len, old_len - new_len);
        if (err < 0 && old_len != new_len)
            return err;
        return addr;
    }

    struct vm_area_struct *v = vma_to_resize(mm, addr, old_len, new_len);
    if (IS_ERR(v))
        return PTR_ERR(v);
    /* old_len reaches the VMA's end: can it just grow? */
    if (old_len == v->vm_end - addr && vma_expandable(mm, v, new_len - old_len)) {
        unsigned long old_end = v->vm_end;
        vma_expand_to(mm, v, old_end + (new_len - old_len));
        populate_new(mm, old_end, addr + new_len);
        return addr;
    }
    if (!(flags & MREMAP_MAYMOVE))
        return -ENOMEM;
    new_addr = get_unmapped_area(mm, 0, new_len);
    if (!new_addr)
        return -ENOMEM;
    return move_vma(mm, v, addr, old_len, new_len, new_addr, flags);
}

long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
                unsigned long flags, unsigned long new_addr)
{
    struct mm_struct *mm = current->mm;
    if (flags & ~(MREMAP_FIXED | MREMAP_MAYMOVE | MREMAP_DONTUNMAP))
        return -EINVAL;
    if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
        return -EINVAL;
    /* DONTUNMAP is always a move, and not a resize */
    if ((flags & MREMAP_DONTUNMAP) && (!(flags & MREMAP_MAYMOVE) || old_len != new_len))
        return -EINVAL;
    if (addr & ~PAGE_MASK)
        return -EINVAL;
    old_len = PAGE_ALIGN(old_len);
    new_len = PAGE_ALIGN(new_len);
    if (!new_len)                        /* old_len 0 is allowed (a duplicate) */
        return -EINVAL;
    if (!mm)
        return -EFAULT;
    down_write(&mm->mmap_sem);
    long r = do_mremap(mm, addr, old_len, new_len, flags, new_addr);
    up_write(&mm->mmap_sem);
    return r;
}
