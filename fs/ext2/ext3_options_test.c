/* fs/ext2/ext3_options_test.c: the mount options of ext2 and ext3
 * (fs/ext2/super.c's parse_options and ext2_show_options, the errors=
 * policy of ext2_error, commit=N on kjournald's timer), suite ext3opts:
 * hda = ext3-1k.img, hdb = ext2-1k.img.
 *   parse          what is accepted and what is -EINVAL (data=journal and
 *                  data=writeback, an unknown option, a bad number, commit=
 *                  on plain ext2), and /proc/mounts showing what is not at
 *                  its default, as Linux
 *   errors_policy  errors=continue stays read-write; errors=remount-ro goes
 *                  read-only (-EROFS) and, on ext3, aborts the journal
 *   commit_timer   commit=2 and commit=8: a transaction nobody forces is
 *                  committed by kjournald's timer N seconds (guest time)
 *                  after it started, not before (commit=8 outlives JBD's
 *                  default of 5)
 * tools/suites/ext3opts.conf checks both disks on the host: fsck-clean.
 * And suite ext3credits (hda = ext3-1k.img, one CPU): overuse_warns, a
 * handle that dirties more buffers than it reserved (JBD's WARN).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <slab.h>
#include <sched.h>
#include <timer.h>
#include <ktest.h>
#include <fs.h>
#include <jbd.h>
#include <do_mounts.h>
#include "ext2.h"
#include "../internal.h"

static void setup(void)
{
    vfs_ensure_root();
    vfs_mkdir("/proc", 0755);
    mount_recorded("none", "/proc", "proc", 0, NULL);     /* -EBUSY the 2nd time */
}

/* mount dev on dir (made) with data: do_mount's result */
static int mnt(const char *dev, const char *dir, const char *data)
{
    int err = vfs_mkdir(dir, 0755);
    if (err && err != -EEXIST)
        return err;
    return mount_recorded(dev, dir, "ext2", 0, data);
}

/* the /proc/mounts line that starts with prefix, in buf (one line), or "" */
static const char *mounts_line(const char *prefix, char *buf, size_t n)
{
    struct file *f = filp_open("/proc/mounts", O_RDONLY, 0);
    if (IS_ERR(f))
        return "";
    loff_t pos = 0;
    ssize_t r = kernel_read(f, buf, n - 1, &pos);
    filp_close(f);
    buf[r > 0 ? r : 0] = 0;
    const char *p = ktest_find(buf, prefix);
    if (!p)
        return "";
    char *nl = strchr(p, '\n');
    if (nl)
        *nl = 0;
    return p;
}

KTEST(ext3opts, parse)
{
    setup();
    char *buf = kmalloc(2048, GFP_KERNEL);
    KT_ASSERT(buf != NULL);
    static const char *const bad[] = {
        "data=journal", "data=writeback", "commit=abc", "commit=", "commit=5x",
        "commit=100000", "errors=bogus", "nosuchoption", "errors=continue,data=journal",
    };
    for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
        printk(KERN_INFO "opts-test: mounting with %s\n", bad[i]);
        KT_EXPECT_EQ(mnt("hda", "/x1", bad[i]), -EINVAL);
    }
    const char *log = ktest_log_since("opts-test: mounting with data=journal");
    KT_EXPECT(ktest_find(log, "ext3: hda: data=journal is not supported") != NULL);
    log = ktest_log_since("opts-test: mounting with nosuchoption");
    KT_EXPECT(ktest_find(log, "unrecognized mount option \"nosuchoption\"") != NULL);

    /* plain ext2: errors= yes, commit= and data= no */
    KT_EXPECT_EQ(mnt("hdb", "/x2", "commit=5"), -EINVAL);
    KT_EXPECT_EQ(mnt("hdb", "/x2", "data=ordered"), -EINVAL);
    KT_ASSERT_EQ(mnt("hdb", "/x2", "errors=remount-ro"), 0);
    struct super_block *sb = ktest_sb_of("/x2");
    KT_ASSERT(sb != NULL);
    KT_EXPECT_EQ(EXT2_SB(sb)->s_mount_opt & EXT2_MOUNT_ERRORS_MASK, EXT2_MOUNT_ERRORS_RO);
    KT_EXPECT(!strcmp(mounts_line("hdb ", buf, 2048), "hdb /x2 ext2 rw,errors=remount-ro 0 0"));
    KT_EXPECT_EQ(umount_recorded("/x2"), 0);
    /* "ext3" wants a journal, read-only too (Linux's) */
    printk(KERN_INFO "opts-test: ext3 on plain ext2\n");
    KT_EXPECT_EQ(mount_recorded("hdb", "/x2", "ext3", 0, NULL), -EINVAL);
    KT_EXPECT_EQ(mount_recorded("hdb", "/x2", "ext3", MS_RDONLY, NULL), -EINVAL);
    log = ktest_log_since("opts-test: ext3 on plain ext2");
    KT_EXPECT(ktest_find(log, "ext3: No journal on filesystem on hdb") != NULL);
    /* a disk with a journal is ext3 whichever type names it */
    KT_ASSERT_EQ(mount_recorded("hda", "/x1", "ext3", MS_RDONLY, NULL), 0);
    KT_EXPECT(!strcmp(mounts_line("hda ", buf, 2048), "hda /x1 ext3 ro 0 0"));
    KT_EXPECT_EQ(umount_recorded("/x1"), 0);

    /* ext3, several at once */
    KT_ASSERT_EQ(mnt("hda", "/x1", "data=ordered,commit=7,,errors=panic"), 0);
    sb = ktest_sb_of("/x1");
    KT_ASSERT(sb && EXT2_SB(sb)->s_journal);
    KT_EXPECT_EQ(EXT2_SB(sb)->s_mount_opt & EXT2_MOUNT_ERRORS_MASK, EXT2_MOUNT_ERRORS_PANIC);
    KT_EXPECT_EQ(EXT2_SB(sb)->s_commit_interval, 7 * HZ);
    KT_EXPECT_EQ(EXT2_SB(sb)->s_journal->j_commit_interval, 7 * HZ);
    KT_EXPECT(!strcmp(mounts_line("hda ", buf, 2048), "hda /x1 ext3 rw,errors=panic,commit=7 0 0"));
    KT_EXPECT_EQ(umount_recorded("/x1"), 0);

    /* the defaults: commit=0 is JBD's 5 s, errors=continue is the
     * superblock's (mke2fs): neither is shown */
    KT_ASSERT_EQ(mnt("hda", "/x1", "commit=0,errors=continue"), 0);
    sb = ktest_sb_of("/x1");
    KT_ASSERT(sb && EXT2_SB(sb)->s_journal);
    KT_EXPECT_EQ(EXT2_SB(sb)->s_journal->j_commit_interval, JBD_DEFAULT_MAX_COMMIT_AGE * HZ);
    KT_EXPECT(!strcmp(mounts_line("hda ", buf, 2048), "hda /x1 ext3 rw 0 0"));
    KT_EXPECT_EQ(umount_recorded("/x1"), 0);
    kfree(buf);
}

KTEST(ext3opts, errors_policy)
{
    setup();
    /* continue: the error is recorded, the mount stays read-write */
    KT_ASSERT_EQ(mnt("hdb", "/x3", "errors=continue"), 0);
    struct super_block *sb = ktest_sb_of("/x3");
    KT_ASSERT(sb != NULL);
    ext2_error(sb, "opts-test: a pretend corruption");
    KT_EXPECT(!(sb->s_flags & MS_RDONLY));
    KT_EXPECT(EXT2_SB(sb)->s_mount_state & EXT2_ERROR_FS);
    KT_EXPECT_EQ(ktest_write_pattern("/x3/after", "after", 3000), 0);
    KT_EXPECT_EQ(umount_recorded("/x3"), 0);

    /* remount-ro on ext2: writes are -EROFS from then on */
    KT_ASSERT_EQ(mnt("hdb", "/x3", "errors=remount-ro"), 0);
    sb = ktest_sb_of("/x3");
    KT_ASSERT(sb != NULL);
    ext2_error(sb, "opts-test: a pretend corruption");
    KT_EXPECT(sb->s_flags & MS_RDONLY);
    KT_EXPECT_EQ(ktest_write_pattern("/x3/ro", "ro", 100), -EROFS);
    const char *log = ktest_log_since("opts-test: a pretend corruption");
    KT_EXPECT(ktest_find(log, "remounting filesystem read-only") != NULL);
    KT_EXPECT_EQ(umount_recorded("/x3"), 0);

    /* remount-ro on ext3: the journal aborts too (nothing more commits) */
    KT_ASSERT_EQ(mnt("hda", "/x4", "errors=remount-ro"), 0);
    sb = ktest_sb_of("/x4");
    KT_ASSERT(sb && EXT2_SB(sb)->s_journal);
    journal_t *j = EXT2_SB(sb)->s_journal;
    ext2_error(sb, "opts-test: an ext3 corruption");
    KT_EXPECT(sb->s_flags & MS_RDONLY);
    KT_EXPECT(is_journal_aborted(j));
    KT_EXPECT_EQ(ktest_write_pattern("/x4/ro", "ro", 100), -EROFS);
    KT_EXPECT_EQ(umount_recorded("/x4"), 0);
}

/* A file written on a mount with commit=secs: its transaction is committed
 * by kjournald alone, secs seconds after it started (give or take a tick
 * and the commit's own time), not before. */
static void commit_after(const char *data, unsigned secs)
{
    KT_ASSERT_EQ(mnt("hda", "/x5", data), 0);
    struct super_block *sb = ktest_sb_of("/x5");
    KT_ASSERT(sb && EXT2_SB(sb)->s_journal);
    journal_t *j = EXT2_SB(sb)->s_journal;
    KT_ASSERT_EQ(ktest_write_pattern("/x5/t", "t", 2000), 0);   /* creates: a handle */
    mutex_lock(&j->j_state_lock);
    transaction_t *t = j->j_running_transaction;
    tid_t tid = t ? t->t_tid : 0;
    unsigned long start = t ? t->t_expires - j->j_commit_interval : 0;
    mutex_unlock(&j->j_state_lock);
    KT_ASSERT(t != NULL);
    KT_EXPECT_EQ(j->j_commit_interval, secs * HZ);
    unsigned long committed = 0;
    while (time_before(jiffies, start + (secs + 3) * HZ)) {
        if (!tid_gt(tid, j->j_commit_sequence)) {
            committed = jiffies;
            break;
        }
        msleep(20);
    }
    KT_EXPECT(committed != 0);
    long after = (long)(committed - start);
    printk(KERN_INFO "opts-test: %s: committed %ld ticks after the transaction started\n",
           data, after);
    KT_EXPECT(after >= (long)(secs * HZ) - 1);
    KT_EXPECT(after <= (long)(secs * HZ) + HZ / 2);
    KT_EXPECT_EQ(umount_recorded("/x5"), 0);
}

KTEST(ext3opts, commit_timer)
{
    setup();
    commit_after("commit=2", 2);
    commit_after("commit=8", 8);
}

/* Suite ext3credits (one CPU: a WARN stops the other CPUs): a handle that
 * dirties more buffers than it reserved gets JBD's WARN, not a BUG, and
 * its changes still commit (Linux 2.6.24 asserts instead). */
KTEST(ext3credits, overuse_warns)
{
    setup();
    KT_ASSERT_EQ(mnt("hda", "/x6", NULL), 0);
    struct super_block *sb = ktest_sb_of("/x6");
    KT_ASSERT(sb && EXT2_SB(sb)->s_journal);
    journal_t *j = EXT2_SB(sb)->s_journal;
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    handle_t *h = journal_start(j, 1);
    KT_ASSERT(!IS_ERR(h));
    printk(KERN_INFO "credits-test: one credit, two buffers\n");
    KT_EXPECT_EQ(journal_get_write_access(h, sbi->s_sbh), 0);
    KT_EXPECT_EQ(journal_dirty_metadata(h, sbi->s_sbh), 0);
    KT_EXPECT_EQ(h->h_buffer_credits, 0);
    KT_EXPECT_EQ(journal_dirty_metadata(h, sbi->s_sbh), 0);   /* again: free */
    const char *log = ktest_log_since("credits-test: one credit, two buffers");
    KT_EXPECT(ktest_find(log, "more credits than it reserved") == NULL);
    KT_EXPECT_EQ(journal_get_write_access(h, sbi->s_group_desc[0]), 0);
    KT_EXPECT_EQ(journal_dirty_metadata(h, sbi->s_group_desc[0]), 0);
    log = ktest_log_since("credits-test: one credit, two buffers");
    KT_EXPECT(ktest_find(log, "WARNING: JBD: hda: a handle used more credits than it reserved")
              != NULL);
    tid_t tid = h->h_transaction->t_tid;
    KT_EXPECT_EQ(journal_stop(h), 0);
    KT_EXPECT_EQ(journal_force_commit(j), 0);
    KT_EXPECT(!tid_gt(tid, j->j_commit_sequence));              /* committed */
    KT_EXPECT(!is_journal_aborted(j));
    KT_EXPECT_EQ(umount_recorded("/x6"), 0);
}
