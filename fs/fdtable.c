/* fs/fdtable.c: the per-process descriptor table (include/fdtable.h).
 * Owns struct files_struct: allocating the lowest free descriptor, install,
 * fget/fput, close, dup/dup2/dup3, close-on-exec, the copy made by fork and
 * the teardown at exit, and RLIMIT_NOFILE's effect on all of them.  A
 * descriptor closed (close, dup2 over it, close-on-exec, exit) takes the
 * process's record locks on its file with it (close_file).  Sits on the
 * VFS's struct file (fs.h: get_file, filp_close); the system calls in
 * fs/sys_*.c sit on top of it.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <fs.h>
#include <sched.h>
#include <fdtable.h>

static inline int test_fd_bit(const uint32_t *map, unsigned fd)
{ return (map[fd / 32] >> (fd % 32)) & 1; }
static inline void set_fd_bit(uint32_t *map, unsigned fd)
{ map[fd / 32] |= 1u << (fd % 32); }
static inline void clear_fd_bit(uint32_t *map, unsigned fd)
{ map[fd / 32] &= ~(1u << (fd % 32)); }

struct files_struct *files_alloc(void)
{
    struct files_struct *files = kzalloc(sizeof *files, GFP_KERNEL);
    if (!files)
        return NULL;
    files->count = 1;
    spin_lock_init(&files->file_lock);
    return files;
}

/* fork: the child gets the same descriptors, each a new reference on the
 * same struct file (so parent and child share offsets, as POSIX says). */
struct files_struct *dup_files(struct files_struct *old)
{
    struct files_struct *new = files_alloc();
    if (!new || !old)
        return new;
    spin_lock(&old->file_lock);
    for (unsigned fd = 0; fd < NR_OPEN; fd++) {
        struct file *f = old->fd[fd];
        if (!f)
            continue;                  /* free, or reserved by an open in progress */
        new->fd[fd] = get_file(f);
        set_fd_bit(new->open_fds, fd);
        if (test_fd_bit(old->close_on_exec, fd))
            set_fd_bit(new->close_on_exec, fd);
    }
    new->next_fd = 0;
    spin_unlock(&old->file_lock);
    return new;
}

/* Take every file out of the table under the lock, then close them without
 * it (a release may sleep: a pipe waking its peer, a tty, a final iput). */
/* files no longer holds f at a descriptor: its POSIX record locks on the
 * file go (POSIX: closing any descriptor of a file releases the process's
 * locks on it, fs/locks.c), then the reference (Linux's filp_close(f, id)). */
static void close_file(struct file *f, struct files_struct *files)
{
    locks_remove_posix(f, files);
    fput(f);
}

static void close_files_matching(struct files_struct *files, const uint32_t *only)
{
    for (unsigned fd = 0; fd < NR_OPEN; fd++) {
        spin_lock(&files->file_lock);
        struct file *f = NULL;
        if ((!only || test_fd_bit(only, fd)) && files->fd[fd]) {
            f = files->fd[fd];
            files->fd[fd] = NULL;
            clear_fd_bit(files->open_fds, fd);
            clear_fd_bit(files->close_on_exec, fd);
            if ((int)fd < files->next_fd)
                files->next_fd = fd;
        }
        spin_unlock(&files->file_lock);
        if (f)
            close_file(f, files);
    }
}

void put_files(struct files_struct *files)
{
    if (!files)
        return;
    spin_lock(&files->file_lock);
    int left = --files->count;
    spin_unlock(&files->file_lock);
    if (left > 0)
        return;
    close_files_matching(files, NULL);
    kfree(files);
}

void do_close_on_exec(struct files_struct *files)
{
    if (!files)
        return;
    uint32_t snapshot[FD_WORDS];
    spin_lock(&files->file_lock);
    memcpy(snapshot, files->close_on_exec, sizeof snapshot);
    spin_unlock(&files->file_lock);
    close_files_matching(files, snapshot);
}

/* The lowest free descriptor >= start and < end, reserved (open_fds bit
 * set, fd[] still NULL) until __fd_install fills it; -EMFILE if none (as
 * Linux's alloc_fd, also when start >= end). */
int __alloc_fd(struct files_struct *files, unsigned int start, unsigned int end,
               unsigned int flags)
{
    if (!files)
        return -EBADF;
    if (end > NR_OPEN)
        end = NR_OPEN;
    spin_lock(&files->file_lock);
    unsigned fd = start < (unsigned)files->next_fd ? (unsigned)files->next_fd : start;
    while (fd < end && test_fd_bit(files->open_fds, fd))
        fd++;
    if (fd >= end) {
        spin_unlock(&files->file_lock);
        return -EMFILE;
    }
    set_fd_bit(files->open_fds, fd);
    if (flags & O_CLOEXEC)
        set_fd_bit(files->close_on_exec, fd);
    else
        clear_fd_bit(files->close_on_exec, fd);
    if (start <= (unsigned)files->next_fd)
        files->next_fd = fd + 1;
    spin_unlock(&files->file_lock);
    return fd;
}

void __fd_install(struct files_struct *files, unsigned int fd, struct file *file)
{
    spin_lock(&files->file_lock);
    /* installing into an fd that was not reserved, or is in use: a broken contract */
    BUG_ON(fd >= NR_OPEN || !test_fd_bit(files->open_fds, fd) || files->fd[fd]);
    files->fd[fd] = file;
    spin_unlock(&files->file_lock);
}

static void __put_unused_fd(struct files_struct *files, unsigned int fd)
{
    clear_fd_bit(files->open_fds, fd);
    clear_fd_bit(files->close_on_exec, fd);
    if ((int)fd < files->next_fd)
        files->next_fd = fd;
}

struct file *__fget(struct files_struct *files, unsigned int fd)
{
    if (!files || fd >= NR_OPEN)
        return NULL;
    spin_lock(&files->file_lock);
    struct file *f = files->fd[fd];
    if (f)
        get_file(f);
    spin_unlock(&files->file_lock);
    return f;
}

int __close_fd(struct files_struct *files, unsigned int fd)
{
    if (!files || fd >= NR_OPEN)
        return -EBADF;
    spin_lock(&files->file_lock);
    struct file *f = files->fd[fd];
    if (!f) {
        spin_unlock(&files->file_lock);
        return -EBADF;
    }
    files->fd[fd] = NULL;
    __put_unused_fd(files, fd);
    spin_unlock(&files->file_lock);
    close_file(f, files);
    return 0;
}

int files_open_count(struct files_struct *files)
{
    int n = 0;
    for (unsigned fd = 0; fd < NR_OPEN; fd++)
        n += files->fd[fd] != NULL;
    return n;
}

/* ---- on current->files --------------------------------------------------- */

unsigned int nofile_limit(void)
{
    unsigned long long limit = current->rlim_nofile[0];
    return limit < NR_OPEN ? (unsigned int)limit : NR_OPEN;
}

int get_unused_fd_flags(unsigned int flags)
{
    return __alloc_fd(current->files, 0, nofile_limit(), flags);
}

void put_unused_fd(unsigned int fd)
{
    struct files_struct *files = current->files;
    if (!files || fd >= NR_OPEN)
        return;
    spin_lock(&files->file_lock);
    if (!files->fd[fd])
        __put_unused_fd(files, fd);
    spin_unlock(&files->file_lock);
}

void fd_install(unsigned int fd, struct file *file) { __fd_install(current->files, fd, file); }
/* fget: a descriptor for I/O, so not an O_PATH one (-EBADF for its
 * callers, as Linux's fdget); fget_raw: any (fstat, fchdir, *at's dirfd,
 * fcntl, dup: Linux's fdget_raw). */
struct file *fget(unsigned int fd)
{
    struct file *f = __fget(current->files, fd);
    if (f && (f->f_mode & FMODE_PATH)) {
        fput(f);
        return NULL;
    }
    return f;
}

struct file *fget_raw(unsigned int fd) { return __fget(current->files, fd); }

struct fd fdget(unsigned int fd)
{
    struct files_struct *files = current->files;
    if (files && files->count == 1) {
        /* Only this task uses the table: nobody can close fd under us.
         * (No lock: the same reasoning, and Linux's fdget takes none.) */
        struct file *f = fd < NR_OPEN ? files->fd[fd] : NULL;
        if (f && (f->f_mode & FMODE_PATH))
            f = NULL;
        return (struct fd){ f, 0 };
    }
    struct file *f = fget(fd);
    return (struct fd){ f, f ? FDPUT_FPUT : 0 };
}

/* The VFS's filp_close() is Linux's fput(): it drops one reference and the
 * last one calls ->release and frees the file. */
void fput(struct file *file) { filp_close(file); }

int close_fd(unsigned int fd) { return __close_fd(current->files, fd); }

/* fcntl(F_DUPFD): a start at or past RLIMIT_NOFILE is -EINVAL, no free
 * descriptor below it -EMFILE (Linux's f_dupfd). */
int f_dupfd(unsigned int from, struct file *file, unsigned int flags)
{
    unsigned int nofile = nofile_limit();
    if (from >= nofile)
        return -EINVAL;
    int fd = __alloc_fd(current->files, from, nofile, flags);
    if (fd >= 0)
        fd_install(fd, get_file(file));
    return fd;
}

/* dup2/dup3: newfd is replaced atomically with respect to other users of
 * the table; the file that was there is closed after the lock is dropped.
 * A newfd at or past RLIMIT_NOFILE is -EBADF (Linux's ksys_dup3). */
int do_dup2(unsigned int oldfd, unsigned int newfd, unsigned int flags)
{
    struct files_struct *files = current->files;
    if (!files || oldfd >= NR_OPEN || newfd >= nofile_limit())
        return -EBADF;
    spin_lock(&files->file_lock);
    struct file *file = files->fd[oldfd];
    if (!file) {
        spin_unlock(&files->file_lock);
        return -EBADF;
    }
    if (!files->fd[newfd] && test_fd_bit(files->open_fds, newfd)) {
        spin_unlock(&files->file_lock);
        return -EBUSY;                 /* reserved by an open() in progress (Linux too) */
    }
    struct file *old = files->fd[newfd];
    files->fd[newfd] = get_file(file);
    set_fd_bit(files->open_fds, newfd);
    if (flags & O_CLOEXEC)
        set_fd_bit(files->close_on_exec, newfd);
    else
        clear_fd_bit(files->close_on_exec, newfd);
    spin_unlock(&files->file_lock);
    if (old)
        close_file(old, files);
    return newfd;
}

void set_close_on_exec(unsigned int fd, int on)
{
    struct files_struct *files = current->files;
    if (!files || fd >= NR_OPEN)
        return;
    spin_lock(&files->file_lock);
    if (on)
        set_fd_bit(files->close_on_exec, fd);
    else
        clear_fd_bit(files->close_on_exec, fd);
    spin_unlock(&files->file_lock);
}

int get_close_on_exec(unsigned int fd)
{
    struct files_struct *files = current->files;
    if (!files || fd >= NR_OPEN)
        return 0;
    return test_fd_bit(files->close_on_exec, fd);
}
