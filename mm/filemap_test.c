/* mm/filemap_test.c: kernel tests of the page cache (suite pagecache) and
 * of the write loop (suite writepath).
 *
 * Most tests run on ramfs files whose address_space operations are swapped
 * for tfs_aops below, which keep the file's bytes in a "store" (the backing
 * disk, in memory) and count every call: write_begin/write_end with Linux's
 * block_write_begin/block_write_end rules (a write that covers the whole page
 * reads nothing; a short copy into a page that is not uptodate commits
 * NOTHING, returns 0).  ramfs's own simple_write_end is the other short-copy
 * rule (zero the rest, commit what was copied), so both rules are tested side
 * by side.  The legacy fallback runs on ramfs too: a mount with -o
 * legacy_aops on /wp_legacy, whose files have prepare_write/commit_write only
 * (legacy_topen).  Suite cachestat tests cachestat(2) on the same files,
 * from a fake process: an mm of its own (user memory for the structures)
 * and a descriptor table of its own.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <ktest.h>
#include <completion.h>
#include <uio.h>
#include <iov_iter_test.h>             /* ITER_FAULTY, the fake user buffer */
#include <pagemap.h>
#include <writeback.h>
#include <sched.h>
#include <mm.h>
#include <slab.h>
#include <timer.h>
#include <fdtable.h>
#include <asm/mman.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <asm/uaccess.h>
#include <asm/unistd.h>
#include <linux/mman.h>

#define STORE_PAGES 64
struct tstore {
    char *data;                        /* STORE_PAGES pages */
    int readpage, writepage, begin_reads;
    int read_delay_ms, read_error;
    unsigned last_flags;               /* write_begin's flags */
    int fatal_after;                   /* set pending_fatal after N write_ends */
    int write_ends;
};
static struct tstore ts;

static void store_reset(void)
{
    if (!ts.data)
        ts.data = (char *)__get_free_pages(GFP_KERNEL, 6);
    char *d = ts.data;
    memset(&ts, 0, sizeof ts);
    ts.data = d;
    if (d)
        memset(d, 0, STORE_PAGES * PAGE_SIZE);
}

static void fill_from_store(struct page *page)
{
    if (page->index < STORE_PAGES)
        memcpy(page_address(page), ts.data + page->index * PAGE_SIZE, PAGE_SIZE);
    else
        memset(page_address(page), 0, PAGE_SIZE);
}

static int tfs_readpage(struct file *file, struct page *page)
{
    ts.readpage++;
    if (ts.read_delay_ms)
        msleep(ts.read_delay_ms);
    if (ts.read_error) {
        SetPageError(page);
        unlock_page(page);
        return -EIO;
    }
    fill_from_store(page);
    SetPageUptodate(page);
    unlock_page(page);
    return 0;
}

static int tfs_writepage(struct page *page, struct writeback_control *wbc)
{
    ts.writepage++;
    set_page_writeback(page);
    struct inode *inode = page->mapping->host;
    loff_t start = (loff_t)page->index * PAGE_SIZE;
    size_t n = PAGE_SIZE;
    if (start + (loff_t)n > inode->i_size)    /* only the part before i_size */
        n = inode->i_size > start ? (size_t)(inode->i_size - start) : 0;
    if (page->index < STORE_PAGES)
        memcpy(ts.data + start, page_address(page), n);
    unlock_page(page);
    end_page_writeback(page);
    return 0;
}

static int tfs_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
                           unsigned len, unsigned flags, struct page **pagep, void **fsdata)
{
    unsigned from = pos & (PAGE_SIZE - 1);
    struct page *page = grab_cache_page_write_begin(mapping, pos >> PAGE_SHIFT);
    if (!page)
        return -ENOMEM;
    ts.last_flags = flags;
    /* One block per page: a partly covered page must be read first; a fully
     * covered one need not be (block_write_begin). */
    if (!PageUptodate(page) && (from != 0 || len != PAGE_SIZE)) {
        ts.begin_reads++;
        fill_from_store(page);
        SetPageUptodate(page);
    }
    *pagep = page;
    return 0;
}

static int tfs_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                         unsigned len, unsigned copied, struct page *page, void *fsdata)
{
    struct inode *inode = mapping->host;
    if (!PageUptodate(page)) {
        if (copied < len)
            copied = 0;                 /* block_write_end: the loop will retry */
        else
            SetPageUptodate(page);      /* the whole page was written */
    }
    if (copied) {
        if (pos + copied > inode->i_size)
            inode->i_size = pos + copied;
        set_page_dirty(page);
    }
    unlock_page(page);
    put_page(page);
    if (ts.fatal_after && ++ts.write_ends == ts.fatal_after)
        current->pending_fatal = 1;
    return (int)copied;
}

static const struct address_space_operations tfs_aops = {
    .readpage = tfs_readpage,
    .writepage = tfs_writepage,
    .write_begin = tfs_write_begin,
    .write_end = tfs_write_end,
};

/* Open a fresh file /wp_NAME on the ramfs root with the given a_ops
 * (NULL: keep ramfs's own).  The store starts as bytes of "size" copied in. */
static struct file *topen(const char *name, const struct address_space_operations *aops,
                          loff_t size)
{
    static char path[64];
    if (vfs_ensure_root())
        return NULL;
    snprintf(path, sizeof path, "/wp_%s", name);
    vfs_unlink(path);
    /* O_LARGEFILE: as a program's open (glibc's, Vellum's libc) */
    struct file *f = filp_open(path, O_RDWR | O_CREAT | O_EXCL | O_LARGEFILE, 0644);
    if (IS_ERR(f))
        return NULL;
    if (aops)
        f->f_mapping->a_ops = aops;
    f->f_inode->i_size = size;
    return f;
}

/* Open a fresh file /wp_legacy/NAME of the legacy API: on a ramfs mounted
 * with -o legacy_aops (fs/ramfs/inode.c), mounted on the first call.  Its
 * pages are ramfs's: a page not in the cache reads as zeros. */
static struct file *legacy_topen(const char *name, loff_t size)
{
    static char leg[48];
    static bool mounted;
    if (vfs_ensure_root())
        return NULL;
    if (!mounted) {
        int err = vfs_mkdir("/wp_legacy", 0755);
        if ((err && err != -EEXIST) || do_mount("none", "/wp_legacy", "ramfs", 0, "legacy_aops"))
            return NULL;
        mounted = true;
    }
    snprintf(leg, sizeof leg, "legacy/%s", name);
    return topen(leg, NULL, size);
}

/* Close and delete; the pages leave the cache before the a_ops go back. */
static void tclose(struct file *f, const char *name)
{
    char path[64];
    struct inode *inode = f->f_inode;
    truncate_inode_pages(inode->i_mapping, 0);
    inode->i_size = 0;
    filp_close(f);
    snprintf(path, sizeof path, "/wp_%s", name);
    vfs_unlink(path);
}

static char src[3 * PAGE_SIZE];
static char buf[3 * PAGE_SIZE];

static void fill_src(void)
{
    for (unsigned k = 0; k < sizeof src; k++)
        src[k] = (char)('a' + k % 23);
}

/* A write from a faulty source through vfs_write at *pos. */
static ssize_t faulty_write(struct file *f, size_t count, size_t fault_at, int allowed,
                            loff_t *pos)
{
    struct kvec v = { src, count };
    struct faulty_iter fi;
    iov_iter_faulty(&fi, &v, 1, count, fault_at, allowed);
    return vfs_write(f, &fi.iter, pos);
}

static struct write_path_stats ws0;
static void stats_mark(void) { ws0 = write_path_stats; }
#define WS(field) (write_path_stats.field - ws0.field)

/* ---- writepath --------------------------------------------------------- */

KTEST(writepath, short_copy_into_uptodate_page_commits_copied)
{
    store_reset();
    fill_src();
    memset(ts.data, 'Z', PAGE_SIZE);
    struct file *f = topen("up", &tfs_aops, PAGE_SIZE);
    KT_ASSERT(f);
    loff_t pos = 10;
    stats_mark();
    /* 100 bytes at 10; the source "faults" at its byte 40, resolvable */
    ssize_t n = faulty_write(f, 100, 40, 1, &pos);
    KT_EXPECT_EQ(n, 100);
    KT_EXPECT_EQ(pos, 110);
    KT_EXPECT_EQ(WS(attempts), 3);        /* 40 committed; 0 -> fault-in; 60 */
    KT_EXPECT_EQ(WS(short_copies), 2);
    KT_EXPECT_EQ(WS(zero_commits), 1);
    KT_EXPECT_EQ(WS(fault_ins), 1);
    KT_EXPECT_EQ(WS(retries), 1);
    KT_EXPECT_EQ(WS(efaults), 0);
    KT_EXPECT_EQ(ts.begin_reads, 1);      /* the partly written page was read */
    loff_t rp = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, PAGE_SIZE, &rp), PAGE_SIZE);
    KT_EXPECT(!memcmp(buf + 10, src, 100));
    KT_EXPECT(buf[9] == 'Z' && buf[110] == 'Z');
    KT_EXPECT_EQ(f->f_inode->i_size, PAGE_SIZE);
    tclose(f, "up");
}

KTEST(writepath, short_copy_into_not_uptodate_page_commits_nothing)
{
    store_reset();
    fill_src();
    struct file *f = topen("nup", &tfs_aops, 0);
    KT_ASSERT(f);
    loff_t pos = 0;
    stats_mark();
    ssize_t n = faulty_write(f, PAGE_SIZE, 1000, 1, &pos);
    KT_EXPECT_EQ(n, PAGE_SIZE);
    KT_EXPECT_EQ(pos, PAGE_SIZE);
    KT_EXPECT_EQ(WS(attempts), 2);        /* 1000 copied, 0 committed; retry whole page */
    KT_EXPECT_EQ(WS(short_copies), 1);
    KT_EXPECT_EQ(WS(zero_commits), 1);
    KT_EXPECT_EQ(WS(fault_ins), 1);
    KT_EXPECT_EQ(WS(retries), 1);
    KT_EXPECT_EQ(ts.begin_reads, 0);      /* a fully covered page is never read */
    KT_EXPECT_EQ(ts.readpage, 0);
    loff_t rp = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, 2 * PAGE_SIZE, &rp), PAGE_SIZE);
    KT_EXPECT(!memcmp(buf, src, PAGE_SIZE));
    tclose(f, "nup");
}

KTEST(writepath, ramfs_short_copy_into_new_page_commits_copied)
{
    /* simple_write_end's rule: zero the uncopied part, commit the copied */
    fill_src();
    struct file *f = topen("ram", NULL, 0);
    KT_ASSERT(f);
    loff_t pos = 0;
    stats_mark();
    ssize_t n = faulty_write(f, PAGE_SIZE, 1000, 1, &pos);
    KT_EXPECT_EQ(n, PAGE_SIZE);
    KT_EXPECT_EQ(WS(attempts), 3);        /* 1000 committed; 0 -> fault-in; 3096 */
    KT_EXPECT_EQ(WS(short_copies), 2);
    KT_EXPECT_EQ(WS(zero_commits), 1);
    KT_EXPECT_EQ(WS(fault_ins), 1);
    KT_EXPECT_EQ(WS(retries), 1);
    loff_t rp = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, 2 * PAGE_SIZE, &rp), PAGE_SIZE);
    KT_EXPECT(!memcmp(buf, src, PAGE_SIZE));
    tclose(f, "ram");
}

KTEST(writepath, zero_byte_copy_faults_in_and_retries)
{
    store_reset();
    fill_src();
    memset(ts.data, 'Q', PAGE_SIZE);
    struct file *f = topen("zero", &tfs_aops, PAGE_SIZE);
    KT_ASSERT(f);
    loff_t pos = 0;
    stats_mark();
    ssize_t n = faulty_write(f, 200, 0, 1, &pos);
    KT_EXPECT_EQ(n, 200);
    KT_EXPECT_EQ(WS(attempts), 2);
    KT_EXPECT_EQ(WS(short_copies), 1);
    KT_EXPECT_EQ(WS(zero_commits), 1);
    KT_EXPECT_EQ(WS(fault_ins), 1);
    KT_EXPECT_EQ(WS(retries), 1);
    loff_t rp = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, PAGE_SIZE, &rp), PAGE_SIZE);
    KT_EXPECT(!memcmp(buf, src, 200) && buf[200] == 'Q');
    tclose(f, "zero");
}

KTEST(writepath, unfaultable_at_byte_zero_is_efault_nothing_changes)
{
    store_reset();
    fill_src();
    memset(ts.data, 'Q', PAGE_SIZE);
    struct file *f = topen("efault", &tfs_aops, PAGE_SIZE);
    KT_ASSERT(f);
    f->f_pos = 123;
    stats_mark();
    ssize_t n = faulty_write(f, 500, 0, 0, &f->f_pos);
    KT_EXPECT_EQ(n, -EFAULT);
    KT_EXPECT_EQ(f->f_pos, 123);
    KT_EXPECT_EQ(f->f_inode->i_size, PAGE_SIZE);
    KT_EXPECT_EQ(WS(attempts), 1);
    KT_EXPECT_EQ(WS(zero_commits), 1);
    KT_EXPECT_EQ(WS(fault_ins), 1);
    KT_EXPECT_EQ(WS(retries), 0);
    KT_EXPECT_EQ(WS(efaults), 1);
    loff_t rp = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, PAGE_SIZE, &rp), PAGE_SIZE);
    int same = 1;
    for (int k = 0; k < PAGE_SIZE; k++)
        same &= buf[k] == 'Q';
    KT_EXPECT(same);
    tclose(f, "efault");
}

KTEST(writepath, unfaultable_mid_buffer_returns_partial_count)
{
    store_reset();
    fill_src();
    struct file *f = topen("mid", &tfs_aops, 0);
    KT_ASSERT(f);
    stats_mark();
    /* 6000 bytes from 0; bytes from 5000 on can never be faulted in */
    ssize_t n = faulty_write(f, 6000, 5000, 0, &f->f_pos);
    KT_EXPECT_EQ(n, 5000);
    KT_EXPECT_EQ(f->f_pos, 5000);
    KT_EXPECT_EQ(f->f_inode->i_size, 5000);
    KT_EXPECT_EQ(WS(attempts), 3);        /* page 0 full; 904 into page 1; then 0 */
    KT_EXPECT_EQ(WS(short_copies), 2);
    KT_EXPECT_EQ(WS(zero_commits), 1);
    KT_EXPECT_EQ(WS(fault_ins), 1);
    KT_EXPECT_EQ(WS(retries), 0);
    KT_EXPECT_EQ(WS(efaults), 1);
    loff_t rp = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, sizeof buf, &rp), 5000);
    KT_EXPECT(!memcmp(buf, src, 5000));
    tclose(f, "mid");
}

KTEST(writepath, unfaultable_mid_page_not_uptodate_retries_shorter)
{
    store_reset();
    fill_src();
    struct file *f = topen("midnup", &tfs_aops, 0);
    KT_ASSERT(f);
    stats_mark();
    ssize_t n = faulty_write(f, PAGE_SIZE, 1000, 0, &f->f_pos);
    /* 1000 copied into a not-uptodate page: 0 committed; fault-in reaches 1000
     * bytes: retry those 1000 (now a partial write: the page is read first);
     * then the rest cannot be faulted in */
    KT_EXPECT_EQ(n, 1000);
    KT_EXPECT_EQ(f->f_pos, 1000);
    KT_EXPECT_EQ(f->f_inode->i_size, 1000);
    KT_EXPECT_EQ(WS(attempts), 3);
    KT_EXPECT_EQ(WS(short_copies), 2);
    KT_EXPECT_EQ(WS(zero_commits), 2);
    KT_EXPECT_EQ(WS(fault_ins), 2);
    KT_EXPECT_EQ(WS(retries), 1);
    KT_EXPECT_EQ(WS(efaults), 1);
    KT_EXPECT_EQ(ts.begin_reads, 1);
    loff_t rp = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, sizeof buf, &rp), 1000);
    KT_EXPECT(!memcmp(buf, src, 1000));
    tclose(f, "midnup");
}

KTEST(writepath, kernel_source_is_uninterruptible)
{
    store_reset();
    fill_src();
    struct file *f = topen("kvec", &tfs_aops, 0);
    KT_ASSERT(f);
    stats_mark();
    KT_EXPECT_EQ(kernel_write(f, src, 5000, &f->f_pos), 5000);
    KT_EXPECT(ts.last_flags & AOP_FLAG_UNINTERRUPTIBLE);
    KT_EXPECT_EQ(WS(short_copies), 0);
    KT_EXPECT_EQ(WS(attempts), 2);
    ts.last_flags = 0;
    faulty_write(f, 10, (size_t)-1, 1, &f->f_pos);
    KT_EXPECT(!(ts.last_flags & AOP_FLAG_UNINTERRUPTIBLE));   /* a user-like source */
    tclose(f, "kvec");
}

KTEST(writepath, fatal_signal_stops_between_chunks)
{
    store_reset();
    fill_src();
    struct file *f = topen("sig", &tfs_aops, 0);
    KT_ASSERT(f);
    ts.fatal_after = 1;                 /* "SIGKILL" arrives during chunk 1 */
    ssize_t n = kernel_write(f, src, 3 * PAGE_SIZE, &f->f_pos);
    current->pending_fatal = 0;
    KT_EXPECT_EQ(n, PAGE_SIZE);           /* the partial count */
    KT_EXPECT_EQ(f->f_pos, PAGE_SIZE);
    ts.fatal_after = 0;
    current->pending_fatal = 1;         /* pending before anything: -EINTR */
    n = kernel_write(f, src, 10, &f->f_pos);
    current->pending_fatal = 0;
    KT_EXPECT_EQ(n, -EINTR);
    KT_EXPECT_EQ(f->f_inode->i_size, PAGE_SIZE);
    tclose(f, "sig");
}

KTEST(writepath, efbig_past_s_maxbytes)
{
    struct file *f = topen("big", NULL, 0);
    KT_ASSERT(f);
    loff_t saved = f->f_inode->i_sb->s_maxbytes;
    f->f_inode->i_sb->s_maxbytes = 10000;
    loff_t pos = 10000;
    KT_EXPECT_EQ(kernel_write(f, src, 10, &pos), -EFBIG);
    pos = 9995;
    KT_EXPECT_EQ(kernel_write(f, src, 10, &pos), 5);   /* cut at the limit */
    f->f_inode->i_sb->s_maxbytes = saved;
    tclose(f, "big");
}

KTEST(writepath, legacy_fallback_two_copies)
{
    fill_src();
    struct file *f = legacy_topen("two", 2 * PAGE_SIZE);   /* two pages of zeros */
    KT_ASSERT(f);
    KT_EXPECT(!f->f_mapping->a_ops->write_begin && f->f_mapping->a_ops->prepare_write);
    legacy_write_mode = LEGACY_WRITE_2COPY;
    stats_mark();
    /* a user-like source into a page that is not cached (not uptodate) */
    f->f_pos = 100;
    ssize_t n = faulty_write(f, 5000, 3000, 1, &f->f_pos);
    KT_EXPECT_EQ(n, 5000);
    KT_EXPECT_EQ(f->f_pos, 5100);
    KT_EXPECT_EQ(WS(legacy_2copy), 2);    /* both pages went through a temporary page */
    /* a kernel source needs no temporary page */
    f->f_pos = 0;
    KT_EXPECT_EQ(kernel_write(f, "HEAD", 4, &f->f_pos), 4);
    KT_EXPECT_EQ(WS(legacy_2copy), 2);
    loff_t rp = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, sizeof buf, &rp), 2 * PAGE_SIZE);
    KT_EXPECT(!memcmp(buf, "HEAD", 4));
    /* prepare_write zeroed what the write did not cover */
    KT_EXPECT(buf[4] == 0 && buf[99] == 0 && buf[5100] == 0 && buf[8191] == 0);
    KT_EXPECT(!memcmp(buf + 100, src, 5000));
    tclose(f, "legacy/two");
}

/* The stand-in page-fault handler for "the source is an mmap of the file
 * being written": resolving the fault reads the file's page 0 in, which
 * takes its page lock (what filemap_fault does, with the same escape:
 * lock_page_or_deadlock backs out of a page this task holds). */
static struct address_space *fault_mapping;
static void fault_locks_page0(void *arg)
{
    struct page *page = find_get_page(fault_mapping, 0);
    if (page) {
        if (lock_page_or_deadlock(page) == 0)
            unlock_page(page);
        put_page(page);
    }
}

static ssize_t mmap_like_write(struct file *f, size_t count)
{
    struct kvec v = { src, count };
    struct faulty_iter fi;
    iov_iter_faulty(&fi, &v, 1, count, 10, 1);
    fi.fault_handler = fault_locks_page0;
    fault_mapping = f->f_mapping;
    f->f_pos = 0;
    return vfs_write(f, &fi.iter, &f->f_pos);
}

KTEST(writepath, naive_legacy_path_self_deadlocks_2copy_does_not)
{
    fill_src();
    struct file *f = legacy_topen("naive", 0);
    KT_ASSERT(f);
    unsigned long sd = pagecache_stats.self_deadlocks;
    legacy_write_mode = LEGACY_WRITE_2COPY;
    KT_EXPECT_EQ(mmap_like_write(f, 100), 100);
    KT_EXPECT_EQ(pagecache_stats.self_deadlocks, sd);      /* fault taken unlocked */
    legacy_write_mode = LEGACY_WRITE_NAIVE;
    stats_mark();
    KT_EXPECT_EQ(mmap_like_write(f, 100), 100);
    legacy_write_mode = LEGACY_WRITE_2COPY;
    KT_EXPECT_EQ(WS(legacy_naive), 1);
    KT_EXPECT_EQ(pagecache_stats.self_deadlocks, sd + 1);  /* the fault under the lock */
    struct page *p0 = find_get_page(f->f_mapping, 0);
    KT_ASSERT(p0);
    KT_EXPECT(!PageLocked(p0));           /* the fault backed out; write_end unlocked */
    put_page(p0);
    tclose(f, "legacy/naive");
}

/* The 2-copy fallback's point: copy #1, which may fault, runs with the page
 * UNLOCKED.  The prefault alone is no guarantee (the source page can be
 * reclaimed before the copy): here the fault comes back once after the
 * prefault, and resolving it locks page 0, the page being written, as
 * filemap_fault would.  Copying with page 0 still locked is the naive path's
 * self-deadlock (reported by lock_page_or_deadlock, counted); unlocked, the
 * fault takes the lock and lets it go. */
KTEST(writepath, legacy_2copy_copies_with_the_page_unlocked)
{
    fill_src();
    struct file *f = legacy_topen("unl", 0);
    KT_ASSERT(f);
    legacy_write_mode = LEGACY_WRITE_2COPY;
    unsigned long sd = pagecache_stats.self_deadlocks;
    stats_mark();
    struct kvec v = { src, 100 };
    struct faulty_iter fi;
    iov_iter_faulty(&fi, &v, 1, 100, 10, 1);
    fi.fault_handler = fault_locks_page0;
    fi.refaults = 1;
    fault_mapping = f->f_mapping;
    f->f_pos = 0;
    KT_EXPECT_EQ(vfs_write(f, &fi.iter, &f->f_pos), 100);
    KT_EXPECT_EQ(pagecache_stats.self_deadlocks, sd);     /* no fault under the lock */
    KT_EXPECT_EQ(WS(legacy_2copy), 1);
    loff_t rp = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, sizeof buf, &rp), 100);
    KT_EXPECT(!memcmp(buf, src, 100));
    struct page *p0 = find_get_page(f->f_mapping, 0);
    KT_ASSERT(p0);
    KT_EXPECT(!PageLocked(p0));
    put_page(p0);
    tclose(f, "legacy/unl");
}

KTEST(writepath, write_begin_path_faults_with_page_unlocked)
{
    store_reset();
    fill_src();
    struct file *f = topen("wbfault", &tfs_aops, 0);
    KT_ASSERT(f);
    unsigned long sd = pagecache_stats.self_deadlocks;
    stats_mark();
    KT_EXPECT_EQ(mmap_like_write(f, 100), 100);
    KT_EXPECT_EQ(pagecache_stats.self_deadlocks, sd);
    KT_EXPECT_EQ(WS(fault_ins), 1);
    KT_EXPECT_EQ(WS(retries), 1);
    tclose(f, "wbfault");
}

/* ---- pagecache ----------------------------------------------------------- */

KTEST(pagecache, second_read_does_no_readpage)
{
    store_reset();
    for (int k = 0; k < 2 * PAGE_SIZE; k++)
        ts.data[k] = (char)(k * 7);
    struct file *f = topen("reread", &tfs_aops, 2 * PAGE_SIZE);
    KT_ASSERT(f);
    unsigned long rp0 = pagecache_stats.readpage_calls;
    loff_t pos = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, 2 * PAGE_SIZE, &pos), 2 * PAGE_SIZE);
    KT_EXPECT_EQ(ts.readpage, 2);
    KT_EXPECT_EQ(pagecache_stats.readpage_calls - rp0, 2);
    KT_EXPECT(!memcmp(buf, ts.data, 2 * PAGE_SIZE));
    unsigned long hits = pagecache_stats.hits;
    pos = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, 2 * PAGE_SIZE, &pos), 2 * PAGE_SIZE);
    KT_EXPECT_EQ(ts.readpage, 2);         /* no I/O the second time */
    KT_EXPECT(pagecache_stats.hits >= hits + 2);
    tclose(f, "reread");
}

KTEST(pagecache, sequential_readahead_window_grows)
{
    store_reset();
    for (int k = 0; k < 40 * PAGE_SIZE; k++)
        ts.data[k] = (char)(k ^ (k >> 12));
    struct file *f = topen("ra", &tfs_aops, 40 * PAGE_SIZE);
    KT_ASSERT(f);
    unsigned long ra0 = pagecache_stats.readahead_pages;
    unsigned long maxwin = 0;
    int ok = 1;
    for (int pg = 0; pg < 40; pg++) {
        KT_ASSERT_EQ(kernel_read(f, buf, PAGE_SIZE, &f->f_pos), PAGE_SIZE);
        ok &= !memcmp(buf, ts.data + pg * PAGE_SIZE, PAGE_SIZE);
        maxwin = max(maxwin, f->f_mapping->readahead_size);
    }
    KT_EXPECT(ok);
    KT_EXPECT_EQ(ts.readpage, 40);        /* each page read exactly once */
    KT_EXPECT(pagecache_stats.readahead_pages - ra0 >= 30);
    KT_EXPECT_EQ(maxwin, 32);             /* 4, 8, 16, 32 */
    tclose(f, "ra");
}

KTEST(pagecache, read_error_is_eio)
{
    store_reset();
    struct file *f = topen("eio", &tfs_aops, PAGE_SIZE);
    KT_ASSERT(f);
    ts.read_error = 1;
    loff_t pos = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, 100, &pos), -EIO);
    KT_EXPECT_EQ(pos, 0);
    ts.read_error = 0;                  /* the next read retries the page */
    KT_EXPECT_EQ(kernel_read(f, buf, 100, &pos), 100);
    tclose(f, "eio");
}

struct reader_arg {
    struct file *f;
    ssize_t ret;
    char out[64];
    struct completion done;
};

static int reader_fn(void *p)
{
    struct reader_arg *a = p;
    loff_t pos = 0;
    a->ret = kernel_read(a->f, a->out, sizeof a->out, &pos);
    complete(&a->done);
    return 0;
}

KTEST(pagecache, concurrent_readers_issue_one_readpage)
{
    store_reset();
    memcpy(ts.data, "concurrent readers share one read", 34);
    struct file *f = topen("conc", &tfs_aops, 64);
    KT_ASSERT(f);
    ts.read_delay_ms = 100;             /* the first reader sleeps inside readpage */
    static struct reader_arg a, b;
    a.f = b.f = f;
    init_completion(&a.done);
    init_completion(&b.done);
    struct task_struct *ta = kthread_run(reader_fn, &a, "reader-a");
    struct task_struct *tb = kthread_run(reader_fn, &b, "reader-b");
    KT_ASSERT(!IS_ERR_OR_NULL(ta) && !IS_ERR_OR_NULL(tb));
    wait_for_completion(&a.done);
    wait_for_completion(&b.done);
    kthread_stop(ta);
    kthread_stop(tb);
    KT_EXPECT_EQ(ts.readpage, 1);
    KT_EXPECT_EQ(a.ret, 64);
    KT_EXPECT_EQ(b.ret, 64);
    KT_EXPECT(!memcmp(a.out, "concurrent readers share one read", 34));
    KT_EXPECT(!memcmp(b.out, a.out, 64));
    tclose(f, "conc");
}

static char events[8];
static int nevents;
static struct page *lock_test_page;
static struct completion holder_locked;

static int hold_ms = 100;
static int holder_fn(void *p)
{
    lock_page(lock_test_page);
    events[nevents++] = 'A';            /* A: holder has the lock */
    complete(&holder_locked);
    msleep(hold_ms);
    events[nevents++] = 'U';            /* U: holder unlocks */
    unlock_page(lock_test_page);
    return 0;
}

KTEST(pagecache, lock_page_contention_sleeps_and_wakes)
{
    struct page *page = alloc_page(GFP_KERNEL);
    KT_ASSERT(page);
    page->flags &= ~(1UL << PG_locked);
    page->index = 0;                    /* a fresh page's is stale: the reports print it */
    lock_test_page = page;
    nevents = 0;
    init_completion(&holder_locked);
    unsigned long waits = pagecache_stats.lock_waits;
    struct task_struct *t = kthread_run(holder_fn, NULL, "holder");
    KT_ASSERT(!IS_ERR_OR_NULL(t));
    wait_for_completion(&holder_locked);
    events[nevents++] = 'W';            /* W: we try and must wait */
    lock_page(page);
    events[nevents++] = 'G';            /* G: we got it */
    KT_EXPECT_EQ(pagecache_stats.lock_waits - waits, 1);
    KT_EXPECT(page->lock_owner == current);
    unlock_page(page);
    kthread_stop(t);
    KT_EXPECT_EQ(nevents, 4);
    KT_EXPECT(!memcmp(events, "AWUG", 4));
    KT_EXPECT(!PageLocked(page));
    put_page(page);
}

KTEST(pagecache, long_lock_wait_reports_holder)
{
    struct page *page = alloc_page(GFP_KERNEL);
    KT_ASSERT(page);
    page->flags &= ~(1UL << PG_locked);
    page->index = 0;                    /* a fresh page's is stale: the reports print it */
    lock_test_page = page;
    nevents = 0;
    hold_ms = 600;
    unsigned long saved = lock_page_report_jiffies;
    lock_page_report_jiffies = HZ / 5;  /* 200 ms instead of 5 s */
    init_completion(&holder_locked);
    unsigned long lw = pagecache_stats.long_lock_waits;
    struct task_struct *t = kthread_run(holder_fn, NULL, "slow-holder");
    KT_ASSERT(!IS_ERR_OR_NULL(t));
    wait_for_completion(&holder_locked);
    lock_page(page);                    /* waits ~600 ms: reported once */
    KT_EXPECT_EQ(pagecache_stats.long_lock_waits, lw + 1);
    KT_EXPECT(page->lock_owner == current);
    unlock_page(page);
    kthread_stop(t);
    lock_page_report_jiffies = saved;
    hold_ms = 100;
    put_page(page);
}

/* Locks a page twice: the second lock_page is reported and sleeps. */
static int lock_twice_fn(void *p)
{
    struct page *page = p;
    lock_page(page);
    lock_page(page);                    /* SELF-DEADLOCK: stuck in state D */
    unlock_page(page);                  /* only after the test unlocked it */
    return 6;
}

KTEST(pagecache, self_deadlock_is_reported_and_stays_stuck)
{
    struct page *page = alloc_page(GFP_KERNEL);
    KT_ASSERT(page);
    page->flags &= ~(1UL << PG_locked);
    page->index = 0;                    /* a fresh page's is stale: the reports print it */
    unsigned long sd = pagecache_stats.self_deadlocks;
    /* The try-style escape: reported, nothing taken, the lock still ours. */
    lock_page(page);
    KT_EXPECT_EQ(lock_page_or_deadlock(page), -EDEADLK);
    KT_EXPECT_EQ(pagecache_stats.self_deadlocks, sd + 1);
    KT_EXPECT(PageLocked(page) && page->lock_owner == current);
    unlock_page(page);
    KT_EXPECT(!PageLocked(page));
    /* lock_page itself never returns without the lock: the task stays
     * asleep, observed from here. */
    struct task_struct *t = kthread_run(lock_twice_fn, page, "locktwice");
    KT_ASSERT(!IS_ERR(t));
    for (int i = 0; i < 20 && pagecache_stats.self_deadlocks == sd + 1; i++)
        msleep(10);
    msleep(20);
    KT_EXPECT_EQ(pagecache_stats.self_deadlocks, sd + 2);
    KT_EXPECT_EQ(t->state, TASK_UNINTERRUPTIBLE);
    KT_EXPECT(t->waiting_on_page == page);
    KT_EXPECT(PageLocked(page) && page->lock_owner == t);
    /* Unlock it from here, as an I/O completion may: the stuck lock_page
     * takes the lock and returns, and the thread unlocks and exits. */
    unlock_page(page);
    KT_EXPECT_EQ(kthread_stop(t), 6);
    KT_EXPECT(!PageLocked(page));
    KT_EXPECT(trylock_page(page));
    unlock_page(page);
    put_page(page);
}

/* The planted self-deadlock: the test's own task locks a page it holds.
 * lock_page reports it and, the test kernel seeing that the task running
 * the tests will never run again, ktest_stuck() fails the test and leaves
 * QEMU at once.  It ends its boot: tools/tests/lockups.sh boots it alone. */
KTEST_ENDS_BOOT(pagecache, planted_self_deadlock_ends_the_boot)
{
    struct page *page = alloc_page(GFP_KERNEL);
    KT_ASSERT(page);
    page->flags &= ~(1UL << PG_locked);
    page->index = 0;                    /* a fresh page's is stale: the reports print it */
    lock_page(page);
    lock_page(page);                    /* SELF-DEADLOCK: the boot ends here */
    ktest_fail(__FILE__, __LINE__, "lock_page returned: the page was ours already");
}

KTEST(pagecache, truncate_down_and_up_zero_fills)
{
    fill_src();
    struct file *f = topen("trunc", NULL, 0);
    KT_ASSERT(f);
    KT_ASSERT_EQ(kernel_write(f, src, 3 * PAGE_SIZE, &f->f_pos), 3 * PAGE_SIZE);
    KT_EXPECT_EQ(f->f_mapping->nrpages, 3);
    KT_EXPECT_EQ(do_truncate(f->f_inode, 5000, ATTR_MTIME | ATTR_CTIME), 0);
    KT_EXPECT_EQ(f->f_inode->i_size, 5000);
    KT_EXPECT_EQ(f->f_mapping->nrpages, 2);
    KT_EXPECT_EQ(do_truncate(f->f_inode, 12000, ATTR_MTIME | ATTR_CTIME), 0);
    loff_t pos = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, sizeof buf, &pos), 12000);
    KT_EXPECT(!memcmp(buf, src, 5000));
    int zero = 1;
    for (int k = 5000; k < 12000; k++)
        zero &= buf[k] == 0;
    KT_EXPECT(zero);
    tclose(f, "trunc");
}

KTEST(pagecache, fsync_writes_dirty_pages)
{
    store_reset();
    fill_src();
    struct file *f = topen("fsync", &tfs_aops, 0);
    KT_ASSERT(f);
    KT_ASSERT_EQ(kernel_write(f, src, 6000, &f->f_pos), 6000);
    KT_EXPECT_EQ(ts.writepage, 0);
    KT_EXPECT(f->f_inode->i_state & I_DIRTY_PAGES);
    KT_EXPECT_EQ(vfs_fsync(f, 0), 0);
    KT_EXPECT_EQ(ts.writepage, 2);
    KT_EXPECT(!memcmp(ts.data, src, 6000));
    struct page *p0 = find_get_page(f->f_mapping, 0);
    KT_ASSERT(p0);
    KT_EXPECT(!PageDirty(p0));
    put_page(p0);
    KT_EXPECT(!(f->f_inode->i_state & I_DIRTY_PAGES));
    KT_EXPECT_EQ(vfs_fsync(f, 0), 0);     /* clean: nothing to write */
    KT_EXPECT_EQ(ts.writepage, 2);
    tclose(f, "fsync");
}

KTEST(pagecache, flusher_writes_after_expiry)
{
    store_reset();
    fill_src();
    struct file *f = topen("flush", &tfs_aops, 0);
    KT_ASSERT(f);
    unsigned int old_exp = dirty_expire_centisecs, old_wb = dirty_writeback_centisecs;
    dirty_expire_centisecs = 50;        /* 0.5 s */
    dirty_writeback_centisecs = 10;     /* a pass every 0.1 s */
    wakeup_flusher_threads();
    msleep(50);
    unsigned long t0 = jiffies;         /* <= the inode's dirtied_when */
    KT_ASSERT_EQ(kernel_write(f, src, 100, &f->f_pos), 100);
    msleep(250);
    /* Dirty, but not old enough: certain only while less than the expiry
     * has passed since t0 (a loaded host may oversleep us past it). */
    if (jiffies - t0 < 50)
        KT_EXPECT_EQ(ts.writepage, 0);
    else
        printk(KERN_WARNING "pagecache test: overslept (%lu ticks); not-yet-written check skipped\n",
               jiffies - t0);
    msleep(800);
    KT_EXPECT_EQ(ts.writepage, 1);        /* expired: the flusher wrote it */
    KT_EXPECT(!memcmp(ts.data, src, 100));
    dirty_expire_centisecs = old_exp;
    dirty_writeback_centisecs = old_wb;
    wakeup_flusher_threads();
    tclose(f, "flush");
}

KTEST(pagecache, sync_writes_everything)
{
    store_reset();
    fill_src();
    struct file *f = topen("sync", &tfs_aops, 0);
    KT_ASSERT(f);
    KT_ASSERT_EQ(kernel_write(f, src, 3 * PAGE_SIZE, &f->f_pos), 3 * PAGE_SIZE);
    ksys_sync();
    KT_EXPECT_EQ(ts.writepage, 3);
    KT_EXPECT(!memcmp(ts.data, src, 3 * PAGE_SIZE));
    tclose(f, "sync");
}

/* ---- cachestat(2) (lab 1) ---------------------------------------------- */

#define CS_UA 0x10000000UL              /* the fake process's one page of user memory */
#define CS_RANGE ((struct cachestat_range __user *)CS_UA)
#define CS_OUT   ((struct cachestat __user *)(CS_UA + 64))
#define CS_KADDR ((void __user *)0xC0100000)   /* kernel text: access_ok refuses it */

struct cs_env {
    struct file *f;
    int fd;
    struct mm_struct *mm, *saved_mm;
    struct files_struct *saved_files;
};

/* A fresh /wp_NAME (tfs_aops: a store with writepage, so fsync cleans) at
 * descriptor e->fd of a table of our own, and a mapped user page. */
static int cs_enter(struct cs_env *e, const char *name)
{
    store_reset();
    e->f = topen(name, &tfs_aops, 0);
    if (!e->f)
        return -1;
    e->mm = mm_alloc();
    if (!e->mm)
        return -1;
    e->saved_mm = use_mm(e->mm);
    if (do_mmap(e->mm, NULL, CS_UA, PAGE_SIZE, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0) != (long)CS_UA)
        return -1;
    e->saved_files = current->files;
    current->files = files_alloc();
    if (!current->files)
        return -1;
    e->fd = get_unused_fd_flags(0);
    if (e->fd < 0)
        return -1;
    fd_install(e->fd, get_file(e->f));   /* the table's own reference */
    return 0;
}

static void cs_leave(struct cs_env *e, const char *name)
{
    put_files(current->files);
    current->files = e->saved_files;
    use_mm(e->saved_mm);
    mmput(e->mm);
    tclose(e->f, name);
}

/* cachestat(fd, {off, len}, out, flags) as a process would call it: the
 * range copied to user memory, the result read back from it (poisoned
 * first, so a call that writes nothing is seen). */
static long cs_call(int fd, unsigned long long off, unsigned long long len,
                    unsigned int flags, struct cachestat *out)
{
    struct cachestat_range r = { off, len };
    struct cachestat poison;
    memset(&poison, 0xa5, sizeof poison);
    if (copy_to_user(CS_RANGE, &r, sizeof r) || copy_to_user(CS_OUT, &poison, sizeof poison))
        return -999;
    long ret = sys_cachestat(fd, CS_RANGE, CS_OUT, flags);
    if (copy_from_user(out, CS_OUT, sizeof *out))
        return -998;
    return ret;
}

KTEST(cachestat, counts_cached_and_dirty_pages_then_fsync_cleans)
{
    struct cs_env e;
    struct cachestat cs;
    fill_src();
    KT_ASSERT_EQ(cs_enter(&e, "cs_dirty"), 0);
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 0, &cs), 0);           /* empty file: nothing cached */
    KT_EXPECT_EQ(cs.nr_cache, 0);
    KT_EXPECT_EQ(cs.nr_dirty, 0);
    KT_ASSERT_EQ(kernel_write(e.f, src, 3 * PAGE_SIZE, &e.f->f_pos), 3 * PAGE_SIZE);
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 0, &cs), 0);
    KT_EXPECT_EQ(cs.nr_cache, 3);
    KT_EXPECT_EQ(cs.nr_dirty, 3);
    KT_EXPECT_EQ(cs.nr_writeback, 0);
    KT_EXPECT_EQ(cs.nr_evicted, 0);
    KT_EXPECT_EQ(cs.nr_recently_evicted, 0);
    KT_EXPECT_EQ(vfs_fsync(e.f, 0), 0);
    KT_EXPECT_EQ(ts.writepage, 3);
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 0, &cs), 0);
    KT_EXPECT_EQ(cs.nr_cache, 3);                            /* still cached, now clean */
    KT_EXPECT_EQ(cs.nr_dirty, 0);
    KT_EXPECT_EQ(cs.nr_writeback, 0);
    /* One byte rewritten: one page dirty again. */
    loff_t pos = PAGE_SIZE + 10;
    KT_ASSERT_EQ(kernel_write(e.f, "x", 1, &pos), 1);
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 0, &cs), 0);
    KT_EXPECT_EQ(cs.nr_cache, 3);
    KT_EXPECT_EQ(cs.nr_dirty, 1);
    /* A page under writeback (the bit set as a filesystem's writepage does). */
    struct page *p2 = find_get_page(e.f->f_mapping, 2);
    KT_ASSERT(p2 != NULL);
    set_page_writeback(p2);
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 0, &cs), 0);
    KT_EXPECT_EQ(cs.nr_writeback, 1);
    end_page_writeback(p2);
    put_page(p2);
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 0, &cs), 0);
    KT_EXPECT_EQ(cs.nr_writeback, 0);
    cs_leave(&e, "cs_dirty");
}

KTEST(cachestat, byte_range_selects_pages_len0_to_eof)
{
    struct cs_env e;
    struct cachestat cs;
    fill_src();
    KT_ASSERT_EQ(cs_enter(&e, "cs_range"), 0);
    /* Pages 0, 1, 2 and 5 cached (a hole at 3-4, never read). */
    KT_ASSERT_EQ(kernel_write(e.f, src, 3 * PAGE_SIZE, &e.f->f_pos), 3 * PAGE_SIZE);
    loff_t pos = 5 * PAGE_SIZE;
    KT_ASSERT_EQ(kernel_write(e.f, src, 100, &pos), 100);
    KT_EXPECT_EQ(e.f->f_mapping->nrpages, 4);
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 0, &cs), 0);
    KT_EXPECT_EQ(cs.nr_cache, 4);
    KT_EXPECT_EQ(cs_call(e.fd, PAGE_SIZE, PAGE_SIZE, 0, &cs), 0);      /* exactly page 1 */
    KT_EXPECT_EQ(cs.nr_cache, 1);
    KT_EXPECT_EQ(cs_call(e.fd, PAGE_SIZE - 1, 2, 0, &cs), 0);          /* 2 bytes, 2 pages */
    KT_EXPECT_EQ(cs.nr_cache, 2);
    KT_EXPECT_EQ(cs_call(e.fd, 2 * PAGE_SIZE + 5, 1, 0, &cs), 0);      /* one byte of page 2 */
    KT_EXPECT_EQ(cs.nr_cache, 1);
    KT_EXPECT_EQ(cs_call(e.fd, 3 * PAGE_SIZE, 2 * PAGE_SIZE, 0, &cs), 0); /* the hole */
    KT_EXPECT_EQ(cs.nr_cache, 0);
    KT_EXPECT_EQ(cs_call(e.fd, 2 * PAGE_SIZE, 0, 0, &cs), 0);          /* page 2 to EOF */
    KT_EXPECT_EQ(cs.nr_cache, 2);
    KT_EXPECT_EQ(cs_call(e.fd, 100 * PAGE_SIZE, 0, 0, &cs), 0);        /* past EOF */
    KT_EXPECT_EQ(cs.nr_cache, 0);
    KT_EXPECT_EQ(cs_call(e.fd, 4 * PAGE_SIZE, ~0ULL, 0, &cs), 0);      /* end wraps: to EOF */
    KT_EXPECT_EQ(cs.nr_cache, 1);
    /* Truncation takes pages out of the cache: cachestat sees it. */
    KT_EXPECT_EQ(do_truncate(e.f->f_inode, PAGE_SIZE + 1, ATTR_MTIME | ATTR_CTIME), 0);
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 0, &cs), 0);
    KT_EXPECT_EQ(cs.nr_cache, 2);
    KT_EXPECT_EQ(cs.nr_evicted, 0);                          /* truncation is no eviction */
    cs_leave(&e, "cs_range");
}

KTEST(cachestat, bad_arguments_einval_ebadf_efault)
{
    struct cs_env e;
    struct cachestat cs;
    struct cachestat_range r = { 0, 0 };
    KT_ASSERT_EQ(cs_enter(&e, "cs_bad"), 0);
    KT_ASSERT_EQ(copy_to_user(CS_RANGE, &r, sizeof r), 0);
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 1, &cs), -EINVAL);               /* flags must be 0 */
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 0x80000000u, &cs), -EINVAL);
    KT_EXPECT_EQ(cs.nr_cache, 0xa5a5a5a5a5a5a5a5ULL);                  /* nothing written */
    KT_EXPECT_EQ(cs_call(e.fd + 1, 0, 0, 0, &cs), -EBADF);            /* not open */
    KT_EXPECT_EQ(cs_call(-1, 0, 0, 0, &cs), -EBADF);
    KT_EXPECT_EQ(cs.nr_cache, 0xa5a5a5a5a5a5a5a5ULL);
    KT_EXPECT_EQ(sys_cachestat(e.fd, NULL, CS_OUT, 0), -EFAULT);       /* range unreadable */
    KT_EXPECT_EQ(sys_cachestat(e.fd, CS_KADDR, CS_OUT, 0), -EFAULT);
    KT_EXPECT_EQ(sys_cachestat(e.fd, (void __user *)(CS_UA + PAGE_SIZE - 8), CS_OUT, 0),
                 -EFAULT);                                             /* half past the page */
    KT_EXPECT_EQ(sys_cachestat(e.fd, CS_RANGE, NULL, 0), -EFAULT);     /* result unwritable */
    KT_EXPECT_EQ(sys_cachestat(e.fd, CS_RANGE, CS_KADDR, 0), -EFAULT);
    /* Linux 6.5's order: the descriptor first, then the range, then flags. */
    KT_EXPECT_EQ(sys_cachestat(e.fd + 1, NULL, NULL, 1), -EBADF);
    KT_EXPECT_EQ(sys_cachestat(e.fd, NULL, NULL, 1), -EFAULT);
    KT_EXPECT_EQ(sys_cachestat(e.fd, CS_RANGE, NULL, 1), -EINVAL);
    /* A good call still works after all that (no reference leaked: the
     * file closes in cs_leave, tclose unlinks it). */
    KT_EXPECT_EQ(cs_call(e.fd, 0, 0, 0, &cs), 0);
    KT_EXPECT_EQ(cs.nr_cache, 0);
    cs_leave(&e, "cs_bad");
}

KTEST(cachestat, int80_number_451_reaches_it)
{
    struct cs_env e;
    struct cachestat cs;
    struct cachestat_range r = { 0, 0 };
    fill_src();
    KT_ASSERT_EQ(cs_enter(&e, "cs_nr"), 0);
    KT_ASSERT_EQ(kernel_write(e.f, src, 2 * PAGE_SIZE, &e.f->f_pos), 2 * PAGE_SIZE);
    KT_ASSERT_EQ(copy_to_user(CS_RANGE, &r, sizeof r), 0);
    KT_EXPECT_EQ(__NR_cachestat, 451);
    KT_EXPECT(__NR_cachestat < NR_syscalls);
    /* What int $0x80 hands the dispatcher: number in orig_ax, arguments in
     * ebx, ecx, edx, esi. */
    struct pt_regs regs;
    memset(&regs, 0, sizeof regs);
    regs.orig_ax = __NR_cachestat;
    regs.bx = (unsigned long)e.fd;
    regs.cx = (unsigned long)CS_RANGE;
    regs.dx = (unsigned long)CS_OUT;
    regs.si = 0;
    KT_EXPECT_EQ(syscall_handler(&regs), 0);
    KT_ASSERT_EQ(copy_from_user(&cs, CS_OUT, sizeof cs), 0);
    KT_EXPECT_EQ(cs.nr_cache, 2);
    KT_EXPECT_EQ(cs.nr_dirty, 2);
    regs.si = 1;
    KT_EXPECT_EQ(syscall_handler(&regs), -EINVAL);
    cs_leave(&e, "cs_nr");
}

KTEST(writepath, ramfs_unfaultable_write_past_eof_keeps_size)
{
    /* simple_write_end with copied 0: -EFAULT, and the empty file stays
     * empty (i_size is not moved to the write's start), as on Linux */
    fill_src();
    struct file *f = topen("ramefault", NULL, 0);
    KT_ASSERT(f);
    loff_t pos = 1 << 20;
    stats_mark();
    ssize_t n = faulty_write(f, 100, 0, 0, &pos);
    KT_EXPECT_EQ(n, -EFAULT);
    KT_EXPECT_EQ(pos, 1 << 20);
    KT_EXPECT_EQ(f->f_inode->i_size, 0);
    KT_EXPECT_EQ(WS(zero_commits), 1);
    KT_EXPECT_EQ(WS(efaults), 1);
    loff_t rp = 0;
    KT_EXPECT_EQ(kernel_read(f, buf, PAGE_SIZE, &rp), 0);
    tclose(f, "ramefault");
}

KTEST(writepath, append_write_of_nothing_keeps_f_pos)
{
    /* O_APPEND: a write of 0 bytes, or one that fails, leaves f_pos where
     * it was (Linux stores ki_pos only for ret > 0); a write moves it to
     * the new EOF; a pwrite appends without moving it */
    fill_src();
    struct file *f = topen("append", NULL, 0);
    KT_ASSERT(f);
    KT_EXPECT_EQ(kernel_write(f, "0123456789", 10, &f->f_pos), 10);
    f->f_flags |= O_APPEND;
    f->f_pos = 3;
    KT_EXPECT_EQ(kernel_write(f, "abc", 0, &f->f_pos), 0);
    KT_EXPECT_EQ(f->f_pos, 3);
    KT_EXPECT_EQ(faulty_write(f, 100, 0, 0, &f->f_pos), -EFAULT);
    KT_EXPECT_EQ(f->f_pos, 3);
    KT_EXPECT_EQ(f->f_inode->i_size, 10);
    KT_EXPECT_EQ(kernel_write(f, "abc", 3, &f->f_pos), 3);
    KT_EXPECT_EQ(f->f_pos, 13);
    loff_t p = 0;
    KT_EXPECT_EQ(kernel_write(f, "Z", 1, &p), 1);
    KT_EXPECT_EQ(p, 14);
    KT_EXPECT_EQ(f->f_pos, 13);
    KT_EXPECT_EQ(f->f_inode->i_size, 14);
    tclose(f, "append");
}

KTEST(writepath, rlimit_fsize_cuts_short_then_efbig)
{
    /* generic_write_check_limits: a write crossing RLIMIT_FSIZE is cut at
     * it, one starting at it is -EFBIG (and SIGXFSZ for a process: this
     * kernel thread gets none); s_maxbytes likewise */
    fill_src();
    struct file *f = topen("rlimit", NULL, 0);
    KT_ASSERT(f);
    unsigned long long saved = current->rlim_fsize[0];
    current->rlim_fsize[0] = 1024;
    KT_EXPECT_EQ(kernel_write(f, src, 4096, &f->f_pos), 1024);
    KT_EXPECT_EQ(f->f_pos, 1024);
    KT_EXPECT_EQ(kernel_write(f, src, 100, &f->f_pos), -EFBIG);
    KT_EXPECT_EQ(f->f_pos, 1024);
    loff_t p = 1000;
    KT_EXPECT_EQ(kernel_write(f, src, 100, &p), 24);
    p = 5000;
    KT_EXPECT_EQ(kernel_write(f, src, 0, &p), 0);        /* nothing to write: no check */
    current->rlim_fsize[0] = saved;
    KT_EXPECT_EQ(f->f_inode->i_size, 1024);
    loff_t max = f->f_inode->i_sb->s_maxbytes;
    p = max - 5;
    KT_EXPECT_EQ(kernel_write(f, src, 10, &p), 5);
    KT_EXPECT_EQ(f->f_inode->i_size, max);
    KT_EXPECT_EQ(kernel_write(f, src, 1, &p), -EFBIG);
    tclose(f, "rlimit");
}
