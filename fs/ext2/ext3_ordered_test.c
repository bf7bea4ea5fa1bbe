/* fs/ext2/ext3_ordered_test.c: ext3's data=ordered mode (ext3_ordered.c,
 * and the data pass of fs/jbd/commit.c), suite ext3ordered: hda =
 * ext3-1k.img of tools/mkjournal.sh mounted read-write, hdb a second copy
 * for the crash image (tools/suites/ext3ordered.conf checks both on the
 * host).
 *
 * The stale bytes a crash could expose are made first: /stale (64 KiB of
 * pattern "stale") is written and synced, then unlinked and synced, so its
 * blocks are free and still hold its bytes; /new then gets those blocks
 * (checked: the test means nothing otherwise).  The running transaction
 * commits alone (journal_force_commit, no writeback of /new's pages), and
 * the disk is copied at once: under data=writeback, /new's committed
 * blocks would still read "stale" there.
 *
 * A write error in the commit's data pass is planted with
 * ktest_fail_writes (include/ktest.h): the disk's writes to one block fail.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <ktest.h>
#include <slab.h>
#include <fs.h>
#include <blkdev.h>
#include <buffer_head.h>
#include <jbd.h>
#include <mm.h>
#include <pagemap.h>
#include "ext2.h"
#include "../internal.h"             /* vfs_mount_at */

#define NEW_LEN (64 * 1024)

/* hda mounted read-write at dir: its journal, or NULL (then *sbp too). */
static journal_t *mount_ext3(const char *dir, struct super_block **sbp)
{
    *sbp = vfs_mount_at("hda", dir, "ext2") ? NULL : ktest_sb_of(dir);
    return *sbp ? EXT2_SB(*sbp)->s_journal : NULL;
}

/* The same, with kjournald's timer put off for an hour (the old interval
 * in *interval), so that only the test's own journal_force_commit commits. */
static journal_t *mount_ext3_quiet(const char *dir, struct super_block **sbp,
                                   unsigned long *interval)
{
    journal_t *journal = mount_ext3(dir, sbp);
    if (journal) {
        *interval = journal->j_commit_interval;
        journal->j_commit_interval = 3600 * HZ;
    }
    return journal;
}

static unsigned long file_block(const char *path, unsigned long iblock)
{
    struct file *f = filp_open(path, O_RDONLY, 0);
    if (IS_ERR(f))
        return 0;
    unsigned long nr = bmap(f->f_inode, iblock);
    filp_close(f);
    return nr;
}

static int nr_filed(transaction_t *t)
{
    int n = 0;
    struct journal_head *jh;
    list_for_each_entry(jh, &t->t_sync_datalist, b_tlist)
        n++;
    return n;
}

/* Does the disk (read past every cache) hold pattern key at the file's
 * blocks 0 .. len/bs-1? */
static bool disk_holds(struct super_block *sb, const char *path, const char *key, size_t len)
{
    unsigned bs = sb->s_blocksize;
    char *got = kmalloc(bs, GFP_KERNEL), *want = kmalloc(bs, GFP_KERNEL);
    bool ok = got && want;
    for (unsigned long i = 0; ok && i < len / bs; i++) {
        unsigned long nr = file_block(path, i);
        vpattern_fill(want, bs, key, (uint64_t)i * bs);
        ok = nr && !blkdev_read(sb->s_bdev, nr * (bs / SECTOR_SIZE), bs / SECTOR_SIZE, got) &&
             !memcmp(got, want, bs);
    }
    kfree(got);
    kfree(want);
    return ok;
}

/* A write into blocks the file has, inside i_size, starts no transaction
 * and files nothing; an append does both, and its i_size commits with it. */
KTEST(ext3ordered, cached_overwrite_starts_no_transaction)
{
    struct super_block *sb;
    journal_t *journal = mount_ext3("/o1", &sb);
    KT_ASSERT(journal != NULL);
    KT_ASSERT_EQ(ktest_write_pattern("/o1/w", "w", 8192), 0);
    ksys_sync();
    KT_ASSERT(journal->j_running_transaction == NULL);
    struct file *f = filp_open("/o1/w", O_WRONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    loff_t pos = 100;
    KT_EXPECT_EQ(kernel_write(f, "overwrite", 9, &pos), 9);
    KT_EXPECT(journal->j_running_transaction == NULL);       /* no handle started */
    pos = 8192;
    KT_EXPECT_EQ(kernel_write(f, "append", 6, &pos), 6);
    transaction_t *t = journal->j_running_transaction;
    KT_EXPECT(t != NULL);
    if (t)
        KT_EXPECT_EQ(nr_filed(t), 1);                        /* the new block */
    filp_close(f);
    KT_EXPECT_EQ(vfs_unlink("/o1/w"), 0);
    KT_EXPECT_EQ(do_umount("/o1"), 0);
}

/* A filed page keeps its buffers from reclaim (releasepage says no) until
 * the commit has written them; a truncate takes them off the list. */
KTEST(ext3ordered, filed_buffers_outlive_reclaim_not_truncate)
{
    struct super_block *sb;
    journal_t *journal = mount_ext3("/o2", &sb);
    KT_ASSERT(journal != NULL);
    KT_ASSERT_EQ(ktest_write_pattern("/o2/r", "r", 4096), 0);
    struct file *f = filp_open("/o2/r", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(f));
    struct address_space *mapping = f->f_mapping;
    KT_EXPECT(mapping->a_ops == &ext3_ordered_aops);
    struct page *page = find_get_page(mapping, 0);
    KT_ASSERT(page != NULL);
    lock_page(page);
    KT_EXPECT(buffer_jbd(page_buffers(page)));
    KT_EXPECT_EQ(mapping->a_ops->releasepage(page), 0);      /* filed: kept */
    unlock_page(page);
    KT_EXPECT_EQ(journal_force_commit(journal), 0);
    lock_page(page);
    KT_EXPECT(!buffer_jbd(page_buffers(page)));              /* written and unfiled */
    unlock_page(page);
    put_page(page);

    /* Filed again by an append, then truncated away before any commit. */
    loff_t pos = 4096;
    KT_EXPECT_EQ(kernel_write(f, "more", 4, &pos), 4);
    transaction_t *t = journal->j_running_transaction;
    KT_ASSERT(t != NULL);
    KT_EXPECT_EQ(nr_filed(t), 1);
    KT_EXPECT_EQ(do_truncate(f->f_inode, 0, ATTR_MTIME | ATTR_CTIME), 0);
    KT_EXPECT_EQ(nr_filed(t), 0);
    filp_close(f);
    KT_EXPECT_EQ(vfs_unlink("/o2/r"), 0);
    KT_EXPECT_EQ(do_umount("/o2"), 0);
}

/* A hole dirtied whole, as a store through a shared mapping leaves it
 * (no buffers, no write_begin): writepage allocates its blocks in a handle
 * of its own and writes them before it stops; the hole is gone. */
KTEST(ext3ordered, writepage_allocates_in_a_handle)
{
    struct super_block *sb;
    journal_t *journal = mount_ext3("/o4", &sb);
    KT_ASSERT(journal != NULL);
    struct file *f = filp_open("/o4/s", O_RDWR | O_CREAT | O_TRUNC, 0644);
    KT_ASSERT(!IS_ERR(f));
    loff_t pos = 4 * PAGE_SIZE;
    KT_EXPECT_EQ(kernel_write(f, "x", 1, &pos), 1);          /* pages 0..3: a hole */
    ksys_sync();
    KT_EXPECT_EQ(file_block("/o4/s", 0), 0);
    struct page *page = grab_cache_page_write_begin(f->f_mapping, 0);
    KT_ASSERT(page != NULL);
    vpattern_fill(page_address(page), PAGE_SIZE, "s", 0);
    SetPageUptodate(page);
    set_page_dirty(page);
    unlock_page(page);
    put_page(page);
    KT_EXPECT_EQ(filemap_write_and_wait(f->f_mapping), 0);
    KT_EXPECT(file_block("/o4/s", 0) != 0);
    KT_EXPECT(journal->j_running_transaction != NULL);       /* the allocation */
    KT_EXPECT(disk_holds(sb, "/o4/s", "s", PAGE_SIZE));     /* before it commits */
    filp_close(f);
    KT_EXPECT_EQ(vfs_unlink("/o4/s"), 0);
    KT_EXPECT_EQ(do_umount("/o4"), 0);
}

/* The commit's data pass meets a write error on a new block: the commit
 * goes on (the transaction committed, the journal not aborted), the error
 * waits on the file's mapping and the buffer stays dirty; the next fsync
 * writes the block again and reports the error, once (commit.c says why
 * this is Linux since 2.6.28 and not 2.6.24). */
KTEST(ext3ordered, data_write_error_waits_for_fsync)
{
    struct super_block *sb;
    unsigned long interval;
    journal_t *journal = mount_ext3_quiet("/o5", &sb, &interval);
    KT_ASSERT(journal != NULL);
    KT_ASSERT_EQ(ktest_write_pattern("/o5/io", "io", PAGE_SIZE), 0);
    struct file *f = filp_open("/o5/io", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(f));
    unsigned long nr = file_block("/o5/io", 0), spb = sb->s_blocksize / SECTOR_SIZE;
    KT_EXPECT(nr != 0);
    transaction_t *t = journal->j_running_transaction;
    KT_ASSERT(t != NULL);
    tid_t tid = t->t_tid;
    KT_EXPECT(nr_filed(t) >= 1);

    struct block_device *bdev = sb->s_bdev;
    ktest_fail_writes(bdev, nr * spb, (nr + 1) * spb);
    KT_EXPECT_EQ(journal_force_commit(journal), 0);
    KT_EXPECT(ktest_fail_writes_end(bdev) >= 1);    /* the planted error was met */
    KT_EXPECT(!is_journal_aborted(journal));
    KT_EXPECT_EQ(journal->j_commit_sequence, tid);
    KT_EXPECT(test_bit(AS_EIO, &f->f_mapping->flags));
    KT_EXPECT(!disk_holds(sb, "/o5/io", "io", PAGE_SIZE));

    KT_EXPECT_EQ(vfs_fsync(f, 0), -EIO);            /* reported once ... */
    KT_EXPECT(disk_holds(sb, "/o5/io", "io", PAGE_SIZE));   /* ... the block written */
    KT_EXPECT_EQ(vfs_fsync(f, 0), 0);
    filp_close(f);
    journal->j_commit_interval = interval;
    KT_EXPECT_EQ(vfs_unlink("/o5/io"), 0);
    KT_EXPECT_EQ(do_umount("/o5"), 0);
}

/* The commit's data pass sends the filed buffers batched (the plug of
 * journal_submit_data_buffers): 64 blocks of a new file, written by
 * nobody before the commit, go out in a few requests with the log, not
 * one each (64 and more requests before they were batched). */
KTEST(ext3ordered, commit_batches_data_writes)
{
    struct super_block *sb;
    unsigned long interval;
    journal_t *journal = mount_ext3_quiet("/o6", &sb, &interval);
    KT_ASSERT(journal != NULL);
    KT_EXPECT_EQ(journal_force_commit(journal), 0);  /* the mount's own changes */
    KT_ASSERT_EQ(ktest_write_pattern("/o6/b", "batch", NEW_LEN), 0);
    transaction_t *t = journal->j_running_transaction;
    KT_ASSERT(t != NULL);
    int filed = nr_filed(t);
    KT_EXPECT_EQ(filed, NEW_LEN / sb->s_blocksize);
    KT_EXPECT(!disk_holds(sb, "/o6/b", "batch", NEW_LEN));
    struct blkdev_stats s0, s1;
    blkdev_stats(sb->s_bdev, &s0);
    KT_EXPECT_EQ(journal_force_commit(journal), 0);
    blkdev_stats(sb->s_bdev, &s1);
    printk(KERN_INFO "ordered-test: a commit of %d data blocks: %lu write requests, "
           "%lu sectors\n", filed,
           s1.write_ios - s0.write_ios, s1.sectors_written - s0.sectors_written);
    KT_EXPECT(disk_holds(sb, "/o6/b", "batch", NEW_LEN));
    KT_EXPECT(s1.sectors_written - s0.sectors_written >= NEW_LEN / SECTOR_SIZE);
    KT_EXPECT(s1.write_ios - s0.write_ios <= 8);
    journal->j_commit_interval = interval;
    KT_EXPECT_EQ(vfs_unlink("/o6/b"), 0);
    KT_EXPECT_EQ(do_umount("/o6"), 0);
}

/* The stale blocks, /new written into them and filed, the commit alone,
 * the crash: the disk copy must hold /new's bytes.  Then Vellum recovers
 * the copy and reads /new back.  (post_check: the host's recovery of hda
 * equals Vellum's of hdb, fsck-clean, /new read back by debugfs.) */
KTEST(ext3orderedcrash, commit_writes_data_first)
{
    struct super_block *sb;
    journal_t *journal = mount_ext3("/o3", &sb);
    KT_ASSERT(journal != NULL);

    KT_ASSERT_EQ(ktest_write_pattern("/o3/stale", "stale", NEW_LEN), 0);
    ksys_sync();
    unsigned long stale0 = file_block("/o3/stale", 0);
    KT_ASSERT(disk_holds(sb, "/o3/stale", "stale", NEW_LEN));
    KT_ASSERT_EQ(vfs_unlink("/o3/stale"), 0);
    ksys_sync();

    KT_ASSERT_EQ(ktest_write_pattern("/o3/new", "new", NEW_LEN), 0);
    KT_ASSERT_EQ(file_block("/o3/new", 0), stale0);      /* the stale blocks */
    transaction_t *t = journal->j_running_transaction;
    KT_ASSERT(t != NULL);
    KT_EXPECT_EQ(nr_filed(t), NEW_LEN / sb->s_blocksize);
    KT_EXPECT(!disk_holds(sb, "/o3/new", "new", NEW_LEN));   /* nothing written yet */

    unsigned long commits = journal->j_nr_commits;
    KT_EXPECT_EQ(journal_force_commit(journal), 0);
    KT_EXPECT_EQ(journal->j_nr_commits, commits + 1);
    KT_EXPECT(disk_holds(sb, "/o3/new", "new", NEW_LEN));    /* the data went first */

    /* The crash, right after the commit. */
    KT_EXPECT_EQ(ktest_copy_disk("hda", "hdb"), 0);
    journal_abort(journal, -EIO);
    KT_EXPECT_EQ(do_umount("/o3"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/o3r", 0755), 0);
    KT_ASSERT_EQ(do_mount("hdb", "/o3r", "ext2", MS_RDONLY, NULL), 0);
    struct file *f = filp_open("/o3r/new", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(f->f_inode->i_size, NEW_LEN);              /* i_size committed with it */
    char *got = kmalloc(1024, GFP_KERNEL), *want = kmalloc(1024, GFP_KERNEL);
    loff_t pos = 0;
    bool same = got && want;
    while (same && pos < NEW_LEN) {
        vpattern_fill(want, 1024, "new", pos);
        same = kernel_read(f, got, 1024, &pos) == 1024 && !memcmp(got, want, 1024);
    }
    KT_EXPECT(same);
    kfree(got);
    kfree(want);
    filp_close(f);
    KT_EXPECT_EQ(do_umount("/o3r"), 0);
}
