# The first attempt of docs/labs/06-perform_write.md's GDB walk: after a
# short copy, fault the source in and copy again while the page is still
# locked (the rule of tools/tests/grade_hangs.sh's "deadlock").
edit_function mm/filemap.c generic_perform_write '{ print }
    /copied = copy_page_from_iter_atomic\(page, offset, bytes, i\);/ {
        print "        if (copied < bytes) {"
        print "            /* bring the source in and copy again, while the page is ours */"
        print "            fault_in_iov_iter_readable(i, bytes);"
        print "            copied = copy_page_from_iter_atomic(page, offset, bytes, i);"
        print "        }" }'
