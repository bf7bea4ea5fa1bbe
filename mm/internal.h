/* mm/internal.h: declarations shared by mm/ files and their tests only. */
#ifndef _MM_INTERNAL_H
#define _MM_INTERNAL_H
/* Fault counters of mm/fault.c, read by the paging and fault tests. */
extern unsigned long page_fault_count, page_fault_fixups;

/* mm/mmap.c's change_vma_range, for madvise's flag changes (mm/madvise.c) */
struct mm_struct;
struct vm_area_struct;
int change_vma_range(struct mm_struct *mm, unsigned long start, unsigned long end,
                     int (*fn)(struct vm_area_struct *v, unsigned long arg), unsigned long arg);
#endif
