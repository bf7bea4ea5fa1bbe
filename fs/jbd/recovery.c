/* fs/jbd/recovery.c: replaying a journal's log after a crash, as Linux's
 * fs/jbd/recovery.c does, in three passes over the log from s_start
 * (transaction s_sequence):
 *
 *   PASS_SCAN    find the end of the log: follow descriptor, revoke and
 *                commit blocks while each carries the next expected
 *                transaction ID; the log ends at the first block that does
 *                not (no magic, another ID, an unknown type).  Only
 *                transactions with their commit block count: a transaction
 *                cut short by the crash is not replayed.
 *   PASS_REVOKE  read every revoke block of the committed transactions into
 *                the revoke table: block -> the highest transaction that
 *                revoked it.
 *   PASS_REPLAY  write each logged block of the committed transactions to
 *                its home location, in log order (a later copy overwrites an
 *                earlier one), unless a transaction at or after this one
 *                revoked it; an escaped block gets its magic number back.
 *
 * Also the revoke table itself (Linux keeps it in fs/jbd/revoke.c, with
 * the revoke records a running transaction writes; Vellum's running
 * transaction keeps its records in a plain array, transaction.c).
 *
 * Layer: JBD (include/jbd.h).  Called by journal_load (journal.c) at mount,
 * before the filesystem reads anything else it may replay.  Blocks are
 * written home through the buffer cache (so a cached buffer of the same
 * block, e.g. the ext2 superblock's, sees the replayed bytes) and flushed
 * with sync_blockdev before journal_recover returns.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <list.h>
#include <buffer_head.h>
#include <jbd.h>

enum passtype { PASS_SCAN, PASS_REVOKE, PASS_REPLAY };

/* ---- the revoke table ---- */
#define REVOKE_HASH_SIZE 256           /* a power of two */

struct jbd_revoke_record {
    struct list_head hash;
    unsigned long blocknr;
    tid_t sequence;                    /* the highest transaction revoking it */
};

struct jbd_revoke_table {
    struct list_head hash[REVOKE_HASH_SIZE];
};

static struct list_head *revoke_chain(journal_t *journal, unsigned long blocknr)
{
    return &journal->j_revoke->hash[(blocknr * 2654435761u) >> 24 & (REVOKE_HASH_SIZE - 1)];
}

static struct jbd_revoke_record *find_revoke_record(journal_t *journal, unsigned long blocknr)
{
    struct jbd_revoke_record *r;
    list_for_each_entry(r, revoke_chain(journal, blocknr), hash)
        if (r->blocknr == blocknr)
            return r;
    return NULL;
}

/* Transaction sequence revokes blocknr: remember the highest such. */
static int set_revoke(journal_t *journal, unsigned long blocknr, tid_t sequence)
{
    struct jbd_revoke_record *r = find_revoke_record(journal, blocknr);
    if (r) {
        if (tid_gt(sequence, r->sequence))
            r->sequence = sequence;
        return 0;
    }
    r = kmalloc(sizeof(*r), GFP_KERNEL);
    if (!r)
        return -ENOMEM;
    r->blocknr = blocknr;
    r->sequence = sequence;
    list_add(&r->hash, revoke_chain(journal, blocknr));
    return 0;
}

/* Must the copy of blocknr logged in transaction sequence be skipped?  Yes
 * if a transaction at or after it revoked the block. */
static int test_revoke(journal_t *journal, unsigned long blocknr, tid_t sequence)
{
    struct jbd_revoke_record *r = find_revoke_record(journal, blocknr);
    return r && !tid_gt(sequence, r->sequence);
}

static void clear_revoke(journal_t *journal)
{
    struct jbd_revoke_record *r, *n;
    if (!journal->j_revoke)
        return;
    for (int i = 0; i < REVOKE_HASH_SIZE; i++)
        list_for_each_entry_safe(r, n, &journal->j_revoke->hash[i], hash)
            kfree(r);
    kfree(journal->j_revoke);
    journal->j_revoke = NULL;
}

static int init_revoke(journal_t *journal)
{
    journal->j_revoke = kmalloc(sizeof(*journal->j_revoke), GFP_KERNEL);
    if (!journal->j_revoke)
        return -ENOMEM;
    for (int i = 0; i < REVOKE_HASH_SIZE; i++)
        INIT_LIST_HEAD(&journal->j_revoke->hash[i]);
    return 0;
}

/* ---- the passes ---- */

/* The log is circular: past its last block comes its first. */
static unsigned long wrap(journal_t *journal, unsigned long block)
{
    return block >= journal->j_last ? block - (journal->j_last - journal->j_first) : block;
}

/*
 * How many tags a descriptor block has: as many log blocks follow it.  A tag
 * is JFS_TAG_SIZE32 bytes, followed by a UUID unless it has SAME_UUID; the
 * list ends at LAST_TAG or where no whole tag fits (the replay pass walks
 * the tags the same way).
 */
static int count_tags(journal_t *journal, struct buffer_head *bh)
{
    char *tagp = bh->b_data + sizeof(journal_header_t);
    int nr = 0;
    while ((size_t)(tagp - bh->b_data) + JFS_TAG_SIZE32 <= journal->j_blocksize) {
        journal_block_tag_t *tag = (journal_block_tag_t *)tagp;
        uint16_t flags = be16_to_cpu(tag->t_flags);
        nr++;
        tagp += JFS_TAG_SIZE32;
        if (!(flags & JFS_FLAG_SAME_UUID))
            tagp += JFS_UUID_SIZE;
        if (flags & JFS_FLAG_LAST_TAG)
            break;
    }
    return nr;
}

/* Copy log block io_block home to blocknr, un-escaping it if flags say so. */
static int replay_block(journal_t *journal, unsigned long io_block, unsigned long blocknr,
                        uint16_t flags)
{
    if (blocknr >= journal->j_fs_nr_blocks) {
        printk(KERN_ERR "JBD: %s: journal block %lu belongs to block %lu, past the "
               "filesystem's end (%lu)\n", journal->j_devname, io_block, blocknr,
               journal->j_fs_nr_blocks);
        return -EIO;
    }
    struct buffer_head *obh = jread(journal, io_block);
    if (!obh)
        return -EIO;
    struct buffer_head *nbh = __getblk(journal->j_dev, blocknr, journal->j_blocksize);
    if (!nbh) {
        brelse(obh);
        printk(KERN_ERR "JBD: %s: cannot get a buffer for block %lu\n",
               journal->j_devname, blocknr);
        return -EIO;
    }
    memcpy(nbh->b_data, obh->b_data, journal->j_blocksize);
    if (flags & JFS_FLAG_ESCAPE)
        *(uint32_t *)nbh->b_data = cpu_to_be32(JFS_MAGIC_NUMBER);
    set_buffer_uptodate(nbh);
    mark_buffer_dirty(nbh);
    brelse(nbh);
    brelse(obh);
    return 0;
}

/* The revoke records of one revoke block, for transaction sequence. */
static int scan_revoke_records(journal_t *journal, struct buffer_head *bh, tid_t sequence,
                               struct recovery_info *info)
{
    journal_revoke_header_t *header = (journal_revoke_header_t *)bh->b_data;
    unsigned long max = be32_to_cpu(header->r_count);
    if (max > journal->j_blocksize || max < JFS_REVOKE_RECORDS) {
        printk(KERN_ERR "JBD: %s: revoke block of transaction %u has a bad r_count %lu\n",
               journal->j_devname, sequence, max);
        return -EIO;
    }
    for (unsigned long off = JFS_REVOKE_RECORDS; off + 4 <= max; off += 4) {
        unsigned long blocknr = be32_to_cpu(*(uint32_t *)(bh->b_data + off));
        int err = set_revoke(journal, blocknr, sequence);
        if (err)
            return err;
        info->nr_revokes++;
    }
    return 0;
}

static int do_one_pass(journal_t *journal, struct recovery_info *info, enum passtype pass)
{
    journal_superblock_t *sb = journal->j_superblock;
    tid_t next_commit_ID = be32_to_cpu(sb->s_sequence);
    unsigned long next_log_block = be32_to_cpu(sb->s_start);
    unsigned long nr_read = 0;
    int err, success = 0;

    if (pass == PASS_SCAN)
        info->start_transaction = next_commit_ID;
    for (;;) {
        /* The scan found where the log ends; the other passes stop there. */
        if (pass != PASS_SCAN && tid_geq(next_commit_ID, info->end_transaction))
            break;
        /* A log is never longer than the journal (+ 1: the block after a
         * full log, read to find its end).  A corrupt one could be: a
         * circle of revoke blocks of one transaction, never committed,
         * would keep the pass going round for ever.  (Linux has no such
         * check; Vellum never hangs on a bad disk.) */
        if (++nr_read > journal->j_last - journal->j_first + 1) {
            printk(KERN_ERR "JBD: %s: the log runs round the whole journal from block %u: "
                   "corrupt\n", journal->j_devname, be32_to_cpu(sb->s_start));
            return -EIO;
        }
        unsigned long this_block = next_log_block;
        struct buffer_head *bh = jread(journal, next_log_block);
        if (!bh)
            return -EIO;
        next_log_block = wrap(journal, next_log_block + 1);
        journal_header_t *h = (journal_header_t *)bh->b_data;
        uint32_t blocktype = be32_to_cpu(h->h_blocktype);
        tid_t sequence = be32_to_cpu(h->h_sequence);
        if (be32_to_cpu(h->h_magic) != JFS_MAGIC_NUMBER || sequence != next_commit_ID) {
            brelse(bh);                 /* not part of this log: its end */
            break;
        }
        switch (blocktype) {
        case JFS_DESCRIPTOR_BLOCK:
            if (pass != PASS_REPLAY) {
                next_log_block = wrap(journal, next_log_block + count_tags(journal, bh));
                brelse(bh);
                continue;
            }
            char *tagp = bh->b_data + sizeof(journal_header_t);
            while ((size_t)(tagp - bh->b_data) + JFS_TAG_SIZE32 <= journal->j_blocksize) {
                journal_block_tag_t *tag = (journal_block_tag_t *)tagp;
                uint16_t flags = be16_to_cpu(tag->t_flags);
                unsigned long blocknr = be32_to_cpu(tag->t_blocknr);
                unsigned long io_block = next_log_block;
                next_log_block = wrap(journal, next_log_block + 1);
                if (test_revoke(journal, blocknr, next_commit_ID)) {
                    info->nr_revoke_hits++;
                } else if ((err = replay_block(journal, io_block, blocknr, flags))) {
                    success = err;      /* replay what we can; fail at the end */
                } else {
                    info->nr_replays++;
                }
                tagp += JFS_TAG_SIZE32;
                if (!(flags & JFS_FLAG_SAME_UUID))
                    tagp += JFS_UUID_SIZE;
                if (flags & JFS_FLAG_LAST_TAG)
                    break;
            }
            brelse(bh);
            continue;
        case JFS_COMMIT_BLOCK:
            brelse(bh);
            next_commit_ID++;
            continue;
        case JFS_REVOKE_BLOCK:
            if (pass == PASS_REVOKE) {
                err = scan_revoke_records(journal, bh, next_commit_ID, info);
                if (err) {
                    brelse(bh);
                    return err;
                }
            }
            brelse(bh);
            continue;
        default:
            /* As Linux: an unknown block type in sequence ends the log. */
            printk(KERN_WARNING "JBD: %s: unrecognised block type %u at journal block %lu: "
                   "end of log\n", journal->j_devname, blocktype, this_block);
            brelse(bh);
            goto done;
        }
    }
done:
    if (pass == PASS_SCAN) {
        info->end_transaction = next_commit_ID;
    } else if (info->end_transaction != next_commit_ID) {
        /* The passes read the same blocks: they can only disagree if the
         * disk did (an I/O error, or a block that changed under us). */
        printk(KERN_ERR "JBD: %s: recovery pass %d ended at transaction %u, expected %u\n",
               journal->j_devname, pass, next_commit_ID, info->end_transaction);
        if (!success)
            success = -EIO;
    }
    return success;
}

int journal_recover(journal_t *journal)
{
    struct recovery_info *info = &journal->j_recovery_info;
    int err;

    memset(info, 0, sizeof(*info));
    err = init_revoke(journal);
    if (err)
        return err;
    err = do_one_pass(journal, info, PASS_SCAN);
    if (!err)
        err = do_one_pass(journal, info, PASS_REVOKE);
    if (!err)
        err = do_one_pass(journal, info, PASS_REPLAY);
    clear_revoke(journal);
    /* Restart the log one ID past the end (as Linux): not even the
     * uncommitted transaction end_transaction, whose blocks may still lie
     * in the log, can be mistaken for a new one. */
    journal->j_transaction_sequence = info->end_transaction + 1;
    int e = sync_blockdev(journal->j_dev);
    if (e) {
        printk(KERN_ERR "JBD: %s: writing the replayed blocks failed (%d)\n",
               journal->j_devname, e);
        if (!err)
            err = e;
    }
    return err;
}

int journal_skip_recovery(journal_t *journal)
{
    struct recovery_info *info = &journal->j_recovery_info;
    memset(info, 0, sizeof(*info));
    int err = do_one_pass(journal, info, PASS_SCAN);
    if (err)
        return err;
    journal->j_transaction_sequence = info->end_transaction + 1;
    return 0;
}
