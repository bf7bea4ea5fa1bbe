/* kernel/x86/trampoline.S: where an AP starts (arch layer; Linux 2.6.24's
 * arch/x86/kernel/trampoline_32.S).
 *
 * A STARTUP IPI starts the AP in real mode at CS:IP = (vector << 8):0000,
 * i.e. at the start of a page below 1 MiB.  This code is that page's
 * content: do_boot_cpu (kernel/x86/smpboot.c) copies trampoline_data ..
 * trampoline_end there; it never runs where it is linked, so it uses no
 * address of its own but DS-relative offsets (DS = CS = the page's segment).
 * It loads a GDT with flat 32-bit code and data (boot_gdt, boot/entry.S,
 * at its physical address), sets CR0.PE and far-jumps to startup_32_smp in
 * boot/entry.S, 32-bit code at its physical address, which turns paging
 * on and goes on to start_secondary. */
#include <asm/segment.h>

    .section .rodata
    .code16
    .balign 16
    .globl trampoline_data, trampoline_end
trampoline_data:
    cli                                  /* nothing may interrupt us yet */
    movw %cs, %ax
    movw %ax, %ds
    lgdtl trampoline_gdt_descr - trampoline_data
    movl %cr0, %eax
    orl $1, %eax                         /* PE: protected mode */
    movl %eax, %cr0
    ljmpl $__KERNEL_CS, $startup_32_smp  /* 32-bit, physical: boot/entry.S */

    .balign 4
trampoline_gdt_descr:
    .word 3 * 8 - 1                      /* null, __KERNEL_CS, __KERNEL_DS */
    .long boot_gdt                       /* physical (.boot.text) */
trampoline_end:
    .code32

    .section .note.GNU-stack,"",@progbits
