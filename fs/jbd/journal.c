/* fs/jbd/journal.c: the journal_t of a journal inside an inode, and
 * loading it: reading and checking the journal superblock (journal_load),
 * recovering a log that is not empty (recovery.c), and writing the
 * superblock back marked empty; or forgetting the log unreplayed
 * (journal_wipe).  Then the journal's life while it is written: kjournald
 * (the thread that commits), log_start_commit/log_wait_commit, the
 * superblock's tail (journal_update_superblock), journal_flush,
 * journal_abort, and journal_destroy.  The on-disk format is
 * include/jbd.h; the chapter is docs/journal.md.
 *
 * Layer: JBD, between the filesystem that owns the journal inode (ext2
 * mounting ext3, fs/ext2/super.c) and the buffer cache (fs/buffer.c).  The
 * journal's blocks are found through bmap() on the inode (the filesystem's
 * get_block) and read as metadata buffers of the filesystem's block device.
 *
 * As Linux's, journal_load (and journal_wipe) leave the log empty on disk
 * (s_start 0, JFS_FLUSHED) and the journal ready for new transactions,
 * kjournald running; the first commit writes the superblock's s_start
 * before its own blocks.  Simplification on purpose: journal_destroy
 * writes the superblock only if a transaction was committed since the
 * load, and leaves s_sequence at the next transaction's ID (Linux's adds
 * one more), so that a mount that journals nothing writes nothing.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <fs.h>
#include <buffer_head.h>
#include <sched.h>
#include <timer.h>
#include <err.h>
#include <jbd.h>

#ifdef CONFIG_LOCKDEP
static struct lock_class_key jbd_handle_key;
#endif

journal_t *journal_init_inode(struct inode *inode, unsigned long fs_nr_blocks)
{
    journal_t *journal = kzalloc(sizeof(*journal), GFP_KERNEL);
    if (!journal)
        return NULL;
    journal->j_inode = inode;
    journal->j_dev = inode->i_sb->s_bdev;
    journal->j_devname = inode->i_sb->s_id;
    journal->j_blocksize = inode->i_sb->s_blocksize;
    journal->j_fs_nr_blocks = fs_nr_blocks;
    /* A descriptor holds fewer than blocksize / 8 tags: Linux's size. */
    journal->j_wbufsize = journal->j_blocksize / JFS_TAG_SIZE32;
    journal->j_wbuf = kmalloc(journal->j_wbufsize * sizeof(*journal->j_wbuf), GFP_KERNEL);
    if (!journal->j_wbuf) {
        kfree(journal);
        return NULL;
    }
    mutex_init(&journal->j_state_lock);
    mutex_init(&journal->j_checkpoint_mutex);
    INIT_LIST_HEAD(&journal->j_checkpoint_transactions);
    init_waitqueue_head(&journal->j_wait_transaction_locked);
    init_waitqueue_head(&journal->j_wait_updates);
    init_waitqueue_head(&journal->j_wait_commit);
    init_waitqueue_head(&journal->j_wait_done_commit);
#ifdef CONFIG_LOCKDEP
    lockdep_init_map(&journal->j_handle_map, "jbd_handle", &jbd_handle_key);
#endif
    return journal;
}

/* kjournald: commit the running transaction when asked (log_start_commit:
 * fsync, a full transaction, the log out of room) or when it is
 * j_commit_interval old (Linux arms a timer, j_commit_timer, at each new
 * transaction; here the thread sleeps until the running transaction's
 * t_expires, and start_this_handle wakes it when a new one starts); end at
 * journal_destroy. */
static int kjournald(void *arg)
{
    journal_t *journal = arg;
    for (;;) {
        mutex_lock(&journal->j_state_lock);
        transaction_t *t = journal->j_running_transaction;
        if (t && !tid_gt(journal->j_commit_request, journal->j_commit_sequence) &&
            !time_before(jiffies, t->t_expires))
            journal->j_commit_request = t->t_tid;     /* its time is up */
        if (tid_gt(journal->j_commit_request, journal->j_commit_sequence) &&
            !is_journal_aborted(journal)) {     /* aborted: nothing is committed */
            mutex_unlock(&journal->j_state_lock);
            journal_commit_transaction(journal);
            continue;
        }
        if (journal->j_flags & JFS_UNMOUNT) {
            mutex_unlock(&journal->j_state_lock);
            break;
        }
        long timeout = t ? (long)(t->t_expires - jiffies) : (long)journal->j_commit_interval;
        mutex_unlock(&journal->j_state_lock);
        wait_event_idle_timeout(journal->j_wait_commit,
            (tid_gt(journal->j_commit_request, journal->j_commit_sequence) &&
             !is_journal_aborted(journal)) ||
            (journal->j_flags & JFS_UNMOUNT) ||
            journal->j_running_transaction != t,      /* a new one: its own expiry */
            timeout > 0 ? timeout : 1);
    }
    /* Every transaction is committed (journal_destroy asked first); wait
     * to be reaped. */
    while (!kthread_should_stop())
        wait_event_idle_timeout(journal->j_wait_commit, kthread_should_stop(), HZ);
    return 0;
}

/* The log is empty on disk (journal_load, journal_wipe): set up the
 * writing side in core and start kjournald (Linux's journal_reset and
 * journal_start_thread).  The sizes are Linux's: a transaction commits at
 * a quarter of the log. */
static int journal_reset(journal_t *journal)
{
    journal->j_head = journal->j_tail = journal->j_first;
    journal->j_free = journal->j_last - journal->j_first;
    journal->j_tail_sequence = journal->j_transaction_sequence;
    journal->j_commit_sequence = journal->j_transaction_sequence - 1;
    journal->j_commit_request = journal->j_commit_sequence;
    journal->j_loaded_sequence = journal->j_transaction_sequence;
    journal->j_max_transaction_buffers = (journal->j_last - journal->j_first) / 4;
    journal->j_commit_interval = JBD_DEFAULT_MAX_COMMIT_AGE * HZ;
    journal->j_flags |= JFS_FLUSHED | JFS_WRITABLE;
    struct task_struct *t = kthread_run(kjournald, journal, "kjournald");
    if (IS_ERR(t)) {
        journal->j_flags &= ~JFS_WRITABLE;
        return PTR_ERR(t);
    }
    journal->j_task = t;
    return 0;
}

void log_start_commit(journal_t *journal, tid_t tid)
{
    mutex_lock(&journal->j_state_lock);
    if (tid_gt(tid, journal->j_commit_request)) {
        journal->j_commit_request = tid;
        wake_up(&journal->j_wait_commit);
    }
    mutex_unlock(&journal->j_state_lock);
}

int log_wait_commit(journal_t *journal, tid_t tid)
{
    wait_event(journal->j_wait_done_commit,
               !tid_gt(tid, journal->j_commit_sequence) || is_journal_aborted(journal));
    return is_journal_aborted(journal) ? -EIO : 0;
}

void journal_update_superblock(journal_t *journal)
{
    journal_superblock_t *sb = journal->j_superblock;
    if (is_journal_aborted(journal))
        return;
    mutex_lock(&journal->j_state_lock);
    sb->s_sequence = cpu_to_be32(journal->j_tail_sequence);
    sb->s_start = cpu_to_be32(journal->j_tail);
    journal->j_flags &= ~JFS_FLUSHED;
    mutex_unlock(&journal->j_state_lock);
    set_buffer_dirty(journal->j_sb_buffer);
    if (sync_dirty_buffer(journal->j_sb_buffer) || blkdev_flush(journal->j_dev)) {
        printk(KERN_ERR "JBD: %s: cannot write the journal superblock\n",
               journal->j_devname);
        journal_abort(journal, -EIO);
    }
}

int journal_set_features(journal_t *journal, uint32_t incompat)
{
    journal_superblock_t *sb = journal->j_superblock;
    if (journal->j_format_version < 2)
        return -EINVAL;
    mutex_lock(&journal->j_state_lock);
    int set = (be32_to_cpu(sb->s_feature_incompat) & incompat) == incompat;
    if (!set)
        sb->s_feature_incompat = cpu_to_be32(be32_to_cpu(sb->s_feature_incompat) | incompat);
    mutex_unlock(&journal->j_state_lock);
    if (set)
        return 0;
    set_buffer_dirty(journal->j_sb_buffer);
    return sync_dirty_buffer(journal->j_sb_buffer) ? -EIO : 0;
}

void journal_abort(journal_t *journal, int errno)
{
    mutex_lock(&journal->j_state_lock);
    int was = journal->j_flags & JFS_ABORT;
    journal->j_flags |= JFS_ABORT;
    mutex_unlock(&journal->j_state_lock);
    if (!was)
        printk(KERN_ERR "JBD: %s: journal aborted (%d): nothing more is committed; "
               "the log is left for recovery\n", journal->j_devname, errno);
    wake_up_all(&journal->j_wait_transaction_locked);
    wake_up_all(&journal->j_wait_done_commit);
    wake_up_all(&journal->j_wait_updates);
}

static int journal_mark_empty(journal_t *journal);

int journal_flush(journal_t *journal)
{
    journal_force_commit(journal);     /* a failed commit aborts: checked next */
    if (is_journal_aborted(journal))
        return -EIO;
    mutex_lock(&journal->j_checkpoint_mutex);
    int err = log_do_checkpoint(journal);
    mutex_lock(&journal->j_state_lock);
    int empty = !err && list_empty(&journal->j_checkpoint_transactions) &&
                !journal->j_running_transaction && !journal->j_committing_transaction;
    if (empty) {
        /* The tail is the head: nothing left to replay.  s_start 0 says
         * so to every reader (e2fsck, the next mount), as Linux's unmount. */
        journal->j_tail = journal->j_head;
        journal->j_tail_sequence = journal->j_transaction_sequence;
    }
    mutex_unlock(&journal->j_state_lock);
    if (empty && !is_journal_aborted(journal))
        err = journal_mark_empty(journal);
    mutex_unlock(&journal->j_checkpoint_mutex);
    return err ? err : (is_journal_aborted(journal) ? -EIO : 0);
}

void journal_destroy(journal_t *journal)
{
    if (!journal)
        return;
    BUG_ON(journal->j_revoke);          /* recovery frees its table before returning */
    if (journal->j_flags & JFS_WRITABLE) {
        if (journal->j_transaction_sequence != journal->j_loaded_sequence ||
            journal->j_running_transaction)
            journal_flush(journal);      /* aborted: -EIO, nothing written */
        mutex_lock(&journal->j_state_lock);
        journal->j_flags |= JFS_UNMOUNT;
        mutex_unlock(&journal->j_state_lock);
        wake_up(&journal->j_wait_commit);
        kthread_stop(journal->j_task);
        /* Left only after an abort (or a failed checkpoint write):
         * checkpoint buffers, which stay dirty in the cache, and a running
         * transaction, whose changes are lost (reread from the disk). */
        transaction_t *t = journal->j_running_transaction;
        if (t) {
            struct journal_head *jh, *n;
            while (!list_empty(&t->t_reserved_list))
                list_move_tail(t->t_reserved_list.next, &t->t_buffers);
            list_for_each_entry_safe(jh, n, &t->t_buffers, b_tlist) {
                list_del_init(&jh->b_tlist);
                jh->b_transaction = NULL;
                if (buffer_jbddirty(jh->b_bh)) {
                    clear_buffer_jbddirty(jh->b_bh);
                    clear_buffer_uptodate(jh->b_bh);
                }
                if (!jh->b_cp_transaction)
                    journal_put_journal_head(jh);
            }
            mutex_lock(&journal->j_state_lock);
            while (!list_empty(&t->t_sync_datalist))   /* ordered data: never written */
                __journal_unfile_data(list_first_entry(&t->t_sync_datalist,
                                                       struct journal_head, b_tlist));
            mutex_unlock(&journal->j_state_lock);
            kfree(t->t_revoke);
            kfree(t);
        }
        while (!list_empty(&journal->j_checkpoint_transactions)) {
            transaction_t *ct = list_first_entry(&journal->j_checkpoint_transactions,
                                                 transaction_t, t_cplist);
            struct journal_head *jh = list_first_entry(&ct->t_checkpoint_list,
                                                       struct journal_head, b_cplist);
            __journal_remove_checkpoint(journal, jh);   /* frees ct with its last */
            journal_put_journal_head(jh);
        }
    }
    brelse(journal->j_sb_buffer);
    iput(journal->j_inode);
    kfree(journal->j_wbuf);
    kfree(journal);
}

/* The superblock's s_maxlen bounds the log once it is read; before that
 * (block 0) the inode's size does. */
int journal_bmap(journal_t *journal, unsigned long blocknr, unsigned long *retp)
{
    unsigned long maxlen = journal->j_superblock ?
        be32_to_cpu(journal->j_superblock->s_maxlen) :
        (unsigned long)(journal->j_inode->i_size >> journal->j_inode->i_blkbits);
    sector_t phys = blocknr < maxlen ? bmap(journal->j_inode, blocknr) : 0;
    if (!phys) {
        printk(KERN_ERR "JBD: %s: journal block %lu is not mapped (a hole in the "
               "journal inode, or past its end)\n", journal->j_devname, blocknr);
        *retp = 0;
        return -EIO;
    }
    *retp = phys;
    return 0;
}

struct buffer_head *jread(journal_t *journal, unsigned long blocknr)
{
    unsigned long phys;
    if (journal_bmap(journal, blocknr, &phys))
        return NULL;
    struct buffer_head *bh = __bread(journal->j_dev, phys, journal->j_blocksize);
    if (!bh)
        printk(KERN_ERR "JBD: %s: cannot read journal block %lu (disk block %lu)\n",
               journal->j_devname, blocknr, phys);
    return bh;
}

/* Read block 0 and check everything recovery will trust (Linux's
 * journal_get_superblock and load_superblock).  Added: every journal block
 * must be mapped, checked before the log is read (Linux finds a hole only
 * when a pass reaches it), so a bad map fails the mount before anything is
 * replayed. */
static int journal_get_superblock(journal_t *journal)
{
    struct inode *inode = journal->j_inode;
    unsigned long inode_blocks = inode->i_size >> inode->i_blkbits;
    const char *dev = journal->j_devname;
    struct buffer_head *bh = jread(journal, 0);
    if (!bh)
        return -EIO;
    journal_superblock_t *sb = (journal_superblock_t *)bh->b_data;
    uint32_t blocktype = be32_to_cpu(sb->s_header.h_blocktype);
    unsigned long maxlen = be32_to_cpu(sb->s_maxlen), first = be32_to_cpu(sb->s_first);
    unsigned long start = be32_to_cpu(sb->s_start);
    int err = -EINVAL;

    if (be32_to_cpu(sb->s_header.h_magic) != JFS_MAGIC_NUMBER) {
        printk(KERN_ERR "JBD: %s: no valid journal superblock found (magic %#x, wanted %#x)\n",
               dev, be32_to_cpu(sb->s_header.h_magic), JFS_MAGIC_NUMBER);
        goto fail;
    }
    if (blocktype == JFS_SUPERBLOCK_V1) {
        journal->j_format_version = 1;
    } else if (blocktype == JFS_SUPERBLOCK_V2) {
        journal->j_format_version = 2;
    } else {
        printk(KERN_ERR "JBD: %s: unrecognised journal superblock type %u\n", dev, blocktype);
        goto fail;
    }
    if (be32_to_cpu(sb->s_blocksize) != journal->j_blocksize) {
        printk(KERN_ERR "JBD: %s: journal block size %u is not the filesystem's %u\n",
               dev, be32_to_cpu(sb->s_blocksize), journal->j_blocksize);
        goto fail;
    }
    if (maxlen < JFS_MIN_JOURNAL_BLOCKS || maxlen > inode_blocks ||
        maxlen > journal->j_fs_nr_blocks) {
        printk(KERN_ERR "JBD: %s: journal length %lu blocks is invalid (the journal "
               "inode has %lu blocks, the filesystem %lu; at least %u)\n", dev, maxlen,
               inode_blocks, journal->j_fs_nr_blocks, JFS_MIN_JOURNAL_BLOCKS);
        goto fail;
    }
    if (first == 0 || first >= maxlen) {
        printk(KERN_ERR "JBD: %s: invalid start of log s_first %lu (journal of %lu blocks)\n",
               dev, first, maxlen);
        goto fail;
    }
    if (start && (start < first || start >= maxlen)) {
        printk(KERN_ERR "JBD: %s: log start s_start %lu outside the log [%lu, %lu)\n",
               dev, start, first, maxlen);
        goto fail;
    }
    if (journal->j_format_version >= 2 &&
        ((be32_to_cpu(sb->s_feature_incompat) & ~JFS_KNOWN_INCOMPAT_FEATURES) ||
         (be32_to_cpu(sb->s_feature_ro_compat) & ~JFS_KNOWN_ROCOMPAT_FEATURES))) {
        printk(KERN_ERR "JBD: %s: unsupported journal features: incompat %#x, ro_compat %#x "
               "(Vellum's JBD reads only the revoke feature: no 64-bit, checksums, "
               "async commit or fast commit)\n", dev,
               be32_to_cpu(sb->s_feature_incompat) & ~JFS_KNOWN_INCOMPAT_FEATURES,
               be32_to_cpu(sb->s_feature_ro_compat) & ~JFS_KNOWN_ROCOMPAT_FEATURES);
        goto fail;
    }
    journal->j_sb_buffer = bh;
    journal->j_superblock = sb;
    journal->j_first = first;
    journal->j_last = maxlen;
    /* Every block of the log must be mapped before recovery trusts any. */
    for (unsigned long b = 1; b < maxlen; b++) {
        unsigned long phys;
        if (journal_bmap(journal, b, &phys)) {
            err = -EIO;
            journal->j_sb_buffer = NULL;
            journal->j_superblock = NULL;
            goto fail;
        }
    }
    return 0;
fail:
    brelse(bh);
    return err;
}

/* The log is empty from now on: s_start 0, and the next transaction's ID
 * in s_sequence (so no block left in the log can pass for a new one).
 * Written and waited for. */
static int journal_mark_empty(journal_t *journal)
{
    journal_superblock_t *sb = journal->j_superblock;
    mutex_lock(&journal->j_state_lock);
    sb->s_sequence = cpu_to_be32(journal->j_transaction_sequence);
    sb->s_start = 0;
    journal->j_flags |= JFS_FLUSHED;    /* the next commit writes s_start first */
    mutex_unlock(&journal->j_state_lock);
    set_buffer_dirty(journal->j_sb_buffer);
    int err = sync_dirty_buffer(journal->j_sb_buffer);
    if (err)
        printk(KERN_ERR "JBD: %s: cannot write the journal superblock (%d)\n",
               journal->j_devname, err);
    return err;
}

int journal_load(journal_t *journal)
{
    int err = journal_get_superblock(journal);
    if (err)
        return err;
    if (!journal->j_superblock->s_start) {
        /* Empty: nothing to replay, nothing to write. */
        journal->j_transaction_sequence = be32_to_cpu(journal->j_superblock->s_sequence);
        return journal_reset(journal);
    }
    err = journal_recover(journal);
    if (err)
        return err;                     /* the log stays as it was, for e2fsck */
    err = journal_mark_empty(journal);
    return err ? err : journal_reset(journal);
}

int journal_wipe(journal_t *journal)
{
    int err = journal_get_superblock(journal);
    if (err)
        return err;
    if (!journal->j_superblock->s_start) {
        journal->j_transaction_sequence = be32_to_cpu(journal->j_superblock->s_sequence);
        return journal_reset(journal);
    }
    printk(KERN_WARNING "JBD: %s: ignoring recovery information on journal\n",
           journal->j_devname);
    err = journal_skip_recovery(journal);
    if (err)
        return err;
    err = journal_mark_empty(journal);
    return err ? err : journal_reset(journal);
}

int journal_errno(journal_t *journal)
{
    return (int)be32_to_cpu(journal->j_superblock->s_errno);   /* stored negative, as Linux */
}

int journal_clear_err(journal_t *journal)
{
    journal->j_superblock->s_errno = 0;
    set_buffer_dirty(journal->j_sb_buffer);
    return sync_dirty_buffer(journal->j_sb_buffer);
}
