/* kernel/test/bench.c: in-kernel benchmarks, selected by the boot option
 * bench=NAME[,NAME] (bench=all runs every one), as test= selects kernel
 * tests.  Layer: a client of everything below it (VFS, page cache, ext2,
 * block layer, page allocator, kmalloc, user memory); it changes nothing
 * there.  docs/benchmarks.md explains every figure; tools/bench.sh runs them.
 *
 * Measuring.  Time is the TSC (rdtsc).  Under QEMU with -icount shift=0 the
 * guest's TSC advances by exactly one per guest instruction, so a "cycle"
 * here is an instruction count and identical from run to run: timer
 * interrupts fall at the same instruction every time.  On real hardware the
 * same code measures real cycles (and varies a little).  Only the calls under
 * test are timed (the sum of rdtsc deltas around each call), not the setup or
 * the checks of the data.
 *
 * Output, one line per figure, for tools/bench.sh:
 *     bench: NAME VALUE UNIT
 * VALUE is an integer or a fixed-point number with 3 decimals.  After the
 * last: "bench: done N figures, E errors", then the machine exits (status
 * 0 iff E == 0).  A benchmark that cannot run (a missing disk) prints
 * "bench: skip NAME (why)"; a wrong result prints "bench: error NAME (why)".
 *
 * Disks: the ext2 benchmarks want a Multiboot module (QEMU -initrd FILE),
 * an ext2 image holding /big, a 4 MiB pattern file (page k: the 32-bit
 * number k, then k & 255 repeated); it becomes the RAM block device "bram".
 * bench=readata reads the same file from an IDE disk (hda).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <cmdline.h>
#include <multiboot.h>
#include <blkdev.h>
#include <slab.h>
#include <mm.h>
#include <asm/mman.h>
#include <sched.h>
#include <uio.h>
#include <pagemap.h>
#include <asm/io.h>
#include <asm/uaccess.h>
#include "../../fs/internal.h"

#define TOTAL     (4u << 20)            /* bytes per run: 4 MiB */
#define BIG_PAGES (TOTAL / PAGE_SIZE)
#define UB        0x10000000UL          /* user buffers of the uwrite/legacy benches */

static int nfigures, nerrors;
static char kbuf[64 * 1024 + PAGE_SIZE]; /* kernel source / destination buffer */

/* ---- reporting ---------------------------------------------------------- */

static void fig(const char *name, uint64_t value, const char *unit)
{
    printk(KERN_INFO "bench: %s %llu %s\n", name, value, unit);
    nfigures++;
}

/* num/den with 3 decimals, rounded. */
static void fig_ratio(const char *name, uint64_t num, uint64_t den, const char *unit)
{
    uint64_t milli = den ? (num * 1000 + den / 2) / den : 0;
    printk(KERN_INFO "bench: %s %llu.%03llu %s\n", name, milli / 1000, milli % 1000, unit);
    nfigures++;
}

static void bench_error(const char *name, const char *why, long v)
{
    printk(KERN_ERR "bench: error %s (%s: %ld)\n", name, why, v);
    nerrors++;
}

static void bench_skip(const char *name, const char *why)
{
    printk(KERN_INFO "bench: skip %s (%s)\n", name, why);
}

/* ---- the RAM disk "bram", backed by a Multiboot module ------------------
 * The module's memory is reserved by the page allocator (reserve_boot_memory)
 * and mapped like all low memory, so the device reads and writes it in
 * place: no copy, no I/O wait, hence exactly repeatable timing. */

static int bram_read(struct block_device *bdev, sector_t sector, unsigned count, void *buf)
{
    memcpy(buf, (char *)bdev->private + (size_t)sector * SECTOR_SIZE,
           (size_t)count * SECTOR_SIZE);
    return 0;
}

static int bram_write(struct block_device *bdev, sector_t sector, unsigned count,
                      const void *buf)
{
    memcpy((char *)bdev->private + (size_t)sector * SECTOR_SIZE, buf,
           (size_t)count * SECTOR_SIZE);
    return 0;
}

static const struct block_device_operations bram_ops = { .read = bram_read, .write = bram_write };
static struct block_device bram;
static int bram_state;                  /* 0 untried, 1 registered, -1 none */

static struct block_device *bram_get(void)
{
    if (bram_state == 0) {
        bram_state = -1;
        if ((boot_info->flags & MB_INFO_MODS) && boot_info->mods_count) {
            struct multiboot_module *m = phys_to_virt(boot_info->mods_addr);
            strcpy(bram.name, "bram");
            bram.nr_sectors = (m->mod_end - m->mod_start) / SECTOR_SIZE;
            bram.ops = &bram_ops;
            bram.private = phys_to_virt(m->mod_start);
            if (register_blkdev(&bram) == 0)
                bram_state = 1;
        }
    }
    return bram_state == 1 ? &bram : NULL;
}

/* Mount dev at dir (ext2); 0 or a negative errno. */
static int mount_ext2(const char *dev, const char *dir)
{
    return vfs_mount_at(dev, dir, "ext2");
}

/* ---- write path: kernel_write in chunks --------------------------------- */

static void fill_kbuf(void)
{
    for (size_t k = 0; k < sizeof kbuf; k++)
        kbuf[k] = (char)(k * 7 + (k >> 9));
}

/* Write TOTAL bytes into a new file at path in chunks of `chunk` bytes,
 * starting at file offset `start` (from kbuf + start % 64: a misaligned
 * source too when start != 0).  Returns the cycles spent in kernel_write
 * (0 on error, reported); *calls = number of kernel_write calls. */
static uint64_t time_kernel_write(const char *name, const char *path, size_t chunk,
                                  size_t start, unsigned *calls, bool do_fsync)
{
    vfs_unlink(path);
    struct file *f = filp_open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
    if (IS_ERR(f)) {
        bench_error(name, "open", PTR_ERR(f));
        return 0;
    }
    uint64_t cycles = 0;
    loff_t pos = start;
    size_t left = TOTAL;
    *calls = 0;
    while (left) {
        size_t n = min(chunk, left);
        uint64_t t0 = rdtsc();
        ssize_t w = kernel_write(f, kbuf + start % 64, n, &pos);
        cycles += rdtsc() - t0;
        (*calls)++;
        if (w != (ssize_t)n) {
            bench_error(name, "kernel_write", w);
            filp_close(f);
            return 0;
        }
        left -= n;
    }
    if (f->f_inode->i_size != (loff_t)(start + TOTAL))
        bench_error(name, "i_size", (long)f->f_inode->i_size);
    if (do_fsync) {
        char fname[64];
        uint64_t t0 = rdtsc();
        int err = vfs_fsync(f, 0);
        uint64_t t = rdtsc() - t0;
        if (err)
            bench_error(name, "fsync", err);
        snprintf(fname, sizeof fname, "%s.fsync", name);
        fig_ratio(fname, t, TOTAL, "cyc/B");
    }
    filp_close(f);
    vfs_unlink(path);
    return cycles;
}

static void write_series(const char *fsname, const char *path, bool fsync_4k)
{
    static const struct { const char *tag; size_t chunk, start; } runs[] = {
        { "1k", 1024, 0 }, { "4k", 4096, 0 }, { "64k", 65536, 0 },
        { "unaligned", 3001, 1 },        /* odd sizes, every page boundary crossed */
    };
    char name[64];
    for (unsigned r = 0; r < ARRAY_SIZE(runs); r++) {
        unsigned calls;
        snprintf(name, sizeof name, "write.%s.%s", fsname, runs[r].tag);
        uint64_t c = time_kernel_write(name, path, runs[r].chunk, runs[r].start, &calls,
                                       fsync_4k && runs[r].chunk == 4096);
        if (!c)
            continue;
        fig_ratio(name, c, TOTAL, "cyc/B");
        snprintf(name, sizeof name, "write.%s.%s.call", fsname, runs[r].tag);
        fig(name, c / calls, "cyc/call");
    }
}

static void bench_write(void)
{
    fill_kbuf();
    if (vfs_ensure_root()) {
        bench_error("write", "no root", 0);
        return;
    }
    write_series("ramfs", "/bench_w", false);
    if (!bram_get()) {
        bench_skip("write.ext2", "no ext2 image: boot with -initrd bench-ext2.img");
        return;
    }
    int err = mount_ext2("bram", "/bx");
    if (err) {
        bench_error("write.ext2", "mount", err);
        return;
    }
    write_series("ext2", "/bx/w", true);
    err = do_umount("/bx");
    if (err)
        bench_error("write.ext2", "umount", err);
}

/* ---- user memory: an address space for the kernel task ------------------ */

static struct mm_struct *bench_mm, *prev_mm;

/* Map len bytes of anonymous memory at UB in a fresh address space. */
static int user_map(size_t len)
{
    bench_mm = mm_alloc();
    if (!bench_mm)
        return -ENOMEM;
    prev_mm = use_mm(bench_mm);
    long a = do_mmap(bench_mm, NULL, UB, len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0);
    return a == (long)UB ? 0 : (int)a;
}

static void user_unmap(void)
{
    use_mm(prev_mm);
    mmput(bench_mm);
    bench_mm = NULL;
}

/* Touch (fault in) len bytes at UB by writing the kbuf pattern there. */
static int user_fill(size_t len)
{
    for (size_t done = 0; done < len; done += 65536)
        if (copy_to_user((void *)(UB + done), kbuf, min((size_t)65536, len - done)))
            return -EFAULT;
    return 0;
}

/* write(2)'s path from user memory: TOTAL bytes from UB (or from UB again
 * and again when reuse) into a new file, `chunk` bytes per vfs_write. */
static uint64_t time_user_write(const char *name, struct file *f, size_t chunk, bool reuse)
{
    uint64_t cycles = 0;
    loff_t pos = 0;
    for (size_t done = 0; done < TOTAL; done += chunk) {
        struct iovec v = { (void *)(UB + (reuse ? 0 : done)), chunk };
        struct iov_iter it;
        iov_iter_init(&it, WRITE, &v, 1, chunk);
        uint64_t t0 = rdtsc();
        ssize_t w = vfs_write(f, &it, &pos);
        cycles += rdtsc() - t0;
        if (w != (ssize_t)chunk) {
            bench_error(name, "vfs_write", w);
            return 0;
        }
    }
    return cycles;
}

static struct file *new_file(const char *name, const char *path)
{
    vfs_unlink(path);
    struct file *f = filp_open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
    if (IS_ERR(f)) {
        bench_error(name, "open", PTR_ERR(f));
        return NULL;
    }
    return f;
}

static void drop_file(struct file *f, const char *path)
{
    truncate_inode_pages(f->f_inode->i_mapping, 0);
    f->f_inode->i_size = 0;
    filp_close(f);
    vfs_unlink(path);
}

/* uwrite: a pre-faulted user buffer vs a never-touched one (every page
 * faults during the write: short atomic copy, write_end commits 0, fault-in
 * with the page unlocked, retry), 4 KiB per write into ramfs. */
static void bench_uwrite(void)
{
    fill_kbuf();
    if (vfs_ensure_root() || user_map(TOTAL)) {
        bench_error("uwrite", "setup", 0);
        if (bench_mm)
            user_unmap();
        return;
    }
    static const char *const tags[] = { "uwrite.prefaulted", "uwrite.untouched" };
    for (int k = 0; k < 2; k++) {
        if (k == 0 && user_fill(TOTAL)) {
            bench_error(tags[k], "fill", -EFAULT);
            break;
        }
        if (k == 1) {                  /* a fresh mapping nobody touched */
            user_unmap();
            if (user_map(TOTAL)) {
                bench_error(tags[k], "map", 0);
                break;
            }
        }
        struct file *f = new_file(tags[k], "/bench_u");
        if (!f)
            break;
        struct write_path_stats w0 = write_path_stats;
        unsigned long pf0 = page_fault_count;
        uint64_t c = time_user_write(tags[k], f, PAGE_SIZE, false);
        char name[64];
        if (c) {
            fig_ratio(tags[k], c, TOTAL, "cyc/B");
            snprintf(name, sizeof name, "%s.faults", tags[k]);
            fig(name, page_fault_count - pf0, "faults");
            snprintf(name, sizeof name, "%s.retries", tags[k]);
            fig(name, write_path_stats.retries - w0.retries, "retries");
            snprintf(name, sizeof name, "%s.short_copies", tags[k]);
            fig(name, write_path_stats.short_copies - w0.short_copies, "copies");
        }
        drop_file(f, "/bench_u");
    }
    if (bench_mm)
        user_unmap();
}

/* ---- legacy prepare_write/commit_write vs write_begin/write_end ----------
 * Both on ramfs: the root's files have ramfs's write_begin/write_end, and a
 * ramfs mounted with -o legacy_aops on LEGACY_DIR gives its files the old API
 * only (prepare_write/commit_write, fs/ramfs/inode.c).  Both keep pages the
 * same way (zero what a write does not cover; page cache only), so the ONLY
 * difference between the runs is how the VFS drives them:
 * generic_perform_write (one atomic copy) or the legacy fallback
 * (mm/filemap.c, legacy_write_mode). */
#define LEGACY_DIR "/bench_legacy"

/* One run: TOTAL bytes, 4 KiB per call, from a pre-faulted user buffer (or a
 * kernel buffer: kvec), into a new file (overwrite: into the same file again,
 * its pages now uptodate).  path: /bench_l (write_begin/write_end) or
 * LEGACY_DIR "/l" (the legacy API). */
static void legacy_run(const char *tag, const char *path, int mode, bool kvec, bool overwrite)
{
    char name[64];
    snprintf(name, sizeof name, "legacy.%s", tag);
    struct file *f = new_file(name, path);
    if (!f)
        return;
    int saved = legacy_write_mode;
    legacy_write_mode = mode;
    struct write_path_stats w0 = write_path_stats;
    uint64_t c = 0;
    for (int pass = 0; pass < (overwrite ? 2 : 1); pass++) {
        w0 = write_path_stats;
        if (kvec) {
            loff_t pos = 0;
            c = 0;
            for (size_t done = 0; done < TOTAL; done += PAGE_SIZE) {
                uint64_t t0 = rdtsc();
                ssize_t w = kernel_write(f, kbuf, PAGE_SIZE, &pos);
                c += rdtsc() - t0;
                if (w != PAGE_SIZE) {
                    bench_error(name, "kernel_write", w);
                    c = 0;
                    break;
                }
            }
        } else {
            c = time_user_write(name, f, PAGE_SIZE, true);
        }
    }
    legacy_write_mode = saved;
    /* the data must be what was written, whichever path wrote it */
    loff_t pos = TOTAL - PAGE_SIZE;
    static char chk[PAGE_SIZE];
    if (kernel_read(f, chk, PAGE_SIZE, &pos) != PAGE_SIZE || memcmp(chk, kbuf, PAGE_SIZE))
        bench_error(name, "content", 0);
    if (c) {
        fig_ratio(name, c, TOTAL, "cyc/B");
        snprintf(name, sizeof name, "legacy.%s.2copy_chunks", tag);
        fig(name, write_path_stats.legacy_2copy - w0.legacy_2copy, "chunks");
    }
    drop_file(f, path);
}

static void bench_legacy(void)
{
    static const char *const new_file_path = "/bench_l", *const legacy = LEGACY_DIR "/l";
    fill_kbuf();
    if (vfs_ensure_root() || user_map(PAGE_SIZE) || user_fill(PAGE_SIZE)) {
        bench_error("legacy", "setup", 0);
        if (bench_mm)
            user_unmap();
        return;
    }
    int err = vfs_mkdir(LEGACY_DIR, 0755);
    if (!err || err == -EEXIST)
        err = do_mount("none", LEGACY_DIR, "ramfs", 0, "legacy_aops");
    if (err && err != -EBUSY) {
        bench_error("legacy", "mount -o legacy_aops", err);
        user_unmap();
        return;
    }
    /* user source, new file (pages not uptodate): the case that matters */
    legacy_run("new", new_file_path, LEGACY_WRITE_2COPY, false, false);
    legacy_run("2copy", legacy, LEGACY_WRITE_2COPY, false, false);
    legacy_run("naive", legacy, LEGACY_WRITE_NAIVE, false, false);
    /* overwrite (pages uptodate): the fallback copies once, atomically */
    legacy_run("new.overwrite", new_file_path, LEGACY_WRITE_2COPY, false, true);
    legacy_run("2copy.overwrite", legacy, LEGACY_WRITE_2COPY, false, true);
    /* kernel source (kernel_write): cannot fault, so one copy */
    legacy_run("2copy.kvec", legacy, LEGACY_WRITE_2COPY, true, false);
    user_unmap();
}

/* ---- read path: cold and warm ------------------------------------------- */

/* Read /big of the filesystem at dir in 4 KiB calls, checking the pattern.
 * Figures: cycles per byte; with counters for the cold read. */
static void read_big(const char *tag, const char *dir, struct block_device *bdev, bool cold)
{
    char path[64], name[64];
    snprintf(path, sizeof path, "%s/big", dir);
    snprintf(name, sizeof name, "read.%s.%s", tag, cold ? "cold" : "warm");
    struct file *f = filp_open(path, O_RDONLY, 0);
    if (IS_ERR(f)) {
        bench_error(name, "open", PTR_ERR(f));
        return;
    }
    struct pagecache_stats p0 = pagecache_stats;
    struct blkdev_stats b0, b1;
    blkdev_stats(bdev, &b0);
    uint64_t cycles = 0;
    loff_t pos = 0;
    int bad = 0;
    for (unsigned k = 0; k < BIG_PAGES; k++) {
        uint64_t t0 = rdtsc();
        ssize_t r = kernel_read(f, kbuf, PAGE_SIZE, &pos);
        cycles += rdtsc() - t0;
        uint32_t first;
        memcpy(&first, kbuf, 4);
        if (r != PAGE_SIZE || first != k || kbuf[4] != (char)k ||
            kbuf[PAGE_SIZE - 1] != (char)k)
            bad++;
    }
    blkdev_stats(bdev, &b1);
    if (bad)
        bench_error(name, "pages with wrong content", bad);
    fig_ratio(name, cycles, TOTAL, "cyc/B");
    if (cold) {
        unsigned long rp = pagecache_stats.readpage_calls - p0.readpage_calls;
        unsigned long ios = b1.read_ios - b0.read_ios;
        snprintf(name, sizeof name, "read.%s.cold.readpage_calls", tag);
        fig(name, rp, "calls");
        snprintf(name, sizeof name, "read.%s.cold.readahead_pages", tag);
        fig(name, pagecache_stats.readahead_pages - p0.readahead_pages, "pages");
        snprintf(name, sizeof name, "read.%s.cold.read_ios", tag);
        fig(name, ios, "ios");
        snprintf(name, sizeof name, "read.%s.cold.sectors_per_io", tag);
        fig_ratio(name, b1.sectors_read - b0.sectors_read, ios, "sectors/io");
    } else {
        snprintf(name, sizeof name, "read.%s.warm.read_ios", tag);
        fig(name, b1.read_ios - b0.read_ios, "ios");
    }
    filp_close(f);
}

static void read_series(const char *tag, const char *dev)
{
    struct block_device *bdev = blkdev_get(dev);
    int err = bdev ? mount_ext2(dev, "/br") : -ENODEV;
    if (err) {
        bench_error(tag, "mount", err);
        return;
    }
    read_big(tag, "/br", bdev, true);
    read_big(tag, "/br", bdev, false);
    if ((err = do_umount("/br")))
        bench_error(tag, "umount", err);
}

static void bench_read(void)
{
    if (!bram_get()) {
        bench_skip("read.ram", "no ext2 image: boot with -initrd bench-ext2.img");
        return;
    }
    read_series("ram", "bram");
}

/* The same from the IDE disk: the cold figure includes waiting for QEMU's
 * disk emulation, which runs on host time, so only the counters and the warm
 * figure repeat exactly (docs/benchmarks.md). */
static void bench_readata(void)
{
    if (!blkdev_get("hda")) {
        bench_skip("read.ata", "no disk hda");
        return;
    }
    read_series("ata", "hda");
}

/* ---- memory ------------------------------------------------------------- */

/* Write a 4 MiB file into ramfs and into ext2, read it back, delete it. */
static void mem_workload(void)
{
    unsigned calls;
    time_kernel_write("mem.workload", "/bench_m", 65536, 0, &calls, false);
    if (bram_get() && !mount_ext2("bram", "/bm")) {
        time_kernel_write("mem.workload", "/bm/m", 65536, 0, &calls, false);
        struct file *f = filp_open("/bm/big", O_RDONLY, 0);
        if (!IS_ERR(f)) {
            loff_t pos = 0;
            while (kernel_read(f, kbuf, 65536, &pos) > 0)
                ;
            filp_close(f);
        }
        do_umount("/bm");              /* syncs: the ext2 pages are written and freed */
    }
}

static void bench_mem(void)
{
    fill_kbuf();
    if (vfs_ensure_root()) {
        bench_error("mem", "no root", 0);
        return;
    }
    /* Leak check: the first round fills caches that stay (inodes, dentries,
     * slab pages); a second identical round must give every page back. */
    mem_workload();
    unsigned long before = nr_free_pages();
    mem_workload();
    unsigned long after = nr_free_pages();
    fig("mem.leak_pages", before > after ? before - after : 0, "pages");

    /* kmalloc: pages consumed by N objects of one size, as bytes per object. */
    static const size_t sizes[] = { 16, 24, 100, 512, 1000, 3000 };
    enum { N = 512 };
    static void *objs[N];
    for (unsigned s = 0; s < ARRAY_SIZE(sizes); s++) {
        unsigned long f0 = nr_free_pages();
        int got = 0;
        for (; got < N; got++)
            if (!(objs[got] = kmalloc(sizes[s], GFP_KERNEL)))
                break;
        unsigned long used = f0 - nr_free_pages();
        char name[64];
        snprintf(name, sizeof name, "mem.kmalloc.%u", (unsigned)sizes[s]);
        if (got < N)
            bench_error(name, "kmalloc failed at", got);
        else
            fig_ratio(name, (uint64_t)used * PAGE_SIZE, N, "B/obj");
        while (got > 0)
            kfree(objs[--got]);
    }

    /* Page cache footprint of a 4 MiB file: pages gone from the free lists
     * while it is cached, and pages in its mapping. */
    struct file *f = new_file("mem.pagecache", "/bench_p");
    if (!f)
        return;
    unsigned long f0 = nr_free_pages();
    loff_t pos = 0;
    for (size_t done = 0; done < TOTAL; done += 65536)
        kernel_write(f, kbuf, 65536, &pos);
    fig("mem.pagecache.4m.free_pages_used", f0 - nr_free_pages(), "pages");
    fig("mem.pagecache.4m.nrpages", f->f_mapping->nrpages, "pages");
    drop_file(f, "/bench_p");
    fig("mem.pagecache.4m.after_delete", f0 > nr_free_pages() ? f0 - nr_free_pages() : 0,
        "pages");

    /* The same on ext2: data pages, plus buffer heads, the indirect block
     * and the bitmaps; then after fsync (clean pages stay cached). */
    if (!bram_get() || mount_ext2("bram", "/bm"))
        return;
    f0 = nr_free_pages();
    if (!(f = new_file("mem.pagecache.ext2", "/bm/p")))
        return;
    pos = 0;
    for (size_t done = 0; done < TOTAL; done += 65536)
        kernel_write(f, kbuf, 65536, &pos);
    fig("mem.pagecache.ext2.4m.free_pages_used", f0 - nr_free_pages(), "pages");
    fig("mem.pagecache.ext2.4m.nrpages", f->f_mapping->nrpages, "pages");
    filp_close(f);
    vfs_unlink("/bm/p");
    do_umount("/bm");
    fig("mem.pagecache.ext2.4m.after_umount", f0 > nr_free_pages() ? f0 - nr_free_pages() : 0,
        "pages");
}

/* ---- the runner --------------------------------------------------------- */

static const struct { const char *name; void (*fn)(void); } benches[] = {
    { "write", bench_write },
    { "legacy", bench_legacy },
    { "uwrite", bench_uwrite },
    { "read", bench_read },
    { "mem", bench_mem },
    { "readata", bench_readata },       /* not in "all": needs hda */
};

static bool chosen(const char *sel, const char *name)
{
    size_t len = strlen(name);
    while (*sel) {
        const char *end = strchr(sel, ',');
        size_t n = end ? (size_t)(end - sel) : strlen(sel);
        if (n == len && !strncmp(sel, name, n))
            return true;
        if (n == 3 && !strncmp(sel, "all", 3) && strcmp(name, "readata"))
            return true;
        sel += n + (end ? 1 : 0);
    }
    return false;
}

void bench_run(const char *selection)
{
    printk(KERN_INFO "bench: running bench=%s (cycles: rdtsc; instructions under -icount shift=0)\n",
           selection);
    for (unsigned k = 0; k < ARRAY_SIZE(benches); k++) {
        if (!chosen(selection, benches[k].name))
            continue;
        printk(KERN_INFO "bench: start %s\n", benches[k].name);
        benches[k].fn();
    }
    printk(KERN_INFO "bench: done %d figures, %d errors\n", nfigures, nerrors);
    qemu_exit(nerrors ? 1 : 0);
}
