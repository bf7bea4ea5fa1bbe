# The first attempt of docs/labs/03-vm.md's GDB walk: copy_one_pte
# write-protects the child's PTE instead of the parent's.
edit_function mm/memory.c copy_one_pte '{
    i = index($0, "set_pte_at(src, va, sptep, *sptep & ~_PAGE_RW);")
    if (i) $0 = substr($0, 1, i - 1) "set_pte_at(dst, va, dptep, *sptep & ~_PAGE_RW);   /* COW: the child\047s copy read-only */"
    print }'
