/* fs/libfs.c: helpers for filesystems that live in the page cache (ramfs),
 * as Linux's fs/libfs.c: simple_readpage, simple_write_begin/end, and the
 * page-cache symlink body (page_symlink / page_readlink).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include "internal.h"

/* A page that is not in the cache of a page-cache-only file is a hole:
 * zeros.  Entry: page locked; exit: uptodate and unlocked. */
int simple_readpage(struct file *file, struct page *page)
{
    memset(page_address(page), 0, PAGE_SIZE);
    SetPageUptodate(page);
    unlock_page(page);
    return 0;
}

/* Lock the page; if it is new (not uptodate) zero what the write will not
 * cover, so the page never shows garbage. */
int simple_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
                       unsigned len, unsigned flags, struct page **pagep, void **fsdata)
{
    unsigned long index = (unsigned long)(pos >> PAGE_SHIFT);
    unsigned from = (unsigned)(pos & (PAGE_SIZE - 1));
    struct page *page = grab_cache_page_write_begin(mapping, index);
    if (!page)
        return -ENOMEM;
    if (!PageUptodate(page) && len != PAGE_SIZE) {
        char *p = page_address(page);
        memset(p, 0, from);
        memset(p + from + len, 0, PAGE_SIZE - from - len);
    }
    *pagep = page;
    return 0;
}

/* The short-copy rule of page-cache-only filesystems (Linux's
 * simple_write_end): a short copy into a page that is not uptodate zeroes
 * the part that was not copied and COMMITS the copied bytes: there is no
 * disk copy of the page that could be "garbage", the rest of the page is
 * already zeros (simple_write_begin).  So copied bytes are always committed.
 * Nothing copied commits nothing: i_size grows only by copied bytes (a
 * pwrite from an unreadable buffer at 1 MiB leaves an empty file empty, as
 * on Linux; user/conform/write_path).  Linux's simple_write_end has no such
 * test, because Linux 6.1's loop faults the source in before write_begin
 * and never gets here with copied 0 from an unreadable buffer; our loop
 * copies first (mm/filemap.c, step 7), so write_end must not extend
 * i_size for a copy that did not happen (generic_write_end: the same). */
int simple_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                     unsigned len, unsigned copied, struct page *page, void *fsdata)
{
    struct inode *inode = mapping->host;
    unsigned from = (unsigned)(pos & (PAGE_SIZE - 1));
    if (!PageUptodate(page)) {
        if (copied < len)
            memset((char *)page_address(page) + from + copied, 0, len - copied);
        SetPageUptodate(page);
    }
    if (copied && pos + copied > inode->i_size)   /* under the page lock */
        inode->i_size = pos + copied;
    if (copied)
        set_page_dirty(page);
    unlock_page(page);
    put_page(page);
    return (int)copied;
}

int page_symlink(struct inode *inode, const char *target, size_t len)
{
    struct address_space *mapping = inode->i_mapping;
    struct page *page;
    void *fsdata = NULL;
    if (len > PAGE_SIZE - 1)
        return -ENAMETOOLONG;
    /* A kernel source: the copy below cannot come up short. */
    int err = pagecache_write_begin(NULL, mapping, 0, (unsigned)len,
                                    AOP_FLAG_UNINTERRUPTIBLE, &page, &fsdata);
    if (err)
        return err;
    memcpy(page_address(page), target, len);
    err = pagecache_write_end(NULL, mapping, 0, (unsigned)len, (unsigned)len, page, fsdata);
    if (err < 0)
        return err;
    if ((size_t)err < len)
        return -EIO;
    mark_inode_dirty(inode);
    return 0;
}

int page_readlink(struct inode *inode, char *buf, size_t size)
{
    struct page *page = read_mapping_page(inode->i_mapping, 0, NULL);
    if (IS_ERR(page))
        return (int)PTR_ERR(page);
    size_t n = (size_t)min(inode->i_size, (loff_t)size);
    if (n > PAGE_SIZE)
        n = PAGE_SIZE;
    memcpy(buf, page_address(page), n);
    put_page(page);
    return (int)n;
}

int generic_readlink(struct inode *inode, char *buf, size_t size)
{
    return page_readlink(inode, buf, size);
}
