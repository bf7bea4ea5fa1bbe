/* include/mutex.h: sleeping locks, as Linux's struct mutex.  One owner at a
 * time; waiters sleep (TASK_UNINTERRUPTIBLE).  Must not be taken in interrupt
 * context; must be released by its owner (unlocking an unlocked mutex is a
 * BUG).  mutex_lock() returns only with the mutex held: taking one you
 * already hold is reported (BUG: mutex self-deadlock, with a backtrace) and
 * then the task sleeps forever, as Linux's would, instead of hanging
 * silently; with the boot option deadlock=panic the report panics.
 * With the lock validator built in (CONFIG_LOCKDEP; include/lockdep.h)
 * mutex_init names the class after its call site, mutex_lock checks the
 * order (and might_sleep) before it may sleep, and mutex_lock_nested takes
 * a second lock of one class in an order the caller guarantees. */
#ifndef _MUTEX_H
#define _MUTEX_H
#include <wait.h>
#include <lockdep.h>

struct mutex {
    volatile int locked;               /* 0 free, 1 held, 2 held and maybe waited for */
    struct task_struct *owner;
    wait_queue_head_t wait;
    const char *name;
    int handoff;                       /* a waiter starves: unlock hands the mutex over */
    struct task_struct *handoff_to;    /* ... to this waiter (locked stays 1) */
#ifdef CONFIG_LOCKDEP
    struct lockdep_map dep_map;        /* the validator's class (include/lockdep.h) */
#endif
};
#define DEFINE_MUTEX(n) struct mutex n = { 0, NULL, __WAIT_QUEUE_HEAD_INITIALIZER(n.wait), #n, 0, \
                                           NULL LOCKDEP_MAP_INIT(#n) }
void mutex_init(struct mutex *m);
#ifdef CONFIG_LOCKDEP
/* The validator's class: one per call site, named after the expression. */
#define mutex_init(m) do { static struct lock_class_key __key;                  \
        (mutex_init)(m); lockdep_init_map(&(m)->dep_map, #m, &__key); } while (0)
#define mutex_acquire(m, try) lock_acquire(&(m)->dep_map, (m)->name, (m), LD_MUTEX, 0, (try), _RET_IP_)
#define mutex_release(m) lock_release(&(m)->dep_map, (m), _RET_IP_)
/* A second lock of one class, in an order the caller guarantees (rename's
 * two directories, lower address first): subclass 1 is a class of its own
 * for the validator (Linux's mutex_lock_nested, SINGLE_DEPTH_NESTING). */
void mutex_lock_nested(struct mutex *m, unsigned int subclass);
#else
#define mutex_acquire(m, try) do { } while (0)
#define mutex_release(m) do { } while (0)
#define mutex_lock_nested(m, subclass) mutex_lock(m)
#endif
void mutex_lock(struct mutex *m);
int mutex_trylock(struct mutex *m);        /* 1 if acquired */
void mutex_unlock(struct mutex *m);
static inline int mutex_is_locked(struct mutex *m) { return m->locked; }

/* A waiter that has slept this long (jiffies; default 5 s) prints who holds
 * the mutex and that task's backtrace, once per wait.  Counted in
 * mutex_long_wait_reports.  Tests may lower the threshold. */
extern unsigned long mutex_warn_jiffies;
extern unsigned long mutex_long_wait_reports;

/* The end of every self-deadlock report (mutex_lock, lock_page): panic if
 * booted with deadlock=panic, else say the task now sleeps forever (and in
 * the test kernel, if it is the task running the ktests, end the boot:
 * ktest_stuck, include/ktest_bug.h). */
extern bool deadlock_panic;
void self_deadlock_stuck(const char *what);
#endif
