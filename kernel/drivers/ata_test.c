/* kernel/drivers/ata_test.c: the ktests of ata.c (test=ata); built into the
 * test kernel only (make check), never into the production kernel. The tests
 * reach ata.c's static functions and data, so this file includes it: in the
 * test kernel the two are one object (Makefile). */
#include "ata.c"
#include <ktest.h>
#include <smp.h>

/* ---- tests (suite ata; tools/suites/ata.conf attaches the two images that
 * mk/ata.mk builds: hda 2048 sectors, hdb 1024 sectors; sector k of hda
 * starts with the 32-bit little-endian k, of hdb with 0x10000000 + k, and
 * byte i >= 4 of sector k is (k + i) & 0xff on both) ---------------------- */

#define ATA_TEST_HDA_SECTORS 2048
#define ATA_TEST_HDB_SECTORS 1024
#define ATA_TEST_WRITE_LBA   1000      /* post_check in ata.conf reads it back */

static int check_pattern(const unsigned char *buf, sector_t first, unsigned n, uint32_t base)
{
    for (unsigned s = 0; s < n; s++) {
        const unsigned char *b = buf + s * SECTOR_SIZE;
        sector_t k = first + s;
        uint32_t tag = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
        if (tag != base + k)
            return -(int)k - 1;
        for (int i = 4; i < SECTOR_SIZE; i++)
            if (b[i] != ((k + i) & 0xFF))
                return -(int)k - 1;
    }
    return 0;
}

static unsigned char ata_buf[300 * SECTOR_SIZE];

KTEST(ata, both_disks_identified)
{
    struct block_device *a = blkdev_get("hda"), *b = blkdev_get("hdb");
    KT_ASSERT(a != NULL);
    KT_ASSERT(b != NULL);
    KT_EXPECT_EQ(a->nr_sectors, ATA_TEST_HDA_SECTORS);
    KT_EXPECT_EQ(b->nr_sectors, ATA_TEST_HDB_SECTORS);
}

KTEST(ata, read_pattern_across_command_boundary)
{
    struct block_device *a = blkdev_get("hda");
    KT_ASSERT(a != NULL);
    struct blkdev_stats st0, st1;
    blkdev_stats(a, &st0);
    unsigned long irqs0 = primary.irq_count;
    memset(ata_buf, 0xEE, sizeof ata_buf);
    /* 300 sectors: one 256-sector command and one of 44 */
    KT_ASSERT_EQ(blkdev_read(a, 100, 300, ata_buf), 0);
    KT_EXPECT_EQ(check_pattern(ata_buf, 100, 300, 0), 0);
    blkdev_stats(a, &st1);
    KT_EXPECT_EQ(st1.sectors_read - st0.sectors_read, 300);
    KT_EXPECT_EQ(st1.read_ios - st0.read_ios, 1);
    KT_EXPECT_EQ(st1.sectors_written - st0.sectors_written, 0);
    KT_EXPECT_EQ(st1.errors - st0.errors, 0);
    /* By DMA (QEMU's PIIX IDE): one interrupt per command, 2 for 256 + 44.
     * By READ MULTIPLE (ata_dma=0, or no PCI IDE): one per block of 16
     * sectors (QEMU's most), 16 + 3.  The requester slept on IRQ 14. */
    KT_EXPECT_EQ(drives[0].mult_count, 16);
    KT_EXPECT_EQ(primary.use_irq, 1);
    KT_EXPECT_EQ(primary.irq_count - irqs0, ata_use_dma(&drives[0]) ? 2 : 256 / 16 + (44 + 15) / 16);
    /* the last sector */
    KT_ASSERT_EQ(blkdev_read(a, ATA_TEST_HDA_SECTORS - 1, 1, ata_buf), 0);
    KT_EXPECT_EQ(check_pattern(ata_buf, ATA_TEST_HDA_SECTORS - 1, 1, 0), 0);
}

/* IRQ 14 goes where the I/O APIC sends it (docs/smp.md): the round robin
 * (line n to the (n mod N)th online CPU) gave it CPU 2 at three or four;
 * moved to each online CPU in turn, a read's interrupts are counted there
 * and on no other CPU, and the data is right.  On the 8259A: CPU 0. */
KTEST(ata, irq14_is_taken_on_the_cpu_it_is_routed_to)
{
    struct block_device *a = blkdev_get("hda");
    KT_ASSERT(a != NULL);
    KT_ASSERT_EQ(primary.use_irq, 1);
    int was = irq_dest(14), cpu, other;
    unsigned long count[NR_CPUS];
    bool ioapic = irq_get_chip() != &i8259A_chip;
    KT_EXPECT(ioapic || was == 0);
    if (ioapic && num_online_cpus() >= 3)
        KT_EXPECT(was != 0);
    for_each_online_cpu(cpu) {
        if (ioapic)
            KT_ASSERT_EQ(irq_set_affinity(14, 1ul << cpu), 0);
        else if (cpu)
            break;
        for_each_online_cpu(other)
            count[other] = per_cpu(kstat, other).irqs[14];
        memset(ata_buf, 0xEE, 64 * SECTOR_SIZE);
        KT_ASSERT_EQ(blkdev_read(a, 200 + 64 * cpu, 64, ata_buf), 0);
        KT_EXPECT_EQ(check_pattern(ata_buf, 200 + 64 * cpu, 64, 0), 0);
        for_each_online_cpu(other) {
            if (other == cpu)
                KT_EXPECT(per_cpu(kstat, other).irqs[14] > count[other]);
            else
                KT_EXPECT_EQ(per_cpu(kstat, other).irqs[14], count[other]);
        }
    }
    if (ioapic)
        KT_EXPECT_EQ(irq_set_affinity(14, 1ul << was), 0);
}

KTEST(ata, slave_is_a_different_disk)
{
    struct block_device *b = blkdev_get("hdb");
    KT_ASSERT(b != NULL);
    unsigned long before = b->sectors_read;
    KT_ASSERT_EQ(blkdev_read(b, 0, 8, ata_buf), 0);
    KT_EXPECT_EQ(check_pattern(ata_buf, 0, 8, 0x10000000), 0);
    KT_ASSERT_EQ(blkdev_read(b, ATA_TEST_HDB_SECTORS - 3, 3, ata_buf), 0);
    KT_EXPECT_EQ(check_pattern(ata_buf, ATA_TEST_HDB_SECTORS - 3, 3, 0x10000000), 0);
    KT_EXPECT_EQ(b->sectors_read - before, 11);
    /* interleave with the master: the driver re-selects the drive */
    struct block_device *a = blkdev_get("hda");
    KT_ASSERT(a != NULL);
    KT_ASSERT_EQ(blkdev_read(a, 5, 1, ata_buf), 0);
    KT_EXPECT_EQ(check_pattern(ata_buf, 5, 1, 0), 0);
    KT_ASSERT_EQ(blkdev_read(b, 5, 1, ata_buf), 0);
    KT_EXPECT_EQ(check_pattern(ata_buf, 5, 1, 0x10000000), 0);
}

static void ata_test_sector(unsigned char *b)
{
    memcpy(b, "VELLUM-ATA-TEST!", 16);
    for (int i = 16; i < SECTOR_SIZE; i++)
        b[i] = (unsigned char)(i * 13 + 7);
}

KTEST(ata, write_then_read_back)
{
    struct block_device *a = blkdev_get("hda");
    KT_ASSERT(a != NULL);
    static unsigned char out[SECTOR_SIZE];
    struct blkdev_stats st0, st1;
    ata_test_sector(out);
    blkdev_stats(a, &st0);
    unsigned long irqs0 = primary.irq_count;
    KT_ASSERT_EQ(blkdev_write(a, ATA_TEST_WRITE_LBA, 1, out), 0);
    KT_EXPECT_EQ(primary.irq_count - irqs0, 1);  /* the sector; no CACHE FLUSH */
    memset(ata_buf, 0, 3 * SECTOR_SIZE);
    KT_ASSERT_EQ(blkdev_read(a, ATA_TEST_WRITE_LBA - 1, 3, ata_buf), 0);
    KT_EXPECT(!memcmp(ata_buf + SECTOR_SIZE, out, SECTOR_SIZE));
    /* the neighbours are untouched */
    KT_EXPECT_EQ(check_pattern(ata_buf, ATA_TEST_WRITE_LBA - 1, 1, 0), 0);
    KT_EXPECT_EQ(check_pattern(ata_buf + 2 * SECTOR_SIZE, ATA_TEST_WRITE_LBA + 1, 1, 0), 0);
    blkdev_stats(a, &st1);
    KT_EXPECT_EQ(st1.sectors_written - st0.sectors_written, 1);
    KT_EXPECT_EQ(st1.write_ios - st0.write_ios, 1);
    KT_EXPECT_EQ(st1.sectors_read - st0.sectors_read, 3);
    KT_EXPECT_EQ(st1.errors - st0.errors, 0);
    KT_EXPECT_EQ(blkdev_flush(a), 0);
    KT_EXPECT_EQ(a->flushes - st0.flushes, 1);
}

/* A merged request (blkdev_writev): 40 sectors from three buffers of 8, 24
 * and 8 sectors, in one WRITE MULTIPLE command of 3 blocks; the sectors
 * read back in order (tools/suites/ata.conf checks them on the image too),
 * and the neighbours keep their pattern. */
#define ATA_TEST_WRITEV_LBA 1200
static unsigned char wv_buf[40 * SECTOR_SIZE];
static void fill_pattern(unsigned char *buf, sector_t first, unsigned n, uint32_t base)
{
    for (unsigned s = 0; s < n; s++) {
        unsigned char *b = buf + s * SECTOR_SIZE;
        uint32_t tag = base + first + s;
        memcpy(b, &tag, 4);
        for (int i = 4; i < SECTOR_SIZE; i++)
            b[i] = (first + s + i) & 0xFF;
    }
}

KTEST(ata, writev_pieces_one_request)
{
    struct block_device *a = blkdev_get("hda");
    KT_ASSERT(a != NULL);
    static unsigned char p0[8 * SECTOR_SIZE], p1[24 * SECTOR_SIZE], p2[8 * SECTOR_SIZE];
    fill_pattern(p0, ATA_TEST_WRITEV_LBA, 8, 0x20000000);
    fill_pattern(p1, ATA_TEST_WRITEV_LBA + 8, 24, 0x20000000);
    fill_pattern(p2, ATA_TEST_WRITEV_LBA + 32, 8, 0x20000000);
    struct bio_vec v[3] = { { p0, sizeof p0 }, { p1, sizeof p1 }, { p2, sizeof p2 } };
    struct blkdev_stats st0, st1;
    blkdev_stats(a, &st0);
    unsigned long irqs0 = primary.irq_count;
    KT_ASSERT_EQ(blkdev_writev(a, ATA_TEST_WRITEV_LBA, v, 3), 0);
    /* one DMA command; or WRITE MULTIPLE blocks of 16 + 16 + 8 sectors */
    KT_EXPECT_EQ(primary.irq_count - irqs0, ata_use_dma(&drives[0]) ? 1 : 3);
    blkdev_stats(a, &st1);
    KT_EXPECT_EQ(st1.write_ios - st0.write_ios, 1);
    KT_EXPECT_EQ(st1.sectors_written - st0.sectors_written, 40);
    memset(wv_buf, 0, sizeof wv_buf);
    KT_ASSERT_EQ(blkdev_read(a, ATA_TEST_WRITEV_LBA, 40, wv_buf), 0);
    KT_EXPECT_EQ(check_pattern(wv_buf, ATA_TEST_WRITEV_LBA, 40, 0x20000000), 0);
    KT_ASSERT_EQ(blkdev_read(a, ATA_TEST_WRITEV_LBA - 1, 1, wv_buf), 0);
    KT_EXPECT_EQ(check_pattern(wv_buf, ATA_TEST_WRITEV_LBA - 1, 1, 0), 0);
    KT_ASSERT_EQ(blkdev_read(a, ATA_TEST_WRITEV_LBA + 40, 1, wv_buf), 0);
    KT_EXPECT_EQ(check_pattern(wv_buf, ATA_TEST_WRITEV_LBA + 40, 1, 0), 0);
}

/* QEMU's PC has a PIIX IDE with bus mastering: both drives use DMA, one
 * command per 256 sectors, and the PRD table splits a buffer at 64 KiB
 * physical boundaries (ata_buf, 150 KiB, crosses at least one). */
KTEST(ata, dma_on_qemu_one_command_per_256_sectors)
{
    KT_ASSERT(primary.bmdma != 0);
    KT_EXPECT(ata_use_dma(&drives[0]) && ata_use_dma(&drives[1]));
    struct block_device *a = blkdev_get("hda");
    KT_ASSERT(a != NULL);
    unsigned long cmds0 = primary.dma_cmds;
    memset(ata_buf, 0xEE, sizeof ata_buf);
    KT_ASSERT_EQ(blkdev_read(a, 1, 300, ata_buf), 0);
    KT_EXPECT_EQ(check_pattern(ata_buf, 1, 300, 0), 0);
    KT_EXPECT_EQ(primary.dma_cmds - cmds0, 2);
    uint32_t first = virt_to_phys(ata_buf), last = virt_to_phys(ata_buf + sizeof ata_buf - 1);
    KT_EXPECT(first >> 16 != last >> 16);
}

/* With DMA off (boot option ata_dma=0 sets the same flag) the same reads
 * and a merged write go by programmed I/O, and the bytes are the same. */
KTEST(ata, pio_when_dma_is_off)
{
    struct block_device *a = blkdev_get("hda");
    KT_ASSERT(a != NULL);
    bool saved = ata_dma_enabled;
    ata_dma_enabled = false;
    unsigned long cmds0 = primary.dma_cmds, irqs0 = primary.irq_count;
    memset(ata_buf, 0xEE, sizeof ata_buf);
    int r = blkdev_read(a, 100, 300, ata_buf);
    unsigned long irqs = primary.irq_count - irqs0;
    /* rewrite sectors 1200..1239 with what ata.writev_pieces_one_request
     * writes there (ata.conf checks them on the image) */
    static unsigned char wv[40 * SECTOR_SIZE];
    fill_pattern(wv, ATA_TEST_WRITEV_LBA, 40, 0x20000000);
    struct bio_vec v[2] = { { wv, 8 * SECTOR_SIZE }, { wv + 8 * SECTOR_SIZE, 32 * SECTOR_SIZE } };
    irqs0 = primary.irq_count;
    int w = blkdev_writev(a, ATA_TEST_WRITEV_LBA, v, 2);
    unsigned long wirqs = primary.irq_count - irqs0;
    ata_dma_enabled = saved;
    KT_ASSERT_EQ(r, 0);
    KT_EXPECT_EQ(check_pattern(ata_buf, 100, 300, 0), 0);
    KT_EXPECT_EQ(irqs, 256 / 16 + (44 + 15) / 16);
    KT_ASSERT_EQ(w, 0);
    KT_EXPECT_EQ(wirqs, 3);
    KT_EXPECT_EQ(primary.dma_cmds, cmds0);
    memset(wv, 0, sizeof wv);
    KT_ASSERT_EQ(blkdev_read(a, ATA_TEST_WRITEV_LBA, 40, wv), 0);
    KT_EXPECT_EQ(check_pattern(wv, ATA_TEST_WRITEV_LBA, 40, 0x20000000), 0);
}

KTEST(ata, read_past_end_is_eio)
{
    struct block_device *a = blkdev_get("hda");
    KT_ASSERT(a != NULL);
    unsigned long err0 = a->errors, rd0 = a->sectors_read;
    KT_EXPECT_EQ(blkdev_read(a, ATA_TEST_HDA_SECTORS, 1, ata_buf), -EIO);
    KT_EXPECT_EQ(blkdev_read(a, ATA_TEST_HDA_SECTORS - 1, 2, ata_buf), -EIO);
    KT_EXPECT_EQ(a->errors - err0, 2);
    KT_EXPECT_EQ(a->sectors_read, rd0);
    /* Past the block layer's check, the drive itself refuses (IDNF/ABRT):
     * the driver's error path reports -EIO with the registers. */
    KT_EXPECT_EQ(a->ops->read(a, ATA_TEST_HDA_SECTORS + 10, 1, ata_buf), -EIO);
    /* and the drive still works afterwards */
    KT_ASSERT_EQ(blkdev_read(a, 7, 1, ata_buf), 0);
    KT_EXPECT_EQ(check_pattern(ata_buf, 7, 1, 0), 0);
}

/* hda and hdb share the channel: a reader of each, in two threads, must not
 * interleave their commands (each sleeps on IRQ 14 mid-command, letting the
 * other run).  Every sector read must carry its own disk's pattern. */
struct ata_reader { struct block_device *bdev; uint32_t base; unsigned nsect;
                    int bad, done; };
static int ata_reader_fn(void *p)
{
    struct ata_reader *r = p;
    unsigned char *buf = kmalloc(8 * SECTOR_SIZE, GFP_KERNEL);
    if (!buf) {
        r->bad = -1;
        return 0;
    }
    for (int i = 0; i < 40; i++) {
        sector_t s = (sector_t)(i * 37) % (r->nsect - 8);
        memset(buf, 0, 8 * SECTOR_SIZE);
        if (blkdev_read(r->bdev, s, 8, buf) || check_pattern(buf, s, 8, r->base))
            r->bad++;
    }
    kfree(buf);
    r->done = 1;
    return 0;
}

KTEST(ata, two_drives_in_parallel_do_not_mix)
{
    struct ata_reader ra = { blkdev_get("hda"), 0, ATA_TEST_HDA_SECTORS, 0, 0 };
    struct ata_reader rb = { blkdev_get("hdb"), 0x10000000, ATA_TEST_HDB_SECTORS, 0, 0 };
    KT_ASSERT(ra.bdev != NULL && rb.bdev != NULL);
    unsigned long err0 = ra.bdev->errors + rb.bdev->errors;
    struct task_struct *a = kthread_run(ata_reader_fn, &ra, "ata-a");
    struct task_struct *b = kthread_run(ata_reader_fn, &rb, "ata-b");
    KT_ASSERT(!IS_ERR(a) && !IS_ERR(b));
    kthread_stop(a);
    kthread_stop(b);
    KT_EXPECT(ra.done && rb.done);
    KT_EXPECT_EQ(ra.bad, 0);
    KT_EXPECT_EQ(rb.bad, 0);
    KT_EXPECT_EQ(ra.bdev->errors + rb.bdev->errors, err0);
}
