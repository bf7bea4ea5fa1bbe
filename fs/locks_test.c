/* fs/locks_test.c: the ktests of fs/locks.c (test=locks): the inode's lock
 * list after each change, read from inode->i_flock, OFD locks, leases and
 * their break, and the open counts behind ETXTBSY; built into the test
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
#include "internal.h"

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

/* A descriptor in owner's table for a new open of name (flags). */
static int lk_open(struct files_struct *owner, const char *name, int flags)
{
    struct file *f = filp_open(name, flags, 0);
    if (IS_ERR(f))
        return PTR_ERR(f);
    current->files = owner;
    int fd = get_unused_fd_flags(0);
    fd_install(fd, f);
    return fd;
}

KTEST(locks, ofd_locks_owned_by_the_open_file)
{
    struct lk_env e;
    KT_ASSERT_EQ(lk_begin(&e, "/locks_ofd"), 0);
    int other = lk_open(e.a, "/locks_ofd", O_RDWR);
    KT_ASSERT(other >= 0);
    /* a's descriptor and other are two open files of one process: OFD
     * locks through them conflict, POSIX locks of the process would not */
    KT_EXPECT_EQ(lk(e.a, e.fd_a, F_OFD_SETLK, F_WRLCK, 0, 10), 0);
    KT_EXPECT_EQ(lk(e.a, other, F_OFD_SETLK, F_WRLCK, 5, 10), -EAGAIN);
    KT_EXPECT_EQ(lk(e.a, other, F_SETLK64, F_RDLCK, 5, 1), -EAGAIN);   /* POSIX sees OFD */
    KT_EXPECT_EQ(lk(e.a, other, F_OFD_SETLK, F_WRLCK, 10, 10), 0);
    LIST_IS(&e, "w0-9 w10-19 ");                 /* the owner is the file, not a */
    /* the struct's l_pid must be 0 */
    struct flock64 fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_len = 1, .l_pid = 1 };
    KT_ASSERT_EQ(copy_to_user((void *)LK_UA, &fl, sizeof fl), 0);
    KT_EXPECT_EQ(sys_fcntl64(other, F_OFD_SETLK, LK_UA), -EINVAL);
    /* the plain fcntl call refuses the commands (Linux's compat fcntl) */
    KT_EXPECT_EQ(sys_fcntl(other, F_OFD_GETLK, LK_UA), -EINVAL);
    /* F_OFD_GETLK from other sees e.file's lock, with l_pid -1 */
    KT_EXPECT_EQ(lk(e.a, other, F_OFD_GETLK, F_RDLCK, 0, 1), 0);
    struct flock64 got;
    KT_ASSERT_EQ(copy_from_user(&got, (void *)LK_UA, sizeof got), 0);
    KT_EXPECT_EQ(got.l_type, F_WRLCK);
    KT_EXPECT_EQ(got.l_pid, -1);
    /* closing a descriptor does not release OFD locks (POSIX locks would
     * go); the open file's last close does */
    KT_EXPECT_EQ(close_fd(other), 0);
    LIST_IS(&e, "w0-9 ");
    struct inode *inode = igrab(e.file->f_inode);
    lk_end(&e, "/locks_ofd");                   /* e.file's last close */
    KT_EXPECT(inode->i_flock == NULL);
    iput(inode);
}

KTEST(locks, lease_set_conflicting_opens_and_break)
{
    struct lk_env e;
    KT_ASSERT_EQ(lk_begin(&e, "/locks_lease"), 0);   /* e.file: open O_RDWR */
    /* a write lease needs no other open at all, a read lease no writer */
    int ro = lk_open(e.a, "/locks_lease", O_RDONLY);
    KT_ASSERT(ro >= 0);
    KT_EXPECT_EQ(sys_fcntl(ro, F_SETLEASE, F_WRLCK), -EAGAIN);
    KT_EXPECT_EQ(sys_fcntl(ro, F_SETLEASE, F_RDLCK), -EAGAIN);   /* e.file writes */
    KT_EXPECT_EQ(sys_fcntl(ro, F_SETLEASE, F_UNLCK), -EAGAIN);   /* none to remove */
    current->files = e.saved;
    put_files(e.b);                           /* e.file's other references go */
    e.b = files_alloc();
    current->files = e.a;
    KT_EXPECT_EQ(close_fd(e.fd_a), 0);
    struct file *f = e.file;
    e.file = NULL;
    filp_close(f);                            /* ro is the only open now */
    KT_EXPECT_EQ(sys_fcntl(ro, F_SETLEASE, F_WRLCK), 0);
    /* the break's SIGIO would come to this kernel thread (F_SETLEASE made
     * it the owner): a receiver that does not exist instead */
    struct file *rof = fget_raw(ro);
    KT_ASSERT(rof != NULL);
    KT_EXPECT_EQ(rof->f_owner.pid, current->tgid);
    rof->f_owner.pid = 0x7ffffff0;
    rof->f_owner.pid_type = PIDTYPE_PID;
    fput(rof);
    KT_EXPECT_EQ(sys_fcntl(ro, F_GETLEASE, 0), F_WRLCK);
    /* a non-blocking open for reading breaks it towards a read lease */
    struct file *r = filp_open("/locks_lease", O_RDONLY | O_NONBLOCK, 0);
    KT_EXPECT_EQ(PTR_ERR(r), -EAGAIN);
    KT_EXPECT_EQ(sys_fcntl(ro, F_GETLEASE, 0), F_RDLCK);
    KT_EXPECT_EQ(sys_fcntl(ro, F_SETLEASE, F_RDLCK), 0);      /* the holder downgrades */
    r = filp_open("/locks_lease", O_RDONLY | O_NONBLOCK, 0);
    KT_ASSERT(!IS_ERR(r));                    /* a reader does not break a read lease */
    filp_close(r);
    /* a writer breaks it towards nothing; with the break time 0 (a tick)
     * the next, blocking, open waits that long and times it out itself */
    int saved_time = lease_break_time;
    lease_break_time = 0;
    struct file *w = filp_open("/locks_lease", O_WRONLY | O_NONBLOCK, 0);
    KT_EXPECT_EQ(PTR_ERR(w), -EAGAIN);
    KT_EXPECT_EQ(sys_fcntl(ro, F_GETLEASE, 0), F_UNLCK);
    w = filp_open("/locks_lease", O_WRONLY, 0);
    lease_break_time = saved_time;
    KT_ASSERT(!IS_ERR(w));
    KT_EXPECT_EQ(sys_fcntl(ro, F_GETLEASE, 0), F_UNLCK);
    KT_EXPECT_EQ(sys_fcntl(ro, F_SETLEASE, F_RDLCK), -EAGAIN);   /* w writes now */
    filp_close(w);
    KT_EXPECT_EQ(sys_fcntl(ro, F_SETLEASE, F_RDLCK), 0);
    lk_end(&e, "/locks_lease");               /* ro's close takes the lease */
}

KTEST(locks, etxtbsy_between_writers_and_execve)
{
    vfs_ensure_root();
    vfs_unlink("/locks_txt");
    struct file *w = filp_open("/locks_txt", O_RDWR | O_CREAT | O_EXCL, 0755);
    KT_ASSERT(!IS_ERR(w));
    KT_EXPECT_EQ(w->f_inode->i_writecount, 1);
    /* execve's open of a file open for writing */
    struct file *x = filp_open("/locks_txt", O_RDONLY | __FMODE_EXEC, 0);
    KT_EXPECT_EQ(PTR_ERR(x), -ETXTBSY);
    filp_close(w);
    x = filp_open("/locks_txt", O_RDONLY | __FMODE_EXEC, 0);
    KT_ASSERT(!IS_ERR(x));
    KT_EXPECT_EQ(x->f_inode->i_writecount, -1);
    /* while it runs: no open for writing, no truncate by name; reading is fine */
    KT_EXPECT_EQ(PTR_ERR(filp_open("/locks_txt", O_WRONLY, 0)), -ETXTBSY);
    KT_EXPECT_EQ(vfs_truncate("/locks_txt", 0), -ETXTBSY);
    struct file *r = filp_open("/locks_txt", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(r));
    KT_EXPECT_EQ(r->f_inode->i_readcount, 2);  /* execve's open reads too (Linux's) */
    filp_close(r);
    filp_close(x);
    w = filp_open("/locks_txt", O_WRONLY, 0);
    KT_ASSERT(!IS_ERR(w));
    filp_close(w);
    vfs_unlink("/locks_txt");
}
