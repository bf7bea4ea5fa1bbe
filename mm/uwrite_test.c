/* mm/uwrite_test.c: the write loop with REAL user buffers (test=uwrite).
 * Layer: tests across mm/ (user memory, faults) and the VFS write path.
 *
 * A test builds an address space (mm_alloc + use_mm), maps anonymous memory
 * in it, and calls vfs_write() with an ITER_IOVEC iterator over user
 * addresses: generic_perform_write -> copy_page_from_iter_atomic ->
 * __copy_from_user_inatomic, with real page faults taken and fixed up.
 * Results are checked through the return value, the file offset, the file's
 * contents, and the counters of the write loop and the fault handler.
 * (user/tests/ drives the same path from user space with write/writev.)
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <mm.h>
#include <asm/mman.h>
#include <sched.h>
#include <ktest.h>
#include <lockdep.h>
#include <uio.h>
#include <pagemap.h>
#include <asm/uaccess.h>
#include <pagemap.h>
#include <writeback.h>
#include <sched.h>
#include <mm.h>
#include <slab.h>
#include <timer.h>

#define UB 0x10000000UL                  /* the user buffers */

static struct mm_struct *prev_mm;
static struct write_path_stats w0;
static unsigned long atomic0, dz0;
static char kbuf[3 * PAGE_SIZE];
static const char *udir = "";            /* "" : the ramfs root; "/e": ext2 (uwrite2) */
static bool ukeep;                       /* keep the files (the host checks them) */

static void mark(void)
{
    w0 = write_path_stats;
    atomic0 = page_fault_atomic_fixups;
    dz0 = page_fault_demand_zero;
}
#define WS(f) (write_path_stats.f - w0.f)

static struct mm_struct *umm(void)
{
    struct mm_struct *mm = mm_alloc();
    if (mm)
        prev_mm = use_mm(mm);
    return mm;
}

static void umm_done(struct mm_struct *mm)
{
    use_mm(prev_mm);
    mmput(mm);
}

static long umap(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot)
{
    return do_mmap(mm, NULL, addr, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0);
}

/* A file on the (ramfs) root, optionally pre-filled with `fill` bytes of 'Z'
 * (so its pages are in the cache) or empty (no pages at all). */
static struct file *uopen(const char *name, size_t fill)
{
    static char path[64];
    snprintf(path, sizeof path, "%s%s", udir, name);
    if (vfs_ensure_root())
        return NULL;
    vfs_unlink(path);
    struct file *f = filp_open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
    if (IS_ERR(f))
        return NULL;
    if (fill) {
        memset(kbuf, 'Z', fill);
        loff_t p = 0;
        if (kernel_write(f, kbuf, fill, &p) != (ssize_t)fill)
            return NULL;
    }
    return f;
}

static void uclose(struct file *f, const char *name)
{
    char path[64];
    snprintf(path, sizeof path, "%s%s", udir, name);
    filp_close(f);
    if (!ukeep)
        vfs_unlink(path);
}

static ssize_t uwritev(struct file *f, const struct iovec *iov, int n, loff_t *pos)
{
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += iov[k].iov_len;
    struct iov_iter it;
    iov_iter_init(&it, WRITE, iov, n, total);
    return vfs_write(f, &it, pos);
}

static ssize_t uwrite(struct file *f, unsigned long ubuf, size_t len, loff_t *pos)
{
    struct iovec v = { (void *)ubuf, len };
    return uwritev(f, &v, 1, pos);
}

static ssize_t fread_all(struct file *f, size_t n)
{
    loff_t p = 0;
    memset(kbuf, 0, sizeof kbuf);
    return kernel_read(f, kbuf, n, &p);
}

static uint8_t pat(unsigned long off) { return (uint8_t)(off * 31 + 7) | 1; }  /* never 0 */

/* Fill [addr, addr+len) of user memory with pat(offset from UB). */
static int ufill(unsigned long addr, size_t len)
{
    static uint8_t tmp[256];
    for (size_t done = 0; done < len; ) {
        size_t n = min(len - done, sizeof tmp);
        for (size_t k = 0; k < n; k++)
            tmp[k] = pat(addr + done + k - UB);
        if (copy_to_user((void *)(addr + done), tmp, n))
            return -EFAULT;
        done += n;
    }
    return 0;
}

KTEST(uwrite, half_touched_buffer_short_copy_fault_in_retry)
{
    struct mm_struct *mm = umm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(umap(mm, UB, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE), UB);
    KT_ASSERT_EQ(ufill(UB, PAGE_SIZE), 0);                 /* first page touched only */
    struct file *f = uopen("/uw_half", 2 * PAGE_SIZE);   /* pages in the cache, 'Z' */
    KT_ASSERT(f);
    loff_t pos = 0;
    mark();
    /* 4096 bytes from the second half of page 0 and the first half of the
     * never-touched page 1. */
    ssize_t n = uwrite(f, UB + PAGE_SIZE / 2, PAGE_SIZE, &pos);
    KT_EXPECT_EQ(n, PAGE_SIZE);
    KT_EXPECT_EQ(pos, PAGE_SIZE);
    KT_EXPECT_EQ(WS(attempts), 3);        /* 2048 committed; 0 -> fault-in; 2048 */
    KT_EXPECT_EQ(WS(short_copies), 2);
    KT_EXPECT_EQ(WS(zero_commits), 1);
    KT_EXPECT_EQ(WS(fault_ins), 1);
    KT_EXPECT_EQ(WS(retries), 1);
    KT_EXPECT_EQ(WS(efaults), 0);
    KT_EXPECT_EQ(page_fault_atomic_fixups, atomic0 + 2);   /* real #PFs, fixed up at once */
    KT_EXPECT_EQ(page_fault_demand_zero, dz0 + 1);         /* the fault-in mapped page 1 */
    KT_EXPECT_EQ(fread_all(f, 2 * PAGE_SIZE), 2 * PAGE_SIZE);
    bool ok = true;
    for (unsigned k = 0; k < PAGE_SIZE / 2; k++)
        ok &= (uint8_t)kbuf[k] == pat(PAGE_SIZE / 2 + k);
    for (unsigned k = PAGE_SIZE / 2; k < PAGE_SIZE; k++)
        ok &= kbuf[k] == 0;                               /* demand-zero source bytes */
    for (unsigned k = PAGE_SIZE; k < 2 * PAGE_SIZE; k++)
        ok &= kbuf[k] == 'Z';                             /* untouched */
    KT_EXPECT(ok);
    uclose(f, "/uw_half");
    umm_done(mm);
}

KTEST(uwrite, writev_second_iovec_prot_none)
{
    struct mm_struct *mm = umm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(umap(mm, UB, PAGE_SIZE, PROT_READ | PROT_WRITE), UB);
    KT_ASSERT_EQ(umap(mm, UB + 4 * PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE), UB + 4 * PAGE_SIZE);
    KT_ASSERT_EQ(ufill(UB, PAGE_SIZE), 0);
    KT_ASSERT_EQ(ufill(UB + 4 * PAGE_SIZE, PAGE_SIZE), 0);
    KT_ASSERT_EQ(do_mprotect(mm, UB + 4 * PAGE_SIZE, PAGE_SIZE, PROT_NONE), 0);
    struct file *f = uopen("/uw_wv", 0);
    KT_ASSERT(f);
    loff_t pos = 0;
    mark();
    struct iovec iov[3] = {
        { (void *)(UB + 100), 300 },
        { (void *)(UB + 4 * PAGE_SIZE), 200 },           /* PROT_NONE */
        { (void *)(UB + 1000), 50 },
    };
    ssize_t n = uwritev(f, iov, 3, &pos);
    KT_EXPECT_EQ(n, 300);
    KT_EXPECT_EQ(pos, 300);
    KT_EXPECT_EQ(f->f_inode->i_size, 300);
    KT_EXPECT_EQ(WS(efaults), 1);
    KT_EXPECT(page_fault_atomic_fixups > atomic0);
    KT_EXPECT_EQ(fread_all(f, PAGE_SIZE), 300);
    bool ok = true;
    for (unsigned k = 0; k < 300; k++)
        ok &= (uint8_t)kbuf[k] == pat(100 + k);
    KT_EXPECT(ok);
    /* The same with an UNMAPPED second iovec, appended at pos 300. */
    iov[1].iov_base = (void *)(UB + 8 * PAGE_SIZE);
    n = uwritev(f, iov, 3, &pos);
    KT_EXPECT_EQ(n, 300);
    KT_EXPECT_EQ(pos, 600);
    KT_EXPECT_EQ(f->f_inode->i_size, 600);
    uclose(f, "/uw_wv");
    umm_done(mm);
}

KTEST(uwrite, wholly_unmapped_buffer_efault_nothing_changes)
{
    struct mm_struct *mm = umm();
    KT_ASSERT(mm);
    struct file *f = uopen("/uw_bad", 50);
    KT_ASSERT(f);
    loff_t pos = 10;
    mark();
    KT_EXPECT_EQ(uwrite(f, 0x30000000, 100, &pos), -EFAULT);      /* no VMA */
    KT_EXPECT_EQ(uwrite(f, 0, 100, &pos), -EFAULT);               /* NULL */
    KT_EXPECT_EQ(uwrite(f, (unsigned long)kbuf, 100, &pos), -EFAULT);   /* kernel memory */
    KT_EXPECT_EQ(uwrite(f, TASK_SIZE - 50, 100, &pos), -EFAULT);  /* runs over TASK_SIZE */
    KT_EXPECT_EQ(pos, 10);
    KT_EXPECT_EQ(f->f_inode->i_size, 50);
    KT_EXPECT_EQ(WS(efaults), 4);
    KT_EXPECT_EQ(fread_all(f, PAGE_SIZE), 50);
    bool ok = true;
    for (unsigned k = 0; k < 50; k++)
        ok &= kbuf[k] == 'Z';
    KT_EXPECT(ok);
    uclose(f, "/uw_bad");
    umm_done(mm);
}

/* Writes whose chunk straddles a file page boundary, from a source that
 * straddles a never-touched user page, on a file whose pages are / are not
 * in the cache. */
static void straddle(const char *path, size_t fill)
{
    struct mm_struct *mm = umm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(umap(mm, UB, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE), UB);
    KT_ASSERT_EQ(ufill(UB, PAGE_SIZE), 0);                         /* page 0 only */
    struct file *f = uopen(path, fill);
    KT_ASSERT(f);
    for (unsigned long soff = PAGE_SIZE - 7; soff < PAGE_SIZE; soff += 3) {
        loff_t pos = PAGE_SIZE - 13, start = pos;
        mark();
        ssize_t n = uwrite(f, UB + soff, 40, &pos);
        KT_EXPECT_EQ(n, 40);
        KT_EXPECT_EQ(pos, start + 40);
        KT_EXPECT_EQ(WS(efaults), 0);
        loff_t p = start;
        char got[40];
        KT_EXPECT_EQ(kernel_read(f, got, 40, &p), 40);
        bool ok = true;
        for (unsigned k = 0; k < 40; k++) {
            unsigned long s = soff + k;
            uint8_t want = s < PAGE_SIZE ? pat(s) : 0;           /* page 1: demand zero */
            ok &= (uint8_t)got[k] == want;
        }
        KT_EXPECT(ok);
    }
    KT_EXPECT_EQ(f->f_inode->i_size, max((loff_t)fill, (loff_t)PAGE_SIZE + 27));
    if (fill) {
        KT_EXPECT_EQ(fread_all(f, fill), (ssize_t)fill);
        KT_EXPECT(kbuf[0] == 'Z' && kbuf[PAGE_SIZE - 14] == 'Z' && kbuf[PAGE_SIZE + 27] == 'Z');
    }
    uclose(f, path);
    umm_done(mm);
}

KTEST(uwrite, straddling_writes_pages_not_in_cache)
{
    straddle("/uw_s0", 0);
}

KTEST(uwrite, straddling_writes_pages_in_cache)
{
    straddle("/uw_s1", 3 * PAGE_SIZE);
}

KTEST(uwrite, read_into_user_buffer)
{
    struct mm_struct *mm = umm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(umap(mm, UB, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE), UB);
    KT_ASSERT_EQ(umap(mm, UB + 2 * PAGE_SIZE, PAGE_SIZE, PROT_READ), UB + 2 * PAGE_SIZE);
    struct file *f = uopen("/uw_rd", 3 * PAGE_SIZE);
    KT_ASSERT(f);
    /* into never-touched pages: copy_to_user resolves the faults */
    struct iovec v = { (void *)(UB + 100), PAGE_SIZE };
    struct iov_iter it;
    iov_iter_init(&it, READ, &v, 1, PAGE_SIZE);
    loff_t pos = 0;
    KT_EXPECT_EQ(vfs_read(f, &it, &pos), PAGE_SIZE);
    KT_EXPECT_EQ(pos, PAGE_SIZE);
    char c = 0;
    KT_EXPECT_EQ(get_user(c, (char *)(UB + 100 + PAGE_SIZE - 1)), 0);
    KT_EXPECT_EQ(c, 'Z');
    /* into a read-only page: short read up to its start */
    v.iov_base = (void *)(UB + 2 * PAGE_SIZE - 10);
    iov_iter_init(&it, READ, &v, 1, 100);
    pos = 0;
    KT_EXPECT_EQ(vfs_read(f, &it, &pos), 10);
    KT_EXPECT_EQ(pos, 10);
    uclose(f, "/uw_rd");
    umm_done(mm);
}

/*
 * The source buffer is a mapping of the very file being written (the case
 * the whole write_begin/atomic-copy design exists for; user/tests/mmap_file.c
 * does the same from user space).  The file: 4 pages of holes (i_size 4
 * pages, nothing in the page cache), mapped MAP_SHARED or MAP_PRIVATE at UB.
 *   a) page 1 <- the mapping of page 0: the atomic copy faults at once (page
 *      0 is not mapped), write_end commits 0 and unlocks page 1, the fault-in
 *      reads page 0 through filemap_fault, the retry copies zeros;
 *   b) page 3 + 500 <- the mapping of page 3 + 500: source and destination
 *      the same bytes of one hole page, which write_begin has LOCKED when the
 *      copy faults on it.  A copy with faults enabled would sleep on that lock
 *      forever (the SELF-DEADLOCK report); the atomic copy stops instead;
 *   c) data: page 2 gets bytes with kernel_write, then page 0 <- the mapping
 *      of page 2, which is cached and uptodate: no short copy at all.
 */
static void from_own_mapping(unsigned long type, const char *name)
{
    struct mm_struct *mm = umm();
    KT_ASSERT(mm);
    struct file *f = uopen(name, 0);
    KT_ASSERT(f);
    KT_ASSERT_EQ(do_truncate(f->f_inode, 4 * PAGE_SIZE, ATTR_MTIME | ATTR_CTIME), 0);
    KT_ASSERT_EQ(do_mmap(mm, f, UB, 4 * PAGE_SIZE, PROT_READ | PROT_WRITE,
                         type | MAP_FIXED, 0), UB);
    unsigned long sd = pagecache_stats.self_deadlocks;

    loff_t pos = PAGE_SIZE;                                        /* a */
    mark();
    KT_EXPECT_EQ(uwrite(f, UB, PAGE_SIZE, &pos), PAGE_SIZE);
    KT_EXPECT_EQ(pos, 2 * PAGE_SIZE);
    KT_EXPECT(WS(short_copies) >= 1);
    KT_EXPECT(WS(zero_commits) >= 1);
    KT_EXPECT(WS(retries) >= 1);
    KT_EXPECT_EQ(WS(efaults), 0);

    pos = 3 * PAGE_SIZE + 500;                                     /* b */
    mark();
    KT_EXPECT_EQ(uwrite(f, UB + 3 * PAGE_SIZE + 500, 200, &pos), 200);
    KT_EXPECT_EQ(pos, 3 * PAGE_SIZE + 700);
    KT_EXPECT(WS(short_copies) >= 1);
    KT_EXPECT(WS(retries) >= 1);
    KT_EXPECT_EQ(pagecache_stats.self_deadlocks, sd);             /* no fault under the lock */

    for (unsigned k = 0; k < PAGE_SIZE; k++)                       /* c */
        kbuf[k] = (char)pat(k);
    pos = 2 * PAGE_SIZE;
    KT_ASSERT_EQ(kernel_write(f, kbuf, PAGE_SIZE, &pos), PAGE_SIZE);
    pos = 0;
    mark();
    KT_EXPECT_EQ(uwrite(f, UB + 2 * PAGE_SIZE, PAGE_SIZE, &pos), PAGE_SIZE);
    KT_EXPECT_EQ(WS(efaults), 0);

    KT_EXPECT_EQ(f->f_inode->i_size, 4 * PAGE_SIZE);
    KT_EXPECT_EQ(fread_all(f, 3 * PAGE_SIZE), 3 * PAGE_SIZE);
    bool ok = true;
    for (unsigned k = 0; k < PAGE_SIZE; k++)
        ok &= (uint8_t)kbuf[k] == pat(k) && kbuf[PAGE_SIZE + k] == 0 &&
              (uint8_t)kbuf[2 * PAGE_SIZE + k] == pat(k);
    KT_EXPECT(ok);
    char tail[PAGE_SIZE];
    loff_t p = 3 * PAGE_SIZE;
    KT_EXPECT_EQ(kernel_read(f, tail, PAGE_SIZE, &p), PAGE_SIZE);
    for (unsigned k = 0; k < PAGE_SIZE; k++)
        ok &= tail[k] == 0;
    KT_EXPECT(ok);
    KT_EXPECT_EQ(do_munmap(mm, UB, 4 * PAGE_SIZE), 0);
    uclose(f, name);
    umm_done(mm);
}

KTEST(uwrite, source_is_shared_map_of_the_page_being_written)
{
    from_own_mapping(MAP_SHARED, "/uw_mshared");
}

KTEST(uwrite, source_is_private_map_of_a_hole)
{
    from_own_mapping(MAP_PRIVATE, "/uw_mpriv");
}

/* The legacy path's inversion, which the lock validator must report the
 * first time it happens, with one task (include/lockdep.h): naive mode
 * copies with faults enabled under the page lock; the source is a shared
 * mapping of the very page being written (a hole, not in the cache), as
 * user/tests/mmap_file.c's legacy test does.  The fault takes mmap_sem
 * under the page lock (page lock -> mmap_sem, against the LOCK ORDER of
 * mm/filemap.c) and filemap_fault then locks the page (mmap_sem -> page
 * lock): a cycle, "possible circular locking dependency detected", once;
 * lock_page_or_deadlock's own SELF-DEADLOCK report follows and the write
 * backs out with -EDEADLK. */
KTEST(uwrite, naive_legacy_inversion_is_reported_by_the_validator)
{
    struct mm_struct *mm = umm();
    KT_ASSERT(mm);
    KT_ASSERT_EQ(vfs_ensure_root(), 0);
    int err = vfs_mkdir("/uw_legacy", 0755);
    KT_ASSERT(!err || err == -EEXIST);
    static bool mounted;
    if (!mounted) {
        KT_ASSERT_EQ(do_mount("none", "/uw_legacy", "ramfs", 0, "legacy_aops"), 0);
        mounted = true;
    }
    struct file *f = uopen("/uw_legacy/f", 0);
    KT_ASSERT(f);
    KT_ASSERT_EQ(do_truncate(f->f_inode, 2 * PAGE_SIZE, ATTR_MTIME | ATTR_CTIME), 0);
    KT_ASSERT_EQ(do_mmap(mm, f, UB, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_FIXED, 0), UB);
    unsigned long sd = pagecache_stats.self_deadlocks;
    int mode = legacy_write_mode;
    legacy_write_mode = LEGACY_WRITE_NAIVE;
    ktest_lockdep_begin();
    printk(KERN_INFO "uwrite_test: the naive legacy write follows\n");
    loff_t pos = 100;
    ssize_t n = uwrite(f, UB + 100, 200, &pos);
    const char *log = ktest_log_since("uwrite_test: the naive legacy write follows");
    unsigned long made = ktest_lockdep_end();
    legacy_write_mode = mode;
    KT_EXPECT_EQ(n, -EDEADLK);
    KT_EXPECT_EQ(pagecache_stats.self_deadlocks, sd + 1);
    KT_EXPECT_EQ(made, 1);
    KT_EXPECT(ktest_find(log, "WARNING: possible circular locking dependency detected"));
    KT_EXPECT(ktest_find(log, "is trying to acquire lock:\n (page lock){page}, at: "));
    KT_EXPECT(ktest_find(log, "but task is already holding lock:\n (&mm->mmap_sem){rwsem-read}, at: "));
    const char *chain = ktest_find(log, "the existing dependency chain (in reverse order) is:");
    KT_EXPECT(chain && ktest_find(chain, "-> #0 (&mm->mmap_sem):\n"
                                         "       taken while holding page lock, taken at:"));
    KT_EXPECT(ktest_find(log, "lock_page: SELF-DEADLOCK"));
    KT_EXPECT_EQ(do_munmap(mm, UB, 2 * PAGE_SIZE), 0);
    uclose(f, "/uw_legacy/f");
    umm_done(mm);
}

static bool has_line(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; *p; p++)
        if ((p == text || p[-1] == '\n') && !strncmp(p, name, n) && p[n] == ' ')
            return true;
    return false;
}

KTEST(uwrite, proc_text_has_counters)
{
    char text[1024];
    size_t n = write_path_stats_show(text, sizeof text);
    KT_EXPECT(n > 0 && n < sizeof text);
    KT_EXPECT(has_line(text, "short_copies"));
    KT_EXPECT(has_line(text, "atomic_fixups"));
    KT_EXPECT(has_line(text, "efaults"));
    char small[8];
    KT_EXPECT_EQ(write_path_stats_show(small, sizeof small), 7);
    KT_EXPECT_EQ(small[7], 0);
}

/* ---- the same on ext2 (tools/suites/uwrite2.conf: hda = ext2-1k.img; the
 * host then runs e2fsck and checks the kept files' sizes) ------------------ */
#include <fs.h>

KTEST(uwrite2, on_ext2)
{
    struct kstat st;
    if (vfs_stat("/", &st))
        KT_ASSERT_EQ(vfs_ensure_root(), 0);
    int err = vfs_mkdir("/e", 0755);
    KT_ASSERT(err == 0 || err == -EEXIST);
    KT_ASSERT_EQ(do_mount("hda", "/e", "ext2", 0, NULL), 0);
    udir = "/e";
    ukeep = true;
    ktest_uwrite_half_touched_buffer_short_copy_fault_in_retry();
    ktest_uwrite_writev_second_iovec_prot_none();
    ktest_uwrite_wholly_unmapped_buffer_efault_nothing_changes();
    ktest_uwrite_straddling_writes_pages_not_in_cache();
    ktest_uwrite_straddling_writes_pages_in_cache();
    ktest_uwrite_read_into_user_buffer();
    udir = "";
    ukeep = false;
    ksys_sync();
    KT_EXPECT_EQ(do_umount("/e"), 0);
}
