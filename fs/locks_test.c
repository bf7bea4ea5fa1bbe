/* fs/locks_test.c: the ktests of fs/locks.c (test=locks): the inode's lock
 * list after each change, read from inode->i_flock; built into the test
 * kernel only.  Two owners are two descriptor tables the test switches
 * current->files between (a POSIX lock's owner is its files_struct), with
 * one page of user memory for the struct flock64.  What programs see
 * (F_GETLK, EAGAIN, EDEADLK, flock) is user/conform/locks.c's, compared
 * with Linux. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <fs.h>
#include <sched.h>
#include <fdtable.h>
#include <fs_syscalls.h>
#include <mm.h>
#include <asm/mman.h>
#include <err.h>
#include <asm/uaccess.h>
#include <uapi/linux/fcntl.h>
#include <ktest.h>

#define LK_UA 0x10000000UL                /* the test's page of user memory */
#define LK_EOF 0x7fffffffffffffffLL

struct lk_env {
    struct files_struct *saved, *a, *b;   /* the test's caller's, two owners' */
    struct mm_struct *mm, *prev_mm;
    struct file *file;
    int fd_a, fd_b;                       /* the file at a descriptor of each */
};

static int lk_begin(struct lk_env *e, const char *name)
{
    vfs_ensure_root();
    memset(e, 0, sizeof *e);
    e->saved = current->files;
    e->a = files_alloc();
    e->b = files_alloc();
    e->mm = mm_alloc();
    if (!e->a || !e->b || !e->mm)
        return -ENOMEM;
    e->prev_mm = use_mm(e->mm);
    long r = do_mmap(e->mm, NULL, LK_UA, PAGE_SIZE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0);
    if (r < 0)
        return (int)r;
    vfs_unlink(name);
    e->file = filp_open(name, O_RDWR | O_CREAT | O_EXCL, 0644);
    if (IS_ERR(e->file))
        return PTR_ERR(e->file);
    current->files = e->a;
    e->fd_a = get_unused_fd_flags(0);
    fd_install(e->fd_a, get_file(e->file));
    current->files = e->b;
    e->fd_b = get_unused_fd_flags(0);
    fd_install(e->fd_b, get_file(e->file));
    current->files = e->a;
    return 0;
}

static void lk_end(struct lk_env *e, const char *name)
{
    current->files = e->saved;
    put_files(e->a);                      /* closes: the locks go */
    put_files(e->b);
    if (!IS_ERR_OR_NULL(e->file))
        filp_close(e->file);
    use_mm(e->prev_mm);
    mmput(e->mm);
    vfs_unlink(name);
}

/* fcntl64(fd, cmd) of owner files with a struct flock64 in user memory */
static long lk(struct files_struct *owner, int fd, int cmd, int type, loff_t start, loff_t len)
{
    struct flock64 fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
    if (copy_to_user((void *)LK_UA, &fl, sizeof fl))
        return -EFAULT;
    current->files = owner;
    return sys_fcntl64(fd, cmd, LK_UA);
}

/* The inode's locks as text: "W0-99 W200-299 ", owner a in upper case,
 * anything else lower case, "-" for to the end. */
static const char *lk_list(struct lk_env *e)
{
    static char b[256];
    size_t o = 0;
    b[0] = 0;
    for (struct file_lock *fl = e->file->f_inode->i_flock; fl && o < sizeof b - 48; fl = fl->fl_next) {
        char t = fl->fl_type == F_WRLCK ? 'w' : 'r';
        if (fl->fl_owner == e->a)
            t -= 'a' - 'A';
        if (fl->fl_flags == FL_FLOCK)
            o += snprintf(b + o, sizeof b - o, "flock-%c ", t);
        else if (fl->fl_end == LK_EOF)
            o += snprintf(b + o, sizeof b - o, "%c%lld- ", t, fl->fl_start);
        else
            o += snprintf(b + o, sizeof b - o, "%c%lld-%lld ", t, fl->fl_start, fl->fl_end);
    }
    return b;
}

#define LIST_IS(e, want) do { const char *_got = lk_list(e); \
        if (strcmp(_got, want)) \
            ktest_fail(__FILE__, __LINE__, "the inode's locks are \"%s\", wanted \"%s\"", \
                       _got, want); \
    } while (0)

KTEST(locks, posix_split_merge_and_conflict)
{
    struct lk_env e;
    KT_ASSERT_EQ(lk_begin(&e, "/locks_a"), 0);
    KT_EXPECT_EQ(lk(e.a, e.fd_a, F_SETLK64, F_WRLCK, 0, 300), 0);
    LIST_IS(&e, "W0-299 ");
    KT_EXPECT_EQ(lk(e.a, e.fd_a, F_SETLK64, F_UNLCK, 100, 100), 0);
    LIST_IS(&e, "W0-99 W200-299 ");                 /* split in two */
    KT_EXPECT_EQ(lk(e.a, e.fd_a, F_SETLK64, F_RDLCK, 40, 20), 0);
    LIST_IS(&e, "W0-39 R40-59 W60-99 W200-299 ");   /* cut by another type */
    KT_EXPECT_EQ(lk(e.a, e.fd_a, F_SETLK64, F_WRLCK, 100, 100), 0);
    LIST_IS(&e, "W0-39 R40-59 W60-299 ");           /* merged with both neighbours */
    KT_EXPECT_EQ(lk(e.a, e.fd_a, F_SETLK64, F_WRLCK, 40, 20), 0);
    LIST_IS(&e, "W0-299 ");
    /* another owner: a conflict is -EAGAIN and changes nothing; beside it, a lock of its own */
    KT_EXPECT_EQ(lk(e.b, e.fd_b, F_SETLK64, F_RDLCK, 299, 2), -EAGAIN);
    KT_EXPECT_EQ(lk(e.b, e.fd_b, F_SETLK64, F_RDLCK, 300, 0), 0);
    LIST_IS(&e, "W0-299 r300- ");
    KT_EXPECT_EQ(lk(e.a, e.fd_a, F_SETLK64, F_WRLCK, 1000, 1), -EAGAIN);   /* over b's read lock */
    /* F_GETLK sees b's lock from a, and nothing of a's own */
    KT_EXPECT_EQ(lk(e.a, e.fd_a, F_GETLK64, F_WRLCK, 0, 0), 0);
    struct flock64 got;
    KT_ASSERT_EQ(copy_from_user(&got, (void *)LK_UA, sizeof got), 0);
    KT_EXPECT_EQ(got.l_type, F_RDLCK);
    KT_EXPECT_EQ(got.l_start, 300);
    KT_EXPECT_EQ(got.l_len, 0);
    /* closing any descriptor of the file releases that owner's locks */
    current->files = e.a;
    int dup = get_unused_fd_flags(0);
    fd_install(dup, get_file(e.file));
    KT_EXPECT_EQ(close_fd(dup), 0);
    LIST_IS(&e, "r300- ");
    lk_end(&e, "/locks_a");
}

KTEST(locks, flock_owned_by_the_open_file)
{
    struct lk_env e;
    KT_ASSERT_EQ(lk_begin(&e, "/locks_b"), 0);
    struct file *other = filp_open("/locks_b", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(other));
    current->files = e.b;
    int fd_other = get_unused_fd_flags(0);
    fd_install(fd_other, other);
    /* a's descriptor and b's are one open file: one lock between them */
    current->files = e.a;
    KT_EXPECT_EQ(sys_flock(e.fd_a, LOCK_SH), 0);
    current->files = e.b;
    KT_EXPECT_EQ(sys_flock(e.fd_b, LOCK_EX | LOCK_NB), 0);   /* a conversion */
    LIST_IS(&e, "flock-w ");
    KT_EXPECT_EQ(sys_flock(fd_other, LOCK_SH | LOCK_NB), -EAGAIN);
    KT_EXPECT_EQ(sys_flock(fd_other, 0), -EINVAL);
    /* POSIX locks do not see it */
    KT_EXPECT_EQ(lk(e.b, fd_other, F_SETLK64, F_RDLCK, 0, 0), 0);
    LIST_IS(&e, "flock-w r0- ");
    /* a closes its descriptor: the open file lives on (b's), and its lock */
    current->files = e.a;
    KT_EXPECT_EQ(close_fd(e.fd_a), 0);
    LIST_IS(&e, "flock-w r0- ");
    /* b closes a descriptor of the file: b's POSIX lock goes, though it
     * was taken through the other descriptor */
    current->files = e.b;
    KT_EXPECT_EQ(close_fd(e.fd_b), 0);
    LIST_IS(&e, "flock-w ");
    /* the open file's last reference: its flock lock goes */
    struct file *last = e.file;
    e.file = other;
    filp_close(last);
    LIST_IS(&e, "");
    KT_EXPECT_EQ(sys_flock(fd_other, LOCK_SH | LOCK_NB), 0);
    LIST_IS(&e, "flock-r ");
    e.file = NULL;
    current->files = e.a;
    lk_end(&e, "/locks_b");
}
