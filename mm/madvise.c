/* mm/madvise.c: madvise(2), advice about a range of an address space
 * (Linux's mm/madvise.c, as of 6.1).  Layer: mm, beside mm/mmap.c, whose
 * VMAs it walks and splits (change_vma_range), and mm/memory.c, whose
 * pages it drops (zap_page_range) or faults in (handle_mm_fault).
 *
 * What each advice does here:
 *
 *   MADV_DONTNEED         drop the pages: private anonymous memory reads
 *                         as zeros after, a private file mapping as the
 *                         file again, a shared one as before (its pages
 *                         stay in the page cache).  EINVAL on a locked VMA.
 *   MADV_DONTNEED_LOCKED  the same, locked VMAs too (they stay locked).
 *   MADV_FREE             private anonymous memory only (EINVAL otherwise,
 *                         or locked).  Linux frees such pages lazily, under
 *                         memory pressure, unless written again; Vellum
 *                         never reclaims anonymous memory, so they stay.
 *   MADV_REMOVE           punch a hole in a shared, writable file mapping:
 *                         no file system here has fallocate, so EOPNOTSUPP
 *                         (EACCES not shared and writable, EINVAL
 *                         anonymous or locked), as Linux's ext2 and ramfs.
 *   MADV_DONTFORK/DOFORK  VM_DONTCOPY: fork leaves the range out of the
 *                         child (dup_mm, mm/mmap.c).
 *   MADV_WIPEONFORK/KEEPONFORK  VM_WIPEONFORK: the child's copy starts
 *                         empty, reading zeros; private anonymous memory
 *                         only (EINVAL otherwise).
 *   MADV_POPULATE_READ/WRITE  fault every page in now, as a read or a
 *                         write would (a write breaks copy-on-write):
 *                         EINVAL without that access, EFAULT where the
 *                         fault would signal (past the end of the file),
 *                         ENOMEM out of memory.
 *   MADV_COLD, MADV_PAGEOUT  hints (Vellum never swaps); EINVAL on a
 *                         locked VMA, as Linux.
 *   the rest              hints that change nothing a program can see:
 *                         NORMAL, RANDOM, SEQUENTIAL (no VMA flags: the
 *                         page cache's readahead is per file), WILLNEED
 *                         (reads nothing ahead), DONTDUMP/DODUMP (no core
 *                         dumps; VM_DONTDUMP kept), MERGEABLE/UNMERGEABLE
 *                         and HUGEPAGE/NOHUGEPAGE (no KSM, no huge pages:
 *                         0, as Debian's Linux, which has both), COLLAPSE
 *                         (EINVAL: no range here can hold a huge page, as
 *                         Linux says for a range too small for one).
 *
 * Any other advice is EINVAL, checked before anything else (then an
 * unaligned start, then a zero length, which is 0).  The range is walked
 * VMA by VMA (Linux's madvise_walk_vmas): a hole makes the call ENOMEM,
 * but only after the mapped parts got the advice; an advice's own error
 * stops the walk there.
 *
 * Simplifications, on purpose: shared anonymous memory is not shmem here
 * (<mm.h>: its frames are shared through fork's PTE copies), so
 * MADV_DONTNEED leaves its pages (what a program sees on Linux too: the
 * data stays) and MADV_REMOVE is EINVAL (Linux zeroes the range).
 * MADV_HWPOISON and MADV_SOFT_OFFLINE (memory-failure injection) are
 * EINVAL, as on a Linux built without CONFIG_MEMORY_FAILURE.
 *
 * Locking: mmap_sem, held across the walk: for writing where VMAs change,
 * for reading otherwise (madvise_need_mmap_write, as Linux).
 */
#include <kernel.h>
#include <errno.h>
#include <mm.h>
#include <asm/mman.h>
#include <sched.h>
#include "internal.h"              /* change_vma_range, vma_shared_anon */

static bool advice_known(int advice)
{
    switch (advice) {
    case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL: case MADV_WILLNEED:
    case MADV_DONTNEED: case MADV_FREE: case MADV_REMOVE:
    case MADV_DONTFORK: case MADV_DOFORK: case MADV_MERGEABLE: case MADV_UNMERGEABLE:
    case MADV_HUGEPAGE: case MADV_NOHUGEPAGE: case MADV_DONTDUMP: case MADV_DODUMP:
    case MADV_WIPEONFORK: case MADV_KEEPONFORK: case MADV_COLD: case MADV_PAGEOUT:
    case MADV_POPULATE_READ: case MADV_POPULATE_WRITE: case MADV_DONTNEED_LOCKED:
    case MADV_COLLAPSE:
        return true;
    default:
        return false;
    }
}

/* mmap_sem for writing: the advice may change VMAs (split, merge, flags).
 * Linux's madvise_need_mmap_write: the advice that only zaps or fills PTEs
 * (or does nothing here) takes it for reading, beside the faults. */
static bool madvise_need_mmap_write(int advice)
{
    switch (advice) {
    case MADV_REMOVE: case MADV_WILLNEED: case MADV_DONTNEED: case MADV_DONTNEED_LOCKED:
    case MADV_COLD: case MADV_PAGEOUT: case MADV_FREE: case MADV_POPULATE_READ:
    case MADV_POPULATE_WRITE: case MADV_COLLAPSE:
        return false;
    default:
        return true;
    }
}

/* MADV_POPULATE_READ/WRITE over [start, end) of v (Linux's
 * faultin_vma_page_range, with its errors mapped as madvise_populate's). */
static int madvise_populate(struct vm_area_struct *v, unsigned long start, unsigned long end,
                            bool write)
{
    if (!(v->vm_flags & (write ? VM_WRITE : VM_READ)))
        return -EINVAL;
    for (unsigned long va = start; va < end; va += PAGE_SIZE) {
        int fault = handle_mm_fault(v, va, write ? FAULT_FLAG_WRITE : 0);
        if (fault & VM_FAULT_OOM)
            return -ENOMEM;
        if (fault)
            return -EFAULT;            /* SIGBUS or SIGSEGV for a real access */
    }
    return 0;
}

/* VMA flag changes, through change_vma_range (split to the range, merged
 * back after): arg is the flag to set, or ~flag to clear. */
static int set_vma_flag(struct vm_area_struct *v, unsigned long flag)
{
    v->vm_flags |= flag;
    return 0;
}

static int clear_vma_flag(struct vm_area_struct *v, unsigned long flag)
{
    v->vm_flags &= ~flag;
    return 0;
}

/* One advice over [start, end), which lies inside v. */
static int madvise_vma(struct mm_struct *mm, struct vm_area_struct *v,
                       unsigned long start, unsigned long end, int advice)
{
    switch (advice) {
    case MADV_DONTNEED:
    case MADV_FREE:
        if (v->vm_flags & VM_LOCKED)
            return -EINVAL;
        if (advice == MADV_FREE)
            return (v->vm_file || vma_shared_anon(v)) ? -EINVAL : 0;
        /* fall through */
    case MADV_DONTNEED_LOCKED:
        if (!vma_shared_anon(v))
            zap_page_range(mm, start, end);
        return 0;
    case MADV_REMOVE:
        if ((v->vm_flags & VM_LOCKED) || !v->vm_file)
            return -EINVAL;
        if ((v->vm_flags & (VM_SHARED | VM_WRITE)) != (VM_SHARED | VM_WRITE))
            return -EACCES;
        return -EOPNOTSUPP;            /* no fallocate(PUNCH_HOLE) anywhere */
    case MADV_COLD:
    case MADV_PAGEOUT:
        return (v->vm_flags & VM_LOCKED) ? -EINVAL : 0;
    case MADV_POPULATE_READ:
    case MADV_POPULATE_WRITE:
        return madvise_populate(v, start, end, advice == MADV_POPULATE_WRITE);
    case MADV_DONTFORK:
        return change_vma_range(mm, start, end, set_vma_flag, VM_DONTCOPY);
    case MADV_DOFORK:
        return change_vma_range(mm, start, end, clear_vma_flag, VM_DONTCOPY);
    case MADV_WIPEONFORK:
        if (v->vm_file || (v->vm_flags & VM_SHARED))
            return -EINVAL;
        return change_vma_range(mm, start, end, set_vma_flag, VM_WIPEONFORK);
    case MADV_KEEPONFORK:
        return change_vma_range(mm, start, end, clear_vma_flag, VM_WIPEONFORK);
    case MADV_DONTDUMP:
        return change_vma_range(mm, start, end, set_vma_flag, VM_DONTDUMP);
    case MADV_DODUMP:
        return change_vma_range(mm, start, end, clear_vma_flag, VM_DONTDUMP);
    case MADV_COLLAPSE:
        return -EINVAL;
    default:                           /* the hints: NORMAL ... NOHUGEPAGE */
        return 0;
    }
}

long sys_madvise(unsigned long start, size_t len, int advice)
{
    struct mm_struct *mm = current->mm;
    if (!advice_known(advice) || (start & ~PAGE_MASK))
        return -EINVAL;
    unsigned long end = start + PAGE_ALIGN(len);
    if (len && end <= start)
        return -EINVAL;                /* wraps past 4 GiB */
    if (!len || !mm)
        return 0;

    int err = 0;
    bool write = madvise_need_mmap_write(advice);
    if (write)
        down_write(&mm->mmap_sem);
    else
        down_read(&mm->mmap_sem);
    while (start < end) {
        struct vm_area_struct *v = find_vma(mm, start);    /* first ending above start */
        if (!v || v->vm_start >= end) {
            err = -ENOMEM;             /* the rest of the range is a hole */
            break;
        }
        if (v->vm_start > start) {
            err = -ENOMEM;             /* a hole, then more to advise */
            start = v->vm_start;
        }
        unsigned long stop = min(end, v->vm_end);
        int e = madvise_vma(mm, v, start, stop, advice);
        if (e) {
            err = e;
            break;
        }
        start = stop;                  /* v may be split or merged: look it up again */
    }
    if (write)
        up_write(&mm->mmap_sem);
    else
        up_read(&mm->mmap_sem);
    return err;
}
