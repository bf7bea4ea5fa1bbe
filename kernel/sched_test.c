/* kernel/sched_test.c: the ktests of sched.c (test=sched); built into the
 * test kernel only (make check), never into the production kernel. The tests
 * reach sched.c's static functions and data, so this file includes it: in the
 * test kernel the two are one object (Makefile). */
#include "sched.c"
#include <ktest.h>

/* Two kthreads take turns through one wait queue: each waits for its turn,
 * appends its letter and hands the turn over.  The sequence must be exact. */
static DECLARE_WAIT_QUEUE_HEAD(pingpong_wq);
static volatile int pingpong_turn;
static char pingpong_log[32];
static volatile int pingpong_len;

static int pingpong_fn(void *arg)
{
    int me = (int)(long)arg;
    for (int i = 0; i < 5; i++) {
        wait_event(pingpong_wq, pingpong_turn == me);
        pingpong_log[pingpong_len++] = me ? 'B' : 'A';
        pingpong_turn = !me;
        wake_up_all(&pingpong_wq);
    }
    return 100 + me;
}

KTEST(sched, kthreads_alternate_via_wait_queue)
{
    pingpong_turn = 0;
    pingpong_len = 0;
    memset(pingpong_log, 0, sizeof pingpong_log);
    /* Start B first so that it has to sleep while A runs. */
    struct task_struct *b = kthread_run(pingpong_fn, (void *)1L, "pong");
    struct task_struct *a = kthread_run(pingpong_fn, (void *)0L, "ping");
    KT_ASSERT(!IS_ERR(a) && !IS_ERR(b));
    KT_EXPECT(a->pid != b->pid && a->pid > 0 && b->pid > 0);
    KT_EXPECT_EQ(kthread_stop(a), 100);
    KT_EXPECT_EQ(kthread_stop(b), 101);
    KT_EXPECT(!strcmp(pingpong_log, "ABABABABAB"));
}

static volatile int stopper_loops;
static int until_stopped_fn(void *arg)
{
    while (!kthread_should_stop()) {
        stopper_loops++;
        set_current_state(TASK_INTERRUPTIBLE);
        if (!kthread_should_stop())
            schedule();
        set_current_state(TASK_RUNNING);
    }
    return (int)(long)arg;
}

static int returns_at_once_fn(void *arg) { return (int)(long)arg; }

KTEST(sched, kthread_stop_returns_exit_value)
{
    stopper_loops = 0;
    struct task_struct *t = kthread_run(until_stopped_fn, (void *)4242L, "stopme");
    KT_ASSERT(!IS_ERR(t));
    yield();                                   /* let it run and go to sleep */
    KT_EXPECT_EQ(t->state, TASK_INTERRUPTIBLE);
    KT_EXPECT_EQ(stopper_loops, 1);
    KT_EXPECT_EQ(kthread_stop(t), 4242);
    /* A thread that already returned (a zombie) is reaped the same way. */
    struct task_struct *z = kthread_run(returns_at_once_fn, (void *)-7L, "zombie");
    KT_ASSERT(!IS_ERR(z));
    yield();
    KT_EXPECT_EQ(z->state, TASK_DEAD);
    KT_EXPECT(z->stack == NULL);                 /* freed by the next task to run */
    KT_EXPECT_EQ(kthread_stop(z), -7);
}

static struct task_struct *volatile seen_current;
static volatile unsigned long seen_esp;
static int whoami_fn(void *arg)
{
    unsigned long sp;
    __asm__ volatile("mov %%esp, %0" : "=r"(sp));
    seen_esp = sp;
    seen_current = current;
    return 0;
}

KTEST(sched, current_comes_from_the_stack)
{
    KT_EXPECT(current == &init_task || current->stack != NULL);
    struct task_struct *t = kthread_run(whoami_fn, NULL, "whoami");
    KT_ASSERT(!IS_ERR(t));
    void *stack = t->stack;
    KT_EXPECT_EQ((unsigned long)stack % THREAD_SIZE, 0);
    KT_EXPECT(((struct thread_info *)stack)->task == t);
    KT_EXPECT_EQ(((struct thread_info *)stack)->magic, STACK_END_MAGIC);
    seen_current = NULL;
    KT_EXPECT_EQ(kthread_stop(t), 0);
    KT_EXPECT(seen_current == t);
    KT_EXPECT(seen_esp > (unsigned long)stack && seen_esp < (unsigned long)stack + THREAD_SIZE);
}

static int counting_fn(void *arg)
{
    volatile int *n = arg;
    while (!kthread_should_stop()) {
        (*n)++;
        yield();
    }
    return 0;
}

KTEST(sched, round_robin_is_fair)
{
    static volatile int n1, n2;
    n1 = n2 = 0;
    struct task_struct *a = kthread_run(counting_fn, (void *)&n1, "rr1");
    struct task_struct *b = kthread_run(counting_fn, (void *)&n2, "rr2");
    KT_ASSERT(!IS_ERR(a) && !IS_ERR(b));
    for (int i = 0; i < 20; i++)
        yield();
    /* Each yield of ours lets each of them run exactly once. */
    KT_EXPECT_EQ(n1, 20);
    KT_EXPECT_EQ(n2, 20);
    kthread_stop(a);
    kthread_stop(b);
}

KTEST(sched, msleep_sleeps_long_enough)
{
    unsigned long t0 = jiffies;
    msleep(50);
    unsigned long dt = jiffies - t0;
    KT_EXPECT(dt >= 5);
    KT_EXPECT(dt < 50);                          /* and not forever */
}

static volatile unsigned long tick_seen, slice_ticks;
static volatile int slice_done;
static int need_resched_fn(void *arg)
{
    /* Busy, never sleeping, until the tick has used up our slice (on
     * whichever CPU we run): then sleep until stopped. */
    unsigned long t0 = jiffies;
    while (!READ_ONCE(current->need_resched)) {
        tick_seen++;
        cpu_relax();
    }
    slice_ticks = jiffies - t0;
    slice_done = 1;
    while (!kthread_should_stop()) {
        set_current_state(TASK_INTERRUPTIBLE);
        if (!kthread_should_stop())
            schedule();
        set_current_state(TASK_RUNNING);
    }
    return 0;
}

KTEST(sched, slice_expiry_sets_need_resched)
{
    tick_seen = slice_ticks = 0;
    slice_done = 0;
    struct task_struct *t = kthread_run(need_resched_fn, NULL, "spinner");
    KT_ASSERT(!IS_ERR(t));
    while (!slice_done)
        yield();                               /* one CPU: the spinner runs now */
    KT_EXPECT(tick_seen > 0);
    KT_EXPECT(slice_ticks >= TASK_TIMESLICE - 1 && slice_ticks <= TASK_TIMESLICE + 2);
    kthread_stop(t);
}

/* One tick ends two timeouts: ours, while we idle in schedule() (nothing
 * else runnable), and a kthread's.  wake_up_process() does not queue the
 * running task (schedule() requeues it itself), so schedule()'s idle loop
 * must requeue us although the queue is no longer empty.  If it forgot, we
 * would be TASK_RUNNING but on no queue: never run again (the ext2cache
 * hang: the test thread's msleep and the flusher's period ended together).
 * The kthread checks that invariant when it runs, and repairs it so that a
 * regression fails this test instead of hanging the boot. */
static volatile unsigned long same_tick_target;
static volatile int same_tick_lost, same_tick_woke;
static int same_tick_fn(void *arg)
{
    struct task_struct *sleeper = arg;
    set_current_state(TASK_UNINTERRUPTIBLE);
    schedule_timeout((long)(same_tick_target - jiffies));
    unsigned long flags = local_irq_save();
    same_tick_woke = 1;
    if (sleeper->state == TASK_RUNNING && list_empty(&sleeper->run_list)) {
        same_tick_lost++;
        struct rq *rq = cpu_rq(sleeper->cpu);
        spin_lock(&rq->lock);
        enqueue_task(rq, sleeper);
        spin_unlock(&rq->lock);
    }
    local_irq_restore(flags);
    return 0;
}

KTEST(sched, timeouts_ending_on_one_tick_both_run)
{
    int coincided = 0;
    same_tick_lost = 0;
    for (int attempt = 0; attempt < 5 && coincided < 2; attempt++) {
        same_tick_woke = 0;
        same_tick_target = jiffies + 10;
        struct task_struct *t = kthread_run(same_tick_fn, current, "sametick");
        KT_ASSERT(!IS_ERR(t));
        while (!(t->state == TASK_UNINTERRUPTIBLE && t->timer_pending))
            yield();                           /* it is asleep until the target */
        long left = (long)(same_tick_target - jiffies);
        if (left >= 2) {                       /* else a slow host missed it: retry */
            set_current_state(TASK_UNINTERRUPTIBLE);
            schedule_timeout(left);
            if (same_tick_woke && jiffies - same_tick_target < 2)
                coincided++;
        }
        kthread_stop(t);
    }
    KT_EXPECT(coincided >= 1);
    KT_EXPECT_EQ(same_tick_lost, 0);
}

/* account_tick charges a tick to what it interrupted: user mode, the idle
 * halt, or the kernel on some task's behalf (fabricated frames, the
 * counters put back after), then for real: a busy wait in the kernel is
 * system time of ours, a sleep with nothing to run is idle time. */
KTEST(sched, ticks_are_charged_to_what_they_interrupted)
{
    struct task_struct *me = current;
    struct pt_regs user = { .cs = 0x1b }, kern = { .cs = 0x08 };
    unsigned long flags = local_irq_save();
    struct cpu_times *ct = this_cpu_ptr(&kernel_cpustat), c0 = *ct;   /* kmain: CPU 0's */
    unsigned long u0 = me->utime, s0 = me->stime;
    account_tick(&user);
    bool user_ok = me->utime == u0 + 1 && ct->user == c0.user + 1 && me->stime == s0;
    account_tick(&kern);
    bool sys_ok = me->stime == s0 + 1 && ct->system == c0.system + 1;
    this_rq()->idling = 1;
    account_tick(&kern);
    this_rq()->idling = 0;
    bool idle_ok = ct->idle == c0.idle + 1 && me->stime == s0 + 1;
    *ct = c0;
    me->utime = u0;
    me->stime = s0;
    local_irq_restore(flags);
    KT_EXPECT(user_ok);
    KT_EXPECT(sys_ok);
    KT_EXPECT(idle_ok);

    s0 = me->stime;
    u0 = me->utime;
    unsigned long sys0 = ct->system, j0 = jiffies;
    while (jiffies - j0 < 6)                    /* busy in the kernel for 6 ticks */
        barrier();
    KT_EXPECT(me->stime - s0 >= 5);
    KT_EXPECT(ct->system - sys0 >= 5);
    KT_EXPECT_EQ(me->utime, u0);
    unsigned long idle0 = ct->idle;
    s0 = me->stime;
    msleep(60);                                 /* nothing else to run: idle */
    KT_EXPECT(ct->idle - idle0 >= 3);
    KT_EXPECT(me->stime - s0 <= 1);
}

/* The load average's arithmetic, as Linux's: one task always active for a
 * minute (12 samples) takes the 1-minute average from 0 to 1 - 1/e; a
 * minute with none takes it back by the factor 1/e. */
KTEST(sched, load_average_follows_exp)
{
    unsigned long a = 0;
    KT_EXPECT_EQ(calc_load(0, EXP_1, FIXED_1), 164);      /* FIXED_1 - EXP_1, rounded up */
    for (int i = 0; i < 12; i++)
        a = calc_load(a, EXP_1, FIXED_1);
    KT_EXPECT(a >= FIXED_1 * 62 / 100 && a <= FIXED_1 * 64 / 100);    /* 0.632 */
    unsigned long top = a;
    for (int i = 0; i < 12; i++)
        a = calc_load(a, EXP_1, 0);
    KT_EXPECT(a >= top * 35 / 100 && a <= top * 39 / 100);            /* x 0.368 */
    for (int i = 0; i < 2000; i++)
        a = calc_load(a, EXP_15, 0);
    KT_EXPECT_EQ(a, 0);                                   /* and reaches 0 */
}

/* count_tasks: a kthread in uninterruptible sleep is "blocked" (it counts
 * towards the load); one in wait_event_idle_timeout is not. */
static DECLARE_WAIT_QUEUE_HEAD(count_wq);
static volatile int count_go;
static int d_sleeper_fn(void *arg)
{
    wait_event(count_wq, count_go || kthread_should_stop());
    return 0;
}
static int idle_sleeper_fn(void *arg)
{
    while (!kthread_should_stop())
        wait_event_idle_timeout(count_wq, count_go || kthread_should_stop(), 1000);
    return 0;
}

KTEST(sched, count_tasks_sees_blocked_not_idle)
{
    struct task_counts before, d, idle;
    count_go = 0;
    count_tasks(&before);
    struct task_struct *t = kthread_run(d_sleeper_fn, NULL, "dsleep");
    KT_ASSERT(!IS_ERR(t));
    while (t->state != TASK_UNINTERRUPTIBLE)
        yield();
    count_tasks(&d);
    KT_EXPECT_EQ(d.total, before.total + 1);
    KT_EXPECT_EQ(d.blocked, before.blocked + 1);
    KT_EXPECT(d.running >= (current != &init_task));   /* we are, unless pid 0 */
    kthread_stop(t);
    t = kthread_run(idle_sleeper_fn, NULL, "isleep");
    KT_ASSERT(!IS_ERR(t));
    while (t->state != TASK_INTERRUPTIBLE)
        yield();
    count_tasks(&idle);
    KT_EXPECT_EQ(idle.total, before.total + 1);
    KT_EXPECT_EQ(idle.blocked, before.blocked);
    kthread_stop(t);
}

/* ---- the per-CPU run queues (at -smp 1 only what one CPU can show) ---- */

/* A kthread that sleeps until told to run, then notes the CPU it ran on. */
static DECLARE_WAIT_QUEUE_HEAD(rq_test_wq);
static volatile int rq_test_go;
static volatile int rq_test_ran_on;
static int note_cpu_fn(void *arg)
{
    while (!kthread_should_stop()) {
        wait_event(rq_test_wq, rq_test_go || kthread_should_stop());
        if (rq_test_go) {
            rq_test_go = 0;
            rq_test_ran_on = smp_processor_id();
        }
    }
    return 0;
}

/* Wait (sleeping, a tick at a time) until t sleeps, at most 100 ticks; 1
 * if it does.  (It may stay its CPU's current while that CPU halts in its
 * schedule(): on_cpu.) */
static int wait_asleep(struct task_struct *t)
{
    for (int i = 0; i < 100; i++) {
        if (t->state != TASK_RUNNING && list_empty(&t->run_list))
            return 1;
        msleep(10);
    }
    return 0;
}

/* Have note_cpu_fn's thread run once and say where (-1: not within 100 ticks). */
static int run_once(void)
{
    rq_test_ran_on = -1;
    rq_test_go = 1;
    wake_up_all(&rq_test_wq);
    for (int i = 0; i < 100 && rq_test_ran_on < 0; i++)
        msleep(10);
    return rq_test_ran_on;
}

/* A task that slept after running on CPU c, woken from CPU 0 (kmain's),
 * goes on CPU c's queue and runs there, every CPU in turn: Linux's
 * try_to_wake_up keeps a task on its last CPU (its caches) if it may
 * still run there.  With one queue it ran wherever a CPU came first. */
KTEST(sched, woken_task_runs_on_its_last_cpu)
{
    int n = num_online_cpus();
    struct task_struct *t = kthread_run(note_cpu_fn, NULL, "notecpu");
    KT_ASSERT(!IS_ERR(t));
    /* Not CPU 0 if there are others: kmain keeps it busy, and an idle CPU
     * rightly pulls a task queued behind it. */
    for (int c = n > 1; c < n; c++) {
        KT_EXPECT_EQ(set_cpus_allowed(t, 1ul << c), 0);
        KT_EXPECT_EQ(run_once(), c);           /* now it has run on c ... */
        KT_ASSERT(wait_asleep(t));
        KT_EXPECT_EQ(t->cpu, c);
        /* c may halt in t's schedule(), t its current: a thread bound to
         * c that exits at once makes c switch away from t for good. */
        struct task_struct *z = kthread_create(returns_at_once_fn, NULL, "flush");
        KT_ASSERT(!IS_ERR(z));
        kthread_bind(z, c);
        wake_up_process(z);
        kthread_stop(z);
        for (int i = 0; i < 100 && t->on_cpu; i++)
            msleep(10);
        KT_EXPECT(!t->on_cpu);                 /* c ran z, and its idle task after */
        KT_EXPECT_EQ(set_cpus_allowed(t, CPU_MASK_ALL), 0);
        KT_EXPECT_EQ(t->cpu, c);               /* ... it may stay there ... */
        unsigned long flags = local_irq_save();
        rq_test_ran_on = -1;
        rq_test_go = 1;
        wake_up_all(&rq_test_wq);
        bool queued_there = t->cpu == c && !list_empty(&t->run_list);
        local_irq_restore(flags);
        KT_EXPECT(queued_there);               /* ... is woken onto c's queue ... */
        for (int i = 0; i < 100 && rq_test_ran_on < 0; i++)
            msleep(10);
        KT_EXPECT_EQ(rq_test_ran_on, c);       /* ... and runs there */
        KT_ASSERT(wait_asleep(t));
    }
    kthread_stop(t);
}

/* Busy kernel threads without the big lock, each noting where it runs. */
#define NR_SPINNERS 4
static volatile unsigned long spin_seen;       /* bit n: a spinner ran on CPU n */
static volatile int spin_cpu[NR_SPINNERS];
static volatile int spin_yield = 1, spin_hold;
static int spinner_fn(void *arg)
{
    int i = (int)(long)arg;
    unlock_kernel();                           /* kthread_main's; back below */
    while (!kthread_should_stop()) {
        int cpu = smp_processor_id();
        spin_cpu[i] = cpu;
        __atomic_or_fetch(&spin_seen, 1ul << cpu, __ATOMIC_SEQ_CST);
        if (READ_ONCE(spin_yield) || (i == 0 && !READ_ONCE(spin_hold)))
            cond_resched();
        cpu_relax();
    }
    lock_kernel();
    return 0;
}

/* Four busy kernel threads bound nowhere, all made on CPU 0 and so all
 * queued there: the other CPUs, idle, pull them over (idle_balance, and
 * load_balance every BALANCE_TICKS): within a few ticks every CPU has run
 * one (four of them, with more than four CPUs), and then each spinner is
 * on a CPU of its own (as far as the CPUs go).  Without balancing they
 * stay on CPU 0's queue. */
KTEST(sched, idle_cpus_pull_from_a_busy_queue)
{
    int n = num_online_cpus();
    struct task_struct *t[NR_SPINNERS];
    spin_seen = 0;
    spin_yield = 1;
    unsigned long j0 = jiffies;
    for (int i = 0; i < NR_SPINNERS; i++) {
        spin_cpu[i] = -1;
        t[i] = kthread_run(spinner_fn, (void *)(long)i, "spinner");
        KT_ASSERT(!IS_ERR(t[i]));
        KT_EXPECT_EQ(t[i]->cpu, 0);            /* made here: CPU 0's queue */
    }
    int want = n < NR_SPINNERS ? n : NR_SPINNERS;      /* CPUs that get one */
    while (__builtin_popcountl(spin_seen) < want && jiffies - j0 < 4 * BALANCE_TICKS + 10)
        msleep(10);
    unsigned long took = jiffies - j0;
    KT_EXPECT_EQ(__builtin_popcountl(spin_seen), want);
    KT_EXPECT_EQ(spin_seen & ~cpu_online_mask, 0);
    if (n > 1)                                 /* one CPU: kmain waits its turn */
        KT_EXPECT(took <= 2 * BALANCE_TICKS + 4);
    /* Spread out: no two spinners share a CPU while there are free ones. */
    unsigned long used = 0;
    int distinct = 0;
    for (int tries = 0; tries < 20; tries++) {
        used = 0;
        for (int i = 0; i < NR_SPINNERS; i++)
            used |= 1ul << t[i]->cpu;
        distinct = __builtin_popcountl(used);
        if (distinct >= want)
            break;
        msleep(10);
    }
    KT_EXPECT_EQ(distinct, want);
    unsigned long pulls = 0;
    for (int cpu = 0; cpu < NR_CPUS; cpu++)
        pulls += cpu_rq(cpu)->nr_idle_pulls + cpu_rq(cpu)->nr_tick_pulls;
    printk(KERN_INFO "rq test: %d spinners on %d CPUs in %lu ticks, CPUs used %#lx, %lu pulls so far\n",
           NR_SPINNERS, n, took, used, pulls);
    for (int i = 0; i < NR_SPINNERS; i++)
        kthread_stop(t[i]);
}

/* set_cpus_allowed moves a task to an allowed CPU's queue: one asleep at
 * once (its next wake-up runs it there), one queued behind a busy task at
 * once, one running at its next schedule().  Needs two CPUs. */
KTEST(sched, affinity_moves_the_task_to_an_allowed_cpu)
{
    int n = num_online_cpus();
    if (n < 2)
        return;                                /* one CPU: nowhere to move */
    int a = 1, b = n - 1 > 1 ? n - 1 : 0;      /* two CPUs, neither kmain's if 3+ */
    struct task_struct *t = kthread_run(note_cpu_fn, NULL, "notecpu");
    KT_ASSERT(!IS_ERR(t));
    /* asleep */
    KT_EXPECT_EQ(set_cpus_allowed(t, 1ul << a), 0);
    KT_EXPECT_EQ(run_once(), a);
    KT_ASSERT(wait_asleep(t));
    KT_EXPECT_EQ(set_cpus_allowed(t, 1ul << b), 0);
    /* moved at once, unless CPU a still halts in its schedule() (it is that
     * CPU's current then: it moves when woken) */
    KT_EXPECT(t->cpu == b || (t->on_cpu && t->cpu == a));
    KT_EXPECT_EQ(run_once(), b);
    KT_ASSERT(wait_asleep(t));
    /* queued: CPU a busy with a spinner that does not schedule */
    spin_yield = 0;
    spin_hold = 1;
    spin_seen = 0;
    spin_cpu[0] = -1;
    struct task_struct *s = kthread_run(spinner_fn, (void *)0L, "hog");
    KT_ASSERT(!IS_ERR(s));
    KT_EXPECT_EQ(set_cpus_allowed(s, 1ul << a), 0);
    for (int i = 0; i < 100 && spin_cpu[0] != a; i++)
        msleep(10);
    KT_EXPECT_EQ(spin_cpu[0], a);
    KT_EXPECT_EQ(set_cpus_allowed(t, 1ul << a), 0);
    rq_test_ran_on = -1;
    rq_test_go = 1;
    wake_up_all(&rq_test_wq);
    msleep(30);
    KT_EXPECT_EQ(rq_test_ran_on, -1);          /* waits behind the hog ... */
    KT_EXPECT(t->cpu == a && !list_empty(&t->run_list));
    KT_EXPECT_EQ(set_cpus_allowed(t, 1ul << b), 0);
    KT_EXPECT_EQ(t->cpu, b);                   /* ... moved at once ... */
    for (int i = 0; i < 100 && rq_test_ran_on < 0; i++)
        msleep(10);
    KT_EXPECT_EQ(rq_test_ran_on, b);           /* ... and ran there */
    /* running: the hog itself, allowed only on b from now */
    spin_hold = 0;                             /* it schedules again */
    KT_EXPECT_EQ(set_cpus_allowed(s, 1ul << b), 0);
    for (int i = 0; i < 100 && spin_cpu[0] != b; i++)
        msleep(10);
    KT_EXPECT_EQ(spin_cpu[0], b);
    KT_EXPECT_EQ(s->cpu, b);
    kthread_stop(s);
    spin_yield = 1;
    kthread_stop(t);
}

#ifdef CONFIG_LOCKDEP
/* double_rq_lock takes the lower-numbered CPU's queue first, whichever
 * order it is given them in, the second as a nested lock of the same
 * class: the validator stays quiet, and holds them in that order. */
KTEST(sched, double_rq_lock_in_cpu_order)
{
    struct task_struct *me = current;
    unsigned long reports = lockdep_reports;
    struct rq *lo = cpu_rq(1), *hi = cpu_rq(3);
    const void *first[2], *second[2];
    unsigned long flags = local_irq_save();
    int d = me->lockdep_depth;
    double_rq_lock(hi, lo);
    first[0] = me->held_locks[d].instance;
    second[0] = me->held_locks[d + 1].instance;
    double_rq_unlock(hi, lo);
    double_rq_lock(lo, hi);
    first[1] = me->held_locks[d].instance;
    second[1] = me->held_locks[d + 1].instance;
    double_rq_unlock(lo, hi);
    double_rq_lock(lo, lo);                    /* one queue: one lock */
    int one = me->lockdep_depth - d;
    double_rq_unlock(lo, lo);
    local_irq_restore(flags);
    for (int i = 0; i < 2; i++) {
        KT_EXPECT(first[i] == &lo->lock);
        KT_EXPECT(second[i] == &hi->lock);
    }
    KT_EXPECT_EQ(one, 1);
    KT_EXPECT_EQ(me->lockdep_depth, d);
    KT_EXPECT_EQ(lockdep_reports, reports);
}
#endif

/* A kthread that comes to CPU 0 while kmain sleeps there, then leaves it
 * again (set_cpus_allowed on itself, both times), and wakes kmain.  CPU 0
 * must have somewhere to go when it leaves: its idle task, there from the
 * start as on every CPU (Linux's init_idle in sched_init), not kmain,
 * which sleeps.  kmain sleeps once, for at most 2 s, so that nothing but
 * the thread ends its sleep early.  Needs two CPUs. */
static struct task_struct *hop_waiter;
static volatile int hop_on0, hop_back, hop_done;
static int hop_fn(void *arg)
{
    int other = (int)(long)arg;
    if (set_cpus_allowed(current, 1ul << 0) == 0)
        hop_on0 = smp_processor_id();
    if (set_cpus_allowed(current, 1ul << other) == 0)
        hop_back = smp_processor_id();
    WRITE_ONCE(hop_done, 1);
    wake_up_process(hop_waiter);
    return 0;
}

KTEST(sched, kthread_leaves_cpu0_while_kmain_sleeps)
{
    int n = num_online_cpus();
    if (n < 2)
        return;                                /* one CPU: nowhere to leave to */
    int other = n - 1;
    hop_on0 = hop_back = -1;
    hop_done = 0;
    hop_waiter = current;
    struct task_struct *t = kthread_create(hop_fn, (void *)(long)other, "hop");
    KT_ASSERT(!IS_ERR(t));
    kthread_bind(t, other);
    unsigned long j0 = jiffies, end = j0 + 2 * HZ;
    wake_up_process(t);
    for (;;) {
        set_current_state(TASK_UNINTERRUPTIBLE);
        if (READ_ONCE(hop_done) || time_after_eq(jiffies, end))
            break;
        schedule_timeout(end - jiffies);
    }
    set_current_state(TASK_RUNNING);
    unsigned long took = jiffies - j0;
    printk(KERN_INFO "hop test: on CPU %d, back on CPU %d, %lu ticks\n", hop_on0, hop_back, took);
    KT_EXPECT(hop_done);
    KT_EXPECT_EQ(hop_on0, 0);
    KT_EXPECT_EQ(hop_back, other);
    KT_EXPECT(took < HZ / 5);                  /* a few ticks, not kmain's 2 s */
    kthread_stop(t);
}

/* /proc/schedstat (show_schedstat): "version 15", "timestamp" (jiffies),
 * then a line per online CPU, in order, "cpuN" and 14 fields: Linux's
 * nine in Linux's order (1, 2 and 7-9 always 0 here), then Vellum's five;
 * each as its queue's counter.  Returns the lines, fields into f[cpu][1..14]. */
#define SCHEDSTAT_FIELDS 14
static int read_schedstat(unsigned long f[NR_CPUS][SCHEDSTAT_FIELDS + 1], unsigned long *stamp)
{
    static char buf[2048];
    int len = show_schedstat(buf, sizeof buf), lines = 0, cpu;
    if (len <= 0 || len >= (int)sizeof buf || buf[len - 1] != '\n')
        return -1;
    buf[len] = '\0';
    char *p = buf;
    if (strncmp(p, "version 15\ntimestamp ", 21))
        return -1;
    *stamp = simple_strtoul(p + 21, &p, 10);
    if (*p++ != '\n')
        return -1;
    lines = 2;
    for_each_online_cpu(cpu) {
        char want[8];
        snprintf(want, sizeof want, "cpu%d ", cpu);
        if (strncmp(p, want, strlen(want)))
            return -1;
        p += strlen(want) - 1;
        for (int k = 1; k <= SCHEDSTAT_FIELDS; k++) {
            if (*p != ' ')
                return -1;
            f[cpu][k] = simple_strtoul(p + 1, &p, 10);
        }
        if (*p++ != '\n')
            return -1;
        lines++;
    }
    return *p ? -1 : lines;
}

/* The counters that /proc/schedstat's fields should be, in its order (0
 * for the fields not kept), each CPU's under its queue's lock. */
static void schedstat_counters(unsigned long f[NR_CPUS][SCHEDSTAT_FIELDS + 1])
{
    int cpu;
    for_each_online_cpu(cpu) {
        struct rq *rq = cpu_rq(cpu);
        unsigned long flags;
        spin_lock_irqsave(&rq->lock, flags);
        unsigned long v[SCHEDSTAT_FIELDS + 1] = { 0, 0, 0,
            rq->sched_count, rq->sched_goidle, rq->nr_wakeups,
            rq->nr_wakeups - rq->nr_wakeups_remote, 0, 0, 0,
            rq->nr_switches, rq->nr_wakeups_remote,
            rq->nr_idle_pulls, rq->nr_tick_pulls, rq->nr_affine_moves };
        spin_unlock_irqrestore(&rq->lock, flags);
        memcpy(f[cpu], v, sizeof v);
    }
}

static struct task_struct *stat_waiter;
static volatile int stat_done;
static int wake_waiter_fn(void *arg)
{
    WRITE_ONCE(stat_done, 1);
    wake_up_process(stat_waiter);
    return 0;
}

KTEST(sched, schedstat_shows_each_queues_counters_and_they_move)
{
    static unsigned long a[NR_CPUS][SCHEDSTAT_FIELDS + 1], b[NR_CPUS][SCHEDSTAT_FIELDS + 1];
    int n = num_online_cpus(), other = n - 1, cpu;
    unsigned long j0 = jiffies, stamp;
    unsigned long lo[NR_CPUS][SCHEDSTAT_FIELDS + 1], hi[NR_CPUS][SCHEDSTAT_FIELDS + 1];
    schedstat_counters(lo);
    KT_ASSERT_EQ(read_schedstat(a, &stamp), n + 2);
    schedstat_counters(hi);
    KT_EXPECT(stamp >= j0 && stamp <= jiffies);
    for_each_online_cpu(cpu) {
        unsigned long *f = a[cpu];
        KT_EXPECT(f[1] == 0 && f[2] == 0 && f[7] == 0 && f[8] == 0 && f[9] == 0);
        KT_EXPECT(f[4] <= f[3] && f[10] <= f[3]);          /* goidle, switches <= calls */
        KT_EXPECT_EQ(f[5], f[6] + f[11]);                  /* local + remote */
        /* each field is its counter, read between the two looks */
        for (int k = 1; k <= SCHEDSTAT_FIELDS; k++)
            KT_EXPECT(lo[cpu][k] <= f[k] && f[k] <= hi[cpu][k]);
    }
    /* A kthread bound to the last CPU (CPU 0 if alone) wakes us, asleep. */
    stat_waiter = current;
    stat_done = 0;
    struct task_struct *t = kthread_create(wake_waiter_fn, NULL, "statwake");
    KT_ASSERT(!IS_ERR(t));
    kthread_bind(t, other);
    unsigned long end = jiffies + 2 * HZ;
    wake_up_process(t);
    for (;;) {
        set_current_state(TASK_UNINTERRUPTIBLE);
        if (READ_ONCE(stat_done) || time_after_eq(jiffies, end))
            break;
        schedule_timeout(end - jiffies);
    }
    set_current_state(TASK_RUNNING);
    kthread_stop(t);
    KT_EXPECT(stat_done);
    KT_ASSERT_EQ(read_schedstat(b, &stamp), n + 2);
    unsigned long *a0 = a[0], *b0 = b[0], *ao = a[other], *bo = b[other];
    printk(KERN_INFO "schedstat test: cpu0 +%lu calls +%lu idle +%lu wakeups (+%lu remote), "
           "cpu%d +%lu calls +%lu switches +%lu wakeups\n", b0[3] - a0[3], b0[4] - a0[4],
           b0[5] - a0[5], b0[11] - a0[11], other, bo[3] - ao[3], bo[10] - ao[10], bo[5] - ao[5]);
    KT_EXPECT(b0[3] > a0[3]);                  /* we called schedule() */
    KT_EXPECT(b0[5] > a0[5]);                  /* we were woken onto CPU 0 */
    if (n > 1) {
        KT_EXPECT(b0[4] > a0[4]);              /* CPU 0 had nothing to run: idle */
        KT_EXPECT(bo[4] > ao[4]);              /* nor had t's CPU once it died */
        KT_EXPECT(b0[11] > a0[11]);            /* we were woken by the other CPU */
        KT_EXPECT(bo[5] > ao[5] && bo[11] > ao[11]);   /* t, woken onto its CPU by us */
    } else {
        KT_EXPECT(b0[6] >= a0[6] + 2);         /* t by us, we by t: both local */
    }
    KT_EXPECT(bo[10] >= ao[10] + 2);           /* its CPU switched to t and away */
    for_each_online_cpu(cpu)
        for (int k = 1; k <= SCHEDSTAT_FIELDS; k++)
            KT_EXPECT(b[cpu][k] >= a[cpu][k]);  /* counters only grow */
}
