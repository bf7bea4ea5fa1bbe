/* kernel/test/blkslice.c: fixed-size slices of hdb as block devices hdb1,
 * hdb2, ... (in the test kernel only), so that one boot can mount many
 * small filesystem images laid end to end on one disk: the corrupt-image
 * fuzzer's walker (tools/tests/ext2fuzz.sh, user/tests/ext2walk.c) mounts
 * /dev/hdbK for image K.
 *
 *   blkslice=KIB   on the command line: slice hdb into pieces of KIB KiB;
 *                  slice K (from 1) covers bytes [(K-1)*KIB, K*KIB) KiB
 *
 * Simplification on purpose: Linux's partitions come from a partition
 * table (block/partitions/msdos.c reads the MBR) and share the disk's
 * request queue; here the slices are equal, tableless, and each is a block
 * device of its own whose driver forwards a request, shifted by the
 * slice's first sector, to blkdev_read/blkdev_write on hdb (so hdb's lock
 * serialises them as it does hdb's own I/O).  Registered at
 * device_initcall after the ATA driver (kernel/test/ is linked last). */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <init.h>
#include <cmdline.h>
#include <blkdev.h>
#include <slab.h>

#define BLKSLICE_MAX 256

struct blkslice {
    struct block_device bdev;
    struct block_device *parent;
    sector_t start;
};

static int slice_read(struct block_device *bdev, sector_t sector, unsigned count, void *buf)
{
    struct blkslice *s = bdev->private;
    return blkdev_read(s->parent, s->start + sector, count, buf);
}

static int slice_write(struct block_device *bdev, sector_t sector, unsigned count,
                       const void *buf)
{
    struct blkslice *s = bdev->private;
    return blkdev_write(s->parent, s->start + sector, count, buf);
}

static int slice_writev(struct block_device *bdev, sector_t sector, unsigned count,
                        const struct bio_vec *vec, unsigned nvec)
{
    struct blkslice *s = bdev->private;
    return blkdev_writev(s->parent, s->start + sector, vec, nvec);
}

static int slice_flush(struct block_device *bdev)
{
    struct blkslice *s = bdev->private;
    return blkdev_flush(s->parent);
}

static const struct block_device_operations slice_ops = {
    .read = slice_read,
    .write = slice_write,
    .writev = slice_writev,
    .flush = slice_flush,
};

static void blkslice_init(void)
{
    const char *arg = cmdline_get("blkslice");
    if (!arg || !*arg)
        return;
    struct block_device *hdb = blkdev_get("hdb");
    unsigned long kib = simple_strtoul(arg, NULL, 10);
    if (!hdb || kib == 0 || kib * 2 > hdb->nr_sectors) {
        printk(KERN_ERR "blkslice: no slices of %lu KiB (hdb: %lu sectors)\n", kib,
               hdb ? hdb->nr_sectors : 0);
        return;
    }
    sector_t per = kib * 2;
    unsigned long n = hdb->nr_sectors / per;
    if (n > BLKSLICE_MAX)
        n = BLKSLICE_MAX;
    for (unsigned long k = 1; k <= n; k++) {
        struct blkslice *s = kzalloc(sizeof *s, GFP_KERNEL);
        if (!s)
            break;
        snprintf(s->bdev.name, sizeof s->bdev.name, "hdb%lu", k);
        s->bdev.nr_sectors = per;
        s->bdev.ops = &slice_ops;
        s->bdev.private = s;
        s->parent = hdb;
        s->start = (k - 1) * per;
        if (register_blkdev(&s->bdev)) {
            kfree(s);
            break;
        }
        /* A slice's request holds its own lock while it takes hdb's: a
         * lock class of its own for the validator (this init site), as
         * Linux gives a stacked device's queue lock a class of its own. */
        mutex_init(&s->bdev.lock);
    }
    printk(KERN_INFO "blkslice: hdb in %lu slices of %lu KiB\n", n, kib);
}
device_initcall(blkslice_init);
