/* include/rwsem.h: reader-writer semaphores, as Linux's struct rw_semaphore
 * (kernel/rwsem.c; Linux 2.6.24's lib/rwsem-spinlock.c is the model).
 * Many readers at once, or one writer; waiters sleep (TASK_UNINTERRUPTIBLE)
 * in a FIFO queue.  Not for interrupt context.  mm->mmap_sem is one
 * (include/mm_types.h): page faults take it for reading, so two threads of
 * one process fault at once on two CPUs; mmap, munmap, mprotect and brk
 * take it for writing.
 *
 * Fairness as Linux's: a task that finds anyone queued queues too, so a
 * waiting writer blocks new readers (writers are not starved), and a
 * release grants in queue order: the writer at the head alone, or the run
 * of readers at the head together.
 *
 * While nobody waits, a reader comes in and goes out with one cmpxchg of
 * sem->activity (the fast paths, kernel/rwsem.c); everything else happens
 * under sem->wait_lock with interrupts saved, activity still changed by
 * atomic instructions: correct on several CPUs without the big kernel
 * lock.
 *
 * Not recursive: down_read while holding it for reading deadlocks if a
 * writer queued in between (it waits for our read, our second read waits
 * behind it); down_write while holding it either way deadlocks at once.
 * The validator (CONFIG_LOCKDEP, include/lockdep.h) reports both, as
 * "possible recursive locking" (Linux 2.6.24's rule for down_read: a read
 * acquisition that may not nest).  Without it, down_write or down_read by
 * the task that holds it for WRITING is reported by the rwsem itself
 * (SELF-DEADLOCK, as the mutex's) and the task sleeps forever; a reader's
 * own recursion is not tracked (readers are only counted). */
#ifndef _RWSEM_H
#define _RWSEM_H
#include <kernel.h>
#include <list.h>
#include <spinlock.h>
#include <lockdep.h>

struct task_struct;

struct rw_semaphore {
    int activity;                      /* 0 free, > 0 readers holding, -1 a writer */
    spinlock_t wait_lock;              /* guards everything here */
    struct list_head wait_list;        /* struct rwsem_waiter, oldest first */
    struct task_struct *owner;         /* the writer (reports, self-deadlock); NULL */
    struct task_struct *last_reader;   /* the last task in for reading: a hint for
                                          reports and lx-locks (Linux 4.x keeps one
                                          in owner), stale once it has left */
    const char *name;
#ifdef CONFIG_LOCKDEP
    struct lockdep_map dep_map;        /* the validator's class (include/lockdep.h) */
#endif
};

#define __RWSEM_INITIALIZER(n) { 0, __SPIN_LOCK_UNLOCKED(n.wait_lock),                  \
        LIST_HEAD_INIT(n.wait_list), NULL, NULL, #n LOCKDEP_MAP_INIT(#n) }
#define DECLARE_RWSEM(n) struct rw_semaphore n = __RWSEM_INITIALIZER(n)

void init_rwsem(struct rw_semaphore *sem);
#ifdef CONFIG_LOCKDEP
/* The validator's class: one per call site, named after the expression
 * (as mutex_init; Linux's init_rwsem does the same). */
#define init_rwsem(sem) do { static struct lock_class_key __key;                 \
        (init_rwsem)(sem); lockdep_init_map(&(sem)->dep_map, #sem, &__key); } while (0)
/* Linux's rwsem_acquire, rwsem_acquire_read, rwsem_release: before the
 * wait (try 0) or after a successful trylock (try 1). */
#define rwsem_acquire(sem, try) \
    lock_acquire(&(sem)->dep_map, (sem)->name, (sem), LD_RWSEM, 0, (try), _RET_IP_)
#define rwsem_acquire_read(sem, try) \
    lock_acquire(&(sem)->dep_map, (sem)->name, (sem), LD_RWSEM_READ, 0, (try), _RET_IP_)
#define rwsem_release(sem) lock_release(&(sem)->dep_map, (sem), _RET_IP_)
#define rwsem_downgrade(sem) lock_downgrade(&(sem)->dep_map, (sem))
#else
#define rwsem_acquire(sem, try) do { } while (0)
#define rwsem_acquire_read(sem, try) do { } while (0)
#define rwsem_release(sem) do { } while (0)
#define rwsem_downgrade(sem) do { } while (0)
#endif

void down_read(struct rw_semaphore *sem);
int down_read_trylock(struct rw_semaphore *sem);   /* 1 if acquired */
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
int down_write_trylock(struct rw_semaphore *sem);  /* 1 if acquired */
void up_write(struct rw_semaphore *sem);
/* The writer becomes one reader, without letting go: the readers queued
 * at the head come in with it (a writer queued first still waits). */
void downgrade_write(struct rw_semaphore *sem);

/* Held at all (for reading or writing)?  For assertions; racy otherwise. */
static inline int rwsem_is_locked(struct rw_semaphore *sem) { return READ_ONCE(sem->activity) != 0; }
/* Held for writing by the current task? */
int rwsem_is_write_locked_by_me(struct rw_semaphore *sem);

/* A waiter that has slept this long (jiffies; default 5 s) prints who holds
 * the rwsem (the writer, or the readers the validator knows of) and their
 * backtraces, once per wait.  Counted in rwsem_long_wait_reports. */
extern unsigned long rwsem_warn_jiffies;
extern unsigned long rwsem_long_wait_reports;
#endif
