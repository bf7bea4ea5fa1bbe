# The first attempt of docs/labs/04-pagecache.md's GDB walk: unlock_page
# clears the lock bit and the owner and wakes nobody.
edit_function mm/filemap.c unlock_page '!/^ *wake_up_page\(page\);$/'
