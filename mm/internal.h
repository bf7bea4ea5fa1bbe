/* mm/internal.h: declarations shared by mm/ files and their tests only. */
#ifndef _MM_INTERNAL_H
#define _MM_INTERNAL_H
/* Fault counters of mm/fault.c, read by the paging and fault tests. */
extern unsigned long page_fault_count, page_fault_fixups;
#endif
