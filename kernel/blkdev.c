/* kernel/blkdev.c: the block layer (include/blkdev.h): a registry of block
 * devices and the one entry point, blkdev_read()/blkdev_write(), that every
 * filesystem uses.  It checks the range, serialises requests per device
 * (bdev->lock, a mutex: drivers sleep while the disk works), counts the
 * I/O.  Sits on the scheduler (mutexes);
 * drivers (ata.c, ramdisk.c) sit below it.
 *
 * The drivers still run under the big kernel lock (their interrupt
 * handlers take it too, include/smp_lock.h): a request from code that runs
 * without it (read and write of a file since SMP step 5, docs/smp.md)
 * takes it here, around the request.
 *
 * Simplification on purpose: requests are synchronous.  Linux builds a bio,
 * queues it (possibly merged and reordered by an I/O scheduler), and the
 * caller waits for its completion; here the caller's own call into the
 * driver is the request. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <blkdev.h>
#include <smp_lock.h>
#include <asm/irqflags.h>

static LIST_HEAD(blkdev_list);

int register_blkdev(struct block_device *bdev)
{
    if (!bdev || !bdev->ops || !bdev->ops->read || !bdev->name[0])
        return -EINVAL;
    if (blkdev_get(bdev->name)) {
        printk(KERN_ERR "blk: %s already registered\n", bdev->name);
        return -EEXIST;
    }
    mutex_init(&bdev->lock);
    bdev->lock.name = bdev->name;
    mutex_init(&bdev->bd_sync_lock);
    bdev->sectors_read = bdev->sectors_written = 0;
    bdev->read_ios = bdev->write_ios = bdev->errors = bdev->flushes = 0;
    list_add_tail(&bdev->list, &blkdev_list);
    printk(KERN_INFO "blk: %s: %lu sectors (%lu KiB)%s\n", bdev->name, bdev->nr_sectors,
           bdev->nr_sectors / 2, bdev->read_only ? ", read-only" : "");
    return 0;
}

void unregister_blkdev(struct block_device *bdev)
{
    if (bdev && bdev->list.next)
        list_del(&bdev->list);
}

struct block_device *blkdev_get(const char *name)
{
    struct block_device *b;
    if (!name)
        return NULL;
    list_for_each_entry(b, &blkdev_list, list)
        if (!strcmp(b->name, name))
            return b;
    return NULL;
}

/* Range check: sector + count must not pass the end (and must not wrap). */
static int check_range(struct block_device *bdev, const char *op, sector_t sector,
                       unsigned count)
{
    if (sector < bdev->nr_sectors && count <= bdev->nr_sectors - sector)
        return 0;
    printk(KERN_ERR "blk: %s: %s of sectors %lu+%u beyond the end (%lu sectors): -EIO\n",
           bdev->name, op, sector, count, bdev->nr_sectors);
    return -EIO;
}

/* The driver call of one request: a read into vec[0]; a write of the nvec
 * pieces with ->writev, or piece by piece with ->write. */
static int driver_rw(struct block_device *bdev, int write, sector_t sector, unsigned count,
                     const struct bio_vec *vec, unsigned nvec)
{
    if (!write)
        return bdev->ops->read(bdev, sector, count, vec[0].bv_base);
    if (bdev->ops->writev)
        return bdev->ops->writev(bdev, sector, count, vec, nvec);
    for (unsigned k = 0; k < nvec; k++) {
        int ret = bdev->ops->write(bdev, sector, vec[k].bv_len / SECTOR_SIZE, vec[k].bv_base);
        if (ret)
            return ret;
        sector += vec[k].bv_len / SECTOR_SIZE;
    }
    return 0;
}

static int blkdev_rw(struct block_device *bdev, int write, sector_t sector,
                     const struct bio_vec *vec, unsigned nvec)
{
    const char *op = write ? "write" : "read";
    unsigned count = 0;
    int ret;
    if (!bdev || !vec || !nvec || !vec[0].bv_base)
        return -EINVAL;
    for (unsigned k = 0; k < nvec; k++) {
        BUG_ON(vec[k].bv_len % SECTOR_SIZE);        /* whole sectors: the caller's contract */
        count += vec[k].bv_len / SECTOR_SIZE;
    }
    if (count == 0)
        return 0;
    if (write && bdev->read_only) {
        printk(KERN_ERR "blk: %s: write to read-only device: -EROFS\n", bdev->name);
        return -EROFS;
    }
    lock_kernel();
    mutex_lock(&bdev->lock);
    ret = check_range(bdev, op, sector, count);
    if (!ret)
        ret = driver_rw(bdev, write, sector, count, vec, nvec);
    if (ret) {
        bdev->errors++;
        if (ret != -EIO)               /* drivers return -EIO; anything else is a bug */
            printk(KERN_ERR "blk: %s: driver returned %d for %s; treating as -EIO\n",
                   bdev->name, ret, op);
        ret = -EIO;
    } else if (write) {
        bdev->write_ios++;
        bdev->sectors_written += count;
    } else {
        bdev->read_ios++;
        bdev->sectors_read += count;
    }
    mutex_unlock(&bdev->lock);
    unlock_kernel();
    return ret;
}

int blkdev_read(struct block_device *bdev, sector_t sector, unsigned count, void *buf)
{
    struct bio_vec v = { buf, count * SECTOR_SIZE };
    return blkdev_rw(bdev, 0, sector, &v, 1);
}

int blkdev_write(struct block_device *bdev, sector_t sector, unsigned count, const void *buf)
{
    struct bio_vec v = { (void *)buf, count * SECTOR_SIZE };
    return blkdev_rw(bdev, 1, sector, &v, 1);
}

int blkdev_writev(struct block_device *bdev, sector_t sector, const struct bio_vec *vec,
                  unsigned nvec)
{
    return blkdev_rw(bdev, 1, sector, vec, nvec);
}

int blkdev_flush(struct block_device *bdev)
{
    int ret = 0;
    if (!bdev)
        return -EINVAL;
    lock_kernel();
    mutex_lock(&bdev->lock);
    if (bdev->ops->flush)
        ret = bdev->ops->flush(bdev);
    if (ret) {
        bdev->errors++;
        ret = -EIO;
    } else {
        bdev->flushes++;
    }
    mutex_unlock(&bdev->lock);
    unlock_kernel();
    return ret;
}

void blkdev_stats(struct block_device *bdev, struct blkdev_stats *st)
{
    unsigned long flags = local_irq_save();
    st->sectors_read = bdev->sectors_read;
    st->sectors_written = bdev->sectors_written;
    st->read_ios = bdev->read_ios;
    st->write_ios = bdev->write_ios;
    st->errors = bdev->errors;
    st->flushes = bdev->flushes;
    local_irq_restore(flags);
}
