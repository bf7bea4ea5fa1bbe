/* kernel/drivers/ramdisk_test.c: the ktests of ramdisk.c and of the block
 * layer above it, kernel/blkdev.c (test=blk); built into the test kernel only
 * (make check), never into the production kernel. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <blkdev.h>
#include <slab.h>
#include <ktest.h>

static void fill(unsigned char *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(i * 7 + seed);
}

KTEST(blk, ramdisk_round_trip_and_counters)
{
    static unsigned char out[4 * SECTOR_SIZE], in[4 * SECTOR_SIZE];
    struct block_device *bd = ramdisk_create("rtest", 64);
    KT_ASSERT(bd != NULL);
    KT_EXPECT(blkdev_get("rtest") == bd);
    fill(out, sizeof out, 3);
    KT_EXPECT_EQ(blkdev_write(bd, 10, 4, out), 0);
    memset(in, 0, sizeof in);
    KT_EXPECT_EQ(blkdev_read(bd, 10, 4, in), 0);
    KT_EXPECT(!memcmp(in, out, sizeof in));
    KT_EXPECT_EQ(blkdev_read(bd, 9, 1, in), 0);  /* untouched: zeroes */
    KT_EXPECT_EQ(in[0], 0);
    KT_EXPECT_EQ(in[511], 0);
    struct blkdev_stats st;
    blkdev_stats(bd, &st);
    KT_EXPECT_EQ(st.sectors_written, 4);
    KT_EXPECT_EQ(st.write_ios, 1);
    KT_EXPECT_EQ(st.sectors_read, 5);
    KT_EXPECT_EQ(st.read_ios, 2);
    KT_EXPECT_EQ(st.errors, 0);
    KT_EXPECT_EQ(blkdev_read(bd, 0, 0, in), 0);  /* empty request: nothing counted */
    KT_EXPECT_EQ(bd->read_ios, 2);
    ramdisk_destroy(bd);
    KT_EXPECT(blkdev_get("rtest") == NULL);
}

KTEST(blk, range_check_gives_eio)
{
    static unsigned char buf[2 * SECTOR_SIZE];
    struct block_device *bd = ramdisk_create("rrange", 64);
    KT_ASSERT(bd != NULL);
    KT_EXPECT_EQ(blkdev_read(bd, 64, 1, buf), -EIO);
    KT_EXPECT_EQ(bd->errors, 1);
    KT_EXPECT_EQ(blkdev_read(bd, 63, 2, buf), -EIO);
    KT_EXPECT_EQ(blkdev_write(bd, 0xfffffffful, 2, buf), -EIO);  /* wraps */
    KT_EXPECT_EQ(bd->errors, 3);
    KT_EXPECT_EQ(blkdev_read(bd, 63, 1, buf), 0);                /* last sector is fine */
    KT_EXPECT_EQ(bd->errors, 3);
    KT_EXPECT_EQ(bd->read_ios, 1);
    KT_EXPECT_EQ(bd->sectors_written, 0);
    bd->read_only = 1;
    KT_EXPECT_EQ(blkdev_write(bd, 0, 1, buf), -EROFS);
    KT_EXPECT_EQ(bd->sectors_written, 0);
    ramdisk_destroy(bd);
}

/* A failing driver: a ramdisk whose ops are swapped for these, which fail
 * the fail_after'th request (counting from 1) with the error fail_with and
 * pass every other one to the ramdisk's own ops. */
static const struct block_device_operations *real_ops;
static unsigned long fail_after;
static int fail_with;

static int fail_nth(void)
{
    return fail_after && !--fail_after ? fail_with : 0;
}
static int failing_read(struct block_device *bdev, sector_t sector, unsigned count, void *buf)
{
    return fail_nth() ?: real_ops->read(bdev, sector, count, buf);
}
static int failing_write(struct block_device *bdev, sector_t sector, unsigned count,
                         const void *buf)
{
    return fail_nth() ?: real_ops->write(bdev, sector, count, buf);
}
static const struct block_device_operations failing_ops = {
    .read = failing_read,
    .write = failing_write,
};

KTEST(blk, driver_error_is_one_counted_eio)
{
    static unsigned char buf[SECTOR_SIZE];
    struct block_device *bd = ramdisk_create("rfault", 16);
    KT_ASSERT(bd != NULL);
    real_ops = bd->ops;
    bd->ops = &failing_ops;
    fail_after = 3;
    fail_with = -EIO;
    KT_EXPECT_EQ(blkdev_read(bd, 0, 1, buf), 0);
    KT_EXPECT_EQ(blkdev_write(bd, 1, 1, buf), 0);
    KT_EXPECT_EQ(blkdev_read(bd, 2, 1, buf), -EIO);   /* the third request */
    KT_EXPECT_EQ(fail_after, 0);
    KT_EXPECT_EQ(blkdev_read(bd, 3, 1, buf), 0);      /* and only that one */
    KT_EXPECT_EQ(blkdev_write(bd, 4, 1, buf), 0);
    KT_EXPECT_EQ(bd->errors, 1);
    KT_EXPECT_EQ(bd->read_ios, 2);
    KT_EXPECT_EQ(bd->write_ios, 2);
    /* a driver that returns anything but -EIO is a bug: still -EIO upward */
    fail_after = 1;
    fail_with = -ENOMEM;
    KT_EXPECT_EQ(blkdev_write(bd, 5, 1, buf), -EIO);
    KT_EXPECT_EQ(bd->errors, 2);
    KT_EXPECT_EQ(bd->write_ios, 2);
    bd->ops = real_ops;
    ramdisk_destroy(bd);
}

KTEST(blk, register_rejects_duplicates)
{
    struct block_device *a = ramdisk_create("rdup", 8);
    KT_ASSERT(a != NULL);
    KT_EXPECT(ramdisk_create("rdup", 8) == NULL);
    KT_EXPECT(blkdev_get("rdup") == a);
    KT_EXPECT(blkdev_get("nosuch") == NULL);
    ramdisk_destroy(a);
}
