#!/bin/sh
# tools/mkksyms.sh NM ELF: turn the first-pass kernel's text symbols into an
# assembly table (sorted addresses, then NUL-separated names) for backtraces.
# Layout: ksyms_count (.long N), ksyms_addrs (N .longs, ascending),
# ksyms_names (N NUL-terminated strings, in the same order).
nm="$1"; elf="$2"
$nm -n "$elf" | awk 'BEGIN { n = 0 }
$2 ~ /^[tTwW]$/ && $3 !~ /^\./ { a[n] = $1; s[n] = $3; n++ }
END {
    print "    .section .ksyms, \"a\""
    print "    .globl ksyms_count, ksyms_addrs, ksyms_names"
    print "    .align 4"
    print "ksyms_count: .long " n
    print "ksyms_addrs:"
    for (i = 0; i < n; i++) print "    .long 0x" a[i]
    print "ksyms_names:"
    for (i = 0; i < n; i++) print "    .asciz \"" s[i] "\""
    print "    .section .note.GNU-stack,\"\",@progbits"
}'
