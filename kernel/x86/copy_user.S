/* kernel/x86/copy_user.S: the instructions that touch user memory.  Layer: arch
 * memory (below the C wrappers in kernel/x86/usercopy.c, which check access_ok).
 *
 * Every instruction here that may fault on a user address is listed in
 * __ex_table with a fixup (<asm/uaccess.h>).  On a fault that the handler
 * cannot (or, with page faults disabled, must not) resolve, execution
 * resumes at the fixup with the registers as the faulting instruction left
 * them.  For `rep movsb` / `rep stosb` that is exact: the CPU has finished
 * every iteration before the faulting one, ECX counts the iterations left,
 * ESI/EDI point at the faulting byte.  So the fixup just returns ECX: the
 * number of bytes NOT copied, byte-exact at any alignment.
 *
 * The copy moves the bulk as `rep movsl` (a quarter of the iterations;
 * Linux's copy_user_generic uses `rep movsq`) and the last n % 4 bytes as
 * `rep movsb`.  A fault in the dword body is exact only to the dword: the
 * faulting dword may straddle a page and its first bytes be copyable.  So
 * its fixup (DWORD_FAULT_FIXUP) turns ECX back into bytes left and, if the
 * faulting dword of the source or the destination straddles a page, finishes
 * byte by byte from it; that retry faults again at the exact byte and returns
 * the exact count (Linux's copy_user_handle_tail, which always retries).  A
 * dword within one page faulted at its first byte: its count is exact
 * already, and the common case (a page-aligned copy reaching an unmapped
 * page) takes one fault, not two.
 *
 * All functions are cdecl and save the registers cdecl asks them to save.
 */
#include <asm/uaccess.h>

#define EFAULT 14

    .text

/* The fixup of a fault in `rep movsl` (ECX dwords and EDX tail bytes left,
 * ESI/EDI at the faulting dword): ECX = bytes left; then to \retry (the
 * byte-by-byte `rep movsb`) if either pointer's dword crosses into the next
 * page (page offset above PAGE_SIZE - 4), else to \done with that count. */
.macro DWORD_FAULT_FIXUP retry, done
    leal (%edx,%ecx,4), %ecx
    movl %esi, %eax
    andl $0xfff, %eax
    cmpl $0xffc, %eax
    ja \retry
    movl %edi, %eax
    andl $0xfff, %eax
    cmpl $0xffc, %eax
    ja \retry
    jmp \done
.endm

/* unsigned long __copy_user(void *to, const void *from, unsigned long n)
 * Used for both directions: from user (a fault on the source) and to user
 * (a fault on the destination), and by the atomic copy
 * (__copy_from_user_inatomic, <asm/uaccess.h>: the same instructions; with
 * page faults disabled do_page_fault() goes straight to the fixup).
 * Returns the bytes NOT copied. */
    .globl __copy_user
    .type __copy_user, @function
__copy_user:
    pushl %esi
    pushl %edi
    movl 12(%esp), %edi                 /* to */
    movl 16(%esp), %esi                 /* from */
    movl 20(%esp), %ecx                 /* n */
    cld
    movl %ecx, %edx
    shrl $2, %ecx                       /* dwords */
    andl $3, %edx                       /* tail bytes */
.Lcopy_dwords:
    rep movsl                           /* may fault: ECX = dwords left */
    movl %edx, %ecx
.Lcopy:
    rep movsb                           /* may fault: ECX = bytes left */
.Lcopy_done:
    movl %ecx, %eax                     /* 0 on success, bytes left after a fixup */
    popl %edi
    popl %esi
    ret
.Lcopy_dword_fault:
    DWORD_FAULT_FIXUP .Lcopy, .Lcopy_done
    _ASM_EXTABLE(.Lcopy_dwords, .Lcopy_dword_fault)
    _ASM_EXTABLE(.Lcopy, .Lcopy_done)
    .size __copy_user, . - __copy_user

/* unsigned long __clear_user(void *to, unsigned long n): bytes NOT cleared. */
    .globl __clear_user
    .type __clear_user, @function
__clear_user:
    pushl %edi
    movl 8(%esp), %edi
    movl 12(%esp), %ecx
    xorl %eax, %eax
    cld
.Lclear:
    rep stosb                           /* may fault: ECX = bytes left */
.Lclear_done:
    movl %ecx, %eax
    popl %edi
    ret
    _ASM_EXTABLE(.Lclear, .Lclear_done)
    .size __clear_user, . - __clear_user

/* long __strncpy_from_user(char *dst, const char *src, long count)
 * Copies bytes until a NUL (copied too) or count bytes.  Returns the length
 * without the NUL, count if no NUL was seen, -EFAULT if src faulted.
 * One byte at a time: the load is the only instruction that may fault. */
    .globl __strncpy_from_user
    .type __strncpy_from_user, @function
__strncpy_from_user:
    pushl %esi
    pushl %edi
    movl 12(%esp), %edi                 /* dst */
    movl 16(%esp), %esi                 /* src */
    movl 20(%esp), %ecx                 /* count */
    xorl %edx, %edx                     /* bytes copied */
1:  cmpl %ecx, %edx
    jae 3f                              /* count reached, no NUL */
.Lstr_load:
    movb (%esi,%edx), %al               /* may fault */
    movb %al, (%edi,%edx)
    testb %al, %al
    jz 3f                               /* NUL copied; edx = length */
    incl %edx
    jmp 1b
3:  movl %edx, %eax
    popl %edi
    popl %esi
    ret
.Lstr_fault:
    movl $-EFAULT, %eax
    popl %edi
    popl %esi
    ret
    _ASM_EXTABLE(.Lstr_load, .Lstr_fault)
    .size __strncpy_from_user, . - __strncpy_from_user

/* long __strnlen_user(const char *src, long n)
 * Length INCLUDING the NUL; n + 1 if none among the first n bytes; 0 on a
 * fault (Linux's convention). */
    .globl __strnlen_user
    .type __strnlen_user, @function
__strnlen_user:
    movl 4(%esp), %edx                  /* src */
    movl 8(%esp), %ecx                  /* n */
    xorl %eax, %eax                     /* index */
1:  cmpl %ecx, %eax
    jae 2f
.Lstrlen_load:
    cmpb $0, (%edx,%eax)                /* may fault */
    je 3f
    incl %eax
    jmp 1b
2:  leal 1(%ecx), %eax                  /* too long: n + 1 */
    ret
3:  incl %eax                           /* count the NUL */
    ret
.Lstrlen_fault:
    xorl %eax, %eax
    ret
    _ASM_EXTABLE(.Lstrlen_load, .Lstrlen_fault)
    .size __strnlen_user, . - __strnlen_user

    .section .note.GNU-stack,"",@progbits
