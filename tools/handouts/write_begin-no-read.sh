# The first attempt of docs/labs/05-write_begin.md's GDB walk:
# __block_write_begin never reads a block the write covers only partly.
edit_function fs/buffer.c __block_write_begin '
    /if \(!buffer_uptodate\(bh\) && \(block_start < from \|\| block_end > to\)\) \{$/ { skip = 1; next }
    skip { if (/^        \}$/) skip = 0; next }
    { print }'
