# docs/labs/06-perform_write.md's livelock: a chunk that committed nothing
# is retried at once, without faulting the source in (the rule of
# tools/tests/grade_hangs.sh's "livelock").
edit_function mm/filemap.c generic_perform_write '
    /^        if \(status == 0\) \{$/ { skip = 1; next }
    skip { if (/^        \}$/) skip = 0; next }
    /BUG_ON\(status > \(long\)copied\);/ {
        print "        if (status == 0)"
        print "            goto again;             /* nothing committed: try the chunk again */" }
    { print }'
