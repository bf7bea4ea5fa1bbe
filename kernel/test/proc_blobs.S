/* kernel/test/proc_blobs.S: user test programs built into the kernel image, so
 * the process layer's kernel tests (kernel/proc_test.c, test=proc) can run
 * real ELF programs before any file system is mounted.  mk/proc.mk builds
 * user/tests/proc_*.c first and adds their directory to the assembler's
 * include path. */
    .section .rodata
    .balign 16
    .globl proc_core_elf, proc_core_elf_end
proc_core_elf:
    .incbin "proc_core"
proc_core_elf_end:
    .section .note.GNU-stack,"",@progbits
