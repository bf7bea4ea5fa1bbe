/* fs/select.c: poll(2) (Linux's fs/select.c keeps select, poll and their
 * wait-queue machinery).  Sits on the fd table and file_operations.poll.
 *
 * Simplification on purpose: files register no wait queues (Linux's
 * poll_table and poll_wait).  While nothing is ready, poll sleeps one timer
 * tick (10 ms) and asks every file again.  That costs a few wake-ups a
 * second for a shell waiting at its prompt and keeps each file's poll a
 * three-line function; the answer is the same.
 *
 *   sys_poll(ufds, nfds, timeout_ms)
 *     copy the pollfds in (-EFAULT; -EINVAL past POLL_MAX_FDS)
 *     deadline: timeout_ms rounded up to ticks, + 1 (never returns early)
 *     loop: revents = f_op->poll(file) & (events | POLLERR | POLLHUP),
 *           POLLNVAL for an fd that is not open, 0 for fd < 0
 *           some ready or timeout 0 or expired -> copy revents out, return count
 *           a signal pending -> -EINTR
 *           sleep one tick
 */
#include <kernel.h>
#include <errno.h>
#include <slab.h>
#include <sched.h>
#include <signal.h>
#include <timer.h>
#include <fs.h>
#include <fdtable.h>
#include <poll.h>
#include <syscalls.h>
#include <fs_syscalls.h>
#include <asm/uaccess.h>
#include "internal.h"

#define POLL_MAX_FDS 256               /* Linux: RLIMIT_NOFILE; ours is a small table */

/* The events of one file now (Linux's vfs_poll). */
unsigned int vfs_poll(struct file *file)
{
    return file->f_op && file->f_op->poll ? file->f_op->poll(file) : DEFAULT_POLLMASK;
}

/* One pass over the set: fills revents, returns how many are non-zero. */
static int poll_once(struct pollfd *fds, unsigned int nfds)
{
    int count = 0;
    for (unsigned int i = 0; i < nfds; i++) {
        unsigned int mask = 0;
        if (fds[i].fd >= 0) {
            struct file *f = fget(fds[i].fd);
            if (!f) {
                mask = POLLNVAL;
            } else {
                mask = vfs_poll(f) & ((unsigned short)fds[i].events | POLLERR | POLLHUP);
                fput(f);
            }
        }
        fds[i].revents = mask;
        if (mask)
            count++;
    }
    return count;
}

long sys_poll(struct pollfd __user *ufds, unsigned int nfds, int timeout_ms)
{
    if (nfds > POLL_MAX_FDS)
        return -EINVAL;
    struct pollfd *fds = NULL;
    if (nfds) {
        fds = kmalloc(nfds * sizeof *fds, GFP_KERNEL);
        if (!fds)
            return -ENOMEM;
        if (copy_from_user(fds, ufds, nfds * sizeof *fds)) {
            kfree(fds);
            return -EFAULT;
        }
    }
    /* timeout < 0: forever.  Otherwise at least timeout_ms: rounded up to
     * whole ticks, +1 because the current tick is partly over (as
     * nanosleep and msleep); computed without timeout_ms * HZ overflowing. */
    unsigned long ticks = 0;
    if (timeout_ms > 0)
        ticks = (unsigned long)timeout_ms / 1000 * HZ +
                DIV_ROUND_UP((unsigned long)timeout_ms % 1000 * HZ, 1000) + 1;
    unsigned long deadline = jiffies + ticks;
    long ret;
    for (;;) {
        ret = poll_once(fds, nfds);
        if (ret || timeout_ms == 0 || (timeout_ms > 0 && (long)(jiffies - deadline) >= 0))
            break;
        if (signal_pending(current)) {
            ret = -EINTR;
            break;
        }
        set_current_state(TASK_INTERRUPTIBLE);
        schedule_timeout(1);
        set_current_state(TASK_RUNNING);
    }
    if (ret >= 0)
        for (unsigned int i = 0; i < nfds; i++)
            if (put_user(fds[i].revents, &ufds[i].revents)) {
                ret = -EFAULT;
                break;
            }
    kfree(fds);
    return ret;
}
