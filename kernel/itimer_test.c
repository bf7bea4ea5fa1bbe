/* kernel/itimer_test.c: the ktests of itimer.c (test=itimer); built into
 * the test kernel only (make check), never into the production kernel.
 * The tests reach itimer.c's static functions, so this file includes it:
 * in the test kernel the two are one object (Makefile).  They run on the
 * test's kthread, whose timer fires without a signal (kthreads get none). */
#include "itimer.c"
#include <ktest.h>

#define KADDR ((void *)0xC0000000)     /* a kernel address: access_ok says no */

/* alarm's seconds left, rounded as Linux's alarm_setitimer; the interval
 * reported as given; at least 1 us left while armed. */
KTEST(itimer, alarm_rounds_and_values_as_linux)
{
    struct task_struct *t = current;
    unsigned long long v, i;
    KT_EXPECT_EQ(sys_alarm(0), 0);                   /* none */
    sys_alarm(5);
    KT_EXPECT_EQ(sys_alarm(3), 5);                   /* 4.99... rounds to 5 */
    KT_EXPECT_EQ(sys_alarm(0), 3);
    it_real_set(300000, 0, &v, &i);                  /* 0.3 s: not 0 while pending */
    KT_EXPECT_EQ(sys_alarm(0), 1);
    it_real_set(1600000, 0, &v, &i);                 /* 1.6 s: rounds to 2 */
    KT_EXPECT_EQ(sys_alarm(0), 2);
    it_real_set(2000000, 15000, &v, &i);
    it_real_set(0, 0, &v, &i);                       /* disarm: the old setting back */
    KT_EXPECT_EQ(i, 15000);                          /* not rounded to ticks */
    KT_EXPECT(v > 1000000 && v <= 2000000);
    unsigned long flags = local_irq_save();
    it_real_get(t, &v, &i);
    KT_EXPECT_EQ(v, 0);                              /* disarmed */
    t->it_real_armed = 1;
    t->it_real_expires = jiffies + 1;                /* due at the next tick */
    it_real_get(t, &v, &i);
    KT_EXPECT_EQ(v, 1);                              /* 1 us, never 0 */
    t->it_real_armed = 0;
    local_irq_restore(flags);
    KT_EXPECT_EQ(sys_getitimer(ITIMER_VIRTUAL, NULL), -EINVAL);
    KT_EXPECT_EQ(sys_setitimer(ITIMER_PROF, NULL, NULL), -EINVAL);
    KT_EXPECT_EQ(sys_getitimer(ITIMER_REAL, KADDR), -EFAULT);
    KT_EXPECT_EQ(sys_setitimer(ITIMER_REAL, KADDR, NULL), -EFAULT);
}

/* The tick ends a one-shot timer and moves a periodic one on. */
KTEST(itimer, tick_expires_once_or_every_interval)
{
    struct task_struct *t = current;
    unsigned long long v, i;
    it_real_set(10000, 0, &v, &i);                   /* one tick */
    KT_EXPECT_EQ(t->it_real_armed, 1);
    msleep(50);
    KT_EXPECT_EQ(t->it_real_armed, 0);
    it_real_set(20000, 20000, &v, &i);
    unsigned long first = t->it_real_expires;
    msleep(100);
    KT_EXPECT_EQ(t->it_real_armed, 1);
    KT_EXPECT(time_after(t->it_real_expires, first));
    KT_EXPECT(time_after(t->it_real_expires, jiffies));
    it_real_set(0, 0, &v, &i);
    KT_EXPECT_EQ(t->it_real_armed, 0);
    KT_EXPECT_EQ(i, 20000);
}

/* A timer past IT_REAL_MAX_TICKS reads back whole (alarm(INT_MAX) gives
 * INT_MAX, as Linux), and the tick moves its next step in instead of
 * firing when the first step runs out. */
KTEST(itimer, long_alarm_is_kept_whole)
{
    struct task_struct *t = current;
    sys_alarm(0x7fffffffU);
    KT_EXPECT_EQ(sys_alarm(0x3fffffffU), 0x7fffffffU);
    KT_EXPECT_EQ(sys_alarm(0), 0x3fffffffU);
    KT_EXPECT_EQ(t->it_real_armed, 0);
    sys_alarm(0x7fffffffU);
    unsigned long flags = local_irq_save();
    unsigned long long far = t->it_real_far;
    KT_EXPECT(far > 0);
    t->it_real_expires = jiffies;                    /* the first step is over */
    local_irq_restore(flags);
    msleep(30);
    KT_EXPECT_EQ(t->it_real_armed, 1);               /* still armed: the next step */
    KT_EXPECT(t->it_real_far < far);
    sys_alarm(0);
    KT_EXPECT_EQ(t->it_real_far, 0);
}
