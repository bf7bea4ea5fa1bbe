/* fs/pipe.c: pipes.  A pipe is one page used as a ring buffer, two struct
 * files (read end, write end) and an inode of kind S_IFIFO so that fstat
 * works.  Readers sleep while it is empty and writers exist; writers sleep
 * while it is full and readers exist.  Read returns 0 (end of file) when it
 * is empty and every write end is closed; write to a pipe with no read end
 * gets -EPIPE and the writer SIGPIPE.  Writes of at most PIPE_BUF bytes are
 * atomic: they wait until they fit whole.  Sits on the fd table and the VFS's
 * struct file; Linux's fs/pipe.c with one page instead of a ring of pages.
 *
 * The files are made here, not by filp_open: their f_path is empty (no
 * mount, no name), f_inode points at the inode inside struct pipe, and the
 * last release of both ends frees everything.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <mm.h>
#include <sched.h>
#include <wait.h>
#include <mutex.h>
#include <fs.h>
#include <uio.h>
#include <signal.h>
#include <fdtable.h>
#include <chrdev.h>
#include <fs_syscalls.h>
#include <poll.h>
#include <asm/uaccess.h>
#include <signal.h>

#define PIPE_SIZE PAGE_SIZE
#define PIPE_BUF  PAGE_SIZE            /* writes up to this size are atomic */

struct pipe {
    struct mutex mutex;                /* buf, head, tail, readers, writers */
    char *buf;
    unsigned head, tail;               /* free-running; head - tail bytes in it */
    int readers, writers;              /* open ends */
    wait_queue_head_t rd_wait, wr_wait;
    struct inode inode;                /* S_IFIFO, for fstat; on pipe_sb */
};

static struct super_block pipe_sb = {  /* pipes' inodes belong here (fstat's st_dev) */
    .s_blocksize = PAGE_SIZE, .s_blocksize_bits = PAGE_SHIFT, .s_id = "pipefs",
};
static unsigned long pipe_ino;
unsigned long pipes_alive;             /* for tests: pipes not yet freed */

static ssize_t pipe_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
    struct pipe *p = file->private_data;
    size_t want = iov_iter_count(to);
    if (!want)
        return 0;
    mutex_lock(&p->mutex);
    DEFINE_WAIT(w);
    while (p->head == p->tail) {
        if (!p->writers) {
            mutex_unlock(&p->mutex);
            return 0;                  /* end of file */
        }
        if (file->f_flags & O_NONBLOCK) {
            mutex_unlock(&p->mutex);
            return -EAGAIN;
        }
        prepare_to_wait(&p->rd_wait, &w, TASK_INTERRUPTIBLE);
        mutex_unlock(&p->mutex);
        if (signal_pending(current)) {
            finish_wait(&p->rd_wait, &w);
            return -EINTR;
        }
        schedule();
        finish_wait(&p->rd_wait, &w);
        mutex_lock(&p->mutex);
    }
    size_t done = 0;
    while (done < want && p->head != p->tail) {
        unsigned off = p->tail % PIPE_SIZE;
        size_t chunk = min(min(want - done, (size_t)(p->head - p->tail)), (size_t)(PIPE_SIZE - off));
        size_t got = copy_to_iter(p->buf + off, chunk, to);
        p->tail += got;                /* only what reached the reader is consumed */
        done += got;
        if (got < chunk)
            break;
    }
    mutex_unlock(&p->mutex);
    if (done)
        wake_up(&p->wr_wait);
    return done ? (ssize_t)done : -EFAULT;
}

static ssize_t pipe_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
    struct pipe *p = file->private_data;
    size_t total = iov_iter_count(from), done = 0;
    if (!total)
        return 0;
    mutex_lock(&p->mutex);
    DEFINE_WAIT(w);
    for (;;) {
        if (!p->readers) {
            mutex_unlock(&p->mutex);
            send_signal(current, SIGPIPE, NULL);
            return done ? (ssize_t)done : -EPIPE;
        }
        size_t room = PIPE_SIZE - (p->head - p->tail);
        /* atomic writes wait for room for all of it; larger ones take what fits */
        if (room && (total > PIPE_BUF || room >= total - done)) {
            while (done < total && p->head - p->tail < PIPE_SIZE) {
                unsigned off = p->head % PIPE_SIZE;
                size_t chunk = min(min(total - done, (size_t)(PIPE_SIZE - (p->head - p->tail))),
                                    (size_t)(PIPE_SIZE - off));
                size_t got = copy_from_iter(p->buf + off, chunk, from);
                p->head += got;
                done += got;
                if (got < chunk) {     /* bad user buffer: stop here */
                    mutex_unlock(&p->mutex);
                    if (done)
                        wake_up(&p->rd_wait);
                    return done ? (ssize_t)done : -EFAULT;
                }
            }
            wake_up(&p->rd_wait);
            if (done == total)
                break;
        }
        if (file->f_flags & O_NONBLOCK) {
            mutex_unlock(&p->mutex);
            return done ? (ssize_t)done : -EAGAIN;
        }
        prepare_to_wait(&p->wr_wait, &w, TASK_INTERRUPTIBLE);
        mutex_unlock(&p->mutex);
        if (signal_pending(current)) {
            finish_wait(&p->wr_wait, &w);
            return done ? (ssize_t)done : -EINTR;
        }
        schedule();
        finish_wait(&p->wr_wait, &w);
        mutex_lock(&p->mutex);
    }
    mutex_unlock(&p->mutex);
    return done;
}

static int pipe_release(struct inode *inode, struct file *file)
{
    struct pipe *p = file->private_data;
    mutex_lock(&p->mutex);
    if (file->f_mode & FMODE_READ)
        p->readers--;
    if (file->f_mode & FMODE_WRITE)
        p->writers--;
    int last = !p->readers && !p->writers;
    mutex_unlock(&p->mutex);
    if (last) {
        free_page((unsigned long)p->buf);
        kfree(p);
        pipes_alive--;
    } else {
        wake_up_all(&p->rd_wait);      /* EOF for readers, EPIPE for writers */
        wake_up_all(&p->wr_wait);
    }
    return 0;
}

static long pipe_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
    struct pipe *p = file->private_data;
    if (cmd != 0x541B)                 /* FIONREAD */
        return -ENOTTY;
    int n = p->head - p->tail;
    return copy_to_user((void *)arg, &n, sizeof n) ? -EFAULT : 0;
}

/* Linux's pipe_poll: readable when not empty or no writer is left (read
 * returns 0 then: POLLHUP); writable when there is room; a write end
 * without readers gets POLLERR (write would fail with EPIPE). */
static unsigned int pipe_poll(struct file *file)
{
    struct pipe *p = file->private_data;
    unsigned int mask = 0;
    mutex_lock(&p->mutex);
    if (file->f_mode & FMODE_READ) {
        if (p->head != p->tail)
            mask |= POLLIN | POLLRDNORM;
        if (!p->writers)
            mask |= POLLHUP;
    }
    if (file->f_mode & FMODE_WRITE) {
        if (p->head - p->tail < PIPE_SIZE)
            mask |= POLLOUT | POLLWRNORM;
        if (!p->readers)
            mask |= POLLERR;
    }
    mutex_unlock(&p->mutex);
    return mask;
}

static const struct file_operations pipe_fops = {
    .read_iter = pipe_read, .write_iter = pipe_write, .release = pipe_release,
    .ioctl = pipe_ioctl, .llseek = no_llseek, .poll = pipe_poll,
};

static struct file *pipe_file(struct pipe *p, unsigned mode, unsigned flags)
{
    struct file *f = kzalloc(sizeof *f, GFP_KERNEL);
    if (!f)
        return NULL;
    f->f_inode = &p->inode;
    f->f_op = &pipe_fops;
    f->f_mode = mode;
    f->f_flags = flags | (mode == FMODE_READ ? O_RDONLY : O_WRONLY);
    f->f_count = 1;
    f->private_data = p;
    mutex_init(&f->f_pos_lock);
    return f;
}

/* Make a pipe: files[0] the read end, files[1] the write end. */
int create_pipe_files(struct file **files, int flags)
{
    struct pipe *p = kzalloc(sizeof *p, GFP_KERNEL);
    if (!p)
        return -ENOMEM;
    p->buf = (char *)get_zeroed_page(GFP_KERNEL);
    if (!p->buf) {
        kfree(p);
        return -ENOMEM;
    }
    mutex_init(&p->mutex);
    init_waitqueue_head(&p->rd_wait);
    init_waitqueue_head(&p->wr_wait);
    inode_init_once(&p->inode);
    p->inode.i_sb = &pipe_sb;
    p->inode.i_mode = S_IFIFO | 0600;
    p->inode.i_nlink = 1;
    p->inode.i_count = 1;
    p->inode.i_ino = ++pipe_ino;
    p->inode.i_atime = p->inode.i_mtime = p->inode.i_ctime = current_time();
    p->readers = p->writers = 1;
    pipes_alive++;
    files[0] = pipe_file(p, FMODE_READ, flags & O_NONBLOCK);
    files[1] = pipe_file(p, FMODE_WRITE, flags & O_NONBLOCK);
    if (!files[0] || !files[1]) {
        kfree(files[0]);
        kfree(files[1]);
        free_page((unsigned long)p->buf);
        kfree(p);
        pipes_alive--;
        return -ENOMEM;
    }
    return 0;
}

long sys_pipe2(int *fildes, int flags)
{
    if (flags & ~(O_CLOEXEC | O_NONBLOCK))
        return -EINVAL;
    if (!access_ok(fildes, 2 * sizeof(int)))
        return -EFAULT;
    struct file *files[2];
    int err = create_pipe_files(files, flags);
    if (err)
        return err;
    int fd[2];
    fd[0] = get_unused_fd_flags(flags);
    fd[1] = fd[0] < 0 ? fd[0] : get_unused_fd_flags(flags);
    if (fd[0] >= 0 && fd[1] >= 0 && !copy_to_user(fildes, fd, sizeof fd)) {
        fd_install(fd[0], files[0]);
        fd_install(fd[1], files[1]);
        return 0;
    }
    err = fd[0] < 0 ? fd[0] : fd[1] < 0 ? fd[1] : -EFAULT;
    if (fd[0] >= 0)
        put_unused_fd(fd[0]);
    if (fd[1] >= 0)
        put_unused_fd(fd[1]);
    fput(files[0]);
    fput(files[1]);
    return err;
}

long sys_pipe(int *fildes) { return sys_pipe2(fildes, 0); }
