/* fs/buffer.c: block buffers, the layer between filesystems and the block
 * device (include/buffer_head.h).
 *
 * Part 1, the metadata buffer cache: buffers for blocks a filesystem reads
 * as structures (superblock, bitmaps, inode table, indirect and directory
 * blocks), hashed by (bdev, block, size), reference counted, with an LRU of
 * unreferenced buffers from which clean ones are evicted when the cache is
 * over BH_CACHE_TARGET buffers, and by its shrinker under memory pressure
 * (mm/vmscan.c calls it with a number to free; it only trylocks).  Dirty buffers stay until sync_blockdev()
 * or sync_dirty_buffer() writes them.  Simplification on purpose: Linux
 * keeps metadata in the page cache of the block device's inode, so one
 * mechanism (pages + writeback) serves data and metadata; we keep a
 * separate, smaller cache that is easier to read (docs/ext2.md).
 *
 * Part 2, page buffers and the generic address-space helpers Linux keeps
 * here: block_read_full_page, block_write_begin/block_write_end,
 * generic_write_end, block_write_full_page, block_truncate_page,
 * block_is_partially_uptodate.  A filesystem supplies a get_block_t that
 * maps a file block to a disk block.
 *
 * Sits on: blkdev_read/blkdev_write (include/blkdev.h), kmalloc, the page cache.
 * Locking: bcache_lock (a mutex) protects the hash, the LRU, b_count and
 * BH_Towrite; a buffer's b_lock is held while it is read in or written out;
 * bdev->bd_sync_lock (sync_blockdev's pass) is taken before either.  Page
 * buffers are protected by their page's lock.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <list.h>
#include <mutex.h>
#include <mm.h>
#include <slab.h>
#include <fs.h>
#include <pagemap.h>
#include <writeback.h>
#include <blkdev.h>
#include <buffer_head.h>
#include <sched.h>
#include <timer.h>
#include <swap.h>
#include <init.h>

/* ====================================================================
 * Part 1: the metadata buffer cache
 * ==================================================================== */

#define BH_HASH_SIZE    256
#define BH_CACHE_TARGET 512            /* evict clean unused buffers above this */

static struct list_head bh_hash[BH_HASH_SIZE];
static LIST_HEAD(bh_lru);              /* unreferenced buffers, oldest first */
static DEFINE_MUTEX(bcache_lock);
static bool bcache_ready;
struct buffer_cache_stats buffer_cache_stats;

static void bcache_init(void)
{
    for (int i = 0; i < BH_HASH_SIZE; i++)
        INIT_LIST_HEAD(&bh_hash[i]);
    bcache_ready = true;
}

static unsigned bh_hashfn(struct block_device *bdev, sector_t block)
{
    return ((unsigned long)bdev / 16 + block * 2654435761u) % BH_HASH_SIZE;
}

static sector_t bdev_nr_blocks(struct block_device *bdev, size_t size)
{
    return bdev->nr_sectors / (size / SECTOR_SIZE);
}

static int bh_submit(struct buffer_head *bh, int write)
{
    unsigned per = bh->b_size / SECTOR_SIZE;
    sector_t sector = bh->b_blocknr * per;
    int err = write ? blkdev_write(bh->b_bdev, sector, per, bh->b_data)
                    : blkdev_read(bh->b_bdev, sector, per, bh->b_data);
    if (err)
        printk(KERN_ERR "buffer: %s: %s of block %lu failed (%d)\n", bh->b_bdev->name,
               write ? "write" : "read", (unsigned long)bh->b_blocknr, err);
    return err ? -EIO : 0;
}

static void bh_free(struct buffer_head *bh)
{
    list_del(&bh->b_hash);
    buffer_cache_stats.bytes -= bh->b_size;
    kfree(bh->b_data);
    kfree(bh);
    buffer_cache_stats.nr_buffers--;
}

/* Evict clean, unreferenced buffers (oldest first) until under the target.
 * Called with bcache_lock held. */
static void bcache_shrink(void)
{
    struct buffer_head *bh, *n;
    list_for_each_entry_safe(bh, n, &bh_lru, b_lru) {
        if (buffer_cache_stats.nr_buffers <= BH_CACHE_TARGET)
            break;
        if (buffer_dirty(bh))
            continue;
        list_del(&bh->b_lru);
        bh_free(bh);
        buffer_cache_stats.evictions++;
    }
}

/* The shrinker (include/swap.h): under memory pressure, clean unreferenced
 * buffers go, oldest first, whatever the target.  Reclaim may run inside an
 * allocation made under bcache_lock (__getblk's), so only a trylock. */
static unsigned long bcache_shrink_count(struct shrinker *s)
{
    return buffer_cache_stats.nr_buffers;
}

static unsigned long bcache_shrink_scan(struct shrinker *s, unsigned long nr, gfp_t gfp)
{
    struct buffer_head *bh, *n;
    unsigned long freed = 0;
    if (!bcache_ready || !mutex_trylock(&bcache_lock))
        return 0;
    list_for_each_entry_safe(bh, n, &bh_lru, b_lru) {
        if (freed >= nr)
            break;
        if (buffer_dirty(bh))
            continue;
        list_del(&bh->b_lru);
        bh_free(bh);
        freed++;
    }
    buffer_cache_stats.shrunk += freed;
    mutex_unlock(&bcache_lock);
    return freed;
}

static struct shrinker bcache_shrinker = {
    .count = bcache_shrink_count,
    .scan = bcache_shrink_scan,
};

static void buffer_init(void)
{
    register_shrinker(&bcache_shrinker);
}
subsys_initcall(buffer_init);

static struct buffer_head *bcache_lookup(struct block_device *bdev, sector_t block, size_t size)
{
    struct buffer_head *bh;
    list_for_each_entry(bh, &bh_hash[bh_hashfn(bdev, block)], b_hash)
        if (bh->b_bdev == bdev && bh->b_blocknr == block && bh->b_size == size)
            return bh;
    return NULL;
}

/**
 * __getblk - find or create the cache buffer for a block, without reading it
 * Return: the buffer with a reference, or NULL (block out of range, no memory).
 */
struct buffer_head *__getblk(struct block_device *bdev, sector_t block, size_t size)
{
    struct buffer_head *bh;
    if (!bdev || size < SECTOR_SIZE || size > PAGE_SIZE || block >= bdev_nr_blocks(bdev, size)) {
        printk(KERN_ERR "buffer: %s: block %lu (size %u) is past the end of the device\n",
               bdev ? bdev->name : "?", (unsigned long)block, (unsigned)size);
        return NULL;
    }
    mutex_lock(&bcache_lock);
    if (!bcache_ready)
        bcache_init();
    buffer_cache_stats.lookups++;
    bh = bcache_lookup(bdev, block, size);
    if (bh) {
        buffer_cache_stats.hits++;
        if (bh->b_count++ == 0)
            list_del_init(&bh->b_lru);
        mutex_unlock(&bcache_lock);
        return bh;
    }
    bh = kzalloc(sizeof(*bh), GFP_KERNEL);
    char *data = kmalloc(size, GFP_KERNEL);
    if (!bh || !data) {
        kfree(bh);
        kfree(data);
        mutex_unlock(&bcache_lock);
        return NULL;
    }
    bh->b_bdev = bdev;
    bh->b_blocknr = block;
    bh->b_size = size;
    bh->b_data = data;
    bh->b_count = 1;
    set_buffer_mapped(bh);
    mutex_init(&bh->b_lock);
    INIT_LIST_HEAD(&bh->b_lru);
    list_add(&bh->b_hash, &bh_hash[bh_hashfn(bdev, block)]);
    buffer_cache_stats.nr_buffers++;
    buffer_cache_stats.bytes += size;
    bcache_shrink();
    mutex_unlock(&bcache_lock);
    return bh;
}

struct buffer_head *__find_get_block(struct block_device *bdev, sector_t block, size_t size)
{
    if (!bcache_ready)
        return NULL;
    mutex_lock(&bcache_lock);
    struct buffer_head *bh = bcache_lookup(bdev, block, size);
    if (bh && bh->b_count++ == 0)
        list_del_init(&bh->b_lru);
    mutex_unlock(&bcache_lock);
    return bh;
}

int sync_cached_block(struct block_device *bdev, sector_t block, size_t size)
{
    struct buffer_head *bh = __find_get_block(bdev, block, size);
    if (!bh)
        return 0;
    int err = buffer_dirty(bh) ? sync_dirty_buffer(bh) : 0;
    brelse(bh);
    return err;
}

/**
 * __bread - read a block through the cache
 * Return: the uptodate buffer with a reference, or NULL after a log line.
 */
struct buffer_head *__bread(struct block_device *bdev, sector_t block, size_t size)
{
    struct buffer_head *bh = __getblk(bdev, block, size);
    if (!bh)
        return NULL;
    if (buffer_uptodate(bh))
        return bh;
    mutex_lock(&bh->b_lock);           /* one reader does the I/O, the others wait */
    if (!buffer_uptodate(bh)) {
        if (bh_submit(bh, 0)) {
            mutex_unlock(&bh->b_lock);
            brelse(bh);
            return NULL;
        }
        buffer_cache_stats.reads++;
        set_buffer_uptodate(bh);
    }
    mutex_unlock(&bh->b_lock);
    return bh;
}

struct buffer_head *sb_bread(struct super_block *sb, sector_t block)
{
    return __bread(sb->s_bdev, block, sb->s_blocksize);
}

struct buffer_head *sb_getblk(struct super_block *sb, sector_t block)
{
    return __getblk(sb->s_bdev, block, sb->s_blocksize);
}

void brelse(struct buffer_head *bh)
{
    if (!bh)
        return;
    mutex_lock(&bcache_lock);
    if (!WARN(bh->b_count <= 0, "brelse of free buffer (block %lu)",
              (unsigned long)bh->b_blocknr) &&      /* else ignored, as Linux's */
        --bh->b_count == 0)
        list_add_tail(&bh->b_lru, &bh_lru);
    mutex_unlock(&bcache_lock);
}

/* The block was freed: its contents must never reach the disk again (the
 * block may become file data next).  Drop our reference; if nobody else
 * holds the buffer it leaves the cache at once. */
void bforget(struct buffer_head *bh)
{
    if (!bh)
        return;
    mutex_lock(&bcache_lock);
    clear_buffer_dirty(bh);
    if (--bh->b_count == 0)
        bh_free(bh);
    mutex_unlock(&bcache_lock);
}

void clean_bdev_aliases(struct block_device *bdev, sector_t block, size_t size)
{
    if (!bcache_ready)
        return;
    mutex_lock(&bcache_lock);
    struct buffer_head *bh = bcache_lookup(bdev, block, size);
    if (bh) {
        clear_buffer_dirty(bh);
        clear_buffer_uptodate(bh);     /* a later bread rereads what the data path wrote */
    }
    mutex_unlock(&bcache_lock);
}

void mark_buffer_dirty(struct buffer_head *bh)
{
    /* Already dirty, and so is its page: nothing to do (Linux's "it is
     * already dirty" fast path; we test the page too, because writeback
     * cleans the page before it cleans its buffers). */
    if (buffer_dirty(bh) && bh->b_page && PageDirty(bh->b_page))
        return;
    set_buffer_dirty(bh);
    if (bh->b_page)
        set_page_dirty(bh->b_page);
    else if (bh->b_bdev && !bh->b_bdev->bd_meta_dirtied)
        bh->b_bdev->bd_meta_dirtied = jiffies ? jiffies : 1;
}

int sync_dirty_buffer(struct buffer_head *bh)
{
    int err = 0;
    mutex_lock(&bh->b_lock);
    if (buffer_dirty(bh)) {
        clear_buffer_dirty(bh);
        err = bh_submit(bh, 1);
        if (err)
            set_buffer_dirty(bh);      /* keep it: maybe a later sync succeeds */
        else
            buffer_cache_stats.writes++;
    }
    mutex_unlock(&bh->b_lock);
    return err;
}

/*
 * Write the metadata buffers of bdev that are dirty when the call begins,
 * and wait for any another task is writing, so that all of them are on the
 * disk when it returns.  A buffer dirtied (or dirtied again) meanwhile
 * waits for the next pass: the work is bounded by what was dirty at the
 * start, whatever other tasks dirty while this one sleeps on the disk.
 * Linux's sync_blockdev is filemap_write_and_wait on the block device's
 * page cache, whose write_cache_pages first tags the dirty pages
 * PAGECACHE_TAG_TOWRITE (tag_pages_for_writeback, "to avoid livelocking")
 * and then writes only tagged ones; our metadata buffers are in no page
 * cache, so the tag is a buffer bit, BH_Towrite.  Before, this loop wrote
 * "until nothing was dirty": a process creating and unlinking files
 * re-dirtied the directory and inode-table blocks during every write, and
 * fsync in another process never returned (ktest
 * writeback.sync_blockdev_writes_what_was_dirty_at_its_start).
 *
 * Pass 1, under bcache_lock, tags every buffer of bdev that is dirty or
 * whose b_lock is held (being read, or written by another task's
 * sync_dirty_buffer: Linux's filemap_write_and_wait waits for pages under
 * writeback too).  Pass 2 takes the tagged buffers one at a time, with a
 * reference, and hands each to sync_dirty_buffer, which waits for b_lock
 * and writes the buffer if it is still dirty.  bd_sync_lock makes the
 * passes over one device take turns: the tags are the pass's own, and a
 * pass must not find a buffer untagged because another pass is writing it.
 */
int sync_blockdev(struct block_device *bdev)
{
    int err = 0;
    if (!bcache_ready)
        return 0;
    mutex_lock(&bdev->bd_sync_lock);
    unsigned long dirtied = bdev->bd_meta_dirtied;
    bdev->bd_meta_dirtied = 0;         /* a buffer dirtied from now on sets it again */
    mutex_lock(&bcache_lock);
    for (int i = 0; i < BH_HASH_SIZE; i++) {
        struct buffer_head *bh;
        list_for_each_entry(bh, &bh_hash[i], b_hash)
            if (bh->b_bdev == bdev && (buffer_dirty(bh) || mutex_is_locked(&bh->b_lock)))
                set_buffer_towrite(bh);
    }
    mutex_unlock(&bcache_lock);
    for (int i = 0; i < BH_HASH_SIZE; i++) {
        for (;;) {
            struct buffer_head *bh, *found = NULL;
            mutex_lock(&bcache_lock);
            list_for_each_entry(bh, &bh_hash[i], b_hash) {
                if (bh->b_bdev == bdev && buffer_towrite(bh)) {
                    found = bh;
                    clear_buffer_towrite(found);
                    if (found->b_count++ == 0)
                        list_del_init(&found->b_lru);
                    break;
                }
            }
            mutex_unlock(&bcache_lock);
            if (!found)
                break;
            int e = sync_dirty_buffer(found);
            brelse(found);
            if (e && !err)
                err = e;               /* left dirty; the others are still written */
        }
    }
    if (err && !bdev->bd_meta_dirtied)   /* still dirty: as old as it was */
        bdev->bd_meta_dirtied = dirtied ? dirtied : (jiffies ? jiffies : 1);
    mutex_unlock(&bdev->bd_sync_lock);
    return err;
}

/* Unmount: every unreferenced buffer of bdev leaves the cache (dirty ones
 * were written by sync_blockdev before; one still dirty is a block whose
 * write failed: logged, as the I/O error was).  A buffer still referenced
 * is a missing brelse somewhere (a caller's bug the cache survives: it
 * stays, WARN). */
void invalidate_bdev(struct block_device *bdev)
{
    if (!bcache_ready)
        return;
    mutex_lock(&bcache_lock);
    for (int i = 0; i < BH_HASH_SIZE; i++) {
        struct buffer_head *bh, *n;
        list_for_each_entry_safe(bh, n, &bh_hash[i], b_hash) {
            if (bh->b_bdev != bdev)
                continue;
            if (WARN(bh->b_count, "buffer: %s: block %lu still referenced (%d) at invalidate",
                     bdev->name, (unsigned long)bh->b_blocknr, bh->b_count))
                continue;
            if (buffer_dirty(bh))
                printk(KERN_WARNING "buffer: %s: dropping dirty block %lu\n",
                       bdev->name, (unsigned long)bh->b_blocknr);
            list_del(&bh->b_lru);
            bh_free(bh);
        }
    }
    mutex_unlock(&bcache_lock);
}

/* ====================================================================
 * Part 2: page buffers and the generic address-space helpers
 * ==================================================================== */

/* ---- writeback's plug (include/blkdev.h): runs of contiguous blocks ----
 * Linux builds a bio per run of contiguous blocks (fs/mpage.c), the plug
 * and the elevator merge bios that follow each other, and each buffer's
 * end_io ends its page's writeback.  Here the plug is that merged request
 * under construction: the buffers, in disk order, whose data lies in
 * pieces (vec: buffers adjacent in memory, a page's blocks, share one),
 * and the pages whose writeback ends once it is written. */
#define PLUG_MAX_SECTORS 256           /* one LBA28 command */
#define PLUG_MAX_VEC     32
#define PLUG_MAX_BH      128           /* 256 sectors of 1 KiB blocks */
#define PLUG_MAX_PAGES   64

struct blk_plug {
    struct block_device *bdev;
    sector_t sector;                   /* where the run starts */
    unsigned nr_sectors, nvec, nbh, npages;
    struct bio_vec vec[PLUG_MAX_VEC];
    struct buffer_head *bh[PLUG_MAX_BH];
    struct page *pages[PLUG_MAX_PAGES];
};
struct plug_stats plug_stats;

struct blk_plug *blk_start_plug(void)
{
    if (current->plug)
        return NULL;                   /* nested: the outer plug batches */
    struct blk_plug *plug = kzalloc(sizeof(*plug), GFP_KERNEL);
    current->plug = plug;
    return plug;
}

/* Write the run (one request), then end the writeback of the pages whose
 * buffers have all been sent.  A failed write leaves its page buffers dirty
 * and the error on their pages and mappings (filemap_fdatawait reports it);
 * a metadata buffer (submit_bh_write: the journal's log blocks) gets
 * BH_Write_EIO and loses BH_Uptodate, as Linux's end_buffer_write_sync
 * does, and its owner checks the bit. */
static void plug_submit(struct blk_plug *plug)
{
    if (plug->nbh) {
        int err = blkdev_writev(plug->bdev, plug->sector, plug->vec, plug->nvec);
        plug_stats.requests++;
        plug_stats.blocks += plug->nbh;
        if (err)
            printk(KERN_ERR "buffer: %s: write of sectors %lu+%u failed (%d)\n",
                   plug->bdev->name, (unsigned long)plug->sector, plug->nr_sectors, err);
        for (unsigned k = 0; err && k < plug->nbh; k++) {
            struct page *page = plug->bh[k]->b_page;
            if (!page) {
                set_buffer_write_io_error(plug->bh[k]);
                clear_buffer_uptodate(plug->bh[k]);
                continue;
            }
            set_buffer_dirty(plug->bh[k]);
            SetPageError(page);
            if (page->mapping)
                mapping_set_error(page->mapping, -EIO);
        }
    }
    for (unsigned k = 0; k < plug->npages; k++)
        end_page_writeback(plug->pages[k]);
    plug->nr_sectors = plug->nvec = plug->nbh = plug->npages = 0;
}

void blk_flush_plug(void)
{
    if (current->plug)
        plug_submit(current->plug);
}

void blk_finish_plug(struct blk_plug *plug)
{
    if (!plug)
        return;
    plug_submit(plug);
    current->plug = NULL;
    kfree(plug);
}

/* Add a dirty buffer (its dirty bit already cleared) to the run; first
 * send the run if bh does not continue it on the disk or it is full. */
static void plug_add_bh(struct blk_plug *plug, struct buffer_head *bh)
{
    unsigned per = bh->b_size / SECTOR_SIZE;
    sector_t sector = bh->b_blocknr * per;
    if (plug->nbh && (bh->b_bdev != plug->bdev || sector != plug->sector + plug->nr_sectors ||
                      plug->nr_sectors + per > PLUG_MAX_SECTORS || plug->nbh == PLUG_MAX_BH))
        plug_submit(plug);
    struct bio_vec *last = plug->nvec ? &plug->vec[plug->nvec - 1] : NULL;
    bool adjacent = last && (char *)last->bv_base + last->bv_len == bh->b_data;
    if (!adjacent && plug->nvec == PLUG_MAX_VEC) {
        plug_submit(plug);
        last = NULL;
    }
    if (!plug->nbh) {
        plug->bdev = bh->b_bdev;
        plug->sector = sector;
    }
    if (last && adjacent)
        last->bv_len += bh->b_size;
    else
        plug->vec[plug->nvec++] = (struct bio_vec){ bh->b_data, bh->b_size };
    plug->bh[plug->nbh++] = bh;
    plug->nr_sectors += per;
}

void submit_bh_write(struct buffer_head *bh)
{
    BUG_ON(bh->b_page || bh->b_count <= 0 || !buffer_uptodate(bh));
    clear_buffer_dirty(bh);
    clear_buffer_write_io_error(bh);
    if (current->plug) {
        plug_add_bh(current->plug, bh);
        return;
    }
    if (bh_submit(bh, 1)) {
        set_buffer_write_io_error(bh);
        clear_buffer_uptodate(bh);
    } else {
        buffer_cache_stats.writes++;
    }
}

/* All of page's dirty buffers are in the run: its writeback ends with it. */
static void plug_add_page(struct blk_plug *plug, struct page *page)
{
    if (plug->npages == PLUG_MAX_PAGES)
        plug_submit(plug);
    plug->pages[plug->npages++] = page;
}

/* Attach PAGE_SIZE/blocksize unmapped buffers to a locked page; 0, or
 * -ENOMEM with nothing attached when memory for the buffer heads runs out
 * (the caller fails its read, write or truncate with it; Linux 2.6.24
 * retried for ever instead, alloc_page_buffers' "retry").
 * Simplification: Linux takes a page reference for page->private
 * (attach_page_private); we do not: the buffers live and die with the
 * page (freed by block_invalidatepage/try_to_free_buffers). */
int create_empty_buffers(struct page *page, unsigned long blocksize, unsigned long b_state)
{
    struct buffer_head *head = NULL, *tail = NULL, *bh;
    char *base = page_address(page);
    for (unsigned long off = 0; off < PAGE_SIZE; off += blocksize) {
        if (!(bh = kzalloc(sizeof(*bh), GFP_KERNEL))) {
            for (; head; head = bh) {   /* free the chain made so far */
                bh = head->b_this_page;
                kfree(head);
            }
            return -ENOMEM;
        }
        bh->b_state = b_state;
        bh->b_page = page;
        bh->b_size = blocksize;
        bh->b_data = base + off;
        INIT_LIST_HEAD(&bh->b_hash);
        INIT_LIST_HEAD(&bh->b_lru);
        if (tail)
            tail->b_this_page = bh;
        else
            head = bh;
        tail = bh;
    }
    tail->b_this_page = head;
    page->private = (unsigned long)head;
    SetPagePrivate(page);
    return 0;
}

/* The page's buffers, made now if it has none; NULL if there is no memory
 * for them. */
static struct buffer_head *page_get_buffers(struct page *page, struct inode *inode)
{
    if (!PagePrivate(page) &&
        create_empty_buffers(page, 1UL << inode->i_blkbits,
                             PageUptodate(page) ? 1UL << BH_Uptodate : 0))
        return NULL;
    return page_buffers(page);
}

/**
 * block_read_full_page - a_ops->readpage for block filesystems
 * Holes and blocks past i_size read as zeros; mapped blocks are read.
 * The page becomes uptodate when every buffer is.  Unlocks the page.
 */
int block_read_full_page(struct page *page, get_block_t *get_block)
{
    struct inode *inode = page->mapping->host;
    unsigned bs = 1U << inode->i_blkbits;
    sector_t iblock = (sector_t)page->index << (PAGE_SHIFT - inode->i_blkbits);
    sector_t lblock = (inode->i_size + bs - 1) >> inode->i_blkbits;
    struct buffer_head *head = page_get_buffers(page, inode), *bh = head;
    int err = 0;

    if (!head) {
        SetPageError(page);
        unlock_page(page);
        return -ENOMEM;
    }
    do {
        if (buffer_uptodate(bh))
            goto next;
        if (!buffer_mapped(bh) && iblock < lblock) {
            err = get_block(inode, iblock, bh, 0);
            if (err)
                break;
        }
        if (!buffer_mapped(bh)) {      /* hole, or past EOF */
            memset(bh->b_data, 0, bs);
            set_buffer_uptodate(bh);
            goto next;
        }
        err = bh_submit(bh, 0);
        if (err)
            break;
        set_buffer_uptodate(bh);
next:
        iblock++;
        bh = bh->b_this_page;
    } while (bh != head);

    if (err)
        SetPageError(page);
    else
        SetPageUptodate(page);         /* every buffer is uptodate now */
    unlock_page(page);
    return err;
}

/* Zero the parts of new (just allocated) buffers that lie in [from, to),
 * make them uptodate and dirty: after a failed or short write no stale disk
 * contents can appear.  Linux's page_zero_new_buffers. */
static void page_zero_new_buffers(struct page *page, unsigned from, unsigned to)
{
    if (!PagePrivate(page))
        return;
    struct buffer_head *head = page_buffers(page), *bh = head;
    unsigned block_start = 0;
    do {
        unsigned block_end = block_start + bh->b_size;
        if (buffer_new(bh)) {
            if (block_end > from && block_start < to) {
                if (!buffer_uptodate(bh)) {
                    unsigned s = max(block_start, from), e = min(block_end, to);
                    memset((char *)page_address(page) + s, 0, e - s);
                    set_buffer_uptodate(bh);
                }
                mark_buffer_dirty(bh);
            }
            clear_buffer_new(bh);
        }
        block_start = block_end;
        bh = bh->b_this_page;
    } while (bh != head);
}

/**
 * __block_write_begin - prepare bytes [pos, pos+len) of a locked page for a write
 * Maps (allocating) every block the write touches; a new block gets zeros
 * outside the write range; a block the write covers only partly is read if
 * not uptodate; a block it covers fully is not read.  On error new blocks
 * in the range are zeroed (and dirtied), and the error returned.
 */
int __block_write_begin(struct page *page, loff_t pos, unsigned len, get_block_t *get_block)
{
    struct inode *inode = page->mapping->host;
    unsigned from = pos & (PAGE_SIZE - 1), to = from + len;
    unsigned bs = 1U << inode->i_blkbits;
    sector_t iblock = (sector_t)page->index << (PAGE_SHIFT - inode->i_blkbits);
    struct buffer_head *head = page_get_buffers(page, inode), *bh = head;
    unsigned block_start = 0;
    int err = 0;
    char *kaddr = page_address(page);
    if (!head)
        return -ENOMEM;

    do {
        unsigned block_end = block_start + bs;
        if (block_end <= from || block_start >= to) {
            if (PageUptodate(page))
                set_buffer_uptodate(bh);
            goto next;
        }
        clear_buffer_new(bh);
        if (!buffer_mapped(bh)) {
            err = get_block(inode, iblock, bh, 1);
            if (err)
                break;
            if (buffer_new(bh)) {
                if (PageUptodate(page)) {      /* the page already holds the truth */
                    clear_buffer_new(bh);
                    set_buffer_uptodate(bh);
                    mark_buffer_dirty(bh);
                    goto next;
                }
                if (block_end > to)
                    memset(kaddr + to, 0, block_end - to);
                if (block_start < from)
                    memset(kaddr + block_start, 0, from - block_start);
                goto next;
            }
        }
        if (PageUptodate(page)) {
            set_buffer_uptodate(bh);
            goto next;
        }
        if (!buffer_uptodate(bh) && (block_start < from || block_end > to)) {
            err = bh_submit(bh, 0);             /* partly overwritten: read it first */
            if (err)
                break;
            set_buffer_uptodate(bh);
        }
next:
        block_start = block_end;
        iblock++;
        bh = bh->b_this_page;
    } while (bh != head);

    if (err)
        page_zero_new_buffers(page, from, to);
    return err;
}

/**
 * block_write_begin - a_ops->write_begin helper for block filesystems
 * Return: 0 with *pagep locked and referenced, or -errno with no page held.
 * The caller (the filesystem) trims blocks allocated past i_size on error.
 */
int block_write_begin(struct address_space *mapping, loff_t pos, unsigned len,
                      struct page **pagep, get_block_t *get_block)
{
    struct page *page = grab_cache_page_write_begin(mapping, pos >> PAGE_SHIFT);
    if (!page)
        return -ENOMEM;
    int err = __block_write_begin(page, pos, len, get_block);
    if (err) {
        unlock_page(page);
        put_page(page);
        page = NULL;
    }
    *pagep = page;
    return err;
}

/* Mark the buffers in [from, to) uptodate and dirty; the page is uptodate
 * when every buffer is.  Linux's __block_commit_write. */
static void block_commit_write(struct page *page, unsigned from, unsigned to)
{
    struct buffer_head *head = page_buffers(page), *bh = head;
    unsigned block_start = 0;
    bool partial = false;
    do {
        unsigned block_end = block_start + bh->b_size;
        if (from == to || block_end <= from || block_start >= to) {
            if (!buffer_uptodate(bh))
                partial = true;
        } else {
            set_buffer_uptodate(bh);
            mark_buffer_dirty(bh);
        }
        clear_buffer_new(bh);
        block_start = block_end;
        bh = bh->b_this_page;
    } while (bh != head);
    if (!partial)
        SetPageUptodate(page);
}

/**
 * block_write_end - commit what was copied into a page after block_write_begin
 * The short-copy rule (Linux's block_write_end, after 2.6.24): if the page is
 * not uptodate and copied < len, the bytes not copied may cover parts of
 * blocks that were never read, so nothing is committed: copied becomes 0 and
 * the caller retries the chunk.  New blocks in the uncommitted range are
 * zeroed so no stale disk data can appear.  The page stays locked.
 * Return: bytes committed.
 */
int block_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                    unsigned len, unsigned copied, struct page *page, void *fsdata)
{
    unsigned start = pos & (PAGE_SIZE - 1);
    if (copied < len) {
        if (!PageUptodate(page))
            copied = 0;
        page_zero_new_buffers(page, start + copied, start + len);
    }
    block_commit_write(page, start, start + copied);
    return copied;
}

/**
 * generic_write_end - a_ops->write_end for block filesystems
 * block_write_end, then i_size grows (under the page lock) if the write
 * went past it; the page is unlocked and released; the inode is marked dirty.
 */
int generic_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                      unsigned len, unsigned copied, struct page *page, void *fsdata)
{
    struct inode *inode = mapping->host;
    bool size_changed = false;
    copied = block_write_end(file, mapping, pos, len, copied, page, fsdata);
    /* nothing committed past EOF: i_size stays (a retry or a trim follows) */
    if (copied && pos + copied > inode->i_size) {
        inode->i_size = pos + copied;
        size_changed = true;
    }
    unlock_page(page);
    put_page(page);
    if (size_changed)
        mark_inode_dirty(inode);
    return copied;
}

/**
 * block_write_full_page - a_ops->writepage for block filesystems
 * Entry: page locked, dirty bit cleared.  Writes the dirty buffers that lie
 * before i_size (if none is marked, the page was dirtied as a whole: every
 * uptodate block before i_size, allocating holes).  The part of the EOF page
 * past i_size is zeroed first.  Sets PG_writeback, unlocks the page, writes,
 * ends writeback; under a plug (do_writepages) the buffers join the plug's
 * run instead, and the writeback ends when the run is written.
 * When get_block fails (ENOSPC mid-page; Linux's __block_write_full_page,
 * its "recover" path): the buffers that are mapped are written all the
 * same, since blocks allocated earlier in this call are already in the
 * file and would otherwise expose another file's old bytes on disk; the
 * ones that could not be mapped lose their dirty bit (their bytes stay in
 * the uptodate page, a hole on disk, as Linux); the error goes on the
 * mapping (fsync reports it) and is returned.  No buffer is left dirty on
 * the page that clear_page_dirty_for_io made clean.
 */
int block_write_full_page(struct page *page, get_block_t *get_block,
                          struct writeback_control *wbc)
{
    struct inode *inode = page->mapping->host;
    loff_t i_size = inode->i_size;
    unsigned long end_index = i_size >> PAGE_SHIFT;
    int err = 0;

    if (page->index > end_index || (page->index == end_index && !(i_size & (PAGE_SIZE - 1)))) {
        unlock_page(page);             /* wholly past EOF: a truncate is removing it */
        return 0;
    }
    if (page->index == end_index)
        memset((char *)page_address(page) + (i_size & (PAGE_SIZE - 1)), 0,
               PAGE_SIZE - (i_size & (PAGE_SIZE - 1)));

    sector_t b = (sector_t)page->index << (PAGE_SHIFT - inode->i_blkbits);
    sector_t last_block = (i_size - 1) >> inode->i_blkbits;
    struct buffer_head *head = page_get_buffers(page, inode), *bh = head;
    bool any_dirty = false;
    if (!head) {                       /* the data stays dirty for a later pass */
        set_page_dirty(page);
        unlock_page(page);
        return -ENOMEM;
    }
    do {
        any_dirty |= buffer_dirty(bh);
        bh = bh->b_this_page;
    } while (bh != head);

    do {                               /* decide and map before any I/O */
        if (b > last_block)
            clear_buffer_dirty(bh);
        else if (!any_dirty && buffer_uptodate(bh))
            set_buffer_dirty(bh);
        if (!err && buffer_dirty(bh) && !buffer_mapped(bh)) {
            blk_flush_plug();          /* allocating may sleep on others: send the run first */
            err = get_block(inode, b, bh, 1);
            clear_buffer_new(bh);      /* a new block is written below with the page's bytes */
        }
        /* After a failure (this buffer's or an earlier one's) no more
         * blocks are allocated: a dirty buffer still unmapped has nowhere
         * to go.  Drop its dirty bit so that no dirty buffer stays on a
         * clean page (Linux's recover path: clear_buffer_dirty). */
        if (err && buffer_dirty(bh) && !buffer_mapped(bh))
            clear_buffer_dirty(bh);
        b++;
        bh = bh->b_this_page;
    } while (bh != head);

    /* From here on, error or not, every dirty buffer is mapped: write them
     * (on error too, "to avoid exposing stale data" in blocks allocated
     * above), then report err. */
    if (err) {
        SetPageError(page);
        mapping_set_error(page->mapping, err);
    }
    set_page_writeback(page);
    unlock_page(page);
    if (current->plug) {               /* batched: written with the run (above) */
        bh = head;
        do {
            if (buffer_dirty(bh) && buffer_mapped(bh)) {
                clear_buffer_dirty(bh);
                plug_add_bh(current->plug, bh);
            }
            bh = bh->b_this_page;
        } while (bh != head);
        plug_add_page(current->plug, page);
        return err;
    }
    int ioerr = 0;
    bh = head;
    do {
        if (buffer_dirty(bh) && buffer_mapped(bh)) {
            clear_buffer_dirty(bh);
            int e = bh_submit(bh, 1);
            if (e) {
                set_buffer_dirty(bh);
                ioerr = e;
            }
        }
        bh = bh->b_this_page;
    } while (bh != head);
    if (ioerr) {
        SetPageError(page);
        mapping_set_error(page->mapping, ioerr);
        if (!err)
            err = ioerr;
    }
    end_page_writeback(page);
    return err;
}

int write_dirty_buffer(struct buffer_head *bh)
{
    BUG_ON(!bh->b_page);
    if (!buffer_dirty(bh) || !buffer_mapped(bh))
        return 0;
    clear_buffer_dirty(bh);
    int err = bh_submit(bh, 1);
    if (err) {
        set_buffer_dirty(bh);          /* writeback tries again */
        SetPageError(bh->b_page);
        if (bh->b_page->mapping)
            mapping_set_error(bh->b_page->mapping, err);
    }
    return err;
}

int write_dirty_buffer_plugged(struct buffer_head *bh)
{
    BUG_ON(!bh->b_page);
    if (!current->plug)
        return write_dirty_buffer(bh);
    if (buffer_dirty(bh) && buffer_mapped(bh)) {
        clear_buffer_dirty(bh);
        plug_add_bh(current->plug, bh);   /* a failure: plug_submit */
    }
    return 0;
}

void mark_page_buffers_dirty(struct page *page)
{
    if (!PagePrivate(page))
        return;
    struct buffer_head *head = page_buffers(page), *bh = head;
    do {
        set_buffer_dirty(bh);
        bh = bh->b_this_page;
    } while (bh != head);
}

static void free_page_buffers(struct page *page)
{
    struct buffer_head *head = page_buffers(page), *bh = head;
    do {
        struct buffer_head *next = bh->b_this_page;
        kfree(bh);
        bh = next;
    } while (bh != head);
    page->private = 0;
    ClearPagePrivate(page);
}

/* a_ops->invalidatepage: bytes from offset on are being truncated away. */
void block_invalidatepage(struct page *page, unsigned long offset)
{
    if (!PagePrivate(page))
        return;
    struct buffer_head *head = page_buffers(page), *bh = head;
    unsigned block_start = 0;
    do {
        if (block_start >= offset) {
            clear_buffer_dirty(bh);
            clear_buffer_mapped(bh);
            clear_buffer_new(bh);
            clear_buffer_uptodate(bh);
        }
        block_start += bh->b_size;
        bh = bh->b_this_page;
    } while (bh != head);
    if (offset == 0)
        free_page_buffers(page);
}

/* a_ops->is_partially_uptodate (Linux's block_is_partially_uptodate): are
 * the buffers under bytes [from, from + count) of the page (cut at its end)
 * all uptodate?  A range from the first block to the last is the whole
 * page: no (the page's own uptodate bit answers that).  Page locked. */
int block_is_partially_uptodate(struct page *page, unsigned long from, unsigned long count)
{
    if (!PagePrivate(page))
        return 0;
    struct buffer_head *head = page_buffers(page), *bh = head;
    unsigned long blocksize = head->b_size;
    unsigned long to = from + min(PAGE_SIZE - from, count);
    if (from < blocksize && to > PAGE_SIZE - blocksize)
        return 0;
    unsigned long block_start = 0;
    do {
        unsigned long block_end = block_start + blocksize;
        if (block_end > from && block_start < to) {
            if (!buffer_uptodate(bh))
                return 0;
            if (block_end >= to)
                break;
        }
        block_start = block_end;
        bh = bh->b_this_page;
    } while (bh != head);
    return 1;
}

/* a_ops->releasepage: free the buffers of a clean page.  1 if freed. */
int try_to_free_buffers(struct page *page)
{
    if (!PagePrivate(page))
        return 1;
    struct buffer_head *head = page_buffers(page), *bh = head;
    do {
        if (buffer_dirty(bh))
            return 0;
        bh = bh->b_this_page;
    } while (bh != head);
    free_page_buffers(page);
    return 1;
}

/* a_ops->bmap through get_block (Linux's generic_block_bmap): the disk
 * block of file block `block`, 0 for a hole or an error. */
unsigned long generic_block_bmap(struct address_space *mapping, unsigned long block,
                                 get_block_t *get_block)
{
    struct inode *inode = mapping->host;
    struct buffer_head tmp = { .b_size = 1UL << inode->i_blkbits };
    if (get_block(inode, block, &tmp, 0) || !buffer_mapped(&tmp))
        return 0;
    return tmp.b_blocknr;
}

int block_truncate_page(struct address_space *mapping, loff_t from, get_block_t *get_block)
{
    struct inode *inode = mapping->host;
    unsigned bs = 1U << inode->i_blkbits;
    unsigned offset = from & (PAGE_SIZE - 1);
    unsigned length = bs - (offset & (bs - 1));
    int err = 0;

    if ((from & (bs - 1)) == 0)
        return 0;
    struct page *page = find_or_create_page(mapping, from >> PAGE_SHIFT, GFP_HIGHUSER);
    if (!page)
        return -ENOMEM;
    struct buffer_head *bh = page_get_buffers(page, inode);
    if (!bh) {
        err = -ENOMEM;
        goto unlock;
    }
    sector_t iblock = (sector_t)page->index << (PAGE_SHIFT - inode->i_blkbits);
    for (unsigned pos = bs; offset >= pos; pos += bs) {
        bh = bh->b_this_page;
        iblock++;
    }
    if (!buffer_mapped(bh)) {
        err = get_block(inode, iblock, bh, 0);
        if (err || !buffer_mapped(bh))
            goto unlock;               /* a hole stays a hole: it reads as zeros */
    }
    if (PageUptodate(page))
        set_buffer_uptodate(bh);
    if (!buffer_uptodate(bh)) {
        err = bh_submit(bh, 0);
        if (err)
            goto unlock;
        set_buffer_uptodate(bh);
    }
    memset((char *)page_address(page) + offset, 0, length);
    mark_buffer_dirty(bh);
unlock:
    unlock_page(page);
    put_page(page);
    return err;
}
