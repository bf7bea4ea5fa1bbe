# docs/labs/06-perform_write.md's crash: write_begin is handed a page
# pointer that points nowhere (the rule of tools/tests/grade_hangs.sh's "crash").
edit_function mm/filemap.c generic_perform_write '
    /^        struct page \*page;$/ { print "        struct page *page, **pagep = NULL;     /* write_begin puts the page here */"; next }
    /write_begin\(file, mapping, pos, bytes, flags, &page, &fsdata\);/ {
        sub(/&page, &fsdata/, "pagep, \\&fsdata"); print; print "        page = *pagep;"; next }
    { print }'
