/* fs/ext2/ext3_orphan_test.c: ext3's orphan list (fs/ext2/namei.c's
 * ext3_orphan_add and ext3_orphan_del, super.c's ext3_orphan_cleanup),
 * suite ext3orphan: two copies of ext3-1k.img (tools/mkjournal.sh).
 *   list_order    hdb: two files unlinked while open head the list in turn,
 *                 the older one named by the newer one's i_dtime; closing
 *                 them takes each off, from the middle and from the head
 *   crash_cleanup hda: a file unlinked while open, committed, then the
 *                 crash (hda copied to hdb, hda's journal aborted); hdb
 *                 mounted read-write frees it
 *   tmpfile_linked hdb: an O_TMPFILE file is an orphan until linkat names
 *                 it (then off the list); one opened O_EXCL never is
 * tools/suites/ext3orphan.conf checks hdb on the host: fsck-clean, no
 * orphan list, the files gone.
 */
#include <kernel.h>
#include <errno.h>
#include <err.h>
#include <ktest.h>
#include <fs.h>
#include <jbd.h>
#include "ext2.h"
#include "../internal.h"             /* vfs_mount_at */

static uint32_t last_orphan(struct super_block *sb)
{
    return EXT2_SB(sb)->s_es->s_last_orphan;
}

KTEST(ext3orphan, list_order)
{
    KT_ASSERT_EQ(vfs_mount_at("hdb", "/q1", "ext2"), 0);
    struct super_block *sb = ktest_sb_of("/q1");
    KT_ASSERT(sb && EXT2_SB(sb)->s_journal);
    KT_ASSERT_EQ(ktest_write_pattern("/q1/older", "older", 5000), 0);
    KT_ASSERT_EQ(ktest_write_pattern("/q1/newer", "newer", 5000), 0);
    struct file *older = filp_open("/q1/older", O_RDONLY, 0);
    struct file *newer = filp_open("/q1/newer", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(older) && !IS_ERR(newer));
    unsigned long o = older->f_inode->i_ino, n = newer->f_inode->i_ino;
    KT_EXPECT_EQ(last_orphan(sb), 0);
    KT_EXPECT_EQ(vfs_unlink("/q1/older"), 0);
    KT_EXPECT_EQ(last_orphan(sb), o);
    KT_EXPECT_EQ(EXT2_I(older->f_inode)->i_dtime, 0);          /* the list's end */
    KT_EXPECT_EQ(vfs_unlink("/q1/newer"), 0);
    KT_EXPECT_EQ(last_orphan(sb), n);
    KT_EXPECT_EQ(EXT2_I(newer->f_inode)->i_dtime, o);          /* names the older */
    filp_close(older);                 /* the tail: newer's i_dtime changes */
    KT_EXPECT_EQ(last_orphan(sb), n);
    KT_EXPECT_EQ(EXT2_I(newer->f_inode)->i_dtime, 0);
    filp_close(newer);                 /* the head: the superblock changes */
    KT_EXPECT_EQ(last_orphan(sb), 0);
    KT_EXPECT(list_empty(&EXT2_SB(sb)->s_orphan));
    KT_EXPECT_EQ(do_umount("/q1"), 0);
}

KTEST(ext3orphan, crash_cleanup)
{
    KT_ASSERT_EQ(vfs_mount_at("hda", "/q2", "ext2"), 0);
    struct super_block *sb = ktest_sb_of("/q2");
    KT_ASSERT(sb && EXT2_SB(sb)->s_journal);
    unsigned long free_before = EXT2_SB(sb)->s_es->s_free_blocks_count;
    KT_ASSERT_EQ(ktest_write_pattern("/q2/open", "open", 20000), 0);
    struct file *f = filp_open("/q2/open", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    unsigned long ino = f->f_inode->i_ino;
    KT_EXPECT_EQ(vfs_unlink("/q2/open"), 0);
    KT_EXPECT_EQ(last_orphan(sb), ino);
    ksys_sync();                       /* the unlink and the list committed */
    KT_EXPECT_EQ(ktest_copy_disk("hda", "hdb"), 0);     /* the crash */
    journal_abort(EXT2_SB(sb)->s_journal, -EIO);
    filp_close(f);                     /* evict: the journal writes nothing more */
    KT_EXPECT(list_empty(&EXT2_SB(sb)->s_orphan));
    KT_EXPECT_EQ(do_umount("/q2"), 0);

    printk(KERN_INFO "orphan-test: mounting the crash copy\n");
    KT_ASSERT_EQ(vfs_mount_at("hdb", "/q3", "ext2"), 0);
    const char *log = ktest_log_since("orphan-test: mounting the crash copy");
    KT_EXPECT(ktest_find(log, "orphan list: 1 inode(s) deleted, 0 truncated") != NULL);
    struct super_block *sb3 = ktest_sb_of("/q3");
    KT_ASSERT(sb3 != NULL);
    KT_EXPECT_EQ(last_orphan(sb3), 0);
    KT_EXPECT_EQ(EXT2_SB(sb3)->s_es->s_free_blocks_count, free_before);   /* all back */
    KT_EXPECT_EQ(do_umount("/q3"), 0);
}

/* An O_TMPFILE file (fs/open.c: created and unlinked at once) is on the
 * orphan list from its open; linkat naming it takes it off in its handle;
 * one never named is freed at its close, off the list. */
KTEST(ext3orphan, tmpfile_linked)
{
    KT_ASSERT_EQ(vfs_mount_at("hdb", "/q3", "ext2"), 0);
    struct super_block *sb = ktest_sb_of("/q3");
    KT_ASSERT(sb && EXT2_SB(sb)->s_journal);
    KT_EXPECT_EQ(last_orphan(sb), 0);
    struct file *t = filp_open("/q3", O_TMPFILE | O_RDWR, 0600);
    KT_ASSERT(!IS_ERR(t));
    KT_EXPECT_EQ(t->f_inode->i_nlink, 0);
    KT_EXPECT_EQ(last_orphan(sb), t->f_inode->i_ino);
    KT_EXPECT_EQ(vfs_link_path(&t->f_path, "/q3/named"), 0);
    KT_EXPECT_EQ(t->f_inode->i_nlink, 1);
    KT_EXPECT_EQ(last_orphan(sb), 0);
    KT_EXPECT(list_empty(&EXT2_SB(sb)->s_orphan));
    KT_EXPECT_EQ(vfs_link_path(&t->f_path, "/q3/named2"), 0);   /* an ordinary link now */
    filp_close(t);
    /* O_EXCL: never linkable; closed, it goes */
    struct file *x = filp_open("/q3", O_TMPFILE | O_RDWR | O_EXCL, 0600);
    KT_ASSERT(!IS_ERR(x));
    KT_EXPECT_EQ(vfs_link_path(&x->f_path, "/q3/never"), -ENOENT);
    KT_EXPECT_EQ(last_orphan(sb), x->f_inode->i_ino);
    filp_close(x);
    KT_EXPECT_EQ(last_orphan(sb), 0);
    struct path p;
    KT_EXPECT_EQ(kern_path("/q3/named", 0, &p), 0);
    if (!IS_ERR_OR_NULL(p.inode)) {
        KT_EXPECT_EQ(p.inode->i_nlink, 2);
        path_put(&p);
    }
    KT_EXPECT_EQ(vfs_unlink("/q3/named"), 0);
    KT_EXPECT_EQ(vfs_unlink("/q3/named2"), 0);
    KT_EXPECT_EQ(do_umount("/q3"), 0);
}
