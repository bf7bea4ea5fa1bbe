/* fs/jbd/transaction.c: handles on the running transaction, as Linux
 * 2.6.24's fs/jbd/transaction.c: journal_start/journal_stop (nesting
 * through current->journal_info), journal_extend and journal_restart (a
 * long truncate's handle), journal_get_write_access,
 * journal_get_create_access, journal_dirty_metadata, journal_revoke (the
 * revoke records Linux keeps in fs/jbd/revoke.c), journal_force_commit,
 * and ordered data: journal_dirty_data, journal_invalidatepage,
 * journal_try_to_free_buffers.
 * The contract of each call is in include/jbd.h; the chapter is
 * docs/journal.md.
 *
 * Layer: JBD, called by the filesystem around each metadata change; below
 * it the buffer cache (fs/buffer.c).  The commit is commit.c (run by
 * kjournald, journal.c), checkpointing checkpoint.c.
 *
 * Simplifications on purpose (each also said where it matters):
 *  - one transaction at a time: journal_start waits while a transaction
 *    commits, instead of starting the next one at once (Linux's frozen
 *    copies, b_frozen_data, are then never needed: include/jbd.h);
 *  - a revoke costs a credit of the handle (Linux reserves log space for
 *    revoke records apart);
 *  - ordered data only (no data=journal): a data buffer is filed, never
 *    logged, and it is filed only by a write that allocates or moves
 *    i_size (ext3_ordered.c), where Linux 2.6.24 files every buffer a
 *    write touches.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <slab.h>
#include <sched.h>
#include <timer.h>
#include <buffer_head.h>
#include <mm.h>
#include <pagemap.h>
#include <jbd.h>

#ifdef CONFIG_LOCKDEP
/* The handle as a lock class for the validator ("jbd_handle"): acquired at
 * the outermost journal_start, released at its journal_stop.  A task that
 * takes a page lock while holding a handle records handle -> page lock,
 * the inversion of the order 2.6.24's ext3 follows (mm/filemap.c). */
#define handle_acquire(j) lock_acquire(&(j)->j_handle_map, "jbd_handle", (j), \
                                       LD_MUTEX, 0, 0, _RET_IP_)
#define handle_release(j) lock_release(&(j)->j_handle_map, (j), _RET_IP_)
#else
#define handle_acquire(j) do { } while (0)
#define handle_release(j) do { } while (0)
#endif

static transaction_t *new_transaction(journal_t *journal)
{
    transaction_t *t = kzalloc(sizeof(*t), GFP_KERNEL);
    if (!t)
        return NULL;
    t->t_journal = journal;
    t->t_state = T_RUNNING;             /* t_tid and t_expires: when it runs */
    INIT_LIST_HEAD(&t->t_buffers);
    INIT_LIST_HEAD(&t->t_reserved_list);
    INIT_LIST_HEAD(&t->t_sync_datalist);
    INIT_LIST_HEAD(&t->t_checkpoint_list);
    INIT_LIST_HEAD(&t->t_cplist);
    return t;
}

/* Join the running transaction with handle's credits (Linux's
 * start_this_handle).  Waits, holding nothing, while a transaction
 * commits, while the running one has no room for the credits (it is
 * committed first), or while the log has no room (log_wait_for_space). */
static int start_this_handle(journal_t *journal, handle_t *handle)
{
    int nblocks = handle->h_buffer_credits;
    transaction_t *new = NULL;
    handle->h_journal = journal;
repeat:
    mutex_lock(&journal->j_state_lock);
    BUG_ON(!(journal->j_flags & JFS_WRITABLE));     /* journal_load first */
    if (is_journal_aborted(journal)) {
        mutex_unlock(&journal->j_state_lock);
        kfree(new);
        return -EROFS;
    }
    if (journal->j_committing_transaction) {
        mutex_unlock(&journal->j_state_lock);
        wait_event(journal->j_wait_transaction_locked,
                   !journal->j_committing_transaction || is_journal_aborted(journal));
        goto repeat;
    }
    transaction_t *t = journal->j_running_transaction;
    int needed = (t ? t->t_outstanding_credits : 0) + nblocks;
    if (t && needed > journal->j_max_transaction_buffers) {
        /* Full: commit it, then join the next one. */
        tid_t tid = t->t_tid;
        mutex_unlock(&journal->j_state_lock);
        log_start_commit(journal, tid);
        log_wait_commit(journal, tid);
        goto repeat;
    }
    if (jbd_log_blocks(journal, needed) + 1 > journal->j_free) {
        /* No room in the log (checked before a new transaction takes an
         * ID: an empty one would be committed for nothing).  One block
         * stays free, so that the head never reaches the tail. */
        mutex_unlock(&journal->j_state_lock);
        log_wait_for_space(journal, needed);
        goto repeat;
    }
    if (!t) {
        if (!new) {
            mutex_unlock(&journal->j_state_lock);
            new = new_transaction(journal);   /* allocated unlocked */
            if (!new)
                return -ENOMEM;
            goto repeat;
        }
        new->t_tid = journal->j_transaction_sequence++;
        new->t_expires = jiffies + journal->j_commit_interval;
        journal->j_running_transaction = t = new;
        new = NULL;
        wake_up(&journal->j_wait_commit);     /* kjournald: its expiry */
    }
    t->t_updates++;
    t->t_outstanding_credits += nblocks;
    handle->h_transaction = t;
    mutex_unlock(&journal->j_state_lock);
    kfree(new);                          /* another task started one first */
    return 0;
}

handle_t *journal_start(journal_t *journal, int nblocks)
{
    handle_t *handle = current->journal_info;
    if (handle) {
        BUG_ON(handle->h_journal != journal);   /* one journal per task */
        handle->h_ref++;
        return handle;
    }
    if (nblocks <= 0 || nblocks > journal->j_max_transaction_buffers) {
        printk(KERN_ERR "JBD: %s: a handle wants %d credits (a transaction holds %d)\n",
               journal->j_devname, nblocks, journal->j_max_transaction_buffers);
        return ERR_PTR(-ENOSPC);
    }
    /* Allocations under a handle would want Linux's GFP_NOFS; Vellum's
     * direct reclaim never calls into a filesystem (only kswapd writes
     * pages: mm/filemap.c's LOCK ORDER), so GFP_KERNEL cannot recurse. */
    handle = kzalloc(sizeof(*handle), GFP_KERNEL);
    if (!handle)
        return ERR_PTR(-ENOMEM);
    handle->h_buffer_credits = nblocks;
    handle->h_ref = 1;
    handle_acquire(journal);
    int err = start_this_handle(journal, handle);
    if (err) {
        handle_release(journal);
        kfree(handle);
        return ERR_PTR(err);
    }
    current->journal_info = handle;
    return handle;
}

int journal_stop(handle_t *handle)
{
    transaction_t *t = handle->h_transaction;
    journal_t *journal = handle->h_journal;
    BUG_ON(current->journal_info != handle);
    if (--handle->h_ref > 0)
        return 0;
    if (!t) {                            /* a failed journal_restart: aborted */
        current->journal_info = NULL;
        handle_release(journal);
        kfree(handle);
        return -EROFS;
    }
    mutex_lock(&journal->j_state_lock);
    t->t_outstanding_credits -= handle->h_buffer_credits;   /* the unused ones */
    BUG_ON(t->t_updates <= 0);
    t->t_updates--;
    int commit = handle->h_sync ||
                 t->t_outstanding_credits > journal->j_max_transaction_buffers ||
                 time_after(jiffies, t->t_expires);
    tid_t tid = t->t_tid;
    if (!t->t_updates)
        wake_up_all(&journal->j_wait_updates);
    mutex_unlock(&journal->j_state_lock);
    current->journal_info = NULL;
    handle_release(journal);
    int err = 0;
    if (commit) {
        log_start_commit(journal, tid);
        if (handle->h_sync)
            err = log_wait_commit(journal, tid);
    }
    kfree(handle);
    return err;
}

int journal_extend(handle_t *handle, int nblocks)
{
    transaction_t *t = handle->h_transaction;
    journal_t *journal = handle->h_journal;
    if (!t || is_journal_aborted(journal))
        return -EROFS;
    int result = 1;
    mutex_lock(&journal->j_state_lock);
    int wanted = t->t_outstanding_credits + nblocks;
    /* A transaction the commit has locked takes no more (its handles are
     * being waited for); neither does a full one, nor a full log. */
    if (t->t_state == T_RUNNING && wanted <= journal->j_max_transaction_buffers &&
        jbd_log_blocks(journal, wanted) + 1 <= journal->j_free) {
        handle->h_buffer_credits += nblocks;
        t->t_outstanding_credits += nblocks;
        result = 0;
    }
    mutex_unlock(&journal->j_state_lock);
    return result;
}

int journal_restart(handle_t *handle, int nblocks)
{
    transaction_t *t = handle->h_transaction;
    journal_t *journal = handle->h_journal;
    BUG_ON(current->journal_info != handle);
    if (!t)
        return -EROFS;
    /* Leave the transaction as journal_stop does (a handle's unused credits
     * go back), and ask for its commit: start_this_handle waits for it. */
    mutex_lock(&journal->j_state_lock);
    t->t_outstanding_credits -= handle->h_buffer_credits;
    BUG_ON(t->t_updates <= 0);
    t->t_updates--;
    tid_t tid = t->t_tid;
    if (!t->t_updates)
        wake_up_all(&journal->j_wait_updates);
    mutex_unlock(&journal->j_state_lock);
    handle->h_transaction = NULL;
    log_start_commit(journal, tid);
    handle->h_buffer_credits = nblocks;
    int err = start_this_handle(journal, handle);
    if (err) {
        /* The caller's change is half done and cannot go on: the journal
         * stops here, as ext3 aborts on a failed restart, so that the
         * half is never followed by anything on disk. */
        journal_abort(journal, err);
        return err;
    }
    return 0;
}

/* Linux 2.6.24's starts a handle with h_sync and stops it; a handle needs
 * log room, so on a full log that would commit an empty transaction of its
 * own.  This commits the running transaction, if any, directly (as JBD2's
 * jbd2_journal_force_commit_nested does), or waits for the committing one. */
int journal_force_commit(journal_t *journal)
{
    BUG_ON(current->journal_info);       /* it waits for every handle */
    mutex_lock(&journal->j_state_lock);
    /* No running transaction: the one kjournald is committing may still
     * hold the caller's changes (Linux's start of a handle waits for it). */
    transaction_t *t = journal->j_running_transaction;
    if (!t)
        t = journal->j_committing_transaction;
    tid_t tid = t ? t->t_tid : 0;
    mutex_unlock(&journal->j_state_lock);
    if (is_journal_aborted(journal))
        return -EROFS;
    if (!t)
        return 0;                        /* everything is committed */
    log_start_commit(journal, tid);
    return log_wait_commit(journal, tid);
}

/* The block is logged again after being revoked in this transaction: the
 * revoke would hide the new copy (recovery skips a block revoked by a
 * transaction at or after the one that logged it), so it goes (Linux's
 * journal_cancel_revoke). */
static void cancel_revoke(transaction_t *t, unsigned long blocknr)
{
    for (int i = 0; i < t->t_nr_revokes; i++) {
        if (t->t_revoke[i] == blocknr) {
            t->t_revoke[i] = t->t_revoke[--t->t_nr_revokes];
            return;
        }
    }
}

static int do_get_access(handle_t *handle, struct buffer_head *bh, int create)
{
    transaction_t *t = handle->h_transaction;
    journal_t *journal = handle->h_journal;
    BUG_ON(bh->b_page || bh->b_bdev != journal->j_dev);    /* metadata of this fs */
    if (!t || is_journal_aborted(journal))
        return -EROFS;
    /* A write of the buffer in flight (a checkpoint, the flusher) holds
     * b_lock: let it finish before the bytes change (Linux waits on the
     * buffer lock the same way). */
    mutex_lock(&bh->b_lock);
    mutex_lock(&journal->j_state_lock);
    struct journal_head *jh = journal_add_journal_head(journal, bh);
    if (!jh) {
        mutex_unlock(&journal->j_state_lock);
        mutex_unlock(&bh->b_lock);
        return -ENOMEM;
    }
    if (jh->b_transaction != t) {
        BUG_ON(jh->b_transaction);       /* only one transaction changes buffers */
        if (buffer_dirty(bh)) {
            /* Dirty but not ours: a committed copy on its way home (then it
             * is on a checkpoint list), or a change made outside any handle
             * (a bug in the caller: that change is now logged with ours).
             * Either way the newer bytes must wait for our commit. */
            WARN_ON(!jh->b_cp_transaction && !create);
            clear_buffer_dirty(bh);
            set_buffer_jbddirty(bh);
        }
        jh->b_transaction = t;
        jh->b_jlist = BJ_Reserved;
        list_add_tail(&jh->b_tlist, &t->t_reserved_list);
    }
    cancel_revoke(t, bh->b_blocknr);
    mutex_unlock(&journal->j_state_lock);
    mutex_unlock(&bh->b_lock);
    return 0;
}

int journal_get_write_access(handle_t *handle, struct buffer_head *bh)
{
    return do_get_access(handle, bh, 0);
}

int journal_get_create_access(handle_t *handle, struct buffer_head *bh)
{
    return do_get_access(handle, bh, 1);
}

/* One of the handle's credits is used (a buffer joins the transaction, a
 * revoke record).  A handle that uses more than it reserved is the
 * caller's miscount (Linux 2.6.24 asserts; Vellum WARNs and counts the
 * extra buffer against the transaction, whose log space the commit checks
 * again: a quarter of the log is far from full).  Under j_state_lock. */
static void use_credit(handle_t *handle)
{
    if (WARN(handle->h_buffer_credits <= 0, "JBD: %s: a handle used more credits than it "
             "reserved", handle->h_journal->j_devname))
        handle->h_transaction->t_outstanding_credits++;
    else
        handle->h_buffer_credits--;
}

int journal_dirty_metadata(handle_t *handle, struct buffer_head *bh)
{
    transaction_t *t = handle->h_transaction;
    journal_t *journal = handle->h_journal;
    if (!t || is_journal_aborted(journal))
        return -EROFS;
    mutex_lock(&journal->j_state_lock);
    struct journal_head *jh = bh->b_private;
    /* The contract: write access first, in this transaction. */
    BUG_ON(!buffer_jbd(bh) || jh->b_transaction != t);
    set_buffer_jbddirty(bh);
    if (jh->b_jlist != BJ_Metadata) {
        use_credit(handle);
        list_move_tail(&jh->b_tlist, &t->t_buffers);
        jh->b_jlist = BJ_Metadata;
        t->t_nr_buffers++;
    }
    mutex_unlock(&journal->j_state_lock);
    return 0;
}

int journal_revoke(handle_t *handle, unsigned long blocknr, struct buffer_head *bh)
{
    transaction_t *t = handle->h_transaction;
    journal_t *journal = handle->h_journal;
    if (!t || is_journal_aborted(journal))
        return -EROFS;
    int err = journal_set_features(journal, JFS_FEATURE_INCOMPAT_REVOKE);
    if (err)
        return err;
    struct buffer_head *cached = bh ? bh : __find_get_block(journal->j_dev, blocknr,
                                                            journal->j_blocksize);
    mutex_lock(&journal->j_state_lock);
    if (t->t_nr_revokes == t->t_max_revokes) {
        int max = t->t_max_revokes ? 2 * t->t_max_revokes : 16;
        unsigned long *r = kmalloc(max * sizeof(*r), GFP_KERNEL);
        if (!r) {
            mutex_unlock(&journal->j_state_lock);
            if (!bh)
                brelse(cached);
            return -ENOMEM;
        }
        if (t->t_nr_revokes)
            memcpy(r, t->t_revoke, t->t_nr_revokes * sizeof(*r));
        kfree(t->t_revoke);
        t->t_revoke = r;
        t->t_max_revokes = max;
    }
    cancel_revoke(t, blocknr);           /* at most one record per block */
    t->t_revoke[t->t_nr_revokes++] = blocknr;
    use_credit(handle);
    if (cached && buffer_jbd(cached)) {
        /* Freed: its bytes must never reach the log or home again (Linux's
         * journal_forget).  The revoke record, once committed, stops the
         * replay of its older logged copies. */
        struct journal_head *jh = cached->b_private;
        clear_buffer_jbddirty(cached);
        clear_buffer_dirty(cached);
        if (jh->b_transaction == t) {
            if (jh->b_jlist == BJ_Metadata)
                t->t_nr_buffers--;
            list_del_init(&jh->b_tlist);
            jh->b_transaction = NULL;
            jh->b_jlist = BJ_None;
        }
        if (jh->b_cp_transaction)
            __journal_remove_checkpoint(journal, jh);
        journal_put_journal_head(jh);
    } else if (cached) {
        clear_buffer_dirty(cached);
    }
    mutex_unlock(&journal->j_state_lock);
    if (!bh)
        brelse(cached);
    return 0;
}

/* ---- ordered data ---- */

int journal_dirty_data(handle_t *handle, struct buffer_head *bh)
{
    transaction_t *t = handle->h_transaction;
    journal_t *journal = handle->h_journal;
    BUG_ON(!bh->b_page || !PageLocked(bh->b_page) || !buffer_mapped(bh));
    if (!t || is_journal_aborted(journal))
        return -EROFS;
    if (buffer_jbd(bh)) {
        /* Filed already, and in this transaction: a commit unfiles every
         * buffer it wrote, and no handle runs until it has finished. */
        BUG_ON(((struct journal_head *)bh->b_private)->b_transaction != t);
        return 0;
    }
    struct journal_head *jh = kzalloc(sizeof(*jh), GFP_KERNEL);
    if (!jh)
        return -ENOMEM;
    jh->b_bh = bh;
    INIT_LIST_HEAD(&jh->b_cplist);
    mutex_lock(&journal->j_state_lock);
    jh->b_transaction = t;
    jh->b_jlist = BJ_SyncData;
    list_add_tail(&jh->b_tlist, &t->t_sync_datalist);
    bh->b_private = jh;
    set_buffer_jbd(bh);                  /* under the page lock: see journal_try_to_free_buffers */
    mutex_unlock(&journal->j_state_lock);
    return 0;
}

/* Take a data buffer's journal_head off its transaction and free it.
 * Under j_state_lock. */
void __journal_unfile_data(struct journal_head *jh)
{
    struct buffer_head *bh = jh->b_bh;
    BUG_ON(jh->b_jlist != BJ_SyncData);
    list_del(&jh->b_tlist);
    bh->b_private = NULL;
    clear_buffer_jbd(bh);
    kfree(jh);
}

void journal_invalidatepage(journal_t *journal, struct page *page, unsigned long offset)
{
    BUG_ON(!PageLocked(page) || current->journal_info);
    if (!PagePrivate(page))
        return;
repeat:
    mutex_lock(&journal->j_state_lock);
    struct buffer_head *head = page_buffers(page), *bh = head;
    unsigned long start = 0;
    do {
        if (start >= offset && buffer_jbd(bh)) {
            struct journal_head *jh = bh->b_private;
            transaction_t *t = jh->b_transaction;
            if (t != journal->j_running_transaction) {
                BUG_ON(t != journal->j_committing_transaction);
                /* Being committed: its data pass may be writing bh right
                 * now, and unfiles it when the commit ends.  The commit
                 * takes no page lock, so waiting here under ours is safe
                 * (mm/filemap.c's LOCK ORDER). */
                mutex_unlock(&journal->j_state_lock);
                wait_event(journal->j_wait_done_commit,
                           journal->j_committing_transaction != t);
                goto repeat;
            }
            __journal_unfile_data(jh);
        }
        start += bh->b_size;
        bh = bh->b_this_page;
    } while (bh != head);
    mutex_unlock(&journal->j_state_lock);
}

/* No j_state_lock (reclaim may call this from a task that holds it, in a
 * kmalloc): BH_JBD is set only under the page lock, which the caller
 * holds; a commit may clear it meanwhile, and then the buffers are only
 * kept until the next try. */
int journal_try_to_free_buffers(struct page *page)
{
    if (PagePrivate(page)) {
        struct buffer_head *head = page_buffers(page), *bh = head;
        do {
            if (buffer_jbd(bh))
                return 0;
            bh = bh->b_this_page;
        } while (bh != head);
    }
    return try_to_free_buffers(page);
}
