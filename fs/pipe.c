/* fs/pipe.c: pipes, as Linux's fs/pipe.c.  A pipe is a ring of
 * ring_size buffers (PIPE_DEF_BUFFERS, 16, when made; fcntl(F_SETPIPE_SZ)
 * changes it, below), each a page with the bytes at [offset, offset + len),
 * two struct files (read end, write end) and an inode of kind S_IFIFO so
 * that fstat works.
 *
 *   bufs[tail & mask] ... bufs[(head - 1) & mask]   the data, oldest first
 *   head - tail          buffers in use; the pipe is full at max_usage
 *                        (ring_size: 16 buffers, 64 KiB, when made)
 *
 * A write first tops up the last buffer with the part of the write that is
 * not a multiple of a page (when it fits there), then fills fresh pages, so
 * a write of at most PIPE_BUF (a page) bytes lands in one buffer: it is
 * atomic, never interleaved with another writer's.  Readers sleep while it
 * is empty and writers exist; writers sleep while max_usage buffers are in use
 * and readers exist.  Read returns 0 (end of file) when it is empty and
 * every write end is closed; a write to a pipe with no read end gets -EPIPE
 * and the writer SIGPIPE.  O_NONBLOCK turns each sleep into -EAGAIN (or the
 * short count already moved); a signal into -ERESTARTSYS (a handler with
 * SA_RESTART restarts the call, one without makes it -EINTR), unless bytes
 * were moved: then the short count.  Sits on the fd table and the VFS's
 * struct file.
 *
 * SMP: pipe_read and pipe_write run without the big kernel lock (step 5,
 * docs/smp.md): the ring, the counts and the fasync lists are p->mutex's;
 * the signals they send (SIGPIPE, SIGIO) take the big lock.
 *
 * The files are made here, not by filp_open: their f_path is empty (no
 * mount, no name), f_inode points at the inode inside struct pipe, and the
 * last release of both ends frees everything.
 *
 * A FIFO (mknod S_IFIFO: an inode of a real filesystem) is the same pipe
 * reached by open(2), as Linux's fifo_open: the first open makes it and
 * hangs it on the inode (i_pipe), the last release frees it.  Opening for
 * reading waits for a writer and for writing waits for a reader (each
 * counts as one when it comes: r_counter, w_counter), unless O_NONBLOCK:
 * then a reader opens at once and a writer without a reader gets -ENXIO;
 * O_RDWR never waits.  fifo_lock keeps i_pipe and the open counts of FIFOs
 * together (above p->mutex in the lock order, mm/filemap.c).  The file
 * then uses pipe_fops; its f_inode stays the filesystem's (fstat).
 */
#include <kernel.h>
#include <smp_lock.h>
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
#include <cred.h>
#include <chrdev.h>
#include <fs_syscalls.h>
#include <poll.h>
#include <asm/uaccess.h>
#include "internal.h"

#define PIPE_DEF_BUFFERS 16            /* a new pipe's slots: 64 KiB, F_GETPIPE_SZ */
#define PIPE_BUF  PAGE_SIZE            /* writes up to this size are atomic */

struct pipe_buffer {
    char *page;                        /* a page of the allocator (kernel address) */
    unsigned int offset, len;          /* the bytes not yet read */
};

struct pipe {
    struct mutex mutex;                /* everything below but the wait queues */
    unsigned int head, tail;           /* free-running slot numbers */
    unsigned int max_usage;            /* slots that may be in use (= ring_size, or
                                          fewer: pipe-max-size) */
    unsigned int ring_size;            /* bufs[]'s length, a power of 2 */
    struct pipe_buffer *bufs;          /* kmalloc'd: F_SETPIPE_SZ replaces it */
    char *tmp_page;                    /* a freed page kept for the next write */
    struct fasync_struct *fasync_readers;  /* O_ASYNC ends: SIGIO when data */
    struct fasync_struct *fasync_writers;  /* comes, when room comes */
    int readers, writers;              /* open ends */
    unsigned int r_counter, w_counter; /* FIFO: opens for reading / writing so far */
    wait_queue_head_t rd_wait, wr_wait;
    struct inode inode;                /* S_IFIFO, for fstat; on pipe_sb */
};

/* The buffer of free-running slot number slot. */
static inline struct pipe_buffer *pipe_buf(struct pipe *p, unsigned int slot)
{
    return &p->bufs[slot & (p->ring_size - 1)];
}

static inline bool pipe_empty(unsigned int head, unsigned int tail) { return head == tail; }
static inline bool pipe_full(unsigned int head, unsigned int tail, unsigned int limit)
{
    return head - tail >= limit;
}

static struct super_block pipe_sb = {  /* pipes' inodes belong here (fstat's st_dev) */
    .s_blocksize = PAGE_SIZE, .s_blocksize_bits = PAGE_SHIFT, .s_id = "pipefs",
};
static unsigned long pipe_ino;
unsigned long pipes_alive;             /* for tests: pipes not yet freed */

/* A buffer read empty gives its page back (or keeps it for the next write,
 * Linux's anon_pipe_buf_release). */
static void pipe_buf_release(struct pipe *p, struct pipe_buffer *buf)
{
    if (!p->tmp_page)
        p->tmp_page = buf->page;
    else
        free_page((unsigned long)buf->page);
    buf->page = NULL;
}

/* The files with O_ASYNC set on one end of a pipe (Linux's fasync_struct
 * list and fasync_helper/kill_fasync), under the pipe's mutex. */
struct fasync_struct {
    struct fasync_struct *next;
    struct file *file;
};

static int fasync_helper(struct file *file, int on, struct fasync_struct **list)
{
    struct fasync_struct **pp;
    for (pp = list; *pp; pp = &(*pp)->next)
        if ((*pp)->file == file)
            break;
    if (!on) {
        if (*pp) {
            struct fasync_struct *fa = *pp;
            *pp = fa->next;
            kfree(fa);
        }
        return 0;
    }
    if (*pp)
        return 0;
    struct fasync_struct *fa = kzalloc(sizeof *fa, GFP_KERNEL);
    if (!fa)
        return -ENOMEM;
    fa->file = file;
    *pp = fa;
    return 0;
}

/* Signals are sent under the big kernel lock: pipe_read and pipe_write
 * run without it (SMP step 5). */
static void kill_fasync(struct fasync_struct *list, int band)
{
    if (!list)
        return;
    lock_kernel();
    for (; list; list = list->next)
        send_sigio(&list->file->f_owner, band);
    unlock_kernel();
}

static int pipe_fasync(struct file *file, int on)
{
    struct pipe *p = file->private_data;
    int err = 0;
    mutex_lock(&p->mutex);
    if (file->f_mode & FMODE_READ)
        err = fasync_helper(file, on, &p->fasync_readers);
    if (!err && (file->f_mode & FMODE_WRITE))
        err = fasync_helper(file, on, &p->fasync_writers);
    mutex_unlock(&p->mutex);
    return err;
}

static ssize_t pipe_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
    struct pipe *p = file->private_data;
    size_t total_len = iov_iter_count(to);
    ssize_t ret = 0;
    if (!total_len)
        return 0;
    mutex_lock(&p->mutex);
    DEFINE_WAIT(w);
    for (;;) {
        if (!pipe_empty(p->head, p->tail)) {
            struct pipe_buffer *buf = pipe_buf(p, p->tail);
            size_t chars = min((size_t)buf->len, total_len);
            size_t written = copy_to_iter(buf->page + buf->offset, chars, to);
            if (written < chars) {     /* a bad user buffer: the bytes stay */
                if (!ret)
                    ret = -EFAULT;
                break;
            }
            ret += chars;
            buf->offset += chars;
            buf->len -= chars;
            if (!buf->len) {
                pipe_buf_release(p, buf);
                p->tail++;
                wake_up(&p->wr_wait);  /* a slot is free */
            }
            total_len -= chars;
            if (!total_len)
                break;
            if (!pipe_empty(p->head, p->tail))
                continue;
        }
        if (!p->writers || ret)
            break;                     /* end of file, or what there was */
        if (file->f_flags & O_NONBLOCK) {
            ret = -EAGAIN;
            break;
        }
        prepare_to_wait(&p->rd_wait, &w, TASK_INTERRUPTIBLE);
        mutex_unlock(&p->mutex);
        if (signal_pending(current)) {
            finish_wait(&p->rd_wait, &w);
            return -ERESTARTSYS;
        }
        schedule();
        finish_wait(&p->rd_wait, &w);
        mutex_lock(&p->mutex);
    }
    if (ret > 0)
        kill_fasync(p->fasync_writers, POLL_OUT);
    mutex_unlock(&p->mutex);
    return ret;
}

static ssize_t pipe_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
    struct pipe *p = file->private_data;
    size_t total_len = iov_iter_count(from);
    ssize_t ret = 0;
    if (!total_len)
        return 0;
    mutex_lock(&p->mutex);
    if (!p->readers) {
        ret = -EPIPE;
        goto epipe;
    }
    /* The part that is not a multiple of a page goes on the end of the
     * last buffer if it fits there: small writes merge, and the rest of a
     * large one is written in whole pages. */
    size_t chars = total_len & (PAGE_SIZE - 1);
    if (chars && !pipe_empty(p->head, p->tail)) {
        struct pipe_buffer *buf = pipe_buf(p, p->head - 1);
        unsigned int offset = buf->offset + buf->len;
        if (offset + chars <= PAGE_SIZE) {
            if (copy_from_iter(buf->page + offset, chars, from) < chars) {
                ret = -EFAULT;
                goto out;
            }
            buf->len += chars;
            ret = chars;
            wake_up(&p->rd_wait);
            if (!iov_iter_count(from))
                goto out;
        }
    }
    DEFINE_WAIT(w);
    for (;;) {
        if (!p->readers) {
            if (!ret)
                ret = -EPIPE;
            goto epipe;
        }
        if (!pipe_full(p->head, p->tail, p->max_usage)) {
            char *page = p->tmp_page;
            if (!page) {
                page = (char *)__get_free_page(GFP_KERNEL);
                if (!page) {
                    if (!ret)
                        ret = -ENOMEM;
                    break;
                }
            }
            p->tmp_page = NULL;
            size_t want = min(iov_iter_count(from), (size_t)PAGE_SIZE);
            size_t copied = copy_from_iter(page, want, from);
            if (copied < want) {       /* a bad user buffer: this page is dropped */
                p->tmp_page = page;
                if (!ret)
                    ret = -EFAULT;
                break;
            }
            struct pipe_buffer *buf = pipe_buf(p, p->head);
            buf->page = page;
            buf->offset = 0;
            buf->len = copied;
            p->head++;
            ret += copied;
            wake_up(&p->rd_wait);
            if (!iov_iter_count(from))
                break;
            continue;
        }
        /* full, more to write */
        if (file->f_flags & O_NONBLOCK) {
            if (!ret)
                ret = -EAGAIN;
            break;
        }
        if (signal_pending(current)) {
            if (!ret)
                ret = -ERESTARTSYS;
            break;
        }
        prepare_to_wait(&p->wr_wait, &w, TASK_INTERRUPTIBLE);
        mutex_unlock(&p->mutex);
        if (!signal_pending(current))
            schedule();
        finish_wait(&p->wr_wait, &w);
        mutex_lock(&p->mutex);
    }
out:
    if (ret > 0)
        kill_fasync(p->fasync_readers, POLL_IN);
    mutex_unlock(&p->mutex);
    return ret;
epipe:
    mutex_unlock(&p->mutex);
    lock_kernel();                     /* signals: as in kill_fasync */
    send_signal(current, SIGPIPE, NULL);
    unlock_kernel();
    return ret;
}

/* Free a pipe and every page it holds (the last end closed, or a failed
 * create). */
static void pipe_free(struct pipe *p)
{
    for (unsigned int t = p->tail; t != p->head; t++)
        free_page((unsigned long)pipe_buf(p, t)->page);
    if (p->tmp_page)
        free_page((unsigned long)p->tmp_page);
    WARN_ON(p->fasync_readers || p->fasync_writers);   /* each end's close took its own */
    kfree(p->bufs);
    kfree(p);
    pipes_alive--;
}

static DEFINE_MUTEX(fifo_lock);

static int pipe_release(struct inode *inode, struct file *file)
{
    struct pipe *p = file->private_data;
    bool fifo = inode->i_pipe == p;    /* stable: only a release of p clears it */
    if (fifo)
        mutex_lock(&fifo_lock);
    mutex_lock(&p->mutex);
    if (file->f_mode & FMODE_READ)
        p->readers--;
    if (file->f_mode & FMODE_WRITE)
        p->writers--;
    int last = !p->readers && !p->writers;
    mutex_unlock(&p->mutex);
    if (last && fifo)
        inode->i_pipe = NULL;          /* the next open makes a new one */
    if (fifo)
        mutex_unlock(&fifo_lock);
    if (last) {
        pipe_free(p);
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
    mutex_lock(&p->mutex);
    int n = 0;
    for (unsigned int t = p->tail; t != p->head; t++)
        n += pipe_buf(p, t)->len;
    mutex_unlock(&p->mutex);
    return copy_to_user((void *)arg, &n, sizeof n) ? -EFAULT : 0;
}

/* Linux's pipe_poll: readable when not empty; POLLHUP when no writer is
 * left (read returns 0 then), except for a FIFO reader that opened
 * without a writer and has seen none come since (f_pipe, the writers'
 * count at its open); writable when there is room; a write end without
 * readers gets POLLERR (write would fail with EPIPE). */
static unsigned int pipe_poll(struct file *file)
{
    struct pipe *p = file->private_data;
    unsigned int mask = 0;
    mutex_lock(&p->mutex);
    if (file->f_mode & FMODE_READ) {
        if (p->head != p->tail)
            mask |= POLLIN | POLLRDNORM;
        if (!p->writers && file->f_pipe != p->w_counter)
            mask |= POLLHUP;           /* not for a FIFO reader before any writer came */
    }
    if (file->f_mode & FMODE_WRITE) {
        if (!pipe_full(p->head, p->tail, p->max_usage))
            mask |= POLLOUT | POLLWRNORM;
        if (!p->readers)
            mask |= POLLERR;
    }
    mutex_unlock(&p->mutex);
    return mask;
}

static const struct file_operations pipe_fops = {
    .read_iter = pipe_read, .write_iter = pipe_write, .release = pipe_release,
    .ioctl = pipe_ioctl, .llseek = no_llseek, .poll = pipe_poll, .fasync = pipe_fasync,
    .fop_flags = FOP_UNLOCKED_RW,      /* SMP step 5: everything under p->mutex */
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

/* An empty pipe with no ends (Linux's alloc_pipe_info), or NULL. */
static struct pipe *pipe_alloc(void)
{
    struct pipe *p = kzalloc(sizeof *p, GFP_KERNEL);
    if (!p)
        return NULL;
    p->bufs = kzalloc(PIPE_DEF_BUFFERS * sizeof *p->bufs, GFP_KERNEL);
    if (!p->bufs) {
        kfree(p);
        return NULL;
    }
    p->ring_size = p->max_usage = PIPE_DEF_BUFFERS;
    /* an unprivileged task's pipe is no larger than pipe-max-size (Linux's
     * alloc_pipe_info; it keeps the 16 slots and uses fewer) */
    if (PIPE_DEF_BUFFERS * PAGE_SIZE > pipe_max_size && !capable(CAP_SYS_RESOURCE))
        p->max_usage = pipe_max_size >> PAGE_SHIFT;
    mutex_init(&p->mutex);
    init_waitqueue_head(&p->rd_wait);
    init_waitqueue_head(&p->wr_wait);
    pipes_alive++;
    return p;
}

/* Make a pipe: files[0] the read end, files[1] the write end. */
int create_pipe_files(struct file **files, int flags)
{
    struct pipe *p = pipe_alloc();
    if (!p)
        return -ENOMEM;
    inode_init_once(&p->inode);
    p->inode.i_sb = &pipe_sb;
    p->inode.i_mode = S_IFIFO | 0600;
    p->inode.i_uid = current_fsuid();  /* the creator's, as Linux's get_pipe_inode */
    p->inode.i_gid = current_fsgid();
    p->inode.i_nlink = 1;
    p->inode.i_count = 1;
    p->inode.i_ino = ++pipe_ino;
    p->inode.i_atime = p->inode.i_mtime = p->inode.i_ctime = current_time();
    p->readers = p->writers = 1;
    p->r_counter = p->w_counter = 1;   /* as a FIFO opened once each way */
    files[0] = pipe_file(p, FMODE_READ, flags & O_NONBLOCK);
    files[1] = pipe_file(p, FMODE_WRITE, flags & O_NONBLOCK);
    if (!files[0] || !files[1]) {
        kfree(files[0]);
        kfree(files[1]);
        pipe_free(p);
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

/* Wait, with fifo_lock let go, until *counter moves on from what it was
 * (a partner opened).  0, or -ERESTARTSYS on a signal. */
static int wait_for_partner(wait_queue_head_t *wq, unsigned int *counter)
{
    unsigned int cur = *counter;
    DEFINE_WAIT(w);
    int err = 0;
    while (cur == *counter) {
        prepare_to_wait(wq, &w, TASK_INTERRUPTIBLE);
        mutex_unlock(&fifo_lock);
        if (signal_pending(current))
            err = -ERESTARTSYS;
        else
            schedule();
        finish_wait(wq, &w);
        mutex_lock(&fifo_lock);
        if (err)
            break;
    }
    return err;
}

/* A FIFO's open (Linux's fifo_open); the rules are at the top. */
static int fifo_open(struct inode *inode, struct file *file)
{
    int err = 0;
    mutex_lock(&fifo_lock);
    struct pipe *p = inode->i_pipe;
    if (!p && !(p = inode->i_pipe = pipe_alloc())) {
        mutex_unlock(&fifo_lock);
        return -ENOMEM;
    }
    file->private_data = p;
    file->f_op = &pipe_fops;
    bool nonblock = file->f_flags & O_NONBLOCK;
    int rd = !!(file->f_mode & FMODE_READ), wr = !!(file->f_mode & FMODE_WRITE);
    if (!rd && !wr)
        err = -EINVAL;                 /* open mode 3: neither */
    else if (wr && !rd && nonblock && !p->readers)
        err = -ENXIO;
    if (!err) {
        mutex_lock(&p->mutex);
        p->r_counter += rd;
        p->w_counter += wr;
        p->readers += rd;
        p->writers += wr;
        mutex_unlock(&p->mutex);
        wake_up_all(&p->rd_wait);      /* a partner waiting in its open */
        wake_up_all(&p->wr_wait);
        if (rd && !p->writers)
            file->f_pipe = p->w_counter;   /* no POLLHUP until a writer came */
        if (rd && !wr && !p->writers && !nonblock)
            err = wait_for_partner(&p->rd_wait, &p->w_counter);
        else if (wr && !rd && !p->readers)
            err = wait_for_partner(&p->wr_wait, &p->r_counter);
        if (err) {                     /* interrupted: this end goes */
            mutex_lock(&p->mutex);
            p->readers -= rd;
            p->writers -= wr;
            mutex_unlock(&p->mutex);
        }
    }
    bool unused = err && !p->readers && !p->writers;
    if (unused)
        inode->i_pipe = NULL;
    mutex_unlock(&fifo_lock);
    if (unused)
        pipe_free(p);
    else if (err)
        wake_up_all(&p->wr_wait);      /* a reader that gave up: writers see EPIPE */
    return err;
}

const struct file_operations pipefifo_fops = { .open = fifo_open };

/* The most bytes an F_SETPIPE_SZ that grows a pipe may ask for without
 * CAP_SYS_RESOURCE, and the capacity of an unprivileged task's new pipe at
 * most (Linux's pipe_max_size, /proc/sys/fs/pipe-max-size).
 * pipe_user_pages_soft is Linux's default per-user soft limit (16384
 * pages); simplified on purpose: Vellum counts no pipe pages per user, so
 * the limit is told and never applied. */
unsigned int pipe_max_size = 1048576;
unsigned long pipe_user_pages_soft = 16384;

/* A size for F_SETPIPE_SZ: at least a page, a power of 2 pages; 0 for more
 * than 2^31 bytes (Linux's round_pipe_size). */
static unsigned long round_pipe_size(unsigned long size)
{
    if (size > (1UL << 31))
        return 0;
    unsigned long r = PAGE_SIZE;
    while (r < size)
        r <<= 1;
    return r;
}

/* A write to /proc/sys/fs/pipe-max-size: rounded as F_SETPIPE_SZ rounds
 * (Linux's proc_dopipe_max_size). */
int pipe_set_max_size(long val)
{
    unsigned long size = val < 0 ? 0 : round_pipe_size(val);
    if (!size)
        return -EINVAL;
    pipe_max_size = size;
    return 0;
}

/* F_SETPIPE_SZ: a ring of size / PAGE_SIZE slots, the buffers in use moved
 * to its start in order (Linux's pipe_resize_ring).  -EBUSY when more
 * buffers hold data than the new ring has slots; -ENOMEM.  Writers waiting
 * for room are woken: there may be some now. */
static long pipe_set_size(struct pipe *p, unsigned long arg)
{
    unsigned long size = round_pipe_size(arg);
    if (!size)
        return -EINVAL;
    unsigned int nr_slots = size >> PAGE_SHIFT;
    if (nr_slots > p->max_usage && size > pipe_max_size && !capable(CAP_SYS_RESOURCE))
        return -EPERM;
    struct pipe_buffer *bufs = kzalloc(nr_slots * sizeof *bufs, GFP_KERNEL);
    if (!bufs)
        return -ENOMEM;
    mutex_lock(&p->mutex);
    unsigned int n = p->head - p->tail;
    if (n > nr_slots) {
        mutex_unlock(&p->mutex);
        kfree(bufs);
        return -EBUSY;
    }
    for (unsigned int i = 0; i < n; i++)
        bufs[i] = *pipe_buf(p, p->tail + i);
    kfree(p->bufs);
    p->bufs = bufs;
    p->tail = 0;
    p->head = n;
    p->ring_size = p->max_usage = nr_slots;
    mutex_unlock(&p->mutex);
    wake_up_all(&p->wr_wait);
    return (long)nr_slots * PAGE_SIZE;
}

/* fcntl(F_GETPIPE_SZ, F_SETPIPE_SZ): the capacity in bytes, got or set
 * (the size set is rounded up: a page at least, a power of 2 pages); -EBADF
 * for anything but a pipe (Linux's pipe_fcntl). */
long pipe_fcntl(struct file *file, unsigned int cmd, unsigned long arg)
{
    if (file->f_op != &pipe_fops)
        return -EBADF;
    struct pipe *p = file->private_data;
    if (cmd == F_SETPIPE_SZ)
        return pipe_set_size(p, arg);
    return (long)p->max_usage * PAGE_SIZE;
}
