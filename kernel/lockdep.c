/* kernel/lockdep.c: the lock validator (include/lockdep.h; docs/lockdep.md),
 * in the core layer: the lock primitives (kernel/spinlock.c, kernel/mutex.c,
 * the page lock in mm/filemap.c) call it, it calls nothing that takes a
 * validated lock but printk.  Compiled with CONFIG_LOCKDEP only (the test
 * kernel and DEBUG=1): in the production kernel this file is empty.
 *
 * Linux's kernel/lockdep.c (2.6.18 on), simplified and explained:
 *
 *  - Classes: one per lock_class_key (a static lock's own address, or a
 *    static key per init call site), found once and cached in the lock's
 *    lockdep_map.  The page lock is one class with no map in struct page.
 *  - Held locks: each task's stack (task_struct.held_locks), pushed in
 *    lock_acquire, BEFORE the lock is actually taken (a lock_acquire that
 *    would deadlock is reported before it sleeps), popped in lock_release
 *    in any order.  Page locks are not popped: unlock_page may run in any
 *    task or in an interrupt (Linux: the reader's I/O completion), so an
 *    entry for a page is dropped when the page is no longer locked by its
 *    task (PageLocked and page->lock_owner, checked each time the stack is
 *    read).
 *  - The dependency graph: taking B while holding A (not by trylock)
 *    records the edge A -> B, with where A was taken and the stack of where
 *    B was.  Before an edge is added, a breadth-first search from B looks
 *    for A: a path B -> ... -> A plus the new A -> B is a cycle, some
 *    interleaving of tasks deadlocks on it, and the report shows the new
 *    edge and the old path.  One task suffices: the cycle is in the ORDER,
 *    not in what happened.  Linux searches the same way
 *    (check_noncircular, 2.6.24: depth-first).
 *  - Interrupt safety (Linux's usage bits, hardirq only): a spinlock class
 *    ever taken in an interrupt handler and ever taken outside one with
 *    interrupts on can deadlock on one CPU (the handler spins on the lock
 *    the code it interrupted holds).  Simplified: Linux also follows the
 *    graph (an irq-safe lock must not depend on an irq-unsafe one) and
 *    watches local_irq_enable under a held lock; Vellum checks each class
 *    alone.
 *  - might_sleep: a sleeping lock (mutex, page lock) taken while a spinlock
 *    is held or in an interrupt handler.  Simplified: Linux's in_atomic()
 *    also counts irqs_disabled(); Vellum's boot runs initcalls with
 *    interrupts off, so the rule is the held spinlock, which spin_lock_irq*
 *    always is.
 *  - Rw-semaphores (include/rwsem.h): one class kind, LD_RWSEM, each
 *    acquisition a read or a write (held_lock.read; lock_acquire's
 *    LD_RWSEM_READ).  Linux 2.6.24's rule for them (down_read is read=1,
 *    not the recursive read=2 of read_lock): a read is ordered like a
 *    write (the fault's mmap_sem read -> page lock is an edge), and does
 *    not nest in its class: a writer queued between two reads deadlocks.
 *  - Release checks: unlocking a mutex or spinlock that another task
 *    holds: "bad unlock balance".  One nobody holds is the lock's own
 *    report (a double unlock), or was taken while the validator was off.
 *  - Nesting in one class: two locks of one class held at once can ABBA
 *    between two tasks and the graph cannot see it (an edge from a class to
 *    itself): "possible recursive locking".  Taking the SAME lock again is
 *    left to the lock's own report (spinlock recursion, mutex and page
 *    lock SELF-DEADLOCK), except an rw_semaphore's: its readers are only
 *    counted, so the validator reports it (recursive locking).  Page locks may nest in (mapping, index) order,
 *    the rule the LOCK ORDER comment (mm/filemap.c) gives for two
 *    directories' i_mutex: lower address first, then lower index.
 *
 * Memory is bounded: fixed tables of classes and edges; when one is full
 * the validator says "lockdep: ... table full, turning off" once and stops.
 *
 * Concurrency: the graph is global and is changed with interrupts off and
 * under graph_lock, a raw lock word the validator does not watch (SMP:
 * other CPUs spin on it; on this one CPU, with interrupts off, it can only
 * be found taken by a recursion bug).  A task's held-lock stack is changed
 * only by that task, with interrupts off (an interrupt handler pushes and
 * pops on the stack of the task it interrupted).  lockdep_recursion stops
 * the validator from watching the locks its own printk takes. */
#ifdef CONFIG_LOCKDEP
#include <kernel.h>
#include <string.h>
#include <lockdep.h>
#include <sched.h>
#include <smp.h>
#include <asm/io.h>
#include <ksyms.h>
#include <mm.h>
#include <pagemap.h>
#include <mutex.h>
#include <rwsem.h>
#include <init.h>
#include <cmdline.h>
#include <asm/irqflags.h>
#include <asm/cmpxchg.h>

#define MAX_LOCKDEP_CLASSES 384
#define MAX_LOCKDEP_EDGES   1536
#define EDGE_TRACE          6          /* return addresses kept per edge */
#define NO_EDGE             0xffff

/* Usage bits (Linux's LOCK_USED_IN_HARDIRQ, LOCK_ENABLED_HARDIRQ). */
#define USED_IN_IRQ  1                 /* taken in an interrupt handler */
#define USED_IRQ_ON  2                 /* taken outside one, interrupts on */

struct lock_class {
    const struct lock_class_key *key;
    const char *name;
    unsigned char kind;                /* enum lock_kind */
    unsigned char subclass;            /* 1: "name/1" (mutex_lock_nested) */
    unsigned char usage;               /* USED_* */
    unsigned short first_edge;         /* this class's edges to later locks */
    unsigned long usage_ip[3];         /* where each usage was first seen */
};

/* A -> B: B was taken while A was held. */
struct lock_edge {
    unsigned short from, to;           /* class numbers */
    unsigned short next;               /* from's next edge */
    unsigned long from_ip;             /* where A was taken */
    unsigned long trace[EDGE_TRACE];   /* where B was taken: the stack */
};

int debug_locks = 1;
unsigned long lockdep_reports;
static struct lock_class lock_classes[MAX_LOCKDEP_CLASSES];
static unsigned nr_lock_classes;
static struct lock_edge lock_edges[MAX_LOCKDEP_EDGES];
static unsigned nr_lock_edges;
static volatile unsigned int graph_lock_word;
static struct lock_class_key page_lock_key;
static struct lockdep_map page_lock_map = { &page_lock_key, "page lock", NULL };

/* ---- turning on and off; entering the validator ------------------------ */

static void debug_locks_off(void)
{
    if (!debug_locks)
        return;
    debug_locks = 0;
    printk(KERN_ERR "turning off the locking correctness validator.\n");
}

/* Enter the validator: interrupts off, not recursing, and still on.  The
 * graph lock is taken by those who change the graph. */
static bool lockdep_enter(unsigned long *flags)
{
    if (!debug_locks || current->lockdep_recursion)
        return false;
    *flags = local_irq_save();
    current->lockdep_recursion++;
    return true;
}

/* Were interrupts on at the hook (before lockdep_enter turned them off)? */
static bool irqs_were_on(unsigned long flags) { return flags & 0x200; }   /* EFLAGS.IF */

static void lockdep_leave(unsigned long flags)
{
    current->lockdep_recursion--;
    local_irq_restore(flags);
}

/* The word holds the holder's CPU number + 1.  Another CPU's: wait (it
 * holds it with interrupts off, briefly).  Ours: a recursion bug. */
static void graph_lock(void)
{
    unsigned int me = smp_processor_id() + 1;
    while (!__sync_bool_compare_and_swap(&graph_lock_word, 0, me)) {
        BUG_ON(graph_lock_word == me);
        cpu_relax();
    }
}

static void graph_unlock(void)
{
    barrier();
    graph_lock_word = 0;
}

/* ---- classes ------------------------------------------------------------ */

void lockdep_init_map(struct lockdep_map *map, const char *name, struct lock_class_key *key)
{
    map->key = key;
    map->name = name;
    map->class = NULL;
}

extern char _text[], _kernel_end[];   /* boot/linker.ld */

/* The key of a lock that was not initialized by spin_lock_init/mutex_init:
 * a static lock (DEFINE_SPINLOCK, DEFINE_MUTEX in the kernel image) is its
 * own key; one on a stack (a test's DEFINE_MUTEX(m)) is keyed by its name's
 * string, one class per declaration, as Linux asks of on-stack locks. */
static const void *static_key(struct lockdep_map *map)
{
    bool in_image = (char *)map >= _text && (char *)map < _kernel_end;
    return in_image || !map->name ? (const void *)map : (const void *)map->name;
}

static struct lock_class *find_class(struct lockdep_map *map, const char *lockname,
                                     enum lock_kind kind, unsigned int subclass)
{
    const char *base = map->key ? (const char *)map->key : static_key(map);
    const struct lock_class_key *key;
    struct lock_class *c = map->class;
    if (subclass >= MAX_LOCKDEP_SUBCLASSES)
        subclass = MAX_LOCKDEP_SUBCLASSES - 1;
    key = (const void *)(base + subclass);
    if (c && c->key == key)
        return c;
    for (unsigned i = 0; i < nr_lock_classes; i++)
        if (lock_classes[i].key == key)
            return subclass ? &lock_classes[i] : (map->class = &lock_classes[i]);
    if (nr_lock_classes == MAX_LOCKDEP_CLASSES) {
        printk(KERN_ERR "lockdep: class table full (%d classes), turning off\n",
               MAX_LOCKDEP_CLASSES);
        debug_locks_off();
        return NULL;
    }
    c = &lock_classes[nr_lock_classes++];
    c->key = key;
    c->name = map->name ? map->name : lockname ? lockname : "(unnamed lock)";
    c->kind = kind;
    c->subclass = subclass;
    c->first_edge = NO_EDGE;
    if (!subclass)
        map->class = c;
    return c;
}

/* "/1" after a subclass's name. */
static const char *sub(const struct lock_class *c) { return c->subclass ? "/1" : ""; }

static unsigned class_no(const struct lock_class *c) { return c - lock_classes; }

/* ---- printing ----------------------------------------------------------- */

static void print_ip(const char *indent, unsigned long ip)
{
    char sym[96];
    ksym_snprint(sym, sizeof sym, ip);
    printk(KERN_ERR "%s[<%08lx>] %s\n", indent, ip, sym);
}

static void print_lock_line(const char *prefix, const struct held_lock *h)
{
    char sym[96];
    ksym_snprint(sym, sizeof sym, h->ip);
    printk(KERN_ERR "%s(%s%s){%s}, at: [<%08lx>] %s\n", prefix, h->class->name, sub(h->class),
           h->class->kind == LD_SPIN ? "spin" : h->class->kind == LD_MUTEX ? "mutex" :
           h->class->kind == LD_RWSEM ? (h->read ? "rwsem-read" : "rwsem-write") : "page",
           h->ip, sym);
}

static void print_banner(const char *title)
{
    size_t n = strlen(title);
    char line[80];
    if (n > sizeof line - 1)
        n = sizeof line - 1;
    lockdep_reports++;
    memset(line, '=', n);
    line[n] = '\0';
    printk(KERN_ERR "\n%s\n%s\n", line, title);
    memset(line, '-', n);
    printk(KERN_ERR "%s\n", line);
}

/* Is a held-lock entry still true?  A page lock is held if its page is
 * locked by the same task (unlock_page is not hooked: any task, or an
 * interrupt, may unlock).  all: spinlocks and mutexes too, by their owner
 * fields (after the validator was off: their releases were not seen; an
 * entry pushed before a mutex_lock that still sleeps is dropped too). */
static bool held_valid(struct task_struct *t, const struct held_lock *h, bool all)
{
    switch (h->class->kind) {
    case LD_PAGE: {
        const struct page *page = h->instance;
        return PageLocked((struct page *)page) && page->lock_owner == t;
    }
    case LD_SPIN: {
        const spinlock_t *lock = h->instance;
        return !all || (spin_is_locked(lock) && lock->owner == t);
    }
    case LD_RWSEM: {                   /* readers are only counted: any reader will do */
        const struct rw_semaphore *sem = h->instance;
        int a = READ_ONCE(sem->activity);
        return !all || (h->read ? a > 0 : a == -1 && sem->owner == t);
    }
    default: {
        const struct mutex *m = h->instance;
        return !all || (m->locked && m->owner == t);
    }
    }
}

/* Drop a task's entries that are no longer true (above). */
static void prune_held_all(struct task_struct *t, bool all)
{
    int j = 0;
    for (int i = 0; i < t->lockdep_depth; i++)
        if (held_valid(t, &t->held_locks[i], all))
            t->held_locks[j++] = t->held_locks[i];
    t->lockdep_depth = j;
}

static void prune_held(struct task_struct *t) { prune_held_all(t, false); }

void lockdep_print_held_locks(struct task_struct *t)
{
    prune_held(t);
    if (!t->lockdep_depth) {
        printk(KERN_ERR "no locks held by %s/%d.\n", t->comm, t->pid);
        return;
    }
    printk(KERN_ERR "%d lock%s held by %s/%d:\n", t->lockdep_depth,
           t->lockdep_depth > 1 ? "s" : "", t->comm, t->pid);
    for (int i = 0; i < t->lockdep_depth; i++) {
        char prefix[16];
        snprintf(prefix, sizeof prefix, " #%d:  ", i);
        print_lock_line(prefix, &t->held_locks[i]);
    }
}

static bool in_validator(unsigned long ip);

/* The backtrace from the lock primitive down (the validator's own frames
 * left out), and the validator turns off: the graph may be wrong now. */
static void report_end(void)
{
    unsigned long trace[16];
    char sym[96];
    int n = save_stack_trace(trace, ARRAY_SIZE(trace)), i = 0;
    while (i < n && in_validator(trace[i]))
        i++;
    printk(KERN_ERR "\nstack backtrace:\nCall Trace:\n");
    for (; i < n; i++) {
        ksym_snprint(sym, sizeof sym, trace[i]);
        printk(KERN_ERR "  [<%08lx>] %s\n", trace[i], sym);
    }
    debug_locks_off();
}

/* ---- the graph ---------------------------------------------------------- */

static int find_edge(unsigned from, unsigned to)
{
    for (unsigned e = lock_classes[from].first_edge; e != NO_EDGE; e = lock_edges[e].next)
        if (lock_edges[e].to == to)
            return e;
    return -1;
}

/* Breadth-first from 'from' to 'target' over the edges; on success
 * via[c] is the edge by which class c was reached, for the report. */
static unsigned short bfs_via[MAX_LOCKDEP_CLASSES];
static unsigned short bfs_queue[MAX_LOCKDEP_CLASSES];

static bool path_exists(unsigned from, unsigned target)
{
    unsigned head = 0, tail = 0;
    for (unsigned i = 0; i < nr_lock_classes; i++)
        bfs_via[i] = NO_EDGE;
    bfs_queue[tail++] = from;
    while (head < tail) {
        unsigned c = bfs_queue[head++];
        for (unsigned e = lock_classes[c].first_edge; e != NO_EDGE; e = lock_edges[e].next) {
            unsigned n = lock_edges[e].to;
            if (bfs_via[n] != NO_EDGE || n == from)
                continue;
            bfs_via[n] = e;
            if (n == target)
                return true;
            bfs_queue[tail++] = n;
        }
    }
    return false;
}

static void print_edge(int nr, const struct lock_edge *e)
{
    printk(KERN_ERR "\n-> #%d (%s%s):\n", nr, lock_classes[e->to].name, sub(&lock_classes[e->to]));
    printk(KERN_ERR "       taken while holding %s%s, taken at:\n", lock_classes[e->from].name,
           sub(&lock_classes[e->from]));
    print_ip("       ", e->from_ip);
    printk(KERN_ERR "       and taken here:\n");
    for (int i = 0; i < EDGE_TRACE && e->trace[i]; i++)
        print_ip("       ", e->trace[i]);
}

/* Linux's print_circular_bug: the new lock, the held one, the old chain
 * from the new lock back to the held one, the scenario, the held locks. */
static void report_circular(struct task_struct *t, const struct held_lock *prev,
                            const struct held_lock *next)
{
    unsigned chain[MAX_LOCKDEP_CLASSES];
    int n = 0;
    for (unsigned c = class_no(prev->class); c != class_no(next->class);
         c = lock_edges[bfs_via[c]].from)
        chain[n++] = bfs_via[c];
    print_banner("WARNING: possible circular locking dependency detected");
    printk(KERN_ERR "%s/%d is trying to acquire lock:\n", t->comm, t->pid);
    print_lock_line(" ", next);
    printk(KERN_ERR "\nbut task is already holding lock:\n");
    print_lock_line(" ", prev);
    printk(KERN_ERR "\nwhich lock already depends on the new lock.\n\n");
    printk(KERN_ERR "\nthe existing dependency chain (in reverse order) is:\n");
    for (int i = 0; i < n; i++)
        print_edge(n - 1 - i, &lock_edges[chain[i]]);
    printk(KERN_ERR "\nother info that might help us debug this:\n\n");
    printk(KERN_ERR " Possible unsafe locking scenario:\n\n");
    printk(KERN_ERR "       task A                  task B\n");
    printk(KERN_ERR "       ----                    ----\n");
    printk(KERN_ERR "  lock(%s%s);\n", prev->class->name, sub(prev->class));
    printk(KERN_ERR "                               lock(%s%s);\n", next->class->name, sub(next->class));
    printk(KERN_ERR "                               lock(%s%s);\n", prev->class->name, sub(prev->class));
    printk(KERN_ERR "  lock(%s%s);\n", next->class->name, sub(next->class));
    printk(KERN_ERR "\n *** DEADLOCK ***\n\n");
    lockdep_print_held_locks(t);
    report_end();
}

/* The stack of the lock_acquire being checked, from the lock primitive
 * (mutex_lock, lock_page, ...) down: the validator's own frames are left
 * out. */
static bool in_validator(unsigned long ip)
{
    static const char *const own[] = {
        "add_edge", "__lock_acquire", "lock_acquire", "lock_page_acquire", "__might_sleep",
        "lock_release", "report_end", "report_circular", "report_recursive",
        "report_irq_inconsistent", "report_might_sleep", "report_bad_unlock", "mark_usage",
        "lock_downgrade",
    };
    const char *name = ksym_lookup(ip - 1, NULL, NULL);
    for (unsigned i = 0; name && i < ARRAY_SIZE(own); i++)
        if (!strcmp(name, own[i]))
            return true;
    return false;
}

static void save_trace(unsigned long *trace)
{
    unsigned long all[EDGE_TRACE + 4];
    int n = save_stack_trace(all, ARRAY_SIZE(all)), skip = 0;
    while (skip < n && in_validator(all[skip]))
        skip++;
    memset(trace, 0, EDGE_TRACE * sizeof *trace);
    for (int i = 0; i < EDGE_TRACE && skip + i < n; i++)
        trace[i] = all[skip + i];
}

/* Record prev -> next unless it is there; false if that closes a cycle
 * (reported) or the table is full. */
static bool add_edge(struct task_struct *t, const struct held_lock *prev,
                     const struct held_lock *next)
{
    unsigned from = class_no(prev->class), to = class_no(next->class);
    if (find_edge(from, to) >= 0)
        return true;
    if (path_exists(to, from)) {
        report_circular(t, prev, next);
        return false;
    }
    if (nr_lock_edges == MAX_LOCKDEP_EDGES) {
        printk(KERN_ERR "lockdep: dependency table full (%d edges), turning off\n",
               MAX_LOCKDEP_EDGES);
        debug_locks_off();
        return false;
    }
    struct lock_edge *e = &lock_edges[nr_lock_edges];
    e->from = from;
    e->to = to;
    e->from_ip = prev->ip;
    save_trace(e->trace);
    e->next = lock_classes[from].first_edge;
    lock_classes[from].first_edge = nr_lock_edges++;
    return true;
}

/* ---- the other rules ---------------------------------------------------- */

static void report_recursive(struct task_struct *t, const struct held_lock *prev,
                             const struct held_lock *next)
{
    print_banner("WARNING: possible recursive locking detected");
    printk(KERN_ERR "%s/%d is trying to acquire lock:\n", t->comm, t->pid);
    print_lock_line(" ", next);
    printk(KERN_ERR "\nbut task is already holding lock:\n");
    print_lock_line(" ", prev);
    if (next->class->kind == LD_RWSEM)
        printk(KERN_ERR "\n%s: an rw_semaphore does not nest, not even for reading: a writer "
               "queued between the two waits for the first, the second waits behind it\n",
               prev->instance == next->instance ? "the same rwsem, taken again" :
               "two rwsems of one class");
    if (next->class->kind == LD_PAGE) {
        const struct page *a = prev->instance, *b = next->instance;
        printk(KERN_ERR "\npage locks nest only in (mapping, index) order: holding "
               "mapping %p index %lu, taking mapping %p index %lu\n",
               a->mapping, a->index, b->mapping, b->index);
    }
    printk(KERN_ERR "\nother info that might help us debug this:\n");
    printk(KERN_ERR " Possible unsafe locking scenario: two tasks each hold one lock of\n"
           " the class and take another: *** DEADLOCK ***\n\n");
    lockdep_print_held_locks(t);
    report_end();
}

/* Two page locks at once: in (mapping, index) order, or a report. */
static bool page_order_ok(const struct page *held, const struct page *next)
{
    if (held->mapping != next->mapping)
        return (unsigned long)held->mapping < (unsigned long)next->mapping;
    return held->index < next->index;
}

static void report_irq_inconsistent(struct task_struct *t, const struct held_lock *next,
                                    unsigned had, unsigned now)
{
    static const char *const usage_name[] = { "", "IN-HARDIRQ", "HARDIRQ-ON" };
    print_banner("WARNING: inconsistent lock state");
    printk(KERN_ERR "inconsistent {%s} -> {%s} usage.\n", usage_name[had], usage_name[now]);
    printk(KERN_ERR "%s/%d %s takes:\n", t->comm, t->pid,
           now == USED_IN_IRQ ? "[in an interrupt handler]" : "[interrupts on]");
    print_lock_line(" ", next);
    printk(KERN_ERR "{%s} state was registered at:\n", usage_name[had]);
    print_ip("  ", next->class->usage_ip[had]);
    printk(KERN_ERR "\nother info that might help us debug this:\n");
    printk(KERN_ERR " Possible unsafe locking scenario:\n\n");
    printk(KERN_ERR "       CPU0\n       ----\n  lock(%s);\n  <Interrupt>\n"
           "    lock(%s);\n\n *** DEADLOCK ***\n\n", next->class->name, next->class->name);
    lockdep_print_held_locks(t);
    report_end();
}

/* A spinlock's usage: in an interrupt handler, or outside one with
 * interrupts on; both is a deadlock waiting for an interrupt. */
static bool mark_usage(struct task_struct *t, const struct held_lock *next, bool irqs_on)
{
    struct lock_class *c = next->class;
    unsigned now, other;
    if (c->kind != LD_SPIN)
        return true;
    if (next->irq)
        now = USED_IN_IRQ, other = USED_IRQ_ON;
    else if (irqs_on)
        now = USED_IRQ_ON, other = USED_IN_IRQ;
    else
        return true;
    if (!(c->usage & now)) {
        c->usage |= now;
        c->usage_ip[now] = next->ip;
    }
    if (c->usage & other) {
        report_irq_inconsistent(t, next, other, now);
        return false;
    }
    return true;
}

static bool holds_spinlock(struct task_struct *t)
{
    for (int i = 0; i < t->lockdep_depth; i++)
        if (t->held_locks[i].class->kind == LD_SPIN)
            return true;
    return false;
}

static void report_might_sleep(struct task_struct *t, const char *file, int line, bool irqs_on)
{
    print_banner("BUG: sleeping function called from invalid context");
    printk(KERN_ERR "BUG: sleeping function called from invalid context at %s:%d\n", file, line);
    printk(KERN_ERR "in_atomic(): %d, irqs_disabled(): %d, in_irq(): %d, pid: %d, name: %s\n",
           holds_spinlock(t), !irqs_on, t->hardirq_context > 0, t->pid, t->comm);
    lockdep_print_held_locks(t);
    report_end();
}

void __might_sleep(const char *file, int line)
{
    struct task_struct *t = current;
    unsigned long flags;
    if (!lockdep_enter(&flags))
        return;
    prune_held(t);
    if (t->hardirq_context > 0 || holds_spinlock(t))
        report_might_sleep(t, file, line, irqs_were_on(flags));
    lockdep_leave(flags);
}

/* ---- acquire and release ------------------------------------------------ */

static void __lock_acquire(struct lockdep_map *map, const char *lockname, const void *instance,
                           enum lock_kind kind, unsigned int subclass, int trylock,
                           unsigned long ip, bool irqs_on)
{
    struct task_struct *t = current;
    bool read = kind == LD_RWSEM_READ;
    if (read)
        kind = LD_RWSEM;                /* one class kind; the acquisition is a read */
    struct held_lock next = { NULL, instance, ip, t->hardirq_context > 0, (unsigned char)trylock,
                              read };
    bool again = false;

    prune_held(t);
    graph_lock();
    next.class = find_class(map, lockname, kind, subclass);
    if (!next.class)
        goto out;
    if (!mark_usage(t, &next, irqs_on))
        goto out;
    for (int i = 0; i < t->lockdep_depth; i++) {
        const struct held_lock *prev = &t->held_locks[i];
        if (prev->instance == instance && kind != LD_RWSEM) {
            again = true;              /* the lock's own report, or a trylock after acquire */
            continue;
        }                              /* an rwsem taken again: recursion, below */
        if (prev->class == next.class || trylock)
            continue;                  /* nesting: below */
        if (!add_edge(t, prev, &next))
            goto out;
    }
    if (again)
        goto out;
    for (int i = 0; i < t->lockdep_depth && !trylock; i++) {
        const struct held_lock *prev = &t->held_locks[i];
        if (prev->class != next.class)
            continue;
        if (kind == LD_PAGE && page_order_ok(prev->instance, instance))
            continue;
        report_recursive(t, prev, &next);
        goto out;
    }
    if (t->lockdep_depth == MAX_LOCK_DEPTH) {
        printk(KERN_ERR "lockdep: %s/%d holds %d locks: held-lock stack full, turning off\n",
               t->comm, t->pid, MAX_LOCK_DEPTH);
        debug_locks_off();
        goto out;
    }
    t->held_locks[t->lockdep_depth++] = next;
out:
    graph_unlock();
}

void lock_acquire(struct lockdep_map *map, const char *lockname, const void *instance,
                  enum lock_kind kind, unsigned int subclass, int trylock, unsigned long ip)
{
    unsigned long flags;
    if (!lockdep_enter(&flags))
        return;
    __lock_acquire(map, lockname, instance, kind, subclass, trylock, ip, irqs_were_on(flags));
    lockdep_leave(flags);
}

void lock_page_acquire(struct page *page, int trylock, unsigned long ip)
{
    lock_acquire(&page_lock_map, NULL, page, LD_PAGE, 0, trylock, ip);
}

/* Remove the entry for instance from t's stack; false if t has none. */
static bool pop_held(struct task_struct *t, const void *instance)
{
    for (int i = t->lockdep_depth - 1; i >= 0; i--) {
        if (t->held_locks[i].instance != instance)
            continue;
        memmove(&t->held_locks[i], &t->held_locks[i + 1],
                (t->lockdep_depth - i - 1) * sizeof t->held_locks[0]);
        t->lockdep_depth--;
        return true;
    }
    return false;
}

static void report_bad_unlock(struct task_struct *t, struct task_struct *holder,
                              struct lockdep_map *map, unsigned long ip)
{
    print_banner("WARNING: bad unlock balance detected!");
    printk(KERN_ERR "%s/%d is trying to release lock (%s) at:\n", t->comm, t->pid,
           map->class ? map->class->name : map->name);
    print_ip("", ip);
    printk(KERN_ERR "but the lock is held by another task, %s/%d: only the task that "
           "took a lock may release it\n", holder->comm, holder->pid);
    printk(KERN_ERR "\nother info that might help us debug this:\n");
    lockdep_print_held_locks(t);
    lockdep_print_held_locks(holder);
    report_end();
}

/* Does t hold instance: an entry on t's stack that the lock's owner field
 * confirms (held_valid)?  An entry alone is not enough: the validator
 * records a lock before spinning or sleeping for it, so a task waiting on
 * another CPU for the very lock being let go has one (at -smp 4, the idle
 * task of CPU 0 waiting for runqueue_lock was named the holder when CPU 2
 * let go of it, taken while a planted-bug test had the validator off).
 * Read only: t may be running on another CPU, and only t changes its own
 * stack. */
static bool holds(struct task_struct *t, const void *instance)
{
    for (int i = 0; i < t->lockdep_depth; i++)
        if (t->held_locks[i].instance == instance)
            return held_valid(t, &t->held_locks[i], true);
    return false;
}

/* A release is forgotten whether the validator is on or off: a lock taken
 * while it was on and let go while it was off (a planted-bug test turns it
 * off with its report and back on) would otherwise stay on the task's
 * stack, and on several CPUs the next task to take and let go of the same
 * lock would look like a bad unlock. */
void lock_release(struct lockdep_map *map, const void *instance, unsigned long ip)
{
    struct task_struct *t = current, *p;
    if (t->lockdep_recursion)
        return;
    unsigned long flags = local_irq_save();
    t->lockdep_recursion++;
    if (!pop_held(t, instance) && debug_locks) {
        /* Not ours: whose?  A lock nobody holds was taken while the
         * validator was off (a planted-bug test turns it back on), or is
         * unlocked twice, which the lock itself reports. */
        list_for_each_entry(p, &task_list, tasks) {
            if (p != t && holds(p, instance)) {
                report_bad_unlock(t, p, map, ip);
                break;
            }
        }
    }
    lockdep_leave(flags);
}

/* downgrade_write (kernel/rwsem.c): the task's newest write entry for
 * instance becomes a read entry (Linux's lock_downgrade, 4.13; 2.6.24 left
 * the write entry as it was).  The dependencies already recorded stay. */
void lock_downgrade(struct lockdep_map *map, const void *instance)
{
    struct task_struct *t = current;
    if (t->lockdep_recursion)
        return;
    unsigned long flags = local_irq_save();
    t->lockdep_recursion++;
    for (int i = t->lockdep_depth - 1; i >= 0; i--)
        if (t->held_locks[i].instance == instance && !t->held_locks[i].read) {
            t->held_locks[i].read = 1;
            break;
        }
    lockdep_leave(flags);
}

/* The benchmarks (bench=, kernel/test/bench.c) run in the test kernel:
 * their figures are the locks', not the validator's, so it is off there
 * (each lock still calls lock_acquire, which returns at once). */
static void lockdep_bench_off(void)
{
    const char *b = cmdline_get("bench");
    if (b && *b) {
        debug_locks = 0;
        printk(KERN_INFO "lockdep: off for the benchmarks (bench=)\n");
    }
}
core_initcall(lockdep_bench_off);

void lockdep_hardirq_enter(void)
{
    current->hardirq_context++;
}

void lockdep_hardirq_exit(void)
{
    current->hardirq_context--;
}
#endif
