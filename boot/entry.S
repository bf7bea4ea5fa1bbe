/* boot/entry.S: the first instructions.  GRUB or QEMU -kernel jumps here in
 * protected mode with paging off (Multiboot v1).  We build a boot page
 * directory that maps physical 0-16 MiB both at 0 (so the next instruction
 * still runs) and at 0xC0000000 (the higher half), using 4 MiB pages, then
 * jump up, drop the identity map's use, load the boot CPU's GDT with %fs on
 * its per-CPU segment (include/asm/percpu.h: `current` is read through it,
 * from kmain's first printk on), and call kmain().  mm/paging.c later
 * replaces this directory with the real one.
 * startup_32_smp below is where each AP arrives from the real-mode
 * trampoline (kernel/x86/trampoline.S); it uses the same boot directory. */
#include <asm/segment.h>
#include <asm/layout.h>

#define MB_MAGIC     0x1BADB002
#define MB_FLAGS     0x00000003          /* page-align modules, give memory map */

    .section .multiboot, "a"
    .align 4
    .long MB_MAGIC
    .long MB_FLAGS
    .long -(MB_MAGIC + MB_FLAGS)

    .section .boot.data, "aw", @nobits
    .align 4096
boot_pgdir:
    .skip 4096

    .section .boot.text, "ax"
    .globl _start
_start:
    cli
    mov %eax, %esi                       /* multiboot magic */
    mov %ebx, %edi                       /* multiboot info (physical) */

    /* 4 identity + 4 higher-half 4 MiB PDEs: present|write|PS */
    mov $boot_pgdir, %edx
    xor %ecx, %ecx
1:  mov %ecx, %eax
    shl $22, %eax
    or  $0x83, %eax
    mov %eax, (%edx,%ecx,4)
    mov %eax, (KERNEL_BASE >> 22) * 4(%edx,%ecx,4)
    inc %ecx
    cmp $4, %ecx
    jne 1b

    mov %cr4, %eax
    or  $0x10, %eax                      /* CR4.PSE */
    mov %eax, %cr4
    mov %edx, %cr3
    mov %cr0, %eax
    or  $0x80010000, %eax                /* PG | WP */
    mov %eax, %cr0
    lea higher_half, %eax
    jmp *%eax

/* An AP, from the trampoline (kernel/x86/trampoline.S): protected mode,
 * paging off, flat segments of boot_gdt, at this physical address.  The
 * same boot directory as the boot CPU's above (it still maps 0-16 MiB both
 * at 0 and at 0xC0000000), then the kernel's own. */
    .globl startup_32_smp
startup_32_smp:
    mov $__KERNEL_DS, %eax
    mov %eax, %ds
    mov %eax, %es
    mov %eax, %ss
    mov %cr4, %eax
    or  $0x10, %eax                      /* CR4.PSE */
    mov %eax, %cr4
    mov $boot_pgdir, %eax
    mov %eax, %cr3
    mov %cr0, %eax
    or  $0x80010000, %eax                /* PG | WP */
    mov %eax, %cr0
    lea secondary_higher_half, %eax
    jmp *%eax

/* The trampoline's GDT (its lgdt loads this physical address): null, then
 * flat 32-bit ring-0 code and data at __KERNEL_CS and __KERNEL_DS. */
    .balign 8
    .globl boot_gdt
boot_gdt:
    .quad 0
    .quad 0x00cf9a000000ffff
    .quad 0x00cf92000000ffff

    .text
higher_half:
    lgdt early_gdt_descr                 /* the boot CPU's GDT (kernel/x86/gdt.c) */
    ljmp $__KERNEL_CS, $1f
1:  mov $__KERNEL_DS, %eax
    mov %eax, %ds
    mov %eax, %es
    mov %eax, %ss
    mov $__KERNEL_PERCPU, %eax
    mov %eax, %fs
    xor %eax, %eax
    mov %eax, %gs
    mov $boot_stack_top, %esp
    xor %ebp, %ebp                       /* ends backtraces */
    push $boot_pgdir + KERNEL_BASE       /* virtual address of the boot directory */
    push %edi
    push %esi
    call kmain
2:  cli
    hlt
    jmp 2b

/* The AP goes on in the higher half: swapper_pg_dir (its stack and its
 * per-CPU area may lie above the boot directory's 16 MiB), the GDT
 * do_boot_cpu pointed early_gdt_descr at, %fs on its per-CPU segment, the
 * stack do_boot_cpu put in initial_stack, then C (kernel/x86/smpboot.c). */
secondary_higher_half:
    mov $swapper_pg_dir - KERNEL_BASE, %eax
    mov %eax, %cr3
    lgdt early_gdt_descr
    ljmp $__KERNEL_CS, $1f
1:  mov $__KERNEL_DS, %eax
    mov %eax, %ds
    mov %eax, %es
    mov %eax, %ss
    mov $__KERNEL_PERCPU, %eax
    mov %eax, %fs
    xor %eax, %eax
    mov %eax, %gs
    mov initial_stack, %esp
    xor %ebp, %ebp
    call start_secondary
3:  cli
    hlt
    jmp 3b

    .bss
    .align 16
    .globl boot_stack, boot_stack_top
boot_stack:
    .skip 16384
boot_stack_top:

    .section .note.GNU-stack,"",@progbits
