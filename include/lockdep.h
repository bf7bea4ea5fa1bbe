/* include/lockdep.h: the lock validator (Linux's lockdep, simplified), in
 * the core layer beside the locks it watches (kernel/lockdep.c; the book's
 * chapter is docs/lockdep.md).
 *
 * Built with CONFIG_LOCKDEP only: the test kernel and DEBUG=1 builds define
 * it (Makefile); in the production kernel every hook below is an empty
 * inline and the locks carry no extra fields, so its code does not change.
 *
 * The validator reasons about lock CLASSES, not lock instances: every
 * inode's i_mutex is one class, initialized at one place.  A class is named
 * by the static lock (DEFINE_SPINLOCK, DEFINE_MUTEX: the lock's address is
 * its key) or by the init call site (spin_lock_init, mutex_init: a static
 * lock_class_key per call site, named after the expression, "&m->lock").
 * All page locks (PG_locked) are one more class, "page lock".
 *
 * Every task keeps a stack of the locks it holds (task_struct.held_locks).
 * Taking lock B while holding lock A records the dependency A -> B in one
 * global graph; a new dependency that closes a cycle is a lock order that
 * can deadlock, reported the first time it happens even if no other task
 * ever takes the locks the other way.  Also reported: a lock taken in an
 * interrupt handler and elsewhere with interrupts on, sleeping (mutex_lock,
 * down_read/down_write, lock_page, might_sleep) while holding a spinlock or
 * with interrupts off,
 * a lock released by a task that does not hold it, two locks of one class
 * nested (page locks: allowed in (mapping, index) order).
 *
 * A report begins with a line of '=' and counts in lockdep_reports; the
 * test runner fails a ktest during which an unplanted report was made.
 * After the first report the validator turns itself off, as Linux's does
 * (the graph may now be wrong), except in the planted-bug tests
 * (kernel/lockdep_test.c), which turn it back on. */
#ifndef _LOCKDEP_H
#define _LOCKDEP_H

struct task_struct;
struct lock_class;
struct page;

#ifndef _RET_IP_
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))   /* the caller */
#endif

#ifdef CONFIG_LOCKDEP

/* A class's identity: the address of a static object (one per init site),
 * and for a nested lock of the same kind (mutex_lock_nested(m, 1): the
 * second directory's i_mutex in rename) the next byte: a class of its own,
 * "&inode->i_mutex/1", as Linux's subkeys. */
#define MAX_LOCKDEP_SUBCLASSES 2
struct lock_class_key {
    char subkeys[MAX_LOCKDEP_SUBCLASSES];
};

/* Embedded in each lock: how the validator finds the lock's class. */
struct lockdep_map {
    struct lock_class_key *key;        /* NULL: a static lock, keyed by its address */
    const char *name;                  /* the class's name */
    struct lock_class *class;          /* cached on first use */
};

/* One entry of a task's stack of held locks. */
struct held_lock {
    struct lock_class *class;
    const void *instance;              /* the lock (the struct page, for a page lock) */
    unsigned long ip;                  /* where it was taken */
    unsigned char irq;                 /* taken in an interrupt handler */
    unsigned char trylock;             /* taken by a trylock: no order recorded */
    unsigned char read;                /* an rwsem taken for reading (down_read) */
};

#define MAX_LOCK_DEPTH 24

/* The task_struct's fields (include/sched.h). */
#define LOCKDEP_TASK_FIELDS                                                  \
    int lockdep_depth;                 /* entries in held_locks */           \
    int hardirq_context;               /* > 0: in an interrupt handler */    \
    int lockdep_recursion;             /* > 0: inside the validator */      \
    struct held_lock held_locks[MAX_LOCK_DEPTH];

/* The kinds, for the rules: a spinlock must not be held across a sleep;
 * sleeping locks must not be taken in atomic context.  An rw_semaphore
 * (include/rwsem.h) is LD_RWSEM; lock_acquire's LD_RWSEM_READ is the same
 * class kind, taken for reading (held_lock.read).  A read acquisition is
 * ordered like any other (mmap_sem read in the fault -> page lock is an
 * edge) and, as Linux 2.6.24's down_read (read=1, not the recursive
 * read=2 of rwlocks), may not nest in its own class. */
enum lock_kind { LD_SPIN, LD_MUTEX, LD_PAGE, LD_RWSEM, LD_RWSEM_READ };

extern int debug_locks;                /* 1 while the validator runs */
extern unsigned long lockdep_reports;  /* reports made (tests, the runner) */

void lockdep_init_map(struct lockdep_map *map, const char *name, struct lock_class_key *key);
/* Called BEFORE the lock is taken (so a deadlock is reported before it
 * happens), or after a successful trylock (trylock 1: nothing is ordered
 * before it).  lockname: the lock's own name, the class's name if the map
 * has none (a lock set up by a designated initializer). */
void lock_acquire(struct lockdep_map *map, const char *lockname, const void *instance,
                  enum lock_kind kind, unsigned int subclass, int trylock, unsigned long ip);
void lock_release(struct lockdep_map *map, const void *instance, unsigned long ip);
/* downgrade_write: the task's write entry for instance becomes a read. */
void lock_downgrade(struct lockdep_map *map, const void *instance);
/* The page lock (mm/filemap.c): one class, no lockdep_map in struct page. */
void lock_page_acquire(struct page *page, int trylock, unsigned long ip);
/* Sleeping here is a bug if a spinlock is held or interrupts are off. */
void __might_sleep(const char *file, int line);
#define might_sleep() __might_sleep(__FILE__, __LINE__)
/* do_IRQ brackets the handlers (kernel/x86/pic.c): the current task is in
 * an interrupt handler in between (per task, as Linux's preempt_count: the
 * timer's handler may switch tasks). */
void lockdep_hardirq_enter(void);
void lockdep_hardirq_exit(void);
/* Print a task's held locks (reports; sysrq-style dumps). */
void lockdep_print_held_locks(struct task_struct *t);

#define LOCKDEP_MAP_INIT(n) , { NULL, n, NULL }

#ifdef CONFIG_KTEST
/* Planted-bug tests (kernel/lockdep_test.c, mm/filemap_test.c): between
 * begin and end, reports are expected.  end returns how many were made,
 * counts them as planted (the runner fails a test for the others: kernel/
 * test/ktest.c), removes the dependencies recorded since begin, empties the
 * task's held-lock stack back to begin's depth and turns the validator back
 * on. */
void ktest_lockdep_begin(void);
unsigned long ktest_lockdep_end(void);
extern unsigned long ktest_lockdep_planted;
#endif

#else /* !CONFIG_LOCKDEP: nothing at all */

struct lock_class_key { };
#define LOCKDEP_TASK_FIELDS
#define LOCKDEP_MAP_INIT(n)
#define might_sleep() do { } while (0)
static inline void lockdep_hardirq_enter(void) { }
static inline void lockdep_hardirq_exit(void) { }
static inline void lockdep_print_held_locks(struct task_struct *t) { }
static inline void lock_page_acquire(struct page *page, int trylock, unsigned long ip) { }

#endif
#endif
