/* fs/vfs_standin.c: TEMPORARY weak stand-ins for the VFS (branch vfs) so
 * that the files layer links and its kernel tests run before the VFS lands.
 * Same semantics as fs/open.c's get_file/filp_close.  Deleted when the vfs
 * branch is merged. */
#include <kernel.h>
#include <errno.h>
#include <slab.h>
#include <fs.h>

__attribute__((weak)) struct file *get_file(struct file *file)
{
    file->f_count++;
    return file;
}

__attribute__((weak)) int filp_close(struct file *file)
{
    if (!file)
        return -EBADF;
    if (--file->f_count > 0)
        return 0;
    if (file->f_op && file->f_op->release)
        file->f_op->release(file->f_inode, file);
    kfree(file);
    return 0;
}
