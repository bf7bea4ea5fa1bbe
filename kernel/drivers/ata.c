/* kernel/drivers/ata.c: ATA PIO driver for the primary IDE channel (the disks QEMU's
 * `-drive if=ide,index=0/1` and Bochs's ata0-master/slave provide).
 * Registers "hda" (master) and "hdb" (slave) with the block layer
 * (include/blkdev.h) when IDENTIFY finds them; LBA28 reads and writes in
 * 512-byte sectors, up to 256 per command.  Sits on the block layer above
 * and port I/O below.
 *
 * Multiple mode: READ/WRITE MULTIPLE move a block of mult_count sectors
 * (SET MULTIPLE MODE at init, up to what IDENTIFY word 47 allows: 16 on
 * QEMU) per interrupt instead of one, as Linux's libata uses
 * ATA_CMD_READ_MULTI/WRITE_MULTI for PIO (and the old IDE driver's
 * drive->mult_count).  A write may come from several buffers (->writev, a
 * request writeback merged, fs/buffer.c).
 *
 * The drive's write cache: a write is complete when the drive has taken the
 * data, not when it is on the medium; blkdev_flush (CACHE FLUSH) makes it
 * durable, and fsync, sync and unmount call it (fs/sync.c), as Linux's
 * REQ_PREFLUSH.  (Until then every write was followed by a CACHE FLUSH,
 * which QEMU turns into an fdatasync of the image file: most of the time of
 * a large fsync.)  QEMU completes a write into the image file, so requests
 * reach the image in the order they completed, which is what fs/sync.c's
 * ordered metadata writes rely on between the flushes.
 *
 * Bus-master DMA (PCI IDE: QEMU's PIIX3/PIIX4, Bochs's): when the PCI scan
 * finds the controller (kernel/drivers/pci.c), reads and writes are READ
 * DMA / WRITE DMA commands: the driver writes a PRD table (physical
 * address and length of each buffer piece), points the controller's
 * bus-master registers at it and starts it; the controller moves the data
 * and the drive interrupts once per command, not once per 16 sectors.
 * QEMU then does one host I/O per command instead of one per 8 KiB, which
 * is most of the time of a large fsync (docs/benchmarks.md).  Boot option
 * ata_dma=0, no PCI IDE, or a buffer outside the direct map: programmed I/O.
 * Linux: libata's ata_bmdma_setup/ata_bmdma_start/ata_bmdma_stop.
 *
 * Programmed I/O: the CPU moves every 16-bit word through the data port.
 * The two drives share the channel's registers (and its one interrupt), but
 * the block layer serialises per device (bdev->lock): the channel's own
 * mutex, taken by every operation after bdev->lock, keeps a request to hda
 * and one to hdb (the flusher and a test thread) from interleaving their
 * register writes, as Linux's per-port lock does.
 * Waiting for the drive: with its interrupt (IRQ 14) once the interrupt
 * layer and the scheduler run, the requester sleeps on the channel's wait
 * queue until the drive interrupts; before that (and as the fallback when
 * no IRQ line could be had) it polls the status register, always with a
 * bounded timeout, never forever.  Errors (ERR or DF in the status, or a
 * timeout) become -EIO with a log line naming the device, the sector and
 * the status and error registers.
 *
 * Primary channel registers (io = 0x1F0, ctl = 0x3F6):
 *   io+0 data (16 bit)   io+1 error / features   io+2 sector count
 *   io+3 LBA 0-7         io+4 LBA 8-15           io+5 LBA 16-23
 *   io+6 drive/head: 0xE0 | slave << 4 | LBA 24-27
 *   io+7 status / command     ctl alternate status / device control
 * Status: BSY 0x80, DRDY 0x40, DF 0x20, DRQ 0x08, ERR 0x01.
 * Device control: nIEN 0x02 (interrupts off), SRST 0x04.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <init.h>
#include <blkdev.h>
#include <sched.h>
#include <wait.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <irq.h>
#include <mutex.h>
#include <slab.h>
#include <err.h>
#include <cmdline.h>
#include <mm.h>
#include <pci.h>
#include "../sched_glue.h"

#define ATA_DATA      0
#define ATA_ERROR     1
#define ATA_NSECT     2
#define ATA_LBA0      3
#define ATA_LBA1      4
#define ATA_LBA2      5
#define ATA_DEVICE    6
#define ATA_STATUS    7
#define ATA_COMMAND   7

#define ATA_SR_BSY    0x80
#define ATA_SR_DRDY   0x40
#define ATA_SR_DF     0x20
#define ATA_SR_DRQ    0x08
#define ATA_SR_ERR    0x01

#define ATA_CTL_NIEN  0x02

#define ATA_CMD_READ_SECTORS   0x20
#define ATA_CMD_WRITE_SECTORS  0x30
#define ATA_CMD_READ_MULTIPLE  0xC4
#define ATA_CMD_WRITE_MULTIPLE 0xC5
#define ATA_CMD_SET_MULTIPLE   0xC6
#define ATA_CMD_READ_DMA       0xC8
#define ATA_CMD_WRITE_DMA      0xCA
#define ATA_CMD_CACHE_FLUSH    0xE7
#define ATA_CMD_IDENTIFY       0xEC

/* Bus-master IDE registers (the primary channel's, at BAR4 + 0). */
#define BM_COMMAND    0                /* bit 0 start; bit 3 direction: 1 = to memory */
#define BM_STATUS     2                /* bit 1 error, bit 2 interrupt: write 1 to clear */
#define BM_PRD_TABLE  4                /* 32 bit: physical address of the PRD table */
#define BM_CMD_START  0x01
#define BM_CMD_READ   0x08
#define BM_ST_ERR     0x02
#define BM_ST_IRQ     0x04

/* A Physical Region Descriptor: one buffer piece of a DMA command.  The
 * piece must not cross a 64 KiB boundary; a length of 0 means 64 KiB. */
struct prd {
    uint32_t addr;                     /* physical */
    uint16_t len;
    uint16_t flags;                    /* PRD_EOT on the last entry */
} __packed;
#define PRD_EOT       0x8000
#define PRD_MAX       (PAGE_SIZE / sizeof(struct prd))

#define ATA_TIMEOUT_SECS  5
#define ATA_POLL_LIMIT    20000000UL   /* status reads before giving up without a timer */

struct ata_channel {
    uint16_t io, ctl;
    int irq;
    int use_irq;                       /* 1 once IRQ 14 is ours and the scheduler runs */
    volatile unsigned long irq_count;  /* interrupts seen */
    volatile uint8_t last_irq_status;  /* status read by the handler */
    wait_queue_head_t wq;              /* requester sleeps here in IRQ mode */
    int selected;                      /* drive last selected (-1 none) */
    struct mutex lock;                 /* one command at a time on the channel */
    uint16_t bmdma;                    /* bus-master registers; 0: programmed I/O only */
    struct prd *prd;                   /* the PRD table (one page), if bmdma */
    unsigned long dma_cmds;            /* DMA commands issued (the ata suite checks) */
};

struct ata_drive {
    struct block_device bdev;
    struct ata_channel *ch;
    int slave;
    unsigned mult_count;               /* sectors per interrupt: 1, or READ/WRITE MULTIPLE's */
    unsigned max_mult;                 /* IDENTIFY word 47: the most multiple mode allows */
    bool dma;                          /* IDENTIFY word 49 bit 8: the drive does DMA */
    char model[41];
};

static struct ata_channel primary = {
    .io = 0x1F0, .ctl = 0x3F6, .irq = 14, .selected = -1,
    .wq = __WAIT_QUEUE_HEAD_INITIALIZER(primary.wq),
    .lock = { .wait = __WAIT_QUEUE_HEAD_INITIALIZER(primary.lock.wait), .name = "ata primary" },
};
static struct ata_drive drives[2];

static inline uint8_t ata_status(struct ata_channel *ch)     { return inb(ch->io + ATA_STATUS); }
static inline uint8_t ata_altstatus(struct ata_channel *ch)  { return inb(ch->ctl); }

/* The drive needs 400 ns after a select or a command before its status is
 * meaningful: four reads of the alternate status register take that long. */
static void ata_delay400(struct ata_channel *ch)
{
    for (int i = 0; i < 4; i++)
        ata_altstatus(ch);
}

static int ata_error(struct ata_drive *d, const char *what, sector_t sector, uint8_t st)
{
    uint8_t err = inb(d->ch->io + ATA_ERROR);
    printk(KERN_ERR "ata: %s: %s failed at sector %lu: status %#x%s%s%s error %#x: -EIO\n",
           d->bdev.name[0] ? d->bdev.name : (d->slave ? "slave" : "master"), what, sector,
           st, st & ATA_SR_BSY ? " (timeout, BSY)" : "", st & ATA_SR_ERR ? " ERR" : "",
           st & ATA_SR_DF ? " DF" : "", err);
    return -EIO;
}

/* Poll until BSY clears; returns the status, or it with BSY still set on
 * timeout.  Bounded by time (when the timer ticks) and by a count of reads
 * (when it does not, e.g. before interrupts are on). */
static uint8_t ata_poll_notbusy(struct ata_channel *ch)
{
    unsigned long deadline = jiffies + ATA_TIMEOUT_SECS * HZ;
    uint8_t st = 0;
    for (unsigned long i = 0; i < ATA_POLL_LIMIT; i++) {
        st = ata_altstatus(ch);
        if (!(st & ATA_SR_BSY))
            return ata_status(ch);     /* reading STATUS also acknowledges the IRQ */
        if ((i & 1023) == 1023) {
            if ((long)(jiffies - deadline) > 0)
                break;
            cond_resched();            /* polling: let other tasks in */
        }
    }
    return st | ATA_SR_BSY;
}

/* Wait for the drive to finish what it was doing (the next sector's data
 * ready, a write sector absorbed, a command done).  In IRQ mode we sleep
 * until the interrupt, then read the status. */
static uint8_t ata_wait(struct ata_channel *ch, unsigned long irqs_before)
{
    if (ch->use_irq) {
        long left = wait_event_timeout(ch->wq, ch->irq_count != irqs_before,
                                       ATA_TIMEOUT_SECS * HZ);
        if (!left)
            printk(KERN_WARNING "ata: no interrupt within %d s; polling\n", ATA_TIMEOUT_SECS);
    }
    return ata_poll_notbusy(ch);
}

/* IRQ 14 handler: acknowledge the drive (reading STATUS drops its INTRQ
 * line), count the interrupt and wake the requester, which looks at the
 * status itself. */
static void ata_interrupt(struct pt_regs *regs, void *data)
{
    struct ata_channel *ch = data;
    (void)regs;
    ch->last_irq_status = ata_status(ch);
    ch->irq_count++;
    wake_up(&ch->wq);
}

static int ata_select(struct ata_drive *d, sector_t lba)
{
    struct ata_channel *ch = d->ch;
    uint8_t st = ata_poll_notbusy(ch);
    if (st & ATA_SR_BSY)
        return ata_error(d, "select (drive busy)", lba, st);
    outb(ch->io + ATA_DEVICE, 0xE0 | (d->slave << 4) | ((lba >> 24) & 0x0F));
    if (ch->selected != d->slave) {
        ata_delay400(ch);
        ch->selected = d->slave;
    }
    return 0;
}

/* Issue an LBA28 command for n (1..256) sectors; returns the IRQ count
 * before the command, to wait for the next interrupt. */
static unsigned long ata_issue(struct ata_drive *d, uint8_t cmd, sector_t lba, unsigned n)
{
    struct ata_channel *ch = d->ch;
    unsigned long irqs = ch->irq_count;
    outb(ch->io + ATA_NSECT, n & 0xFF);            /* 0 means 256 */
    outb(ch->io + ATA_LBA0, lba & 0xFF);
    outb(ch->io + ATA_LBA1, (lba >> 8) & 0xFF);
    outb(ch->io + ATA_LBA2, (lba >> 16) & 0xFF);
    outb(ch->io + ATA_COMMAND, cmd);
    ata_delay400(ch);
    return irqs;
}

static int ata_flush_drive(struct ata_drive *d)
{
    int ret = ata_select(d, 0);
    if (ret)
        return ret;
    unsigned long irqs = ata_issue(d, ATA_CMD_CACHE_FLUSH, 0, 0);
    uint8_t st = ata_wait(d->ch, irqs);
    if (st & (ATA_SR_BSY | ATA_SR_ERR | ATA_SR_DF))
        return ata_error(d, "cache flush", 0, st);
    return 0;
}

/* ---- bus-master DMA ----------------------------------------------------- */

/* Describe count sectors of the pieces vec[0..] (from *vec at byte *off) in
 * the PRD table: one entry per physically contiguous piece, split at 64 KiB
 * boundaries.  Advances *vec / *off past them.  Returns the number of
 * entries, or 0 if a piece is not in the direct map (or does not fit):
 * the caller then uses programmed I/O. */
static unsigned ata_build_prd(struct ata_channel *ch, const struct bio_vec **vec,
                              unsigned *off, unsigned count)
{
    unsigned n = 0, left = count * SECTOR_SIZE;
    const struct bio_vec *v = *vec;
    unsigned o = *off;
    while (left) {
        if (o == v->bv_len) {
            v++;
            o = 0;
        }
        const char *p = (const char *)v->bv_base + o;
        unsigned len = min(left, v->bv_len - o);
        if (!virt_addr_valid(p) || !virt_addr_valid(p + len - 1))
            return 0;
        uint32_t phys = virt_to_phys(p);
        unsigned room = 0x10000 - (phys & 0xFFFF);   /* to the next 64 KiB boundary */
        if (len > room)
            len = room;
        if (n == PRD_MAX)
            return 0;
        ch->prd[n].addr = phys;
        ch->prd[n].len = (uint16_t)len;              /* 65536 -> 0, as the format says */
        ch->prd[n].flags = 0;
        n++;
        o += len;
        left -= len;
    }
    ch->prd[n - 1].flags = PRD_EOT;
    *vec = v;
    *off = o;
    return n;
}

/* Where a transfer is in its buffers: the piece *vec, at byte off of it. */
struct ata_cursor {
    const struct bio_vec *vec;
    unsigned off;
};

/* One DMA command: n (1..256) sectors at sector, to or from the buffers at
 * c (the PRD table is filled here; c moves past them).  Waits for the
 * drive's interrupt, stops the engine, checks both status registers. */
static int ata_dma_command(struct ata_drive *d, int write, sector_t sector, unsigned n,
                           struct ata_cursor *c)
{
    struct ata_channel *ch = d->ch;
    uint8_t dir = write ? 0 : BM_CMD_READ;
    ata_build_prd(ch, &c->vec, &c->off, n);
    int ret = ata_select(d, sector);
    if (ret)
        return ret;
    outb(ch->bmdma + BM_COMMAND, dir);                       /* stopped */
    outl(ch->bmdma + BM_PRD_TABLE, virt_to_phys(ch->prd));
    outb(ch->bmdma + BM_STATUS, BM_ST_ERR | BM_ST_IRQ);      /* clear both */
    barrier();                         /* the buffers and the table in memory first */
    unsigned long irqs = ata_issue(d, write ? ATA_CMD_WRITE_DMA : ATA_CMD_READ_DMA, sector, n);
    outb(ch->bmdma + BM_COMMAND, dir | BM_CMD_START);
    ch->dma_cmds++;
    uint8_t st = ata_wait(ch, irqs);
    uint8_t bst = inb(ch->bmdma + BM_STATUS);
    outb(ch->bmdma + BM_COMMAND, dir);                       /* stop the engine */
    outb(ch->bmdma + BM_STATUS, BM_ST_ERR | BM_ST_IRQ);
    barrier();                         /* a read's data is in memory now */
    if ((st & (ATA_SR_BSY | ATA_SR_ERR | ATA_SR_DF | ATA_SR_DRQ)) || (bst & BM_ST_ERR))
        return ata_error(d, write ? "DMA write" : "DMA read", sector, st);
    return 0;
}

/* Can DMA describe every piece of a count-sector transfer from vec (all in
 * the direct map, PRD_MAX entries per command enough)? */
static bool ata_dma_can(struct ata_drive *d, unsigned count, const struct bio_vec *vec)
{
    unsigned off = 0;
    for (unsigned done = 0; done < count; ) {
        unsigned n = min(count - done, 256u);
        if (!ata_build_prd(d->ch, &vec, &off, n))
            return false;
        done += n;
    }
    return true;
}

static bool ata_dma_enabled = true;    /* boot option ata_dma=0 clears it */

static bool ata_use_dma(struct ata_drive *d)
{
    return d->ch->bmdma && d->dma && ata_dma_enabled;
}

/* ---- programmed I/O ------------------------------------------------------ */

/* The next sector of the buffers at c, and c moved past it. */
static void *ata_cursor_sector(struct ata_cursor *c)
{
    if (c->off == c->vec->bv_len) {
        c->vec++;
        c->off = 0;
    }
    void *p = (char *)c->vec->bv_base + c->off;
    c->off += SECTOR_SIZE;
    return p;
}

/* One programmed-I/O command: n (1..256) sectors at sector, to or from the
 * buffers at c.  One interrupt, one DRQ block: mult_count sectors (1
 * without multiple mode).  A write's first block is asked for without an
 * interrupt (poll for DRQ), and its last one ends with the interrupt that
 * says the drive took it. */
static int ata_pio_command(struct ata_drive *d, int write, sector_t sector, unsigned n,
                           struct ata_cursor *c)
{
    struct ata_channel *ch = d->ch;
    const char *what = write ? "write" : "read";
    uint8_t cmd = d->mult_count > 1 ? (write ? ATA_CMD_WRITE_MULTIPLE : ATA_CMD_READ_MULTIPLE)
                                    : (write ? ATA_CMD_WRITE_SECTORS : ATA_CMD_READ_SECTORS);
    int ret = ata_select(d, sector);
    if (ret)
        return ret;
    unsigned long irqs = ata_issue(d, cmd, sector, n);
    uint8_t st = write ? ata_poll_notbusy(ch) : ata_wait(ch, irqs);
    for (unsigned i = 0; i < n; ) {
        if (st & (ATA_SR_BSY | ATA_SR_ERR | ATA_SR_DF) || !(st & ATA_SR_DRQ))
            return ata_error(d, what, sector + i, st);
        irqs = ch->irq_count;
        barrier();                     /* a write's buffers in memory before outsw */
        for (unsigned k = min(n - i, d->mult_count); k; k--, i++) {
            void *p = ata_cursor_sector(c);
            if (write)
                outsw(ch->io + ATA_DATA, p, 256);
            else
                insw(ch->io + ATA_DATA, p, 256);
        }
        if (write || i < n)
            st = ata_wait(ch, irqs);   /* DRQ for the next block, or a write done */
    }
    if (write && (st & (ATA_SR_BSY | ATA_SR_ERR | ATA_SR_DF)))
        return ata_error(d, what, sector + n - 1, st);
    return 0;                          /* a write is in the drive's cache: blkdev_flush for the medium */
}

/* ---- the block_device_operations: bdev->lock held (blkdev.c) ----------- */

/* count sectors at sector, to or from the buffers of vec in turn (each a
 * whole number of sectors), one command of up to 256 sectors at a time: by
 * DMA if the channel has it and every piece can be described, else by
 * programmed I/O.  Takes the channel. */
static int ata_rw(struct block_device *bdev, int write, sector_t sector, unsigned count,
                  const struct bio_vec *vec)
{
    struct ata_drive *d = bdev->private;
    struct ata_cursor c = { vec, 0 };
    int ret = 0;
    mutex_lock(&d->ch->lock);
    bool dma = ata_use_dma(d) && ata_dma_can(d, count, vec);
    while (count && !ret) {
        unsigned n = min(count, 256u);
        ret = dma ? ata_dma_command(d, write, sector, n, &c)
                  : ata_pio_command(d, write, sector, n, &c);
        sector += n;
        count -= n;
    }
    mutex_unlock(&d->ch->lock);
    return ret;
}

static int ata_read(struct block_device *bdev, sector_t sector, unsigned count, void *buf)
{
    struct bio_vec v = { buf, count * SECTOR_SIZE };
    return ata_rw(bdev, 0, sector, count, &v);
}

static int ata_writev(struct block_device *bdev, sector_t sector, unsigned count,
                      const struct bio_vec *vec, unsigned nvec)
{
    return ata_rw(bdev, 1, sector, count, vec);
}

static int ata_write(struct block_device *bdev, sector_t sector, unsigned count, const void *buf)
{
    struct bio_vec v = { (void *)buf, count * SECTOR_SIZE };
    return ata_writev(bdev, sector, count, &v, 1);
}

static int ata_flush(struct block_device *bdev)
{
    struct ata_drive *d = bdev->private;
    mutex_lock(&d->ch->lock);
    int ret = ata_flush_drive(d);
    mutex_unlock(&d->ch->lock);
    return ret;
}

static const struct block_device_operations ata_ops = {
    .read = ata_read,
    .write = ata_write,
    .writev = ata_writev,
    .flush = ata_flush,
};

/* IDENTIFY DEVICE: 256 words about the drive.  Returns 0 and fills the
 * drive if an ATA disk answers; -ENODEV for nothing there (or ATAPI). */
static int ata_identify(struct ata_drive *d)
{
    struct ata_channel *ch = d->ch;
    static uint16_t id[256];

    outb(ch->io + ATA_DEVICE, 0xA0 | (d->slave << 4));
    ata_delay400(ch);
    ch->selected = d->slave;
    uint8_t st = ata_status(ch);
    if (st == 0xFF || st == 0x00)      /* floating bus / no drive */
        return -ENODEV;
    outb(ch->io + ATA_NSECT, 0);
    outb(ch->io + ATA_LBA0, 0);
    outb(ch->io + ATA_LBA1, 0);
    outb(ch->io + ATA_LBA2, 0);
    outb(ch->io + ATA_COMMAND, ATA_CMD_IDENTIFY);
    ata_delay400(ch);
    if (ata_status(ch) == 0)
        return -ENODEV;
    st = ata_poll_notbusy(ch);
    if (st & ATA_SR_BSY)
        return -ENODEV;
    if (inb(ch->io + ATA_LBA1) || inb(ch->io + ATA_LBA2))
        return -ENODEV;                /* ATAPI or SATA signature: not ours */
    if ((st & (ATA_SR_ERR | ATA_SR_DF)) || !(st & ATA_SR_DRQ))
        return -ENODEV;
    insw(ch->io + ATA_DATA, id, 256);

    for (int i = 0; i < 20; i++) {     /* model: words 27-46, bytes swapped */
        d->model[2 * i] = id[27 + i] >> 8;
        d->model[2 * i + 1] = id[27 + i] & 0xFF;
    }
    d->model[40] = 0;
    for (int i = 39; i >= 0 && d->model[i] == ' '; i--)
        d->model[i] = 0;
    if (!(id[49] & (1 << 9))) {
        printk(KERN_WARNING "ata: %s drive \"%s\" has no LBA; ignored\n",
               d->slave ? "slave" : "master", d->model);
        return -ENODEV;
    }
    d->bdev.nr_sectors = id[60] | ((unsigned long)id[61] << 16);   /* LBA28 sectors */
    d->max_mult = id[47] & 0xFF;
    d->dma = id[49] & (1 << 8);
    d->mult_count = 1;
    return d->bdev.nr_sectors ? 0 : -ENODEV;
}

/* SET MULTIPLE MODE to the most the drive allows (at most 16: QEMU's and
 * Bochs's limit); on an error the drive stays at one sector per interrupt.
 * Boot time, polled. */
static void ata_set_multiple(struct ata_drive *d)
{
    unsigned mult = min(d->max_mult, 16u);
    if (mult < 2 || ata_select(d, 0))
        return;
    ata_issue(d, ATA_CMD_SET_MULTIPLE, 0, mult);
    uint8_t st = ata_poll_notbusy(d->ch);
    if (!(st & (ATA_SR_BSY | ATA_SR_ERR | ATA_SR_DF)))
        d->mult_count = mult;
}

/* Find the PCI IDE controller with bus mastering (prog-if bit 7), take its
 * BAR4 (the bus-master registers, I/O space), let it master the bus, and
 * allocate the PRD table.  Anything missing: programmed I/O. */
static void ata_probe_bmdma(struct ata_channel *ch)
{
    const char *opt = cmdline_get("ata_dma");
    if (opt && !strcmp(opt, "0")) {
        ata_dma_enabled = false;
        printk(KERN_INFO "ata: ata_dma=0: programmed I/O\n");
    }
    struct pci_loc l;
    if (pci_find_class(PCI_CLASS_STORAGE_IDE, 0x80, &l))
        return;
    uint32_t bar4 = pci_read_config32(l.bus, l.dev, l.fn, PCI_BASE_ADDRESS_4);
    if (!(bar4 & 1) || !(bar4 & 0xFFFC))
        return;                        /* not an I/O BAR, or not assigned */
    struct page *page = alloc_page(GFP_KERNEL);
    if (!page)
        return;
    uint16_t cmd = pci_read_config32(l.bus, l.dev, l.fn, PCI_COMMAND) & 0xFFFF;
    pci_write_config16(l.bus, l.dev, l.fn, PCI_COMMAND, cmd | PCI_COMMAND_IO | PCI_COMMAND_MASTER);
    ch->prd = page_address(page);
    ch->bmdma = bar4 & 0xFFFC;
    for (int i = 0; i < 2; i++)
        if (drives[i].bdev.name[0])
            printk(KERN_INFO "ata: %s: %s\n", drives[i].bdev.name, ata_use_dma(&drives[i]) ?
                   "bus-master DMA, 256 sectors per interrupt" : "programmed I/O");
    printk(KERN_INFO "ata: PCI IDE at 00:%02x.%u, bus-master registers at %#x\n",
           l.dev, l.fn, ch->bmdma);
}

static void ata_init(void)
{
    struct ata_channel *ch = &primary;
    outb(ch->ctl, ATA_CTL_NIEN);       /* polled until an IRQ handler is installed */
    if (inb(ch->io + ATA_STATUS) == 0xFF) {
        printk(KERN_INFO "ata: no primary IDE channel (floating bus)\n");
        return;
    }
    for (int i = 0; i < 2; i++) {
        struct ata_drive *d = &drives[i];
        d->ch = ch;
        d->slave = i;
        if (ata_identify(d))
            continue;
        ata_set_multiple(d);
        strlcpy(d->bdev.name, i ? "hdb" : "hda", sizeof d->bdev.name);
        d->bdev.ops = &ata_ops;
        d->bdev.private = d;
        printk(KERN_INFO "ata: %s: \"%s\", %lu sectors, LBA28, %u sectors per PIO interrupt\n",
               d->bdev.name, d->model, d->bdev.nr_sectors, d->mult_count);
        if (register_blkdev(&d->bdev))
            d->bdev.name[0] = 0;
    }
    /* From now on sleep on IRQ 14 instead of polling.  Initcalls of level
     * >= 4 run with interrupts on and the scheduler up, so we can. */
    if (!drives[0].bdev.name[0] && !drives[1].bdev.name[0]) {
        printk(KERN_INFO "ata: no disks on the primary channel\n");
        return;
    }
    ata_probe_bmdma(ch);
    if (request_irq(ch->irq, ata_interrupt, ch) == 0) {
        ch->use_irq = 1;
        outb(ch->ctl, 0);              /* nIEN off: the drive may interrupt */
        printk(KERN_INFO "ata: primary channel on IRQ %d\n", ch->irq);
    } else {
        printk(KERN_WARNING "ata: IRQ %d unavailable; polling\n", ch->irq);
    }
}
device_initcall(ata_init);
