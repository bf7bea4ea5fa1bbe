/* include/asm/layout.h: the virtual address space, in one place.
 *
 *   0xFFFFFFFF +---------------------------+
 *              | fixmap: fixed virtual     |  fix_to_virt(FIX_APIC_BASE): the
 *              | pages for device registers|  local APIC (include/asm/pgtable.h)
 *   0xFFC00000 +---------------------------+  FIXADDR_START
 *              | direct map of physical    |  phys_to_virt(p) = p + KERNEL_BASE
 *              | RAM ("lowmem", <= 1 GiB-  |  kernel image at 0xC0100000
 *              | 4 MiB), kernel, kmalloc   |
 *   0xC0000000 +---------------------------+  KERNEL_BASE == TASK_SIZE
 *              | user space: text, data,   |  every address below here is a
 *              | brk heap, mmaps, stack    |  user address (access_ok)
 *   0x00000000 +---------------------------+
 */
#ifndef _ASM_LAYOUT_H
#define _ASM_LAYOUT_H

#define KERNEL_BASE   0xC0000000
#define TASK_SIZE     KERNEL_BASE
#define PAGE_SHIFT    12
#define PAGE_SIZE     4096
#define LOWMEM_LIMIT  0x3FC00000      /* physical RAM we direct-map */
#define FIXADDR_START 0xFFC00000      /* the last 4 MiB: one page table of fixmaps */
#define FIXADDR_TOP   0xFFFFF000      /* fixmap 0's page */

#ifndef __ASSEMBLER__
#define PAGE_MASK     (~(PAGE_SIZE - 1))
#define phys_to_virt(p)  ((void *)((unsigned long)(p) + KERNEL_BASE))
#define virt_to_phys(v)  ((unsigned long)(v) - KERNEL_BASE)
#endif

#endif
