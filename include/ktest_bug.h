/* include/ktest_bug.h: what the kernel's own reports tell the ktest runner
 * (kernel/test/ktest.c), as Linux's include/kunit/test-bug.h lets UBSAN fail
 * the running KUnit test.  Included by production code; in the production
 * kernel (no CONFIG_KTEST) the call is an empty inline.
 *
 * ktest_stuck(REPORT, TASK): a report that a test cannot come back from
 * was just printed (a soft lockup, a hung-task report, a self-deadlock).  In
 * the test kernel, while a ktest runs, it fails that test with the line
 *     ktest: FAIL SUITE.NAME (REPORT: the boot ends here)
 * then prints "ktest: aborted ..." and leaves QEMU at once (failure status),
 * so a hang costs seconds of guest time instead of the host's time-out.
 * TASK NULL: the CPU is stuck, whoever the test is; otherwise only if TASK
 * is the task running the tests (a kthread that deadlocks on purpose, as
 * the self-deadlock tests make one, does not stop the test that watches it).
 * Returns if no test is running or TASK is another task.  Any context,
 * the timer interrupt included. */
#ifndef _KTEST_BUG_H
#define _KTEST_BUG_H

struct task_struct;

#ifdef CONFIG_KTEST
void ktest_stuck(const char *report, struct task_struct *task);
#else
static inline void ktest_stuck(const char *report, struct task_struct *task) { }
#endif
#endif
