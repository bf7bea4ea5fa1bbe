/* mm/internal.h: declarations shared by mm/ files and their tests only. */
#ifndef _MM_INTERNAL_H
#define _MM_INTERNAL_H
#include <mm.h>

/* Fault counters of mm/fault.c, read by the paging and fault tests. */
extern unsigned long page_fault_count, page_fault_fixups;

/* Shared anonymous memory: Linux's shmem, not a file here (<mm.h>: its
 * frames are shared through PTE copies).  madvise and mremap treat it
 * apart. */
static inline bool vma_shared_anon(const struct vm_area_struct *v)
{
    return (v->vm_flags & VM_SHARED) && !v->vm_file;
}

/* mm/mmap.c's VMA helpers, for madvise's flag changes (mm/madvise.c) and
 * mremap (mm/mremap.c); each is described where it is defined.  Callers
 * hold mmap_sem. */
int change_vma_range(struct mm_struct *mm, unsigned long start, unsigned long end,
                     int (*fn)(struct vm_area_struct *v, unsigned long arg), unsigned long arg);
struct vm_area_struct *copy_vma(struct mm_struct *mm, struct vm_area_struct *v,
                                unsigned long addr, unsigned long len, unsigned long pgoff);
struct vm_area_struct *vma_expand_to(struct mm_struct *mm, struct vm_area_struct *v,
                                     unsigned long end);
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long hint, unsigned long len);
int populate_range(struct vm_area_struct *v, unsigned long start, unsigned long end);
/* memory locks (mm/mmap.c, "memory locks") */
bool mlock_future_ok(struct mm_struct *mm, unsigned long len);
int mlock_vma(struct vm_area_struct *v, unsigned long lockflags);
int populate_locked(struct mm_struct *mm, unsigned long start, unsigned long end,
                    bool ignore_errors);

/* mm/memory.c: mremap's move of PTEs (Linux's move_page_tables). */
unsigned long move_page_tables(struct mm_struct *mm, unsigned long old_addr,
                               unsigned long new_addr, unsigned long len, bool share);
#endif
