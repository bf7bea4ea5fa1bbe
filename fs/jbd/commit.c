/* fs/jbd/commit.c: writing a transaction to the log, as Linux 2.6.24's
 * journal_commit_transaction (fs/jbd/commit.c): first the ordered data
 * buffers, home, waited for; then descriptor blocks, the logged copies of
 * the metadata buffers and revoke blocks, sent together and waited for
 * once; then the commit block; then the buffers are checkpoint-listed and
 * released to the buffer cache's writeback.  The
 * format written is the one recovery.c reads (include/jbd.h,
 * docs/journal.md): 8-byte tags, the UUID after the first tag of each
 * descriptor (SAME_UUID on the others), LAST_TAG on the last, ESCAPE for a
 * block that starts with the magic number.
 *
 * Layer: JBD.  Run by kjournald only (journal.c), so one commit at a time.
 *
 * The log blocks are written as Linux writes them: each descriptor and
 * its blocks gather in j_wbuf and go to the disk together (Linux
 * submit_bh's each, the elevator merges them; here the task's plug,
 * fs/buffer.c, merges the blocks that follow each other on the disk into
 * one request), so a commit of N metadata blocks is about three trips to
 * the disk (the log blocks, the commit block, the flushes), not N + 2.
 *
 * The ordered data buffers still dirty at the commit go out the same way,
 * under a plug of their own, before the log (journal_submit_data_buffers).
 *
 * Simplifications on purpose: the barrier is blkdev_flush
 * (the ATA CACHE FLUSH) after the log blocks and after the commit block,
 * where Linux 2.6.24 issued the commit block as a barrier write (on a disk
 * with a write cache and no FUA, its block layer's flush, write, flush).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <sched.h>
#include <buffer_head.h>
#include <mm.h>
#include <pagemap.h>
#include <jbd.h>

/* The next log block: its buffer (not read: it is written whole), and the
 * head moves on, wrapping from j_last to j_first. */
static struct buffer_head *journal_next_log_block(journal_t *journal)
{
    unsigned long blocknr, phys;
    mutex_lock(&journal->j_state_lock);
    BUG_ON(journal->j_free <= 1);        /* journal_start reserved the room */
    blocknr = journal->j_head++;
    if (journal->j_head == journal->j_last)
        journal->j_head = journal->j_first;
    journal->j_free--;
    mutex_unlock(&journal->j_state_lock);
    if (journal_bmap(journal, blocknr, &phys))
        return NULL;
    struct buffer_head *bh = __getblk(journal->j_dev, phys, journal->j_blocksize);
    if (bh) {
        memset(bh->b_data, 0, bh->b_size);
        set_buffer_uptodate(bh);
    }
    return bh;
}

static void journal_header(struct buffer_head *bh, int type, tid_t tid)
{
    journal_header_t *h = (journal_header_t *)bh->b_data;
    h->h_magic = cpu_to_be32(JFS_MAGIC_NUMBER);
    h->h_blocktype = cpu_to_be32(type);
    h->h_sequence = cpu_to_be32(tid);
}

/* Write bh (a log block) now, wait, and drop it.  0 or -EIO. */
static int write_log_block(struct buffer_head *bh)
{
    submit_bh_write(bh);                 /* no plug held: written now */
    int err = buffer_write_io_error(bh) ? -EIO : 0;
    brelse(bh);
    return err;
}

/* Send the log blocks gathered in j_wbuf[0..*n) (their bytes final) through
 * the commit's plug, wait for them, and drop them: 0, or -EIO if one failed
 * (Linux's commit waits on each and tests buffer_uptodate).  The plug holds
 * the buffers, not references: they are released only once it is flushed. */
static int write_wbuf(journal_t *journal, int *n)
{
    int err = 0;
    for (int i = 0; i < *n; i++)
        submit_bh_write(journal->j_wbuf[i]);
    blk_flush_plug();
    for (int i = 0; i < *n; i++) {
        if (buffer_write_io_error(journal->j_wbuf[i]))
            err = -EIO;
        brelse(journal->j_wbuf[i]);
    }
    *n = 0;
    return err;
}

/* Gather a log block whose bytes will be final when the batch is sent. */
static void wbuf_add(journal_t *journal, int *n, struct buffer_head *bh)
{
    BUG_ON(*n >= journal->j_wbufsize);   /* a descriptor's group always fits */
    journal->j_wbuf[(*n)++] = bh;
}

/* Drop the gathered log blocks unwritten (the commit failed). */
static void drop_wbuf(journal_t *journal, int *n)
{
    for (int i = 0; i < *n; i++)
        brelse(journal->j_wbuf[i]);
    *n = 0;
}

/* Descriptor blocks and the logged copies of t's buffers: each descriptor
 * is filled with its tags, then sent with its blocks (it comes first on the
 * disk, so they make one run).  0 or -EIO. */
static int write_metadata(journal_t *journal, transaction_t *t, int *n)
{
    struct buffer_head *desc = NULL;
    char *tagp = NULL;
    journal_block_tag_t *last = NULL;
    struct journal_head *jh;
    int first = 1;
    unsigned bs = journal->j_blocksize;

    list_for_each_entry(jh, &t->t_buffers, b_tlist) {
        if (!desc) {
            desc = journal_next_log_block(journal);
            if (!desc)
                return -EIO;
            journal_header(desc, JFS_DESCRIPTOR_BLOCK, t->t_tid);
            tagp = desc->b_data + sizeof(journal_header_t);
            first = 1;
            wbuf_add(journal, n, desc);
        }
        struct buffer_head *bh = jh->b_bh, *log = journal_next_log_block(journal);
        if (!log)
            return -EIO;
        wbuf_add(journal, n, log);
        memcpy(log->b_data, bh->b_data, bs);
        journal_block_tag_t *tag = (journal_block_tag_t *)tagp;
        uint16_t flags = first ? 0 : JFS_FLAG_SAME_UUID;
        if (*(uint32_t *)log->b_data == cpu_to_be32(JFS_MAGIC_NUMBER)) {
            /* Recovery would take it for a journal block: escaped. */
            *(uint32_t *)log->b_data = 0;
            flags |= JFS_FLAG_ESCAPE;
        }
        tag->t_blocknr = cpu_to_be32(bh->b_blocknr);
        tag->t_checksum = 0;
        tag->t_flags = cpu_to_be16(flags);
        tagp += JFS_TAG_SIZE32;
        if (first) {
            memcpy(tagp, journal->j_superblock->s_uuid, JFS_UUID_SIZE);
            tagp += JFS_UUID_SIZE;
            first = 0;
        }
        last = tag;
        /* A full descriptor (or the last buffer) closes the group. */
        if ((size_t)(tagp - desc->b_data) + JFS_TAG_SIZE32 + JFS_UUID_SIZE > bs ||
            jh->b_tlist.next == &t->t_buffers) {
            last->t_flags |= cpu_to_be16(JFS_FLAG_LAST_TAG);
            desc = NULL;
            int err = write_wbuf(journal, n);
            if (err)
                return err;
        }
    }
    return 0;
}

/* Ordered data (Linux 2.6.24's journal_submit_data_buffers and the wait
 * after it): every data buffer filed in t reaches the disk before any of
 * t's log blocks is written, so the commit block never makes a block the
 * file's that still holds another file's old bytes.  A dirty one is
 * written here, batched under the commit's plug (those that follow each
 * other on the disk in one request, as Linux gathers them in j_wbuf for
 * journal_do_submit_data), without its page lock (a task holding that lock may be
 * waiting for this commit in journal_start); a clean one was written
 * already, or is being written by writeback (PG_writeback: waited for; a
 * flusher sends its plug before it sleeps on anything, mm/page-writeback.c).
 * No handle files more now (t_updates is 0) and journal_invalidatepage
 * waits for this commit instead of taking one away, so the list is read
 * without j_state_lock; at the end each buffer is unfiled.  A failed write
 * stays on the file's mapping (fsync reports it, once) and on the buffer
 * (still dirty: writeback tries again), and the commit goes on.  That is
 * Linux since 2.6.28 ("JBD: Detected IO errors while flushing file data",
 * data_err=ignore, the default); 2.6.24 aborted the journal instead, which
 * turns one bad sector of a file into a read-only file system. */
static void journal_submit_data_buffers(journal_t *journal, transaction_t *t)
{
    struct journal_head *jh, *n;
    int err = 0;
    struct blk_plug *plug = blk_start_plug();   /* NULL: each written at once */
    list_for_each_entry(jh, &t->t_sync_datalist, b_tlist) {
        struct buffer_head *bh = jh->b_bh;
        if (buffer_dirty(bh)) {
            int e = write_dirty_buffer_plugged(bh);
            if (e && !err)
                err = e;
        } else {
            blk_flush_plug();                   /* sent before any sleep */
            wait_on_page_writeback(bh->b_page);
        }
    }
    blk_finish_plug(plug);
    /* A batched write that failed left its buffer dirty and its page
     * PG_error (plug_submit): found here (a buffer dirtied again since,
     * on a page with an older error, is counted too: only the warning
     * below is at stake). */
    list_for_each_entry(jh, &t->t_sync_datalist, b_tlist)
        if (!err && buffer_dirty(jh->b_bh) && PageError(jh->b_bh->b_page))
            err = -EIO;
    if (err)
        printk(KERN_WARNING "JBD: %s: I/O error writing file data before transaction %u (%d)\n",
               journal->j_devname, t->t_tid, err);
    mutex_lock(&journal->j_state_lock);
    list_for_each_entry_safe(jh, n, &t->t_sync_datalist, b_tlist)
        __journal_unfile_data(jh);
    mutex_unlock(&journal->j_state_lock);
}

/* Revoke blocks: header, r_count (bytes used), 4-byte block numbers;
 * gathered in j_wbuf behind the last descriptor's group (the plug joins
 * them to it when they follow it on the disk).  0 or -EIO. */
static int write_revoke_records(journal_t *journal, transaction_t *t, int *n)
{
    unsigned per = (journal->j_blocksize - JFS_REVOKE_RECORDS) / 4;
    for (int i = 0; i < t->t_nr_revokes; i += per) {
        if (*n == journal->j_wbufsize) {
            int err = write_wbuf(journal, n);
            if (err)
                return err;
        }
        struct buffer_head *bh = journal_next_log_block(journal);
        if (!bh)
            return -EIO;
        wbuf_add(journal, n, bh);
        journal_header(bh, JFS_REVOKE_BLOCK, t->t_tid);
        int k, nr = min_t(int, per, t->t_nr_revokes - i);
        uint32_t *rec = (uint32_t *)(bh->b_data + JFS_REVOKE_RECORDS);
        for (k = 0; k < nr; k++)
            rec[k] = cpu_to_be32(t->t_revoke[i + k]);
        ((journal_revoke_header_t *)bh->b_data)->r_count =
            cpu_to_be32(JFS_REVOKE_RECORDS + 4 * nr);
    }
    return write_wbuf(journal, n);
}

/* The log blocks, each group sent whole under one plug and waited for,
 * then the flush that puts them all on the platter before the commit block
 * is written (Linux 2.6.24: journal_write_metadata_buffer and submit_bh for
 * each block, wait_on_buffer for all, then the commit block as a barrier
 * write).  0 or -EIO; nothing is left referenced. */
static int write_log(journal_t *journal, transaction_t *t)
{
    int n = 0;
    struct blk_plug *plug = blk_start_plug();   /* NULL: each written at once */
    int err = write_metadata(journal, t, &n);
    if (!err)
        err = write_revoke_records(journal, t, &n);
    drop_wbuf(journal, &n);                     /* left over only on an error */
    blk_finish_plug(plug);
    if (!err)
        err = blkdev_flush(journal->j_dev) ? -EIO : 0;
    return err;
}

void journal_commit_transaction(journal_t *journal)
{
    mutex_lock(&journal->j_state_lock);
    transaction_t *t = journal->j_running_transaction;
    if (!t || is_journal_aborted(journal)) {
        mutex_unlock(&journal->j_state_lock);
        return;
    }
    t->t_state = T_LOCKED;               /* no handle joins it from now on */
    journal->j_committing_transaction = t;
    journal->j_running_transaction = NULL;
    mutex_unlock(&journal->j_state_lock);
    wake_up_all(&journal->j_wait_transaction_locked);
    wait_event(journal->j_wait_updates, !t->t_updates);

    mutex_lock(&journal->j_state_lock);
    BUG_ON(t->t_updates);                /* no new handle could join */
    t->t_state = T_FLUSH;
    t->t_log_start = journal->j_head;
    /* Buffers reserved but never dirtied are not logged: back to the
     * cache (a committed copy they held back goes home after all). */
    struct journal_head *jh, *n;
    list_for_each_entry_safe(jh, n, &t->t_reserved_list, b_tlist) {
        list_del_init(&jh->b_tlist);
        jh->b_transaction = NULL;
        jh->b_jlist = BJ_None;
        if (buffer_jbddirty(jh->b_bh)) {
            clear_buffer_jbddirty(jh->b_bh);
            mark_buffer_dirty(jh->b_bh);
        }
        journal_put_journal_head(jh);
    }
    int flushed = journal->j_flags & JFS_FLUSHED;
    if (flushed) {
        /* The log on disk is empty (s_start 0): it must name this
         * transaction's first block before recovery can find it. */
        journal->j_tail = t->t_log_start;
        journal->j_tail_sequence = t->t_tid;
    }
    mutex_unlock(&journal->j_state_lock);
    if (flushed)
        journal_update_superblock(journal);

    journal_submit_data_buffers(journal, t);
    int err = write_log(journal, t);
    if (!err) {
        struct buffer_head *cbh = journal_next_log_block(journal);
        if (cbh) {
            journal_header(cbh, JFS_COMMIT_BLOCK, t->t_tid);   /* the rest zeroed */
            err = write_log_block(cbh);
        } else {
            err = -EIO;
        }
    }
    if (!err)
        err = blkdev_flush(journal->j_dev) ? -EIO : 0;
    if (err) {
        printk(KERN_ERR "JBD: %s: cannot write transaction %u to the log (%d)\n",
               journal->j_devname, t->t_tid, err);
        journal_abort(journal, err);
    }

    /* Committed (or aborted): the buffers go on t's checkpoint list, and
     * their bytes are free to go home (BH_Dirty: writeback or the
     * checkpoint writes them); an aborted transaction's changes are lost,
     * its buffers reread from the disk. */
    mutex_lock(&journal->j_state_lock);
    list_for_each_entry_safe(jh, n, &t->t_buffers, b_tlist) {
        struct buffer_head *bh = jh->b_bh;
        list_del_init(&jh->b_tlist);
        jh->b_transaction = NULL;
        jh->b_jlist = BJ_None;
        if (err) {
            clear_buffer_jbddirty(bh);
            clear_buffer_uptodate(bh);
            journal_put_journal_head(jh);
            continue;
        }
        if (jh->b_cp_transaction)        /* an older copy: this one supersedes it */
            __journal_remove_checkpoint(journal, jh);   /* jh stays: it is ours */
        jh->b_cp_transaction = t;
        list_add_tail(&jh->b_cplist, &t->t_checkpoint_list);
        if (buffer_jbddirty(bh)) {
            clear_buffer_jbddirty(bh);
            mark_buffer_dirty(bh);
        }
    }
    t->t_state = T_FINISHED;
    tid_t tid = t->t_tid;
    if (list_empty(&t->t_checkpoint_list)) {
        kfree(t->t_revoke);              /* nothing to write home (only revokes) */
        kfree(t);
    } else {
        list_add_tail(&t->t_cplist, &journal->j_checkpoint_transactions);
    }
    journal->j_committing_transaction = NULL;
    journal->j_commit_sequence = tid;
    if (tid_gt(tid, journal->j_commit_request))
        journal->j_commit_request = tid;
    if (!err)
        journal->j_nr_commits++;
    mutex_unlock(&journal->j_state_lock);
    wake_up_all(&journal->j_wait_done_commit);
    wake_up_all(&journal->j_wait_transaction_locked);
}
