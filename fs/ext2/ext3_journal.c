/* fs/ext2/ext3_journal.c: ext3's use of the journal (fs/jbd/): the calls
 * ext2's code makes around each metadata change, which are JBD's handle
 * calls on a filesystem mounted read-write with a journal (sbi->s_journal)
 * and ext2's own on every other (mark_buffer_dirty, bforget).  Linux keeps
 * these in fs/ext3/ext3_jbd.c.
 *
 * Layer: the filesystem (fs/ext2/), above JBD (include/jbd.h) and the
 * buffer cache.  The handle is the task's (current->journal_info): a
 * system call starts it (ext3_journal_start, in namei.c and inode.c) and
 * every change below it joins it, so ext2's functions keep their
 * arguments.  The lock order (mm/filemap.c): page lock, then the handle,
 * then truncate_mutex and s_lock.
 *
 * Data is not journaled: ext3 runs in data=ordered mode, whose a_ops
 * (ext3_ordered.c) file a write's data buffers with the transaction that
 * allocates their blocks, and the commit writes them first.
 */
#include <kernel.h>
#include <errno.h>
#include <err.h>
#include <sched.h>
#include <jbd.h>
#include "ext2.h"

/* The ext2 halves (no journal) are inline in ext2.h; these are ext3's. */
handle_t *ext3_journal_start_sb(struct super_block *sb, int nblocks)
{
    journal_t *journal = EXT2_SB(sb)->s_journal;
    if (nblocks > journal->j_max_transaction_buffers)
        nblocks = journal->j_max_transaction_buffers;  /* "as much as one holds" */
    return journal_start(journal, nblocks);
}

int ext3_journal_stop_handle(handle_t *handle)
{
    return journal_stop(handle);
}

/* The running handle of an ext3 change: every caller is inside one. */
static handle_t *ext3_handle(void)
{
    handle_t *handle = current->journal_info;
    BUG_ON(!handle);                     /* a metadata change outside a system call's handle */
    return handle;
}

int ext3_get_write_access(struct buffer_head *bh)
{
    return journal_get_write_access(ext3_handle(), bh);
}

int ext3_get_create_access(struct buffer_head *bh)
{
    return journal_get_create_access(ext3_handle(), bh);
}

int ext3_dirty_metadata(struct buffer_head *bh)
{
    return journal_dirty_metadata(ext3_handle(), bh);
}

void ext2_journal_forget(struct super_block *sb, struct buffer_head *bh)
{
    if (!EXT2_SB(sb)->s_journal) {
        bforget(bh);
        return;
    }
    /* Freed metadata: a revoke record, so that no older logged copy is
     * replayed over what the block holds next (Linux's ext3_forget). */
    journal_revoke(ext3_handle(), bh->b_blocknr, bh);
    brelse(bh);
}

void ext2_journal_revoke(struct super_block *sb, unsigned long blocknr)
{
    if (EXT2_SB(sb)->s_journal)
        journal_revoke(ext3_handle(), blocknr, NULL);
}
