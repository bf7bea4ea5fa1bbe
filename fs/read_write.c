/* fs/read_write.c: read, write, seek and readdir: the system calls and the
 * VFS functions under them, as Linux's fs/read_write.c.
 *
 * vfs_read/vfs_write check the open mode and hand over to the file's f_op
 * (for page-cache files: generic_file_read_iter / generic_file_write_iter in
 * mm/filemap.c).  kernel_read/kernel_write wrap a kernel buffer in an
 * ITER_KVEC, which the write path recognises as a source that cannot fault.
 *
 * The system calls (read(2), write(2) and friends) own turning user buffers
 * into an ITER_IOVEC iov_iter, and the file offset: a regular file's f_pos
 * is updated under f_pos_lock only by the amount actually transferred, so a
 * call that fails with -EFAULT leaves it unchanged.  preadv2/pwritev2's
 * RWF_* flags ride in the iterator (iocb_flags).
 *
 * The path of read(fd, buf, n):
 *   sys_read -> fdget(fd) -> iov_iter_init(ITER_IOVEC) -> the open mode,
 *     access_ok(buf, n), rw_verify_area -> vfs_read(file, iter, &pos)
 *     -> f_op->read_iter (page cache, pipe, tty...) -> copy_to_iter
 *     -> copy_to_user -> f_pos = pos -> fdput
 * write(2) is the same in the other direction; docs/page-cache.md follows
 * it all the way down.
 */
#include <kernel.h>
#include <errno.h>
#include <slab.h>
#include <fs.h>
#include <sched.h>
#include <uio.h>
#include <fdtable.h>
#include <fs_syscalls.h>
#include <err.h>
#include <string.h>
#include <asm/uaccess.h>
#include <signal.h>
#include <smp_lock.h>
#include "internal.h"

/* ---- the VFS side ------------------------------------------------------ */

/* read(2) and write(2) run without the big kernel lock (SMP step 5,
 * kernel/syscall.c); a file whose read_iter/write_iter do not say they can
 * (FOP_UNLOCKED_RW, include/fs.h: ttys, /proc) gets it here. */
static ssize_t call_rw_iter(struct file *file, struct iov_iter *it, loff_t *pos, int write)
{
    ssize_t (*fn)(struct file *, struct iov_iter *, loff_t *) =
        write ? file->f_op->write_iter : file->f_op->read_iter;
    if (file->f_op->fop_flags & FOP_UNLOCKED_RW)
        return fn(file, it, pos);
    lock_kernel();
    ssize_t ret = fn(file, it, pos);
    unlock_kernel();
    return ret;
}

ssize_t vfs_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
    if (!file || !(file->f_mode & FMODE_READ))
        return -EBADF;
    if (S_ISDIR(file->f_inode->i_mode))
        return -EISDIR;
    if (!file->f_op || !file->f_op->read_iter)
        return -EINVAL;
    return call_rw_iter(file, to, pos, 0);
}

ssize_t vfs_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
    if (!file || !(file->f_mode & FMODE_WRITE))
        return -EBADF;
    if (!file->f_op || !file->f_op->write_iter)
        return -EINVAL;
    return call_rw_iter(file, from, pos, 1);
}

ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t *pos)
{
    struct kvec v = { buf, count };
    struct iov_iter it;
    iov_iter_kvec(&it, READ, &v, 1, count);
    return vfs_read(file, &it, pos);
}

ssize_t kernel_write(struct file *file, const void *buf, size_t count, loff_t *pos)
{
    struct kvec v = { (void *)buf, count };
    struct iov_iter it;
    iov_iter_kvec(&it, WRITE, &v, 1, count);
    return vfs_write(file, &it, pos);
}

/* Set f_pos to off if it lies in [0, maxsize] (Linux's vfs_setpos), else
 * -EINVAL with f_pos unchanged.  Returns off. */
loff_t vfs_setpos(struct file *file, loff_t off, loff_t maxsize)
{
    if (off < 0 || off > maxsize)
        return -EINVAL;
    file->f_pos = off;
    return off;
}

/*
 * Linux's generic_file_llseek (generic_file_llseek_size with the file
 * system's s_maxbytes and i_size): the new position must lie in
 * [0, s_maxbytes], else -EINVAL and f_pos stays (vfs_setpos).  SEEK_DATA
 * and SEEK_HOLE see the whole file as data (no hole detection, as in
 * Linux's generic version; ext2_llseek finds holes): at or past EOF
 * -ENXIO; SEEK_DATA stays at off, SEEK_HOLE goes to EOF.  The sums are
 * done unsigned: an overflow gives a negative position, -EINVAL (Linux's
 * kernel is built with -fno-strict-overflow).
 */
loff_t generic_file_llseek(struct file *file, loff_t off, int whence)
{
    loff_t maxsize = file->f_inode->i_sb->s_maxbytes;
    loff_t eof = file->f_inode->i_size;
    switch (whence) {
    case SEEK_SET: break;
    case SEEK_CUR: off = (loff_t)((unsigned long long)file->f_pos + (unsigned long long)off); break;
    case SEEK_END: off = (loff_t)((unsigned long long)eof + (unsigned long long)off); break;
    case SEEK_DATA:
        if (off < 0 || off >= eof)
            return -ENXIO;
        break;
    case SEEK_HOLE:
        if (off < 0 || off >= eof)
            return -ENXIO;
        off = eof;
        break;
    default: return -EINVAL;
    }
    return vfs_setpos(file, off, maxsize);
}

loff_t vfs_llseek(struct file *file, loff_t off, int whence)
{
    if (!file)
        return -EBADF;
    if (file->f_op && file->f_op->llseek)
        return file->f_op->llseek(file, off, whence);
    return generic_file_llseek(file, off, whence);
}

/* Directory entries from file->f_pos on; the position carries over between
 * calls through f_pos, as Linux's iterate_dir. */
int iterate_dir(struct file *file, struct dir_context *ctx)
{
    if (!file)
        return -EBADF;
    struct inode *inode = file->f_inode;
    if (!S_ISDIR(inode->i_mode) || !file->f_op || !file->f_op->iterate)
        return -ENOTDIR;
    mutex_lock(&inode->i_mutex);
    int err = -ENOENT;                  /* a removed directory (Linux's IS_DEADDIR) */
    if (!IS_DEADDIR(inode)) {
        ctx->pos = file->f_pos;
        err = file->f_op->iterate(file, ctx);
        file->f_pos = ctx->pos;
        file_accessed(file);
    }
    mutex_unlock(&inode->i_mutex);
    return err;
}

/* ---- the system calls ---------------------------------------------------- */

#define UIO_MAXIOV 1024
#define MAX_RW_COUNT (0x7fffffff & ~(PAGE_SIZE - 1))   /* Linux's cap on one call */

static int has_pos(struct file *file)
{
    mode_t m = file->f_inode ? file->f_inode->i_mode : 0;
    return S_ISREG(m) || S_ISDIR(m) || S_ISBLK(m);
}

/* The transfer at f_pos, which moves by what was transferred.  The caller
 * holds f_pos_lock if the file has a position. */
static ssize_t rw_at_fpos(struct file *file, struct iov_iter *it, int write)
{
    loff_t pos = file->f_pos;
    ssize_t ret = write ? vfs_write(file, it, &pos) : vfs_read(file, it, &pos);
    if (ret >= 0)
        file->f_pos = pos;
    return ret;
}

/* Before any transfer, as Linux orders them: a position given to a file
 * without one is -ESPIPE (FMODE_PREAD/FMODE_PWRITE), then the open mode
 * (-EBADF). */
static int rw_check(struct file *file, loff_t *ppos, int write)
{
    if (ppos && !has_pos(file))
        return -ESPIPE;
    return file->f_mode & (write ? FMODE_WRITE : FMODE_READ) ? 0 : -EBADF;
}

/* Linux's rw_verify_area: a count past SSIZE_MAX is -EINVAL, and so is a
 * transfer at a given position (never negative here: the callers refused
 * that) that would end past LLONG_MAX.  f_pos needs no such check: it
 * never passes s_maxbytes. */
static int rw_verify_area(loff_t *ppos, size_t count)
{
    return (ssize_t)count < 0 || (ppos && (loff_t)((uint64_t)*ppos + count) < 0) ? -EINVAL : 0;
}

/* The transfer at *ppos (pread/pwrite: f_pos untouched) or, when ppos is
 * NULL, at f_pos, checks done.  f_pos_lock only if another fd or task
 * shares the file (Linux's fdget_pos: file_count > 1 beside the caller's
 * own reference).  held: the references the caller took on file (0 after a
 * light fdget, 1 after fget), so that f_count - held counts the fds and
 * tasks sharing it. */
static ssize_t rw_transfer(struct file *file, struct iov_iter *it, loff_t *ppos, int write,
                           int held)
{
    if (ppos)
        return write ? vfs_write(file, it, ppos) : vfs_read(file, it, ppos);
    if (!has_pos(file) || file->f_count - held <= 1)
        return rw_at_fpos(file, it, write);
    mutex_lock(&file->f_pos_lock);
    ssize_t ret = rw_at_fpos(file, it, write);
    mutex_unlock(&file->f_pos_lock);
    return ret;
}

/* The checks, then the transfer (sendfile's path). */
static ssize_t do_rw(struct file *file, struct iov_iter *it, loff_t *ppos, int write, int held)
{
    ssize_t ret = rw_check(file, ppos, write);
    if (!ret)
        ret = rw_verify_area(ppos, iov_iter_count(it));
    return ret ? ret : rw_transfer(file, it, ppos, write, held);
}

/* read/write (ppos NULL) and pread64/pwrite64 (which refused a negative
 * position already): the checks in Linux's vfs_read/vfs_write order, at
 * most MAX_RW_COUNT bytes. */
static ssize_t rw_one(unsigned int fd, void *buf, size_t count, loff_t *ppos, int write)
{
    struct fd f = fdget(fd);
    if (!f.file)
        return -EBADF;
    struct iovec iov = { buf, min(count, (size_t)MAX_RW_COUNT) };
    struct iov_iter it;
    iov_iter_init(&it, write ? WRITE : READ, &iov, 1, iov.iov_len);
    ssize_t ret = rw_check(f.file, ppos, write);
    if (!ret && !(ret = access_ok(buf, count) ? rw_verify_area(ppos, count) : -EFAULT))
        ret = rw_transfer(f.file, &it, ppos, write, f.flags & FDPUT_FPUT);
    fdput(f);
    return ret;
}

long sys_read(unsigned int fd, char *buf, size_t count) { return rw_one(fd, buf, count, NULL, 0); }
long sys_write(unsigned int fd, const char *buf, size_t count)
{ return rw_one(fd, (void *)buf, count, NULL, 1); }

static loff_t make_pos(unsigned long lo, unsigned long hi) { return (loff_t)(((uint64_t)hi << 32) | lo); }

/* pread64/pwrite64: a negative position is -EINVAL before the descriptor
 * is looked at (Linux's ksys_pread64). */
long sys_pread64(unsigned int fd, char *buf, size_t count, unsigned long lo, unsigned long hi)
{
    loff_t pos = make_pos(lo, hi);
    return pos < 0 ? -EINVAL : rw_one(fd, buf, count, &pos, 0);
}

long sys_pwrite64(unsigned int fd, const char *buf, size_t count, unsigned long lo, unsigned long hi)
{
    loff_t pos = make_pos(lo, hi);
    return pos < 0 ? -EINVAL : rw_one(fd, (void *)buf, count, &pos, 1);
}

/* Copy a user iovec array in and check it, as Linux's import_iovec:
 * -EINVAL for too many segments or a segment longer than SSIZE_MAX,
 * -EFAULT for an unreadable array or a segment outside user space.  A
 * total past MAX_RW_COUNT is cut there: the segment that crosses it is
 * shortened, those after it count for nothing (the call transfers at most
 * MAX_RW_COUNT, as read(2) does). */
static long import_iovec(const struct iovec *uvec, unsigned long nr, struct iovec **out, size_t *total)
{
    if (nr > UIO_MAXIOV)
        return -EINVAL;
    struct iovec *iov = kmalloc(nr ? nr * sizeof *iov : 1, GFP_KERNEL);
    if (!iov)
        return -ENOMEM;
    if (copy_from_user(iov, uvec, nr * sizeof *iov)) {
        kfree(iov);
        return -EFAULT;
    }
    size_t sum = 0;
    for (unsigned long i = 0; i < nr; i++) {
        if ((ssize_t)iov[i].iov_len < 0) {
            kfree(iov);
            return -EINVAL;
        }
    }
    for (unsigned long i = 0; i < nr; i++) {
        if (!access_ok(iov[i].iov_base, iov[i].iov_len)) {
            kfree(iov);
            return -EFAULT;
        }
        if (iov[i].iov_len > MAX_RW_COUNT - sum)
            iov[i].iov_len = MAX_RW_COUNT - sum;
        sum += iov[i].iov_len;
    }
    *out = iov;
    *total = sum;
    return 0;
}

/* RWF_* of preadv2/pwritev2 into the iterator's per-call IOCB_* flags, as
 * Linux's kiocb_set_rw_flags: an unknown flag is -EOPNOTSUPP, and so is
 * RWF_NOWAIT on a file that does not take it (no FMODE_NOWAIT).  Where it
 * is taken (ext2's regular files) it is for reads only: a non-blocking
 * buffered write is -EOPNOTSUPP, as Linux's ext4_buffered_write_iter
 * answers (the reference ext2 driver); that answer is given here, since no
 * Vellum file system takes one. */
static int set_rw_flags(struct file *file, struct iov_iter *it, int rwf, int write)
{
    if (rwf & ~RWF_SUPPORTED)
        return -EOPNOTSUPP;
    if (rwf & RWF_NOWAIT) {
        if (!(file->f_mode & FMODE_NOWAIT) || write)
            return -EOPNOTSUPP;
        it->iocb_flags |= IOCB_NOWAIT;
    }
    if (rwf & RWF_HIPRI)
        it->iocb_flags |= IOCB_HIPRI;
    if (rwf & RWF_DSYNC)
        it->iocb_flags |= IOCB_DSYNC;
    if (rwf & RWF_SYNC)
        it->iocb_flags |= IOCB_DSYNC | IOCB_SYNC;
    if (rwf & RWF_APPEND)
        it->iocb_flags |= IOCB_APPEND;
    return 0;
}

/* readv/writev (ppos NULL: at f_pos) and preadv/pwritev(2) (at *ppos).
 * In Linux's order: a negative position (-EINVAL, before the descriptor),
 * no position to give (-ESPIPE), the iovecs (-EINVAL/-EFAULT), the open
 * mode (-EBADF), a transfer of 0 bytes (0, nothing else looked at), the
 * position's range (-EINVAL), then the flags (-EOPNOTSUPP). */
static long rw_vec(unsigned int fd, const struct iovec *uvec, unsigned long vlen,
                   loff_t *ppos, int rwf, int write)
{
    if (ppos && *ppos < 0)
        return -EINVAL;
    struct fd f = fdget(fd);
    if (!f.file)
        return -EBADF;
    struct iovec *iov;
    size_t total;
    long ret = ppos && !has_pos(f.file) ? -ESPIPE : import_iovec(uvec, vlen, &iov, &total);
    if (ret == 0) {
        struct iov_iter it;
        iov_iter_init(&it, write ? WRITE : READ, iov, vlen, total);
        ret = rw_check(f.file, ppos, write);
        if (!ret && total && !(ret = rw_verify_area(ppos, total)) &&
            !(ret = set_rw_flags(f.file, &it, rwf, write)))
            ret = rw_transfer(f.file, &it, ppos, write, f.flags & FDPUT_FPUT);
        kfree(iov);
    }
    fdput(f);
    return ret;
}

long sys_readv(unsigned int fd, const struct iovec *vec, unsigned long vlen)
{ return rw_vec(fd, vec, vlen, NULL, 0, 0); }
long sys_writev(unsigned int fd, const struct iovec *vec, unsigned long vlen)
{ return rw_vec(fd, vec, vlen, NULL, 0, 1); }

/* preadv/pwritev: the 64-bit offset in two registers, low half first (the
 * i386 ABI of Linux's compat-free 32-bit entry).  A negative offset is
 * -EINVAL (rw_vec checks it). */
long sys_preadv(unsigned int fd, const struct iovec *vec, unsigned long vlen,
                unsigned long lo, unsigned long hi)
{
    loff_t pos = make_pos(lo, hi);
    return rw_vec(fd, vec, vlen, &pos, 0, 0);
}

long sys_pwritev(unsigned int fd, const struct iovec *vec, unsigned long vlen,
                 unsigned long lo, unsigned long hi)
{
    loff_t pos = make_pos(lo, hi);
    return rw_vec(fd, vec, vlen, &pos, 0, 1);
}

/* preadv2/pwritev2: as preadv/pwritev plus RWF_* flags; offset -1 means
 * "at the file position, and move it" (readv/writev). */
long sys_preadv2(unsigned int fd, const struct iovec *vec, unsigned long vlen,
                 unsigned long lo, unsigned long hi, int flags)
{
    loff_t pos = make_pos(lo, hi);
    return rw_vec(fd, vec, vlen, pos == -1 ? NULL : &pos, flags, 0);
}

long sys_pwritev2(unsigned int fd, const struct iovec *vec, unsigned long vlen,
                  unsigned long lo, unsigned long hi, int flags)
{
    loff_t pos = make_pos(lo, hi);
    return rw_vec(fd, vec, vlen, pos == -1 ? NULL : &pos, flags, 1);
}

static loff_t do_lseek(struct file *file, loff_t off, unsigned int whence)
{
    if (whence > SEEK_HOLE)            /* Linux's SEEK_MAX */
        return -EINVAL;
    if (file->f_inode && S_ISFIFO(file->f_inode->i_mode))
        return -ESPIPE;
    mutex_lock(&file->f_pos_lock);
    loff_t ret = vfs_llseek(file, off, whence);
    mutex_unlock(&file->f_pos_lock);
    return ret;
}

/* lseek: a new position that does not fit the 32-bit off_t is -EOVERFLOW,
 * and the file is left there, as Linux's ksys_lseek on i386 (a program
 * asks _llseek for such positions). */
long sys_lseek(unsigned int fd, long offset, unsigned int whence)
{
    struct file *file = fget(fd);
    if (!file)
        return -EBADF;
    loff_t ret = do_lseek(file, offset, whence);
    if (ret > (loff_t)MAX_NON_LFS)
        ret = -EOVERFLOW;
    fput(file);
    return (long)ret;
}

/* _llseek: the 64-bit result goes through a user pointer.  If it cannot be
 * stored the call is -EFAULT, the file moved all the same (Linux's
 * sys_llseek stores the result after vfs_llseek). */
long sys_llseek(unsigned int fd, unsigned long offset_high, unsigned long offset_low,
                loff_t *result, unsigned int whence)
{
    struct file *file = fget(fd);
    if (!file)
        return -EBADF;
    loff_t pos = do_lseek(file, make_pos(offset_low, offset_high), whence);
    long ret = 0;
    if (pos < 0)
        ret = (long)pos;
    else if (copy_to_user(result, &pos, sizeof pos))
        ret = -EFAULT;
    fput(file);
    return ret;
}

/* ---- sendfile: copy between two files inside the kernel ------------------
 * Linux does it with splice and pipe buffers; we bounce each chunk through
 * one kernel page: read from in (at *offset, or at in's f_pos), write all of
 * it to out at out's f_pos, repeat.  The input offset moves by what was
 * written.  Simplification: when in has no position (a pipe) and out takes
 * less than a chunk, the rest of that chunk is lost (Linux would keep it in
 * the pipe); out is a regular file, a tty or a pipe, which all take it all.
 *
 * One open file as both in and out (sendfile(fd, fd, ...)): its f_pos_lock
 * is taken once, here, and the writes go through rw_at_fpos under it, never
 * through do_rw, which would take the same mutex again.  The answer is
 * Linux's (checked on 6.18): the bytes read at the input offset are written
 * at f_pos, both move, and the call returns the count; the input offset is
 * stored last, so with offset NULL f_pos ends at the input's end.  Like
 * Linux, an O_APPEND output is -EINVAL. */
static long do_sendfile(int out_fd, int in_fd, loff_t *ppos, size_t count)
{
    struct file *in = fget(in_fd), *out = fget(out_fd);
    long ret = -EBADF;
    char *buf = NULL;
    if (!in || !out || !(in->f_mode & FMODE_READ) || !(out->f_mode & FMODE_WRITE))
        goto out;
    ret = -EINVAL;
    if (out->f_flags & O_APPEND)
        goto out;
    ret = -ENOMEM;
    if (!(buf = kmalloc(PAGE_SIZE, GFP_KERNEL)))
        goto out;
    if (count > MAX_RW_COUNT)
        count = MAX_RW_COUNT;
    int seekable = has_pos(in);
    int lock = !ppos && seekable;
    if (lock)
        mutex_lock(&in->f_pos_lock);
    loff_t pos = ppos ? *ppos : seekable ? in->f_pos : 0;
    size_t done = 0;
    ret = 0;
    while (done < count) {
        size_t want = min(count - done, (size_t)PAGE_SIZE);
        struct kvec v = { buf, want };
        struct iov_iter it;
        iov_iter_kvec(&it, READ, &v, 1, want);
        loff_t rpos = pos;
        ssize_t n = seekable ? vfs_read(in, &it, &rpos) : do_rw(in, &it, NULL, 0, 1);
        if (n <= 0) {
            ret = n;
            break;
        }
        struct kvec wv = { buf, n };
        iov_iter_kvec(&it, WRITE, &wv, 1, n);
        ssize_t w = out == in && lock ? rw_at_fpos(out, &it, 1) : do_rw(out, &it, NULL, 1, 1);
        if (w <= 0) {
            ret = w;
            break;
        }
        done += w;
        pos += w;
        if (w < n || fatal_signal_pending(current))
            break;
    }
    if (ppos)
        *ppos = pos;
    else if (seekable)
        in->f_pos = pos;
    if (lock)
        mutex_unlock(&in->f_pos_lock);
    if (done)
        ret = done;                    /* an error after some bytes: the bytes */
out:
    kfree(buf);
    if (in)
        fput(in);
    if (out)
        fput(out);
    return ret;
}

/* The offset argument: NULL (in's f_pos), else the input offset in user
 * memory, a long for sendfile (off32) or a loff_t for sendfile64 (off64),
 * read before the copy and given the offset after it. */
static long sendfile_at(int out_fd, int in_fd, long __user *off32, loff_t __user *off64,
                        size_t count)
{
    loff_t pos;
    long off;
    if (!off32 && !off64)
        return do_sendfile(out_fd, in_fd, NULL, count);
    if (off32 ? get_user(off, off32) : get_user(pos, off64))
        return -EFAULT;
    if (off32)
        pos = off;
    if (pos < 0)
        return -EINVAL;
    long ret = do_sendfile(out_fd, in_fd, &pos, count);
    if (ret >= 0 && (off32 ? put_user((long)pos, off32) : put_user(pos, off64)))
        return -EFAULT;
    return ret;
}

long sys_sendfile64(int out_fd, int in_fd, loff_t __user *offset, size_t count)
{
    return sendfile_at(out_fd, in_fd, NULL, offset, count);
}

long sys_sendfile(int out_fd, int in_fd, long __user *offset, size_t count)
{
    return sendfile_at(out_fd, in_fd, offset, NULL, count);
}
