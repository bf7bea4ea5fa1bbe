/* fs/jbd/journal.c: the journal_t of a journal inside an inode, and
 * loading it: reading and checking the journal superblock (journal_load),
 * recovering a log that is not empty (recovery.c), and writing the
 * superblock back marked empty; or forgetting the log unreplayed
 * (journal_wipe).  The on-disk format is include/jbd.h; the chapter is
 * docs/journal.md.
 *
 * Layer: JBD, between the filesystem that owns the journal inode (ext2
 * mounting ext3, fs/ext2/super.c) and the buffer cache (fs/buffer.c).  The
 * journal's blocks are found through bmap() on the inode (the filesystem's
 * get_block) and read as metadata buffers of the filesystem's block device.
 *
 * Simplification on purpose: Linux's journal_load leaves the journal ready
 * for new transactions (s_start = s_first, kjournald running) and marks it
 * empty only at unmount (journal_destroy).  Vellum does not write
 * transactions yet (issue 24, step 2), so journal_load marks it empty at
 * once: what the on-disk journal looks like after Linux's clean unmount.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <fs.h>
#include <buffer_head.h>
#include <jbd.h>

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
    return journal;
}

void journal_destroy(journal_t *journal)
{
    if (!journal)
        return;
    BUG_ON(journal->j_revoke);          /* recovery frees its table before returning */
    brelse(journal->j_sb_buffer);
    iput(journal->j_inode);
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
    sb->s_sequence = cpu_to_be32(journal->j_transaction_sequence);
    sb->s_start = 0;
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
        return 0;
    }
    err = journal_recover(journal);
    if (err)
        return err;                     /* the log stays as it was, for e2fsck */
    return journal_mark_empty(journal);
}

int journal_wipe(journal_t *journal)
{
    int err = journal_get_superblock(journal);
    if (err)
        return err;
    if (!journal->j_superblock->s_start)
        return 0;
    printk(KERN_WARNING "JBD: %s: ignoring recovery information on journal\n",
           journal->j_devname);
    err = journal_skip_recovery(journal);
    if (err)
        return err;
    return journal_mark_empty(journal);
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
