/* fs/ext2/super.c: mounting ext2.  Reads and validates the superblock and
 * the group descriptors (a corrupt or unsupported filesystem is refused
 * with a log line, never trusted), checks and recovers ext3's journal
 * (ext3_load_journal, through fs/jbd/), parses the mount options
 * (errors=, commit=, data=ordered: parse_options), sets up struct
 * ext2_sb_info, and provides the super_operations: alloc/destroy_inode,
 * write_inode, evict_inode (inode.c), sync_fs, statfs, put_super,
 * remount_fs, show_options.  ext2_error and what errors= makes it do.
 * Registers "ext2" and "ext3": a disk with a journal mounts as ext3
 * whichever was asked (ext2_fill_super says why), and /proc/mounts names it
 * so.
 *
 * Sits on: fs/buffer.c (sb_bread), fs/jbd/ (the journal), the VFS (include/fs.h).
 * Locking: sb->s_lock serialises block and inode allocation (balloc.c,
 * ialloc.c), which is what changes the superblock and descriptors.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <init.h>
#include <slab.h>
#include <blkdev.h>
#include <err.h>
#include <sched.h>
#include <jbd.h>
#include <timer.h>
#include "ext2.h"

void ext2_error(struct super_block *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct va_format vaf = { fmt, &ap };
    printk(KERN_ERR "ext2: %s: %pV\n", sb->s_id, &vaf);
    va_end(ap);
    /* As Linux: the filesystem is marked as having errors, so the next
     * e2fsck -p checks it.  Only once mounted read-write; the superblock
     * reaches the disk with the next sync. */
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    if (sbi && sb->s_root && !(sb->s_flags & MS_RDONLY) &&
        !(sbi->s_es->s_state & EXT2_ERROR_FS)) {
        sbi->s_mount_state |= EXT2_ERROR_FS;
        /* ext3: journaled inside a handle; outside one, the unmount writes
         * it (s_mount_state). */
        if (!sbi->s_journal) {
            sbi->s_es->s_state |= EXT2_ERROR_FS;
            mark_buffer_dirty(sbi->s_sbh);
        } else if (current->journal_info &&
                   !ext2_journal_get_write_access(sb, sbi->s_sbh)) {
            sbi->s_es->s_state |= EXT2_ERROR_FS;
            ext2_journal_dirty(sb, sbi->s_sbh);
        }
    }
    /* Then what errors= asks (Linux's ext2_error, ext3_handle_error), once
     * mounted (a mount that finds corruption fails instead).  continue:
     * nothing more, the caller returns -EIO.  remount-ro: no more writes
     * (-EROFS); ext3 aborts its journal, so that nothing after the error
     * commits and the log is left for the next mount's recovery.  panic:
     * only when asked for. */
    if (!sbi || !sb->s_root)
        return;
    if (sbi->s_mount_opt & EXT2_MOUNT_ERRORS_PANIC)
        panic("ext2: %s: panic forced after error (errors=panic)", sb->s_id);
    if ((sbi->s_mount_opt & EXT2_MOUNT_ERRORS_RO) && !(sb->s_flags & MS_RDONLY)) {
        printk(KERN_CRIT "ext2: %s: remounting filesystem read-only (errors=remount-ro)\n",
               sb->s_id);
        if (sbi->s_journal)
            journal_abort(sbi->s_journal, -EIO);
        sb->s_flags |= MS_RDONLY;
    }
}

/* Write the superblock now (Linux's ext2_sync_super with wait). */
static int ext2_sync_super(struct super_block *sb)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    sbi->s_es->s_wtime = current_time();
    set_buffer_dirty(sbi->s_sbh);      /* not mark_buffer_dirty: written now, so
                                        * the flusher's clock must not start */
    return sync_dirty_buffer(sbi->s_sbh);
}

/*
 * Linux's ext2_setup_super: warn about a filesystem that needs checking;
 * on a read-write mount of ext2 clear EXT2_VALID_FS on disk (so a crash
 * leaves "not clean" and e2fsck -p checks; ext3 leaves it set and sets
 * needs_recovery instead), count the mount, stamp s_mtime.
 * Unmount (ext2_put_super) and the read-only remount at power off put the
 * state found here back.
 */
static int ext2_setup_super(struct super_block *sb)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    struct ext2_super_block *es = sbi->s_es;
    sbi->s_mount_state = es->s_state;
    if (sb->s_flags & MS_RDONLY)
        return 0;
    if (!(sbi->s_mount_state & EXT2_VALID_FS))
        printk(KERN_WARNING "ext2: %s: warning: mounting unchecked fs, "
               "running e2fsck is recommended\n", sb->s_id);
    else if (sbi->s_mount_state & EXT2_ERROR_FS)
        printk(KERN_WARNING "ext2: %s: warning: mounting fs with errors, "
               "running e2fsck is recommended\n", sb->s_id);
    else if ((int16_t)es->s_max_mnt_count >= 0 && es->s_mnt_count >= es->s_max_mnt_count)
        printk(KERN_WARNING "ext2: %s: warning: maximal mount count reached, "
               "running e2fsck is recommended\n", sb->s_id);
    if (!(int16_t)es->s_max_mnt_count)
        es->s_max_mnt_count = EXT2_DFL_MAX_MNT_COUNT;
    /* As Linux's ext3_setup_super: with a journal the filesystem stays
     * valid on disk (a crash is the journal's to recover, not e2fsck's). */
    if (!sbi->s_journal)
        es->s_state &= ~EXT2_VALID_FS;
    es->s_mnt_count++;
    es->s_mtime = current_time();
    if (sbi->s_journal) {
        /* As Linux's ext3: while mounted read-write with a journal, the
         * next mount must look at the log (cleared at a clean unmount). */
        es->s_feature_incompat |= EXT3_FEATURE_INCOMPAT_RECOVER;
        sbi->s_feature_incompat |= EXT3_FEATURE_INCOMPAT_RECOVER;
    }
    return ext2_sync_super(sb);
}

struct ext2_group_desc *ext2_get_group_desc(struct super_block *sb, unsigned long group,
                                            struct buffer_head **bhp)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    if (group >= sbi->s_groups_count) {
        ext2_error(sb, "group %lu >= groups count %lu", group, sbi->s_groups_count);
        return NULL;
    }
    struct buffer_head *bh = sbi->s_group_desc[group / sbi->s_desc_per_block];
    if (bhp)
        *bhp = bh;
    return (struct ext2_group_desc *)bh->b_data + group % sbi->s_desc_per_block;
}

static struct inode *ext2_alloc_inode(struct super_block *sb)
{
    struct ext2_inode_info *ei = kzalloc(sizeof(*ei), GFP_KERNEL);
    if (!ei)
        return NULL;
    inode_init_once(&ei->vfs_inode);
    mutex_init(&ei->truncate_mutex);
    INIT_LIST_HEAD(&ei->i_orphan);
    return &ei->vfs_inode;
}

static void ext2_destroy_inode(struct inode *inode)
{
    WARN_ON(!list_empty(&EXT2_I(inode)->i_orphan));   /* evict takes it off */
    kfree(EXT2_I(inode));
}

/*
 * Write every dirty metadata buffer, in the order that makes a cut in the
 * middle of the sync as harmless as ext2 (no journal) allows:
 *   1. block and inode bitmaps, then the group descriptors: allocations
 *      reach the disk before anything that points at what they allocate;
 *   2. the inode tables: the inodes the bitmaps now call in use;
 *   3. everything else: indirect blocks and directory blocks, which name
 *      blocks and inodes written in 1 and 2;
 *   4. the superblock, last (with s_wtime).
 * A cut after 1 leaves blocks or inodes marked in use that nothing owns
 * (e2fsck: bitmap differences, a leak it repairs), never a pointer to a
 * block the bitmap calls free, which a later allocation would hand out
 * twice.  Simplification: frees want the opposite order (the pointer gone
 * before the bitmap bit); a sync cut short after an unlink can leave an
 * entry naming a freed inode for e2fsck.  A cut between two syncs finds the
 * image as the last complete one left it: that is what fsync and the
 * flusher rely on (fs/sync.c, fs/fs-writeback.c).
 */
static int ext2_sync_fs(struct super_block *sb, int wait)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    struct block_device *bdev = sb->s_bdev;
    size_t bs = sb->s_blocksize;
    int err = 0, e;
    if (sb->s_flags & MS_RDONLY)
        return 0;
    if (sbi->s_journal) {
        /* ext3 (Linux's ext3_sync_fs): commit the running transaction; the
         * log is what makes it durable, checkpointing takes it home later.
         * Without wait the commit is only started. */
        if (!wait) {
            journal_t *j = sbi->s_journal;
            mutex_lock(&j->j_state_lock);
            transaction_t *t = j->j_running_transaction;
            tid_t tid = t ? t->t_tid : 0;
            mutex_unlock(&j->j_state_lock);
            if (t)
                log_start_commit(j, tid);
            return 0;
        }
        return journal_force_commit(sbi->s_journal);
    }
    clear_buffer_dirty(sbi->s_sbh);    /* written in step 4, whatever step 3 does */
    for (unsigned long g = 0; g < sbi->s_groups_count; g++) {
        struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);
        if ((e = sync_cached_block(bdev, gd->bg_block_bitmap, bs)) && !err)
            err = e;
        if ((e = sync_cached_block(bdev, gd->bg_inode_bitmap, bs)) && !err)
            err = e;
    }
    for (unsigned long i = 0; i < sbi->s_gdb_count; i++)
        if ((e = sync_dirty_buffer(sbi->s_group_desc[i])) && !err)
            err = e;
    for (unsigned long g = 0; g < sbi->s_groups_count; g++) {
        struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);
        for (unsigned long b = 0; b < sbi->s_itb_per_group; b++)
            if ((e = sync_cached_block(bdev, gd->bg_inode_table + b, bs)) && !err)
                err = e;
    }
    clear_buffer_dirty(sbi->s_sbh);    /* an allocation may have dirtied it again */
    if ((e = sync_blockdev(bdev)) && !err)
        err = e;
    sbi->s_es->s_wtime = current_time();
    set_buffer_dirty(sbi->s_sbh);      /* written now: no flusher clock */
    if ((e = sync_dirty_buffer(sbi->s_sbh)) && !err)
        err = e;
    return err;
}

/* Everything is on disk (ext2_sync_fs just wrote it): only now may the
 * superblock say "clean" again, written last. */
static void ext2_mark_clean(struct super_block *sb)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    sbi->s_es->s_state = sbi->s_mount_state;
    ext2_sync_super(sb);
}

/* ext3 going away (unmount, remount read-only): commit, checkpoint, the
 * log left empty (journal_flush), then needs_recovery cleared; 0, or the
 * error that leaves the log (and needs_recovery) for the next mount. */
static int ext3_release_journal(struct super_block *sb)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    int err = journal_flush(sbi->s_journal);
    journal_destroy(sbi->s_journal);
    sbi->s_journal = NULL;
    sb->s_fs_inodes--;
    if (!err) {
        sbi->s_es->s_feature_incompat &= ~EXT3_FEATURE_INCOMPAT_RECOVER;
        sbi->s_feature_incompat &= ~EXT3_FEATURE_INCOMPAT_RECOVER;
    }
    return err;
}

static void ext2_put_super(struct super_block *sb)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    if (sbi->s_journal) {
        if (!ext3_release_journal(sb))
            ext2_mark_clean(sb);       /* the journal aborted: leave it all for e2fsck */
    } else if (!(sb->s_flags & MS_RDONLY) && !ext2_sync_fs(sb, 1)) {
        ext2_mark_clean(sb);           /* a write failed: leave it "not clean" */
    }
    for (unsigned long i = 0; i < sbi->s_gdb_count; i++)
        brelse(sbi->s_group_desc[i]);
    kfree(sbi->s_group_desc);
    brelse(sbi->s_sbh);
    invalidate_bdev(sb->s_bdev);
    kfree(sbi);
    sb->s_fs_info = NULL;
}

/* Only read-write -> read-only (power off): as Linux, the partition is
 * marked valid again once everything is written. */
static int ext2_remount(struct super_block *sb, int *flags, char *data)
{
    if ((sb->s_flags & MS_RDONLY) || !(*flags & MS_RDONLY))
        return 0;
    int err = EXT2_SB(sb)->s_journal ? ext3_release_journal(sb) : ext2_sync_fs(sb, 1);
    if (!err) {
        EXT2_SB(sb)->s_es->s_mtime = current_time();
        ext2_mark_clean(sb);
    }
    sb->s_flags |= MS_RDONLY;
    return err;
}

static int ext2_statfs(struct super_block *sb, struct kstatfs *buf)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    struct ext2_super_block *es = sbi->s_es;
    buf->f_type = EXT2_SUPER_MAGIC;
    buf->f_bsize = sb->s_blocksize;
    /* As Linux's default ("bsddf"): the size leaves out the metadata that
     * is never free: the blocks before the first group, each superblock
     * copy and its descriptor blocks, each group's two bitmaps and inode
     * table.  (Linux caches this as s_overhead_last; reserved GDT blocks
     * count as used, as there.) */
    unsigned long overhead = es->s_first_data_block;
    for (unsigned long g = 0; g < sbi->s_groups_count; g++)
        if (ext2_group_has_super(sb, g))
            overhead += 1 + sbi->s_gdb_count;
    overhead += sbi->s_groups_count * (2 + sbi->s_itb_per_group);
    buf->f_blocks = es->s_blocks_count - overhead;
    buf->f_bfree = es->s_free_blocks_count;
    buf->f_bavail = buf->f_bfree > es->s_r_blocks_count ? buf->f_bfree - es->s_r_blocks_count : 0;
    buf->f_files = es->s_inodes_count;
    buf->f_ffree = es->s_free_inodes_count;
    buf->f_namelen = NAME_MAX;
    return 0;
}

/* Linux's ext3_dirty_inode: inside a handle, the inode's new fields join
 * the transaction now, with the changes that made them (an allocation's
 * i_block[], a link count); outside one (a write's i_size from write_end,
 * times), write_inode journals them when writeback comes. */
static void ext3_dirty_inode(struct inode *inode)
{
    if (EXT2_SB(inode->i_sb)->s_journal && current->journal_info)
        ext2_write_inode(inode, 0);
}

static int ext2_show_options(struct super_block *sb, char *buf, size_t size);

static const struct super_operations ext2_sops = {
    .alloc_inode   = ext2_alloc_inode,
    .destroy_inode = ext2_destroy_inode,
    .write_inode   = ext2_write_inode,
    .dirty_inode   = ext3_dirty_inode,
    .evict_inode   = ext2_evict_inode,
    .put_super     = ext2_put_super,
    .sync_fs       = ext2_sync_fs,
    .statfs        = ext2_statfs,
    .remount_fs    = ext2_remount,
    .show_options  = ext2_show_options,
};

/* Largest file: what i_block[] can address, and what i_blocks (32 bits of
 * 512-byte units, indirect blocks included) can count.  Linux's
 * ext2_max_size: when i_blocks is the limit (4 KiB blocks and up), the file
 * is that many blocks less the indirect blocks a dense file of that many
 * blocks needs.  ptrs is a power of two: shifts, not 64-bit divisions. */
static loff_t ext2_max_size(unsigned bits)
{
    unsigned shift = bits - 2;                             /* log2 of ptrs */
    uint64_t ptrs = 1ULL << shift;
    uint64_t tree = EXT2_NDIR_BLOCKS + ptrs + ptrs * ptrs + ptrs * ptrs * ptrs;
    uint64_t tree_meta = 1 + (1 + ptrs) + (1 + ptrs + ptrs * ptrs);
    uint64_t upper = ((1ULL << 32) - 1) >> (bits - 9);     /* i_blocks limit, in blocks */
    uint64_t left, meta;

    if (tree + tree_meta <= upper)
        return (loff_t)(tree << bits);
    left = upper - EXT2_NDIR_BLOCKS - ptrs;                /* past the single indirect */
    meta = 1;                                              /* the single indirect block */
    if (left < ptrs * ptrs) {
        meta += 1 + ((left + ptrs - 1) >> shift);
    } else {
        meta += 1 + ptrs;                                  /* double indirect, full */
        left -= ptrs * ptrs;
        meta += 1 + ((left + ptrs - 1) >> shift) + ((left + ptrs * ptrs - 1) >> (2 * shift));
    }
    return (loff_t)((upper - meta) << bits);
}

/* Does group g hold a superblock backup (and a descriptor copy)? */
int ext2_group_has_super(struct super_block *sb, unsigned long g)
{
    if (!(EXT2_SB(sb)->s_feature_ro_compat & EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER) || g <= 1)
        return 1;
    for (unsigned long p = 3; p <= 7; p += 2) {   /* powers of 3, 5, 7 */
        unsigned long n = p;
        while (n < g)
            n *= p;
        if (n == g)
            return 1;
    }
    return 0;
}

static int ext2_check_descriptors(struct super_block *sb)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    for (unsigned long g = 0; g < sbi->s_groups_count; g++) {
        struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);
        unsigned long first = sbi->s_first_data_block + g * sbi->s_blocks_per_group;
        unsigned long last = min(first + sbi->s_blocks_per_group, sbi->s_blocks_count) - 1;
        if (gd->bg_block_bitmap < first || gd->bg_block_bitmap > last ||
            gd->bg_inode_bitmap < first || gd->bg_inode_bitmap > last ||
            gd->bg_inode_table < first ||
            gd->bg_inode_table + sbi->s_itb_per_group - 1 > last) {
            ext2_error(sb, "group %lu: descriptor points outside its group "
                       "(bitmaps %u, %u, inode table %u; group %lu..%lu)", g,
                       gd->bg_block_bitmap, gd->bg_inode_bitmap, gd->bg_inode_table, first, last);
            return -EINVAL;
        }
        if (gd->bg_free_blocks_count > sbi->s_blocks_per_group ||
            gd->bg_free_inodes_count > sbi->s_inodes_per_group) {
            ext2_error(sb, "group %lu: free counts out of range", g);
            return -EINVAL;
        }
    }
    return 0;
}

/*
 * ext3: a filesystem with a journal in an inode (COMPAT_HAS_JOURNAL).  The
 * read side of Linux's ext3_load_journal: check the journal (journal_load
 * and journal_wipe refuse a malformed or unsupported one); if the superblock
 * says it needs recovery (INCOMPAT_RECOVER), replay the log and clear the
 * flag, all of it on disk before the mount reads the root or anything else
 * the log may have held; if it does not, forget whatever the log holds, as
 * Linux does (journal_wipe).  A read-write mount keeps the journal
 * (sbi->s_journal): ext3 journals its metadata through it (ext3_journal.c,
 * docs/journal.md) until the unmount empties it (ext3_release_journal); a
 * read-only mount releases it here (journal_destroy writes nothing when no
 * transaction was started).
 *
 * Simplification, as Linux's ext3_fill_super: what the mount parsed from
 * the superblock before the replay (block and inode counts, group sizes) is
 * kept; a replayed superblock can only change it after an online resize,
 * which Vellum does not model.  The replay goes through the buffer cache, so
 * the superblock and group-descriptor buffers the mount holds see the
 * replayed bytes; the descriptors are checked again.
 */
static int ext3_load_journal(struct super_block *sb)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    struct ext2_super_block *es = sbi->s_es;
    int recover = sbi->s_feature_incompat & EXT3_FEATURE_INCOMPAT_RECOVER;
    unsigned long ino = es->s_journal_inum;
    int err;

    if (!ino) {
        printk(KERN_ERR "ext3: %s: external journals are not supported (journal device "
               "%#x)\n", sb->s_id, es->s_journal_dev);
        return -EINVAL;
    }
    struct inode *inode = ext2_iget(sb, ino);
    if (IS_ERR(inode)) {
        printk(KERN_ERR "ext3: %s: cannot read journal inode %lu (%ld)\n", sb->s_id, ino,
               PTR_ERR(inode));
        return PTR_ERR(inode);
    }
    if (!S_ISREG(inode->i_mode) || !inode->i_nlink) {
        printk(KERN_ERR "ext3: %s: journal inode %lu is not a regular file in use\n",
               sb->s_id, ino);
        iput(inode);
        return -EINVAL;
    }
    journal_t *journal = journal_init_inode(inode, sbi->s_blocks_count);
    if (!journal) {
        iput(inode);
        return -ENOMEM;
    }
    err = recover ? journal_load(journal) : journal_wipe(journal);
    if (err) {
        printk(KERN_ERR "ext3: %s: error loading journal (%d)\n", sb->s_id, err);
        goto out;
    }
    if (recover) {
        struct recovery_info *info = &journal->j_recovery_info;
        printk(KERN_INFO "ext3: %s: journal replayed: %u transactions, %u blocks, %u revoked\n",
               sb->s_id, info->end_transaction - info->start_transaction, info->nr_replays,
               info->nr_revoke_hits);
        if (info->nr_replays && (err = ext2_check_descriptors(sb)))
            goto out;
    }
    int jerr = journal_errno(journal);
    if (jerr) {
        /* As Linux's ext3_clear_journal_err: the error moves to the superblock. */
        printk(KERN_WARNING "ext3: %s: filesystem error recorded from previous mount (%d): "
               "marking it for a check\n", sb->s_id, jerr);
        sbi->s_mount_state |= EXT2_ERROR_FS;
        es->s_state |= EXT2_ERROR_FS;
    }
    if (recover || jerr) {
        es->s_feature_incompat &= ~EXT3_FEATURE_INCOMPAT_RECOVER;
        sbi->s_feature_incompat &= ~EXT3_FEATURE_INCOMPAT_RECOVER;
        err = ext2_sync_super(sb);
        if (!err && jerr)
            err = journal_clear_err(journal);
        if (err)
            printk(KERN_ERR "ext3: %s: cannot write the superblock after recovery (%d)\n",
                   sb->s_id, err);
    }
    if (!err && es->s_last_orphan && (sb->s_flags & MS_RDONLY))
        printk(KERN_WARNING "ext3: %s: orphan list (inode %u) not processed on a read-only "
               "mount\n", sb->s_id, es->s_last_orphan);
out:
    if (!err && !(sb->s_flags & MS_RDONLY)) {
        if (sbi->s_commit_interval)      /* commit=N (Linux's ext3_init_journal_params) */
            journal->j_commit_interval = sbi->s_commit_interval;
        sbi->s_journal = journal;        /* ext3 journals its metadata from now on */
        sb->s_fs_inodes++;               /* its inode, until put_super */
    } else {
        journal_destroy(journal);
    }
    return err;
}

/* Linux 2.6.24's ext3_orphan_cleanup, at a read-write mount after the
 * journal's replay: an inode on the orphan list lost its last link before
 * the crash (or the unmount), while it was still open or before evict had
 * freed it in a transaction of its own; free it now.  Each is read with
 * EXT3_ORPHAN_FS set (ext2_iget takes an inode with no links then), put
 * on the in-core list as the on-disk head, and let go: evict truncates it,
 * takes it off the list (the superblock's head moves to its i_dtime) and
 * frees it.  An orphan with links (Linux's truncate orphans; Vellum makes
 * none) is truncated to its i_size instead.  A list that does not move is
 * cut (the superblock's head zeroed) with a log line: e2fsck then finds
 * what it held. */
static void ext3_orphan_cleanup(struct super_block *sb)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    struct ext2_super_block *es = sbi->s_es;
    int deleted = 0, truncated = 0;

    sbi->s_mount_state |= EXT3_ORPHAN_FS;
    while (es->s_last_orphan) {
        unsigned long ino = es->s_last_orphan;
        struct inode *inode = ext2_iget(sb, ino);
        if (!IS_ERR(inode)) {
            mutex_lock(&sb->s_lock);
            list_add(&EXT2_I(inode)->i_orphan, &sbi->s_orphan);
            mutex_unlock(&sb->s_lock);
            if (inode->i_nlink) {
                ext2_truncate_blocks(inode, inode->i_size);   /* a handle of its own */
                handle_t *handle = ext3_journal_start(sb, 3);   /* as Linux's setattr */
                if (!IS_ERR(handle)) {
                    ext3_orphan_del(inode);
                    ext3_journal_stop(handle);
                }
                truncated++;
            } else {
                deleted++;
            }
            iput(inode);                 /* no links: evict frees it */
        }
        if (es->s_last_orphan == ino) {
            printk(KERN_ERR "ext3: %s: orphan inode %lu could not be freed (%ld): the "
                   "orphan list is cut here\n", sb->s_id, ino,
                   IS_ERR(inode) ? PTR_ERR(inode) : 0L);
            handle_t *handle = ext3_journal_start(sb, 1);
            if (!IS_ERR(handle)) {
                mutex_lock(&sb->s_lock);
                if (!ext2_journal_get_write_access(sb, sbi->s_sbh)) {
                    es->s_last_orphan = 0;
                    ext2_journal_dirty(sb, sbi->s_sbh);
                }
                mutex_unlock(&sb->s_lock);
                ext3_journal_stop(handle);
            }
            break;
        }
    }
    sbi->s_mount_state &= ~EXT3_ORPHAN_FS;
    if (deleted || truncated)
        printk(KERN_INFO "ext3: %s: orphan list: %d inode(s) deleted, %d truncated\n",
               sb->s_id, deleted, truncated);
}

/*
 * The mount options, comma-separated (mount(2)'s data, the rootflags= boot
 * option): Linux's ext3 parse_options, the ones that apply to Vellum.
 *   errors=continue|remount-ro|panic  what ext2_error does next (default:
 *                           the superblock's s_errors, as mke2fs -e set it)
 *   commit=N                ext3: kjournald commits a transaction once it is
 *                           N seconds old (0: JBD's default, 5)
 *   data=ordered            ext3's data mode, the only one Vellum has
 * Anything else is -EINVAL with a log line, as Linux's "Unrecognized mount
 * option": data=journal and data=writeback name modes Vellum does not
 * implement, and commit= and data= need a journal (plain ext2 has none; Linux's
 * ext2 driver does not know them either).  Returns 0 or -EINVAL.
 */
static int parse_options(struct super_block *sb, const char *data)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    int journal = (sbi->s_es->s_feature_compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL) != 0;
    const char *opt = data ? data : "";
    while (*opt) {
        const char *comma = strchr(opt, ',');
        size_t len = comma ? (size_t)(comma - opt) : strlen(opt);
        char o[32];
        if (len >= sizeof o) {
            printk(KERN_ERR "ext2: %s: unrecognized mount option \"%.*s\"\n", sb->s_id,
                   (int)len, opt);
            return -EINVAL;
        }
        memcpy(o, opt, len);
        o[len] = 0;
        opt += len + (comma != NULL);
        if (!len)
            continue;                   /* "a,,b": as Linux's strsep loop */
        if (!strcmp(o, "errors=continue") || !strcmp(o, "errors=remount-ro") ||
            !strcmp(o, "errors=panic")) {
            sbi->s_mount_opt &= ~EXT2_MOUNT_ERRORS_MASK;
            sbi->s_mount_opt |= o[7] == 'c' ? EXT2_MOUNT_ERRORS_CONT :
                                o[7] == 'r' ? EXT2_MOUNT_ERRORS_RO : EXT2_MOUNT_ERRORS_PANIC;
            continue;
        }
        if ((!strncmp(o, "commit=", 7) || !strncmp(o, "data=", 5)) && !journal) {
            printk(KERN_ERR "ext2: %s: mount option \"%s\" needs a journal (ext3); "
                   "this filesystem has none\n", sb->s_id, o);
            return -EINVAL;
        }
        if (!strncmp(o, "commit=", 7)) {
            char *end;
            unsigned long secs = simple_strtoul(o + 7, &end, 10);
            if (end == o + 7 || *end || secs > 24 * 3600) {
                printk(KERN_ERR "ext3: %s: bad value in \"%s\" (seconds, 0 to 86400)\n",
                       sb->s_id, o);
                return -EINVAL;
            }
            sbi->s_commit_interval = secs ? secs * HZ : 0;
            continue;
        }
        if (!strcmp(o, "data=ordered"))
            continue;
        if (!strcmp(o, "data=journal") || !strcmp(o, "data=writeback")) {
            printk(KERN_ERR "ext3: %s: %s is not supported: Vellum's ext3 has only "
                   "data=ordered\n", sb->s_id, o);
            return -EINVAL;
        }
        printk(KERN_ERR "ext2: %s: unrecognized mount option \"%s\"\n", sb->s_id, o);
        return -EINVAL;
    }
    return 0;
}

/* /proc/mounts' options after rw/ro, as Linux's ext4_show_options shows an
 * ext3: errors= when it is not the superblock's default, commit= when not
 * JBD's default; data=ordered, the default, is not shown. */
static int ext2_show_options(struct super_block *sb, char *buf, size_t size)
{
    struct ext2_sb_info *sbi = EXT2_SB(sb);
    unsigned long def = sbi->s_es->s_errors == EXT2_ERRORS_PANIC ? EXT2_MOUNT_ERRORS_PANIC :
                        sbi->s_es->s_errors == EXT2_ERRORS_RO ? EXT2_MOUNT_ERRORS_RO :
                        EXT2_MOUNT_ERRORS_CONT;
    unsigned long errors = sbi->s_mount_opt & EXT2_MOUNT_ERRORS_MASK;
    int n = 0;
    if (errors != def)
        n += snprintf(buf + n, size - n, ",errors=%s",
                      errors == EXT2_MOUNT_ERRORS_PANIC ? "panic" :
                      errors == EXT2_MOUNT_ERRORS_RO ? "remount-ro" : "continue");
    if (sbi->s_commit_interval && sbi->s_commit_interval != JBD_DEFAULT_MAX_COMMIT_AGE * HZ &&
        (size_t)n < size)
        n += snprintf(buf + n, size - n, ",commit=%lu", sbi->s_commit_interval / HZ);
    return n;
}

static struct file_system_type ext2_fs_type, ext3_fs_type;

static int ext2_fill_super(struct super_block *sb, const char *data, int silent)
{
    struct block_device *bdev = sb->s_bdev;
    struct ext2_sb_info *sbi;
    struct buffer_head *bh;
    struct ext2_super_block *es;
    int err = -EINVAL;

    if (!bdev)
        return -ENOTBLK;
    if (!sb->s_id[0])
        strlcpy(sb->s_id, bdev->name, sizeof(sb->s_id));
    /* The superblock is the 1024 bytes at offset 1024, whatever the block size. */
    bh = __bread(bdev, 1, 1024);
    if (!bh) {
        printk(KERN_ERR "ext2: %s: cannot read the superblock\n", sb->s_id);
        return -EIO;
    }
    es = (struct ext2_super_block *)bh->b_data;
    if (es->s_magic != EXT2_SUPER_MAGIC) {
        if (!silent)
            printk(KERN_ERR "ext2: %s: bad magic %#x (not ext2)\n", sb->s_id, es->s_magic);
        bforget(bh);
        return -EINVAL;
    }
    if (es->s_log_block_size > EXT2_MAX_BLOCK_LOG - EXT2_MIN_BLOCK_LOG) {
        printk(KERN_ERR "ext2: %s: unsupported block size %u (1 KiB to 4 KiB)\n",
               sb->s_id, es->s_log_block_size < 20 ? 1024u << es->s_log_block_size : 0);
        bforget(bh);
        return -EINVAL;
    }
    unsigned bits = EXT2_MIN_BLOCK_LOG + es->s_log_block_size;
    unsigned long bs = 1UL << bits;
    sector_t sb_block = EXT2_SUPER_OFFSET / bs;            /* 1 for 1 KiB blocks, else 0 */
    unsigned long sb_off = EXT2_SUPER_OFFSET % bs;
    bforget(bh);                                           /* reread at the real block size */

    sb->s_blocksize = bs;
    sb->s_blocksize_bits = bits;
    bh = __bread(bdev, sb_block, bs);
    if (!bh) {
        printk(KERN_ERR "ext2: %s: cannot read the superblock\n", sb->s_id);
        return -EIO;
    }
    es = (struct ext2_super_block *)(bh->b_data + sb_off);

    sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
    if (!sbi) {
        brelse(bh);
        return -ENOMEM;
    }
    sb->s_fs_info = sbi;
    sbi->s_sbh = bh;
    sbi->s_es = es;
    INIT_LIST_HEAD(&sbi->s_orphan);

    if (es->s_rev_level > EXT2_DYNAMIC_REV) {
        printk(KERN_ERR "ext2: %s: revision %u is not supported\n", sb->s_id, es->s_rev_level);
        goto fail;
    }
    if (es->s_rev_level == EXT2_GOOD_OLD_REV) {
        sbi->s_first_ino = EXT2_GOOD_OLD_FIRST_INO;
        sbi->s_inode_size = EXT2_GOOD_OLD_INODE_SIZE;
    } else {
        sbi->s_first_ino = es->s_first_ino;
        sbi->s_inode_size = es->s_inode_size;
        sbi->s_feature_incompat = es->s_feature_incompat;
        sbi->s_feature_ro_compat = es->s_feature_ro_compat;
    }
    /* errors=: the superblock's default (mke2fs -e), then the options */
    sbi->s_mount_opt = es->s_errors == EXT2_ERRORS_PANIC ? EXT2_MOUNT_ERRORS_PANIC :
                       es->s_errors == EXT2_ERRORS_RO ? EXT2_MOUNT_ERRORS_RO :
                       EXT2_MOUNT_ERRORS_CONT;
    if (parse_options(sb, data))
        goto fail;
    if (sbi->s_feature_incompat & ~EXT2_FEATURE_INCOMPAT_SUPP) {
        printk(KERN_ERR "ext2: %s: unsupported incompatible features %#x "
               "(Vellum supports only filetype); refusing to mount\n",
               sb->s_id, sbi->s_feature_incompat & ~EXT2_FEATURE_INCOMPAT_SUPP);
        goto fail;
    }
    if ((sbi->s_feature_incompat & EXT3_FEATURE_INCOMPAT_RECOVER) &&
        !(es->s_feature_compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL)) {
        printk(KERN_ERR "ext2: %s: needs_recovery is set but there is no journal; "
               "refusing to mount (run e2fsck)\n", sb->s_id);
        goto fail;
    }
    if (sbi->s_feature_ro_compat & ~EXT2_FEATURE_RO_COMPAT_SUPP) {
        printk(KERN_WARNING "ext2: %s: unknown read-only-compatible features %#x: "
               "mounting read-only\n", sb->s_id,
               sbi->s_feature_ro_compat & ~EXT2_FEATURE_RO_COMPAT_SUPP);
        sb->s_flags |= MS_RDONLY;
    }
    if (sbi->s_inode_size < EXT2_GOOD_OLD_INODE_SIZE || sbi->s_inode_size > bs ||
        (sbi->s_inode_size & (sbi->s_inode_size - 1))) {
        printk(KERN_ERR "ext2: %s: bad inode size %lu\n", sb->s_id, sbi->s_inode_size);
        goto fail;
    }
    sbi->s_blocks_per_group = es->s_blocks_per_group;
    sbi->s_inodes_per_group = es->s_inodes_per_group;
    sbi->s_blocks_count = es->s_blocks_count;
    sbi->s_inodes_count = es->s_inodes_count;
    sbi->s_first_data_block = es->s_first_data_block;
    sbi->s_inodes_per_block = bs / sbi->s_inode_size;
    sbi->s_desc_per_block = bs / sizeof(struct ext2_group_desc);
    sbi->s_addr_per_block = bs / 4;
    sbi->s_addr_per_block_bits = bits - 2;
    if (sbi->s_blocks_per_group == 0 || sbi->s_blocks_per_group > bs * 8 ||
        sbi->s_inodes_per_group == 0 || sbi->s_inodes_per_group > bs * 8 ||
        sbi->s_inodes_per_group % sbi->s_inodes_per_block) {
        printk(KERN_ERR "ext2: %s: bad blocks/inodes per group (%lu, %lu)\n", sb->s_id,
               sbi->s_blocks_per_group, sbi->s_inodes_per_group);
        goto fail;
    }
    if (sbi->s_first_data_block != (bs == 1024 ? 1u : 0u) ||
        sbi->s_blocks_count <= sbi->s_first_data_block + 1 ||
        sbi->s_blocks_count > bdev->nr_sectors / (bs / SECTOR_SIZE)) {
        printk(KERN_ERR "ext2: %s: bad block count %lu / first data block %lu "
               "(device has %lu blocks)\n", sb->s_id, sbi->s_blocks_count,
               sbi->s_first_data_block, (unsigned long)(bdev->nr_sectors / (bs / SECTOR_SIZE)));
        goto fail;
    }
    sbi->s_itb_per_group = sbi->s_inodes_per_group / sbi->s_inodes_per_block;
    sbi->s_groups_count = DIV_ROUND_UP(sbi->s_blocks_count - sbi->s_first_data_block,
                                       sbi->s_blocks_per_group);
    if (sbi->s_inodes_count > sbi->s_groups_count * sbi->s_inodes_per_group ||
        sbi->s_first_ino <= EXT2_ROOT_INO || sbi->s_first_ino > sbi->s_inodes_count ||
        es->s_free_blocks_count > sbi->s_blocks_count ||
        es->s_free_inodes_count > sbi->s_inodes_count) {
        printk(KERN_ERR "ext2: %s: inode or free counts out of range\n", sb->s_id);
        goto fail;
    }
    sbi->s_gdb_count = DIV_ROUND_UP(sbi->s_groups_count, sbi->s_desc_per_block);
    sbi->s_group_desc = kzalloc(sbi->s_gdb_count * sizeof(struct buffer_head *), GFP_KERNEL);
    if (!sbi->s_group_desc) {
        err = -ENOMEM;
        goto fail;
    }
    for (unsigned long i = 0; i < sbi->s_gdb_count; i++) {
        sbi->s_group_desc[i] = sb_bread(sb, sbi->s_first_data_block + 1 + i);
        if (!sbi->s_group_desc[i]) {
            printk(KERN_ERR "ext2: %s: cannot read group descriptors\n", sb->s_id);
            err = -EIO;
            goto fail;
        }
    }
    if (ext2_check_descriptors(sb))
        goto fail;
    /* A disk with a journal is ext3, a type of its own as in Linux (the
     * name /proc/mounts shows); "ext3" refuses a disk without one, as
     * Linux's ("No journal on filesystem").  Simplification: "ext2" mounts
     * a disk with a journal as ext3 too, journaled (Linux's ext2 would
     * leave the journal alone), as Linux finds it when no type is named
     * (ext3 is tried first). */
    bool journaled = es->s_rev_level != EXT2_GOOD_OLD_REV &&
                     (es->s_feature_compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL);
    if (!journaled && sb->s_type == &ext3_fs_type) {
        printk(KERN_ERR "ext3: No journal on filesystem on %s\n", sb->s_id);
        goto fail;
    }
    if (journaled)
        sb->s_type = &ext3_fs_type;

    sb->s_magic = EXT2_SUPER_MAGIC;
    sb->s_op = &ext2_sops;
    sb->s_maxbytes = ext2_max_size(bits);
    if (es->s_rev_level == EXT2_GOOD_OLD_REV && sb->s_maxbytes > 0x7fffffff)
        sb->s_maxbytes = 0x7fffffff;      /* rev 0 has no i_size_high */
    if (es->s_rev_level != EXT2_GOOD_OLD_REV &&
        (es->s_feature_compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL) &&
        (err = ext3_load_journal(sb)))
        goto fail;

    struct inode *root = ext2_iget(sb, EXT2_ROOT_INO);
    if (IS_ERR(root)) {
        err = PTR_ERR(root);
        printk(KERN_ERR "ext2: %s: cannot read the root inode (%d)\n", sb->s_id, err);
        goto fail;
    }
    if (!S_ISDIR(root->i_mode) || !root->i_size) {
        printk(KERN_ERR "ext2: %s: the root inode is not a directory\n", sb->s_id);
        iput(root);
        err = -EINVAL;
        goto fail;
    }
    sb->s_root = root;
    err = ext2_setup_super(sb);
    if (err) {
        printk(KERN_ERR "ext2: %s: cannot write the superblock (%d)\n", sb->s_id, err);
        sb->s_root = NULL;
        iput(root);
        goto fail;
    }
    printk(KERN_INFO "ext2: %s: mounted%s: rev %u, %lu-byte blocks, %lu blocks, %lu inodes, "
           "%lu groups%s\n", sb->s_id, sb->s_flags & MS_RDONLY ? " read-only" : "",
           es->s_rev_level, bs, sbi->s_blocks_count, sbi->s_inodes_count, sbi->s_groups_count,
           ext2_has_filetype(sb) ? ", filetype" : "");
    if (sbi->s_journal) {
        printk(KERN_INFO "ext3: %s: mounted with a journal: metadata journaled, "
               "data=ordered (file data written before the metadata that points at it)\n",
               sb->s_id);
        ext3_orphan_cleanup(sb);
    } else if (es->s_feature_compat & EXT3_FEATURE_COMPAT_HAS_JOURNAL)
        printk(KERN_INFO "ext3: %s: mounted read-only: the journal is not written\n",
               sb->s_id);
    return 0;

fail:
    if (sbi->s_journal) {
        journal_destroy(sbi->s_journal); /* nothing was journaled yet */
        sb->s_fs_inodes--;
    }
    if (sbi->s_group_desc) {
        for (unsigned long i = 0; i < sbi->s_gdb_count; i++)
            brelse(sbi->s_group_desc[i]);
        kfree(sbi->s_group_desc);
    }
    brelse(sbi->s_sbh);
    invalidate_bdev(bdev);
    kfree(sbi);
    sb->s_fs_info = NULL;
    return err;
}

static struct file_system_type ext2_fs_type = {
    .name = "ext2",
    .fill_super = ext2_fill_super,
    .requires_dev = 1,
};

static struct file_system_type ext3_fs_type = {
    .name = "ext3",
    .fill_super = ext2_fill_super,
    .requires_dev = 1,
};

static void init_ext2_fs(void)
{
    register_filesystem(&ext2_fs_type);
    register_filesystem(&ext3_fs_type);
}
fs_initcall(init_ext2_fs);
