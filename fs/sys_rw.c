/* fs/sys_rw.c: read(2), write(2) and friends: the system-call layer over
 * vfs_read/vfs_write (fs/read_write.c).  Owns turning user buffers into an
 * ITER_IOVEC iov_iter, and the file offset: a regular file's f_pos is
 * updated under f_pos_lock only by the amount actually transferred, so a
 * call that fails with -EFAULT leaves it unchanged.
 *
 * The path of read(fd, buf, n):
 *   sys_read -> fget(fd) -> access_ok(buf, n) -> iov_iter_init(ITER_IOVEC)
 *     -> vfs_read(file, iter, &pos) -> f_op->read_iter (page cache, pipe,
 *        tty...) -> copy_to_iter -> copy_to_user -> f_pos = pos -> fput
 */
#include <kernel.h>
#include <errno.h>
#include <slab.h>
#include <fs.h>
#include <uio.h>
#include <fdtable.h>
#include <fs_syscalls.h>
#include <asm/uaccess.h>
#include <signal.h>

#define UIO_MAXIOV 1024
#define MAX_RW_COUNT (0x7fffffff & ~(PAGE_SIZE - 1))   /* Linux's cap on one call */

static int has_pos(struct file *file)
{
    mode_t m = file->f_inode ? file->f_inode->i_mode : 0;
    return S_ISREG(m) || S_ISDIR(m) || S_ISBLK(m);
}

/* The common tail: do the transfer at *ppos (or f_pos when ppos is NULL). */
static ssize_t do_rw(struct file *file, struct iov_iter *it, loff_t *ppos, int write)
{
    ssize_t ret;
    if (!(file->f_mode & (write ? FMODE_WRITE : FMODE_READ)))
        return -EBADF;
    if (ppos) {                        /* pread/pwrite: f_pos untouched */
        if (!has_pos(file))
            return -ESPIPE;
        if (*ppos < 0)
            return -EINVAL;
        return write ? vfs_write(file, it, ppos) : vfs_read(file, it, ppos);
    }
    int lock = has_pos(file);
    if (lock)
        mutex_lock(&file->f_pos_lock);
    loff_t pos = file->f_pos;
    ret = write ? vfs_write(file, it, &pos) : vfs_read(file, it, &pos);
    if (ret >= 0)
        file->f_pos = pos;
    if (lock)
        mutex_unlock(&file->f_pos_lock);
    return ret;
}

static ssize_t rw_one(unsigned int fd, void *buf, size_t count, loff_t *ppos, int write)
{
    struct file *file = fget(fd);
    if (!file)
        return -EBADF;
    ssize_t ret;
    if (count > MAX_RW_COUNT)
        count = MAX_RW_COUNT;
    if (!access_ok(buf, count)) {
        ret = -EFAULT;
    } else {
        struct iovec iov = { buf, count };
        struct iov_iter it;
        iov_iter_init(&it, write ? WRITE : READ, &iov, 1, count);
        ret = do_rw(file, &it, ppos, write);
    }
    fput(file);
    return ret;
}

long sys_read(unsigned int fd, char *buf, size_t count) { return rw_one(fd, buf, count, NULL, 0); }
long sys_write(unsigned int fd, const char *buf, size_t count)
{ return rw_one(fd, (void *)buf, count, NULL, 1); }

static loff_t make_pos(unsigned long lo, unsigned long hi) { return (loff_t)(((uint64_t)hi << 32) | lo); }

long sys_pread64(unsigned int fd, char *buf, size_t count, unsigned long lo, unsigned long hi)
{
    loff_t pos = make_pos(lo, hi);
    return rw_one(fd, buf, count, &pos, 0);
}

long sys_pwrite64(unsigned int fd, const char *buf, size_t count, unsigned long lo, unsigned long hi)
{
    loff_t pos = make_pos(lo, hi);
    return rw_one(fd, (void *)buf, count, &pos, 1);
}

/* Copy a user iovec array in and check it, as Linux's import_iovec:
 * -EINVAL for too many segments or a total past ssize_t, -EFAULT for an
 * unreadable array or a segment outside user space. */
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
        if ((ssize_t)iov[i].iov_len < 0 || iov[i].iov_len > MAX_RW_COUNT - sum) {
            kfree(iov);
            return -EINVAL;
        }
        if (!access_ok(iov[i].iov_base, iov[i].iov_len)) {
            kfree(iov);
            return -EFAULT;
        }
        sum += iov[i].iov_len;
    }
    *out = iov;
    *total = sum;
    return 0;
}

static long rw_vec(unsigned int fd, const struct iovec *uvec, unsigned long vlen, int write)
{
    struct file *file = fget(fd);
    if (!file)
        return -EBADF;
    struct iovec *iov;
    size_t total;
    long ret = import_iovec(uvec, vlen, &iov, &total);
    if (ret == 0) {
        struct iov_iter it;
        iov_iter_init(&it, write ? WRITE : READ, iov, vlen, total);
        ret = do_rw(file, &it, NULL, write);
        kfree(iov);
    }
    fput(file);
    return ret;
}

long sys_readv(unsigned int fd, const struct iovec *vec, unsigned long vlen)
{ return rw_vec(fd, vec, vlen, 0); }
long sys_writev(unsigned int fd, const struct iovec *vec, unsigned long vlen)
{ return rw_vec(fd, vec, vlen, 1); }

static loff_t do_lseek(struct file *file, loff_t off, unsigned int whence)
{
    if (whence > SEEK_END)
        return -EINVAL;
    if (file->f_inode && S_ISFIFO(file->f_inode->i_mode))
        return -ESPIPE;
    mutex_lock(&file->f_pos_lock);
    loff_t ret = vfs_llseek(file, off, whence);
    mutex_unlock(&file->f_pos_lock);
    return ret;
}

long sys_lseek(unsigned int fd, long offset, unsigned int whence)
{
    struct file *file = fget(fd);
    if (!file)
        return -EBADF;
    loff_t old = file->f_pos;
    loff_t ret = do_lseek(file, offset, whence);
    if (ret > 0x7fffffffLL) {          /* does not fit off_t: use _llseek */
        file->f_pos = old;
        ret = -EOVERFLOW;
    }
    fput(file);
    return (long)ret;
}

/* _llseek: the 64-bit result goes through a user pointer.  If it cannot be
 * stored, the offset is put back: -EFAULT with nothing changed. */
long sys_llseek(unsigned int fd, unsigned long offset_high, unsigned long offset_low,
                loff_t *result, unsigned int whence)
{
    struct file *file = fget(fd);
    if (!file)
        return -EBADF;
    long ret;
    if (!access_ok(result, sizeof *result)) {
        ret = -EFAULT;
    } else {
        loff_t old = file->f_pos;
        loff_t pos = do_lseek(file, make_pos(offset_low, offset_high), whence);
        ret = 0;
        if (pos < 0)
            ret = (long)pos;
        else if (copy_to_user(result, &pos, sizeof pos)) {
            file->f_pos = old;
            ret = -EFAULT;
        }
    }
    fput(file);
    return ret;
}
