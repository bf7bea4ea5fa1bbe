/* include/jbd.h: the journal's on-disk format (JBD, the journalling block
 * device layer under ext3) and journal_t, the in-core journal (fs/jbd/).
 * Layer: below the filesystem (fs/ext2/ mounts ext3 through it), above the
 * buffer cache (fs/buffer.c).
 *
 * Names: the JFS_* family of Linux 2.6.24's include/linux/jbd.h, the JBD that
 * ext3 used in the kernel Vellum models.  The feature bits JBD2 added later
 * (64BIT, ASYNC_COMMIT, CSUM_V2, CSUM_V3, FAST_COMMIT: Linux's jbd2.h and
 * e2fsprogs 1.47's kernel-jbd.h) are named here in the same family, so that
 * journal_load can name what it refuses.  The tag layout is JBD2's as
 * e2fsprogs 1.47 writes it; without 64BIT and the checksum features it is
 * byte for byte JBD's 8-byte tag (see journal_block_tag_t).
 *
 * Every integer in the journal is big-endian (JBD was written to be
 * portable between the machines sharing a disk), unlike ext2's
 * little-endian fields: read them through be32_to_cpu (asm/byteorder.h).
 *
 * The log (the journal inode's blocks 0 .. s_maxlen-1; the picture is in
 * docs/journal.md):
 *
 *   block 0          the journal superblock (journal_superblock_t)
 *   s_first ..       a circular log: each transaction is
 *                      descriptor block (header + tags: which home block
 *                        each following log block belongs to)
 *                      the logged blocks, in tag order
 *                      (more descriptor blocks and logged blocks)
 *                      revoke blocks, if any (blocks whose earlier logged
 *                        copies must not be replayed)
 *                      commit block: the transaction is complete
 *                    each block's header carries the transaction's sequence
 *                    number; after s_maxlen-1 the log wraps to s_first.
 *
 * What Vellum's JBD supports: reading (journal_load) and replaying
 * (journal_recover) a journal inside an inode, superblock v1 or v2, with
 * the REVOKE feature or without.  Refused with a log line: every other
 * incompatible or read-only-compatible feature (64-bit block numbers,
 * asynchronous commit, checksums v2/v3, fast commits).  The compatible
 * CHECKSUM feature (v1 commit-block checksums) is ignored, as a compatible
 * feature may be.  Vellum does not write transactions yet (issue 24, step 2).
 */
#ifndef _JBD_H
#define _JBD_H
#include <types.h>
#include <asm/byteorder.h>

struct inode;
struct block_device;

#define JFS_MAGIC_NUMBER        0xc03b3998U   /* h_magic of every journal metadata block */
#define JFS_MIN_JOURNAL_BLOCKS  1024          /* mke2fs makes no smaller journal */

/* h_blocktype */
#define JFS_DESCRIPTOR_BLOCK    1
#define JFS_COMMIT_BLOCK        2
#define JFS_SUPERBLOCK_V1       3
#define JFS_SUPERBLOCK_V2       4
#define JFS_REVOKE_BLOCK        5
#define JFS_FC_BLOCK            6             /* JBD2 fast commit: refused */

/* The 12 bytes at the start of every journal metadata block: superblock,
 * descriptor, commit and revoke blocks.  Logged copies of filesystem blocks
 * have no header (one whose data starts with the magic is escaped). */
typedef struct journal_header_s {
    uint32_t h_magic;                  /* JFS_MAGIC_NUMBER */
    uint32_t h_blocktype;              /* JFS_*_BLOCK */
    uint32_t h_sequence;               /* the transaction's ID (tid) */
} journal_header_t;

/* Descriptor-block tag: one per logged block, in log order.  JBD2's layout:
 *   0  t_blocknr        the block's home location in the filesystem
 *   4  t_checksum       (CSUM_V2 only; 0 otherwise)
 *   6  t_flags          JFS_FLAG_*
 *   8  t_blocknr_high   (64BIT only: then the tag is 12 bytes)
 * Without 64BIT or checksums a tag is 8 bytes, and bytes 4..7 read as one
 * big-endian 32-bit word are JBD's t_flags: the same bytes.  After a tag
 * without JFS_FLAG_SAME_UUID come 16 bytes of UUID (the journal's). */
typedef struct journal_block_tag_s {
    uint32_t t_blocknr;
    uint16_t t_checksum;
    uint16_t t_flags;
    uint32_t t_blocknr_high;
} journal_block_tag_t;
#define JFS_TAG_SIZE32          8             /* the tag size Vellum reads */
#define JFS_UUID_SIZE           16

#define JFS_FLAG_ESCAPE         1     /* the block's first 4 bytes were the magic:
                                         the log copy has them zeroed, replay puts
                                         the magic back */
#define JFS_FLAG_SAME_UUID      2     /* no UUID follows this tag */
#define JFS_FLAG_DELETED        4     /* (unused: never set by JBD) */
#define JFS_FLAG_LAST_TAG       8     /* the descriptor's last tag */

/* Commit block: the header; JBD2 adds checksum fields and the commit time
 * after it, which Vellum does not read. */
typedef struct commit_header {
    journal_header_t h;
    uint8_t  h_chksum_type;
    uint8_t  h_chksum_size;
    uint8_t  h_padding[2];
    uint32_t h_chksum[8];
    uint64_t h_commit_sec;
    uint32_t h_commit_nsec;
} commit_header_t;

/* Revoke block: the header, then r_count (bytes used in this block,
 * header included), then the revoked block numbers from byte 16 on: 4
 * bytes each (8 with 64BIT). */
typedef struct journal_revoke_header_s {
    journal_header_t r_header;
    uint32_t r_count;
} journal_revoke_header_t;
#define JFS_REVOKE_RECORDS      16            /* offset of the first record */

/* The journal superblock: block 0 of the journal, 1024 bytes. */
typedef struct journal_superblock_s {
    journal_header_t s_header;         /* 0x00 blocktype JFS_SUPERBLOCK_V1 or _V2 */
    /* static: the journal's shape */
    uint32_t s_blocksize;              /* 0x0c the journal's block size (= the fs's) */
    uint32_t s_maxlen;                 /* 0x10 blocks in the journal */
    uint32_t s_first;                  /* 0x14 first block of the log (after the sb) */
    /* dynamic: the log's state */
    uint32_t s_sequence;               /* 0x18 first transaction ID expected in the log */
    uint32_t s_start;                  /* 0x1c the log's first block; 0 = empty */
    uint32_t s_errno;                  /* 0x20 error recorded by journal_abort */
    /* v2 only */
    uint32_t s_feature_compat;         /* 0x24 */
    uint32_t s_feature_incompat;       /* 0x28 */
    uint32_t s_feature_ro_compat;      /* 0x2c */
    uint8_t  s_uuid[16];               /* 0x30 */
    uint32_t s_nr_users;               /* 0x40 filesystems sharing the journal (1) */
    uint32_t s_dynsuper;               /* 0x44 (unused) */
    uint32_t s_max_transaction;        /* 0x48 (unused) */
    uint32_t s_max_trans_data;         /* 0x4c (unused) */
    uint8_t  s_checksum_type;          /* 0x50 JBD2 */
    uint8_t  s_padding2[3];
    uint32_t s_num_fc_blks;            /* 0x54 JBD2 fast commit blocks */
    uint32_t s_head;                   /* 0x58 JBD2 */
    uint32_t s_padding[40];            /* 0x5c */
    uint32_t s_checksum;               /* 0xfc JBD2 CSUM_V2/V3 */
    uint8_t  s_users[16 * 48];         /* 0x100 UUIDs of the sharing filesystems */
} journal_superblock_t;                /* 0x400 */

#define JFS_FEATURE_COMPAT_CHECKSUM        0x00000001  /* JBD2: v1 commit checksums */
#define JFS_FEATURE_INCOMPAT_REVOKE        0x00000001
#define JFS_FEATURE_INCOMPAT_64BIT         0x00000002  /* JBD2 */
#define JFS_FEATURE_INCOMPAT_ASYNC_COMMIT  0x00000004  /* JBD2 */
#define JFS_FEATURE_INCOMPAT_CSUM_V2       0x00000008  /* JBD2 */
#define JFS_FEATURE_INCOMPAT_CSUM_V3       0x00000010  /* JBD2 */
#define JFS_FEATURE_INCOMPAT_FAST_COMMIT   0x00000020  /* JBD2 */
/* What Vellum's JBD reads (as Linux 2.6.24's: REVOKE only). */
#define JFS_KNOWN_COMPAT_FEATURES    JFS_FEATURE_COMPAT_CHECKSUM
#define JFS_KNOWN_ROCOMPAT_FEATURES  0
#define JFS_KNOWN_INCOMPAT_FEATURES  JFS_FEATURE_INCOMPAT_REVOKE

/* ---- in core ---- */

typedef uint32_t tid_t;                /* transaction IDs wrap: compare with tid_gt */
static inline int tid_gt(tid_t x, tid_t y) { return (int32_t)(x - y) > 0; }
static inline int tid_geq(tid_t x, tid_t y) { return (int32_t)(x - y) >= 0; }

/* What recovery found and did (journal_recover). */
struct recovery_info {
    tid_t start_transaction;           /* the first transaction in the log */
    tid_t end_transaction;             /* one past the last committed one */
    unsigned nr_replays;               /* blocks written home */
    unsigned nr_revokes;               /* revoke records read */
    unsigned nr_revoke_hits;           /* logged blocks skipped as revoked */
};

struct jbd_revoke_table;

/* A journal inside an inode of the filesystem it protects (ext3's inode
 * 8).  Linux's journal_t has much more: the running and committing
 * transactions, the checkpoint lists, kjournald; they come with step 2. */
typedef struct journal_s {
    struct inode *j_inode;             /* the journal's inode (a reference) */
    struct block_device *j_dev;        /* where the log and the home blocks live */
    const char *j_devname;             /* for log lines: the fs's s_id */
    unsigned j_blocksize;
    unsigned long j_fs_nr_blocks;      /* home blocks must be below this */
    struct buffer_head *j_sb_buffer;   /* the journal superblock's buffer (held) */
    journal_superblock_t *j_superblock;/* points into j_sb_buffer */
    int j_format_version;              /* 1 or 2 */
    unsigned long j_first, j_last;     /* the log is blocks [j_first, j_last) */
    tid_t j_transaction_sequence;      /* the next transaction's ID */
    struct jbd_revoke_table *j_revoke; /* recovery's revoke table (recovery.c) */
    struct recovery_info j_recovery_info;  /* what the last journal_recover did */
} journal_t;

/* journal.c */
/* A journal_t for the journal stored in inode (holding a reference the
 * caller gave it, dropped by journal_destroy); fs_nr_blocks bounds the
 * home locations replay may write.  NULL if out of memory.  Reads nothing. */
journal_t *journal_init_inode(struct inode *inode, unsigned long fs_nr_blocks);
/* Read and check the journal superblock, then recover the log if it is not
 * empty (journal_recover) and write the superblock back marked empty
 * (s_start 0, s_sequence the next transaction's ID), flushed before it
 * returns.  0, -EINVAL (a malformed or unsupported journal), -EIO (a
 * journal block unreadable or unmapped, or a log that contradicts
 * itself), -ENOMEM; each error with a log line. */
int journal_load(journal_t *journal);
/* Linux's journal_wipe (ext3 mounting a filesystem whose superblock says
 * no recovery is needed): read and check the superblock as journal_load
 * does; if the log is not empty anyway, log that its contents are ignored
 * and mark it empty without replaying it (the sequence still moves past
 * every transaction in it, journal_skip_recovery).  0 or -errno. */
int journal_wipe(journal_t *journal);
/* The error a previous mount recorded in the journal (s_errno, set by
 * Linux's journal_abort), and clearing it (written now).  After
 * journal_load or journal_wipe only. */
int journal_errno(journal_t *journal);
int journal_clear_err(journal_t *journal);
/* Release the journal: its superblock buffer, the inode reference. */
void journal_destroy(journal_t *journal);
/* The disk block of journal block blocknr: 0 and -EIO with a log line if
 * it lies past s_maxlen or the inode has a hole there. */
int journal_bmap(journal_t *journal, unsigned long blocknr, unsigned long *retp);
/* Journal block blocknr, read (a referenced buffer), or NULL (logged). */
struct buffer_head *jread(journal_t *journal, unsigned long blocknr);

/* recovery.c */
/* Replay the log from s_start/s_sequence: three passes (scan, revoke,
 * replay), every replayed block written home and flushed.  Sets
 * journal->j_recovery_info and j_transaction_sequence.  0 or -errno. */
int journal_recover(journal_t *journal);
/* The scan pass alone: j_transaction_sequence set past the log's last
 * committed transaction, nothing replayed.  0 or -errno. */
int journal_skip_recovery(journal_t *journal);
#endif
