/* tools/ksyms-empty.S: an empty kernel symbol table for the first link pass. */
    .section .ksyms, "a"
    .globl ksyms_count, ksyms_addrs, ksyms_names
    .align 4
ksyms_count: .long 0
ksyms_addrs:
ksyms_names: .byte 0
    .section .note.GNU-stack,"",@progbits
