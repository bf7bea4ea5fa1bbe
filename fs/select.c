/* fs/select.c: poll(2) and the select family (Linux's fs/select.c keeps
 * select, poll and their wait-queue machinery).  Sits on the fd table and
 * file_operations.poll.
 *
 * Simplification on purpose: files register no wait queues (Linux's
 * poll_table and poll_wait).  While nothing is ready, poll and select sleep
 * one timer tick (10 ms) and ask every file again.  That costs a few
 * wake-ups a second for a shell waiting at its prompt and keeps each file's
 * poll a three-line function; the answer is the same.
 *
 *   sys_poll(ufds, nfds, timeout_ms)
 *     copy the pollfds in (-EFAULT; -EINVAL past POLL_MAX_FDS)
 *     deadline: timeout_ms rounded up to ticks, + 1 (never returns early)
 *     loop: revents = f_op->poll(file) & (events | POLLERR | POLLHUP),
 *           POLLNVAL for an fd that is not open, 0 for fd < 0
 *           some ready or timeout 0 or expired -> copy revents out, return count
 *           a signal pending -> -EINTR
 *           sleep one tick
 *
 * The select family, five entry points on i386, one core (Linux 6.1's
 * core_sys_select and do_select):
 *
 *   select (82)            one argument: struct sel_arg_struct {n, inp,
 *                          outp, exp, tvp}            (sys_old_select)
 *   _newselect (142)       n, inp, outp, exp, struct timeval *  (sys_select)
 *   pselect6 (308)         n, inp, outp, exp, struct timespec (32-bit) *,
 *                          {const sigset_t *ss; size_t ss_len} *
 *   pselect6_time64 (413)  the same with a 64-bit struct timespec
 *
 *   timeout: NULL waits forever; {0, 0} does not wait; a negative second
 *     or a fraction out of range is -EINVAL (a timeval's tv_usec of a
 *     second or more is carried into tv_sec first, as Linux)
 *   pselect's mask: replaces the blocked set for the call, as
 *     rt_sigsuspend: kept until the signal that interrupted the call is
 *     delivered (restore_sigmask), restored at once otherwise
 *   core: nfds < 0 -> -EINVAL; nfds past the table -> NR_OPEN (Linux
 *     clamps to its table's size too); the three sets copied in
 *     (FDS_BYTES(n): whole 32-bit words; -EFAULT), then every set bit below
 *     n must be an open fd (-EBADF) before anything waits
 *   loop: ready for read  = POLLIN | POLLRDNORM | POLLRDBAND | POLLHUP | POLLERR
 *               for write = POLLOUT | POLLWRNORM | POLLWRBAND | POLLERR
 *               exception = POLLPRI
 *     (a regular file: read and write, DEFAULT_POLLMASK); the result is
 *     the number of bits set in the three result sets
 *     something ready, or the time is up -> the result sets replace the
 *     caller's (only on success; -EFAULT if they cannot be written)
 *     a signal pending -> -ERESTARTNOHAND (EINTR for a handler, the call
 *     restarted otherwise)
 *   write-back (poll_select_finish): a timeout other than {0, 0} is
 *     rewritten with the time left (0 once expired), whatever the result;
 *     if it cannot be written, -ERESTARTNOHAND becomes -EINTR (the call
 *     could not restart with the right time).  The time left counts from
 *     the tick the call started in (Vellum's clocks have the tick's
 *     resolution); the wait itself never ends before the timeout.
 */
#include <kernel.h>
#include <string.h>
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

/* ---- the select family ---------------------------------------------------- */

#define NSEC_PER_SEC  1000000000L
#define NSEC_PER_USEC 1000L
#define NSEC_PER_TICK (NSEC_PER_SEC / HZ)

/* Linux's POLLIN_SET, POLLOUT_SET, POLLEX_SET: which events make an fd
 * ready in each of select's three sets. */
#define POLLRDBAND 0x0080
#define POLLWRBAND 0x0200
#define POLLIN_SET  (POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET (POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET  (POLLPRI)

#define NFDBITS         32             /* bits in one word of an fd_set (i386's long) */
#define FDS_WORDS(n)    (((n) + NFDBITS - 1) / NFDBITS)
#define FDS_BYTES(n)    (FDS_WORDS(n) * sizeof(unsigned long))
#define SEL_WORDS       FDS_WORDS(NR_OPEN)

/* The three sets asked for and the three answers (Linux's fd_set_bits). */
struct fd_set_bits {
    unsigned long in[SEL_WORDS], out[SEL_WORDS], ex[SEL_WORDS];
    unsigned long res_in[SEL_WORDS], res_out[SEL_WORDS], res_ex[SEL_WORDS];
};

/* A select time-out: {sec, nsec} as asked, and the tick the call began in
 * (Linux keeps the end time; here the end is start + the timeout). */
struct sel_timeout {
    long sec, nsec;
    unsigned long start;               /* jiffies when the call began */
};

/* Linux's poll_select_set_timeout: -EINVAL for a negative second or a
 * fraction outside [0, 1 s). */
static int sel_set_timeout(struct sel_timeout *to, long long sec, long long nsec)
{
    if (sec < 0 || nsec < 0 || nsec >= NSEC_PER_SEC)
        return -EINVAL;
    to->sec = sec > 0x7fffffffLL ? 0x7fffffffL : (long)sec;
    to->nsec = (long)nsec;
    to->start = jiffies;
    return 0;
}

/* Copy one set in: NULL is the empty set (Linux's get_fd_set). */
static int get_fd_set(unsigned int n, const unsigned long __user *ufds, unsigned long *fds)
{
    memset(fds, 0, SEL_WORDS * sizeof *fds);
    if (!ufds)
        return 0;
    return copy_from_user(fds, ufds, FDS_BYTES(n)) ? -EFAULT : 0;
}

/* Copy one answer out, if the caller gave that set (Linux's set_fd_set). */
static int set_fd_set(unsigned int n, unsigned long __user *ufds, const unsigned long *fds)
{
    if (!ufds)
        return 0;
    return copy_to_user(ufds, fds, FDS_BYTES(n)) ? -EFAULT : 0;
}

/* Every fd asked about, below n, must be open (Linux's max_select_fd):
 * 0 or -EBADF. */
static int check_select_fds(unsigned int n, const struct fd_set_bits *fds)
{
    for (unsigned int fd = 0; fd < n; fd++) {
        unsigned long bit = 1UL << (fd % NFDBITS), w = fd / NFDBITS;
        if (!((fds->in[w] | fds->out[w] | fds->ex[w]) & bit))
            continue;
        struct file *f = fget(fd);
        if (!f)
            return -EBADF;
        fput(f);
    }
    return 0;
}

/* One pass over the sets: fills the answers, returns how many bits they
 * hold (an fd ready for read and for write counts twice, as Linux). */
static int select_once(unsigned int n, struct fd_set_bits *fds)
{
    int count = 0;
    for (unsigned int fd = 0; fd < n; fd++) {
        unsigned long bit = 1UL << (fd % NFDBITS), w = fd / NFDBITS;
        if (!((fds->in[w] | fds->out[w] | fds->ex[w]) & bit))
            continue;
        struct file *f = fget(fd);
        if (!f)
            continue;                  /* closed since the check: Linux skips it too */
        unsigned int mask = vfs_poll(f);
        fput(f);
        if ((fds->in[w] & bit) && (mask & POLLIN_SET))
            fds->res_in[w] |= bit, count++;
        if ((fds->out[w] & bit) && (mask & POLLOUT_SET))
            fds->res_out[w] |= bit, count++;
        if ((fds->ex[w] & bit) && (mask & POLLEX_SET))
            fds->res_ex[w] |= bit, count++;
    }
    return count;
}

/* Linux's core_sys_select: to NULL waits forever.  The count of ready
 * bits, 0 when the time ran out, or -EINVAL, -EFAULT, -EBADF, -ENOMEM,
 * -ERESTARTNOHAND (a signal). */
static long core_sys_select(int n, unsigned long __user *inp, unsigned long __user *outp,
                            unsigned long __user *exp, const struct sel_timeout *to)
{
    if (n < 0)
        return -EINVAL;
    if (n > NR_OPEN)
        n = NR_OPEN;                   /* Linux: the fd table's size */
    struct fd_set_bits *fds = kzalloc(sizeof *fds, GFP_KERNEL);
    if (!fds)
        return -ENOMEM;
    long ret;
    if ((ret = get_fd_set(n, inp, fds->in)) || (ret = get_fd_set(n, outp, fds->out)) ||
        (ret = get_fd_set(n, exp, fds->ex)) || (ret = check_select_fds(n, fds)))
        goto out;

    /* The deadline as poll's: the timeout rounded up to ticks, + 1 for the
     * tick already under way; past MAX_SCHEDULE_TIMEOUT, forever. */
    bool forever = !to, no_wait = to && !to->sec && !to->nsec;
    unsigned long deadline = 0;
    if (to && !no_wait) {
        if (to->sec > MAX_SCHEDULE_TIMEOUT / HZ - 2)
            forever = true;
        else
            deadline = to->start + to->sec * HZ +
                       DIV_ROUND_UP((unsigned long)to->nsec, NSEC_PER_TICK) + 1;
    }
    for (;;) {
        ret = select_once(n, fds);
        if (ret || no_wait || (!forever && time_after_eq(jiffies, deadline)))
            break;
        if (signal_pending(current)) {
            ret = -ERESTARTNOHAND;
            goto out;
        }
        set_current_state(TASK_INTERRUPTIBLE);
        schedule_timeout(1);
        set_current_state(TASK_RUNNING);
    }
    if (!ret && signal_pending(current)) {
        ret = -ERESTARTNOHAND;         /* as Linux: nothing ready and a signal */
        goto out;
    }
    if (set_fd_set(n, inp, fds->res_in) || set_fd_set(n, outp, fds->res_out) ||
        set_fd_set(n, exp, fds->res_ex))
        ret = -EFAULT;
out:
    kfree(fds);
    return ret;
}

/* How the caller's time-out is laid out (Linux's enum poll_time_type). */
enum sel_time_type {
    PT_TIMEVAL,                        /* struct timeval: 2 x 32 bits, microseconds */
    PT_OLD_TIMESPEC,                   /* struct timespec: 2 x 32 bits */
    PT_TIMESPEC,                       /* struct __kernel_timespec: 2 x 64 bits */
};

/* Read the caller's time-out: -EFAULT, -EINVAL or 0. */
static int get_sel_timeout(struct sel_timeout *to, const void __user *utp, enum sel_time_type type)
{
    switch (type) {
    case PT_TIMEVAL: {
        long tv[2];
        if (copy_from_user(tv, utp, sizeof tv))
            return -EFAULT;
        /* As Linux: whole seconds in tv_usec are carried first, so a
         * negative tv_usec is what makes this EINVAL. */
        return sel_set_timeout(to, (long long)tv[0] + tv[1] / 1000000,
                               (long long)(tv[1] % 1000000) * NSEC_PER_USEC);
    }
    case PT_OLD_TIMESPEC: {
        long ts[2];
        if (copy_from_user(ts, utp, sizeof ts))
            return -EFAULT;
        return sel_set_timeout(to, ts[0], ts[1]);
    }
    default: {
        long long ts[2];
        if (copy_from_user(ts, utp, sizeof ts))
            return -EFAULT;
        return sel_set_timeout(to, ts[0], (long)ts[1]);   /* the padding dropped, as Linux */
    }
    }
}

/* The time left at tick now: the time-out less the ticks since the call
 * began, 0 once past (Linux's end time less ktime_get_ts64). */
static void sel_time_left(const struct sel_timeout *to, unsigned long now, long *secp, long *nsecp)
{
    unsigned long elapsed = now - to->start;
    long sec = to->sec, nsec = to->nsec;
    if (elapsed / HZ > (unsigned long)sec) {
        sec = nsec = 0;
    } else {
        sec -= elapsed / HZ;
        nsec -= (elapsed % HZ) * NSEC_PER_TICK;
        if (nsec < 0)
            nsec += NSEC_PER_SEC, sec--;
        if (sec < 0)
            sec = nsec = 0;
    }
    *secp = sec, *nsecp = nsec;
}

/* Linux's poll_select_finish: write the time left back (not for a zero
 * time-out), and turn -ERESTARTNOHAND into -EINTR if that fails. */
static long sel_finish(const struct sel_timeout *to, void __user *utp, enum sel_time_type type,
                       long ret)
{
    if (!utp || (!to->sec && !to->nsec))
        return ret;
    long sec, nsec;
    sel_time_left(to, jiffies, &sec, &nsec);
    int err;
    if (type == PT_TIMEVAL) {
        long tv[2] = { sec, nsec / NSEC_PER_USEC };
        err = copy_to_user(utp, tv, sizeof tv);
    } else if (type == PT_OLD_TIMESPEC) {
        long ts[2] = { sec, nsec };
        err = copy_to_user(utp, ts, sizeof ts);
    } else {
        long long ts[2] = { sec, nsec };
        err = copy_to_user(utp, ts, sizeof ts);
    }
    if (err && ret == -ERESTARTNOHAND)
        ret = -EINTR;
    return ret;
}

/* Linux's kern_select: the timeval forms. */
static long kern_select(int n, unsigned long __user *inp, unsigned long __user *outp,
                        unsigned long __user *exp, void __user *tvp)
{
    struct sel_timeout to = { 0 };
    if (tvp) {
        int err = get_sel_timeout(&to, tvp, PT_TIMEVAL);
        if (err)
            return err;
    }
    long ret = core_sys_select(n, inp, outp, exp, tvp ? &to : NULL);
    return sel_finish(&to, tvp, PT_TIMEVAL, ret);
}

long sys_select(int n, unsigned long __user *inp, unsigned long __user *outp,
                unsigned long __user *exp, void __user *tvp)
{
    return kern_select(n, inp, outp, exp, tvp);
}

/* The old one-argument select (82), as Linux's sys_old_select. */
struct sel_arg_struct {
    unsigned long n;
    unsigned long __user *inp, *outp, *exp;
    void __user *tvp;
};

long sys_old_select(struct sel_arg_struct __user *arg)
{
    struct sel_arg_struct a;
    if (copy_from_user(&a, arg, sizeof a))
        return -EFAULT;
    return kern_select((int)a.n, a.inp, a.outp, a.exp, a.tvp);
}

/* Block what the caller's mask says for the call (Linux's
 * set_user_sigmask): SIGKILL and SIGSTOP never; the old mask is kept in
 * saved_sigmask and restored on the way out (restore_sigmask), after the
 * handler's frame took it if a signal is delivered. */
static int set_user_sigmask(const sigset_t __user *umask, size_t sigsetsize)
{
    if (!umask)
        return 0;
    if (sigsetsize != sizeof(sigset_t))
        return -EINVAL;
    sigset_t set;
    if (copy_from_user(&set, umask, sizeof set))
        return -EFAULT;
    sigdelset_k(&set, SIGKILL);
    sigdelset_k(&set, SIGSTOP);
    current->saved_sigmask = current->blocked;
    current->restore_sigmask = 1;
    unsigned long flags = local_irq_save();
    current->blocked = set;
    local_irq_restore(flags);
    return 0;
}

/* Linux's restore_saved_sigmask_unless(interrupted): an interrupted call
 * leaves the old mask to signal delivery, so the handler runs under the
 * call's mask and returns to the old one. */
static void restore_saved_sigmask_unless(bool interrupted)
{
    if (interrupted || !current->restore_sigmask)
        return;
    current->restore_sigmask = 0;
    unsigned long flags = local_irq_save();
    current->blocked = current->saved_sigmask;
    local_irq_restore(flags);
}

/* Linux's do_pselect; sig is the {sigset pointer, size} pair or NULL. */
static long do_pselect(int n, unsigned long __user *inp, unsigned long __user *outp,
                       unsigned long __user *exp, void __user *tsp,
                       const unsigned long __user *sig, enum sel_time_type type)
{
    unsigned long pack[2] = { 0, 0 };  /* {const sigset_t *ss; size_t ss_len} */
    if (sig && copy_from_user(pack, sig, sizeof pack))
        return -EFAULT;
    struct sel_timeout to = { 0 };
    if (tsp) {
        int err = get_sel_timeout(&to, tsp, type);
        if (err)
            return err;
    }
    int err = set_user_sigmask((const sigset_t __user *)pack[0], pack[1]);
    if (err)
        return err;
    long ret = core_sys_select(n, inp, outp, exp, tsp ? &to : NULL);
    restore_saved_sigmask_unless(ret == -ERESTARTNOHAND);
    return sel_finish(&to, tsp, type, ret);
}

long sys_pselect6(int n, unsigned long __user *inp, unsigned long __user *outp,
                  unsigned long __user *exp, void __user *tsp, const unsigned long __user *sig)
{
    return do_pselect(n, inp, outp, exp, tsp, sig, PT_OLD_TIMESPEC);
}

long sys_pselect6_time64(int n, unsigned long __user *inp, unsigned long __user *outp,
                         unsigned long __user *exp, void __user *tsp,
                         const unsigned long __user *sig)
{
    return do_pselect(n, inp, outp, exp, tsp, sig, PT_TIMESPEC);
}
