/* fs/read_write.c: read, write, seek and readdir on an open file.  Checks
 * the open mode and hands over to the file's f_op (for page-cache files:
 * generic_file_read_iter / generic_file_write_iter in mm/filemap.c).
 * kernel_read/kernel_write wrap a kernel buffer in an ITER_KVEC, which the
 * write path recognises as a source that cannot fault.
 */
#include <kernel.h>
#include <errno.h>
#include <uio.h>
#include "internal.h"

ssize_t vfs_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
    if (!file)
        return -EBADF;
    if (!(file->f_mode & FMODE_READ))
        return -EBADF;
    if (S_ISDIR(file->f_inode->i_mode))
        return -EISDIR;
    if (!file->f_op || !file->f_op->read_iter)
        return -EINVAL;
    return file->f_op->read_iter(file, to, pos);
}

ssize_t vfs_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
    if (!file)
        return -EBADF;
    if (!(file->f_mode & FMODE_WRITE))
        return -EBADF;
    if (!file->f_op || !file->f_op->write_iter)
        return -EINVAL;
    return file->f_op->write_iter(file, from, pos);
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

loff_t generic_file_llseek(struct file *file, loff_t off, int whence)
{
    loff_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = file->f_pos; break;
    case SEEK_END: base = file->f_inode->i_size; break;
    default: return -EINVAL;
    }
    if (base + off < 0)
        return -EINVAL;
    file->f_pos = base + off;
    return file->f_pos;
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
    ctx->pos = file->f_pos;
    int err = file->f_op->iterate(file, ctx);
    file->f_pos = ctx->pos;
    mutex_unlock(&inode->i_mutex);
    return err;
}
