/* kernel/sched.c: tasks, the run queue and the scheduler, kernel threads.
 *
 * Sits on the CPU layer (switch.S, the TSS, the timer tick) and the page
 * allocator (kernel stacks); everything that sleeps (wait queues, mutexes,
 * the page lock, the disk) sits on it.
 *
 *  - A task is a struct task_struct plus an 8 KiB kernel stack, aligned to
 *    THREAD_SIZE, with a struct thread_info (task pointer + overflow canary)
 *    at its lowest address (the canary; `current` is each CPU's
 *    current_task, set by switch_to, see sched.h).
 *  - init_task (pid 0, "swapper") is kmain's own context on the boot stack,
 *    an ordinary task that may sleep while its CPU runs others.  Every CPU
 *    has an idle task from the start, which runs cpu_idle: swapper/0 on
 *    the boot CPU (sched_init, as Linux's init_idle), swapper/N on the
 *    others (kernel/x86/smpboot.c, Linux's fork_idle).  Once kmain has
 *    nothing left to do it becomes CPU 0's idle task itself (rest_init ->
 *    cpu_idle) and swapper/0 is freed.
 *  - A run queue per CPU (Linux 2.6's struct rq, rq->lock; the section
 *    below says how they meet), round-robin inside each: schedule() puts a
 *    still-runnable prev at the tail of its CPU's queue and takes the head.
 *    Before them every CPU took from one queue under one runqueue_lock
 *    (Linux 2.4's design): every switch on every CPU took that lock, and a
 *    woken task ran on whichever CPU came first, away from its caches.
 *  - A task runs on one CPU at a time: on_cpu is set while it is some
 *    CPU's current, and such a task is never queued (a wake-up only marks
 *    it runnable; its CPU finds that in schedule()).  The CPU's rq->lock is
 *    held from the choice of next across the switch, and let go by next
 *    (schedule_tail), so no other CPU can take prev before its registers
 *    are saved.
 *  - Idle: if nothing at all can run, schedule() waits with `sti; hlt` on
 *    the sleeper's own stack until an interrupt makes something runnable
 *    (simplification: Linux switches to the CPU's idle task for that),
 *    after trying to pull a task from a busier queue; a CPU that queues a
 *    task for a CPU that so waits sends it a RESCHEDULE IPI.  A task that
 *    died, or that may no longer run on its CPU, must not wait there: its
 *    CPU switches to its idle task.  The idle tasks are never queued
 *    (PF_IDLE).
 *  - Not preemptible (CONFIG_PREEMPT_NONE): the tick only sets need_resched;
 *    kernel code switches only in schedule()/cond_resched()/sleeping calls.
 *  - One CPU at a time in the kernel: schedule() lets go of the big kernel
 *    lock (include/smp_lock.h) before it takes rq->lock, and takes it
 *    back once the task runs again.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <init.h>
#include <sched.h>
#include <wait.h>
#include <asm/irqflags.h>
#include <asm/io.h>
#include <mm.h>
#include <slab.h>
#include <ksyms.h>
#include <timer.h>
#include <watchdog.h>
#include <fdtable.h>                   /* NR_OPEN: RLIMIT_NOFILE's default */
#include <asm/ptrace.h>
#include <smp.h>
#include <smp_lock.h>
#include "sched_glue.h"

LIST_HEAD(task_list);                  /* every task, for reports */

/* ---- the run queues: one per CPU (Linux 2.6's struct rq) ---------------
 *
 * Each CPU has its own FIFO of runnable tasks that it does not run, under
 * its own lock; it takes its next task from there alone, so two CPUs that
 * switch tasks at once take two different locks.  A task belongs to the
 * queue of task->cpu (Linux's task_cpu): the CPU it runs on, or is queued
 * on, or last ran on; it changes only with that queue's lock held (and the
 * new queue's, when the task is queued there: double_rq_lock).  The queues
 * meet in four places: a wake-up may put a task on another CPU's queue
 * (wake_up_state: its last CPU if allowed), a CPU with nothing to run pulls
 * a task from the busiest queue (idle_balance, before it halts and at each
 * tick it halts through), every BALANCE_TICKS ticks each CPU pulls one if
 * the busiest queue's load is more than one above its own (load_balance),
 * and an affinity change moves a task (set_cpus_allowed).  The policy
 * inside a queue is unchanged: round-robin with TASK_TIMESLICE.
 *
 * An array indexed by CPU, not a DEFINE_PER_CPU variable: an AP's per-CPU
 * area starts as a copy of the boot CPU's (it would copy the list heads'
 * pointers) and exists only once that CPU boots, while any CPU reads any
 * queue (balancing, wake-ups); and GDB reads runqueues[n] by name
 * (tools/gdb/vellum.py, lx-runqueues).  Each in a cache line of its own. */
struct rq {
    /* The queue, and for the tasks of this CPU (task->cpu) their state,
     * on_cpu, cpu and run_list.  Taken with interrupts off; held by the task
     * that calls schedule() across the switch and let go by the next one
     * (schedule_tail).  Two at once only through double_rq_lock: the lower
     * CPU number first, the second as a nested lock of the same class
     * (mm/filemap.c's LOCK ORDER); never with any other lock taken after
     * it but the validator's own; the big kernel lock comes before it. */
    spinlock_t lock;
    struct list_head queue;            /* runnable, not this CPU's current; FIFO */
    unsigned int nr_queued;            /* entries on queue */
    int cpu;
    struct task_struct *curr;          /* this CPU's current (reports, GDB) */
    /* 1 while this CPU halts in `sti; hlt` because nothing can run (in
     * schedule() or cpu_idle()): the tick that ends the halt is idle time,
     * and its queue counts one task less for balancing.  Written by this
     * CPU under the lock. */
    int idling;
    int kicked;                        /* sent a RESCHEDULE IPI since it last began
                                          to halt: one is enough (kick_idle_cpu) */
    int balance_ticks;                 /* ticks since the last load_balance */
    /* Counters (Linux's schedstat, cut down: /proc/schedstat shows them,
     * show_schedstat; GDB's lx-runqueues prints those from nr_switches on;
     * ktests read them): written under the lock */
    unsigned long sched_count;         /* schedule() calls on this CPU */
    unsigned long sched_goidle;        /* ... that left it idle (halted, or to
                                          its idle task) */
    unsigned long nr_switches;         /* context switches on this CPU */
    unsigned long nr_wakeups;          /* tasks woken onto this queue, or as
                                          this CPU's current (halted in their
                                          schedule()) */
    unsigned long nr_wakeups_remote;   /* ... by another CPU */
    unsigned long nr_idle_pulls;       /* tasks pulled by idle_balance */
    unsigned long nr_tick_pulls;       /* tasks pulled by load_balance */
    unsigned long nr_affine_moves;     /* tasks moved here by set_cpus_allowed */
} __attribute__((aligned(64)));

/* Initialised statically, so that a kthread made by an initcall that runs
 * before sched_init finds its queue; sched_init gives the locks one
 * validator class. */
#define RQ_INIT(n) [n] = { .lock = __SPIN_LOCK_UNLOCKED(rq->lock),              \
        .queue = LIST_HEAD_INIT(runqueues[n].queue), .cpu = n }
_Static_assert(NR_CPUS == 8, "runqueues[]: one RQ_INIT per CPU");
static struct rq runqueues[NR_CPUS] = {
    RQ_INIT(0), RQ_INIT(1), RQ_INIT(2), RQ_INIT(3),
    RQ_INIT(4), RQ_INIT(5), RQ_INIT(6), RQ_INIT(7),
};
#define cpu_rq(cpu) (&runqueues[(cpu)])
#define this_rq()   cpu_rq(smp_processor_id())
#define BALANCE_TICKS 4                /* load_balance's period, in ticks */

/* The process layer's part of a context switch: page directory, TLS
 * entries, FPU registers (kernel/fork.c, Linux's switch_mm + __switch_to). */
void arch_switch_to(struct task_struct *prev, struct task_struct *next);
/* A process that died with nobody to wait for it (its parent ignores
 * SIGCHLD) is freed by the process layer once off the CPU (kernel/exit.c). */
void release_dead_process(struct task_struct *t);
/* Pids come from the process layer's allocator (kernel/fork.c, <proc.h>),
 * which keeps pid 1 for init. */
pid_t alloc_pid(void);
static int sched_running;              /* sched_init() done */
/* /proc/lock_stat's names of the queues' locks */
static const char *const rq_lock_names[NR_CPUS] = {
    "rq0->lock", "rq1->lock", "rq2->lock", "rq3->lock",
    "rq4->lock", "rq5->lock", "rq6->lock", "rq7->lock",
};

extern char boot_stack[], boot_stack_top[];   /* boot/entry.S */

struct task_struct init_task = {
    .state = TASK_RUNNING,
    .pid = 0,
    .comm = "swapper",
    .rlim_fsize = { RLIM64_INFINITY, RLIM64_INFINITY },
    .rlim_nofile = { NR_OPEN, NR_OPEN },
    .rlim_nproc = { RLIM64_INFINITY, RLIM64_INFINITY },   /* init's: rest_init */
    .rlim_cpu = { RLIM64_INFINITY, RLIM64_INFINITY },
    .rlim_memlock = { MLOCK_LIMIT, MLOCK_LIMIT },
    .rlim_sigpending = { RLIM64_INFINITY, RLIM64_INFINITY },
    .run_list = LIST_HEAD_INIT(init_task.run_list),
    .on_cpu = 1,                       /* CPU 0's current from the start */
    .cpus_allowed = 1,                 /* kmain (initcalls, ktests) on the boot CPU */
    .tasks = LIST_HEAD_INIT(init_task.tasks),
    .time_slice = TASK_TIMESLICE,
};

/* switch.S */
struct task_struct *switch_to(struct task_struct *prev, struct task_struct *next);
extern void ret_from_kthread(void);

/* The running task of each CPU (include/sched.h, get_current): on the boot
 * CPU kmain's context from its first instruction, then whatever switch_to()
 * (kernel/x86/switch.S) switched to; an AP's is set by do_boot_cpu
 * (kernel/x86/smpboot.c).  Linux's per-CPU current_task. */
DEFINE_PER_CPU(struct task_struct *, current_task) = &init_task;
/* Each CPU's idle task: on the boot CPU swapper/0, made by sched_init,
 * until kmain is done and becomes the idle loop itself (cpu_idle); on the
 * others swapper/N (kernel/x86/smpboot.c).  init_task's until sched_init,
 * before anything sleeps. */
DEFINE_PER_CPU(struct task_struct *, idle_task) = &init_task;

char task_state_char(long state)
{
    switch (state) {
    case TASK_RUNNING: return 'R';
    case TASK_INTERRUPTIBLE: return 'S';
    case TASK_UNINTERRUPTIBLE: return 'D';
    case TASK_STOPPED: return 'T';
    case TASK_DEAD: return 'X';
    default: return '?';
    }
}

/* A full barrier after the store (xchg), as Linux's smp_store_mb: the
 * waiter's next load (the condition it re-checks) must not be done before
 * its state is visible to a waker on another CPU, or the waker could see
 * it still running and the waiter miss the condition: a lost wake-up. */
void set_current_state(long state)
{
    __sync_lock_test_and_set(&current->state, state);
}

/* ---- the run queues (rq->lock) ----------------------------------------- */

/* Take two queues' locks, interrupts off (Linux's double_rq_lock): the
 * lower CPU number first, whichever order the caller names them in, so
 * that two CPUs taking the same two never wait for each other; the
 * second is the same lock class, so it is taken as a nested lock
 * (spin_lock_nested, as futex.c takes two buckets).  a == b: one lock. */
static void double_rq_lock(struct rq *a, struct rq *b)
{
    if (a == b) {
        spin_lock(&a->lock);
        return;
    }
    if (a->cpu > b->cpu) {
        struct rq *t = a;
        a = b;
        b = t;
    }
    spin_lock(&a->lock);
    spin_lock_nested(&b->lock, 1);
}

static void double_rq_unlock(struct rq *a, struct rq *b)
{
    spin_unlock(&a->lock);
    if (a != b)
        spin_unlock(&b->lock);
}

/* Lock the queue t belongs to, interrupts off (Linux's task_rq_lock): t->cpu
 * may change until that queue's lock is held, so look again once it is. */
static struct rq *task_rq_lock(struct task_struct *t, unsigned long *flags)
{
    *flags = local_irq_save();
    for (;;) {
        struct rq *rq = cpu_rq(READ_ONCE(t->cpu));
        spin_lock(&rq->lock);
        if (rq == cpu_rq(t->cpu))
            return rq;
        spin_unlock(&rq->lock);
    }
}

/* Lock t's queue and the one it should be on (select_task_rq: its last
 * CPU if allowed and online, else the first allowed online CPU), both as
 * double_rq_lock; *dst is that queue.  Interrupts off. */
static struct rq *task_rq_lock_target(struct task_struct *t, struct rq **dst)
{
    for (;;) {
        int old = READ_ONCE(t->cpu), target = old;
        unsigned long ok = READ_ONCE(t->cpus_allowed) & cpu_online_mask;
        if (!(ok & (1ul << old)) && ok)
            target = __builtin_ctzl(ok);
        struct rq *src = cpu_rq(old);
        *dst = cpu_rq(target);
        double_rq_lock(src, *dst);
        if (t->cpu == old)
            return src;
        double_rq_unlock(src, *dst);
    }
}

/* How busy a queue is, for balancing: its queued tasks, plus one for the
 * task its CPU runs unless that is its idle task or it halts.  Read
 * without its lock (a hint), or under it. */
static unsigned int rq_load(struct rq *rq)
{
    struct task_struct *curr = READ_ONCE(rq->curr);
    bool busy = !READ_ONCE(rq->idling) && curr && !(curr->flags & PF_IDLE);
    return READ_ONCE(rq->nr_queued) + busy;
}

/* A CPU that t may run on, waiting in `sti; hlt` for something to run:
 * wake one (ourselves and busy excepted), which then pulls t or another
 * task over (idle_balance). */
static void kick_idle_cpu(struct task_struct *t, int busy)
{
    int cpu, me = smp_processor_id();
    for_each_online_cpu(cpu) {
        struct rq *rq = cpu_rq(cpu);
        if (cpu != me && cpu != busy && READ_ONCE(rq->idling) && !READ_ONCE(rq->kicked) &&
            (t->cpus_allowed & (1ul << cpu))) {
            WRITE_ONCE(rq->kicked, 1);         /* one IPI is enough */
            smp_send_reschedule(cpu);
            return;
        }
    }
}

/* rq has just been given t (queued): wake its CPU if it halts; if it is
 * busy with another task, wake an idle CPU that may run t instead, to pull
 * it over.  rq->lock held.  (Without priorities, "the woken task should
 * preempt" never arises: round-robin.) */
static void resched_for(struct rq *rq, struct task_struct *t)
{
    if (rq->cpu != smp_processor_id() && rq->idling) {
        if (!rq->kicked) {
            rq->kicked = 1;
            smp_send_reschedule(rq->cpu);
        }
    } else if (rq_load(rq) >= 2) {
        kick_idle_cpu(t, rq->cpu);
    }
}

static void enqueue_task(struct rq *rq, struct task_struct *t)
{
    BUG_ON(t->flags & PF_IDLE);
    WARN_ON(t->cpu != rq->cpu);
    if (list_empty(&t->run_list)) {
        list_add_tail(&t->run_list, &rq->queue);
        rq->nr_queued++;
    }
}

static void dequeue_task(struct rq *rq, struct task_struct *t)
{
    list_del_init(&t->run_list);
    rq->nr_queued--;
}

int wake_up_process(struct task_struct *t)
{
    return wake_up_state(t, TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE);
}

/* Linux's try_to_wake_up: a sleeping task goes on the queue of the CPU it
 * last ran on if it may still run there (its caches may still hold its
 * data), else on the first online CPU it may run on; that CPU is woken if
 * it halts, or an idle one that may take the task over if it is busy. */
int wake_up_state(struct task_struct *t, long state)
{
    unsigned long flags = local_irq_save();
    struct rq *dst, *src = task_rq_lock_target(t, &dst);
    int woken = 0;
    if (t->state & state) {
        t->state = TASK_RUNNING;
        t->timer_pending = 0;
        /* A task some CPU runs (or waits in, halted) is not queued: that
         * CPU's schedule() finds it runnable again; wake the CPU if it
         * halts. */
        struct rq *rq = src;               /* where it is woken */
        if (!t->on_cpu) {
            t->cpu = dst->cpu;
            enqueue_task(dst, t);
            resched_for(dst, t);
            rq = dst;
        } else if (t->cpu != smp_processor_id() && src->idling) {
            smp_send_reschedule(t->cpu);
        }
        rq->nr_wakeups++;
        if (rq->cpu != smp_processor_id())
            rq->nr_wakeups_remote++;
        woken = 1;
    }
    double_rq_unlock(src, dst);
    local_irq_restore(flags);
    return woken;
}

/* t may be running on another CPU, in user mode: interrupt that CPU, so
 * that t looks at its signals on the way back there (every return to user
 * mode does: exit_to_user_mode).  Otherwise it would see them at its next
 * tick.  (Linux's kick_process.) */
void kick_process(struct task_struct *t)
{
    unsigned long flags;
    struct rq *rq = task_rq_lock(t, &flags);
    if (t->on_cpu && t->cpu != smp_processor_id() && t->state == TASK_RUNNING)
        smp_send_reschedule(t->cpu);
    spin_unlock_irqrestore(&rq->lock, flags);
}

static void check_stack(struct task_struct *t)
{
    if (t->stack && ((struct thread_info *)t->stack)->magic != STACK_END_MAGIC)
        panic("kernel stack overflow in task %d (%s): canary at %p overwritten",
              t->pid, t->comm, t->stack);
}

/* A runnable prev that switched away from a CPU it may no longer run on
 * (set_cpus_allowed): onto an allowed CPU's queue, now that it is off this
 * one (Linux moves it with its migration thread).  Interrupts off. */
static void move_off_cpu(struct task_struct *t)
{
    struct rq *dst, *src = task_rq_lock_target(t, &dst);
    if (t->state == TASK_RUNNING && !t->on_cpu && list_empty(&t->run_list)) {
        t->cpu = dst->cpu;
        enqueue_task(dst, t);
        if (dst != src)
            dst->nr_affine_moves++;
        resched_for(dst, t);
    }
    double_rq_unlock(src, dst);
}

/* Runs in the next task right after the switch (also as the first thing a
 * new task does, from ret_from_kthread or ret_from_fork), with this CPU's
 * rq->lock still held by the switch and interrupts off: prev is off its
 * CPU now, so it may be taken by another CPU once the lock goes (Linux's
 * finish_task_switch).  The lock was taken by prev: the validator is told
 * it changed hands.  A runnable prev that may not stay here moves to an
 * allowed CPU's queue.  Then the stack of a task that died can be freed,
 * now that nobody runs on it, and a process nobody will reap (exit_state
 * EXIT_DEAD) with it, as Linux's finish_task_switch drops the last
 * reference, or else its reaper woken: that needs the big kernel lock. */
/* A dead task's stack is gone: whoever waits to reap it may now
 * (kthread_stop, a parent in wait4: both sleep until then, not in a
 * yield() loop that would keep the big kernel lock from this CPU, which
 * needs it to get here).  The big kernel lock held. */
static void wake_reaper(struct task_struct *dead)
{
    if (dead->stopper)
        wake_up_process(dead->stopper);
    else if (dead->is_process && dead->exit_state == EXIT_ZOMBIE && dead->parent)
        wake_up_all(&tg_leader(dead->parent)->wait_chldexit);
}

void schedule_tail(struct task_struct *prev)
{
    struct task_struct *me = current;
    struct rq *rq = this_rq();
    spin_acquire(&rq->lock, 0);
    rq->lock.owner = me;
    me->on_cpu = 1;
    WARN_ON(me->cpu != rq->cpu);       /* picked from this CPU's queue */
    me->cpu = rq->cpu;
    rq->curr = me;
    bool move = false;
    if (prev && prev != me) {
        prev->on_cpu = 0;
        move = prev->state == TASK_RUNNING && !(prev->flags & PF_IDLE) &&
               list_empty(&prev->run_list);
    }
    spin_unlock(&rq->lock);
    if (move)
        move_off_cpu(prev);
    if (prev && prev != me && prev->state == TASK_DEAD && prev->stack) {
        lock_kernel();
        free_thread_stack(prev->stack);
        prev->stack = NULL;
        if (prev->is_process && prev->exit_state == EXIT_DEAD)
            release_dead_process(prev);
        else
            wake_reaper(prev);
        unlock_kernel();
    }
}

/* The first task on rq's queue that may run on its CPU and that no CPU
 * still runs, or NULL.  rq->lock held. */
static struct task_struct *pick_next_task(struct rq *rq)
{
    struct task_struct *t;
    unsigned long mask = 1ul << rq->cpu;
    list_for_each_entry(t, &rq->queue, run_list)
        if ((t->cpus_allowed & mask) && !t->on_cpu)
            return t;
    return NULL;
}

/* Who runs next on this CPU after prev (which called schedule()), or NULL
 * if nobody can (then the CPU waits).  Round-robin: a still-runnable prev
 * goes to the tail of this CPU's queue and the head runs, which is prev
 * itself if it was alone.  A runnable prev that may not stay on this CPU
 * (set_cpus_allowed) is moved to another CPU's queue once off this one
 * (schedule_tail) and this CPU runs the next task or its idle task; so
 * does a dead prev when nothing else can run.  An idle task is never
 * queued: it keeps the CPU if nothing else can run.  rq->lock held. */
static struct task_struct *choose_next(struct rq *rq, struct task_struct *prev)
{
    struct task_struct *next = pick_next_task(rq), *idle = this_cpu_read(idle_task);
    bool runnable = prev->state == TASK_RUNNING;
    BUG_ON(!(idle->flags & PF_IDLE));  /* every CPU has one from sched_init on */
    if (runnable && !(prev->flags & PF_IDLE)) {
        if (!(prev->cpus_allowed & (1ul << rq->cpu))) {
            if (!next)
                next = idle;
        } else if (next) {
            enqueue_task(rq, prev);
        } else {
            return prev;
        }
    } else if (!next) {
        if (runnable)
            return prev;               /* an idle task with nothing to do */
        /* A dead task's stack is freed by the next task to run on its CPU
         * (schedule_tail), and its parent waits for that to reap it: do
         * not idle on it, go to the idle task. */
        if (prev->state == TASK_DEAD)
            return idle;
        return NULL;
    }
    if (!list_empty(&next->run_list))      /* not the idle task */
        dequeue_task(rq, next);
    return next;
}

/* Move one task from src's queue to dst's: the first that no CPU runs and
 * that may run on dst's CPU (Linux's pull_task).  Both locks held. */
static struct task_struct *pull_task(struct rq *src, struct rq *dst)
{
    struct task_struct *t;
    unsigned long mask = 1ul << dst->cpu;
    list_for_each_entry(t, &src->queue, run_list)
        if ((t->cpus_allowed & mask) && !t->on_cpu && !(t->flags & PF_IDLE)) {
            dequeue_task(src, t);
            t->cpu = dst->cpu;
            enqueue_task(dst, t);
            return t;
        }
    return NULL;
}

/* The busiest other queue whose load is at least min and above this
 * one's by more than margin, with something queued, or NULL (a hint: read
 * without the locks, checked again under them). */
static struct rq *find_busiest_queue(struct rq *this, unsigned int min, unsigned int margin)
{
    struct rq *busiest = NULL;
    unsigned int best = 0, mine = rq_load(this);
    int cpu;
    for_each_online_cpu(cpu) {
        struct rq *rq = cpu_rq(cpu);
        unsigned int load = rq_load(rq);
        if (rq != this && READ_ONCE(rq->nr_queued) && load >= min &&
            load > mine + margin && load > best) {
            busiest = rq;
            best = load;
        }
    }
    return busiest;
}

/* This CPU has nothing to run: pull a task from the busiest queue that
 * has one waiting besides the task its CPU runs (Linux's idle_balance,
 * newidle).  A task queued on a halted CPU is left to it (that CPU was
 * woken for it).  1 if a task was pulled.  Interrupts off, this->lock not
 * held. */
static int idle_balance(struct rq *this)
{
    struct rq *busiest = find_busiest_queue(this, 2, 0);
    if (!busiest)
        return 0;
    double_rq_lock(this, busiest);
    struct task_struct *t = NULL;
    if (rq_load(busiest) >= 2 && (t = pull_task(busiest, this)))
        this->nr_idle_pulls++;
    double_rq_unlock(this, busiest);
    return t != NULL;
}

/* Every BALANCE_TICKS ticks on each CPU: if the busiest queue has more
 * than one task more than this one, pull one (Linux's load_balance from
 * rebalance_tick, one task at a time).  The tick, interrupts off. */
static void load_balance(struct rq *this)
{
    struct rq *busiest = find_busiest_queue(this, 2, 1);
    if (!busiest)
        return;
    double_rq_lock(this, busiest);
    if (rq_load(busiest) > rq_load(this) + 1 && pull_task(busiest, this))
        this->nr_tick_pulls++;
    double_rq_unlock(this, busiest);
}

int set_cpus_allowed(struct task_struct *t, unsigned long mask)
{
    if (!(mask & cpu_online_mask))
        return -EINVAL;
    unsigned long flags = local_irq_save();
    struct rq *dst, *src;
    WRITE_ONCE(t->cpus_allowed, mask);
    src = task_rq_lock_target(t, &dst);
    if (t->on_cpu) {
        if (!(mask & (1ul << t->cpu))) {
            /* it runs where it may not: it moves at its next schedule(),
             * which its CPU is asked for now (simplification: Linux moves
             * it at once, with its migration thread) */
            t->need_resched = 1;
            if (t->cpu != smp_processor_id())
                smp_send_reschedule(t->cpu);
        }
    } else if (src != dst) {
        /* queued or asleep on a CPU it may not run on: to an allowed one's
         * queue now (Linux's __migrate_task) */
        bool queued = !list_empty(&t->run_list);
        if (queued)
            dequeue_task(src, t);
        t->cpu = dst->cpu;
        if (queued) {
            enqueue_task(dst, t);
            dst->nr_affine_moves++;
            resched_for(dst, t);
        }
    }
    double_rq_unlock(src, dst);
    local_irq_restore(flags);
    if (t == current && !(mask & (1ul << smp_processor_id())))
        yield();                       /* this CPU will not take it again */
    return 0;
}

/* Halt until an interrupt, rq->lock let go meanwhile (interrupts off on
 * entry and on return, the lock held); first try to pull a task from a
 * busy queue (idle_balance), which makes the halt unneeded.  Each tick
 * ends the halt, so an idle CPU looks at the other queues every tick. */
static void idle_wait(struct rq *rq)
{
    rq->idling = 1;                    /* the ticks now are idle time */
    rq->kicked = 0;                    /* a new halt: not sent an IPI yet */
    spin_unlock(&rq->lock);
    if (!idle_balance(rq))
        safe_halt();
    local_irq_disable();
    spin_lock(&rq->lock);
    rq->idling = 0;
}

void schedule(void)
{
    struct task_struct *prev = current, *next;
    unsigned long flags;
    struct rq *rq;

    release_kernel_lock(prev);
    flags = local_irq_save();
    rq = this_rq();
    spin_lock(&rq->lock);
    check_stack(prev);
    touch_softlockup_watchdog();                 /* a schedule point (kernel/watchdog.c) */
    prev->need_resched = 0;
    rq->sched_count++;
    /* If nothing can run, idle here until an interrupt or another CPU
     * wakes someone (the timer ending a timeout, the disk, ...).  `sti;
     * hlt` is atomic: the interrupt cannot slip in between and be missed.
     * wake_up_state() does not queue a task that is a CPU's current, so
     * after every interrupt prev must be looked at again here: one tick
     * can end two timeouts, and a prev left TASK_RUNNING but on no queue
     * would never run again. */
    bool waited = false;
    while (!(next = choose_next(rq, prev))) {
        idle_wait(rq);
        waited = true;
    }
    next->time_slice = TASK_TIMESLICE;
    if (waited || (next->flags & PF_IDLE))
        rq->sched_goidle++;
    /* getrusage's context switches: prev slept (it gave the CPU up, to
     * another task or to the halt above), or was switched out runnable. */
    if (next != prev && prev->state == TASK_RUNNING)
        prev->nivcsw++;
    else if (next != prev || waited)
        prev->nvcsw++;
    if (next != prev) {
        next->on_cpu = 1;
        rq->nr_switches++;
        tss_set_kernel_stack(next->stack ? (unsigned long)next->stack + THREAD_SIZE
                                         : (unsigned long)boot_stack_top);
        arch_switch_to(prev, next);
        spin_release(&rq->lock);                 /* next lets it go: schedule_tail */
        prev = switch_to(prev, next);
        /* Back in the task that called schedule() above (maybe on another
         * CPU now); prev is the task that ran just before us on this CPU. */
        schedule_tail(prev);
    } else {
        spin_unlock(&rq->lock);
    }
    local_irq_restore(flags);
    reacquire_kernel_lock(current);
}

void yield(void)
{
    set_current_state(TASK_RUNNING);
    schedule();
}

void cond_resched(void)
{
    if (current->need_resched)
        schedule();
}

/* ---- time ------------------------------------------------------------ */

long schedule_timeout(long timeout)
{
    if (timeout == MAX_SCHEDULE_TIMEOUT) {
        schedule();
        return MAX_SCHEDULE_TIMEOUT;
    }
    if (WARN(timeout < 0, "schedule_timeout: negative timeout %ld", timeout)) {
        set_current_state(TASK_RUNNING);   /* a caller's bug: do not sleep */
        return 0;
    }
    unsigned long expire = jiffies + timeout;
    unsigned long flags = local_irq_save();
    struct task_struct *me = current;
    me->timeout = expire;
    me->timer_pending = 1;
    local_irq_restore(flags);
    schedule();
    me->timer_pending = 0;
    long left = (long)(expire - jiffies);
    return left > 0 ? left : 0;
}

void msleep(unsigned int ms)
{
    /* +1: the current tick is already partly over, so n ticks from now may
     * be less than n full periods (Linux's msecs_to_jiffies + 1). */
    long t = (long)DIV_ROUND_UP((unsigned long)ms * HZ, 1000) + 1;
    while (t) {
        set_current_state(TASK_UNINTERRUPTIBLE);
        t = schedule_timeout(t);
    }
}

/* The boot CPU's tick, interrupts off, the big kernel lock held: wake the
 * tasks whose schedule_timeout() expired.  (Each CPU's tick charges its own
 * task's slice: sched_tick_hook.)  Walking every task is O(tasks) per
 * tick; Linux keeps a timer wheel instead.  A handful of kthreads is cheap. */
void scheduler_tick(void)
{
    struct task_struct *t, *me = current;
    if (!sched_running)
        return;
    list_for_each_entry(t, &task_list, tasks)
        if (t->timer_pending && time_after_eq(jiffies, t->timeout)) {
            t->timer_pending = 0;
            if (wake_up_process(t))
                me->need_resched = 1;
        }
}

/* ---- kernel threads --------------------------------------------------- */

/* First C code of a new kthread (called from ret_from_kthread, after
 * schedule_tail()).  Interrupts are still off from schedule(); the big
 * kernel lock is not held yet. */
void kthread_main(void)
{
    struct task_struct *me = current;
    local_irq_enable();
    if (me->flags & PF_IDLE)
        cpu_idle();                    /* swapper/0 (sched_init): holds nothing */
    lock_kernel();                     /* kernel code: the big kernel lock (until unlock_kernel) */
    do_exit(me->threadfn(me->data));
}

/* A kernel task that has not run yet, on no list, with no pid: its stack
 * is built so that its first switch_to lands in ret_from_kthread, which
 * runs fn(data) (kthread_main).  Asleep (TASK_UNINTERRUPTIBLE), to run on
 * this CPU's queue, on any CPU. */
static struct task_struct *new_kernel_task(int (*fn)(void *), void *data, const char *name)
{
    struct task_struct *t = alloc_task_struct();
    if (!t)
        return ERR_PTR(-ENOMEM);
    memset(t, 0, sizeof *t);
    t->stack = alloc_thread_stack();
    if (!t->stack) {
        free_task_struct(t);
        return ERR_PTR(-ENOMEM);
    }
    struct thread_info *ti = t->stack;
    ti->task = t;
    ti->magic = STACK_END_MAGIC;
    strlcpy(t->comm, name ? name : "kthread", TASK_COMM_LEN);
    t->threadfn = fn;
    t->data = data;
    t->time_slice = TASK_TIMESLICE;
    t->cpus_allowed = CPU_MASK_ALL;
    t->cpu = smp_processor_id();       /* its first queue: its maker's CPU's */
    t->start_time = jiffies;
    t->rlim_fsize[0] = t->rlim_fsize[1] = RLIM64_INFINITY;
    t->rlim_nofile[0] = t->rlim_nofile[1] = NR_OPEN;
    t->rlim_nproc[0] = t->rlim_nproc[1] = RLIM64_INFINITY;
    t->rlim_cpu[0] = t->rlim_cpu[1] = RLIM64_INFINITY;
    t->rlim_memlock[0] = t->rlim_memlock[1] = MLOCK_LIMIT;
    t->rlim_sigpending[0] = t->rlim_sigpending[1] = RLIM64_INFINITY;
    INIT_LIST_HEAD(&t->run_list);

    /* The initial stack is what switch_to() pops: edi, esi, ebx, ebp, then
     * the return address ret_from_kthread.  ebp = 0 ends backtraces. */
    unsigned long *sp = (unsigned long *)((char *)t->stack + THREAD_SIZE);
    *--sp = 0;                                 /* fake return address of ret_from_kthread */
    *--sp = (unsigned long)ret_from_kthread;
    *--sp = 0;                                 /* ebp */
    *--sp = 0;                                 /* ebx */
    *--sp = 0;                                 /* esi */
    *--sp = 0;                                 /* edi */
    t->sp = (unsigned long)sp;
    t->state = TASK_UNINTERRUPTIBLE;
    return t;
}

struct task_struct *kthread_create(int (*fn)(void *), void *data, const char *name)
{
    struct task_struct *t = new_kernel_task(fn, data, name);
    if (IS_ERR(t))
        return t;
    unsigned long flags = local_irq_save();
    t->pid = alloc_pid();
    list_add_tail(&t->tasks, &task_list);
    local_irq_restore(flags);
    return t;                          /* born asleep, woken onto a queue */
}

/* Before its first wake-up: t runs on cpu alone, starting on its queue. */
void kthread_bind(struct task_struct *t, int cpu)
{
    BUG_ON(t->state != TASK_UNINTERRUPTIBLE || t->on_cpu || !cpu_online(cpu));
    t->cpus_allowed = 1ul << cpu;
    t->cpu = cpu;
}

struct task_struct *kthread_run(int (*fn)(void *), void *data, const char *name)
{
    struct task_struct *t = kthread_create(fn, data, name);
    if (!IS_ERR(t))
        wake_up_process(t);
    return t;
}

int kthread_should_stop(void)
{
    return READ_ONCE(current->should_stop);
}

/* A dead task keeps its task_struct (a zombie: the exit code) until
 * kthread_stop() reaps it; its stack is freed by the next task to run, in
 * schedule_tail().  A kthread that returns on its own stays a zombie until
 * someone calls kthread_stop() on it, as a Unix child waits for wait(). */
void do_exit(int code)
{
    struct task_struct *me = current;
    if (me == &init_task)
        panic("do_exit: the swapper (pid 0) tried to exit");
    local_irq_disable();
    me->exit_code = code;
    me->state = TASK_DEAD;
    if (me->stopper)
        wake_up_process(me->stopper);
    schedule();
    panic("do_exit: dead task %d rescheduled", me->pid);
}

int kthread_stop(struct task_struct *t)
{
    if (WARN(!t || t == current, "kthread_stop: bad task %p", t))
        return -EINVAL;
    t->should_stop = 1;
    t->stopper = current;
    wake_up_process(t);
    for (;;) {
        set_current_state(TASK_UNINTERRUPTIBLE);
        if (READ_ONCE(t->state) == TASK_DEAD && !t->stack)
            break;
        /* alive, or dead with its stack not yet freed: the CPU that frees
         * it wakes us (schedule_tail: wake_reaper) */
        schedule();
    }
    set_current_state(TASK_RUNNING);
    int code = t->exit_code;
    unsigned long flags = local_irq_save();
    list_del(&t->tasks);
    local_irq_restore(flags);
    free_task_struct(t);
    return code;
}

/* ---- reports ----------------------------------------------------------- */

/* "    [<c0101234>] func+0x12/0x40".  A return address may point just past
 * its function (a call to a noreturn function ends it): look up addr - 1. */
static void print_symbol_line(unsigned long addr)
{
    unsigned long off, size;
    const char *name = ksym_lookup(addr - 1, &off, &size);
    if (name)
        printk("    [<%08lx>] %s+%#lx/%#lx\n", addr, name, off + 1, size);
    else
        printk("    [<%08lx>] ?\n", addr);
}

void sched_backtrace(unsigned long ebp, unsigned long lo, unsigned long hi)
{
    unsigned long trace[STACK_TRACE_DEPTH];
    int n = walk_stack_bounded(ebp, lo, hi, trace, STACK_TRACE_DEPTH);
    for (int i = 0; i < n; i++)
        print_symbol_line(trace[i]);
}

/* Return addresses of a task switched out in schedule(): first the one
 * into schedule() that switch_to() saved, then the frame chain.  0 for the
 * running task or a dead one. */
int task_backtrace(struct task_struct *t, unsigned long *out, int max)
{
    if (t == current || t->state == TASK_DEAD || max < 1)
        return 0;
    unsigned long *sp = (unsigned long *)t->sp;   /* edi esi ebx ebp ret */
    unsigned long lo = t->stack ? (unsigned long)t->stack : (unsigned long)boot_stack;
    unsigned long hi = lo + (t->stack ? THREAD_SIZE :
                             (unsigned long)(boot_stack_top - boot_stack));
    out[0] = sp[4];
    return 1 + walk_stack_bounded(sp[3], lo, hi, out + 1, max - 1);
}

void show_task(struct task_struct *t)
{
    char what[64] = "";
    if (t->waiting_on_page)
        snprintf(what, sizeof what, " waiting on page %p", t->waiting_on_page);
    else if (t->waiting_on && t->state != TASK_RUNNING)
        snprintf(what, sizeof what, " waiting on %s %p",
                 t->waiting_what ? t->waiting_what : "object", t->waiting_on);
    if (t->timer_pending)
        snprintf(what + strlen(what), sizeof what - strlen(what), " (timeout at %lu)", t->timeout);
    char where[24] = "";
    if (t == current)
        snprintf(where, sizeof where, " (running)");
    else if (t->on_cpu)
        snprintf(where, sizeof where, " (on CPU %d)", t->cpu);
    char queued[24] = "";
    if (!list_empty(&t->run_list))
        snprintf(queued, sizeof queued, " (queued on CPU %d)", t->cpu);
    printk("  pid %d %-15s %c%s%s%s\n", t->pid, t->comm, task_state_char(t->state),
           where, queued, what);
    if (t->on_cpu && t != current)
        return;                        /* its stack is moving: no backtrace */
    if (t == current) {
        unsigned long ebp = (unsigned long)__builtin_frame_address(0);
        unsigned long lo = t->stack ? (unsigned long)t->stack : (unsigned long)boot_stack;
        sched_backtrace(ebp, lo, lo + (t->stack ? THREAD_SIZE :
                        (unsigned long)(boot_stack_top - boot_stack)));
    } else {
        unsigned long trace[STACK_TRACE_DEPTH];
        int n = task_backtrace(t, trace, STACK_TRACE_DEPTH);
        for (int i = 0; i < n; i++)
            print_symbol_line(trace[i]);
    }
}

void show_state(void)
{
    struct task_struct *t;
    printk("tasks (R running/runnable, S/D sleeping, X dead):\n");
    list_for_each_entry(t, &task_list, tasks)
        show_task(t);
    show_runqueues();
}

/* Each online CPU's queue, read without its lock (a report: the oops and
 * hung-task paths must not wait for a lock some stuck CPU holds):
 * "  CPU 1: runs pid 7 (sh), queued: 9 12", indented as the task lines
 * above it are (tools/testlib.sh's kernel_reports keeps a report's indented
 * lines together). */
void show_runqueues(void)
{
    int cpu;
    for_each_online_cpu(cpu) {
        struct rq *rq = cpu_rq(cpu);
        struct task_struct *c = READ_ONCE(rq->curr), *t;
        char line[128];
        int n = snprintf(line, sizeof line, "  CPU %d: %s pid %d (%s), queued:", cpu,
                         rq->idling ? "idle in" : "runs", c ? c->pid : -1, c ? c->comm : "?");
        int count = 0;
        list_for_each_entry(t, &rq->queue, run_list) {
            if (++count > 16 || n >= (int)sizeof line - 8) {
                n += snprintf(line + n, sizeof line - n, " ...");
                break;
            }
            n += snprintf(line + n, sizeof line - n, " %d", t->pid);
        }
        if (!count)
            snprintf(line + n, sizeof line - n, " none");
        printk("%s\n", line);
    }
}

/* /proc/schedstat (fs/pseudofs.c): Linux's version 15, cut down (docs/smp.md,
 * "/proc/schedstat").  A line per online CPU, "cpuN" and Linux's nine
 * fields in Linux's order: 1 yld_count (0: not kept), 2 Linux's legacy 0,
 * 3 sched_count, 4 sched_goidle, 5 ttwu_count (wake-ups onto this queue
 * or of its CPU's current halted in schedule(); Linux counts them on the
 * waker's CPU: the sums agree), 6 ttwu_local
 * (those done by this CPU), 7-9 rq_cpu_time, run_delay, pcount (0: Vellum
 * keeps no run times); then Vellum's own, which Linux's line has not:
 * 10 context switches, 11 wake-ups by another CPU, 12 idle pulls, 13
 * tick pulls, 14 affinity moves.  No "domainN" lines: Vellum balances
 * over all the CPUs at once, with no scheduling domains.  Each CPU's
 * numbers are read under its queue's lock, one consistent line each. */
int show_schedstat(char *buf, size_t size)
{
    size_t n = 0;
    int cpu;
#define OUT(...) (n += snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__))
    OUT("version 15\ntimestamp %lu\n", jiffies);
    for_each_online_cpu(cpu) {
        struct rq *rq = cpu_rq(cpu);
        unsigned long flags;
        spin_lock_irqsave(&rq->lock, flags);
        unsigned long v[] = { rq->sched_count, rq->sched_goidle, rq->nr_wakeups,
                              rq->nr_wakeups - rq->nr_wakeups_remote, rq->nr_switches,
                              rq->nr_wakeups_remote, rq->nr_idle_pulls, rq->nr_tick_pulls,
                              rq->nr_affine_moves };
        spin_unlock_irqrestore(&rq->lock, flags);
        OUT("cpu%d 0 0 %lu %lu %lu %lu 0 0 0 %lu %lu %lu %lu %lu\n", cpu,
            v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
    }
#undef OUT
    return n < size ? (int)n : (int)size;
}

/* ---- idle -------------------------------------------------------------- */

/* An AP's idle task, before the AP runs it (kernel/x86/smpboot.c; Linux's
 * init_idle): its CPU's current, on no queue. */
void init_idle(struct task_struct *idle, int cpu)
{
    idle->cpu = cpu;
    cpu_rq(cpu)->curr = idle;
    lock_stat_register(&cpu_rq(cpu)->lock, rq_lock_names[cpu]);   /* /proc/lock_stat */
}

/* kmain is done (cpu_idle): init_task becomes CPU 0's idle task, and
 * swapper/0, which stood in for it while kmain could sleep, is freed.  It
 * is parked in schedule() (it runs on CPU 0 alone, and kmain runs there
 * now) and nothing points at it once idle_task does not. */
static void idle_take_over(struct task_struct *me)
{
    struct task_struct *stand_in = this_cpu_read(idle_task);
    BUG_ON(me != &init_task || smp_processor_id() != 0 || !(stand_in->flags & PF_IDLE));
    unsigned long flags = local_irq_save();
    struct rq *rq = this_rq();
    spin_lock(&rq->lock);
    BUG_ON(stand_in->on_cpu);
    me->flags |= PF_IDLE;
    this_cpu_write(idle_task, me);
    spin_unlock_irqrestore(&rq->lock, flags);
    free_thread_stack(stand_in->stack);
    free_task_struct(stand_in);
}

/* A CPU's idle loop, never to return: each CPU's idle task runs it, from
 * the first time its CPU has nothing to run (swapper/0, made by
 * sched_init, on the boot CPU; swapper/N on an AP once it is online,
 * start_secondary in kernel/x86/smpboot.c), as Linux's
 * cpu_startup_entry(); and the swapper (pid 0, kmain) at the end of
 * rest_init() (kernel/user_init.c), after pid 1 was created, which then
 * takes over from swapper/0 (idle_take_over).  It runs whatever is
 * runnable and halts until the next interrupt otherwise.  An idle task is
 * PF_IDLE: never queued, so once schedule() has switched away from it, it
 * stays parked, and the CPU waits in schedule() itself when nothing can
 * run. */
void cpu_idle(void)
{
    struct task_struct *me = current;
    if (me != this_cpu_read(idle_task))
        idle_take_over(me);
    if (kernel_locked())
        unlock_kernel();               /* kmain's: idle holds nothing */
    if (me == &init_task)
        printk(KERN_INFO "sched: swapper idling (pid 0); %s\n",
               this_rq()->nr_queued ? "running kthreads" : "nothing runnable");
    for (;;) {
        unsigned long flags = local_irq_save();
        struct rq *rq = this_rq();
        spin_lock(&rq->lock);
        if (pick_next_task(rq)) {
            spin_unlock_irqrestore(&rq->lock, flags);
            schedule();
        } else {
            idle_wait(rq);
            spin_unlock_irqrestore(&rq->lock, flags);
        }
    }
}

/* ---- CPU time and load (ps's TIME, top, /proc/stat, /proc/loadavg) ---- */

DEFINE_PER_CPU(struct cpu_times, kernel_cpustat);

void cpu_times_total(struct cpu_times *sum)
{
    int cpu;
    memset(sum, 0, sizeof *sum);
    for_each_online_cpu(cpu) {
        sum->user += per_cpu(kernel_cpustat, cpu).user;
        sum->system += per_cpu(kernel_cpustat, cpu).system;
        sum->idle += per_cpu(kernel_cpustat, cpu).idle;
    }
}
unsigned long avenrun[3];

/* Charge the tick to what it interrupted (Linux's account_process_tick,
 * with tick granularity): user mode is the task's utime and the CPU's
 * user time; a halt with nothing to run is idle time; anything else in
 * the kernel (a system call, a page fault, a kthread, an interrupt that
 * came while a task ran) is the task's stime and the CPU's system time.
 * A task that runs only between ticks is never charged, as in Linux
 * without CONFIG_VIRT_CPU_ACCOUNTING.  Every CPU's tick, each charging its
 * own task and its own times: no lock. */
static void account_tick(struct pt_regs *regs)
{
    struct task_struct *p = current;
    struct cpu_times *t = this_cpu_ptr(&kernel_cpustat);
    if (user_mode(regs)) {
        p->utime++;
        t->user++;
    } else if (this_rq()->idling) {
        t->idle++;
    } else {
        p->stime++;
        t->system++;
    }
}

/* The load average (Linux's kernel/sched/loadavg.c, one CPU): every
 * LOAD_FREQ ticks, the number of tasks running or waiting to run plus
 * those in uninterruptible sleep (disk, page lock) is folded into three
 * exponentially decaying averages, over 1, 5 and 15 minutes, in 11-bit
 * fixed point: avenrun = avenrun * e + active * (1 - e), e = exp(-5 s / period). */
#define LOAD_FREQ (5 * HZ + 1)
#define EXP_1     1884                 /* FIXED_1 / exp(5 s / 1 min) */
#define EXP_5     2014                 /* FIXED_1 / exp(5 s / 5 min) */
#define EXP_15    2037                 /* FIXED_1 / exp(5 s / 15 min) */

static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
    unsigned long newload = load * exp + active * (FIXED_1 - exp);
    if (active >= load)
        newload += FIXED_1 - 1;        /* round up while the load rises */
    return newload / FIXED_1;
}

/* How many tasks run, wait to run, sleep uninterruptibly, exist (pid 0,
 * the idle loop, is not counted).  Any context. */
void count_tasks(struct task_counts *c)
{
    struct task_struct *t;
    unsigned long flags = local_irq_save();
    c->running = c->blocked = c->total = 0;
    list_for_each_entry(t, &task_list, tasks) {
        if (t == &init_task)
            continue;
        c->total++;
        if (t->state == TASK_RUNNING)
            c->running++;
        else if (t->state == TASK_UNINTERRUPTIBLE)
            c->blocked++;
    }
    local_irq_restore(flags);
}

static void calc_global_load(void)
{
    static unsigned long next = LOAD_FREQ;
    if (time_before(jiffies, next))
        return;
    next = jiffies + LOAD_FREQ;
    struct task_counts c;
    count_tasks(&c);
    unsigned long active = (c.running + c.blocked) * FIXED_1;
    avenrun[0] = calc_load(avenrun[0], EXP_1, active);
    avenrun[1] = calc_load(avenrun[1], EXP_5, active);
    avenrun[2] = calc_load(avenrun[2], EXP_15, active);
}

/* RLIMIT_CPU (Linux's check_process_timers): a process whose CPU time
 * (its live threads' utime + stime; Linux also counts the threads that
 * exited) reaches the soft limit gets SIGXCPU, and the soft limit moves on
 * by a second, so that it gets one a second; at the hard limit, SIGKILL.
 * Interrupts off (the tick). */
static void check_rlimit_cpu(struct task_struct *p)
{
    struct task_struct *leader = tg_leader(p), *t;
    unsigned long long soft = leader->rlim_cpu[0], hard = leader->rlim_cpu[1];
    if (soft == RLIM64_INFINITY || !p->is_process || p->exit_state)
        return;
    unsigned long long ticks = leader->utime + leader->stime;
    list_for_each_entry(t, &leader->thread_group, thread_group)
        ticks += t->utime + t->stime;
    const struct kern_siginfo priv = { .code = SI_KERNEL };
    if (hard != RLIM64_INFINITY && ticks >= hard * HZ) {
        send_group_signal(leader, SIGKILL, &priv);
    } else if (ticks >= soft * HZ) {
        if (soft < hard)
            leader->rlim_cpu[0] = soft + 1;
        send_group_signal(leader, SIGXCPU, &priv);
    }
}

/* Every CPU's tick (kernel/x86/timer.c; interrupts off).  This CPU's
 * accounting and its task's slice need no lock; the rest walks the task
 * list or sends signals, which takes the big kernel lock, and a tick must
 * not wait for it (the holder may want a TLB shootdown from this CPU, and
 * ticks would be lost): if another CPU holds it, that work waits for the
 * next tick (each one checks time_after, so a late tick loses nothing).
 * The timeouts, itimers, load average and hung-task check are the boot
 * CPU's; the soft-lockup check is each CPU's. */
static void sched_tick_hook(struct pt_regs *regs)
{
    struct task_struct *me = current;
    struct rq *rq = this_rq();
    account_tick(regs);
    if (sched_running && --me->time_slice <= 0) {
        me->time_slice = TASK_TIMESLICE;
        me->need_resched = 1;
    }
    if (sched_running && ++rq->balance_ticks >= BALANCE_TICKS) {
        rq->balance_ticks = 0;
        load_balance(rq);
    }
    if (!kernel_trylock())
        return;
    check_rlimit_cpu(me);
    if (smp_processor_id() == 0) {
        calc_global_load();
        scheduler_tick();
        it_real_tick();
        hung_task_tick(regs);
    }
    softlockup_tick(regs, rq->idling);
    unlock_kernel();
}

static void sched_init(void)
{
    /* init_task is statically initialised; put it on the task list. */
    list_add_tail(&init_task.tasks, &task_list);
    timer_set_tick_hook(sched_tick_hook);
    /* One validator class for every CPU's rq->lock ("&rq->lock"): the
     * static initialiser keyed each by its address. */
    for (int cpu = 0; cpu < NR_CPUS; cpu++)
        spin_lock_init(&cpu_rq(cpu)->lock);
    cpu_rq(0)->curr = &init_task;
    lock_stat_register(&cpu_rq(0)->lock, rq_lock_names[0]);   /* /proc/lock_stat */
    /* The boot CPU's idle task, swapper/0 (Linux's init_idle in sched_init):
     * kmain (init_task) is an ordinary task until it is done, and may sleep
     * or leave CPU 0 to tasks that come and go meanwhile; a task that may
     * no longer run here, or that died, leaves the CPU to swapper/0, which
     * runs cpu_idle from its first switch (kthread_main).  Simplification:
     * Linux's boot CPU idles in init_task itself from the start, and its
     * initcalls run in pid 1 (kernel_init); Vellum runs them in kmain, on
     * init_task, which takes swapper/0's place at its end (cpu_idle). */
    struct task_struct *idle = new_kernel_task(NULL, NULL, "swapper/0");
    if (IS_ERR(idle))
        panic("sched_init: no memory for the idle task swapper/0");
    idle->state = TASK_RUNNING;        /* never woken, never queued: PF_IDLE */
    idle->flags = PF_IDLE;
    idle->cpus_allowed = 1ul << 0;
    INIT_LIST_HEAD(&idle->tasks);      /* on no task list, as swapper/N */
    this_cpu_write(idle_task, idle);
    sched_running = 1;
    printk(KERN_INFO "sched: round-robin, %d-tick slices, %u-byte kernel stacks\n",
           TASK_TIMESLICE, THREAD_SIZE);
}
core_initcall(sched_init);

/* ---- memory for tasks ------------------------------------------------- */

/* A kernel stack is an order-1 block from the buddy allocator: 2 pages,
 * and buddy blocks of order n are aligned to 2^n pages, so the stack is
 * THREAD_SIZE-aligned, its thread_info at the base. */
void *alloc_thread_stack(void)
{
    return (void *)__get_free_pages(GFP_KERNEL, THREAD_ORDER);
}

void free_thread_stack(void *stack)
{
    ((struct thread_info *)stack)->magic = 0;
    free_pages((unsigned long)stack, THREAD_ORDER);
}

struct task_struct *alloc_task_struct(void)
{
    return kzalloc(sizeof(struct task_struct), GFP_KERNEL);
}

void free_task_struct(struct task_struct *t)
{
    kfree(t);
}
