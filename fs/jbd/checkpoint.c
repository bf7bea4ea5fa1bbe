/* fs/jbd/checkpoint.c: checkpointing, as Linux 2.6.24's fs/jbd/checkpoint.c:
 * a committed transaction's buffers are written to their home locations
 * (log_do_checkpoint); once all of them are home, the transaction leaves
 * the log and the log's tail moves past it (cleanup_journal_tail, written
 * to the journal superblock), freeing its log blocks for new commits.  Also
 * the journal_heads (Linux's journal.c keeps them) and journal_start's wait
 * for log space (log_wait_for_space).
 *
 * Layer: JBD (include/jbd.h), above the buffer cache.  Called by
 * journal_start when the log is full, by journal_flush (unmount) and by
 * the commit (journal_heads).
 *
 * Simplification on purpose: Linux writes checkpoint buffers in batches
 * and may wait for just enough of them; Vellum writes all that can go home
 * at each pass, one synchronous write each, and flushes the disk's cache
 * before the tail moves (the home copies must be durable before the log
 * forgets them).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <buffer_head.h>
#include <jbd.h>

struct journal_head *journal_add_journal_head(journal_t *journal, struct buffer_head *bh)
{
    if (buffer_jbd(bh))
        return bh->b_private;
    struct journal_head *jh = kzalloc(sizeof(*jh), GFP_KERNEL);
    if (!jh)
        return NULL;
    jh->b_bh = bh;
    INIT_LIST_HEAD(&jh->b_tlist);
    INIT_LIST_HEAD(&jh->b_cplist);
    get_bh(bh);                          /* the cache must not evict it */
    bh->b_private = jh;
    set_buffer_jbd(bh);
    return jh;
}

void journal_put_journal_head(struct journal_head *jh)
{
    if (jh->b_transaction || jh->b_cp_transaction)
        return;
    struct buffer_head *bh = jh->b_bh;
    BUG_ON(buffer_jbddirty(bh));         /* a change nobody will log */
    bh->b_private = NULL;
    clear_buffer_jbd(bh);
    kfree(jh);
    brelse(bh);
}

void __journal_remove_checkpoint(journal_t *journal, struct journal_head *jh)
{
    transaction_t *t = jh->b_cp_transaction;
    list_del_init(&jh->b_cplist);
    jh->b_cp_transaction = NULL;
    if (list_empty(&t->t_checkpoint_list) && t->t_state == T_FINISHED) {
        list_del(&t->t_cplist);          /* all home: it leaves the log at the next
                                            cleanup_journal_tail */
        kfree(t->t_revoke);
        kfree(t);
    }
}

void cleanup_journal_tail(journal_t *journal)
{
    mutex_lock(&journal->j_state_lock);
    tid_t first_tid;
    unsigned long blocknr;
    if (!list_empty(&journal->j_checkpoint_transactions)) {
        transaction_t *t = list_first_entry(&journal->j_checkpoint_transactions,
                                            transaction_t, t_cplist);
        first_tid = t->t_tid;
        blocknr = t->t_log_start;
    } else if (journal->j_committing_transaction) {
        transaction_t *t = journal->j_committing_transaction;
        first_tid = t->t_tid;
        blocknr = t->t_state == T_FLUSH ? t->t_log_start : journal->j_head;
    } else if (journal->j_running_transaction) {
        first_tid = journal->j_running_transaction->t_tid;
        blocknr = journal->j_head;
    } else {
        first_tid = journal->j_transaction_sequence;
        blocknr = journal->j_head;
    }
    if (journal->j_tail_sequence == first_tid && journal->j_tail == blocknr) {
        mutex_unlock(&journal->j_state_lock);
        return;
    }
    unsigned long size = journal->j_last - journal->j_first;
    unsigned long freed = (blocknr + size - journal->j_tail) % size;
    journal->j_free += freed;
    BUG_ON(journal->j_free > size);
    journal->j_tail_sequence = first_tid;
    journal->j_tail = blocknr;
    journal->j_nr_checkpoints++;
    mutex_unlock(&journal->j_state_lock);
    journal_update_superblock(journal);
}

int log_do_checkpoint(journal_t *journal)
{
    int err = 0;
    for (;;) {
        /* One buffer at a time: find a committed buffer still dirty and not
         * changed again in the running transaction, write it, repeat. */
        struct buffer_head *bh = NULL;
        transaction_t *t;
        struct journal_head *jh;
        mutex_lock(&journal->j_state_lock);
        list_for_each_entry(t, &journal->j_checkpoint_transactions, t_cplist) {
            list_for_each_entry(jh, &t->t_checkpoint_list, b_cplist) {
                if (!jh->b_transaction && buffer_dirty(jh->b_bh)) {
                    bh = jh->b_bh;
                    get_bh(bh);
                    break;
                }
            }
            if (bh)
                break;
        }
        mutex_unlock(&journal->j_state_lock);
        if (!bh)
            break;
        int e = sync_dirty_buffer(bh);
        brelse(bh);
        if (e) {
            err = e;                     /* the I/O error is logged by the cache */
            break;
        }
    }
    if (!err)
        err = blkdev_flush(journal->j_dev) ? -EIO : 0;
    if (err)
        return err;
    /* Everything that could go home is home: drop it from the lists. */
    mutex_lock(&journal->j_state_lock);
    transaction_t *t, *tn;
    list_for_each_entry_safe(t, tn, &journal->j_checkpoint_transactions, t_cplist) {
        struct journal_head *jh, *n;
        list_for_each_entry_safe(jh, n, &t->t_checkpoint_list, b_cplist)
            if (!buffer_dirty(jh->b_bh) && !jh->b_transaction) {
                __journal_remove_checkpoint(journal, jh);   /* may free t */
                journal_put_journal_head(jh);
            }
    }
    mutex_unlock(&journal->j_state_lock);
    cleanup_journal_tail(journal);
    return 0;
}

unsigned long jbd_log_blocks(journal_t *journal, int credits)
{
    /* Tags: 8 bytes, the first of each descriptor followed by a UUID, and
     * commit.c closes a descriptor when a tag and a UUID no longer fit:
     * counted low, so the estimate errs on the side of room. */
    unsigned tags = (journal->j_blocksize - sizeof(journal_header_t) - 2 * JFS_UUID_SIZE -
                     JFS_TAG_SIZE32) / JFS_TAG_SIZE32;
    unsigned revokes = (journal->j_blocksize - JFS_REVOKE_RECORDS) / 4;
    return credits + (credits + tags - 1) / tags + (credits + revokes - 1) / revokes + 1;
}

void log_wait_for_space(journal_t *journal, int nblocks)
{
    mutex_lock(&journal->j_state_lock);
    transaction_t *t = journal->j_running_transaction;
    tid_t tid = t ? t->t_tid : 0;
    mutex_unlock(&journal->j_state_lock);
    /* The running transaction's buffers cannot go home before it commits,
     * and its older copies keep their transactions in the log: commit it. */
    if (t) {
        log_start_commit(journal, tid);
        log_wait_commit(journal, tid);
    }
    mutex_lock(&journal->j_checkpoint_mutex);
    mutex_lock(&journal->j_state_lock);
    int room = jbd_log_blocks(journal, nblocks) + 1 <= journal->j_free;
    mutex_unlock(&journal->j_state_lock);
    if (!room && log_do_checkpoint(journal))
        journal_abort(journal, -EIO);    /* home writes fail: nothing can free the log */
    mutex_unlock(&journal->j_checkpoint_mutex);
}
