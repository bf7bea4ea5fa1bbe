/* include/asm/unistd.h: the system call entry convention and the size of
 * the kernel's table.  A program puts the number in %eax and the arguments
 * in %ebx, %ecx, %edx, %esi, %edi, %ebp, executes int $0x80 and finds the
 * result (or -errno) in %eax.  The numbers themselves are ABI and live in
 * include/uapi/asm/unistd_32.h, shared with the userland. */
#ifndef _ASM_UNISTD_H
#define _ASM_UNISTD_H
#include <asm/unistd_32.h>

/* The table's size (kernel/syscall.c): Linux's numbers end at 451, and
 * the table reaches Vellum's own __NR_vellum_debug (500) too.  Every number
 * below NR_syscalls without an entry is -ENOSYS. */
#define NR_syscalls             (__NR_vellum_debug + 1)
#endif
