/* mm/page-writeback_test.c: ktests of do_writepages (test=writeback, with
 * fs/buffer_test.c): a pass for sync writes the pages dirty when it began,
 * however many pages another task dirties meanwhile (Linux's
 * tag_pages_for_writeback and PAGECACHE_TAG_TOWRITE).
 *
 * The file is a ramfs file whose a_ops get a ->writepage (wt_writepage)
 * before any page exists; each call "writes" the page and then, as a
 * process appending to the file would, dirties one new page past the end.
 * Before the fix a WB_SYNC_ALL pass followed the appender page after page;
 * the appender stops after WT_APPEND_MAX pages so that the old pass ends
 * and the test can fail instead of hanging. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <ktest.h>
#include <mm.h>
#include <fs.h>
#include <pagemap.h>
#include <writeback.h>
#include "../fs/internal.h"          /* vfs_ensure_root */

#define WT_APPEND_MAX 100
static struct address_space_operations wt_aops;
static int wt_written, wt_appended;
static bool wt_append;

static int wt_writepage(struct page *page, struct writeback_control *wbc)
{
    struct address_space *mapping = page->mapping;
    wt_written++;
    set_page_writeback(page);
    unlock_page(page);
    end_page_writeback(page);
    if (wt_append && wt_appended < WT_APPEND_MAX) {
        struct inode *inode = mapping->host;
        unsigned long index = (unsigned long)(inode->i_size >> PAGE_SHIFT);
        struct page *np = find_or_create_page(mapping, index, GFP_KERNEL);
        if (np) {
            memset(page_address(np), 'z', PAGE_SIZE);
            SetPageUptodate(np);
            set_page_dirty(np);
            inode->i_size = (loff_t)(index + 1) << PAGE_SHIFT;
            unlock_page(np);
            put_page(np);
            wt_appended++;
        }
    }
    return 0;
}

/* NAME on ramfs with wt_aops, `pages` dirty pages. */
static struct file *wt_open(const char *name, int pages)
{
    static char pbuf[PAGE_SIZE];
    if (vfs_ensure_root())
        return NULL;
    vfs_unlink(name);
    struct file *f = filp_open(name, O_RDWR | O_CREAT | O_EXCL, 0644);
    if (IS_ERR(f))
        return NULL;
    wt_aops = *f->f_mapping->a_ops;
    wt_aops.writepage = wt_writepage;
    f->f_mapping->a_ops = &wt_aops;
    for (int p = 0; p < pages; p++) {
        memset(pbuf, 'a' + p, PAGE_SIZE);
        loff_t pos = (loff_t)p * PAGE_SIZE;
        if (kernel_write(f, pbuf, PAGE_SIZE, &pos) != PAGE_SIZE) {
            filp_close(f);
            return NULL;
        }
    }
    return f;
}

static void wt_close(struct file *f, const char *name)
{
    truncate_inode_pages(f->f_mapping, 0);
    f->f_inode->i_size = 0;
    filp_close(f);
    vfs_unlink(name);
}

/* Dirty pages at index >= from, and pages still tagged for writeback. */
static void wt_count(struct address_space *mapping, unsigned long from,
                     int *dirty, int *tagged)
{
    unsigned long flags;
    struct page *page;
    *dirty = *tagged = 0;
    spin_lock_irqsave(&mapping->tree_lock, flags);
    list_for_each_entry(page, &mapping->pages, i_pages) {
        if (PageDirty(page) && page->index >= from)
            (*dirty)++;
        if (PageTowrite(page))
            (*tagged)++;
    }
    spin_unlock_irqrestore(&mapping->tree_lock, flags);
}

/* 4 dirty pages; every write appends a dirty page.  The WB_SYNC_ALL pass
 * (fsync's, through filemap_fdatawrite) writes the 4 and stops; the 4
 * appended meanwhile wait, dirty, for the next pass.  Then the first pass
 * of sync(2) and fsync (WB_SYNC_NONE, tagged_writepages) does the same. */
KTEST(writeback, sync_pass_writes_the_pages_dirty_at_its_start)
{
    struct file *f = wt_open("/wt_append", 4);
    KT_ASSERT(f != NULL);
    struct address_space *mapping = f->f_mapping;
    int dirty, tagged;

    wt_written = wt_appended = 0;
    wt_append = true;
    KT_EXPECT_EQ(filemap_fdatawrite(mapping), 0);
    KT_EXPECT_EQ(wt_written, 4);
    KT_EXPECT_EQ(wt_appended, 4);
    wt_count(mapping, 0, &dirty, &tagged);
    KT_EXPECT_EQ(dirty, 4);             /* pages 4..7, dirtied after it began */
    wt_count(mapping, 4, &dirty, &tagged);
    KT_EXPECT_EQ(dirty, 4);
    KT_EXPECT_EQ(tagged, 0);

    wt_written = 0;
    struct writeback_control wbc = {
        .sync_mode = WB_SYNC_NONE, .nr_to_write = 0x7fffffff, .tagged_writepages = 1,
    };
    KT_EXPECT_EQ(do_writepages(mapping, &wbc), 0);
    KT_EXPECT_EQ(wt_written, 4);        /* pages 4..7 */
    wt_count(mapping, 0, &dirty, &tagged);
    KT_EXPECT_EQ(dirty, 4);             /* pages 8..11 */
    KT_EXPECT_EQ(tagged, 0);

    /* Nobody appends now: the next pass leaves nothing dirty. */
    wt_append = false;
    wt_written = 0;
    KT_EXPECT_EQ(filemap_write_and_wait(mapping), 0);
    KT_EXPECT_EQ(wt_written, 4);
    wt_count(mapping, 0, &dirty, &tagged);
    KT_EXPECT_EQ(dirty, 0);
    KT_EXPECT_EQ(tagged, 0);
    wt_close(f, "/wt_append");
}

/* Background writeback (WB_SYNC_NONE, not tagged) is bounded by its
 * nr_to_write instead: it may write pages dirtied during the pass. */
KTEST(writeback, background_pass_is_bounded_by_nr_to_write)
{
    struct file *f = wt_open("/wt_bg", 2);
    KT_ASSERT(f != NULL);
    wt_written = wt_appended = 0;
    wt_append = true;
    struct writeback_control wbc = { .sync_mode = WB_SYNC_NONE, .nr_to_write = 10 };
    KT_EXPECT_EQ(do_writepages(f->f_mapping, &wbc), 0);
    KT_EXPECT_EQ(wt_written, 10);
    KT_EXPECT_EQ(wbc.nr_to_write, 0);
    wt_append = false;
    wt_close(f, "/wt_bg");
}
