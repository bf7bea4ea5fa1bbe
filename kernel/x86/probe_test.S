/* kernel/x86/probe_test.S: probe_kernel_read_u8 / probe_kernel_write_u8,
 * one-byte accesses that may fault, for the fault and paging tests: built
 * into the test kernel only, as every *_test.c (Makefile).  The smallest
 * users of the exception table (<asm/uaccess.h>): the access at label 1 is
 * listed in __ex_table with fixup 2, so a page fault there makes
 * do_page_fault() resume at 2, which returns -EFAULT.  copy_from_user() and
 * friends (kernel/x86/copy_user.S) work the same way, in both kernels. */
#include <asm/uaccess.h>

#define EFAULT 14

    .text
/* int probe_kernel_read_u8(const void *addr, uint8_t *val) */
    .globl probe_kernel_read_u8
probe_kernel_read_u8:
    movl 4(%esp), %edx
1:  movzbl (%edx), %eax                 /* may fault */
    movl 8(%esp), %edx
    movb %al, (%edx)
    xorl %eax, %eax
    ret
2:  movl $-EFAULT, %eax
    ret
    _ASM_EXTABLE(1b, 2b)

/* int probe_kernel_write_u8(void *addr, uint8_t val) */
    .globl probe_kernel_write_u8
probe_kernel_write_u8:
    movl 4(%esp), %edx
    movl 8(%esp), %eax
3:  movb %al, (%edx)                    /* may fault */
    xorl %eax, %eax
    ret
4:  movl $-EFAULT, %eax
    ret
    _ASM_EXTABLE(3b, 4b)

    .section .note.GNU-stack,"",@progbits
