/* fs/fdtable_test.c: the ktests of fdtable.c (test=fdtable); built into the
 * test kernel only (make check), never into the production kernel. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <fs.h>
#include <sched.h>
#include <fdtable.h>
#include <fs_syscalls.h>
#include <ktest.h>

/* ---- tests: files made by hand, released through a counting ->release --- */

static int test_releases;
static int test_release(struct inode *inode, struct file *file)
{
    test_releases++;
    return 0;
}
static const struct file_operations test_fops = { .release = test_release };

static struct file *test_file(void)
{
    struct file *f = kzalloc(sizeof *f, GFP_KERNEL);
    if (f) {
        f->f_op = &test_fops;
        f->f_count = 1;
        mutex_init(&f->f_pos_lock);
    }
    return f;
}

/* Run body with current->files set to a fresh table, restored afterwards. */
#define WITH_TABLE(tbl) \
    for (struct files_struct *_saved = current->files, *tbl = (current->files = files_alloc()); \
         tbl; put_files(tbl), current->files = _saved, tbl = NULL)

KTEST(fdtable, lowest_free_and_close)
{
    test_releases = 0;
    WITH_TABLE(t) {
        struct file *a = test_file(), *b = test_file(), *c = test_file();
        int fa = get_unused_fd_flags(0); fd_install(fa, a);
        int fb = get_unused_fd_flags(0); fd_install(fb, b);
        int fc = get_unused_fd_flags(0); fd_install(fc, c);
        KT_EXPECT_EQ(fa, 0); KT_EXPECT_EQ(fb, 1); KT_EXPECT_EQ(fc, 2);
        KT_EXPECT_EQ(close_fd(1), 0);
        KT_EXPECT_EQ(test_releases, 1);
        KT_EXPECT_EQ(close_fd(1), -EBADF);
        KT_EXPECT_EQ(close_fd(NR_OPEN), -EBADF);
        KT_EXPECT_EQ(close_fd(-1), -EBADF);
        KT_EXPECT(fget(1) == NULL);
        int fd = get_unused_fd_flags(0);
        KT_EXPECT_EQ(fd, 1);             /* lowest free again */
        put_unused_fd(fd);
        KT_EXPECT_EQ(get_unused_fd_flags(0), 1);
        put_unused_fd(1);
        KT_EXPECT_EQ(files_open_count(t), 2);
    }
    KT_EXPECT_EQ(test_releases, 3);      /* put_files closed the other two */
}

KTEST(fdtable, fget_holds_a_reference)
{
    test_releases = 0;
    WITH_TABLE(t) {
        struct file *a = test_file();
        int fd = get_unused_fd_flags(0);
        fd_install(fd, a);
        struct file *g = fget(fd);
        KT_EXPECT(g == a);
        KT_EXPECT_EQ(a->f_count, 2);
        KT_EXPECT_EQ(close_fd(fd), 0);
        KT_EXPECT_EQ(test_releases, 0);  /* our fget reference keeps it alive */
        fput(g);
        KT_EXPECT_EQ(test_releases, 1);
    }
}

/* fdget: no reference while only this task uses the table (Linux's light
 * fdget); with a shared table (count 2, as CLONE_FILES would make it) a
 * reference that fdput drops.  A bad fd gives a NULL file either way. */
KTEST(fdtable, fdget_light_unless_table_shared)
{
    test_releases = 0;
    WITH_TABLE(t) {
        struct file *a = test_file();
        int fa = get_unused_fd_flags(0); fd_install(fa, a);
        struct fd f = fdget(fa);
        KT_EXPECT(f.file == a);
        KT_EXPECT_EQ(f.flags, 0);
        KT_EXPECT_EQ(a->f_count, 1);
        fdput(f);
        KT_EXPECT_EQ(a->f_count, 1);
        KT_EXPECT(fdget(fa + 1).file == NULL);
        KT_EXPECT(fdget(NR_OPEN).file == NULL);
        t->count = 2;                    /* shared: fdget must hold the file */
        f = fdget(fa);
        KT_EXPECT(f.file == a);
        KT_EXPECT_EQ(f.flags, FDPUT_FPUT);
        KT_EXPECT_EQ(a->f_count, 2);
        fdput(f);
        KT_EXPECT_EQ(a->f_count, 1);
        KT_EXPECT(fdget(fa + 1).file == NULL);
        t->count = 1;
        KT_EXPECT_EQ(test_releases, 0);
    }
    KT_EXPECT_EQ(test_releases, 1);
}

KTEST(fdtable, emfile_when_full)
{
    test_releases = 0;
    WITH_TABLE(t) {
        struct file *a = test_file();
        int fd = get_unused_fd_flags(0);
        fd_install(fd, a);
        int n = 1;
        while (f_dupfd(0, a, 0) >= 0)
            n++;
        KT_EXPECT_EQ(n, NR_OPEN);
        KT_EXPECT_EQ(f_dupfd(0, a, 0), -EMFILE);
        KT_EXPECT_EQ(a->f_count, NR_OPEN);
        KT_EXPECT_EQ(f_dupfd(NR_OPEN, a, 0), -EINVAL);
        close_fd(17);
        KT_EXPECT_EQ(f_dupfd(5, a, 0), 17);
        KT_EXPECT_EQ(f_dupfd(18, a, 0), -EMFILE);
    }
    KT_EXPECT_EQ(test_releases, 1);
}

KTEST(fdtable, dup2_and_cloexec)
{
    test_releases = 0;
    WITH_TABLE(t) {
        struct file *a = test_file(), *b = test_file();
        int fa = get_unused_fd_flags(0); fd_install(fa, a);
        int fb = get_unused_fd_flags(O_CLOEXEC); fd_install(fb, b);
        KT_EXPECT_EQ(get_close_on_exec(fb), 1);
        KT_EXPECT_EQ(get_close_on_exec(fa), 0);
        /* dup2 onto an open descriptor closes what was there */
        KT_EXPECT_EQ(do_dup2(fa, fb, 0), fb);
        KT_EXPECT_EQ(test_releases, 1);
        KT_EXPECT_EQ(get_close_on_exec(fb), 0);   /* dup2 clears FD_CLOEXEC */
        KT_EXPECT_EQ(a->f_count, 2);
        KT_EXPECT_EQ(do_dup2(fa, 10, O_CLOEXEC), 10);
        KT_EXPECT_EQ(get_close_on_exec(10), 1);
        KT_EXPECT_EQ(do_dup2(7, 3, 0), -EBADF);   /* closed oldfd */
        KT_EXPECT_EQ(do_dup2(fa, NR_OPEN, 0), -EBADF);
        KT_EXPECT(t->fd[3] == NULL);
        set_close_on_exec(fb, 1);
        do_close_on_exec(t);
        KT_EXPECT(t->fd[fb] == NULL);
        KT_EXPECT(t->fd[10] == NULL);
        KT_EXPECT(t->fd[fa] == a);
        KT_EXPECT_EQ(a->f_count, 1);
        KT_EXPECT_EQ(get_unused_fd_flags(0), 1);  /* freed slots are reused */
        put_unused_fd(1);
    }
    KT_EXPECT_EQ(test_releases, 2);
}

KTEST(fdtable, dup_files_shares_files)
{
    test_releases = 0;
    WITH_TABLE(t) {
        struct file *a = test_file();
        int fd = get_unused_fd_flags(0); fd_install(fd, a);
        int reserved = get_unused_fd_flags(0);     /* an open in progress */
        set_close_on_exec(fd, 1);
        struct files_struct *child = dup_files(t);
        KT_ASSERT(child != NULL);
        KT_EXPECT(child->fd[fd] == a);
        KT_EXPECT_EQ(a->f_count, 2);
        KT_EXPECT(child->close_on_exec[0] & 1);
        KT_EXPECT(!(child->open_fds[0] & (1u << reserved)));  /* not copied */
        a->f_pos = 42;                 /* shared offset: one struct file */
        KT_EXPECT_EQ(child->fd[fd]->f_pos, 42);
        put_files(child);
        KT_EXPECT_EQ(test_releases, 0);
        KT_EXPECT_EQ(a->f_count, 1);
        put_unused_fd(reserved);
    }
    KT_EXPECT_EQ(test_releases, 1);
}

/* RLIMIT_NOFILE (current->rlim_nofile): no descriptor at or past the soft
 * limit: EMFILE for a new one, EINVAL for F_DUPFD's start, EBADF for
 * dup2's target; descriptors already above it stay usable. */
KTEST(fdtable, rlimit_nofile)
{
    unsigned long long saved = current->rlim_nofile[0];
    WITH_TABLE(t) {
        struct file *a = test_file();
        int fa = get_unused_fd_flags(0); fd_install(fa, a);
        KT_EXPECT_EQ(do_dup2(fa, 20, 0), 20);
        current->rlim_nofile[0] = 10;
        KT_EXPECT_EQ(nofile_limit(), 10);
        int n = 1;
        while (f_dupfd(0, a, 0) >= 0)
            n++;
        KT_EXPECT_EQ(n, 10);                       /* 0..9 */
        KT_EXPECT_EQ(get_unused_fd_flags(0), -EMFILE);
        KT_EXPECT_EQ(f_dupfd(10, a, 0), -EINVAL);
        KT_EXPECT_EQ(f_dupfd(9, a, 0), -EMFILE);
        KT_EXPECT_EQ(do_dup2(fa, 10, 0), -EBADF);
        KT_EXPECT_EQ(do_dup2(fa, 9, 0), 9);
        KT_EXPECT(fget(20) == a);                  /* above the limit: still there */
        fput(a);
        KT_EXPECT_EQ(close_fd(20), 0);
        current->rlim_nofile[0] = NR_OPEN + 100;   /* the table is the ceiling */
        KT_EXPECT_EQ(nofile_limit(), NR_OPEN);
    }
    current->rlim_nofile[0] = saved;
}

/* fcntl's flags: F_SETFL changes O_APPEND, O_NONBLOCK and O_NOATIME only;
 * F_GETPIPE_SZ and F_SETPIPE_SZ are EBADF for what is not a pipe. */
KTEST(fdtable, fcntl_setfl_and_getpipe_sz)
{
    WITH_TABLE(t) {
        struct file *a = test_file();
        a->f_flags = O_RDONLY | O_LARGEFILE;
        int fa = get_unused_fd_flags(0); fd_install(fa, a);
        KT_EXPECT_EQ(sys_fcntl(fa, F_SETFL, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOATIME |
                               O_TRUNC | O_CREAT | O_SYNC), 0);
        KT_EXPECT_EQ(sys_fcntl(fa, F_GETFL, 0),
                     O_RDONLY | O_LARGEFILE | O_APPEND | O_NONBLOCK | O_NOATIME);
        KT_EXPECT_EQ(sys_fcntl(fa, F_SETFL, 0), 0);
        KT_EXPECT_EQ(sys_fcntl(fa, F_GETFL, 0), O_RDONLY | O_LARGEFILE);
        KT_EXPECT_EQ(sys_fcntl(fa, F_GETPIPE_SZ, 0), -EBADF);
        KT_EXPECT_EQ(sys_fcntl(fa, F_SETPIPE_SZ, 4096), -EBADF);
        KT_EXPECT_EQ(sys_fcntl(fa, F_DUPFD, NR_OPEN), -EINVAL);
    }
}
