/* include/mutex.h: sleeping locks, as Linux's struct mutex.  One owner at a
 * time; waiters sleep (TASK_UNINTERRUPTIBLE).  Must not be taken in interrupt
 * context; must be released by its owner; taking one you already hold is
 * reported as a deadlock (with the owner's name) instead of hanging silently. */
#ifndef _MUTEX_H
#define _MUTEX_H
#include <wait.h>

struct mutex {
    volatile int locked;
    struct task_struct *owner;
    wait_queue_head_t wait;
    const char *name;
};
#define DEFINE_MUTEX(n) struct mutex n = { 0, NULL, __WAIT_QUEUE_HEAD_INITIALIZER(n.wait), #n }
void mutex_init(struct mutex *m);
void mutex_lock(struct mutex *m);
int mutex_trylock(struct mutex *m);        /* 1 if acquired */
void mutex_unlock(struct mutex *m);
static inline int mutex_is_locked(struct mutex *m) { return m->locked; }

/* A waiter that has slept this long (jiffies; default 5 s) prints who holds
 * the mutex and that task's backtrace, once per wait.  Counted in
 * mutex_long_wait_reports.  Tests may lower the threshold. */
extern unsigned long mutex_warn_jiffies;
extern unsigned long mutex_long_wait_reports;
#endif
