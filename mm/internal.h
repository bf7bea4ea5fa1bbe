/* mm/internal.h: declarations shared by mm/ files and their tests only. */
#ifndef _MM_INTERNAL_H
#define _MM_INTERNAL_H
/* Bracket a test that faults on purpose.  With the cpu layer's trap code
 * linked in these do nothing; before it existed they installed a private
 * IDT with a page-fault stub (mm/fault.c). */
extern unsigned long page_fault_count, page_fault_fixups;
#endif
