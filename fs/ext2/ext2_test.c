/* fs/ext2/ext2_test.c: ext2 tests against the host-built images
 * (tools/mkimages.sh, tools/mkcorrupt.sh; run by tools/suites/ext2*.conf).
 *
 *   ext2read1k, ext2read4k, ext2rev0, ext2nofiletype
 *                 hda = a staging image: every byte of every staged file,
 *                 holes, names, symlinks (fast, slow, loop)
 *   ext2write, ext2write4k
 *                 hda = ext2-1k.img / ext2-4k.img, hdb = ext2-small.img: create, extend,
 *                 overwrite, sparse, truncate, directory operations,
 *                 times, removed directories,
 *                 ENOSPC, EFBIG; the suite's post_check runs e2fsck and
 *                 compares every written file with debugfs on the host
 *   ext2cache     hda = ext2-1k.img: page-cache I/O counted by blkdev,
 *                 fsync, the flusher, short copies (ITER_FAULTY)
 *   ext2corrupt   hda..: corrupt images: mount refuses or -EIO
 *
 * File contents follow tools/vpattern.c: byte i of a file keyed NAME is
 * vpattern_byte(fnv1a32(NAME), i).  The two copies of the function must
 * stay identical.
 */
#include <kernel.h>
#include <string.h>
#include <chrdev.h>
#include <errno.h>
#include <err.h>
#include <ktest.h>
#include <slab.h>
#include <mm.h>
#include <fs.h>
#include <uio.h>
#include <iov_iter_test.h>             /* ITER_FAULTY, the fake user buffer */
#include <pagemap.h>
#include <writeback.h>
#include <blkdev.h>
#include <sched.h>
#include <buffer_head.h>
#include <asm/mman.h>
#include <asm/uaccess.h>
#include <asm/pgtable.h>
#include "ext2.h"
#include "../internal.h"             /* vfs_ensure_root, vfs_mount_at */

/* ---- the content formula (same as tools/vpattern.c) ---- */
static uint32_t fnv1a32(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

static uint8_t vpattern_byte(uint32_t seed, uint64_t i)
{
    uint32_t x = seed + (uint32_t)i * 0x9E3779B1u;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x & 0xff;
}

/* Not static: fs/jbd/transaction_test.c fills its blocks with it too
 * (declared in include/ktest.h). */
void vpattern_fill(void *buf, size_t n, const char *key, uint64_t off)
{
    uint32_t seed = fnv1a32(key);
    for (size_t j = 0; j < n; j++)
        ((uint8_t *)buf)[j] = vpattern_byte(seed, off + j);
}

/* ---- helpers ---- */
#define CHUNK 8192
static char *tbuf;                     /* CHUNK bytes, for reads */
static char *xbuf;                     /* CHUNK bytes, for expected data */

/* The buffers, and a root to mount the images under (ramfs if none). */
static int ensure_root(void)
{
    if (!tbuf) {
        tbuf = kmalloc(CHUNK, GFP_KERNEL);
        xbuf = kmalloc(CHUNK, GFP_KERNEL);
    }
    return vfs_ensure_root();
}

/* The buffers, then dev mounted (ext2) at dir; 0 or a negative errno. */
static int mount_ext2(const char *dev, const char *dir)
{
    int err = ensure_root();
    if (err)
        return err;
    return vfs_mount_at(dev, dir, "ext2");
}

static struct block_device *hd(const char *name) { return blkdev_get(name); }

/* Compare [off, off+len) of an open file with the pattern (key) or, if key
 * is NULL, with zeros.  Returns 0 or -1 after a ktest failure line. */
static int check_range(struct file *f, const char *path, const char *key, loff_t off, size_t len)
{
    while (len) {
        size_t n = min_t(size_t, len, CHUNK);
        loff_t pos = off;
        ssize_t r = kernel_read(f, tbuf, n, &pos);
        if (r != (ssize_t)n) {
            ktest_fail(__FILE__, __LINE__, "%s: read at %lld returned %d, wanted %u",
                       path, (long long)off, (int)r, (unsigned)n);
            return -1;
        }
        if (key)
            vpattern_fill(xbuf, n, key, off);
        else
            memset(xbuf, 0, n);
        if (memcmp(tbuf, xbuf, n)) {
            size_t j = 0;
            while (tbuf[j] == xbuf[j])
                j++;
            ktest_fail(__FILE__, __LINE__, "%s: byte %lld is %#x, wanted %#x", path,
                       (long long)(off + j), (uint8_t)tbuf[j], (uint8_t)xbuf[j]);
            return -1;
        }
        off += n;
        len -= n;
    }
    return 0;
}

/* The whole file is the pattern for key, size bytes, and EOF is there. */
static int check_file(const char *path, const char *key, loff_t size)
{
    struct kstat st;
    int err = vfs_stat(path, &st);
    if (err) {
        ktest_fail(__FILE__, __LINE__, "stat %s: %d", path, err);
        return -1;
    }
    if (st.size != size) {
        ktest_fail(__FILE__, __LINE__, "%s: size %lld, wanted %lld", path,
                   (long long)st.size, (long long)size);
        return -1;
    }
    struct file *f = filp_open(path, O_RDONLY | O_LARGEFILE, 0);   /* as a program's open */
    if (IS_ERR(f)) {
        ktest_fail(__FILE__, __LINE__, "open %s: %ld", path, PTR_ERR(f));
        return -1;
    }
    int r = check_range(f, path, key, 0, size);
    if (!r) {
        loff_t pos = size;
        ssize_t n = kernel_read(f, tbuf, 16, &pos);
        if (n != 0) {
            ktest_fail(__FILE__, __LINE__, "%s: read at EOF returned %d", path, (int)n);
            r = -1;
        }
    }
    filp_close(f);
    return r;
}

/* Write the pattern for key at [off, off+len) of path (created if needed). */
static int write_pattern(const char *path, const char *key, loff_t off, size_t len)
{
    struct file *f = filp_open(path, O_WRONLY | O_CREAT | O_LARGEFILE, 0644);
    if (IS_ERR(f))
        return PTR_ERR(f);
    int err = 0;
    while (len) {
        size_t n = min_t(size_t, len, CHUNK);
        vpattern_fill(xbuf, n, key, off);
        loff_t pos = off;
        ssize_t w = kernel_write(f, xbuf, n, &pos);
        if (w < 0) {
            err = w;
            break;
        }
        if (w != (ssize_t)n) {
            err = -EIO;
            break;
        }
        off += n;
        len -= n;
    }
    filp_close(f);
    return err;
}

static loff_t blocks_for(struct super_block *sb, loff_t size)
{
    /* 512-byte sectors of a dense file of size bytes, indirect blocks included */
    unsigned long bs = sb->s_blocksize, P = bs / 4;
    unsigned long data = (size + bs - 1) / bs, meta = 0;
    if (data > 12)
        meta += 1;
    if (data > 12 + P)
        meta += 1 + DIV_ROUND_UP(data - 12 - P, P);
    return (loff_t)(data + meta) * (bs / 512);
}

/* ==================================================================
 * Reading: ext2read1k, ext2read4k, ext2rev0, ext2nofiletype
 * ================================================================== */

static const unsigned sizes[] = { 0, 1, 1023, 1024, 1025, 4095, 4096, 4097 };

static void rd_mount(void)
{
    KT_ASSERT_EQ(mount_ext2("hda", "/e"), 0);
    struct super_block *sb = ktest_sb_of("/e");
    KT_ASSERT(sb != NULL);
    KT_ASSERT_EQ(sb->s_magic, EXT2_SUPER_MAGIC);
}

static void rd_sizes(void)
{
    char path[64], key[16];
    for (unsigned i = 0; i < ARRAY_SIZE(sizes); i++) {
        snprintf(path, sizeof(path), "/e/sizes/f%u", sizes[i]);
        snprintf(key, sizeof(key), "f%u", sizes[i]);
        KT_ASSERT_EQ(check_file(path, key, sizes[i]), 0);
        struct kstat st;
        KT_ASSERT_EQ(vfs_stat(path, &st), 0);
        KT_EXPECT_EQ(st.blocks, blocks_for(ktest_sb_of("/e"), sizes[i]));
        KT_EXPECT(S_ISREG(st.mode));
    }
}

static void rd_dind(void)
{
    struct kstat st;
    KT_ASSERT_EQ(check_file("/e/big/dind", "dind", 4300000), 0);
    KT_ASSERT_EQ(vfs_stat("/e/big/dind", &st), 0);
    KT_EXPECT_EQ(st.blocks, blocks_for(ktest_sb_of("/e"), 4300000));
}

static void rd_sparse(void)
{
    struct super_block *sb = ktest_sb_of("/e");
    KT_ASSERT(sb != NULL);
    uint64_t bs = sb->s_blocksize, P = bs / 4;
    loff_t D = (12 + P + 5) * bs + 7, T = (12 + P + P * P) * bs;
    struct kstat st;
    KT_ASSERT_EQ(vfs_stat("/e/sparse/sp", &st), 0);
    KT_ASSERT_EQ(st.size, T + 4192);
    KT_EXPECT(st.blocks <= 24 * (bs / 512));        /* holes are not allocated */
    struct file *f = filp_open("/e/sparse/sp", O_RDONLY | O_LARGEFILE, 0);  /* past 4 GiB at 4 KiB */
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(check_range(f, "sp", "sp", 0, 100), 0);
    KT_EXPECT_EQ(check_range(f, "sp", NULL, 100, 3 * bs), 0);
    KT_EXPECT_EQ(check_range(f, "sp", NULL, D - 2000, 2000), 0);
    KT_EXPECT_EQ(check_range(f, "sp", "sp", D, 3000), 0);
    KT_EXPECT_EQ(check_range(f, "sp", NULL, D + 3000, 5000), 0);
    KT_EXPECT_EQ(check_range(f, "sp", NULL, T - 4000 - 3 * bs, 3 * bs), 0);
    KT_EXPECT_EQ(check_range(f, "sp", "sp", T - 4000, 8192), 0);
    filp_close(f);
}

struct many_ctx {
    struct dir_context ctx;
    uint8_t seen[300];
    int dots, others, wrong_type;
};

static int many_actor(struct dir_context *ctx, const char *name, int len, loff_t pos,
                      unsigned long ino, unsigned int d_type)
{
    struct many_ctx *m = container_of(ctx, struct many_ctx, ctx);
    if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.')) {
        m->dots++;
        if (d_type != DT_DIR)
            m->wrong_type++;
        return 0;
    }
    if (len == 4 && name[0] == 'e' && name[1] >= '0' && name[1] <= '9' &&
        name[2] >= '0' && name[2] <= '9' && name[3] >= '0' && name[3] <= '9') {
        int i = (name[1] - '0') * 100 + (name[2] - '0') * 10 + (name[3] - '0');
        if (i < 300) {
            m->seen[i]++;
            if (d_type != DT_REG)
                m->wrong_type++;
            return 0;
        }
    }
    m->others++;
    return 0;
}

static void rd_many(void)
{
    struct file *f = filp_open("/e/many", O_RDONLY | O_DIRECTORY, 0);
    KT_ASSERT(!IS_ERR(f));
    struct many_ctx *m = kzalloc(sizeof(*m), GFP_KERNEL);
    KT_ASSERT(m != NULL);
    m->ctx.actor = many_actor;
    int err = iterate_dir(f, &m->ctx);
    filp_close(f);
    KT_EXPECT_EQ(err, 0);
    KT_EXPECT_EQ(m->dots, 2);
    KT_EXPECT_EQ(m->others, 0);
    KT_EXPECT_EQ(m->wrong_type, 0);
    int once = 0;
    for (int i = 0; i < 300; i++)
        once += m->seen[i] == 1;
    KT_EXPECT_EQ(once, 300);
    kfree(m);
    char path[32], key[8];
    for (int i = 0; i < 300; i++) {
        snprintf(path, sizeof(path), "/e/many/e%03d", i);
        snprintf(key, sizeof(key), "e%03d", i);
        KT_ASSERT_EQ(check_file(path, key, i * 3), 0);
    }
}

static void rd_nested(void)
{
    KT_EXPECT_EQ(check_file("/e/nested/a/b/c/d/deep", "deep", 5000), 0);
    KT_EXPECT_EQ(check_file("/e/nested/a/b/../b/c/./d/deep", "deep", 5000), 0);
    struct kstat st;
    KT_EXPECT_EQ(vfs_stat("/e/nested/a/b/c/d/nothere", &st), -ENOENT);
    KT_EXPECT_EQ(vfs_stat("/e/sizes/f1/x", &st), -ENOTDIR);
    KT_ASSERT_EQ(vfs_stat("/e/nested/a", &st), 0);
    KT_EXPECT(S_ISDIR(st.mode));
    KT_EXPECT_EQ(st.nlink, 3);                       /* name, ".", b's ".." */
}

static void rd_symlinks(void)
{
    static const char slow[] =
        "../long_directory_name_to_make_the_symlink_target_longer_than_sixty/target";
    char buf[128];
    int n = vfs_readlink("/e/links/fast", buf, sizeof(buf));
    KT_ASSERT_EQ(n, 14);
    KT_EXPECT(!memcmp(buf, "../sizes/f1025", 14));
    n = vfs_readlink("/e/links/slow", buf, sizeof(buf));
    KT_ASSERT_EQ(n, (int)strlen(slow));
    KT_EXPECT(!memcmp(buf, slow, n));
    KT_EXPECT_EQ(check_file("/e/links/fast", "f1025", 1025), 0);
    KT_EXPECT_EQ(check_file("/e/links/slow", "target", 777), 0);
    struct file *f = filp_open("/e/links/loop1", O_RDONLY, 0);
    KT_EXPECT_EQ(PTR_ERR(f), -ELOOP);
    if (!IS_ERR(f))
        filp_close(f);
    struct kstat st;
    KT_ASSERT_EQ(vfs_lstat("/e/links/slow", &st), 0);
    KT_EXPECT(S_ISLNK(st.mode));
    KT_EXPECT_EQ(st.size, (loff_t)strlen(slow));
}

static void rd_umount(void)
{
    KT_EXPECT_EQ(do_umount("/e"), 0);
    struct kstat st;
    KT_EXPECT_EQ(vfs_stat("/e/sizes", &st), -ENOENT);
}

/* Tests of one suite share a mount and run in a fixed order, so each suite
 * is one KTEST that runs its steps in turn (the order of KTESTs in the
 * .ktests section is the compiler's, not the source's).  A failed step
 * reports its line and the next step still runs. */
static void run_steps(void (*const steps[])(void), int n)
{
    for (int i = 0; i < n; i++) {
        bool failed_before = ktest_failed();
        printk(KERN_INFO "ext2 test: step %d\n", i);
        steps[i]();
        if (i == 0 && ktest_failed() && !failed_before)
            return;                    /* the mount step failed: nothing else can run */
    }
}
#define RUN_STEPS(...) do { \
        static void (*const _steps[])(void) = { __VA_ARGS__ }; \
        run_steps(_steps, ARRAY_SIZE(_steps)); } while (0)

#define EXT2_READ_SUITE(suite) \
    KTEST(suite, read_tree) { RUN_STEPS(rd_mount, rd_sizes, rd_dind, rd_sparse, rd_many, \
                                        rd_nested, rd_symlinks, rd_umount); }

EXT2_READ_SUITE(ext2read1k)
EXT2_READ_SUITE(ext2read4k)
EXT2_READ_SUITE(ext2rev0)
EXT2_READ_SUITE(ext2nofiletype)

/* ==================================================================
 * Writing: ext2write (hda = ext2-1k.img at /e, hdb = ext2-small.img at /s)
 * The expected results are checked again on the host by the post_check
 * of tools/suites/ext2write.conf: keep the two in step.
 * ================================================================== */

static void wr_mount(void)
{
    KT_ASSERT_EQ(mount_ext2("hda", "/e"), 0);
    KT_ASSERT_EQ(mount_ext2("hdb", "/s"), 0);
    KT_ASSERT_EQ(vfs_mkdir("/e/w", 0755), 0);
    KT_EXPECT_EQ(vfs_mkdir("/e/w", 0755), -EEXIST);
}

static void wr_create_extend(void)
{
    KT_ASSERT_EQ(write_pattern("/e/w/new1", "new1", 0, 777), 0);
    KT_ASSERT_EQ(write_pattern("/e/w/new1", "new1", 777, 5000 - 777), 0);
    KT_ASSERT_EQ(write_pattern("/e/w/new1", "new1", 5000, 5000), 0);
    KT_EXPECT_EQ(check_file("/e/w/new1", "new1", 10000), 0);
    struct file *f = filp_open("/e/w/new1", O_CREAT | O_EXCL | O_WRONLY, 0644);
    KT_EXPECT_EQ(PTR_ERR(f), -EEXIST);
    if (!IS_ERR(f))
        filp_close(f);
}

static void wr_overwrite_unaligned(void)
{
    KT_ASSERT_EQ(write_pattern("/e/w/over", "o1", 0, 9000), 0);
    KT_ASSERT_EQ(write_pattern("/e/w/over", "o2", 1000, 2333), 0);
    KT_ASSERT_EQ(write_pattern("/e/w/over", "o2", 8500, 1000), 0);
    struct file *f = filp_open("/e/w/over", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(check_range(f, "over", "o1", 0, 1000), 0);
    KT_EXPECT_EQ(check_range(f, "over", "o2", 1000, 2333), 0);
    KT_EXPECT_EQ(check_range(f, "over", "o1", 3333, 8500 - 3333), 0);
    KT_EXPECT_EQ(check_range(f, "over", "o2", 8500, 1000), 0);
    filp_close(f);
}

/* A write sets mtime and ctime, and dirties the inode only when one of them
 * changes (file_update_time, fs/inode.c): old times are moved to now and the
 * inode goes dirty; a second write in the same second leaves a clean inode
 * clean.  (Times have one-second granularity: if the clock ticks over between
 * the two writes, the second write must dirty it again, so try again.) */
static void wr_times_dirty_only_on_change(void)
{
    struct file *f = filp_open("/e/w/over", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(f));
    struct inode *inode = f->f_inode;
    char b;                             /* rewrite byte 0 as it is: the host checks the bytes */
    loff_t pos = 0;
    KT_ASSERT_EQ(kernel_read(f, &b, 1, &pos), 1);
    inode->i_mtime = inode->i_ctime = 1000;
    KT_ASSERT_EQ(write_inode_now(inode, 1), 0);
    KT_EXPECT(!(inode->i_state & I_DIRTY));
    pos = 0;
    KT_EXPECT_EQ(kernel_write(f, &b, 1, &pos), 1);
    KT_EXPECT(inode->i_mtime > 1000 && inode->i_mtime == inode->i_ctime);
    KT_EXPECT(inode->i_state & I_DIRTY);
    bool same_second = false;
    for (int tries = 0; tries < 3 && !same_second; tries++) {
        KT_ASSERT_EQ(write_inode_now(inode, 1), 0);
        time_t t = current_time();
        pos = 0;
        KT_EXPECT_EQ(kernel_write(f, &b, 1, &pos), 1);
        if (current_time() != t)
            continue;
        same_second = true;
        KT_EXPECT_EQ(inode->i_mtime, t);
        KT_EXPECT(!(inode->i_state & I_DIRTY));
    }
    KT_EXPECT(same_second);
    filp_close(f);
}

/* The boundary crossings used by "cross" (also in ext2write.conf):
 * direct -> single, single -> double and, with 1 KiB blocks, double ->
 * triple indirect (at 4 KiB that boundary is past 4 GiB: the host's
 * debugfs dump would write a 4 GiB file, so the 4 KiB run reads it only,
 * in ext2read4k). */
static int cross_ranges(struct super_block *sb, loff_t r[3])
{
    uint64_t bs = sb->s_blocksize, P = bs / 4;
    r[0] = 12 * bs - 100;
    r[1] = (12 + P) * bs - 300;
    r[2] = (12 + P + P * P) * bs - 50;
    return bs == 1024 ? 3 : 2;
}

static void wr_cross_indirect(void)
{
    loff_t r[3];
    int n = cross_ranges(ktest_sb_of("/e"), r);
    static const unsigned len[3] = { 200, 600, 100 };
    for (int i = 0; i < n; i++)
        KT_ASSERT_EQ(write_pattern("/e/w/cross", "cross", r[i], len[i]), 0);
    struct file *f = filp_open("/e/w/cross", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    for (int i = 0; i < n; i++) {
        KT_EXPECT_EQ(check_range(f, "cross", "cross", r[i], len[i]), 0);
        KT_EXPECT_EQ(check_range(f, "cross", NULL, r[i] - 1000, 1000), 0);
    }
    filp_close(f);
    struct kstat st;
    KT_ASSERT_EQ(vfs_stat("/e/w/cross", &st), 0);
    KT_EXPECT_EQ(st.size, r[n - 1] + len[n - 1]);
}

static void wr_sparse(void)
{
    KT_ASSERT_EQ(write_pattern("/e/w/sparse", "sp2", 1000000, 10), 0);
    KT_ASSERT_EQ(write_pattern("/e/w/sparse", "sp2", 3000000, 20), 0);
    struct file *f = filp_open("/e/w/sparse", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(check_range(f, "sparse", NULL, 0, 8192), 0);
    KT_EXPECT_EQ(check_range(f, "sparse", "sp2", 1000000, 10), 0);
    KT_EXPECT_EQ(check_range(f, "sparse", NULL, 1000010, 5000), 0);
    KT_EXPECT_EQ(check_range(f, "sparse", "sp2", 3000000, 20), 0);
    filp_close(f);
    struct kstat st;
    KT_ASSERT_EQ(vfs_stat("/e/w/sparse", &st), 0);
    KT_EXPECT_EQ(st.size, 3000020);
    KT_EXPECT(st.blocks <= 8 * (ktest_sb_of("/e")->s_blocksize / 512));  /* 2-3 data + indirect */
}

static void wr_truncate(void)
{
    struct kstat st;
    struct super_block *sb = ktest_sb_of("/e");
    KT_ASSERT_EQ(write_pattern("/e/w/trunc", "tr", 0, 20000), 0);
    KT_ASSERT_EQ(vfs_truncate("/e/w/trunc", 5000), 0);
    KT_ASSERT_EQ(vfs_stat("/e/w/trunc", &st), 0);
    KT_EXPECT_EQ(st.size, 5000);
    KT_EXPECT_EQ(st.blocks, blocks_for(sb, 5000));
    KT_ASSERT_EQ(vfs_truncate("/e/w/trunc", 9000), 0);   /* up: a hole, zeros */
    struct file *f = filp_open("/e/w/trunc", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(check_range(f, "trunc", "tr", 0, 5000), 0);
    KT_EXPECT_EQ(check_range(f, "trunc", NULL, 5000, 4000), 0);
    filp_close(f);
    KT_ASSERT_EQ(vfs_stat("/e/w/trunc", &st), 0);
    KT_EXPECT_EQ(st.blocks, blocks_for(sb, 5000));

    /* past the double-indirect boundary and back: the emptied indirect
     * blocks are freed too */
    KT_ASSERT_EQ(write_pattern("/e/w/bigtrunc", "bt", 0, 300 * 1024), 0);
    KT_ASSERT_EQ(vfs_truncate("/e/w/bigtrunc", 13 * 1024 + 1), 0);
    KT_ASSERT_EQ(vfs_stat("/e/w/bigtrunc", &st), 0);
    KT_EXPECT_EQ(st.blocks, blocks_for(sb, 13 * 1024 + 1));
    KT_EXPECT_EQ(check_file("/e/w/bigtrunc", "bt", 13 * 1024 + 1), 0);
}

static void wr_directories(void)
{
    struct kstat st;
    KT_ASSERT_EQ(vfs_mkdir("/e/w/d1", 0755), 0);
    KT_ASSERT_EQ(vfs_mkdir("/e/w/d1/sub", 0755), 0);
    KT_ASSERT_EQ(write_pattern("/e/w/d1/sub/f", "f", 0, 100), 0);
    KT_EXPECT_EQ(vfs_mkdir("/e/w/d1", 0755), -EEXIST);
    KT_EXPECT_EQ(vfs_rmdir("/e/w/d1"), -ENOTEMPTY);
    KT_ASSERT_EQ(vfs_stat("/e/w/d1", &st), 0);
    KT_EXPECT_EQ(st.nlink, 3);
    /* move a directory to another parent: its ".." and both nlinks change */
    KT_ASSERT_EQ(vfs_rename("/e/w/d1/sub", "/e/w/sub2"), 0);
    KT_ASSERT_EQ(vfs_stat("/e/w/d1", &st), 0);
    KT_EXPECT_EQ(st.nlink, 2);
    KT_EXPECT_EQ(check_file("/e/w/sub2/f", "f", 100), 0);
    KT_EXPECT_EQ(check_file("/e/w/sub2/../sub2/f", "f", 100), 0);
    KT_EXPECT_EQ(vfs_rmdir("/e/w/d1"), 0);
    KT_EXPECT_EQ(vfs_stat("/e/w/d1", &st), -ENOENT);
    /* a directory over a non-empty one */
    KT_ASSERT_EQ(vfs_mkdir("/e/w/emptyd", 0755), 0);
    KT_EXPECT_EQ(vfs_rename("/e/w/emptyd", "/e/w/sub2"), -ENOTEMPTY);
    KT_EXPECT_EQ(vfs_rmdir("/e/w/emptyd"), 0);
    KT_EXPECT_EQ(vfs_unlink("/e/w/sub2"), -EISDIR);
    KT_EXPECT_EQ(vfs_rmdir("/e/w/new1"), -ENOTDIR);
    KT_ASSERT_EQ(vfs_stat("/e/w", &st), 0);
    KT_EXPECT_EQ(st.nlink, 3);                       /* name, ".", sub2's ".." */
}

static void wr_rename_link_unlink(void)
{
    struct kstat st;
    KT_ASSERT_EQ(write_pattern("/e/w/ra", "ra", 0, 300), 0);
    KT_ASSERT_EQ(write_pattern("/e/w/rb", "rb", 0, 500), 0);
    KT_ASSERT_EQ(vfs_rename("/e/w/ra", "/e/w/rb"), 0);      /* over an existing file */
    KT_EXPECT_EQ(vfs_stat("/e/w/ra", &st), -ENOENT);
    KT_EXPECT_EQ(check_file("/e/w/rb", "ra", 300), 0);
    KT_ASSERT_EQ(vfs_link("/e/w/new1", "/e/w/new1.link"), 0);
    KT_EXPECT_EQ(vfs_link("/e/w/new1", "/e/w/rb"), -EEXIST);
    KT_ASSERT_EQ(vfs_stat("/e/w/new1", &st), 0);
    KT_EXPECT_EQ(st.nlink, 2);
    KT_EXPECT_EQ(check_file("/e/w/new1.link", "new1", 10000), 0);
    KT_ASSERT_EQ(write_pattern("/e/w/gone", "gone", 0, 3000), 0);
    KT_ASSERT_EQ(vfs_unlink("/e/w/gone"), 0);
    KT_EXPECT_EQ(vfs_stat("/e/w/gone", &st), -ENOENT);
    KT_EXPECT_EQ(vfs_unlink("/e/w/gone"), -ENOENT);
}

#define SLOW_TARGET "new1/../../w/new1/this/target/is/longer/than/sixty/bytes/so/it/is/slow"
static void wr_symlinks(void)
{
    char buf[128];
    KT_ASSERT_EQ(vfs_symlink("new1", "/e/w/sl_fast"), 0);
    KT_ASSERT_EQ(vfs_symlink(SLOW_TARGET, "/e/w/sl_slow"), 0);
    KT_EXPECT_EQ(vfs_symlink("x", "/e/w/sl_fast"), -EEXIST);
    int n = vfs_readlink("/e/w/sl_fast", buf, sizeof(buf));
    KT_EXPECT_EQ(n, 4);
    KT_EXPECT(!memcmp(buf, "new1", 4));
    n = vfs_readlink("/e/w/sl_slow", buf, sizeof(buf));
    KT_EXPECT_EQ(n, (int)strlen(SLOW_TARGET));
    KT_EXPECT(!memcmp(buf, SLOW_TARGET, strlen(SLOW_TARGET)));
    KT_EXPECT_EQ(check_file("/e/w/sl_fast", "new1", 10000), 0);
}

struct count_ctx { struct dir_context ctx; int n; };
static int count_actor(struct dir_context *ctx, const char *name, int len, loff_t pos,
                       unsigned long ino, unsigned int d_type)
{
    container_of(ctx, struct count_ctx, ctx)->n++;
    return 0;
}

static void wr_many_entries(void)
{
    char path[40];
    KT_ASSERT_EQ(vfs_mkdir("/e/w/many2", 0755), 0);
    for (int i = 0; i < 200; i++) {
        snprintf(path, sizeof(path), "/e/w/many2/n%03d", i);
        struct file *f = filp_open(path, O_CREAT | O_WRONLY, 0644);
        KT_ASSERT(!IS_ERR(f));
        filp_close(f);
    }
    for (int i = 0; i < 200; i += 2) {
        snprintf(path, sizeof(path), "/e/w/many2/n%03d", i);
        KT_ASSERT_EQ(vfs_unlink(path), 0);
    }
    struct file *d = filp_open("/e/w/many2", O_RDONLY | O_DIRECTORY, 0);
    KT_ASSERT(!IS_ERR(d));
    struct count_ctx c = { .ctx.actor = count_actor };
    KT_EXPECT_EQ(iterate_dir(d, &c.ctx), 0);
    filp_close(d);
    KT_EXPECT_EQ(c.n, 100 + 2);
}

static void wr_efbig(void)
{
    struct super_block *sb = ktest_sb_of("/e");
    struct file *f = filp_open("/e/w/efbig", O_CREAT | O_WRONLY, 0644);
    KT_ASSERT(!IS_ERR(f));
    loff_t pos = sb->s_maxbytes + 4096;
    KT_EXPECT_EQ(kernel_write(f, "x", 1, &pos), -EFBIG);
    filp_close(f);
    struct kstat st;
    KT_ASSERT_EQ(vfs_stat("/e/w/efbig", &st), 0);
    KT_EXPECT_EQ(st.size, 0);
    KT_EXPECT_EQ(st.blocks, 0);
}

static void wr_enospc(void)
{
    struct super_block *sb = ktest_sb_of("/s");
    struct kstatfs before, now;
    KT_ASSERT(sb != NULL);
    KT_ASSERT_EQ(write_pattern("/s/keep", "keep", 0, 2000), 0);
    KT_ASSERT_EQ(sb->s_op->statfs(sb, &before), 0);
    KT_ASSERT(before.f_bfree > 0);

    struct file *f = filp_open("/s/big", O_CREAT | O_WRONLY, 0644);
    KT_ASSERT(!IS_ERR(f));
    loff_t pos = 0;
    ssize_t w = 0;
    vpattern_fill(xbuf, 4096, "big", 0);
    while ((w = kernel_write(f, xbuf, 4096, &pos)) == 4096)
        ;
    KT_EXPECT(w == -ENOSPC || (w >= 0 && w < 4096));
    if (w >= 0) {                                  /* short: the next one fails */
        ssize_t w2 = kernel_write(f, xbuf, 4096, &pos);
        KT_EXPECT_EQ(w2, -ENOSPC);
    }
    KT_EXPECT_EQ(vfs_fsync(f, 0), 0);
    filp_close(f);
    KT_ASSERT_EQ(sb->s_op->statfs(sb, &now), 0);
    KT_EXPECT_EQ(now.f_bfree, 0);
    struct kstat st;
    KT_ASSERT_EQ(vfs_stat("/s/big", &st), 0);
    KT_EXPECT_EQ(st.size, pos);
    KT_EXPECT_EQ(st.blocks, blocks_for(sb, pos));   /* nothing allocated past i_size */
    KT_EXPECT(pos > 40 * 1024);
    KT_ASSERT_EQ(vfs_unlink("/s/big"), 0);
    KT_ASSERT_EQ(sb->s_op->statfs(sb, &now), 0);
    KT_EXPECT_EQ(now.f_bfree, before.f_bfree);

    /* out of inodes */
    char path[24];
    int n = 0;
    for (;; n++) {
        snprintf(path, sizeof(path), "/s/i%d", n);
        f = filp_open(path, O_CREAT | O_WRONLY, 0644);
        if (IS_ERR(f))
            break;
        filp_close(f);
    }
    KT_EXPECT_EQ(PTR_ERR(f), -ENOSPC);
    KT_EXPECT_EQ(n, (int)before.f_ffree);
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof(path), "/s/i%d", i);
        KT_EXPECT_EQ(vfs_unlink(path), 0);
    }
    KT_ASSERT_EQ(sb->s_op->statfs(sb, &now), 0);
    KT_EXPECT_EQ(now.f_ffree, before.f_ffree);
    KT_EXPECT_EQ(now.f_bfree, before.f_bfree);
    KT_EXPECT_EQ(ext2_count_free_blocks(sb), EXT2_SB(sb)->s_es->s_free_blocks_count);
}

/* Writeback that runs out of blocks in the middle of a page (Linux's
 * __block_write_full_page, its recover path).  /s/wbnospc is 4 KiB with
 * only its last 1 KiB block allocated; /s/wbfill fills the disk, then gives
 * back exactly two blocks that still hold its bytes.  A store through a
 * shared mapping dirties the whole page; writeback allocates blocks 0 and
 * 1, fails on block 2.  Blocks 0, 1 and 3 must be written with the page's
 * bytes (not left holding wbfill's), block 2 stays a hole, no buffer stays
 * dirty on the clean page, fsync reports -ENOSPC once.  The host checks
 * the image (ext2write.conf: wbnospc, and e2fsck). */
#define WB_UADDR 0x50000000UL
static void wr_enospc_writeback(void)
{
    struct super_block *sb = ktest_sb_of("/s");
    struct kstatfs st0;
    KT_ASSERT(sb != NULL && sb->s_blocksize == 1024);
    KT_ASSERT_EQ(write_pattern("/s/wbnospc", "wbnospc", 3072, 1024), 0);

    struct file *fill = filp_open("/s/wbfill", O_CREAT | O_WRONLY, 0644);
    KT_ASSERT(!IS_ERR(fill));
    loff_t pos = 0;
    vpattern_fill(xbuf, 4096, "wbfill", 0);
    while (kernel_write(fill, xbuf, 4096, &pos) == 4096)
        vpattern_fill(xbuf, 4096, "wbfill", pos);
    vpattern_fill(xbuf, 1024, "wbfill", pos);      /* a page needs 4 blocks: the last ones */
    while (kernel_write(fill, xbuf, 1024, &pos) == 1024)
        vpattern_fill(xbuf, 1024, "wbfill", pos);
    KT_EXPECT_EQ(vfs_fsync(fill, 0), 0);           /* wbfill's bytes are on the disk */
    filp_close(fill);
    KT_ASSERT_EQ(sb->s_op->statfs(sb, &st0), 0);
    KT_ASSERT_EQ(st0.f_bfree, 0);
    /* give back its last two data blocks (no indirect block goes with them) */
    KT_ASSERT_EQ(vfs_truncate("/s/wbfill", (DIV_ROUND_UP(pos, 1024) - 2) * 1024), 0);
    KT_ASSERT_EQ(sb->s_op->statfs(sb, &st0), 0);
    KT_ASSERT_EQ(st0.f_bfree, 2);

    struct file *f = filp_open("/s/wbnospc", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(f));
    struct address_space *mapping = f->f_mapping;
    struct mm_struct *mm = mm_alloc();
    KT_ASSERT(mm);
    struct mm_struct *prev = use_mm(mm);
    KT_EXPECT_EQ(do_mmap(mm, f, WB_UADDR, PAGE_SIZE, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_FIXED, 0), (long)WB_UADDR);
    vpattern_fill(xbuf, PAGE_SIZE, "wbnospc", 0);
    KT_EXPECT_EQ(copy_to_user((void *)WB_UADDR, xbuf, PAGE_SIZE), 0UL);
    KT_EXPECT_EQ(vfs_fsync(f, 0), -ENOSPC);        /* mapping_set_error */
    KT_EXPECT_EQ(vfs_fsync(f, 0), 0);              /* reported once */
    KT_EXPECT_EQ(do_munmap(mm, WB_UADDR, PAGE_SIZE), 0);
    use_mm(prev);
    mmput(mm);

    struct page *page = find_get_page(mapping, 0);
    KT_ASSERT(page);
    KT_EXPECT(!PageDirty(page) && !PageWriteback(page) && PagePrivate(page));
    if (PagePrivate(page)) {
        struct buffer_head *head = page_buffers(page), *bh = head;
        int i = 0, dirty = 0, mapped = 0;
        do {
            dirty += !!buffer_dirty(bh);           /* none left dirty on a clean page */
            mapped |= buffer_mapped(bh) << i++;
            bh = bh->b_this_page;
        } while (bh != head);
        KT_EXPECT_EQ(dirty, 0);
        KT_EXPECT_EQ(mapped, 0xb);                 /* blocks 0, 1, 3; 2 a hole */
    }
    put_page(page);
    struct kstat kst;
    KT_ASSERT_EQ(vfs_stat("/s/wbnospc", &kst), 0);
    KT_EXPECT_EQ(kst.blocks, 3 * 2);
    KT_EXPECT_EQ(kst.size, 4096);

    truncate_inode_pages(mapping, 0);              /* read back from the disk */
    KT_EXPECT_EQ(check_range(f, "/s/wbnospc", "wbnospc", 0, 2048), 0);   /* not wbfill's */
    KT_EXPECT_EQ(check_range(f, "/s/wbnospc", NULL, 2048, 1024), 0);     /* the hole */
    KT_EXPECT_EQ(check_range(f, "/s/wbnospc", "wbnospc", 3072, 1024), 0);
    filp_close(f);
    KT_ASSERT_EQ(vfs_unlink("/s/wbfill"), 0);
    KT_EXPECT_EQ(ext2_count_free_blocks(sb), EXT2_SB(sb)->s_es->s_free_blocks_count);
}

/* SEEK_DATA and SEEK_HOLE see the block tree (ext2_llseek, as Linux's ext4
 * on these images): blocks 0 and 1 hold data, 2.. are holes up to block
 * 20 (under the single indirect block), then a block at 1 GiB (double or
 * triple indirect, missing subtrees between), then holes to EOF at 3 GiB.
 * Each answer is never before the offset; past EOF is -ENXIO. */
static void wr_seek_data_hole(void)
{
    loff_t bs = ktest_sb_of("/e")->s_blocksize, G = 1LL << 30;
    KT_ASSERT_EQ(write_pattern("/e/w/seek", "sk", 0, bs + 100), 0);
    KT_ASSERT_EQ(write_pattern("/e/w/seek", "sk", 20 * bs, 10), 0);
    struct file *f = filp_open("/e/w/seek", O_RDWR | O_LARGEFILE, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(vfs_llseek(f, 0, SEEK_HOLE), 2 * bs);
    KT_EXPECT_EQ(vfs_llseek(f, bs + 50, SEEK_DATA), bs + 50);
    KT_EXPECT_EQ(vfs_llseek(f, 2 * bs, SEEK_DATA), 20 * bs);
    KT_EXPECT_EQ(f->f_pos, 20 * bs);
    KT_EXPECT_EQ(vfs_llseek(f, 2 * bs + 7, SEEK_HOLE), 2 * bs + 7);
    KT_EXPECT_EQ(vfs_llseek(f, 20 * bs, SEEK_HOLE), 20 * bs + 10);   /* EOF */
    KT_EXPECT_EQ(vfs_llseek(f, 20 * bs + 10, SEEK_DATA), -ENXIO);
    KT_EXPECT_EQ(vfs_llseek(f, -1, SEEK_HOLE), -ENXIO);
    KT_EXPECT_EQ(f->f_pos, 20 * bs + 10);
    KT_ASSERT_EQ(kernel_write(f, "G", 1, &(loff_t){ G }), 1);
    KT_ASSERT_EQ(do_truncate(f->f_inode, 3 * G, ATTR_MTIME | ATTR_CTIME), 0);
    KT_EXPECT_EQ(vfs_llseek(f, 21 * bs, SEEK_DATA), G);
    KT_EXPECT_EQ(vfs_llseek(f, G, SEEK_HOLE), G + bs);
    KT_EXPECT_EQ(vfs_llseek(f, G + 1, SEEK_DATA), G + 1);
    KT_EXPECT_EQ(vfs_llseek(f, G + bs, SEEK_DATA), -ENXIO);
    KT_EXPECT_EQ(vfs_llseek(f, 3 * G - 1, SEEK_HOLE), 3 * G - 1);
    filp_close(f);
    KT_EXPECT_EQ(vfs_unlink("/e/w/seek"), 0);
}

/* A file past MAX_NON_LFS opens only with O_LARGEFILE (generic_file_open,
 * called by ext2's open), and O_TRUNC is not done when the open is
 * refused; an ext2 file takes RWF_NOWAIT reads: what the cache holds,
 * -EAGAIN at a page it does not. */
static void wr_large_open(void)
{
    KT_ASSERT_EQ(write_pattern("/e/w/large", "lg", 0, 100), 0);
    KT_ASSERT_EQ(vfs_truncate("/e/w/large", 3LL << 30), 0);
    struct file *f = filp_open("/e/w/large", O_RDONLY, 0);
    KT_EXPECT_EQ(PTR_ERR(f), -EOVERFLOW);
    f = filp_open("/e/w/large", O_RDWR | O_TRUNC, 0);
    KT_EXPECT_EQ(PTR_ERR(f), -EOVERFLOW);
    struct kstat st;
    KT_ASSERT_EQ(vfs_stat("/e/w/large", &st), 0);
    KT_EXPECT_EQ(st.size, 3LL << 30);             /* not truncated */
    f = filp_open("/e/w/large", O_RDONLY | O_LARGEFILE, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT(f->f_mode & FMODE_NOWAIT);
    char buf[200];
    struct kvec kv = { buf, sizeof buf };
    struct iov_iter it;
    iov_iter_kvec(&it, READ, &kv, 1, sizeof buf);
    it.iocb_flags = IOCB_NOWAIT;
    loff_t pos = 0;
    KT_EXPECT_EQ(vfs_read(f, &it, &pos), 200);    /* page 0: cached by the write */
    iov_iter_kvec(&it, READ, &kv, 1, sizeof buf);
    it.iocb_flags = IOCB_NOWAIT;
    pos = 1LL << 30;
    KT_EXPECT_EQ(vfs_read(f, &it, &pos), -EAGAIN); /* a hole never read */
    filp_close(f);
    KT_EXPECT_EQ(vfs_unlink("/e/w/large"), 0);
}

/* Names and times as Linux's (user/conform/names and times): a directory
 * moved to another parent keeps its mtime (its ".." entry changes, its
 * times do not: ext2_set_link without update_times); a truncate to the
 * same size sets mtime and ctime (Linux's ext4 driver, the conformance
 * reference, does); a removed directory still open has nothing in it but
 * still finds its parent as ".." (its size is 0: ext2_removed_dir_parent).
 * Everything under /e/nt goes again. */
static void wr_names_times(void)
{
    struct kstat st, b;
    struct path p;
    KT_ASSERT_EQ(vfs_mkdir("/e/nt", 0755), 0);
    KT_ASSERT_EQ(vfs_mkdir("/e/nt/a", 0755), 0);
    KT_ASSERT_EQ(vfs_mkdir("/e/nt/b", 0755), 0);
    KT_ASSERT_EQ(vfs_mkdir("/e/nt/a/sub", 0755), 0);
    KT_ASSERT_EQ(kern_path("/e/nt/a/sub", 0, &p), 0);
    p.inode->i_mtime = p.inode->i_ctime = 1000;
    KT_EXPECT_EQ(vfs_rename("/e/nt/a/sub", "/e/nt/b/sub"), 0);
    KT_EXPECT_EQ(p.inode->i_mtime, 1000);
    KT_EXPECT(p.inode->i_ctime > 1000);
    path_put(&p);
    KT_ASSERT_EQ(vfs_stat("/e/nt/b", &b), 0);
    KT_EXPECT_EQ(vfs_stat("/e/nt/b/sub/..", &st), 0);
    KT_EXPECT_EQ(st.ino, b.ino);

    KT_ASSERT_EQ(write_pattern("/e/nt/f", "nt", 0, 100), 0);
    KT_ASSERT_EQ(kern_path("/e/nt/f", 0, &p), 0);
    p.inode->i_mtime = p.inode->i_ctime = 1000;
    KT_EXPECT_EQ(vfs_truncate("/e/nt/f", 100), 0);
    KT_EXPECT(p.inode->i_mtime > 1000 && p.inode->i_ctime > 1000);
    path_put(&p);

    struct file *d = filp_open("/e/nt/b/sub", O_RDONLY | O_DIRECTORY, 0);
    KT_ASSERT(!IS_ERR(d));
    KT_EXPECT_EQ(vfs_rmdir("/e/nt/b/sub"), 0);
    struct inode *up = NULL;
    KT_EXPECT_EQ(vfs_lookup_one(d->f_inode, "..", 2, &up), 0);
    KT_EXPECT(up && up->i_ino == b.ino);
    iput(up);
    KT_EXPECT_EQ(vfs_lookup_one(d->f_inode, "f", 1, &up), -ENOENT);
    struct count_ctx c = { .ctx.actor = count_actor };
    KT_EXPECT_EQ(iterate_dir(d, &c.ctx), -ENOENT);
    filp_close(d);
    KT_EXPECT_EQ(vfs_unlink("/e/nt/f"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/e/nt/a"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/e/nt/b"), 0);
    KT_EXPECT_EQ(vfs_rmdir("/e/nt"), 0);
}

/* Device nodes and a FIFO (mknod): the type in the directory entry and
 * the inode, the device number in i_block[] (post_check: debugfs, e2fsck). */
#define BIGDEV 0x11112c70                      /* Linux's encoding of 300,70000 */
static void wr_special_nodes(void)
{
    struct kstat st;
    KT_ASSERT_EQ(vfs_mknod("/e/w/fifo", S_IFIFO | 0644, 0), 0);
    KT_ASSERT_EQ(vfs_mknod("/e/w/null", S_IFCHR | 0666, MKDEV(1, 3)), 0);
    KT_ASSERT_EQ(vfs_mknod("/e/w/bigdev", S_IFCHR | 0600, BIGDEV), 0);
    KT_EXPECT_EQ(vfs_mknod("/e/w/fifo", S_IFIFO | 0644, 0), -EEXIST);
    KT_ASSERT_EQ(vfs_stat("/e/w/null", &st), 0);
    KT_EXPECT(S_ISCHR(st.mode) && st.rdev == MKDEV(1, 3));
}

/* SMP step 5: writers on every CPU at once, without the big kernel lock
 * but in ext2_get_block (their first pass allocates); the host's
 * post_check reads smpw0 and smpw1 back and runs e2fsck. */
static void wr_smp_writers(void)
{
    ktest_smp_writers("/e/w", 1024);
}

static void wr_umount(void)
{
    ksys_sync();
    KT_EXPECT_EQ(do_umount("/e"), 0);
    KT_EXPECT_EQ(do_umount("/s"), 0);
}

/* Read back from the disk (a fresh mount, read-only): the nodes' types
 * and numbers; a FIFO and a device open for writing there, a regular file
 * does not (-EROFS, as Linux's inode_permission). */
static void wr_special_nodes_reread(void)
{
    struct kstat st;
    KT_ASSERT_EQ(do_mount("hda", "/e", "ext2", MS_RDONLY, NULL), 0);
    KT_ASSERT_EQ(vfs_stat("/e/w/fifo", &st), 0);
    KT_EXPECT(S_ISFIFO(st.mode) && (st.mode & 07777) == 0644 && st.rdev == 0);
    KT_ASSERT_EQ(vfs_stat("/e/w/null", &st), 0);
    KT_EXPECT(S_ISCHR(st.mode) && st.rdev == MKDEV(1, 3));
    KT_ASSERT_EQ(vfs_stat("/e/w/bigdev", &st), 0);
    KT_EXPECT(S_ISCHR(st.mode) && st.rdev == BIGDEV);
    struct file *f = filp_open("/e/w/fifo", O_RDWR | O_NONBLOCK, 0);
    KT_EXPECT(!IS_ERR(f));
    if (!IS_ERR(f))
        filp_close(f);
    f = filp_open("/e/w/null", O_WRONLY, 0);
    KT_EXPECT(!IS_ERR(f));
    if (!IS_ERR(f))
        filp_close(f);
    KT_EXPECT_EQ(PTR_ERR(filp_open("/e/w/new1", O_RDWR, 0)), -EROFS);
    KT_EXPECT_EQ(do_umount("/e"), 0);
}

#define EXT2_WRITE_STEPS wr_mount, wr_create_extend, wr_overwrite_unaligned, wr_times_dirty_only_on_change, \
    wr_cross_indirect, wr_sparse, wr_truncate, wr_directories, wr_rename_link_unlink, \
    wr_symlinks, wr_many_entries, wr_efbig, wr_enospc, wr_enospc_writeback, wr_seek_data_hole, \
    wr_large_open, wr_names_times, wr_special_nodes, wr_smp_writers, wr_umount, \
    wr_special_nodes_reread
KTEST(ext2write, write_tree)   { RUN_STEPS(EXT2_WRITE_STEPS); }   /* hda: 1 KiB blocks */
KTEST(ext2write4k, write_tree) { RUN_STEPS(EXT2_WRITE_STEPS); }   /* hda: 4 KiB blocks */

/* ==================================================================
 * Page cache through ext2: ext2cache (hda = ext2-1k.img at /e)
 * ================================================================== */

static void ca_mount(void)
{
    KT_ASSERT_EQ(mount_ext2("hda", "/e"), 0);
}

static void ca_second_read_no_io(void)
{
    struct block_device *bdev = hd("hda");
    KT_ASSERT(bdev != NULL);
    KT_ASSERT_EQ(check_file("/e/sizes/f4096", "f4096", 4096), 0);
    unsigned long r0 = bdev->sectors_read;
    KT_ASSERT_EQ(check_file("/e/sizes/f4096", "f4096", 4096), 0);
    KT_EXPECT_EQ(bdev->sectors_read, r0);
}

/* big/dind, page 10 (file blocks 40..43 at 1 KiB): never read before. */
static void ca_full_and_partial_block_writes(void)
{
    struct block_device *bdev = hd("hda");
    struct file *f = filp_open("/e/big/dind", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_ASSERT_EQ(f->f_inode->i_blkbits, 10);
    KT_ASSERT(find_get_page(f->f_mapping, 10) == NULL);
    /* warm the metadata (inode, indirect block) by reading page 11 */
    KT_ASSERT_EQ(check_range(f, "dind", "dind", 11 * 4096, 4096), 0);
    unsigned long r0 = bdev->sectors_read;
    loff_t pos = 10 * 4096;                        /* block 40, fully covered */
    vpattern_fill(xbuf, 1024, "cw", pos);
    KT_ASSERT_EQ(kernel_write(f, xbuf, 1024, &pos), 1024);
    KT_EXPECT_EQ(bdev->sectors_read - r0, 0);        /* nothing read for it */
    pos = 10 * 4096 + 1024 + 10;                   /* block 41, partly */
    vpattern_fill(xbuf, 100, "cw", pos);
    KT_ASSERT_EQ(kernel_write(f, xbuf, 100, &pos), 100);
    KT_EXPECT_EQ(bdev->sectors_read - r0, 2);        /* block 41 read once */
    pos = 10 * 4096 + 1024 + 500;                  /* block 41 again: uptodate now */
    vpattern_fill(xbuf, 100, "cw", pos);
    KT_ASSERT_EQ(kernel_write(f, xbuf, 100, &pos), 100);
    KT_EXPECT_EQ(bdev->sectors_read - r0, 2);
    /* contents: cw where written, the old pattern elsewhere (blocks 42, 43 read now) */
    KT_EXPECT_EQ(check_range(f, "dind", "cw", 40960, 1024), 0);
    KT_EXPECT_EQ(check_range(f, "dind", "dind", 40960 + 1024, 10), 0);
    KT_EXPECT_EQ(check_range(f, "dind", "cw", 40960 + 1034, 100), 0);
    KT_EXPECT_EQ(check_range(f, "dind", "dind", 40960 + 1134, 500 - 110), 0);
    KT_EXPECT_EQ(check_range(f, "dind", "cw", 40960 + 1524, 100), 0);
    KT_EXPECT_EQ(check_range(f, "dind", "dind", 40960 + 1624, 4096 - 1624), 0);
    KT_EXPECT_EQ(bdev->sectors_read - r0, 2 + 4);    /* 42 and 43 by readpage */

    /* fsync writes the dirty blocks (40, 41: 4 sectors) and cleans the page */
    unsigned long w0 = bdev->sectors_written;
    KT_EXPECT_EQ(vfs_fsync(f, 0), 0);
    KT_EXPECT(bdev->sectors_written - w0 >= 4);
    struct page *page = find_get_page(f->f_mapping, 10);
    KT_ASSERT(page != NULL);
    KT_EXPECT(!PageDirty(page));
    put_page(page);
    filp_close(f);
}

/* Dirty, or still being written: the flusher clears PG_dirty before
 * ->writepage, which then writes the buffers one synchronous I/O at a time
 * under PG_writeback.  Only neither bit set means the data is on the disk. */
static bool page_busy(struct page *page)
{
    return PageDirty(page) || PageWriteback(page);
}

/* No fsync: the flusher writes /flushed (pages 0 and 1) once it has been
 * dirty longer than dirty_expire_centisecs.  The write happens with a long
 * expiry (a slow, loaded host must not let a pass take the pages before we
 * look), then the expiry drops to 1 s and the period to 0.5 s. */
static void ca_flusher_writes_after_delay(void)
{
    struct block_device *bdev = hd("hda");
    unsigned int old_expire = dirty_expire_centisecs, old_period = dirty_writeback_centisecs;
    dirty_expire_centisecs = 360000;
    dirty_writeback_centisecs = 50;
    wakeup_flusher_threads();                      /* the new period takes effect now */
    KT_ASSERT_EQ(write_pattern("/e/flushed", "flushed", 0, 5000), 0);
    struct file *f = filp_open("/e/flushed", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    struct page *p0 = find_get_page(f->f_mapping, 0), *p1 = find_get_page(f->f_mapping, 1);
    KT_ASSERT(p0 != NULL && p1 != NULL);
    KT_EXPECT(PageDirty(p0));
    KT_EXPECT(PageDirty(p1));
    unsigned long w0 = bdev->sectors_written;
    dirty_expire_centisecs = 100;
    for (int i = 0; i < 100 && (page_busy(p0) || page_busy(p1)); i++)
        msleep(100);                               /* expiry 1 s, period 0.5 s */
    KT_EXPECT(!page_busy(p0));
    KT_EXPECT(!page_busy(p1));
    KT_EXPECT(bdev->sectors_written - w0 >= 10);     /* 5 KiB of data at least */
    put_page(p0);
    put_page(p1);
    filp_close(f);
    dirty_expire_centisecs = old_expire;
    dirty_writeback_centisecs = old_period;
}

/* A short copy into a page that is not uptodate: write_end commits 0, the
 * loop faults the source in and retries; the result is exact. */
static void ca_short_copy_not_uptodate(void)
{
    KT_ASSERT_EQ(write_pattern("/e/sc1", "sc1", 0, 8192), 0);
    struct file *f = filp_open("/e/sc1", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_ASSERT_EQ(vfs_fsync(f, 0), 0);
    truncate_inode_pages(f->f_mapping, 0);         /* clean: drop the cached pages */
    KT_ASSERT(find_get_page(f->f_mapping, 0) == NULL);

    struct write_path_stats s0 = write_path_stats;
    vpattern_fill(xbuf, 1500, "sc1b", 100);
    struct kvec kv = { xbuf, 1500 };
    struct faulty_iter fi;
    iov_iter_faulty(&fi, &kv, 1, 1500, 700, 1);    /* stops at byte 700 once */
    loff_t pos = 100;
    KT_EXPECT_EQ(vfs_write(f, &fi.iter, &pos), 1500);
    KT_EXPECT_EQ(pos, 1600);
    KT_EXPECT(write_path_stats.zero_commits > s0.zero_commits);
    KT_EXPECT(write_path_stats.retries > s0.retries);
    KT_EXPECT_EQ(check_range(f, "sc1", "sc1", 0, 100), 0);
    KT_EXPECT_EQ(check_range(f, "sc1", "sc1b", 100, 1500), 0);
    KT_EXPECT_EQ(check_range(f, "sc1", "sc1", 1600, 8192 - 1600), 0);
    filp_close(f);
}

/* Past EOF with a short copy.  (a) Nothing can be copied: -EFAULT, i_size
 * unchanged, and the blocks write_begin allocated past i_size are trimmed
 * (same i_blocks).  (b) Only the first 1500 bytes can be: the first attempt
 * commits 0 (page not uptodate), the retry of the faulted-in prefix commits
 * 1500, the rest is -EFAULT: the result is 1500, and the blocks allocated
 * for the failed tail are trimmed again (i_blocks counts exactly the blocks
 * below the new i_size).  The host's e2fsck checks the same. */
static void ca_short_copy_past_eof(void)
{
    struct kstat st;
    struct super_block *sb = ktest_sb_of("/e");
    KT_ASSERT_EQ(write_pattern("/e/sc2", "sc2", 0, 1000), 0);
    KT_ASSERT_EQ(vfs_stat("/e/sc2", &st), 0);
    unsigned long blocks0 = st.blocks;
    struct file *f = filp_open("/e/sc2", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(f));
    vpattern_fill(xbuf, 3000, "sc2b", 5000);
    struct kvec kv = { xbuf, 3000 };
    struct faulty_iter fi;
    iov_iter_faulty(&fi, &kv, 1, 3000, 0, 0);      /* nothing readable */
    loff_t pos = 5000;
    KT_EXPECT_EQ(vfs_write(f, &fi.iter, &pos), -EFAULT);
    KT_EXPECT_EQ(pos, 5000);
    KT_ASSERT_EQ(vfs_stat("/e/sc2", &st), 0);
    KT_EXPECT_EQ(st.size, 1000);
    KT_EXPECT_EQ(st.blocks, blocks0);

    struct write_path_stats s0 = write_path_stats;
    iov_iter_faulty(&fi, &kv, 1, 3000, 1500, 0);   /* bytes from 1500 on unmapped */
    pos = 5000;
    KT_EXPECT_EQ(vfs_write(f, &fi.iter, &pos), 1500);
    KT_EXPECT_EQ(pos, 6500);
    KT_EXPECT(write_path_stats.zero_commits >= s0.zero_commits + 2);
    filp_close(f);
    KT_ASSERT_EQ(vfs_stat("/e/sc2", &st), 0);
    KT_EXPECT_EQ(st.size, 6500);
    /* 1 KiB blocks: block 0 (bytes 0..999) and blocks 4, 5, 6 (5000..6499) */
    KT_EXPECT_EQ(st.blocks, 4 * (sb->s_blocksize / 512));
    f = filp_open("/e/sc2", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(check_range(f, "sc2", "sc2", 0, 1000), 0);
    KT_EXPECT_EQ(check_range(f, "sc2", NULL, 1000, 4000), 0);
    KT_EXPECT_EQ(check_range(f, "sc2", "sc2b", 5000, 1500), 0);
    filp_close(f);
}

static void ca_umount(void)
{
    ksys_sync();
    KT_EXPECT_EQ(do_umount("/e"), 0);
}

/* A store through a shared mapping that only the PTE's dirty bit records
 * (the page had no buffers when it was dirtied: reclaim released them, as
 * try_to_release_page does before __remove_mapping, and the page stayed)
 * is written even when write(2) then marked one buffer of the page dirty:
 * clear_page_dirty_for_io re-dirties every buffer when page_mkclean finds a
 * dirty PTE (Linux).  Checked from the disk, and on the image by the host. */
static void ca_mapped_store_kept_by_mkclean(void)
{
    KT_ASSERT_EQ(write_pattern("/e/mk", "mk", 0, 4096), 0);
    struct file *f = filp_open("/e/mk", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_ASSERT_EQ(f->f_inode->i_blkbits, 10);
    KT_EXPECT_EQ(vfs_fsync(f, 0), 0);
    struct page *page = find_get_page(f->f_mapping, 0);
    KT_ASSERT(page);
    lock_page(page);
    KT_EXPECT_EQ(try_to_free_buffers(page), 1);    /* clean: reclaim may do this */
    unlock_page(page);
    KT_EXPECT(!PagePrivate(page));

    struct mm_struct *mm = mm_alloc();
    KT_ASSERT(mm);
    struct mm_struct *prev = use_mm(mm);
    KT_EXPECT_EQ(do_mmap(mm, f, WB_UADDR, PAGE_SIZE, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_FIXED, 0), (long)WB_UADDR);
    vpattern_fill(xbuf, 100, "mkm", 3000);         /* block 2, through the mapping */
    KT_EXPECT_EQ(copy_to_user((void *)(WB_UADDR + 3000), xbuf, 100), 0UL);
    pte_t *ptep = lookup_pte((pgd_t *)mm->pgd, WB_UADDR);
    KT_ASSERT(ptep && (*ptep & _PAGE_DIRTY));
    KT_EXPECT(PageDirty(page) && !PagePrivate(page));
    loff_t pos = 100;                              /* block 0, through write(2) */
    vpattern_fill(xbuf, 100, "mkw", pos);
    KT_EXPECT_EQ(kernel_write(f, xbuf, 100, &pos), 100);
    KT_EXPECT_EQ(vfs_fsync(f, 0), 0);
    KT_EXPECT(!(*ptep & (_PAGE_RW | _PAGE_DIRTY)));  /* page_mkclean found it */
    KT_EXPECT(!PageDirty(page));
    KT_EXPECT_EQ(do_munmap(mm, WB_UADDR, PAGE_SIZE), 0);
    use_mm(prev);
    mmput(mm);
    put_page(page);

    truncate_inode_pages(f->f_mapping, 0);         /* clean: read back from the disk */
    KT_EXPECT_EQ(check_range(f, "/e/mk", "mk", 0, 100), 0);
    KT_EXPECT_EQ(check_range(f, "/e/mk", "mkw", 100, 100), 0);
    KT_EXPECT_EQ(check_range(f, "/e/mk", "mk", 200, 2800), 0);
    KT_EXPECT_EQ(check_range(f, "/e/mk", "mkm", 3000, 100), 0);   /* the store */
    KT_EXPECT_EQ(check_range(f, "/e/mk", "mk", 3100, 996), 0);
    filp_close(f);
}

KTEST(ext2cache, page_cache)
{
    RUN_STEPS(ca_mount, ca_second_read_no_io, ca_full_and_partial_block_writes,
              ca_flusher_writes_after_delay, ca_short_copy_not_uptodate,
              ca_short_copy_past_eof, ca_mapped_store_kept_by_mkclean, ca_umount);
}

/* ==================================================================
 * New blocks are zeroed: ext2zero (hda = ext2-1k.img at /e)
 * ================================================================== */

/* A page-cache page that is not uptodate holds whatever its frame held
 * before: Linux allocates page-cache pages without zeroing them, and
 * readahead inserts pages before their read completes.  A freshly booted
 * machine's free frames are all zero, which would hide a write_begin that
 * forgets to zero the parts of a new block the copy does not write.  So
 * reuse a dirty frame on purpose: put a page full of 0xa5 into the file's
 * cache at INDEX, not uptodate, before the write comes. */
static int plant_stale_page(struct address_space *mapping, unsigned long index)
{
    struct page *page = find_or_create_page(mapping, index, GFP_HIGHUSER);
    if (!page)
        return -ENOMEM;
    int err = PageUptodate(page) ? -EEXIST : 0;
    if (!err)
        memset(page_address(page), 0xa5, PAGE_SIZE);
    unlock_page(page);
    put_page(page);
    return err;
}

/* zn's expected bytes: zeros, but the pattern "zn" at [10, 110) and
 * [5000, 5010).  The host checks the same on the image (ext2zero.conf). */
static void zn_check(struct file *f)
{
    KT_EXPECT_EQ(check_range(f, "zn", NULL, 0, 10), 0);
    KT_EXPECT_EQ(check_range(f, "zn", "zn", 10, 100), 0);
    KT_EXPECT_EQ(check_range(f, "zn", NULL, 110, 5000 - 110), 0);
    KT_EXPECT_EQ(check_range(f, "zn", "zn", 5000, 10), 0);
}

/* A new file /zn, 1 KiB blocks; pages 0 and 1 planted stale.  100 bytes at
 * 10: block 0 is new, and write_begin must zero [0, 10) and [110, 1024).
 * 10 bytes at 5000: block 4 is new ([4096, 5000) and [5010, 5120) zeroed);
 * blocks 1..3 stay holes, and the file now covers block 0's tail.  The
 * bytes are checked in the cache, then again after fsync and dropping the
 * cache (read from the disk), and by the host on the image. */
KTEST(ext2zero, new_blocks_zeroed_outside_the_write)
{
    KT_ASSERT_EQ(mount_ext2("hda", "/e"), 0);
    struct file *f = filp_open("/e/zn", O_RDWR | O_CREAT | O_TRUNC, 0644);
    KT_ASSERT(!IS_ERR(f));
    KT_ASSERT_EQ(f->f_inode->i_blkbits, 10);
    KT_ASSERT_EQ(plant_stale_page(f->f_mapping, 0), 0);
    KT_ASSERT_EQ(plant_stale_page(f->f_mapping, 1), 0);
    loff_t pos = 10;
    vpattern_fill(xbuf, 100, "zn", pos);
    KT_ASSERT_EQ(kernel_write(f, xbuf, 100, &pos), 100);
    pos = 5000;
    vpattern_fill(xbuf, 10, "zn", pos);
    KT_ASSERT_EQ(kernel_write(f, xbuf, 10, &pos), 10);
    KT_EXPECT_EQ(f->f_inode->i_size, 5010);
    zn_check(f);                                   /* the page cache */
    KT_EXPECT_EQ(vfs_fsync(f, 0), 0);
    truncate_inode_pages(f->f_mapping, 0);         /* clean: drop the cached pages */
    KT_EXPECT(find_get_page(f->f_mapping, 0) == NULL);
    zn_check(f);                                   /* the disk */
    filp_close(f);
    ksys_sync();
    KT_EXPECT_EQ(do_umount("/e"), 0);
}

/* ==================================================================
 * Corrupt images (tools/mkcorrupt.sh), two IDE disks per run:
 *   ext2corrupt   hda = corrupt-magic,  hdb = corrupt-range
 *   ext2corrupt2  hda = corrupt-sbptr,  hdb = corrupt-dirent
 *   ext2corrupt3  hda = corrupt-loop
 * Each suite ends with the kernel still running ("ktest: done").
 * ================================================================== */

static int try_read(const char *path)
{
    struct file *f = filp_open(path, O_RDONLY, 0);
    if (IS_ERR(f))
        return PTR_ERR(f);
    loff_t pos = 0;
    int r = 0;
    for (;;) {
        ssize_t n = kernel_read(f, tbuf, CHUNK, &pos);
        if (n <= 0) {
            r = n;
            break;
        }
    }
    filp_close(f);
    return r;
}

KTEST(ext2corrupt, bad_magic_refused)
{
    KT_ASSERT_EQ(ensure_root(), 0);
    vfs_mkdir("/c", 0755);
    KT_EXPECT_EQ(do_mount("hda", "/c", "ext2", 0, NULL), -EINVAL);
}

KTEST(ext2corrupt, block_past_end_eio)
{
    KT_ASSERT_EQ(mount_ext2("hdb", "/c"), 0);
    KT_EXPECT_EQ(try_read("/c/file"), -EIO);
    KT_EXPECT_EQ(check_file("/c/f2", "f2", 1000), 0);    /* the rest still works */
    KT_EXPECT_EQ(do_umount("/c"), 0);
}

KTEST(ext2corrupt2, block_in_superblock_eio)
{
    KT_ASSERT_EQ(mount_ext2("hda", "/c"), 0);
    KT_EXPECT_EQ(try_read("/c/f2"), -EIO);
    KT_EXPECT_EQ(check_file("/c/file", "file", 3000), 0);
    /* writing to it must not touch the superblock either */
    struct file *f = filp_open("/c/f2", O_WRONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    loff_t pos = 0;
    KT_EXPECT_EQ(kernel_write(f, "zz", 2, &pos), -EIO);
    filp_close(f);
    KT_EXPECT_EQ(do_umount("/c"), 0);
}

KTEST(ext2corrupt2, dirent_runs_off_block_eio)
{
    struct kstat st;
    KT_ASSERT_EQ(mount_ext2("hdb", "/c"), 0);
    KT_EXPECT_EQ(vfs_stat("/c/dir/delta", &st), -EIO);
    struct file *d = filp_open("/c/dir", O_RDONLY | O_DIRECTORY, 0);
    KT_ASSERT(!IS_ERR(d));
    struct count_ctx c = { .ctx.actor = count_actor };
    KT_EXPECT_EQ(iterate_dir(d, &c.ctx), -EIO);
    filp_close(d);
    KT_EXPECT_EQ(check_file("/c/file", "file", 3000), 0);
    KT_EXPECT_EQ(do_umount("/c"), 0);
}

KTEST(ext2corrupt3, indirect_loop_eio)
{
    KT_ASSERT_EQ(mount_ext2("hda", "/c"), 0);
    KT_EXPECT_EQ(try_read("/c/ind"), -EIO);
    struct file *f = filp_open("/c/ind", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    KT_EXPECT_EQ(check_range(f, "ind", "ind", 0, 12 * 1024), 0);   /* the direct part is fine */
    filp_close(f);
    KT_EXPECT_EQ(do_umount("/c"), 0);
}
