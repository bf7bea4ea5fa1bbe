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

/* ---- uaccess stand-ins (branch uaccess): kernel-memory copies only ---- */
#include <string.h>
#include <uio.h>
#include <sched.h>
#include "files_compat.h"
__attribute__((weak)) unsigned long copy_from_user(void *to, const void *from, unsigned long n)
{
    if (!access_ok(from, n)) return n;
    memcpy(to, from, n);
    return 0;
}
__attribute__((weak)) unsigned long copy_to_user(void *to, const void *from, unsigned long n)
{
    if (!access_ok(to, n)) return n;
    memcpy(to, from, n);
    return 0;
}
__attribute__((weak)) unsigned long clear_user(void *to, unsigned long n)
{
    if (!access_ok(to, n)) return n;
    memset(to, 0, n);
    return 0;
}
__attribute__((weak)) long strncpy_from_user(char *dst, const char *src, long count)
{
    if (!access_ok(src, 1)) return -EFAULT;
    long i;
    for (i = 0; i < count; i++)
        if ((dst[i] = src[i]) == 0)
            return i;
    return count;
}

/* ---- proc stand-ins (branch proc) ---- */
__attribute__((weak)) int kill_pgrp(pid_t pgrp, int sig) { return -ESRCH; }
__attribute__((weak)) int signal_pending(struct task_struct *t) { return 0; }
__attribute__((weak)) pid_t task_pgrp_nr(struct task_struct *t) { return t->pid; }

/* ---- iov_iter stand-ins (vfs's lib/iov_iter.c): ITER_KVEC, one segment ---- */
__attribute__((weak)) size_t copy_to_iter(const void *buf, size_t n, struct iov_iter *i)
{
    n = min(n, i->count);
    memcpy((char *)i->kvec->iov_base + i->iov_offset, buf, n);
    i->iov_offset += n; i->count -= n;
    return n;
}
__attribute__((weak)) size_t copy_from_iter(void *buf, size_t n, struct iov_iter *i)
{
    n = min(n, i->count);
    memcpy(buf, (char *)i->kvec->iov_base + i->iov_offset, n);
    i->iov_offset += n; i->count -= n;
    return n;
}
__attribute__((weak)) void iov_iter_advance(struct iov_iter *i, size_t n)
{
    n = min(n, i->count);
    i->iov_offset += n; i->count -= n;
}
__attribute__((weak)) void iov_iter_kvec(struct iov_iter *i, int dir, const struct kvec *kvec,
                                         unsigned long nr_segs, size_t count)
{
    memset(i, 0, sizeof *i);
    i->type = ITER_KVEC; i->data_source = dir; i->kvec = kvec; i->nr_segs = nr_segs; i->count = count;
}
