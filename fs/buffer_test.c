/* fs/buffer_test.c: ktests of fs/buffer.c's metadata buffer cache
 * (test=writeback, with mm/page-writeback_test.c): sync_blockdev writes
 * what was dirty when it started, however much other tasks dirty meanwhile.
 *
 * The device is this file's own (wbt0, in memory): its ->write plays the
 * other task, dirtying buffers again during each write, as a process
 * creating and unlinking files re-dirties the directory and inode-table
 * blocks while fsync in another process waits for the disk.  Before the
 * fix sync_blockdev wrote "until nothing was dirty" and never returned;
 * the device stops meddling after WBT_MEDDLE_MAX writes so that the old
 * loop ends and the test can fail instead of hanging. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <ktest.h>
#include <blkdev.h>
#include <buffer_head.h>

#define WBT_BLOCKS      32             /* 1 KiB blocks */
#define WBT_MEDDLE_MAX  200

static struct buffer_head *wbt_meddle[2];  /* dirtied again during every write */
static int wbt_writes, wbt_meddled;

static int wbt_read(struct block_device *bdev, sector_t sector, unsigned count, void *buf)
{
    memset(buf, 0, (size_t)count * SECTOR_SIZE);
    return 0;
}

static int wbt_write(struct block_device *bdev, sector_t sector, unsigned count,
                     const void *buf)
{
    wbt_writes++;
    if (wbt_meddled < WBT_MEDDLE_MAX) {
        wbt_meddled++;
        for (unsigned k = 0; k < ARRAY_SIZE(wbt_meddle); k++)
            if (wbt_meddle[k])
                mark_buffer_dirty(wbt_meddle[k]);
    }
    return 0;
}

static const struct block_device_operations wbt_ops = {
    .read = wbt_read,
    .write = wbt_write,
};

static struct block_device wbt_bdev = {
    .name = "wbt0",
    .nr_sectors = WBT_BLOCKS * 2,
    .ops = &wbt_ops,
};

/* Blocks 1..4 dirty (bh[0..2]) or clean (bh[3]); another task re-dirties
 * bh[0] (written by this pass: its new bytes wait for the next one) and
 * dirties bh[3] (clean when the pass began) during every write. */
KTEST(writeback, sync_blockdev_writes_what_was_dirty_at_its_start)
{
    struct buffer_head *bh[4] = { NULL };
    KT_ASSERT(register_blkdev(&wbt_bdev) == 0);
    for (int k = 0; k < 4; k++) {
        bh[k] = __getblk(&wbt_bdev, k + 1, 1024);
        if (!bh[k])
            goto out;
        memset(bh[k]->b_data, 'a' + k, 1024);
        set_buffer_uptodate(bh[k]);
        if (k < 3)
            mark_buffer_dirty(bh[k]);
    }
    wbt_writes = wbt_meddled = 0;
    wbt_meddle[0] = bh[0];
    wbt_meddle[1] = bh[3];
    int err = sync_blockdev(&wbt_bdev);
    KT_EXPECT_EQ(err, 0);
    KT_EXPECT_EQ(wbt_writes, 3);        /* the three dirty at the start, once each */
    KT_EXPECT(buffer_dirty(bh[0]));     /* dirtied again meanwhile: for the next pass */
    KT_EXPECT(!buffer_dirty(bh[1]) && !buffer_dirty(bh[2]));
    KT_EXPECT(buffer_dirty(bh[3]));     /* dirtied after the pass began */
    KT_EXPECT(wbt_bdev.bd_meta_dirtied != 0);   /* the flusher's clock runs for them */

    /* Nobody meddles now: the next pass writes the two left, and is the last. */
    wbt_meddle[0] = wbt_meddle[1] = NULL;
    wbt_writes = 0;
    KT_EXPECT_EQ(sync_blockdev(&wbt_bdev), 0);
    KT_EXPECT_EQ(wbt_writes, 2);
    for (int k = 0; k < 4; k++)
        KT_EXPECT(!buffer_dirty(bh[k]));
    KT_EXPECT_EQ(wbt_bdev.bd_meta_dirtied, 0);
out:
    wbt_meddle[0] = wbt_meddle[1] = NULL;
    for (int k = 0; k < 4; k++) {
        KT_EXPECT(bh[k] != NULL);
        if (bh[k])
            clear_buffer_dirty(bh[k]);
        brelse(bh[k]);
    }
    invalidate_bdev(&wbt_bdev);
    unregister_blkdev(&wbt_bdev);
}
