/* fs/jbd/recovery.c: replaying a journal's log after a crash, as Linux's
 * fs/jbd/recovery.c does, in three passes over the log from s_start
 * (transaction s_sequence), a function each (Linux's do_one_pass does all
 * three, told which by its pass argument):
 *
 *   PASS_SCAN    scan_pass: find the end of the log.  Follow descriptor,
 *                revoke and commit blocks while each carries the next
 *                expected transaction ID; the log ends at the first block
 *                that does not (no magic, another ID, an unknown type).
 *                Only transactions with their commit block count: a
 *                transaction cut short by the crash is not replayed.
 *   PASS_REVOKE  revoke_pass: read every revoke block of the committed
 *                transactions into the revoke table: block -> the highest
 *                transaction that revoked it.
 *   PASS_REPLAY  replay_pass: write each logged block of the committed
 *                transactions to its home location, in log order (a later
 *                copy overwrites an earlier one), unless a transaction at
 *                or after this one revoked it; an escaped block gets its
 *                magic number back.
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

/* ---- the log's layout: its circle, a descriptor's tags ---- */

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

/* ---- walking the log: what every pass does ---- */

/* Where a pass is in the log: the next block to read, the transaction
 * expected there, and how many blocks the pass has read (walk_read). */
struct log_walk {
    unsigned long next_log_block;
    tid_t next_commit_ID;
    unsigned long nr_read;
};

/* Every pass starts where the journal superblock says the log starts:
 * block s_start, transaction s_sequence. */
static void walk_start(journal_t *journal, struct log_walk *w)
{
    journal_superblock_t *sb = journal->j_superblock;
    w->next_log_block = be32_to_cpu(sb->s_start);
    w->next_commit_ID = be32_to_cpu(sb->s_sequence);
    w->nr_read = 0;
}

/*
 * Read the log block at w->next_log_block (a descriptor, commit or revoke
 * block, or whatever lies past the log's end) and move next_log_block past
 * it, wrapping.  The buffer, to brelse; NULL on an error (-EIO: the read
 * failed, or the log is longer than the journal).
 *
 * A log is never longer than the journal (+ 1: the block after a full log,
 * read to find its end).  A corrupt one could be: a circle of revoke blocks
 * of one transaction, never committed, would keep a pass going round for
 * ever.  (Linux has no such check; Vellum never hangs on a bad disk.)
 */
static struct buffer_head *walk_read(journal_t *journal, struct log_walk *w)
{
    if (++w->nr_read > journal->j_last - journal->j_first + 1) {
        printk(KERN_ERR "JBD: %s: the log runs round the whole journal from block %u: "
               "corrupt\n", journal->j_devname, be32_to_cpu(journal->j_superblock->s_start));
        return NULL;
    }
    struct buffer_head *bh = jread(journal, w->next_log_block);
    if (!bh)
        return NULL;
    w->next_log_block = wrap(journal, w->next_log_block + 1);
    return bh;
}

/* A pass after the scan must end where the scan did: at end_transaction.
 * The passes read the same blocks, so they can only disagree if the disk
 * did (an I/O error, or a block that changed under us).  0 or -EIO. */
static int walk_end(journal_t *journal, struct recovery_info *info, struct log_walk *w,
                    const char *pass)
{
    if (w->next_commit_ID == info->end_transaction)
        return 0;
    printk(KERN_ERR "JBD: %s: the %s pass ended at transaction %u, expected %u\n",
           journal->j_devname, pass, w->next_commit_ID, info->end_transaction);
    return -EIO;
}

/* ---- the three passes ----
 *
 * Linux 2.6.24 has one function, do_one_pass(journal, info, pass), that
 * walks the log and does what PASS_SCAN, PASS_REVOKE or PASS_REPLAY asks at
 * each block.  Vellum gives each pass a function of its own (scan_pass,
 * revoke_pass, replay_pass), each a walk of the log with walk_start and
 * walk_read, so that each pass reads alone; what they do is Linux's.
 */

/*
 * PASS_SCAN: find the end of the log.  Walk it from s_start expecting
 * transaction s_sequence: a descriptor block is skipped together with the
 * logged blocks its tags announce (count_tags), a revoke block is skipped,
 * a commit block completes its transaction (the next one is expected
 * next).  The log ends at the first block without the magic number, with
 * another transaction's ID (left from an earlier round of the circle), or
 * of an unknown type.  Sets info->start_transaction and
 * info->end_transaction (one past the last transaction whose commit block
 * was found).  0, or -EIO.
 */
static int scan_pass(journal_t *journal, struct recovery_info *info)
{
    struct log_walk w;

    walk_start(journal, &w);
    info->start_transaction = w.next_commit_ID;
    for (;;) {
        unsigned long this_block = w.next_log_block;
        struct buffer_head *bh = walk_read(journal, &w);
        if (!bh)
            return -EIO;
        journal_header_t *h = (journal_header_t *)bh->b_data;
        uint32_t blocktype = be32_to_cpu(h->h_blocktype);
        if (be32_to_cpu(h->h_magic) != JFS_MAGIC_NUMBER ||
            be32_to_cpu(h->h_sequence) != w.next_commit_ID) {
            brelse(bh);                 /* not part of this log: its end */
            break;
        }
        if (blocktype == JFS_DESCRIPTOR_BLOCK) {
            w.next_log_block = wrap(journal, w.next_log_block + count_tags(journal, bh));
        } else if (blocktype == JFS_COMMIT_BLOCK) {
            w.next_commit_ID++;
        } else if (blocktype != JFS_REVOKE_BLOCK) {
            /* As Linux: an unknown block type in sequence ends the log. */
            printk(KERN_WARNING "JBD: %s: unrecognised block type %u at journal block %lu: "
                   "end of log\n", journal->j_devname, blocktype, this_block);
            brelse(bh);
            break;
        }
        brelse(bh);
    }
    info->end_transaction = w.next_commit_ID;
    return 0;
}

/* The revoke records of one revoke block, for transaction sequence, into
 * the revoke table (set_revoke).  0, -EIO (a bad r_count) or -ENOMEM. */
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

/*
 * PASS_REVOKE: walk the committed transactions again (up to
 * info->end_transaction, the scan's) and read every revoke block's records
 * into the revoke table (scan_revoke_records).  0, or -EIO/-ENOMEM.
 */
static int revoke_pass(journal_t *journal, struct recovery_info *info)
{
    struct log_walk w;
    int err;

    walk_start(journal, &w);
    while (tid_gt(info->end_transaction, w.next_commit_ID)) {
        struct buffer_head *bh = walk_read(journal, &w);
        if (!bh)
            return -EIO;
        journal_header_t *h = (journal_header_t *)bh->b_data;
        uint32_t blocktype = be32_to_cpu(h->h_blocktype);
        if (be32_to_cpu(h->h_magic) != JFS_MAGIC_NUMBER ||
            be32_to_cpu(h->h_sequence) != w.next_commit_ID) {
            brelse(bh);
            break;
        }
        if (blocktype == JFS_DESCRIPTOR_BLOCK) {
            w.next_log_block = wrap(journal, w.next_log_block + count_tags(journal, bh));
        } else if (blocktype == JFS_COMMIT_BLOCK) {
            w.next_commit_ID++;
        } else if (blocktype == JFS_REVOKE_BLOCK) {
            err = scan_revoke_records(journal, bh, w.next_commit_ID, info);
            if (err) {
                brelse(bh);
                return err;
            }
        } else {
            brelse(bh);
            break;
        }
        brelse(bh);
    }
    return walk_end(journal, info, &w, "revoke");
}

/* Copy log block io_block home to blocknr, un-escaping it if flags say so
 * (its first word was zeroed in the log: it is the magic number).  The
 * home block goes through the buffer cache, dirty; journal_recover's
 * sync_blockdev writes it.  0, or -EIO. */
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

/*
 * PASS_REPLAY: walk the committed transactions a third time; for each tag
 * of each descriptor block, the logged block that follows goes home
 * (replay_block) unless a transaction at or after this one revoked it
 * (test_revoke).  In log order, so a later copy of a block overwrites an
 * earlier one.  A block that cannot be written does not stop the pass (the
 * rest is replayed); its error is returned at the end.
 */
static int replay_pass(journal_t *journal, struct recovery_info *info)
{
    struct log_walk w;
    int err, success = 0;

    walk_start(journal, &w);
    while (tid_gt(info->end_transaction, w.next_commit_ID)) {
        struct buffer_head *bh = walk_read(journal, &w);
        if (!bh)
            return -EIO;
        journal_header_t *h = (journal_header_t *)bh->b_data;
        uint32_t blocktype = be32_to_cpu(h->h_blocktype);
        if (be32_to_cpu(h->h_magic) != JFS_MAGIC_NUMBER ||
            be32_to_cpu(h->h_sequence) != w.next_commit_ID) {
            brelse(bh);
            break;
        }
        if (blocktype == JFS_COMMIT_BLOCK) {
            w.next_commit_ID++;
        } else if (blocktype == JFS_DESCRIPTOR_BLOCK) {
            /* the tags, as count_tags walks them */
            char *tagp = bh->b_data + sizeof(journal_header_t);
            while ((size_t)(tagp - bh->b_data) + JFS_TAG_SIZE32 <= journal->j_blocksize) {
                journal_block_tag_t *tag = (journal_block_tag_t *)tagp;
                uint16_t flags = be16_to_cpu(tag->t_flags);
                unsigned long blocknr = be32_to_cpu(tag->t_blocknr);
                unsigned long io_block = w.next_log_block;
                w.next_log_block = wrap(journal, w.next_log_block + 1);
                if (test_revoke(journal, blocknr, w.next_commit_ID)) {
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
        } else if (blocktype != JFS_REVOKE_BLOCK) {
            brelse(bh);
            break;
        }
        brelse(bh);
    }
    err = walk_end(journal, info, &w, "replay");
    return success ? success : err;
}

int journal_recover(journal_t *journal)
{
    struct recovery_info *info = &journal->j_recovery_info;
    int err;

    memset(info, 0, sizeof(*info));
    err = init_revoke(journal);
    if (err)
        return err;
    err = scan_pass(journal, info);
    if (!err)
        err = revoke_pass(journal, info);
    if (!err)
        err = replay_pass(journal, info);
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
    int err = scan_pass(journal, info);
    if (err)
        return err;
    journal->j_transaction_sequence = info->end_transaction + 1;
    return 0;
}
