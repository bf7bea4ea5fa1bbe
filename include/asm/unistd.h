/* include/asm/unistd.h: the system call entry convention and the size of
 * the kernel's table.  A program puts the number in %eax and the arguments
 * in %ebx, %ecx, %edx, %esi, %edi, %ebp, executes int $0x80 and finds the
 * result (or -errno) in %eax.  The numbers themselves are ABI and live in
 * include/uapi/asm/unistd_32.h, shared with the userland. */
#ifndef _ASM_UNISTD_H
#define _ASM_UNISTD_H
#include <asm/unistd_32.h>

/* Every number below NR_syscalls without an entry is -ENOSYS
 * (kernel/syscall.c). */
#define NR_syscalls             452
#endif
