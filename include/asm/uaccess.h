/* include/asm/uaccess.h: the exception table, the mechanism behind
 * copy_from_user() and friends (those come with a later issue).
 *
 * An instruction that may fault on purpose (touching a user address, or
 * probing a kernel one) is listed in section __ex_table together with a
 * "fixup" address.  When it faults in kernel mode, do_page_fault() looks the
 * faulting EIP up with search_exception_tables() and, instead of an oops,
 * resumes at the fixup, which typically returns -EFAULT:
 *
 *     1:  movzbl (%edx), %eax          <- may fault
 *         ...
 *     2:  mov $-EFAULT, %eax           <- fixup: runs instead of an oops
 *         _ASM_EXTABLE(1b, 2b)
 *
 * The linker script gathers every entry between __start_ex_table and
 * __stop_ex_table (in .rodata).  Linux sorts the table at build time and
 * binary-searches it; ours is short and searched linearly.
 */
#ifndef _ASM_UACCESS_H
#define _ASM_UACCESS_H

#ifdef __ASSEMBLER__
#define _ASM_EXTABLE(from, to)          \
    .pushsection __ex_table, "a";       \
    .balign 4;                          \
    .long from, to;                     \
    .popsection
#else
#include <types.h>

struct exception_table_entry {
    unsigned long insn;      /* address of the instruction allowed to fault */
    unsigned long fixup;     /* where to continue if it does */
};

/* For inline asm: a string to paste into the asm template. */
#define _ASM_EXTABLE(from, to)                          \
    " .pushsection __ex_table, \"a\"\n"                 \
    " .balign 4\n"                                      \
    " .long " #from ", " #to "\n"                       \
    " .popsection\n"

struct pt_regs;
/* The table entry for ip, or NULL. */
const struct exception_table_entry *search_exception_tables(unsigned long ip);
/* If regs->ip has an entry, set regs->ip to its fixup and return 1; else 0.
 * Called by the trap handlers (page fault; later also #GP) for kernel-mode
 * faults. */
int fixup_exception(struct pt_regs *regs);

/* Read/write one byte at a kernel address that may be unmapped; 0 or
 * -EFAULT (the exception table at work; Linux: get_kernel_nofault()).
 * mm/fault.c. */
int probe_kernel_read_u8(const void *addr, uint8_t *val);
int probe_kernel_write_u8(void *addr, uint8_t val);
#endif
#endif
