/* fs/standins.c: TEMPORARY weak stand-ins for what the files layer uses
 * from the uaccess and proc branches of issue 4 before they are merged, so
 * that it links and its kernel tests run.  Deleted at the merge. */
#include <kernel.h>
#include <errno.h>
#include <slab.h>
#include <fs.h>

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

