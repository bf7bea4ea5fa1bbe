/* kernel/drivers/ramdisk_test.c: the ktests of ramdisk.c (test=blk); built into the test
 * kernel only (make check), never into the production kernel. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <blkdev.h>
#include <slab.h>
#include <ktest.h>

/* ---- tests (suite blk) ------------------------------------------------- */

static void fill(unsigned char *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(i * 7 + seed);
}

KTEST(blk, ramdisk_round_trip_and_counters)
{
    static unsigned char out[4 * SECTOR_SIZE], in[4 * SECTOR_SIZE];
    struct block_device *bd = ramdisk_create("rtest", 64);
    KASSERT(bd != NULL);
    KEXPECT(blkdev_get("rtest") == bd);
    fill(out, sizeof out, 3);
    KEXPECT_EQ(blkdev_write(bd, 10, 4, out), 0);
    memset(in, 0, sizeof in);
    KEXPECT_EQ(blkdev_read(bd, 10, 4, in), 0);
    KEXPECT(!memcmp(in, out, sizeof in));
    KEXPECT_EQ(blkdev_read(bd, 9, 1, in), 0);  /* untouched: zeroes */
    KEXPECT_EQ(in[0], 0);
    KEXPECT_EQ(in[511], 0);
    struct blkdev_stats st;
    blkdev_stats(bd, &st);
    KEXPECT_EQ(st.sectors_written, 4);
    KEXPECT_EQ(st.write_ios, 1);
    KEXPECT_EQ(st.sectors_read, 5);
    KEXPECT_EQ(st.read_ios, 2);
    KEXPECT_EQ(st.errors, 0);
    KEXPECT_EQ(blkdev_read(bd, 0, 0, in), 0);  /* empty request: nothing counted */
    KEXPECT_EQ(bd->read_ios, 2);
    ramdisk_destroy(bd);
    KEXPECT(blkdev_get("rtest") == NULL);
}

KTEST(blk, range_check_gives_eio)
{
    static unsigned char buf[2 * SECTOR_SIZE];
    struct block_device *bd = ramdisk_create("rrange", 64);
    KASSERT(bd != NULL);
    KEXPECT_EQ(blkdev_read(bd, 64, 1, buf), -EIO);
    KEXPECT_EQ(bd->errors, 1);
    KEXPECT_EQ(blkdev_read(bd, 63, 2, buf), -EIO);
    KEXPECT_EQ(blkdev_write(bd, 0xfffffffful, 2, buf), -EIO);  /* wraps */
    KEXPECT_EQ(bd->errors, 3);
    KEXPECT_EQ(blkdev_read(bd, 63, 1, buf), 0);                /* last sector is fine */
    KEXPECT_EQ(bd->errors, 3);
    KEXPECT_EQ(bd->read_ios, 1);
    KEXPECT_EQ(bd->sectors_written, 0);
    bd->read_only = 1;
    KEXPECT_EQ(blkdev_write(bd, 0, 1, buf), -EROFS);
    KEXPECT_EQ(bd->sectors_written, 0);
    ramdisk_destroy(bd);
}

KTEST(blk, fail_after_injects_exactly_one_eio)
{
    static unsigned char buf[SECTOR_SIZE];
    struct block_device *bd = ramdisk_create("rfault", 16);
    KASSERT(bd != NULL);
    bd->fail_after = 3;
    KEXPECT_EQ(blkdev_read(bd, 0, 1, buf), 0);
    KEXPECT_EQ(blkdev_write(bd, 1, 1, buf), 0);
    KEXPECT_EQ(blkdev_read(bd, 2, 1, buf), -EIO);   /* the third request */
    KEXPECT_EQ(bd->fail_after, 0);
    KEXPECT_EQ(blkdev_read(bd, 3, 1, buf), 0);      /* and only that one */
    KEXPECT_EQ(blkdev_write(bd, 4, 1, buf), 0);
    KEXPECT_EQ(bd->errors, 1);
    KEXPECT_EQ(bd->read_ios, 2);
    KEXPECT_EQ(bd->write_ios, 2);
    ramdisk_destroy(bd);
}

KTEST(blk, register_rejects_duplicates)
{
    struct block_device *a = ramdisk_create("rdup", 8);
    KASSERT(a != NULL);
    KEXPECT(ramdisk_create("rdup", 8) == NULL);
    KEXPECT(blkdev_get("rdup") == a);
    KEXPECT(blkdev_get("nosuch") == NULL);
    ramdisk_destroy(a);
}
