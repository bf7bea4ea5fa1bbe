/* kernel/itimer.c: the real-time interval timer (process layer), as
 * Linux's kernel/time/itimer.c: alarm(2), setitimer(2) and getitimer(2)
 * with ITIMER_REAL, which sends SIGALRM when it runs out and, if it has an
 * interval, starts again.  Sits on the timer tick (it_real_tick, called
 * from the scheduler's tick hook, interrupts off) and on send_signal.
 *
 * The timer counts ticks (1/HZ s; Linux's is an hrtimer in nanoseconds):
 *
 *   armed at jiffies J for n ticks (the value rounded up to whole ticks):
 *   it_real_expires = J + n + 1      (+1: the tick J is partly over, and a
 *                                     timer may not fire early)
 *   remaining at jiffies K = it_real_expires - K - 1 ticks (at least 1 us
 *                                     while armed: 0 means disarmed)
 *
 * so alarm(5) read back at once is 5.000000 s.  The interval is kept as
 * given, in microseconds, and reported as given.  At expiry the signal goes
 * out and an interval re-arms the timer from the expiry it replaces (from
 * now if ticks were missed); Linux re-arms when the SIGALRM is dequeued.
 *
 * Per process (struct task_struct): not inherited by fork, kept by execve
 * (POSIX).  Simplification on purpose: ITIMER_VIRTUAL and ITIMER_PROF (user
 * and user+system CPU time) are not modelled: -EINVAL.
 *
 * A value longer than IT_REAL_MAX_TICKS (about 124 days: time_after()
 * compares 32-bit jiffies) is armed in steps: it_real_expires holds the
 * first step, it_real_far the ticks after it, and the tick moves the next
 * step in when one runs out, so alarm(INT_MAX) reads back as INT_MAX
 * seconds, as Linux's 64-bit hrtimer does.  An interval is cut to
 * IT_REAL_MAX_TICKS.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <timer.h>
#include <syscalls.h>
#include <asm/irqflags.h>
#include <asm/uaccess.h>

#define ITIMER_REAL    0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF    2

#define USEC_PER_SEC      1000000UL
#define USEC_PER_TICK     (USEC_PER_SEC / HZ)
#define IT_REAL_MAX_TICKS 0x3fffffffUL /* time_after() needs < 2^31 */

/* Linux i386's struct itimerval (two struct timevals of 32-bit longs) */
struct itimerval32 {
    long it_interval_sec, it_interval_usec;
    long it_value_sec, it_value_usec;
};

static bool timeval_valid(long sec, long usec)
{
    return sec >= 0 && usec >= 0 && usec < (long)USEC_PER_SEC;
}

/* A time in microseconds as ticks, rounded up (a timer is never early). */
static unsigned long long usecs_to_ticks64(unsigned long long usecs)
{
    return (usecs + USEC_PER_TICK - 1) / USEC_PER_TICK;
}

static unsigned long usecs_to_ticks(unsigned long long usecs)
{
    unsigned long long t = usecs_to_ticks64(usecs);
    return t > IT_REAL_MAX_TICKS ? IT_REAL_MAX_TICKS : (unsigned long)t;
}

/* The timer of t as (value, interval) in microseconds; value 0: disarmed.
 * Interrupts off. */
static void it_real_get(struct task_struct *t, unsigned long long *value,
                        unsigned long long *interval)
{
    *interval = t->it_real_incr_us;
    *value = 0;
    if (t->it_real_armed) {
        long left = (long)(t->it_real_expires - jiffies) - 1;
        unsigned long long ticks = (left > 0 ? (unsigned long long)left : 0) + t->it_real_far;
        *value = ticks ? ticks * USEC_PER_TICK : 1;
    }
}

/* Arm (value > 0) or disarm (0) current's timer; the old setting in
 * *ovalue, *ointerval (microseconds). */
static void it_real_set(unsigned long long value, unsigned long long interval,
                        unsigned long long *ovalue, unsigned long long *ointerval)
{
    struct task_struct *t = current;
    unsigned long flags = local_irq_save();
    it_real_get(t, ovalue, ointerval);
    t->it_real_incr_us = interval;
    t->it_real_armed = value != 0;
    t->it_real_far = 0;
    if (value) {
        unsigned long long ticks = usecs_to_ticks64(value);
        unsigned long first = ticks > IT_REAL_MAX_TICKS ? IT_REAL_MAX_TICKS : (unsigned long)ticks;
        t->it_real_expires = jiffies + first + 1;
        t->it_real_far = ticks - first;
    }
    local_irq_restore(flags);
}

/* The tick (interrupts off): SIGALRM to every process whose timer ran out;
 * re-arm those with an interval. */
void it_real_tick(void)
{
    struct task_struct *t;
    list_for_each_entry(t, &task_list, tasks) {
        if (!t->it_real_armed || time_before(jiffies, t->it_real_expires))
            continue;
        if (t->it_real_far) {          /* a long timer: its next step */
            unsigned long step = t->it_real_far > IT_REAL_MAX_TICKS ? IT_REAL_MAX_TICKS
                                                                     : (unsigned long)t->it_real_far;
            t->it_real_expires += step;
            t->it_real_far -= step;
            continue;
        }
        if (t->it_real_incr_us) {
            t->it_real_expires += usecs_to_ticks(t->it_real_incr_us);
            if (!time_after(t->it_real_expires, jiffies))
                t->it_real_expires = jiffies + usecs_to_ticks(t->it_real_incr_us);
        } else {
            t->it_real_armed = 0;
        }
        if (t->is_process && !t->exit_state) {
            struct kern_siginfo info = { .code = SI_KERNEL };   /* as Linux's it_real_fn */
            send_signal(t, SIGALRM, &info);
        }
    }
}

long sys_getitimer(int which, void *value)
{
    if (which != ITIMER_REAL)
        return -EINVAL;                /* VIRTUAL, PROF: not modelled */
    unsigned long long v, i;
    unsigned long flags = local_irq_save();
    it_real_get(current, &v, &i);
    local_irq_restore(flags);
    struct itimerval32 it = { i / USEC_PER_SEC, i % USEC_PER_SEC, v / USEC_PER_SEC,
                              v % USEC_PER_SEC };
    return copy_to_user(value, &it, sizeof it) ? -EFAULT : 0;
}

/* setitimer(2): the new value is read first (-EFAULT, -EINVAL for a bad
 * timeval), then which is checked; a NULL value disarms (Linux's
 * "misfeature"). */
long sys_setitimer(int which, const void *value, void *ovalue)
{
    struct itimerval32 it = { 0, 0, 0, 0 };
    if (value && copy_from_user(&it, value, sizeof it))
        return -EFAULT;
    if (!timeval_valid(it.it_value_sec, it.it_value_usec) ||
        !timeval_valid(it.it_interval_sec, it.it_interval_usec))
        return -EINVAL;
    if (which != ITIMER_REAL)
        return -EINVAL;                /* VIRTUAL, PROF: not modelled */
    unsigned long long v, i;
    it_real_set((unsigned long long)it.it_value_sec * USEC_PER_SEC + it.it_value_usec,
                (unsigned long long)it.it_interval_sec * USEC_PER_SEC + it.it_interval_usec,
                &v, &i);
    struct itimerval32 old = { i / USEC_PER_SEC, i % USEC_PER_SEC, v / USEC_PER_SEC,
                               v % USEC_PER_SEC };
    if (ovalue && copy_to_user(ovalue, &old, sizeof old))
        return -EFAULT;
    return 0;
}

/* alarm(2): a one-shot ITIMER_REAL of seconds (0 disarms); the seconds
 * that were left, rounded to the nearest and never 0 for a pending timer
 * (Linux's alarm_setitimer). */
long sys_alarm(unsigned int seconds)
{
    unsigned long long v, i;
    if (seconds > 0x7fffffffU)          /* INT_MAX, as Linux on 32 bits */
        seconds = 0x7fffffffU;
    it_real_set((unsigned long long)seconds * USEC_PER_SEC, 0, &v, &i);
    unsigned long secs = v / USEC_PER_SEC, usecs = v % USEC_PER_SEC;
    if ((!secs && usecs) || usecs >= USEC_PER_SEC / 2)
        secs++;
    return secs;
}
