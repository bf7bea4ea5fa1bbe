/* kernel/x86/entry.S: every way into the kernel after boot (arch layer).
 *
 * One small stub per vector makes the stack look the same for all of them
 * (pushes a 0 error code where the CPU pushes none, then the vector), and
 * jumps to common_entry, which saves the registers as a struct pt_regs
 * (include/asm/ptrace.h has the picture), loads the kernel data segments
 * and the per-CPU segment into %fs (include/asm/percpu.h), zeroes %ebp (the frame chain ends at the trap frame; a backtrace that
 * knows trap_return_address goes on through the saved registers) and calls
 * do_trap(regs).  Returning, ret_from_intr restores the frame and irets.
 *
 * Entry from ring 3: the CPU has already switched to the kernel stack whose
 * top is TSS.esp0 (kernel/x86/gdt.c) and pushed the user ss:esp above the iret
 * frame.  On the way back to ring 3, exit_to_user_mode(regs) runs first.
 *
 * A new process (fork, and pid 1) starts in ret_from_fork, in
 * kernel/x86/user_entry.S: it calls the scheduler's tail hook and then
 * jumps to ret_from_intr here with %esp pointing at the child's pt_regs:
 * that jump is all a new process needs from this file.  (A new kthread
 * starts in kernel/x86/switch.S's ret_from_kthread instead.)
 *
 * Simplification: restoring a bad user segment (say %gs naming a TLS entry
 * that was cleared) faults inside the kernel and oopses; Linux repairs this
 * with exception-table fixups. */
#include <asm/segment.h>
#include <asm/ptrace.h>

/* Vectors where the CPU pushes an error code: 8, 10-14, 17, 21, 29, 30. */
.macro VECTOR n
    .globl trap_stub_\n
    .type trap_stub_\n, @function
trap_stub_\n:
.if (\n == 8) || ((\n >= 10) && (\n <= 14)) || (\n == 17) || (\n == 21) || (\n == 29) || (\n == 30)
.else
    pushl $0                           /* no CPU error code: keep the layout */
.endif
    pushl $\n
    jmp common_entry
.endm

    .text
    .align 16
.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
    VECTOR \n
.endr

/* int $0x80: orig_ax = the system call number, as Linux. */
    .globl trap_stub_syscall
    .type trap_stub_syscall, @function
trap_stub_syscall:
    pushl %eax
    pushl $0x80
    jmp common_entry

    .type common_entry, @function
common_entry:
    cld
    pushl %gs
    pushl %fs
    pushl %es
    pushl %ds
    pushl %eax
    pushl %ebp
    pushl %edi
    pushl %esi
    pushl %edx
    pushl %ecx
    pushl %ebx
    movl $__KERNEL_DS, %edx
    movl %edx, %ds
    movl %edx, %es
    /* %fs: this CPU's per-CPU segment (include/asm/percpu.h; the user's
     * %fs is in the frame).  %gs keeps the user's value (TLS): the kernel
     * does not use it. */
    movl $__KERNEL_PERCPU, %edx
    movl %edx, %fs
    xorl %ebp, %ebp
    movl %esp, %eax
    pushl %eax                         /* do_trap(struct pt_regs *regs) */
    call do_trap
.Ltrap_return: addl $4, %esp           /* do_trap returns here: trap_return_address */

/* %esp points at a struct pt_regs: return to whatever it describes. */
    .globl ret_from_intr
    .type ret_from_intr, @function
ret_from_intr:
    cli
    testl $3, PT_CS(%esp)
    jz restore_all
    pushl %esp                         /* exit_to_user_mode(regs) */
    call exit_to_user_mode
    addl $4, %esp
    cli
restore_all:
    popl %ebx
    popl %ecx
    popl %edx
    popl %esi
    popl %edi
    popl %ebp
    popl %eax
    popl %ds
    popl %es
    popl %fs
    popl %gs
    addl $8, %esp                      /* trapno, orig_ax/err */
    iret

/* The local APIC's vectors (kernel/x86/apic.h), through common_entry
 * like any other: their handlers (kernel/x86/smp.c) count per CPU, which
 * needs %fs.  The order is apic_vectors' below. */
.irp n, 0xEF,0xF8,0xFB,0xFC,0xFD,0xFF
    VECTOR \n
.endr

/* Where do_trap returns to: a backtrace that meets this return address has
 * reached a trap frame, the struct pt_regs just above it, and goes on into
 * the interrupted kernel code (walk_stack_bounded, kernel/ksyms.c). */
    .section .rodata
    .align 4
    .globl trap_return_address
trap_return_address:
    .long .Ltrap_return

/* Addresses of the stubs for vectors 0x00-0x2F, for the IDT. */
    .section .rodata
    .align 4
    .globl trap_stub_table
trap_stub_table:
.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47
    .long trap_stub_\n
.endr

/* The local APIC's vectors and their stubs, for the IDT (traps.c). */
    .section .rodata
    .align 4
    .globl apic_stub_table
apic_stub_table:
.irp n, 0xEF,0xF8,0xFB,0xFC,0xFD,0xFF
    .long trap_stub_\n
.endr
    .globl apic_vectors
apic_vectors:
    .byte 0xEF,0xF8,0xFB,0xFC,0xFD,0xFF

    .section .note.GNU-stack,"",@progbits
