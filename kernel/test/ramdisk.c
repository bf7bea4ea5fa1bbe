/* kernel/test/ramdisk.c: a RAM-backed block device (include/blkdev.h), for
 * tests of the block layer and of filesystems without a disk; in the test
 * kernel only (nothing in the production kernel creates one).  The storage
 * is one kmalloc'd buffer of nr_sectors * 512 bytes, zeroed. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <blkdev.h>
#include <slab.h>

struct ramdisk {
    struct block_device bdev;
    unsigned char *data;
};

static int ramdisk_read(struct block_device *bdev, sector_t sector, unsigned count, void *buf)
{
    struct ramdisk *rd = bdev->private;
    memcpy(buf, rd->data + (size_t)sector * SECTOR_SIZE, (size_t)count * SECTOR_SIZE);
    return 0;
}

static int ramdisk_write(struct block_device *bdev, sector_t sector, unsigned count,
                         const void *buf)
{
    struct ramdisk *rd = bdev->private;
    memcpy(rd->data + (size_t)sector * SECTOR_SIZE, buf, (size_t)count * SECTOR_SIZE);
    return 0;
}

static const struct block_device_operations ramdisk_ops = {
    .read = ramdisk_read,
    .write = ramdisk_write,
};

/* Returns the registered device, or NULL (logged) if out of memory or the
 * name is taken. */
struct block_device *ramdisk_create(const char *name, sector_t nr_sectors)
{
    if (!name || !*name || nr_sectors == 0 || nr_sectors > (64UL << 20) / SECTOR_SIZE) {
        printk(KERN_ERR "ramdisk: bad arguments (%s, %lu sectors)\n", name ? name : "?",
               nr_sectors);
        return NULL;
    }
    struct ramdisk *rd = kzalloc(sizeof *rd, GFP_KERNEL);
    if (!rd)
        return NULL;
    rd->data = kmalloc((size_t)nr_sectors * SECTOR_SIZE, GFP_KERNEL);
    if (!rd->data) {
        printk(KERN_ERR "ramdisk: no memory for %lu sectors\n", nr_sectors);
        kfree(rd);
        return NULL;
    }
    memset(rd->data, 0, (size_t)nr_sectors * SECTOR_SIZE);
    strlcpy(rd->bdev.name, name, sizeof rd->bdev.name);
    rd->bdev.nr_sectors = nr_sectors;
    rd->bdev.ops = &ramdisk_ops;
    rd->bdev.private = rd;
    if (register_blkdev(&rd->bdev)) {
        kfree(rd->data);
        kfree(rd);
        return NULL;
    }
    return &rd->bdev;
}

void ramdisk_destroy(struct block_device *bdev)
{
    if (!bdev || bdev->ops != &ramdisk_ops)
        return;
    struct ramdisk *rd = bdev->private;
    unregister_blkdev(bdev);
    kfree(rd->data);
    kfree(rd);
}
