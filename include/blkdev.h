/* include/blkdev.h: block devices.  A driver (kernel/drivers/ata.c; in the
 * test kernel also kernel/test/ramdisk.c) registers a block_device;
 * filesystems read and write it in 512-byte sectors through
 * blkdev_read()/blkdev_write(), which check the range, count the I/O and
 * call the driver.  There is no request queue or
 * elevator: a request is synchronous and the caller sleeps (or, before the
 * scheduler runs, polls) until it is done.  Simplification on purpose:
 * Linux queues bios and completes them asynchronously.  Writeback still
 * merges: its plug (below) turns runs of contiguous blocks into one
 * request.
 *
 * Counters (for tests and benchmarks): sectors and requests read/written,
 * errors.  Read them through the struct or blkdev_stats().
 */
#ifndef _BLKDEV_H
#define _BLKDEV_H
#include <kernel.h>
#include <list.h>
#include <mutex.h>

typedef unsigned long sector_t;        /* 512-byte units; 32 bits (LBA28 disks) */
#define SECTOR_SIZE 512

struct block_device;

/* One piece of a request: a kernel buffer of bv_len bytes (a multiple of
 * 512).  Linux's bio_vec names a page and an offset; one CPU address is
 * enough here, every page being mapped in the kernel. */
struct bio_vec {
    void *bv_base;
    unsigned bv_len;
};

/*
 * The driver's operations.  Entry, for all three: process context (or
 * boot, before the scheduler runs: poll then), bdev->lock held by
 * blkdev_read/write/flush, so a driver sees one request at a time per
 * device; devices that share hardware (hda and hdb on one ATA channel)
 * need a lock of the driver's own.  buf is a kernel buffer of count * 512
 * bytes.  Synchronous: the data is in buf (read) or on the device (write)
 * when the call returns.
 */
struct block_device_operations {
    /* Transfer count sectors starting at sector.  May sleep.  The range has
     * been checked by the caller.  Returns 0, or -EIO after logging what failed.
     * read is required; a device without write must be read_only. */
    int (*read)(struct block_device *bdev, sector_t sector, unsigned count, void *buf);
    int (*write)(struct block_device *bdev, sector_t sector, unsigned count, const void *buf);
    /* Optional: one write of count sectors gathered from nvec buffers (the
     * pieces of a merged request).  Without it blkdev_writev writes the
     * pieces one by one with ->write. */
    int (*writev)(struct block_device *bdev, sector_t sector, unsigned count,
                  const struct bio_vec *vec, unsigned nvec);
    /* Optional: make written data durable (ATA CACHE FLUSH).  0 or -EIO. */
    int (*flush)(struct block_device *bdev);
};

struct block_device {
    char name[8];                      /* "hda", "hdb", "ram0" */
    sector_t nr_sectors;
    const struct block_device_operations *ops;
    void *private;                     /* driver data */
    struct mutex lock;                 /* serialises requests to the driver */
    int read_only;
    /* statistics */
    unsigned long sectors_read, sectors_written;
    unsigned long read_ios, write_ios, errors;
    unsigned long flushes;
    /* jiffies (never 0) when a metadata buffer of this device went dirty
     * with none dirty before; 0 when all were written (fs/buffer.c).  The
     * flusher's clock for metadata, as dirtied_when is for an inode. */
    unsigned long bd_meta_dirtied;
    /* One sync_blockdev pass at a time (fs/buffer.c): its BH_Towrite tags
     * are its own. */
    struct mutex bd_sync_lock;
    struct list_head list;
};

/* Register a device (name, nr_sectors and ops filled in; the rest is
 * initialised here).  -EEXIST if the name is taken, -EINVAL if malformed. */
int register_blkdev(struct block_device *bdev);
void unregister_blkdev(struct block_device *bdev);
struct block_device *blkdev_get(const char *name);   /* NULL if none */
/* Range-checked, counted, serialised I/O.  -EIO (with a log line) for a range
 * past the end or a driver error; -EROFS for writes to a
 * read-only device. */
int blkdev_read(struct block_device *bdev, sector_t sector, unsigned count, void *buf);
int blkdev_write(struct block_device *bdev, sector_t sector, unsigned count, const void *buf);
/* One request writing the buffers of vec, in order, from sector on: the
 * merged request of writeback (fs/buffer.c).  Counted as one write I/O. */
int blkdev_writev(struct block_device *bdev, sector_t sector, const struct bio_vec *vec,
                  unsigned nvec);
/* Ask the device to make completed writes durable (no-op if it has no cache). */
int blkdev_flush(struct block_device *bdev);

/* Writeback's plug (Linux's blk_start_plug/blk_finish_plug; fs/buffer.c):
 * while a task holds one, block_write_full_page does not write a page's
 * buffers at once (nor submit_bh_write a metadata buffer: the journal's
 * commit) but adds them to the plug, which merges blocks that
 * follow each other on the disk into one request of up to 256 sectors
 * (Linux's elevator back-merge) and sends it when the next block does not
 * follow, the request is full, or the plug is flushed or finished.  A
 * page's writeback ends once its blocks are written.  The holder must
 * flush before it sleeps on anything but the disk (blk_flush_plug):
 * another task may be waiting for the pages the plug holds under
 * writeback.  blk_start_plug returns NULL (no batching) if the task
 * already holds a plug or there is no memory; blk_finish_plug(NULL) does
 * nothing. */
struct blk_plug;
struct blk_plug *blk_start_plug(void);
void blk_flush_plug(void);
void blk_finish_plug(struct blk_plug *plug);

/* A snapshot of a device's counters (benchmarks subtract two of these). */
struct blkdev_stats {
    unsigned long sectors_read, sectors_written;
    unsigned long read_ios, write_ios, errors, flushes;
};
void blkdev_stats(struct block_device *bdev, struct blkdev_stats *st);

/* A RAM-backed block device, in the test kernel only (kernel/test/ramdisk.c). */
struct block_device *ramdisk_create(const char *name, sector_t nr_sectors);
void ramdisk_destroy(struct block_device *bdev);
#endif
