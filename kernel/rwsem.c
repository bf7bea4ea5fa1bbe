/* kernel/rwsem.c: reader-writer semaphores (include/rwsem.h), as Linux
 * 2.6.24's lib/rwsem-spinlock.c (the generic version; x86's was an atomic
 * counter with this as its slow path): a count and a queue of waiters,
 * both under sem->wait_lock.
 *
 *   sem->activity   0: free; n > 0: n readers hold it; -1: one writer does.
 *   sem->wait_list  sleeping tasks, oldest first, each a struct rwsem_waiter
 *                   on its own stack, READ or WRITE.
 *
 * A task takes the semaphore at once only if nobody waits: down_read with
 * activity >= 0, down_write with activity 0.  Otherwise it queues and
 * sleeps, and is GRANTED the semaphore by the task that lets go (the
 * waker changes activity for it, dequeues it and clears waiter->task), so
 * a woken task never finds it taken again: no thundering herd, and the
 * queue order is the order of grants.  Letting go (__rwsem_do_wake): a
 * writer at the head gets it alone; otherwise every reader at the head up
 * to the first writer gets it together.  up_read wakes only when the last
 * reader leaves (the head is then a writer: readers never wait behind
 * readers alone).  So a waiting writer blocks new readers (they queue
 * behind it) and is not starved by a stream of them.
 *
 * The fast paths, as x86's rwsem was an atomic counter in front of this
 * (Linux's rwsem-xadd): while nobody waits, a reader comes in with one
 * cmpxchg of activity from a >= 0 to a + 1, and leaves with one from a to
 * a - 1; a writer and every waiter take wait_lock.  So activity changes by
 * atomic instructions everywhere, under wait_lock too: a writer takes it
 * with a cmpxchg from 0 to -1 (a reader may have come in since it looked),
 * and the grant to a writer likewise.  The queue's emptiness is read
 * without the lock, a hint: a reader that saw it empty an instant before a
 * writer queued gets in ahead of that writer, once.  The last reader out
 * and a writer that queues must not miss each other (a writer asleep on a
 * free semaphore): each makes its change with a locked instruction, a full
 * barrier, and then looks at the other's -- the reader drops activity to 0,
 * then looks at the queue (someone there: it takes wait_lock and grants);
 * the writer queues, then looks at activity (0: it grants, maybe itself,
 * rwsem_wake_if_free).  Of two such orders at least one sees the other
 * (Dekker's argument); both may, and wait_lock makes them grant once.
 *
 * SMP: every change to the queue is made with sem->wait_lock
 * held and interrupts saved (an interrupt handler never takes an rwsem, but
 * the spinlock is cheap to keep interrupt-safe), and so is the sleeper's
 * "am I granted yet? then TASK_UNINTERRUPTIBLE" step, so the grant and the
 * sleep cannot miss each other on two CPUs; the grant's wake_up_process is
 * made under the lock too, and the woken task takes the lock once more
 * before it returns, so its waiter (on its stack) is not touched after it
 * has gone (Linux pins the task with get_task_struct instead).  Nothing
 * here relies on the big kernel lock.
 *
 * Debugging help, as the mutex's (kernel/mutex.c): a writer that takes it
 * again, or reads it while it writes, is reported (SELF-DEADLOCK) and
 * sleeps forever; a reader's recursion is the validator's to report
 * (include/rwsem.h).  Waiting more than rwsem_warn_jiffies prints the
 * holders: the writer, or with the validator built in the readers it
 * knows of (their held-lock stacks), with backtraces; without it only the
 * last reader in (sem->last_reader, a hint). */
#include <kernel.h>
#include <rwsem.h>
#include <mutex.h>
#include <sched.h>
#include <smp.h>
#include <string.h>
#include "sched_glue.h"

unsigned long rwsem_warn_jiffies = 5 * HZ;
unsigned long rwsem_long_wait_reports;

struct rwsem_waiter {
    struct list_head list;
    struct task_struct *task;          /* NULL once granted (by the waker) */
    int write;                         /* RWSEM_WAITING_FOR_WRITE */
};

/* (init_rwsem): the function, not the validator's macro (include/rwsem.h). */
void (init_rwsem)(struct rw_semaphore *sem)
{
    sem->activity = 0;
    spin_lock_init(&sem->wait_lock);
    INIT_LIST_HEAD(&sem->wait_list);
    sem->owner = NULL;
    sem->last_reader = NULL;
    if (!sem->name)
        sem->name = "rwsem";
}

int rwsem_is_write_locked_by_me(struct rw_semaphore *sem)
{
    return READ_ONCE(sem->activity) == -1 && READ_ONCE(sem->owner) == current;
}

/* A reader in without the lock (the fast path, above): 1 if it is. */
static bool read_trylock_fast(struct rw_semaphore *sem)
{
    int a = READ_ONCE(sem->activity);
    if (a < 0 || !list_empty(&sem->wait_list) ||
        !__sync_bool_compare_and_swap(&sem->activity, a, a + 1))
        return false;
    sem->last_reader = current;
    return true;
}

/* The same with wait_lock held (the slow paths, and the trylocks that
 * missed the fast path): a reader in while nobody holds it for writing and
 * nobody waits.  activity still changes atomically: a fast-path reader may
 * come or go meanwhile. */
static bool read_trylock_locked(struct rw_semaphore *sem)
{
    if (sem->activity < 0 || !list_empty(&sem->wait_list))
        return false;
    __sync_fetch_and_add(&sem->activity, 1);
    sem->last_reader = current;
    return true;
}

/* A writer in, wait_lock held: nobody waits, and nobody holds it (a
 * cmpxchg from 0 to -1, since a reader may have come in by the fast path
 * since we looked). */
static bool write_trylock_locked(struct rw_semaphore *sem)
{
    if (!list_empty(&sem->wait_list) || !__sync_bool_compare_and_swap(&sem->activity, 0, -1))
        return false;
    sem->owner = current;
    return true;
}

/* Grant and wake: the writer at the head (if write_ok and no reader came
 * in by the fast path meanwhile: the last of those grants it), or the
 * readers at the head up to the first writer.  wait_lock held. */
static void __rwsem_do_wake(struct rw_semaphore *sem, bool write_ok)
{
    struct rwsem_waiter *w;
    if (list_empty(&sem->wait_list))
        return;
    w = list_first_entry(&sem->wait_list, struct rwsem_waiter, list);
    if (w->write) {
        if (!write_ok || !__sync_bool_compare_and_swap(&sem->activity, 0, -1))
            return;
        sem->owner = w->task;
        list_del(&w->list);
        struct task_struct *t = w->task;
        WRITE_ONCE(w->task, NULL);
        wake_up_process(t);
        return;
    }
    BUG_ON(sem->activity < 0);
    while (!list_empty(&sem->wait_list)) {
        w = list_first_entry(&sem->wait_list, struct rwsem_waiter, list);
        if (w->write)
            break;
        __sync_fetch_and_add(&sem->activity, 1);
        sem->last_reader = w->task;
        list_del(&w->list);
        struct task_struct *t = w->task;
        WRITE_ONCE(w->task, NULL);
        wake_up_process(t);
    }
}

/* Grant to the head of the queue if the semaphore is free now; wait_lock
 * held.  For the two that act outside it: the last reader out by the fast
 * path that then found the queue not empty, and a writer that just queued
 * (the last reader may have left in between: the comment at the top).
 * Under wait_lock a writer's -1 cannot change, so the check holds. */
static void rwsem_wake_if_free(struct rw_semaphore *sem)
{
    smp_mb();                          /* our store (the queue, activity) before this load */
    if (READ_ONCE(sem->activity) >= 0)
        __rwsem_do_wake(sem, true);
}

/* The readers of sem that the validator knows of (each task's held-lock
 * stack): for the long-wait report.  Read without their consent: a
 * report, not a decision. */
static void show_readers(struct rw_semaphore *sem)
{
#ifdef CONFIG_LOCKDEP
    struct task_struct *p;
    int found = 0;
    list_for_each_entry(p, &task_list, tasks)
        for (int i = 0; i < p->lockdep_depth; i++)
            if (p->held_locks[i].instance == sem && p->held_locks[i].read) {
                printk(KERN_WARNING "  reader: task %d (%s)\n", p->pid, p->comm);
                show_task(p);
                found++;
                break;
            }
    if (!found)
        printk(KERN_WARNING "  (no reader known to the validator)\n");
#else
    struct task_struct *r = READ_ONCE(sem->last_reader);
    printk(KERN_WARNING "  (readers are only counted: the validator names them; the last in "
           "was task %d (%s))\n", r ? r->pid : -1, r ? r->comm : "?");
#endif
}

static void report_long_wait(struct rw_semaphore *sem, bool write)
{
    struct task_struct *me = current, *o = READ_ONCE(sem->owner);
    int a = READ_ONCE(sem->activity);
    rwsem_long_wait_reports++;
    if (a < 0) {
        printk(KERN_WARNING "rwsem %s (%p): task %d (%s) waiting to %s > %lu ms; held for "
               "writing by task %d (%s):\n", sem->name ? sem->name : "?", sem, me->pid, me->comm,
               write ? "write" : "read", jiffies_to_msecs(rwsem_warn_jiffies),
               o ? o->pid : -1, o ? o->comm : "?");
        if (o)
            show_task(o);
    } else {
        printk(KERN_WARNING "rwsem %s (%p): task %d (%s) waiting to %s > %lu ms; held for "
               "reading by %d task(s):\n", sem->name ? sem->name : "?", sem, me->pid, me->comm,
               write ? "write" : "read", jiffies_to_msecs(rwsem_warn_jiffies), a);
        show_readers(sem);
    }
}

/* Queue (wait_lock held, interrupts saved in *flags) and sleep until
 * granted.  Returns with wait_lock released and the semaphore ours. */
static void rwsem_wait(struct rw_semaphore *sem, bool write, unsigned long flags)
{
    struct task_struct *me = current;
    struct rwsem_waiter w = { .task = me, .write = write };
    long left = (long)rwsem_warn_jiffies;
    list_add_tail(&w.list, &sem->wait_list);
    if (write)
        rwsem_wake_if_free(sem);               /* the last reader left meanwhile? */
    me->waiting_on = sem;
    me->waiting_what = "rwsem";
    while (READ_ONCE(w.task)) {                /* not granted yet */
        set_current_state(TASK_UNINTERRUPTIBLE);   /* under wait_lock: the grant sees it */
        spin_unlock_irqrestore(&sem->wait_lock, flags);
        if (left == MAX_SCHEDULE_TIMEOUT)
            schedule();
        else if (!(left = schedule_timeout(left))) {
            spin_lock_irqsave(&sem->wait_lock, flags);
            bool granted = !READ_ONCE(w.task);
            spin_unlock_irqrestore(&sem->wait_lock, flags);
            if (!granted)
                report_long_wait(sem, write);
            left = MAX_SCHEDULE_TIMEOUT;       /* report once, then wait on */
        }
        spin_lock_irqsave(&sem->wait_lock, flags);
    }
    set_current_state(TASK_RUNNING);
    spin_unlock_irqrestore(&sem->wait_lock, flags);
}

/* A writer taking what it holds: the rwsem's own report (the validator, if
 * built in, reported it just before as recursive locking). */
static void self_deadlock(struct rw_semaphore *sem, const char *how)
{
    struct task_struct *me = current;
    lock_bug_reports++;
    printk(KERN_ERR "BUG: rwsem self-deadlock: task %d (%s) takes rwsem %s (%p) for %s "
           "while it holds it for writing\n", me->pid, me->comm, sem->name ? sem->name : "?",
           sem, how);
    show_task(me);
    self_deadlock_stuck("rwsem");
}

static void __down_read(struct rw_semaphore *sem)
{
    unsigned long flags;
    if (read_trylock_fast(sem))
        return;
    spin_lock_irqsave(&sem->wait_lock, flags);
    if (read_trylock_locked(sem)) {
        spin_unlock_irqrestore(&sem->wait_lock, flags);
        return;
    }
    if (sem->activity < 0 && sem->owner == current)
        self_deadlock(sem, "reading");         /* ... and wait below, for ever */
    rwsem_wait(sem, false, flags);
}

void down_read(struct rw_semaphore *sem)
{
    might_sleep();
    rwsem_acquire_read(sem, 0);        /* the validator, if built in: before we sleep */
    __down_read(sem);
}

int down_read_trylock(struct rw_semaphore *sem)
{
    unsigned long flags;
    int ok = read_trylock_fast(sem);
    if (!ok) {
        spin_lock_irqsave(&sem->wait_lock, flags);
        ok = read_trylock_locked(sem);
        spin_unlock_irqrestore(&sem->wait_lock, flags);
    }
    if (ok)
        rwsem_acquire_read(sem, 1);
    return ok;
}

static void __down_write(struct rw_semaphore *sem)
{
    unsigned long flags;
    spin_lock_irqsave(&sem->wait_lock, flags);
    if (write_trylock_locked(sem)) {
        spin_unlock_irqrestore(&sem->wait_lock, flags);
        return;
    }
    if (sem->activity < 0 && sem->owner == current)
        self_deadlock(sem, "writing");
    rwsem_wait(sem, true, flags);              /* the granter set owner */
}

void down_write(struct rw_semaphore *sem)
{
    might_sleep();
    rwsem_acquire(sem, 0);
    __down_write(sem);
}

int down_write_trylock(struct rw_semaphore *sem)
{
    unsigned long flags;
    spin_lock_irqsave(&sem->wait_lock, flags);
    int ok = write_trylock_locked(sem);
    spin_unlock_irqrestore(&sem->wait_lock, flags);
    if (ok)
        rwsem_acquire(sem, 1);
    return ok;
}

/* Letting go of what is not held is a broken contract (BUG_ON). */
void up_read(struct rw_semaphore *sem)
{
    unsigned long flags;
    rwsem_release(sem);
    int a = READ_ONCE(sem->activity);
    if (a > 1 && __sync_bool_compare_and_swap(&sem->activity, a, a - 1))
        return;                        /* not the last reader: the fast path */
    if (a == 1 && list_empty(&sem->wait_list) &&
        __sync_bool_compare_and_swap(&sem->activity, 1, 0)) {
        /* The last reader, nobody waiting: out by the fast path too; then
         * a writer that queued meanwhile is ours to grant (at the top). */
        if (likely(list_empty(&sem->wait_list)))
            return;
        spin_lock_irqsave(&sem->wait_lock, flags);
        rwsem_wake_if_free(sem);
        spin_unlock_irqrestore(&sem->wait_lock, flags);
        return;
    }
    spin_lock_irqsave(&sem->wait_lock, flags);
    BUG_ON(sem->activity <= 0);
    if (__sync_sub_and_fetch(&sem->activity, 1) == 0)
        __rwsem_do_wake(sem, true);    /* the head, if any, is a writer */
    spin_unlock_irqrestore(&sem->wait_lock, flags);
}

/* By another task than the writer: reported (WARN, as the mutex's) and
 * done. */
void up_write(struct rw_semaphore *sem)
{
    unsigned long flags;
    struct task_struct *me = current;
    rwsem_release(sem);
    spin_lock_irqsave(&sem->wait_lock, flags);
    BUG_ON(sem->activity != -1);
    if (sem->owner != me) {
        lock_bug_reports++;
        printk(KERN_ERR "WARNING: up_write of %s (%p) by task %d (%s): held by another task\n",
               sem->name ? sem->name : "?", sem, me->pid, me->comm);
    }
    sem->owner = NULL;
    WRITE_ONCE(sem->activity, 0);      /* fast readers may come in from here */
    __rwsem_do_wake(sem, true);
    spin_unlock_irqrestore(&sem->wait_lock, flags);
}

void downgrade_write(struct rw_semaphore *sem)
{
    unsigned long flags;
    rwsem_downgrade(sem);
    spin_lock_irqsave(&sem->wait_lock, flags);
    BUG_ON(sem->activity != -1 || sem->owner != current);
    sem->activity = 1;
    sem->owner = NULL;
    sem->last_reader = current;
    __rwsem_do_wake(sem, false);       /* readers at the head only */
    spin_unlock_irqrestore(&sem->wait_lock, flags);
}
