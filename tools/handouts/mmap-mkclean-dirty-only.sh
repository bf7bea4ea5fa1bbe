# The first attempt of docs/labs/08-mmap.md's GDB walk: page_mkclean
# clears only the PTE's dirty bit and leaves it writable.
edit_function mm/memory.c page_mkclean '
    /if \(\*ptep & \(_PAGE_RW \| _PAGE_DIRTY\)\) \{$/ { sub(/\(_PAGE_RW \| _PAGE_DIRTY\)/, "_PAGE_DIRTY") }
    /dirty \|= !!\(\*ptep & _PAGE_DIRTY\);$/ { sub(/dirty \|= .*/, "dirty = 1;") }
    /set_pte_at\(v->vm_mm, va, ptep, \*ptep & ~\(_PAGE_RW \| _PAGE_DIRTY\)\);$/ { sub(/~\(_PAGE_RW \| _PAGE_DIRTY\)/, "~_PAGE_DIRTY") }
    { print }'
