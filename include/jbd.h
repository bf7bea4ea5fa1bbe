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
 * feature may be.  Writing: handles and one running transaction
 * (transaction.c), the commit by kjournald (commit.c, journal.c),
 * checkpointing (checkpoint.c), revoke records, ordered data buffers
 * written before the commit block; ext3 (fs/ext2/ext3_journal.c,
 * ext3_ordered.c) journals its metadata and orders its data through them
 * (docs/journal.md).
 */
#ifndef _JBD_H
#define _JBD_H
#include <types.h>
#include <asm/byteorder.h>
#include <list.h>
#include <mutex.h>
#include <wait.h>
#include <lockdep.h>

struct inode;
struct page;
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
struct buffer_head;
struct task_struct;
typedef struct transaction_s transaction_t;
typedef struct journal_s journal_t;

/* A buffer's link to the journal (Linux's journal_head): bh->b_private,
 * with BH_JBD set, while a transaction or a checkpoint list holds the buffer.
 * A metadata buffer's holds a reference on it (so the cache never evicts
 * it).  An ordered data buffer's (a page buffer on t_sync_datalist, BJ_SyncData)
 * holds none: page buffers live and die with their page, and the journal
 * keeps the page's from being freed instead (journal_invalidatepage,
 * journal_try_to_free_buffers).  Its fields change under the journal's
 * j_state_lock. */
struct journal_head {
    struct buffer_head *b_bh;
    transaction_t *b_transaction;      /* the running (or committing) transaction
                                          that logs this buffer, or NULL */
    transaction_t *b_cp_transaction;   /* the committed transaction whose copy of
                                          this buffer is in the log and not yet
                                          home (checkpoint list), or NULL */
    struct list_head b_tlist;          /* on b_transaction->t_buffers */
    struct list_head b_cplist;         /* on b_cp_transaction->t_checkpoint_list */
    int b_jlist;                       /* BJ_*: which list of b_transaction */
};
#define BJ_None      0                 /* in no transaction */
#define BJ_Reserved  1                 /* journal_get_write_access: may be changed */
#define BJ_Metadata  2                 /* journal_dirty_metadata: will be logged */
#define BJ_SyncData  3                 /* journal_dirty_data: a file's data block,
                                          written home before the commit block */

/* One compound transaction (Linux's transaction_t): every metadata change of
 * the handles that joined it, committed to the log as a whole.
 *   T_RUNNING   handles join it (journal_start) and change buffers
 *   T_LOCKED    the commit began: no new handle joins; the commit waits for
 *               t_updates to reach 0
 *   T_FLUSH     the log blocks and the commit block are being written
 *   T_FINISHED  committed: its buffers are on t_checkpoint_list until home
 * Simplification on purpose: Linux lets new handles start the next
 * transaction as soon as this one is T_FLUSH, keeping frozen copies
 * (b_frozen_data) of buffers they change while the old contents are written
 * to the log; Vellum's journal_start waits until the commit is finished
 * (one transaction at a time changes buffers, none is being logged
 * meanwhile), so no frozen copy is ever needed. */
struct transaction_s {
    journal_t *t_journal;
    tid_t t_tid;
    enum { T_RUNNING, T_LOCKED, T_FLUSH, T_FINISHED } t_state;
    unsigned long t_log_start;         /* the log block of its descriptor */
    int t_nr_buffers;                  /* on t_buffers */
    struct list_head t_buffers;        /* BJ_Metadata: the buffers to log */
    struct list_head t_reserved_list;  /* BJ_Reserved: write access, not dirtied */
    struct list_head t_sync_datalist;  /* BJ_SyncData: ordered data, written first */
    struct list_head t_checkpoint_list;/* after commit: buffers not yet home */
    struct list_head t_cplist;         /* on j_checkpoint_transactions */
    unsigned long *t_revoke;           /* blocks revoked in it (journal_revoke) */
    int t_nr_revokes, t_max_revokes;
    int t_updates;                     /* handles open on it */
    int t_outstanding_credits;         /* blocks the open handles may still log,
                                          plus those already logged */
    unsigned long t_expires;           /* jiffies: kjournald commits it then */
};

/* A task's part in the running transaction (Linux's handle_t): from
 * journal_start to journal_stop, one system call's metadata changes. */
typedef struct handle_s {
    journal_t *h_journal;
    transaction_t *h_transaction;      /* NULL after a failed journal_restart */
    int h_buffer_credits;              /* buffers it may still add to the transaction */
    int h_ref;                         /* nested journal_start calls of the same task */
    int h_sync;                        /* journal_stop commits and waits (fsync) */
} handle_t;

/* A journal inside an inode of the filesystem it protects (ext3's inode
 * 8): what recovery needs, then the writing side (transaction.c,
 * commit.c, checkpoint.c).
 *
 * The log in core: [j_tail, j_head) (circular in [j_first, j_last)) holds
 * the committed transactions not yet checkpointed; j_free blocks are free.
 * The journal superblock says s_start = j_tail, s_sequence = j_tail_sequence
 * once written (journal_update_superblock), or s_start 0 (JFS_FLUSHED: the
 * log on disk is empty, the next commit must write the superblock first).
 *
 * Locking: j_state_lock (a mutex) protects everything in core: the
 * transaction pointers, states, t_updates and credits, the journal_heads
 * and their lists, the log's head, tail and free count.  The commit
 * (kjournald only) and the checkpoint (j_checkpoint_mutex) do their I/O
 * without it.  Where these sit in the lock order: mm/filemap.c. */
struct journal_s {
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

    /* ---- writing (after journal_load or journal_wipe) ---- */
    unsigned long j_flags;             /* JFS_* below */
    struct mutex j_state_lock;
    struct mutex j_checkpoint_mutex;   /* one checkpoint at a time */
    transaction_t *j_running_transaction;
    transaction_t *j_committing_transaction;
    struct list_head j_checkpoint_transactions;   /* oldest first */
    unsigned long j_head, j_tail, j_free;
    tid_t j_tail_sequence;             /* the oldest transaction in the log */
    tid_t j_commit_sequence;           /* the last transaction committed */
    tid_t j_commit_request;            /* the transaction kjournald must commit */
    tid_t j_loaded_sequence;           /* j_transaction_sequence at load */
    int j_max_transaction_buffers;     /* a transaction commits at this size */
    unsigned long j_commit_interval;   /* jiffies: a transaction's longest life */
    struct task_struct *j_task;        /* kjournald */
    wait_queue_head_t j_wait_transaction_locked;  /* journal_start: the commit ends */
    wait_queue_head_t j_wait_updates;  /* the commit: t_updates reaches 0 */
    wait_queue_head_t j_wait_commit;   /* kjournald sleeps here */
    wait_queue_head_t j_wait_done_commit;  /* log_wait_commit */
    struct buffer_head **j_wbuf;       /* the commit's log blocks not yet sent (Linux's) */
    int j_wbufsize;                    /* room: a descriptor and all its blocks */
    unsigned long j_nr_commits;        /* transactions committed (for the tests) */
    unsigned long j_nr_checkpoints;    /* times the tail moved (for the tests) */
#ifdef CONFIG_LOCKDEP
    struct lockdep_map j_handle_map;   /* the handle, as a lock class (see
                                          journal_start) */
#endif
};

#define JFS_UNMOUNT    0x001           /* journal_destroy: kjournald ends */
#define JFS_ABORT      0x002           /* journal_abort: nothing more is written */
#define JFS_FLUSHED    0x008           /* the superblock says the log is empty */
#define JFS_WRITABLE   0x010           /* journal_reset ran: handles may start */

#define JBD_DEFAULT_MAX_COMMIT_AGE 5   /* seconds: j_commit_interval */

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
/* Release the journal.  If a transaction was started since journal_load:
 * commit the running transaction, checkpoint everything and mark the log empty
 * (journal_flush), as a clean unmount leaves it.  After journal_abort the
 * journal writes nothing more: the log stays for recovery, committed
 * buffers not yet home stay dirty in the buffer cache (their bytes are
 * the log's), a running transaction's changes are lost (its buffers are
 * reread).  Then kjournald stops, the superblock buffer and the inode
 * reference go. */
void journal_destroy(journal_t *journal);
/* Commit the running transaction, write every committed buffer home and
 * mark the log empty on disk (s_start 0), waiting for all of it.  Caller
 * holds no handle.  0 or -EIO (an aborted journal). */
int journal_flush(journal_t *journal);
/* Set incompatible features in the journal superblock (written now, if
 * they were not set): journal_revoke sets REVOKE before its first record,
 * so that every reader of the log knows revoke blocks may be in it.  0,
 * -EINVAL (a v1 superblock has no features) or -EIO. */
int journal_set_features(journal_t *journal, uint32_t incompat);
/* Something went wrong that the journal cannot survive (a failed log
 * write): nothing more is committed or written to the journal superblock;
 * journal_start fails with -EROFS.  The log stays as it is for the next
 * mount's recovery.  Logged once. */
void journal_abort(journal_t *journal, int errno);
static inline int is_journal_aborted(journal_t *journal)
{
    return journal->j_flags & JFS_ABORT;
}
/* Ask kjournald to commit transaction tid (if it is still running), and
 * wait until tid is committed.  0, or -EIO if the journal aborted. */
void log_start_commit(journal_t *journal, tid_t tid);
int log_wait_commit(journal_t *journal, tid_t tid);
/* Write the log's tail (s_start = j_tail, s_sequence = j_tail_sequence) to
 * the journal superblock, flushed; nothing if the journal aborted. */
void journal_update_superblock(journal_t *journal);
/* The disk block of journal block blocknr: 0 and -EIO with a log line if
 * it lies past s_maxlen or the inode has a hole there. */
int journal_bmap(journal_t *journal, unsigned long blocknr, unsigned long *retp);
/* Journal block blocknr, read (a referenced buffer), or NULL (logged). */
struct buffer_head *jread(journal_t *journal, unsigned long blocknr);

/* transaction.c: handles (the calls ext3 makes around a metadata change).
 *
 * Contract of a handle: journal_start(journal, nblocks) before changing
 * any metadata buffer; for each buffer, journal_get_write_access (or
 * journal_get_create_access for a block just allocated, whose old contents
 * do not matter) BEFORE changing its bytes, journal_dirty_metadata after;
 * at most nblocks different buffers dirtied; journal_stop at the end.  The
 * calls nest in one task (current->journal_info): an inner journal_start
 * returns the same handle.  A handle is held by the task that started it,
 * never across a return to user space, and never while taking a page lock
 * (the page lock is taken first: the lock order in mm/filemap.c). */
/* A handle on the running transaction (started if none) with nblocks
 * credits; waits while a commit runs, while the transaction is full, or for
 * a checkpoint when the log has no room.  ERR_PTR(-EROFS) if the journal
 * aborted, ERR_PTR(-ENOSPC) if nblocks can never fit one transaction,
 * ERR_PTR(-ENOMEM). */
handle_t *journal_start(journal_t *journal, int nblocks);
/* Drop the handle (the outermost call of a nest); a synchronous handle
 * (h_sync) or a transaction past its size or age asks kjournald to commit,
 * and a synchronous one waits.  0, or -EIO if the commit failed. */
int journal_stop(handle_t *handle);
/* Add nblocks credits to the handle, if its transaction is still running
 * (no commit began) and has room for them, in itself and in the log.
 * 0 if it did, 1 if it could not (journal_restart then), -EROFS (aborted).
 * Never waits. */
int journal_extend(handle_t *handle, int nblocks);
/* The handle leaves its transaction, which is asked to commit, and starts
 * again with nblocks credits, waiting as journal_start does: in the next
 * transaction, or in the same one if its commit has not begun and it has
 * room (as Linux's).  Either way the changes made so far may commit without
 * those to come: the caller restarts where its changes so far are a
 * consistent state.  The buffers it changes next need write access again.  0; -EROFS or -ENOMEM,
 * and then the journal is aborted and the handle only good for
 * journal_stop (which returns -EROFS). */
int journal_restart(handle_t *handle, int nblocks);
/* bh (a metadata buffer of the journal's device) will be changed in this
 * handle's transaction: waits for a write of it in flight; a committed
 * copy not yet home stays the log's until this transaction commits (its
 * BH_Dirty becomes BH_JBDDirty).  Cancels a revoke of the block in this
 * transaction.  0, -EROFS (aborted) or -ENOMEM. */
int journal_get_write_access(handle_t *handle, struct buffer_head *bh);
/* The same for a newly allocated block about to be filled whole. */
int journal_get_create_access(handle_t *handle, struct buffer_head *bh);
/* bh was changed: log it in this transaction (it costs one credit the
 * first time).  It stays pinned, off the disk (BH_JBDDirty, not BH_Dirty),
 * until the commit block is written.  0 or -EROFS. */
int journal_dirty_metadata(handle_t *handle, struct buffer_head *bh);
/* blocknr (cached in bh, or NULL) is freed in this transaction: a revoke
 * record is logged, so that recovery never replays an older logged copy of
 * it over what the block holds next, and the buffer leaves the journal
 * unwritten.  Costs one credit.  0, -EROFS or -ENOMEM. */
int journal_revoke(handle_t *handle, unsigned long blocknr, struct buffer_head *bh);
/* Ordered data (ext3's data=ordered): bh, a mapped buffer of a locked
 * page-cache page whose block this handle's transaction may have given the
 * file (or whose bytes past the old i_size it makes visible), goes to the
 * disk before the transaction's commit block: a crash then never shows a
 * file stale bytes in a block its committed metadata points at.  No
 * credit (nothing is logged).  The buffer stays filed until the commit has
 * written it or journal_invalidatepage takes it off.  0 or -EROFS; -ENOMEM
 * (not filed: the caller's bytes are then only written by writeback). */
int journal_dirty_data(handle_t *handle, struct buffer_head *bh);
/* a_ops->invalidatepage's part (Linux's journal_invalidatepage): the
 * buffers of page (locked) at or past offset are being truncated away, so
 * none may stay filed as ordered data.  A buffer of the running
 * transaction leaves its list; one of the transaction being committed is
 * waited for (the commit writes it without the page lock).  Caller holds
 * the page lock and no handle. */
void journal_invalidatepage(journal_t *journal, struct page *page, unsigned long offset);
/* a_ops->releasepage (Linux's journal_try_to_free_buffers, which also
 * takes the journal): free the buffers of page (locked) as
 * try_to_free_buffers does, unless one is filed as ordered data.  1 if
 * freed. */
int journal_try_to_free_buffers(struct page *page);
/* Take a data buffer's journal_head off its transaction and free it
 * (commit.c, journal_destroy).  Under j_state_lock. */
void __journal_unfile_data(struct journal_head *jh);
/* Commit the running transaction, if there is one, and wait for it (or
 * for the one being committed, if no other runs): fsync's call.  Caller holds no handle.  0, -EROFS (aborted) or -EIO. */
int journal_force_commit(journal_t *journal);

/* commit.c */
/* Commit the running transaction (kjournald's work): lock it, wait for its
 * handles to stop, write its ordered data buffers home and wait for them
 * (t_sync_datalist), write descriptor blocks and the logged copies, flush,
 * write the commit block, flush; then its buffers go on its checkpoint
 * list, dirty for writeback.  A failed log write aborts the journal. */
void journal_commit_transaction(journal_t *journal);

/* checkpoint.c */
/* Write home every committed buffer that is not in a running transaction,
 * flush, drop what is home from the checkpoint lists and move the log's
 * tail past the transactions all home (the journal superblock written).
 * Caller holds j_checkpoint_mutex and no handle.  0 or -EIO. */
int log_do_checkpoint(journal_t *journal);
/* Move j_tail to the oldest transaction still in the log and write it to
 * the journal superblock if it moved (j_free grows by what it passed). */
void cleanup_journal_tail(journal_t *journal);
/* Wait until the log has room for a transaction of nblocks credits:
 * commit the running transaction, then checkpoint (journal_start). */
void log_wait_for_space(journal_t *journal, int nblocks);
/* The log blocks a transaction of credits buffers may need: the logged
 * copies, their descriptor blocks, revoke blocks, the commit block. */
unsigned long jbd_log_blocks(journal_t *journal, int credits);
/* The journal_head of bh, created (with a reference on bh) if it has none;
 * journal_put_journal_head frees it once it is in no transaction and on
 * no checkpoint list.  Under j_state_lock. */
struct journal_head *journal_add_journal_head(journal_t *journal, struct buffer_head *bh);
void journal_put_journal_head(struct journal_head *jh);
/* Take jh off its checkpoint list (under j_state_lock; the caller puts
 * jh); the transaction is freed when its list is empty and it has
 * committed. */
void __journal_remove_checkpoint(journal_t *journal, struct journal_head *jh);

/* recovery.c */
/* Replay the log from s_start/s_sequence: three passes (scan, revoke,
 * replay), every replayed block written home and flushed.  Sets
 * journal->j_recovery_info and j_transaction_sequence.  0 or -errno. */
int journal_recover(journal_t *journal);
/* The scan pass alone: j_transaction_sequence set past the log's last
 * committed transaction, nothing replayed.  0 or -errno. */
int journal_skip_recovery(journal_t *journal);
#endif
