# The wrong attempt of docs/labs/07-legacy.md: "the source was prefaulted,
# so copy #1 cannot fault": keep the page locked through copy #1 and skip
# the unlock, re-lock and re-check.
edit_function mm/filemap.c legacy_write_chunk_2copy '
    /^        unlock_page\(page\);$/ && !seen_unlock++ {
        print "        /* the source was prefaulted above: copy #1 cannot fault, keep the page */"; next }
    /^            put_page\(page\);$/ && !seen_nomem++ { print "            unlock_page(page);"; print; next }
    /^        if \(copied == 0\) \{$/ { print; print "            unlock_page(page);"; next }
    /^        lock_page\(page\);$/ { skip = 1; next }
    skip && /^        }$/ { skip = 0; print "        trace_legacy_relock(false);     /* never unlocked, so never raced */"; next }
    skip { next }
    { print }'
