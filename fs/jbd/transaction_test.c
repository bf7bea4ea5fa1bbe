/* fs/jbd/transaction_test.c: the journal's write side (transaction.c,
 * commit.c, checkpoint.c, kjournald) driven directly, on the images
 * jcommit-1k.img and jcommit-4k.img of tools/mkjournal.sh (a fresh ext3
 * with a journal of 1024 blocks, the smallest, and the pattern files /a (4
 * blocks) and /big (200 blocks)).  Here the tests change blocks of /a and
 * /big through handles, as ext3 changes its metadata blocks, so that the
 * host can read the result back as files.  The ext2 mount is read-only;
 * the test opens the journal itself.  At the end, ext3crash: ext3's own
 * writes through the journal.
 *
 *   jbdcommit   hda: the workload below, then a "crash": the disk is copied
 *               whole to hdb while T10 is still running (uncommitted), the
 *               journal aborts (nothing more written); then hdb is mounted
 *               and Vellum's recovery replays it.  The suite's post_check
 *               compares hdb with the host's e2fsck recovery of hda byte for
 *               byte, reads the files back and runs e2fsck.
 *   jbdcommit4k the same with 4 KiB blocks (jcommit-4k.img).
 *   jbdclean    hda (1 KiB blocks), hdb (4 KiB): the same workload, every
 *               transaction committed, then journal_destroy: the log is
 *               checkpointed and left empty (post_check: logdump, e2fsck,
 *               debugfs reads the files).  And the lock validator's view of
 *               the handle (handle_then_page_lock_reported).
 *   jbdthreads  hda: handles of several tasks and the commit (below).
 *   ext3trunc   hda = ext3-1k.img: journal_extend and journal_restart, and
 *               the truncates that need them (below).
 *   ext3cut     hda = ext3-1k.img: a truncate over several transactions,
 *               then a crash; the host cuts the log after each (below).
 *   jbdbatch    hda, hdb (1 KiB, 4 KiB): the requests of a commit (its log
 *               blocks sent together) and a write error among them (below).
 *   ext3fsync   hda = ext3-1k.img: the requests and flushes of a small
 *               file's fsync (below).
 *
 * The workload (a[i] is the i-th block of /a, P(key, i) block i of the
 * pattern keyed key, tools/vpattern.c; transaction IDs 1..3 for T1..T3, 4
 * and 5 for T4 and T4b, 6..11 for T5..T10):
 *   T1      a[0] a[1] a[2] <- P(t1, 0..2)        one block checked pinned
 *   T2      a[1] <- P(t2, 0): logged twice, the later copy wins
 *   T3      revoke a[2]: T1's copy must not be replayed, a[2] stays P(a, 2)
 *   T4..T9  big[0..199] <- P(g4..g9, i): 6 x 204 log blocks in a log of
 *           1023: checkpoints free the log and it wraps; after T4, T4b: a
 *           handle that does not fit in T4 (T4 is committed first); T8 also
 *           a[2] <- P(t8, 0), T9 revokes it again (T8 and T9 are still in
 *           the log at the crash: the revoke record is what keeps T8's copy
 *           from being replayed) and a[3] <- P(t2, 1) starting with the
 *           JBD magic (logged escaped)
 *   T10     a[0] <- P(t10, 0): committed by kjournald after j_commit_interval
 *           (jbdclean, 1 s) or never (jbdcommit)
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <ktest.h>
#include <slab.h>
#include <sched.h>
#include <timer.h>
#include <fs.h>
#include <blkdev.h>
#include <buffer_head.h>
#include <jbd.h>
#include <mm.h>
#include <pagemap.h>
#include <lockdep.h>
#include "../ext2/ext2.h"            /* ext2_iget: the journal inode */
#include "../internal.h"             /* vfs_ensure_root */

#define BIG 200

struct jtest {
    struct super_block *sb;
    journal_t *journal;
    unsigned bs;
    unsigned long a[4], big[BIG];
};

/* Mount dev read-only at dir, open its journal (journal_load: empty on a
 * fresh image, kjournald started) and find the home blocks of /a, /big. */
static int open_journal(const char *dev, const char *dir, struct jtest *jt)
{
    int err = vfs_ensure_root();
    if (err)
        return err;
    err = vfs_mkdir(dir, 0755);
    if (err && err != -EEXIST)
        return err;
    if ((err = do_mount(dev, dir, "ext2", MS_RDONLY, NULL)))
        return err;
    jt->sb = ktest_sb_of(dir);
    if (!jt->sb)
        return -ENOENT;
    jt->bs = jt->sb->s_blocksize;
    char path[32];
    for (int f = 0; f < 2; f++) {
        snprintf(path, sizeof(path), "%s/%s", dir, f ? "big" : "a");
        struct file *file = filp_open(path, O_RDONLY, 0);
        if (IS_ERR(file))
            return PTR_ERR(file);
        for (int i = 0; i < (f ? BIG : 4); i++)
            (f ? jt->big : jt->a)[i] = bmap(file->f_inode, i);
        filp_close(file);
    }
    struct inode *inode = ext2_iget(jt->sb, EXT2_SB(jt->sb)->s_es->s_journal_inum);
    if (IS_ERR(inode))
        return PTR_ERR(inode);
    jt->journal = journal_init_inode(inode, EXT2_SB(jt->sb)->s_blocks_count);
    if (!jt->journal) {
        iput(inode);
        return -ENOMEM;
    }
    if ((err = journal_load(jt->journal)))
        return err;
    /* Only the tests' own commits: kjournald's timer must not split a
     * step into two transactions (the suites check the transaction IDs). */
    jt->journal->j_commit_interval = 3600 * HZ;
    return 0;
}

/* Change home block blocknr to P(key, idx) under handle h (the magic in
 * its first word if magic). */
static int jwrite(handle_t *h, struct jtest *jt, unsigned long blocknr, const char *key,
                  unsigned idx, int magic)
{
    struct buffer_head *bh = __bread(jt->sb->s_bdev, blocknr, jt->bs);
    if (!bh)
        return -EIO;
    int err = journal_get_write_access(h, bh);
    if (!err) {
        vpattern_fill(bh->b_data, jt->bs, key, (uint64_t)idx * jt->bs);
        if (magic)
            *(uint32_t *)bh->b_data = cpu_to_be32(JFS_MAGIC_NUMBER);
        err = journal_dirty_metadata(h, bh);
    }
    brelse(bh);
    return err;
}

/* The disk's own bytes of a block (not the cache's) equal P(key, idx)? */
static int disk_has(struct jtest *jt, unsigned long blocknr, const char *key, unsigned idx)
{
    char *disk = kmalloc(jt->bs, GFP_KERNEL), *want = kmalloc(jt->bs, GFP_KERNEL);
    int same = 0;
    if (disk && want &&
        !blkdev_read(jt->sb->s_bdev, blocknr * (jt->bs / SECTOR_SIZE), jt->bs / SECTOR_SIZE, disk)) {
        vpattern_fill(want, jt->bs, key, (uint64_t)idx * jt->bs);
        same = !memcmp(disk, want, jt->bs);
    }
    kfree(disk);
    kfree(want);
    return same;
}

/* T1..T9 (each committed), then T10 started and stopped; committed if
 * commit_last. */
static void workload(struct jtest *jt, int commit_last)
{
    journal_t *j = jt->journal;
    tid_t first = j->j_transaction_sequence;

    /* More credits than a transaction may hold: refused, not a hang. */
    KT_EXPECT_EQ(PTR_ERR(journal_start(j, j->j_max_transaction_buffers + 1)), -ENOSPC);

    /* T1, with a nested handle: the same handle, one reference more. */
    handle_t *h = journal_start(j, 3);
    KT_ASSERT(!IS_ERR(h));
    KT_EXPECT(journal_start(j, 1) == h);
    KT_EXPECT_EQ(h->h_ref, 2);
    KT_EXPECT_EQ(journal_stop(h), 0);
    KT_EXPECT(current->journal_info == h);
    for (int i = 0; i < 3; i++)
        KT_EXPECT_EQ(jwrite(h, jt, jt->a[i], "t1", i, 0), 0);
    KT_EXPECT_EQ(h->h_buffer_credits, 0);
    KT_EXPECT_EQ(journal_stop(h), 0);
    KT_EXPECT(current->journal_info == NULL);
    /* Pinned: changed in the cache, not on the disk, not dirty for the
     * cache's writeback, until the commit. */
    struct buffer_head *bh = __bread(jt->sb->s_bdev, jt->a[0], jt->bs);
    KT_ASSERT(bh != NULL);
    KT_EXPECT(buffer_jbddirty(bh) && !buffer_dirty(bh));
    KT_EXPECT_EQ(sync_blockdev(jt->sb->s_bdev), 0);
    KT_EXPECT(disk_has(jt, jt->a[0], "a", 0));
    KT_EXPECT_EQ(journal_force_commit(j), 0);
    KT_EXPECT_EQ(j->j_commit_sequence, first);
    /* Committed: free to go home, on T1's checkpoint list. */
    KT_EXPECT(buffer_dirty(bh) && !buffer_jbddirty(bh));
    brelse(bh);
    KT_EXPECT(be32_to_cpu(j->j_superblock->s_start) == j->j_first);
    KT_EXPECT_EQ(be32_to_cpu(j->j_superblock->s_sequence), first);

    /* T2: a[1] again (the later copy wins). */
    h = journal_start(j, 1);
    KT_ASSERT(!IS_ERR(h));
    KT_EXPECT_EQ(jwrite(h, jt, jt->a[1], "t2", 0, 0), 0);
    KT_EXPECT_EQ(journal_stop(h), 0);
    KT_EXPECT_EQ(journal_force_commit(j), 0);

    /* T3: a[2] freed: revoked, and its committed T1 copy never goes home. */
    h = journal_start(j, 1);
    KT_ASSERT(!IS_ERR(h));
    KT_EXPECT_EQ(journal_revoke(h, jt->a[2], NULL), 0);
    KT_EXPECT_EQ(journal_stop(h), 0);
    KT_EXPECT_EQ(journal_force_commit(j), 0);
    bh = __find_get_block(jt->sb->s_bdev, jt->a[2], jt->bs);
    KT_EXPECT(!bh || (!buffer_dirty(bh) && !buffer_jbd(bh)));
    brelse(bh);

    /* T4..T9: 200 blocks each; the log (1023 blocks) fills, is
     * checkpointed and wraps.  T9 (still in the log at the crash) also
     * changes a[3], whose new bytes start with the magic: logged escaped. */
    unsigned long wraps = 0, last_head = j->j_head;
    for (int k = 4; k <= 9; k++) {
        char key[4] = { 'g', (char)('0' + k), 0 };
        /* T8 reserves a credit it does not use (a handle reserves for
         * its worst case): at both block sizes the log then has no room
         * for it, journal_start checkpoints first, and T8 and T9 are both
         * in the log at the crash. */
        h = journal_start(j, BIG + (k >= 8) + (k == 8) + (k == 9));
        KT_ASSERT(!IS_ERR(h));
        for (int i = 0; i < BIG; i++)
            KT_EXPECT_EQ(jwrite(h, jt, jt->big[i], key, i, 0), 0);
        if (k == 8)
            KT_EXPECT_EQ(jwrite(h, jt, jt->a[2], "t8", 0, 0), 0);
        if (k == 9) {
            KT_EXPECT_EQ(jwrite(h, jt, jt->a[3], "t2", 1, 1), 0);
            KT_EXPECT_EQ(journal_revoke(h, jt->a[2], NULL), 0);
        }
        KT_EXPECT_EQ(journal_stop(h), 0);
        if (k == 4) {
            /* T4b: a second handle that does not fit in T4 (a quarter of
             * the log): journal_start has T4 committed first and starts
             * the next transaction; it rewrites big[0..99] the same. */
            tid_t t4 = first + 3;
            h = journal_start(j, BIG / 2);
            KT_ASSERT(!IS_ERR(h));
            KT_EXPECT_EQ(j->j_commit_sequence, t4);
            KT_EXPECT_EQ(h->h_transaction->t_tid, t4 + 1);
            for (int i = 0; i < BIG / 2; i++)
                KT_EXPECT_EQ(jwrite(h, jt, jt->big[i], key, i, 0), 0);
            KT_EXPECT_EQ(journal_stop(h), 0);
        }
        KT_EXPECT_EQ(journal_force_commit(j), 0);
        if (j->j_head < last_head)
            wraps++;
        last_head = j->j_head;
    }
    KT_EXPECT_EQ(wraps, 1);
    KT_EXPECT_EQ(j->j_nr_commits, 10);
    KT_EXPECT_EQ(j->j_tail_sequence, first + 8);   /* T8 and T9 in the log */
    KT_EXPECT(j->j_nr_checkpoints > 0);
    KT_EXPECT_EQ(j->j_commit_sequence, first + 9);

    /* T10: committed by kjournald's timer (jbdclean: a commit interval of
     * one second of guest time, nobody asks), or never (jbdcommit). */
    if (commit_last)
        j->j_commit_interval = HZ;
    h = journal_start(j, 1);
    KT_ASSERT(!IS_ERR(h));
    KT_EXPECT_EQ(jwrite(h, jt, jt->a[0], "t10", 0, 0), 0);
    KT_EXPECT_EQ(journal_stop(h), 0);
    if (commit_last) {
        unsigned long start = jiffies;
        while (j->j_commit_sequence != first + 10 && time_before(jiffies, start + 5 * HZ))
            msleep(50);
        KT_EXPECT_EQ(j->j_commit_sequence, first + 10);
        KT_EXPECT(time_after_eq(jiffies, start + HZ / 2));   /* not before its time */
    }
}

/* Expected contents of /a, block i, after T1..T9 (and T10 if t10). */
static int a_ok(const char *dir, unsigned bs, int t10)
{
    static const char *key[4] = { "t1", "t2", "a", "t2" };
    static const unsigned idx[4] = { 0, 0, 2, 1 };
    char path[32];
    snprintf(path, sizeof(path), "%s/a", dir);
    struct file *f = filp_open(path, O_RDONLY, 0);
    if (IS_ERR(f))
        return 0;
    char *buf = kmalloc(bs, GFP_KERNEL), *want = kmalloc(bs, GFP_KERNEL);
    int ok = buf && want;
    for (int i = 0; ok && i < 4; i++) {
        loff_t pos = (loff_t)i * bs;
        ok = kernel_read(f, buf, bs, &pos) == (ssize_t)bs;
        vpattern_fill(want, bs, i == 0 && t10 ? "t10" : key[i], (uint64_t)idx[i] * bs);
        if (i == 3)
            *(uint32_t *)want = cpu_to_be32(JFS_MAGIC_NUMBER);
        ok = ok && !memcmp(buf, want, bs);
    }
    kfree(buf);
    kfree(want);
    filp_close(f);
    return ok;
}

/* include/ktest.h */
int ktest_copy_disk(const char *from, const char *to)
{
    struct block_device *src = blkdev_get(from), *dst = blkdev_get(to);
    if (!src || !dst || dst->nr_sectors < src->nr_sectors)
        return -ENODEV;
    char *buf = kmalloc(64 * SECTOR_SIZE, GFP_KERNEL);
    if (!buf)
        return -ENOMEM;
    int err = 0;
    for (sector_t s = 0; !err && s < src->nr_sectors; s += 64) {
        unsigned n = min_t(sector_t, 64, src->nr_sectors - s);
        err = blkdev_read(src, s, n, buf);
        if (!err)
            err = blkdev_write(dst, s, n, buf);
    }
    kfree(buf);
    return err;
}

static void crash_then_recover(const char *dev, const char *copy)
{
    static struct jtest jt;
    KT_ASSERT_EQ(open_journal(dev, "/jc", &jt), 0);
    workload(&jt, 0);
    KT_EXPECT(jt.journal->j_running_transaction != NULL);   /* T10: not committed */
    /* What ext3's read-write mount will set (issue 24's next step): the
     * log must be replayed at the next mount. */
    struct ext2_sb_info *sbi = EXT2_SB(jt.sb);
    sbi->s_es->s_feature_incompat |= EXT3_FEATURE_INCOMPAT_RECOVER;
    set_buffer_dirty(sbi->s_sbh);
    KT_EXPECT_EQ(sync_dirty_buffer(sbi->s_sbh), 0);
    /* The crash: the disk as it is now goes to hdb; hda's journal stops
     * writing (journal_abort: the log stays for the host's e2fsck). */
    KT_EXPECT_EQ(ktest_copy_disk(dev, copy), 0);
    journal_abort(jt.journal, -EIO);
    journal_destroy(jt.journal);
    KT_EXPECT_EQ(do_umount("/jc"), 0);

    /* Vellum's recovery of the crash image: T10 is lost, the rest is there. */
    printk(KERN_INFO "jbd-test: mounting the copy\n");
    KT_ASSERT_EQ(vfs_mkdir("/jr", 0755), 0);
    KT_ASSERT_EQ(do_mount(copy, "/jr", "ext2", MS_RDONLY, NULL), 0);
    const char *log = ktest_log_since("jbd-test: mounting the copy");
    KT_EXPECT(ktest_find(log, "journal replayed") != NULL);
    struct super_block *sb = ktest_sb_of("/jr");
    KT_ASSERT(sb != NULL);
    KT_EXPECT_EQ(EXT2_SB(sb)->s_es->s_feature_incompat & EXT3_FEATURE_INCOMPAT_RECOVER, 0);
    KT_EXPECT(a_ok("/jr", jt.bs, 0));
    KT_EXPECT_EQ(do_umount("/jr"), 0);
}

KTEST(jbdcommit, crash_then_recover) { crash_then_recover("hda", "hdb"); }
KTEST(jbdcommit4k, crash_then_recover) { crash_then_recover("hda", "hdb"); }

static void clean(const char *dev, const char *dir)
{
    static struct jtest jt;
    KT_ASSERT_EQ(open_journal(dev, dir, &jt), 0);
    workload(&jt, 1);
    tid_t next = jt.journal->j_transaction_sequence;
    journal_destroy(jt.journal);
    KT_EXPECT_EQ(do_umount(dir), 0);
    /* Remounted: the journal is empty at the next ID, the files changed. */
    KT_ASSERT_EQ(do_mount(dev, dir, "ext2", MS_RDONLY, NULL), 0);
    const char *log = ktest_log_since("jbd-test: clean");
    KT_EXPECT(ktest_find(log, "journal replayed") == NULL);
    struct super_block *sb = ktest_sb_of(dir);
    KT_ASSERT(sb != NULL);
    struct inode *inode = ext2_iget(sb, EXT2_SB(sb)->s_es->s_journal_inum);
    KT_ASSERT(!IS_ERR(inode));
    struct buffer_head *bh = __bread(sb->s_bdev, bmap(inode, 0), sb->s_blocksize);
    iput(inode);
    KT_ASSERT(bh != NULL);
    journal_superblock_t *jsb = (journal_superblock_t *)bh->b_data;
    KT_EXPECT_EQ(jsb->s_start, 0);
    KT_EXPECT_EQ(be32_to_cpu(jsb->s_sequence), next);
    brelse(bh);
    KT_EXPECT(a_ok(dir, sb->s_blocksize, 1));
    KT_EXPECT_EQ(do_umount(dir), 0);
}

KTEST(jbdclean, clean_1k) { printk(KERN_INFO "jbd-test: clean\n"); clean("hda", "/k1"); }
KTEST(jbdclean, clean_4k) { printk(KERN_INFO "jbd-test: clean\n"); clean("hdb", "/k4"); }

#ifdef CONFIG_LOCKDEP
/* The handle is a lock class for the validator (transaction.c): the order
 * of 2.6.24's ext3 (page lock, then handle) is quiet; a page lock taken
 * while a handle is held is the inversion, reported once.  The journal is
 * then aborted, so hda is not written (clean_1k's image stays as it is). */
KTEST(jbdclean, handle_then_page_lock_reported)
{
    static struct jtest jt;
    KT_ASSERT_EQ(open_journal("hda", "/kl", &jt), 0);
    struct page *page = alloc_page(GFP_KERNEL);
    KT_ASSERT(page != NULL);
    ktest_lockdep_begin();
    lock_page(page);                     /* the order: page lock -> handle */
    handle_t *h = journal_start(jt.journal, 1);
    KT_ASSERT(!IS_ERR(h));
    KT_EXPECT_EQ(journal_stop(h), 0);
    unlock_page(page);
    unsigned long quiet = lockdep_reports;
    printk(KERN_INFO "jbd-test: inversion follows\n");
    h = journal_start(jt.journal, 1);    /* handle -> page lock: against it */
    KT_ASSERT(!IS_ERR(h));
    lock_page(page);
    unlock_page(page);
    KT_EXPECT_EQ(journal_stop(h), 0);
    const char *log = ktest_log_since("jbd-test: inversion follows");
    unsigned long made = ktest_lockdep_end();
    KT_EXPECT_EQ(made, 1);
    KT_EXPECT_EQ(lockdep_reports, quiet + 1);
    KT_EXPECT(ktest_find(log, "WARNING: possible circular locking dependency detected"));
    KT_EXPECT(ktest_find(log, "is trying to acquire lock:\n (page lock){page}, at: "));
    KT_EXPECT(ktest_find(log, "but task is already holding lock:\n (jbd_handle){mutex}, at: "));
    __free_page(page);
    journal_abort(jt.journal, -EIO);     /* the empty transaction is never written */
    journal_destroy(jt.journal);
    KT_EXPECT_EQ(do_umount("/kl"), 0);
}
#endif

/* ---- jbdthreads: handles of several tasks and the commit ---- */

static struct jtest jth;
static volatile int committer_done, joiner_started, joiner_done;
static volatile tid_t joiner_tid;

static int committer(void *unused)
{
    journal_force_commit(jth.journal);   /* waits for the test's handle */
    committer_done = 1;
    return 0;
}

static int joiner(void *unused)
{
    joiner_started = 1;
    handle_t *h = journal_start(jth.journal, 1);   /* waits for the commit */
    if (!IS_ERR(h)) {
        joiner_tid = h->h_transaction->t_tid;
        jwrite(h, &jth, jth.a[1], "t2", 0, 0);
        journal_stop(h);
    }
    joiner_done = 1;
    return 0;
}

/* The commit locks the running transaction and waits until every handle
 * on it stopped (t_updates 0); a handle started meanwhile waits for the
 * commit to end and joins the next transaction.  hda = jcommit-1k.img; the
 * post_check reads /a: blocks 0 and 1 are T1's and T2's. */
KTEST(jbdthreads, commit_waits_for_handles)
{
    KT_ASSERT_EQ(open_journal("hda", "/jt", &jth), 0);
    journal_t *j = jth.journal;
    tid_t first = j->j_transaction_sequence;
    handle_t *h = journal_start(j, 1);
    KT_ASSERT(!IS_ERR(h));
    KT_EXPECT_EQ(jwrite(h, &jth, jth.a[0], "t1", 0, 0), 0);
    struct task_struct *c = kthread_run(committer, NULL, "jbd-committer");
    KT_ASSERT(!IS_ERR(c));
    msleep(200);
    /* The commit began and waits for our handle. */
    KT_EXPECT(!committer_done);
    KT_EXPECT(j->j_committing_transaction == h->h_transaction);
    KT_EXPECT_EQ(h->h_transaction->t_state, T_LOCKED);
    struct task_struct *jn = kthread_run(joiner, NULL, "jbd-joiner");
    KT_ASSERT(!IS_ERR(jn));
    msleep(200);
    KT_EXPECT(joiner_started && !joiner_done);   /* no handle joins a locked one */
    KT_EXPECT_EQ(journal_stop(h), 0);
    unsigned long start = jiffies;
    while ((!committer_done || !joiner_done) && time_before(jiffies, start + 5 * HZ))
        msleep(20);
    KT_EXPECT(committer_done && joiner_done);
    KT_EXPECT_EQ(joiner_tid, first + 1);
    KT_EXPECT_EQ(journal_force_commit(j), 0);
    KT_EXPECT_EQ(j->j_commit_sequence, first + 1);
    kthread_stop(c);
    kthread_stop(jn);
    journal_destroy(j);
    KT_EXPECT_EQ(do_umount("/jt"), 0);
}

/* ---- ext3crash: ext3's own metadata through the journal, and a crash ---- */

/* include/ktest.h */
int ktest_write_pattern(const char *path, const char *key, size_t len)
{
    struct file *f = filp_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (IS_ERR(f))
        return PTR_ERR(f);
    char *buf = kmalloc(4096, GFP_KERNEL);
    int err = buf ? 0 : -ENOMEM;
    loff_t pos = 0;
    while (!err && (size_t)pos < len) {
        size_t n = min_t(size_t, len - pos, 4096);
        vpattern_fill(buf, n, key, pos);
        ssize_t w = kernel_write(f, buf, n, &pos);
        if (w != (ssize_t)n)
            err = w < 0 ? w : -EIO;
    }
    kfree(buf);
    filp_close(f);
    return err;
}

/* hda = ext3-1k.img (/a /b /e of tools/mkjournal.sh) mounted read-write:
 * files, a directory, a rename, an unlink, a truncate, a 1 MiB file, then
 * sync (the running transaction committed); the disk as it is then is
 * copied to hdb and hda's journal aborts: hda is the crash image (the log
 * holds the transactions, nothing is home yet).  Then Vellum recovers hdb.
 * post_check: hdb equals hda recovered by the host's e2fsck byte for byte;
 * e2fsck -fn is clean after either; debugfs reads the files back.  (The
 * clean unmount of a written ext3: jbdwrite.) */
KTEST(ext3crash, write_sync_crash)
{
    KT_ASSERT_EQ(vfs_mount_at("hda", "/x3", "ext2"), 0);
    struct super_block *sb = ktest_sb_of("/x3");
    KT_ASSERT(sb != NULL);
    journal_t *journal = EXT2_SB(sb)->s_journal;
    KT_ASSERT(journal != NULL);
    KT_EXPECT(EXT2_SB(sb)->s_es->s_feature_incompat & EXT3_FEATURE_INCOMPAT_RECOVER);
    KT_EXPECT_EQ(ktest_write_pattern("/x3/new", "new", 30000), 0);   /* indirect blocks */
    KT_EXPECT_EQ(vfs_mkdir("/x3/d", 0755), 0);
    KT_EXPECT_EQ(ktest_write_pattern("/x3/d/small", "small", 100), 0);
    KT_EXPECT_EQ(vfs_rename("/x3/e", "/x3/d/e2"), 0);
    KT_EXPECT_EQ(vfs_unlink("/x3/b"), 0);
    KT_EXPECT_EQ(vfs_truncate("/x3/a", 1000), 0);
    KT_EXPECT_EQ(ktest_write_pattern("/x3/m", "m", 1 << 20), 0);      /* double indirect */
    ksys_sync();
    KT_EXPECT(journal->j_running_transaction == NULL);
    KT_EXPECT(journal->j_nr_commits > 0);
    /* The crash: hda as it is now goes to hdb; hda's journal aborts, so
     * the unmount writes nothing more (hda stays the crash image). */
    KT_EXPECT_EQ(ktest_copy_disk("hda", "hdb"), 0);
    journal_abort(journal, -EIO);
    KT_EXPECT_EQ(do_umount("/x3"), 0);
    /* Vellum's recovery of the copy (read-only: the replay and nothing else). */
    printk(KERN_INFO "jbd-test: mounting the crash copy\n");
    KT_ASSERT_EQ(vfs_mkdir("/x3r", 0755), 0);
    KT_ASSERT_EQ(do_mount("hdb", "/x3r", "ext2", MS_RDONLY, NULL), 0);
    const char *log = ktest_log_since("jbd-test: mounting the crash copy");
    KT_EXPECT(ktest_find(log, "journal replayed") != NULL);
    struct file *f = filp_open("/x3r/d/small", O_RDONLY, 0);
    KT_EXPECT(!IS_ERR(f));
    if (!IS_ERR(f))
        filp_close(f);
    KT_EXPECT_EQ(do_umount("/x3r"), 0);
}

/* ---- ext3trunc: truncates longer than a transaction ---- */

static unsigned long free_blocks(struct super_block *sb)
{
    return EXT2_SB(sb)->s_es->s_free_blocks_count;
}

/* path: the first 8000 bytes of pattern key, then one byte ("x") in the
 * first data block under each of n single-indirect blocks of the
 * double-indirect tree: freeing it revokes n + 1 indirect blocks, more
 * than a transaction of this journal (1024 blocks: 256) holds. */
static int write_sparse(const char *path, const char *key, struct super_block *sb, int n)
{
    int err = ktest_write_pattern(path, key, 8000);
    struct file *f = err ? ERR_PTR(err) : filp_open(path, O_WRONLY, 0);
    if (IS_ERR(f))
        return PTR_ERR(f);
    unsigned long bs = sb->s_blocksize, ptrs = bs / 4;
    for (int i = 0; i < n && !err; i++) {
        loff_t pos = (loff_t)(EXT2_NDIR_BLOCKS + ptrs + i * ptrs) * bs;
        if (kernel_write(f, "x", 1, &pos) != 1)
            err = -EIO;
    }
    filp_close(f);
    return err;
}

static volatile int holder_started, holder_go, holder_done;

/* A second task's handle with all but 10 of a transaction's credits; let
 * go 300 ms after holder_go (the test's journal_restart waits for it). */
static int credit_holder(void *arg)
{
    journal_t *j = arg;
    handle_t *h = journal_start(j, j->j_max_transaction_buffers - 10);
    holder_started = IS_ERR(h) ? -1 : 1;
    if (IS_ERR(h))
        return 0;
    while (!holder_go)
        msleep(10);
    msleep(300);
    journal_stop(h);
    holder_done = 1;
    return 0;
}

/* journal_extend grows a handle while its transaction has room and says 1
 * when it has not; journal_restart then leaves it, the commit waits for
 * the other handle on it, and the handle goes on in the next transaction
 * with the credits asked for. */
KTEST(ext3trunc, extend_and_restart)
{
    KT_ASSERT_EQ(vfs_mount_at("hda", "/xt", "ext2"), 0);
    journal_t *j = EXT2_SB(ktest_sb_of("/xt"))->s_journal;
    KT_ASSERT(j != NULL);
    struct task_struct *k = kthread_run(credit_holder, j, "jbd-holder");
    KT_ASSERT(!IS_ERR(k));
    while (!holder_started)
        msleep(10);
    KT_ASSERT_EQ(holder_started, 1);
    handle_t *h = journal_start(j, 5);
    KT_ASSERT(!IS_ERR(h));
    tid_t tid = h->h_transaction->t_tid;
    KT_EXPECT_EQ(journal_extend(h, 3), 0);
    KT_EXPECT_EQ(h->h_buffer_credits, 8);
    KT_EXPECT_EQ(journal_extend(h, 20), 1);           /* 10 were left: full */
    KT_EXPECT_EQ(h->h_buffer_credits, 8);
    holder_go = 1;
    KT_EXPECT_EQ(journal_restart(h, 20), 0);
    KT_EXPECT(holder_done);                           /* the commit waited for it */
    KT_EXPECT_EQ(j->j_commit_sequence, tid);          /* the old one committed */
    KT_EXPECT_EQ(h->h_transaction->t_tid, tid + 1);
    KT_EXPECT_EQ(h->h_buffer_credits, 20);
    KT_EXPECT_EQ(h->h_transaction->t_outstanding_credits, 20);
    KT_EXPECT_EQ(journal_stop(h), 0);
    KT_EXPECT(current->journal_info == NULL);
    kthread_stop(k);
    KT_EXPECT_EQ(do_umount("/xt"), 0);
}

/* A truncate and an unlink that free more metadata than a transaction
 * holds (each used to stop at a BUG in journal_revoke), and the truncate
 * of a failed write_end (ext2_write_failed, which had no handle on ext3).
 * Each gives back exactly the blocks it took.  post_check: e2fsck -fn is
 * clean, /s and /w read back, /u is gone, the journal emptied. */
KTEST(ext3trunc, long_truncates)
{
    KT_ASSERT_EQ(vfs_mount_at("hda", "/xt", "ext2"), 0);
    struct super_block *sb = ktest_sb_of("/xt");
    journal_t *j = EXT2_SB(sb)->s_journal;
    KT_ASSERT(j != NULL && sb->s_blocksize == 1024);
    KT_ASSERT(j->j_max_transaction_buffers < 300);

    unsigned long before = free_blocks(sb);
    KT_ASSERT_EQ(write_sparse("/xt/s", "s", sb, 300), 0);
    KT_EXPECT(free_blocks(sb) < before - 600);
    unsigned long commits = j->j_nr_commits;
    KT_EXPECT_EQ(vfs_truncate("/xt/s", 5000), 0);
    KT_EXPECT(j->j_nr_commits > commits);             /* it restarted */
    KT_EXPECT_EQ(free_blocks(sb), before - 5);        /* 5000 bytes: 5 blocks */
    struct file *f = filp_open("/xt/s", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(f->f_inode->i_size, 5000);
    KT_EXPECT_EQ(f->f_inode->i_blocks, 10);
    KT_EXPECT_EQ(EXT2_I(f->f_inode)->i_truncate_size, 0);
    filp_close(f);

    before = free_blocks(sb);
    KT_ASSERT_EQ(write_sparse("/xt/u", "u", sb, 300), 0);
    commits = j->j_nr_commits;
    KT_EXPECT_EQ(vfs_unlink("/xt/u"), 0);             /* evict frees it all */
    KT_EXPECT(j->j_nr_commits > commits);
    KT_EXPECT_EQ(free_blocks(sb), before);

    /* write_begin allocates blocks 4..7 past i_size (3000); write_end
     * copies nothing (a short copy); ext2_write_failed frees them. */
    KT_ASSERT_EQ(ktest_write_pattern("/xt/w", "w", 3000), 0);
    before = free_blocks(sb);
    f = filp_open("/xt/w", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(f));
    struct inode *inode = f->f_inode;
    struct address_space *mapping = inode->i_mapping;
    struct page *page;
    void *fsdata = NULL;
    mutex_lock(&inode->i_mutex);
    KT_EXPECT_EQ(mapping->a_ops->write_begin(f, mapping, PAGE_SIZE, PAGE_SIZE, 0, &page,
                                             &fsdata), 0);
    KT_EXPECT_EQ(free_blocks(sb), before - 4);
    KT_EXPECT_EQ(mapping->a_ops->write_end(f, mapping, PAGE_SIZE, PAGE_SIZE, 0, page,
                                           fsdata), 0);
    mutex_unlock(&inode->i_mutex);
    KT_EXPECT_EQ(free_blocks(sb), before);
    KT_EXPECT_EQ(inode->i_size, 3000);
    KT_EXPECT_EQ(inode->i_blocks, 6);
    filp_close(f);
    KT_EXPECT_EQ(ext2_count_free_blocks(sb), free_blocks(sb));
    KT_EXPECT_EQ(do_umount("/xt"), 0);
}

/* ---- ext3cut: every transaction of a long truncate is a consistent disk ---- */

/* hda = ext3-1k.img: /s written sparse (300 single-indirect blocks) and
 * unmounted (the log empty), mounted again, /s truncated to 5000 bytes:
 * the truncate spans transactions (more revokes than one holds); they are
 * committed and the journal aborts, so the log holds exactly them and
 * nothing of theirs went home.  post_check cuts the log after each of them
 * in turn (the next commit block zeroed), lets the host's e2fsck replay
 * it, and asks e2fsck -fn and debugfs: a power cut after any one of them
 * leaves a clean filesystem and /s a beginning of the old file, at least
 * 5000 bytes long. */
KTEST(ext3cut, truncate_then_crash)
{
    KT_ASSERT_EQ(vfs_mount_at("hda", "/xc", "ext2"), 0);
    struct super_block *sb = ktest_sb_of("/xc");
    KT_ASSERT(sb != NULL && EXT2_SB(sb)->s_journal != NULL);
    KT_ASSERT_EQ(write_sparse("/xc/s", "s", sb, 300), 0);
    KT_EXPECT_EQ(do_umount("/xc"), 0);
    KT_ASSERT_EQ(do_mount("hda", "/xc", "ext2", 0, NULL), 0);
    journal_t *j = EXT2_SB(ktest_sb_of("/xc"))->s_journal;
    KT_ASSERT(j != NULL);
    unsigned long commits = j->j_nr_commits, checkpoints = j->j_nr_checkpoints;
    KT_EXPECT_EQ(vfs_truncate("/xc/s", 5000), 0);
    KT_EXPECT_EQ(journal_force_commit(j), 0);
    KT_EXPECT(j->j_nr_commits >= commits + 2);        /* it spans transactions */
    KT_EXPECT_EQ(j->j_nr_checkpoints, checkpoints);   /* all of them in the log */
    journal_abort(j, -EIO);
    KT_EXPECT_EQ(do_umount("/xc"), 0);
}

/* jbdbatch (hda = jcommit-1k.img, hdb = jcommit-4k.img): the commit sends
 * its log blocks together (commit.c: j_wbuf and the plug), and a write
 * error among them still aborts the journal. */
static const struct block_device_operations *real_ops;
static sector_t bad_first, bad_end;
static int bad_writes;
static bool is_bad(sector_t sector, unsigned count)
{
    return sector < bad_end && sector + count > bad_first;
}
static int bad_read(struct block_device *bdev, sector_t sector, unsigned count, void *buf)
{
    return real_ops->read(bdev, sector, count, buf);
}
static int bad_write(struct block_device *bdev, sector_t sector, unsigned count,
                     const void *buf)
{
    if (is_bad(sector, count))
        return bad_writes++, -EIO;
    return real_ops->write(bdev, sector, count, buf);
}
static int bad_writev(struct block_device *bdev, sector_t sector, unsigned count,
                      const struct bio_vec *vec, unsigned nvec)
{
    if (is_bad(sector, count))
        return bad_writes++, -EIO;
    if (real_ops->writev)
        return real_ops->writev(bdev, sector, count, vec, nvec);
    for (unsigned k = 0; k < nvec; sector += vec[k].bv_len / SECTOR_SIZE, k++) {
        int err = real_ops->write(bdev, sector, vec[k].bv_len / SECTOR_SIZE, vec[k].bv_base);
        if (err)
            return err;
    }
    return 0;
}
static int bad_flush(struct block_device *bdev)
{
    return real_ops->flush ? real_ops->flush(bdev) : 0;
}
static const struct block_device_operations bad_ops = {
    .read = bad_read, .write = bad_write, .writev = bad_writev, .flush = bad_flush,
};

/* include/ktest.h: the planted write error of jbdbatch and ext3ordered. */
void ktest_fail_writes(struct block_device *bdev, unsigned long first, unsigned long end)
{
    BUG_ON(bdev->ops == &bad_ops);     /* one planted range at a time */
    real_ops = bdev->ops;
    bad_first = first, bad_end = end, bad_writes = 0;
    bdev->ops = &bad_ops;
}

int ktest_fail_writes_end(struct block_device *bdev)
{
    BUG_ON(bdev->ops != &bad_ops);
    bdev->ops = real_ops;
    return bad_writes;
}

/* The disk's own copy of log block blocknr is a commit block of tid? */
static int log_has_commit(struct jtest *jt, unsigned long blocknr, tid_t tid)
{
    unsigned long phys;
    char *disk = kmalloc(jt->bs, GFP_KERNEL);
    int found = 0;
    if (disk && !journal_bmap(jt->journal, blocknr, &phys) &&
        !blkdev_read(jt->sb->s_bdev, phys * (jt->bs / SECTOR_SIZE), jt->bs / SECTOR_SIZE, disk)) {
        journal_header_t *h = (journal_header_t *)disk;
        found = h->h_magic == cpu_to_be32(JFS_MAGIC_NUMBER) &&
                h->h_blocktype == cpu_to_be32(JFS_COMMIT_BLOCK) &&
                h->h_sequence == cpu_to_be32(tid);
    }
    kfree(disk);
    return found;
}

/* A transaction of NB blocks of /big: its log blocks (a descriptor, NB
 * copies, the commit block) in a few write requests, not NB + 2 (the log
 * is contiguous on the disk but where the journal inode's indirect blocks
 * sit between its blocks, and where it wraps); the commit's two flushes. */
#define NB 60
static void batched(const char *dev, const char *dir)
{
    static struct jtest jt;
    KT_ASSERT_EQ(open_journal(dev, dir, &jt), 0);
    journal_t *j = jt.journal;
    struct block_device *bdev = jt.sb->s_bdev;
    for (int round = 0; round < 3; round++) {        /* the log's head moves on */
        handle_t *h = journal_start(j, NB);
        KT_ASSERT(!IS_ERR(h));
        for (int i = 0; i < NB; i++)
            KT_EXPECT_EQ(jwrite(h, &jt, jt.big[i], "wb", i + round, 0), 0);
        KT_EXPECT_EQ(journal_stop(h), 0);
        unsigned long commits = j->j_nr_commits;
        struct blkdev_stats s0, s1;
        blkdev_stats(bdev, &s0);
        KT_EXPECT_EQ(journal_force_commit(j), 0);
        blkdev_stats(bdev, &s1);
        KT_EXPECT_EQ(j->j_nr_commits, commits + 1);
        printk(KERN_INFO "jbd-test: %s: a commit of %d blocks: %lu write requests, %lu sectors, %lu flushes\n",
               dev, NB, s1.write_ios - s0.write_ios, s1.sectors_written - s0.sectors_written,
               s1.flushes - s0.flushes);
        /* Round 0 also writes the journal superblock (the log was empty),
         * with its own flush.  A request is at most 256 sectors. */
        KT_EXPECT(s1.write_ios - s0.write_ios <= (round ? 4 : 5));
        KT_EXPECT(s1.sectors_written - s0.sectors_written >= (NB + 2) * (jt.bs / SECTOR_SIZE));
        KT_EXPECT_EQ(s1.flushes - s0.flushes, round ? 2 : 3);
    }
    KT_EXPECT_EQ(journal_flush(j), 0);
    for (int i = 0; i < NB; i++)
        KT_EXPECT(disk_has(&jt, jt.big[i], "wb", i + 2));
    journal_destroy(j);
    KT_EXPECT_EQ(do_umount(dir), 0);
}
KTEST(jbdbatch, log_writes_batched_1k) { batched("hda", "/w1"); }
KTEST(jbdbatch, log_writes_batched_4k) { batched("hdb", "/w4"); }

/* A write error on a logged copy (the request that carries the descriptor
 * and the copies fails): the commit block is never written, the journal
 * is aborted, fsync's force commit fails, the home blocks keep their old
 * bytes. */
KTEST(jbdbatch, log_write_error_aborts)
{
    static struct jtest jt;
    KT_ASSERT_EQ(open_journal("hda", "/we", &jt), 0);
    journal_t *j = jt.journal;
    struct block_device *bdev = jt.sb->s_bdev;
    handle_t *h = journal_start(j, 3);
    KT_ASSERT(!IS_ERR(h));
    for (int i = 0; i < 3; i++)
        KT_EXPECT_EQ(jwrite(h, &jt, jt.big[100 + i], "we", i, 0), 0);
    KT_EXPECT_EQ(journal_stop(h), 0);
    tid_t tid = j->j_running_transaction->t_tid;
    unsigned long commits = j->j_nr_commits;
    /* The log's next blocks: descriptor, 3 copies (the second one bad), the
     * commit block. */
    unsigned long lb[5], phys;
    for (int k = 0; k < 5; k++)
        lb[k] = j->j_first + (j->j_head - j->j_first + k) % (j->j_last - j->j_first);
    KT_ASSERT_EQ(journal_bmap(j, lb[2], &phys), 0);
    sector_t first = phys * (jt.bs / SECTOR_SIZE);
    ktest_fail_writes(bdev, first, first + jt.bs / SECTOR_SIZE);
    KT_EXPECT(journal_force_commit(j) != 0);
    int failed = ktest_fail_writes_end(bdev);
    KT_EXPECT(failed >= 1);                          /* the planted error was met */
    KT_EXPECT(is_journal_aborted(j));
    KT_EXPECT_EQ(j->j_nr_commits, commits);
    KT_EXPECT(!log_has_commit(&jt, lb[4], tid));
    for (int i = 0; i < 3; i++)
        KT_EXPECT(disk_has(&jt, jt.big[100 + i], "big", 100 + i));
    journal_destroy(j);
    KT_EXPECT_EQ(do_umount("/we"), 0);
}

/* What ubench's smallfile_fsync asks of the disk, counted (the benchmark's
 * own figure waits for the host's disk and moves with its load): on hda =
 * ext3-1k.img, small files created, written (4 KiB) and fsync'd one by
 * one.  Each fsync writes the file's blocks (one request), the log
 * (descriptor, inode table, directory, bitmaps, group descriptor,
 * superblock: one request) and the commit block, and flushes twice
 * (before the commit block and after). */
KTEST(ext3fsync, smallfile_fsync_requests)
{
    KT_ASSERT_EQ(vfs_mount_at("hda", "/wf", "ext2"), 0);
    struct super_block *sb = ktest_sb_of("/wf");
    KT_ASSERT(sb != NULL && EXT2_SB(sb)->s_journal != NULL);
    for (int i = 0; i < 4; i++) {
        char path[24];
        snprintf(path, sizeof(path), "/wf/small%d", i);
        struct file *f = filp_open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
        KT_ASSERT(!IS_ERR(f));
        loff_t pos = 0;
        char *buf = kmalloc(4096, GFP_KERNEL);
        KT_ASSERT(buf != NULL);
        vpattern_fill(buf, 4096, "sf", 0);
        KT_EXPECT_EQ(kernel_write(f, buf, 4096, &pos), 4096);
        kfree(buf);
        struct blkdev_stats s0, s1;
        blkdev_stats(sb->s_bdev, &s0);
        KT_EXPECT_EQ(vfs_fsync(f, 0), 0);
        blkdev_stats(sb->s_bdev, &s1);
        filp_close(f);
        printk(KERN_INFO "jbd-test: fsync of a new 4 KiB file: %lu write requests, %lu sectors, %lu flushes\n",
               s1.write_ios - s0.write_ios, s1.sectors_written - s0.sectors_written,
               s1.flushes - s0.flushes);
        /* The first also writes the journal superblock (and flushes);
         * a log that crosses the journal inode's indirect block is two
         * requests.  Before the batched commit: 10 requests, 3 flushes. */
        KT_EXPECT(s1.write_ios - s0.write_ios <= (i ? 4 : 5));
        KT_EXPECT_EQ(s1.flushes - s0.flushes, i ? 2 : 3);
    }
    KT_EXPECT_EQ(do_umount("/wf"), 0);
}
