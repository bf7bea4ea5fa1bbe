/* include/buffer_head.h: block buffers (fs/buffer.c).
 *
 * A buffer_head describes one filesystem block in memory.  Two kinds:
 *
 *  - metadata buffers (superblock, group descriptors, bitmaps, inode table,
 *    indirect blocks, directory blocks): sb_bread()/sb_getblk() find them in
 *    a small buffer cache hashed by (bdev, block, size), with b_data in
 *    kmalloc'd memory and b_page == NULL.  Release with brelse().
 *    Simplification on purpose: Linux keeps these in the block device's own
 *    page cache (bdev inode); we keep a separate cache (see docs/ext2.md).
 *
 *  - page buffers: the blocks of one page-cache page of a file, attached to
 *    page->private (PG_private) as a circular list through b_this_page,
 *    with b_data pointing into the page.  They remember, per block, whether
 *    it is mapped to disk (b_blocknr), uptodate, dirty or newly allocated.
 *
 *   page (PG_private) --private--> bh0 -> bh1 -> bh2 -> bh3 -+
 *                                   ^------------------------+   (1 KiB blocks)
 *
 * get_block_t is how a filesystem maps file blocks for the generic helpers:
 *   get_block(inode, iblock, bh_result, create)
 *     maps block iblock of inode: on success sets BH_Mapped and b_blocknr
 *     (and b_bdev); leaves the buffer unmapped for a hole when !create;
 *     with create, allocates and sets BH_New too.  Returns 0 or -errno
 *     (-EIO for corrupt metadata, -ENOSPC, -EFBIG).  Entry: page locked if
 *     called from the page helpers; may sleep.
 */
#ifndef _BUFFER_HEAD_H
#define _BUFFER_HEAD_H
#include <kernel.h>
#include <list.h>
#include <asm/bitops.h>
#include <mutex.h>
#include <blkdev.h>

struct page;
struct inode;
struct super_block;
struct address_space;
struct file;
struct writeback_control;

enum bh_state_bits {
    BH_Uptodate,      /* b_data holds the block's current contents */
    BH_Dirty,         /* b_data is newer than the disk */
    BH_Mapped,        /* b_blocknr is valid (page buffers: not a hole) */
    BH_New,           /* get_block just allocated the block: disk holds garbage */
    BH_Towrite,       /* metadata: dirty when sync_blockdev's pass began, which writes
                         it (Linux tags the bdev's pages PAGECACHE_TAG_TOWRITE) */
    BH_JBD,           /* has a journal_head in b_private (fs/jbd/): metadata, or
                         a page buffer filed as ordered data */
    BH_JBDDirty,      /* metadata: changed in a transaction not yet committed; NOT
                         BH_Dirty, so no writeback takes it home before the commit
                         (the commit turns it into BH_Dirty: checkpointing) */
    BH_Write_EIO,     /* its last write through submit_bh_write failed (Linux's
                         bit of the same name, set by end_buffer_write_sync) */
};

struct buffer_head {
    unsigned long b_state;             /* BH_* bits */
    struct buffer_head *b_this_page;   /* page buffers: next on the page (circular) */
    struct page *b_page;               /* page buffers: the page; metadata: NULL */
    sector_t b_blocknr;                /* block number, in b_size units */
    size_t b_size;                     /* block size in bytes */
    char *b_data;                      /* the block's bytes */
    struct block_device *b_bdev;
    int b_count;                       /* metadata buffers: references (get_bh/brelse) */
    struct mutex b_lock;               /* metadata buffers: held while reading it in */
    struct list_head b_hash;           /* metadata buffers: hash chain */
    struct list_head b_lru;            /* metadata buffers: LRU of unreferenced ones */
    void *b_private;                   /* the journal_head (BH_JBD, fs/jbd/) */
};

/* The state bits change by locked bit operations, as Linux's BUFFER_FNS:
 * a page's buffers are changed under its page lock by a write that runs
 * without the big kernel lock (SMP step 5) while another CPU may change
 * the same word (the journal's BH_JBD bits, the end of a write). */
#define BUFFER_FNS(bit, name)                                                      \
static inline int buffer_##name(const struct buffer_head *bh)                     \
{ return (bh->b_state >> BH_##bit) & 1; }                                          \
static inline void set_buffer_##name(struct buffer_head *bh)                      \
{ set_bit(BH_##bit, &bh->b_state); }                                               \
static inline void clear_buffer_##name(struct buffer_head *bh)                    \
{ clear_bit(BH_##bit, &bh->b_state); }
BUFFER_FNS(Uptodate, uptodate)
BUFFER_FNS(Dirty, dirty)
BUFFER_FNS(Mapped, mapped)
BUFFER_FNS(New, new)
BUFFER_FNS(Towrite, towrite)
BUFFER_FNS(JBD, jbd)
BUFFER_FNS(JBDDirty, jbddirty)
BUFFER_FNS(Write_EIO, write_io_error)

static inline void map_bh(struct buffer_head *bh, struct super_block *sb, sector_t block);
static inline void get_bh(struct buffer_head *bh) { bh->b_count++; }

/* ---- metadata buffer cache ---- */
/* Read block (of sb's block size): cached, referenced, uptodate.  NULL (and a
 * log line) if the block is past the device's end or the read fails. */
struct buffer_head *sb_bread(struct super_block *sb, sector_t block);
/* The same buffer without reading it: for blocks about to be overwritten
 * whole (callers fill b_data, then set_buffer_uptodate and mark_buffer_dirty). */
struct buffer_head *sb_getblk(struct super_block *sb, sector_t block);
struct buffer_head *__bread(struct block_device *bdev, sector_t block, size_t size);
struct buffer_head *__getblk(struct block_device *bdev, sector_t block, size_t size);
void brelse(struct buffer_head *bh);           /* drop a reference; NULL is fine */
void bforget(struct buffer_head *bh);          /* brelse, and the block's contents no
                                                  longer matter (freed): drop it, never write it */
void mark_buffer_dirty(struct buffer_head *bh);/* metadata or page buffer */
int sync_dirty_buffer(struct buffer_head *bh); /* write it now if dirty; 0 or -EIO */
/* Write a referenced metadata buffer whose bytes are final (Linux's
 * submit_bh(WRITE, bh)): under the task's plug (include/blkdev.h) it joins
 * the plug's run and is written when the plug is flushed or finished, so the
 * caller keeps its reference until then; without a plug it is written now.
 * Its dirty bit is cleared.  A failed write sets BH_Write_EIO and clears
 * BH_Uptodate (the cache no longer claims bytes the disk may not hold): the
 * caller checks buffer_write_io_error() after the plug is flushed. */
void submit_bh_write(struct buffer_head *bh);
int sync_blockdev(struct block_device *bdev);  /* write the metadata buffers of bdev dirty
                                                  when it is called, and wait for them */
/* The cached buffer of a block, referenced, or NULL if not cached (no I/O,
 * no allocation).  Release with brelse(). */
struct buffer_head *__find_get_block(struct block_device *bdev, sector_t block, size_t size);
/* Write the cached buffer of block now if it is dirty (sync_dirty_buffer);
 * nothing if it is not cached.  0 or -EIO. */
int sync_cached_block(struct block_device *bdev, sector_t block, size_t size);
void invalidate_bdev(struct block_device *bdev);/* unmount: forget bdev's clean unused buffers */
/* A data block was (re)allocated: forget any stale metadata buffer for it. */
void clean_bdev_aliases(struct block_device *bdev, sector_t block, size_t size);

struct buffer_cache_stats {
    unsigned long lookups, hits, reads, writes, evictions, nr_buffers;
    unsigned long bytes;               /* data of the cached buffers (/proc/meminfo's Buffers) */
    unsigned long shrunk;              /* buffers freed by the shrinker (memory pressure) */
};
extern struct buffer_cache_stats buffer_cache_stats;
/* Merged requests (the plug, include/blkdev.h): requests sent and the
 * blocks they carried (page-cache blocks of writeback, the journal's log
 * blocks). */
struct plug_stats {
    unsigned long requests, blocks;
};
extern struct plug_stats plug_stats;

/* ---- page buffers and the generic a_ops helpers (Linux's fs/buffer.c) ---- */
typedef int (get_block_t)(struct inode *inode, sector_t iblock,
                          struct buffer_head *bh_result, int create);

static inline struct buffer_head *page_buffers(struct page *page);
int create_empty_buffers(struct page *page, unsigned long blocksize, unsigned long b_state);
int block_read_full_page(struct page *page, get_block_t *get_block);
int __block_write_begin(struct page *page, loff_t pos, unsigned len, get_block_t *get_block);
int block_write_begin(struct address_space *mapping, loff_t pos, unsigned len,
                      struct page **pagep, get_block_t *get_block);
int block_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                    unsigned len, unsigned copied, struct page *page, void *fsdata);
int generic_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                      unsigned len, unsigned copied, struct page *page, void *fsdata);
int block_write_full_page(struct page *page, get_block_t *get_block,
                          struct writeback_control *wbc);
void block_invalidatepage(struct page *page, unsigned long offset);
int try_to_free_buffers(struct page *page);
/* Write bh, a page buffer, now if it is dirty and mapped, without the
 * page lock (the commit of ordered data, fs/jbd/commit.c; Linux's
 * write_dirty_buffer).  0, or -EIO: the buffer stays dirty and the error
 * goes on the page and its mapping, as writepage's. */
int write_dirty_buffer(struct buffer_head *bh);
/* The same, but with a plug held (blk_start_plug) bh joins the task's run
 * and is written with its neighbours on the disk when the run is sent
 * (blk_flush_plug, blk_finish_plug, or a run that bh does not continue):
 * 0 then, and a failure found at the send leaves bh dirty and the error on
 * its page and mapping, as write_dirty_buffer's.  Only for a caller that
 * sends the run before anything waits on bh (JBD's commit of ordered data,
 * Linux's journal_do_submit_data); without a plug, write_dirty_buffer. */
int write_dirty_buffer_plugged(struct buffer_head *bh);
/* Every buffer of the page dirty (if it has buffers): the whole page was
 * (or may have been) written, e.g. through a mapping (Linux's
 * __set_page_dirty_buffers, less the page flag).  Page locked. */
void mark_page_buffers_dirty(struct page *page);
/* Zero the rest of the block that contains byte `from` (on disk too, via the
 * page cache), so that a later extension reads zeros there.  truncate uses it. */
int block_truncate_page(struct address_space *mapping, loff_t from, get_block_t *get_block);
int block_is_partially_uptodate(struct page *page, unsigned long from, unsigned long count);
unsigned long generic_block_bmap(struct address_space *mapping, unsigned long block,
                                 get_block_t *get_block);

/* ---- inline definitions ---- */
#include <fs.h>
static inline void map_bh(struct buffer_head *bh, struct super_block *sb, sector_t block)
{
    set_buffer_mapped(bh);
    bh->b_bdev = sb->s_bdev;
    bh->b_blocknr = block;
    bh->b_size = sb->s_blocksize;
}
static inline struct buffer_head *page_buffers(struct page *page)
{
    return (struct buffer_head *)page->private;
}
#endif
