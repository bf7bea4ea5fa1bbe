/* fs/read_write_test.c: the ktests of read_write.c (test=sendfile, and
 * test=rw: the system calls with real user memory); built into the test
 * kernel only (make check), never into the production kernel.
 * The tests reach read_write.c's static functions and data, so this file
 * includes it: in the test kernel the two are one object (Makefile). */
#include "read_write.c"
#include <ktest.h>
#include <mm.h>
#include <asm/mman.h>
#include <pagemap.h>
#include <asm/stat.h>
#include <sched.h>
#include <smp.h>
#include <smp_lock.h>
#include <asm/atomic.h>

/* ---- tests: sendfile on a ramfs root ------------------------------------- */

static int open_fd(const char *path, int flags)
{
    struct file *f = filp_open(path, flags, 0644);
    if (IS_ERR(f))
        return PTR_ERR(f);
    int fd = get_unused_fd_flags(0);
    if (fd < 0) {
        filp_close(f);
        return fd;
    }
    fd_install(fd, f);
    return fd;
}

KTEST(sendfile, copies_across_pages_and_moves_offsets)
{
    static char data[5000], back[5100];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = 'a' + i % 23;
    vfs_ensure_root();
    struct files_struct *saved = current->files;    /* a table of our own */
    current->files = files_alloc();
    KT_ASSERT(current->files != NULL);
    struct file *f = filp_open("/sf_in", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    KT_ASSERT(!IS_ERR(f));
    loff_t p = 0;
    KT_ASSERT_EQ(kernel_write(f, data, sizeof data, &p), (ssize_t)sizeof data);
    filp_close(f);
    int in = open_fd("/sf_in", O_RDONLY), out = open_fd("/sf_out", O_WRONLY | O_CREAT | O_TRUNC);
    KT_ASSERT(in >= 0 && out >= 0);
    KT_EXPECT_EQ(do_sendfile(out, in, NULL, 100000), 5000);   /* to end of file */
    struct file *fin = fget(in);
    KT_EXPECT_EQ(fin->f_pos, 5000);
    loff_t pos = 4990;                                      /* explicit offset: */
    KT_EXPECT_EQ(do_sendfile(out, in, &pos, 100), 10);
    KT_EXPECT_EQ(pos, 5000);
    KT_EXPECT_EQ(fin->f_pos, 5000);                           /* f_pos untouched */
    fput(fin);
    KT_EXPECT_EQ(do_sendfile(out, in, NULL, 10), 0);          /* at end of file */
    KT_EXPECT_EQ(sys_sendfile64(out, in, (loff_t __user *)0xC0000000, 1), -EFAULT);
    KT_EXPECT_EQ(do_sendfile(out, 999, NULL, 1), -EBADF);
    KT_EXPECT_EQ(do_sendfile(in, out, NULL, 1), -EBADF);      /* wrong directions */
    close_fd(in);
    close_fd(out);
    f = filp_open("/sf_out", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    p = 0;
    KT_EXPECT_EQ(kernel_read(f, back, sizeof back, &p), 5010);
    KT_EXPECT(memcmp(back, data, 5000) == 0);
    KT_EXPECT(memcmp(back + 5000, data + 4990, 10) == 0);
    filp_close(f);
    vfs_unlink("/sf_in");
    vfs_unlink("/sf_out");
    put_files(current->files);
    current->files = saved;
}

/* ---- tests: the system calls on a ramfs root, with user memory ----------
 * Each test gets a descriptor table and an address space of its own (two
 * pages of anonymous memory at UB), as a process would have; the file
 * conformance program user/conform/file_io.c found what they check. */

#define UB 0x10000000UL

struct rw_env {
    struct files_struct *files;
    struct mm_struct *mm, *prev_mm;
};

static int rw_begin(struct rw_env *e)
{
    vfs_ensure_root();
    e->files = current->files;
    current->files = files_alloc();
    e->mm = mm_alloc();
    if (!current->files || !e->mm)
        return -ENOMEM;
    e->prev_mm = use_mm(e->mm);
    long r = do_mmap(e->mm, NULL, UB, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0);
    return r < 0 ? (int)r : 0;
}

static void rw_end(struct rw_env *e)
{
    use_mm(e->prev_mm);
    mmput(e->mm);
    put_files(current->files);
    current->files = e->files;
}

/* a file name holding n bytes of 'x' (a kernel write), as fd opened flags */
static int rw_file(const char *name, size_t n, int flags)
{
    static char xs[PAGE_SIZE];
    memset(xs, 'x', sizeof xs);
    vfs_unlink(name);
    struct file *f = filp_open(name, O_RDWR | O_CREAT | O_EXCL, 0644);
    if (IS_ERR(f))
        return PTR_ERR(f);
    for (loff_t p = 0; p < (loff_t)n; )
        if (kernel_write(f, xs, min(n - (size_t)p, sizeof xs), &p) <= 0)
            break;
    filp_close(f);
    return open_fd(name, flags);
}

KTEST(rw, iovec_total_past_max_rw_count_is_cut)
{
    /* import_iovec: segments adding up past MAX_RW_COUNT are cut to it (the
     * crossing one shortened), not -EINVAL; a segment past SSIZE_MAX is */
    struct rw_env e;
    KT_ASSERT_EQ(rw_begin(&e), 0);
    int fd = rw_file("/rw_cut", 300, O_RDONLY);
    KT_ASSERT(fd >= 0);
    struct iovec v[3] = { { (void *)UB, 100 }, { (void *)(UB + 100), 0x7ffff000u },
                          { (void *)UB, 50 } };
    struct iovec *uv = (struct iovec *)(UB + PAGE_SIZE);
    KT_ASSERT_EQ(copy_to_user(uv, v, sizeof v), 0);
    struct iovec *iov;
    size_t total;
    KT_ASSERT_EQ(import_iovec(uv, 3, &iov, &total), 0);
    KT_EXPECT_EQ(total, (size_t)MAX_RW_COUNT);
    KT_EXPECT_EQ(iov[1].iov_len, (size_t)MAX_RW_COUNT - 100);
    KT_EXPECT_EQ(iov[2].iov_len, 0);
    kfree(iov);
    KT_EXPECT_EQ(sys_readv(fd, uv, 3), 300);        /* the file's 300 bytes */
    char got[300];
    KT_ASSERT_EQ(copy_from_user(got, (void *)UB, 300), 0);
    KT_EXPECT(got[0] == 'x' && got[299] == 'x');
    v[2].iov_len = 0x80000000u;                    /* negative as ssize_t */
    KT_ASSERT_EQ(copy_to_user(uv, v, sizeof v), 0);
    KT_EXPECT_EQ(sys_readv(fd, uv, 3), -EINVAL);
    close_fd(fd);
    vfs_unlink("/rw_cut");
    rw_end(&e);
}

KTEST(rw, positions_checked_before_the_descriptor)
{
    /* Linux's ksys_pread64/do_preadv: a negative position is -EINVAL before
     * the descriptor is looked at; rw_verify_area: an end past LLONG_MAX is
     * -EINVAL (not a read of nothing, nor -EFBIG) */
    struct rw_env e;
    KT_ASSERT_EQ(rw_begin(&e), 0);
    int fd = rw_file("/rw_pos", 100, O_RDONLY);
    KT_ASSERT(fd >= 0);
    char *ub = (char *)UB;
    struct iovec v = { ub, 10 };
    KT_ASSERT_EQ(copy_to_user((void *)(UB + PAGE_SIZE), &v, sizeof v), 0);
    struct iovec *uv = (struct iovec *)(UB + PAGE_SIZE);
    KT_EXPECT_EQ(sys_pread64(999, ub, 10, 0xffffffff, 0xffffffff), -EINVAL);
    KT_EXPECT_EQ(sys_pwrite64(999, ub, 10, 0xffffffff, 0xffffffff), -EINVAL);
    KT_EXPECT_EQ(sys_pwrite64(fd, ub, 10, 0xffffffff, 0xffffffff), -EINVAL); /* O_RDONLY */
    KT_EXPECT_EQ(sys_preadv(999, uv, 1, 0xffffffff, 0xffffffff), -EINVAL);
    KT_EXPECT_EQ(sys_preadv2(999, uv, 1, 0xfffffffe, 0xffffffff, 0), -EINVAL);
    KT_EXPECT_EQ(sys_preadv2(999, uv, 1, 0xffffffff, 0xffffffff, 0), -EBADF); /* -1: f_pos */
    KT_EXPECT_EQ(sys_pread64(fd, ub, 100, 0xfffffff5, 0x7fffffff), -EINVAL);  /* LLONG_MAX-10 */
    KT_EXPECT_EQ(sys_pread64(fd, ub, 0, 0xfffffff5, 0x7fffffff), 0);
    KT_EXPECT_EQ(sys_pread64(fd, ub, 10, 0, 0), 10);
    close_fd(fd);
    vfs_unlink("/rw_pos");
    rw_end(&e);
}

KTEST(rw, vectors_check_the_mode_before_the_flags)
{
    /* Linux's order: the open mode (-EBADF), a transfer of nothing (0), then
     * preadv2/pwritev2's flags (-EOPNOTSUPP); RWF_NOWAIT only where the
     * open set FMODE_NOWAIT, and then only for reads */
    struct rw_env e;
    KT_ASSERT_EQ(rw_begin(&e), 0);
    int fd = rw_file("/rw_flags", 100, O_RDONLY);
    int wfd = open_fd("/rw_flags", O_RDWR);
    KT_ASSERT(fd >= 0 && wfd >= 0);
    struct iovec v[2] = { { (void *)UB, 10 }, { (void *)UB, 0 } };
    struct iovec *uv = (struct iovec *)(UB + PAGE_SIZE);
    KT_ASSERT_EQ(copy_to_user(uv, v, sizeof v), 0);
    KT_EXPECT_EQ(sys_pwritev2(fd, uv, 1, 0, 0, 0x80), -EBADF);
    KT_EXPECT_EQ(sys_pwritev2(wfd, uv, 1, 0, 0, 0x80), -EOPNOTSUPP);
    KT_EXPECT_EQ(sys_pwritev2(wfd, uv + 1, 1, 0, 0, 0x80), 0);     /* nothing to write */
    KT_EXPECT_EQ(sys_preadv2(fd, uv, 1, 0, 0, RWF_NOWAIT), -EOPNOTSUPP); /* ramfs */
    struct file *f = fget(fd), *wf = fget(wfd);
    f->f_mode |= FMODE_NOWAIT;                    /* as ext2's open sets it */
    wf->f_mode |= FMODE_NOWAIT;
    KT_EXPECT_EQ(sys_preadv2(fd, uv, 1, 0, 0, RWF_NOWAIT), 10);  /* cached */
    KT_EXPECT_EQ(sys_pwritev2(wfd, uv, 1, 0, 0, RWF_NOWAIT), -EOPNOTSUPP);
    fput(f);
    fput(wf);
    close_fd(fd);
    close_fd(wfd);
    vfs_unlink("/rw_flags");
    rw_end(&e);
}

KTEST(rw, nowait_reads_stop_at_an_uncached_page)
{
    /* filemap_nowait_limit: the cached, uptodate pages from pos on, to EOF;
     * -EAGAIN if pos's page is not there.  A ramfs hole never read has no
     * page. */
    vfs_ensure_root();
    vfs_unlink("/rw_nowait");
    struct file *f = filp_open("/rw_nowait", O_RDWR | O_CREAT | O_EXCL, 0644);
    KT_ASSERT(!IS_ERR(f));
    static char buf[3 * PAGE_SIZE];
    loff_t p = 0;
    KT_ASSERT_EQ(kernel_write(f, buf, 100, &p), 100);           /* page 0 */
    p = 2 * PAGE_SIZE;
    KT_ASSERT_EQ(kernel_write(f, buf, 100, &p), 100);           /* page 2; 1 a hole */
    struct kvec kv = { buf, sizeof buf };
    struct iov_iter it;
    iov_iter_kvec(&it, READ, &kv, 1, sizeof buf);
    KT_EXPECT_EQ(filemap_nowait_limit(f->f_mapping, &it, 10), 0);
    KT_EXPECT_EQ(iov_iter_count(&it), PAGE_SIZE - 10);          /* to page 1 */
    iov_iter_kvec(&it, READ, &kv, 1, sizeof buf);
    KT_EXPECT_EQ(filemap_nowait_limit(f->f_mapping, &it, PAGE_SIZE + 5), -EAGAIN);
    KT_EXPECT_EQ(filemap_nowait_limit(f->f_mapping, &it, 2 * PAGE_SIZE + 50), 0);
    KT_EXPECT_EQ(iov_iter_count(&it), 50);                      /* to EOF */
    iov_iter_kvec(&it, READ, &kv, 1, sizeof buf);
    KT_EXPECT_EQ(filemap_nowait_limit(f->f_mapping, &it, 2 * PAGE_SIZE + 100), 0);  /* EOF */
    filp_close(f);
    vfs_unlink("/rw_nowait");
}

KTEST(rw, lseek_eoverflow_leaves_the_file_moved)
{
    /* the 32-bit lseek to a position past MAX_NON_LFS: -EOVERFLOW, and the
     * file is there (Linux's ksys_lseek on i386); _llseek reaches it */
    struct rw_env e;
    KT_ASSERT_EQ(rw_begin(&e), 0);
    int fd = rw_file("/rw_big", 0, O_RDWR | O_LARGEFILE);
    KT_ASSERT(fd >= 0);
    struct file *f = fget(fd);
    KT_ASSERT_EQ(do_truncate(f->f_inode, 3LL << 30, ATTR_MTIME | ATTR_CTIME), 0);
    KT_EXPECT_EQ(sys_lseek(fd, 0x7fffffff, SEEK_SET), 0x7fffffff);
    KT_EXPECT_EQ(sys_lseek(fd, 1, SEEK_CUR), -EOVERFLOW);
    KT_EXPECT_EQ(f->f_pos, 0x80000000LL);
    KT_EXPECT_EQ(sys_lseek(fd, 0, SEEK_END), -EOVERFLOW);
    KT_EXPECT_EQ(f->f_pos, 3LL << 30);
    KT_EXPECT_EQ(sys_lseek(fd, -1, SEEK_SET), -EINVAL);
    KT_EXPECT_EQ(f->f_pos, 3LL << 30);
    loff_t *res = (loff_t *)UB;
    KT_EXPECT_EQ(sys_llseek(fd, 0, 100, res, SEEK_END), 0);
    KT_EXPECT_EQ(f->f_pos, (3LL << 30) + 100);
    KT_EXPECT_EQ(do_truncate(f->f_inode, 0, ATTR_MTIME | ATTR_CTIME), 0);
    fput(f);
    close_fd(fd);
    vfs_unlink("/rw_big");
    rw_end(&e);
}

KTEST(rw, stat32_and_non_largefile_limits)
{
    /* stat/lstat/fstat (106-108): struct stat's 32-bit st_size, -EOVERFLOW
     * past MAX_NON_LFS (cp_new_stat); a descriptor without O_LARGEFILE
     * writes up to MAX_NON_LFS, then -EFBIG (generic_write_check_limits) */
    struct rw_env e;
    KT_ASSERT_EQ(rw_begin(&e), 0);
    int fd = rw_file("/rw_st", 5000, O_RDWR);
    KT_ASSERT(fd >= 0);
    struct stat *us = (struct stat *)UB, st;
    KT_EXPECT_EQ(sys_newfstat(fd, us), 0);
    KT_ASSERT_EQ(copy_from_user(&st, us, sizeof st), 0);
    KT_EXPECT_EQ(st.st_size, 5000);
    KT_EXPECT(S_ISREG(st.st_mode));
    KT_EXPECT_EQ(st.st_nlink, 1);
    struct file *f = fget(fd);
    KT_EXPECT(!(f->f_flags & O_LARGEFILE));
    loff_t p = MAX_NON_LFS - 1;
    KT_EXPECT_EQ(kernel_write(f, "abc", 3, &p), 1);              /* cut at 2 GiB - 1 */
    KT_EXPECT_EQ(f->f_inode->i_size, (loff_t)MAX_NON_LFS);
    KT_EXPECT_EQ(sys_newfstat(fd, us), 0);
    KT_EXPECT_EQ(kernel_write(f, "abc", 3, &p), -EFBIG);
    KT_ASSERT_EQ(do_truncate(f->f_inode, (loff_t)MAX_NON_LFS + 1, ATTR_MTIME | ATTR_CTIME), 0);
    KT_EXPECT_EQ(sys_newfstat(fd, us), -EOVERFLOW);
    char *uname = (char *)UB + 200;
    KT_ASSERT_EQ(copy_to_user(uname, "/rw_st", 7), 0);
    KT_EXPECT_EQ(sys_newstat(uname, us), -EOVERFLOW);
    KT_EXPECT_EQ(sys_newlstat(uname, us), -EOVERFLOW);
    KT_EXPECT_EQ(do_truncate(f->f_inode, 0, ATTR_MTIME | ATTR_CTIME), 0);
    fput(f);
    close_fd(fd);
    vfs_unlink("/rw_st");
    rw_end(&e);
}

/* ---- SMP step 5: write(2)'s path on several CPUs without the big lock ---- */

#define SMPW_CHUNKS 16                 /* 4 KiB pieces in a writer's own file */

/* A writer's files, opened and its pieces' bytes made before the start
 * (with the big lock, by the test's task: the pattern costs more than the
 * write), and what it counted. */
struct smp_writer {
    int id, nr;                        /* nr: how many writers */
    int rounds;
    char own[64], shared[64], key[16];
    struct file *ownf, *sharedf;
    char *mine, *stripes;              /* SMPW_CHUNKS pieces each */
    int errors;
    unsigned long overlaps;
};
static atomic_t smpw_writes;

/* One kernel_write of the 4 KiB at data to pos; counts an overlap if
 * another writer's write finished meanwhile. */
static void smpw_write(struct smp_writer *w, struct file *f, const char *data, loff_t pos)
{
    int before = atomic_read(&smpw_writes);
    if (kernel_write(f, data, PAGE_SIZE, &pos) != PAGE_SIZE)
        w->errors++;
    if (atomic_read(&smpw_writes) != before)
        w->overlaps++;
    atomic_inc(&smpw_writes);
}

static void smpw_prepare(struct smp_writer *w)
{
    w->ownf = filp_open(w->own, O_RDWR | O_CREAT | O_TRUNC | O_LARGEFILE, 0644);
    w->sharedf = filp_open(w->shared, O_RDWR | O_CREAT | O_LARGEFILE, 0644);
    w->mine = kmalloc(SMPW_CHUNKS * PAGE_SIZE, GFP_KERNEL);
    w->stripes = kmalloc(SMPW_CHUNKS * PAGE_SIZE, GFP_KERNEL);
    for (int c = 0; w->mine && w->stripes && c < SMPW_CHUNKS; c++) {
        vpattern_fill(w->mine + c * PAGE_SIZE, PAGE_SIZE, w->key, (uint64_t)c * PAGE_SIZE);
        vpattern_fill(w->stripes + c * PAGE_SIZE, PAGE_SIZE, "smpw_shared",
                      ((uint64_t)c * w->nr + w->id) * PAGE_SIZE);
    }
}

static void smpw_put(struct smp_writer *w)
{
    kfree(w->mine);
    kfree(w->stripes);
    if (!IS_ERR(w->ownf))
        filp_close(w->ownf);
    if (!IS_ERR(w->sharedf))
        filp_close(w->sharedf);
}

/* A writer (ktest_smp_run: bound to its CPU, without the big lock). */
static int smp_writer_fn(struct ktest_smp_worker *sw, void *writers)
{
    struct smp_writer *w = (struct smp_writer *)writers + sw->id;
    if (IS_ERR(w->ownf) || IS_ERR(w->sharedf) || !w->mine || !w->stripes) {
        w->errors++;
        return 0;
    }
    for (int r = 0; r < w->rounds; r++) {
        loff_t c = r % SMPW_CHUNKS;
        smpw_write(w, w->ownf, w->mine + c * PAGE_SIZE, c * PAGE_SIZE);
        if (r % 4 == 0) {
            loff_t s = (r / 4) % SMPW_CHUNKS;
            smpw_write(w, w->sharedf, w->stripes + s * PAGE_SIZE,
                       (s * w->nr + w->id) * PAGE_SIZE);
        }
        if (r % 256 == 0)
            cond_resched();
    }
    return 0;
}

/* Every byte of path is key's pattern, and there are size of them. */
static bool smpw_file_is(const char *path, const char *key, loff_t size)
{
    static char got[PAGE_SIZE], want[PAGE_SIZE];
    struct file *f = filp_open(path, O_RDONLY | O_LARGEFILE, 0);
    bool ok = !IS_ERR(f) && f->f_inode->i_size == size;
    for (loff_t pos = 0; ok && pos < size; ) {
        loff_t at = pos;
        ok = kernel_read(f, got, PAGE_SIZE, &pos) == PAGE_SIZE;
        vpattern_fill(want, PAGE_SIZE, key, (uint64_t)at);
        ok = ok && !memcmp(got, want, PAGE_SIZE);
    }
    if (!IS_ERR(f))
        filp_close(f);
    return ok;
}

unsigned long ktest_smp_writers(const char *dir, int rounds)
{
    static struct smp_writer w[KTEST_SMP_MAX];
    static struct ktest_smp s;
    int n = ktest_smp_nr();
    unsigned long overlaps = 0;

    atomic_set(&smpw_writes, 0);
    for (int i = 0; i < n; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        w[i].nr = n;
        w[i].rounds = rounds;
        snprintf(w[i].key, sizeof w[i].key, "smpw%d", i);
        snprintf(w[i].own, sizeof w[i].own, "%s/smpw%d", dir, i);
        snprintf(w[i].shared, sizeof w[i].shared, "%s/smpw_shared", dir);
        smpw_prepare(&w[i]);
    }
    int err = ktest_smp_run(&s, "smpw", smp_writer_fn, w);
    for (int i = 0; i < n; i++)
        smpw_put(&w[i]);
    if (err)
        return 0;
    for (int i = 0; i < n; i++) {
        KT_EXPECT_EQ(s.w[i].ret, 0);
        KT_EXPECT(!s.w[i].had_big_lock);
        KT_EXPECT_EQ(s.w[i].ran_on, s.w[i].cpu);
        KT_EXPECT_EQ(w[i].errors, 0);
        KT_EXPECT(smpw_file_is(w[i].own, w[i].key, SMPW_CHUNKS * PAGE_SIZE));
        overlaps += w[i].overlaps;
    }
    char shared[64];
    snprintf(shared, sizeof shared, "%s/smpw_shared", dir);
    KT_EXPECT(smpw_file_is(shared, "smpw_shared", (loff_t)SMPW_CHUNKS * n * PAGE_SIZE));
    printk(KERN_INFO "smp writers: %d on %d CPUs in %s, %d writes, %lu overlapped another's, "
           "big kernel lock taken %lu times\n", n, s.ncpus, dir, atomic_read(&smpw_writes), overlaps,
           s.big_lock);
    /* The writes take no big kernel lock: what took it meanwhile was the
     * ticks, the first write to each new page's block (ext2's get_block),
     * the writers' start and end; with the lock around each write it
     * would be taken once a write at least. */
    KT_EXPECT(s.big_lock < (unsigned long)atomic_read(&smpw_writes) / 4);
    return overlaps;
}

/* write(2) of a page-cache file runs without the big kernel lock (SMP step
 * 5): writers on every CPU overwrite ramfs files at once, every byte right,
 * the big lock barely taken. */
KTEST(rw, smp_writes_without_the_big_lock)
{
    vfs_ensure_root();
    KT_ASSERT_EQ(vfs_mkdir("/smpw", 0755), 0);
    unsigned long overlaps = ktest_smp_writers("/smpw", 4096);
    if (num_online_cpus() > 1)
        KT_EXPECT(overlaps > 0);
}
