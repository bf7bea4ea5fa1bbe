/* fs/jbd/recovery_test.c: ext3 mounts against the images of
 * tools/mkjournal.sh (run by tools/suites/jbd*.conf; the transactions the
 * images hold are listed at the top of that script).
 *
 *   jbd           hda = jbd-1k.img, hdb = jbd-4k.img: the mount replays
 *                 T1..T4 and not T5 (no commit block); the suite's
 *                 post_check compares each disk byte for byte with the same
 *                 image recovered by the host's e2fsck, runs e2fsck -fn and
 *                 checks the files and the empty journal with debugfs
 *   jbdwrap       hda = jbd-wrap.img: the same log, wrapping from the
 *                 journal's last block to s_first inside T2
 *   jbdwrite      hda = ext3-1k.img (empty journal): writes through ext2,
 *                 checked on the host; hdb = jbd-wipe.img: a log without
 *                 needs_recovery is ignored, never replayed
 *   jbdcorrupt    hda = jbd-badmagic.img, hdb = jbd-first.img: -EINVAL
 *   jbdcorrupt2   hda = jbd-hole.img (-EIO), hdb = jbd-csum.img (-EINVAL)
 *   jbdcorrupt3   hda = jbd-loop.img: a log that never ends (-EIO, no hang);
 *                 hdb = jbd-errno.img: s_errno moves to the ext2 superblock
 *
 * The kernel side checks what it can see (the mount's result, the
 * superblocks in the buffer cache, the replayed bytes through the page
 * cache); the host checks the disk.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <ktest.h>
#include <slab.h>
#include <fs.h>
#include <buffer_head.h>
#include <jbd.h>
#include "../ext2/ext2.h"            /* ext2_iget: the journal inode */
#include "../internal.h"             /* vfs_ensure_root, vfs_mount_at */

static int mount_ro(const char *dev, const char *dir)
{
    int err = vfs_ensure_root();
    if (err)
        return err;
    err = vfs_mkdir(dir, 0755);
    if (err && err != -EEXIST)
        return err;
    return do_mount(dev, dir, "ext2", MS_RDONLY, NULL);
}

/* The journal superblock of the filesystem mounted at dir, as the buffer
 * cache holds it (written through: the disk's copy).  Copied to *jsb. */
static int read_journal_super(const char *dir, journal_superblock_t *jsb)
{
    struct super_block *sb = ktest_sb_of(dir);
    if (!sb)
        return -ENOENT;
    struct inode *inode = ext2_iget(sb, EXT2_SB(sb)->s_es->s_journal_inum);
    if (IS_ERR(inode))
        return PTR_ERR(inode);
    unsigned long phys = bmap(inode, 0);
    iput(inode);
    if (!phys)
        return -EIO;
    struct buffer_head *bh = __bread(sb->s_bdev, phys, sb->s_blocksize);
    if (!bh)
        return -EIO;
    memcpy(jsb, bh->b_data, sizeof(*jsb));
    brelse(bh);
    return 0;
}

static uint32_t incompat_of(const char *dir)
{
    struct super_block *sb = ktest_sb_of(dir);
    return sb ? EXT2_SB(sb)->s_es->s_feature_incompat : ~0u;
}

/* Mount dev (read-only, as Linux replays even then) and check the replay
 * of T1..T4: the log line's counts, needs_recovery cleared, the journal
 * empty with sequence 6 (one past the uncommitted T5), and /e's first word
 * the JBD magic again (it was logged escaped). */
static void replay(const char *dev, const char *dir)
{
    static const char want[] = "journal replayed: 4 transactions, 6 blocks, 1 revoked";
    static journal_superblock_t jsb;
    printk(KERN_INFO "jbd-test: mounting %s\n", dev);
    KT_ASSERT_EQ(mount_ro(dev, dir), 0);
    const char *log = ktest_log_since("jbd-test: mounting");
    KT_EXPECT(ktest_find(log, want) != NULL);
    KT_EXPECT(ktest_find(log, "mounted read-only: the journal is not written") != NULL);
    KT_EXPECT_EQ(incompat_of(dir) & EXT3_FEATURE_INCOMPAT_RECOVER, 0);
    KT_ASSERT_EQ(read_journal_super(dir, &jsb), 0);
    KT_EXPECT_EQ(be32_to_cpu(jsb.s_header.h_magic), JFS_MAGIC_NUMBER);
    KT_EXPECT_EQ(jsb.s_start, 0);
    KT_EXPECT_EQ(be32_to_cpu(jsb.s_sequence), 6);

    char path[32];
    uint32_t word = 0;
    snprintf(path, sizeof(path), "%s/e", dir);
    struct file *f = filp_open(path, O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    loff_t pos = 0;
    KT_EXPECT_EQ(kernel_read(f, &word, 4, &pos), 4);
    filp_close(f);
    KT_EXPECT_EQ(be32_to_cpu(word), JFS_MAGIC_NUMBER);
    KT_EXPECT_EQ(do_umount(dir), 0);
}

KTEST(jbd, replay_1k) { replay("hda", "/j1"); }
KTEST(jbd, replay_4k) { replay("hdb", "/j4"); }
KTEST(jbdwrap, replay_wrapped) { replay("hda", "/jw"); }

/* ---- jbdwrite ---- */

/* Byte i of the files written here: "vellum-ext3\n" repeated (the host
 * makes the same with `yes vellum-ext3 | head -c N`). */
static const char line[] = "vellum-ext3\n";
#define LINE_LEN 12

static int write_lines(const char *path, size_t size)
{
    struct file *f = filp_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (IS_ERR(f))
        return PTR_ERR(f);
    char *buf = kmalloc(LINE_LEN * 100, GFP_KERNEL);
    if (!buf) {
        filp_close(f);
        return -ENOMEM;
    }
    for (int i = 0; i < 100; i++)
        memcpy(buf + i * LINE_LEN, line, LINE_LEN);
    loff_t pos = 0;
    int err = 0;
    while ((size_t)pos < size) {
        size_t n = min_t(size_t, size - pos, LINE_LEN * 100);
        ssize_t w = kernel_write(f, buf, n, &pos);
        if (w != (ssize_t)n) {
            err = w < 0 ? w : -EIO;
            break;
        }
    }
    kfree(buf);
    filp_close(f);
    return err;
}

/* A clean ext3 mounted read-write: its metadata goes through the journal
 * (needs_recovery set while mounted); the unmount checkpoints everything
 * and leaves the journal empty, needs_recovery clear (post_check: e2fsck
 * -fn, debugfs reads, logdump). */
KTEST(jbdwrite, write_clean_ext3)
{
    KT_ASSERT_EQ(vfs_mount_at("hda", "/w", "ext2"), 0);
    KT_EXPECT(incompat_of("/w") & EXT3_FEATURE_INCOMPAT_RECOVER);
    struct super_block *sb = ktest_sb_of("/w");
    KT_ASSERT(sb != NULL);
    journal_t *journal = EXT2_SB(sb)->s_journal;
    KT_ASSERT(journal != NULL);
    tid_t first = journal->j_transaction_sequence;
    KT_EXPECT_EQ(write_lines("/w/new", 30000), 0);           /* indirect blocks at 1 KiB */
    KT_EXPECT_EQ(vfs_mkdir("/w/d", 0755), 0);
    KT_EXPECT_EQ(write_lines("/w/d/small", 100), 0);
    KT_EXPECT_EQ(vfs_rename("/w/e", "/w/d/e2"), 0);
    KT_EXPECT_EQ(vfs_unlink("/w/b"), 0);
    KT_EXPECT_EQ(vfs_truncate("/w/a", 1000), 0);
    ksys_sync();
    /* sync committed: something was journaled, and nothing is running */
    KT_EXPECT(tid_gt(journal->j_commit_sequence, first - 1));
    KT_EXPECT(journal->j_running_transaction == NULL);
    KT_EXPECT_EQ(do_umount("/w"), 0);
}

/* needs_recovery clear but a log in the journal: as Linux's ext3
 * (journal_wipe), the log is ignored, never replayed, and the journal left
 * empty past its last transaction (post_check: /a, /b, /e as mkfs wrote them). */
KTEST(jbdwrite, wipe_unreplayed_log)
{
    static journal_superblock_t jsb;
    printk(KERN_INFO "jbd-test: mounting hdb\n");
    KT_ASSERT_EQ(vfs_mount_at("hdb", "/x", "ext2"), 0);
    const char *log = ktest_log_since("jbd-test: mounting");
    KT_EXPECT(ktest_find(log, "ignoring recovery information on journal") != NULL);
    KT_EXPECT(ktest_find(log, "journal replayed") == NULL);
    KT_ASSERT_EQ(read_journal_super("/x", &jsb), 0);
    KT_EXPECT_EQ(jsb.s_start, 0);
    KT_EXPECT_EQ(be32_to_cpu(jsb.s_sequence), 6);
    KT_EXPECT_EQ(do_umount("/x"), 0);
}

/* ---- corrupt journals: the mount fails cleanly, with a log line ---- */

static void refused(const char *dev, int err, const char *why)
{
    KT_ASSERT_EQ(vfs_ensure_root(), 0);
    vfs_mkdir("/c", 0755);
    printk(KERN_INFO "jbd-test: mounting %s\n", dev);
    KT_EXPECT_EQ(do_mount(dev, "/c", "ext2", 0, NULL), err);
    const char *log = ktest_log_since("jbd-test: mounting");
    KT_EXPECT(ktest_find(log, why) != NULL);
    KT_EXPECT(ktest_find(log, "error loading journal") != NULL);
}

KTEST(jbdcorrupt, bad_magic_einval)
{
    refused("hda", -EINVAL, "no valid journal superblock found");
}

KTEST(jbdcorrupt, first_past_maxlen_einval)
{
    refused("hdb", -EINVAL, "invalid start of log s_first 1024");
}

KTEST(jbdcorrupt2, journal_hole_eio)
{
    refused("hda", -EIO, "journal block 5 is not mapped");
}

KTEST(jbdcorrupt2, csum_v3_einval)
{
    refused("hdb", -EINVAL, "unsupported journal features: incompat 0x10");
}

KTEST(jbdcorrupt3, endless_log_eio)
{
    refused("hda", -EIO, "the log runs round the whole journal from block 1");
}

/* An error recorded in the journal by a previous mount (s_errno): as
 * Linux's ext3_clear_journal_err, the mount marks the filesystem as having
 * errors (so e2fsck -p checks it) and clears s_errno (post_check: dumpe2fs). */
KTEST(jbdcorrupt3, journal_errno_marks_errors)
{
    static journal_superblock_t jsb;
    printk(KERN_INFO "jbd-test: mounting hdb\n");
    KT_ASSERT_EQ(vfs_mount_at("hdb", "/e3", "ext2"), 0);
    const char *log = ktest_log_since("jbd-test: mounting");
    KT_EXPECT(ktest_find(log, "filesystem error recorded from previous mount (-5)") != NULL);
    struct super_block *sb = ktest_sb_of("/e3");
    KT_ASSERT(sb != NULL);
    KT_EXPECT(EXT2_SB(sb)->s_es->s_state & EXT2_ERROR_FS);
    KT_ASSERT_EQ(read_journal_super("/e3", &jsb), 0);
    KT_EXPECT_EQ(jsb.s_errno, 0);
    KT_EXPECT_EQ(do_umount("/e3"), 0);
}
