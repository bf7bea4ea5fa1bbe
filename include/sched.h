/* include/sched.h: tasks and the scheduler.
 *
 * Every thread of control is a task_struct with its own kernel stack
 * (THREAD_SIZE bytes).  Kernel threads have mm == NULL; user processes
 * (a later layer) add an address space.  The scheduler is round-robin over
 * the runnable tasks; the kernel is not preemptible (a task in kernel mode
 * runs until it blocks, calls schedule()/cond_resched(), or returns to user
 * mode, where need_resched set by the timer is honoured).
 *
 * Task states, as Linux:
 *   TASK_RUNNING          on the run queue (or running)
 *   TASK_INTERRUPTIBLE    sleeping; a signal or wake_up wakes it
 *   TASK_UNINTERRUPTIBLE  sleeping; only wake_up wakes it (disk, page lock)
 *   TASK_STOPPED          stopped by SIGSTOP/SIGTSTP/...; only SIGCONT or
 *                         SIGKILL wakes it (wake_up_state, kernel/signal.c)
 *   TASK_DEAD             exited, waiting to be reaped
 */
#ifndef _SCHED_H
#define _SCHED_H
#include <kernel.h>
#include <list.h>
#include <wait.h>
#include <signal.h>
#include <cred.h>
#include <asm/segment.h>
#include <asm/percpu.h>

#define TASK_RUNNING          0
#define TASK_INTERRUPTIBLE    1
#define TASK_UNINTERRUPTIBLE  2
#define TASK_STOPPED          4        /* Linux's __TASK_STOPPED */
#define TASK_DEAD             64

#define THREAD_SIZE   8192             /* kernel stack, 2 pages, THREAD_SIZE-aligned */
#define THREAD_ORDER  1                /* THREAD_SIZE = PAGE_SIZE << THREAD_ORDER */
#define TASK_COMM_LEN 16
#define MAX_SCHEDULE_TIMEOUT 0x7fffffffL

struct fs_struct;
struct mm_struct;
struct files_struct;
struct blk_plug;
struct fpu_state;                      /* <asm/fpu.h> */
struct completion;

struct task_struct {
    unsigned long sp;                  /* saved kernel esp while switched out */
    void *stack;                       /* base of the kernel stack */
    volatile long state;
    pid_t pid;
    char comm[TASK_COMM_LEN];
    struct list_head run_list;         /* on task->cpu's run queue while TASK_RUNNING
                                          and no CPU's current */
    struct list_head tasks;            /* on the list of all tasks */
    unsigned long timeout;             /* jiffies at which schedule_timeout ends */
    int need_resched;
    int on_cpu;                        /* some CPU's current (kernel/sched.c, under
                                          its rq->lock): never on a run queue then */
    int cpu;                           /* the CPU it runs on, is queued on, or last ran
                                          on (ps's PSR; Linux's task_cpu): its queue's
                                          (kernel/sched.c, changed under rq->lock) */
    unsigned long start_time;          /* jiffies when it was made (/proc/PID/stat's
                                          starttime) */
    unsigned long cpus_allowed;        /* the CPUs it may run on, a bit each
                                          (Linux's cpus_allowed): set_cpus_allowed */
    int lock_depth;                    /* the big kernel lock held while switched
                                          out (include/smp_lock.h) */
    int pagefault_disabled;            /* pagefault_disable() nesting (uaccess) */
    void *waiting_on_page;             /* struct page whose lock we sleep on (reports) */
    int (*threadfn)(void *);           /* kernel threads: entry and argument */
    void *data;
    int exit_code;
    int should_stop;                   /* kthread_stop() asked us to stop */
    struct task_struct *stopper;       /* who waits in kthread_stop() */
    struct fs_struct *fs;              /* root and cwd (VFS); NULL: the global root */
    struct mm_struct *mm;              /* NULL for kernel threads */
    /* Added by kernel/sched.c: */
    int time_slice;                    /* ticks left before need_resched */
    int timer_pending;                 /* schedule_timeout armed: wake at 'timeout' */
    void *waiting_on;                  /* mutex/completion/queue we sleep on (reports) */
    const char *waiting_what;          /* "mutex", "completion", ... (reports) */
    struct blk_plug *plug;             /* writeback's batch of blocks (fs/buffer.c) */
    void *journal_info;                /* the JBD handle this task holds (fs/jbd/
                                          transaction.c: journal_start nests through it) */
    unsigned int flags;                /* PF_* below */
    unsigned int nr_dirtied;           /* pages dirtied since the last dirty-limit
                                          check (balance_dirty_pages_ratelimited) */
    LOCKDEP_TASK_FIELDS                /* the validator's held locks (include/lockdep.h;
                                          empty without CONFIG_LOCKDEP) */

    /* ---- process fields (the proc layer: kernel/fork.c, exit.c, signal.c,
     * exec.c, sys.c; docs/processes.md).  Kernel threads leave them zero
     * except the lists, which copy_process/kthread users never walk. ---- */
    struct task_struct *parent;        /* who gets SIGCHLD and wait()s for us */
    struct list_head children;         /* our children (their ->sibling) */
    struct list_head sibling;          /* in parent->children */
    int is_process;                    /* 1: made by fork/user_process_create */
    int did_exec;                      /* 1 once it ran execve (Linux: !PF_FORKNOEXEC):
                                          its parent may no longer setpgid it */
    pid_t pgrp;                        /* process group id (job control) */
    pid_t session;                     /* session id */
    int exit_state;                    /* 0, EXIT_ZOMBIE, EXIT_DEAD */
    int exit_status;                   /* wait status word: code << 8 | signal */
    wait_queue_head_t wait_chldexit;   /* wait4() sleeps here for children */
    struct files_struct *files;        /* open files (fs/ layer, `files`) */
    sigset_t blocked;                  /* signal mask */
    sigset_t pending;                  /* signals sent, not yet delivered */
    struct kern_siginfo pending_info[_NSIG];  /* info of each pending signal */
    struct k_sigaction action[_NSIG];  /* handlers (Linux: sighand_struct) */
    sigset_t saved_sigmask;            /* sigsuspend: restored after delivery */
    sigset_t real_blocked;             /* rt_sigtimedwait: the mask while it sleeps with its set unblocked */
    int restore_sigmask;
    struct desc_struct tls_array[GDT_ENTRY_TLS_ENTRIES];  /* set_thread_area */
    unsigned long clear_child_tid;     /* set_tid_address, CLONE_CHILD_CLEARTID: at exit
                                          0 is stored there and FUTEX_WAKEd (mm_release) */
    unsigned long robust_list;         /* set_robust_list: walked at exit and exec */
    /* Threads (kernel/fork.c copy_process, kernel/exit.c; docs/processes.md
     * "Threads and futexes").  A process is a thread group: its tasks share
     * the mm, files, fs and handlers; getpid() is the tgid, the leader's
     * pid.  Linux keeps the group's exit state in signal_struct; here it
     * lives in the leader's task_struct, which outlives every thread of the
     * group (a zombie leader is not reaped while its group has threads). */
    pid_t tgid;                        /* thread group id: the leader's pid */
    struct task_struct *group_leader;  /* the task whose pid is the tgid (itself) */
    struct list_head thread_group;     /* the group's other tasks */
    int group_live;                    /* leader: tasks of the group not yet exited
                                          (Linux's signal->live); reaped only at 0 */
    int group_exit;                    /* leader: exit_group or a fatal signal ends the group */
    int group_exit_code;               /* leader: its wait status, once group_exit */
    struct completion *vfork_done;     /* CLONE_VFORK: completed at exec or exit */
    struct fpu_state *fpu;             /* x87/SSE registers while switched out */
    unsigned long sas_ss_sp;           /* sigaltstack: base of the alternate */
    unsigned long sas_ss_size;         /*   signal stack, its size (0: none) */
    unsigned int sas_ss_flags;         /*   and SS_AUTODISARM (kernel/signal.c) */
    unsigned long utime, stime;        /* ticks in user / kernel mode */
    /* getrusage (kernel/sys.c): this task's page faults that read nothing
     * (min_flt) and that waited for a read (maj_flt), its switches away
     * that it asked for (nvcsw: it slept) and not (nivcsw: a yield, its
     * slice ended); in the group leader, what its waited-for children and
     * theirs used (the c* fields; cmaxrss in KiB), added at the reap. */
    unsigned long min_flt, maj_flt, nvcsw, nivcsw;
    unsigned long cutime, cstime, cmin_flt, cmaj_flt, cnvcsw, cnivcsw, cmaxrss;
    unsigned long maxrss;              /* leader: KiB, its mm's peak, kept at exit */
    int pending_fatal;                 /* a fatal signal (SIGKILL) is pending: long
                                          kernel loops (generic_perform_write) stop.
                                          Set by send_signal(SIGKILL); VFS tests
                                          may set it directly */
    /* Job control (kernel/signal.c "stopping", docs/processes.md).  Linux
     * keeps these in signal_struct and task->jobctl; one thread each here. */
    int jobctl_stop;                   /* 1 from a stop signal until SIGCONT/SIGKILL */
    int stop_report;                   /* the stop signal, until wait4(WUNTRACED) reports it */
    int cont_report;                   /* resumed by SIGCONT, until wait4(WCONTINUED) */
    /* RLIMIT_FSIZE, soft and hard (prlimit64, kernel/sys.c): the largest
     * file a write or truncate may make (mm/filemap.c
     * generic_write_check_limits, fs/namei.c inode_newsize_ok).  Inherited
     * by fork, kept by exec; RLIM64_INFINITY for kernel threads.  Linux
     * keeps every rlimit in signal_struct; the other limits are fixed here. */
    unsigned long long rlim_fsize[2];
    /* RLIMIT_NOFILE, soft and hard: descriptors at or above the soft limit
     * are not handed out (fs/fdtable.c: EMFILE, F_DUPFD's EINVAL, dup2's
     * EBADF).  Inherited by fork, kept by exec; NR_OPEN (<fdtable.h>, the
     * table's size, also the ceiling) for kernel threads and init. */
    unsigned long long rlim_nofile[2];
    /* RLIMIT_NPROC, soft and hard: a user other than root may have at most
     * the soft limit of tasks (kernel/fork.c).  Inherited by fork, kept by
     * exec; max_processes (the nproc= boot option) for init. */
    unsigned long long rlim_nproc[2];
    /* RLIMIT_CPU, soft and hard, in seconds of the process's CPU time
     * (kernel/sched.c check_rlimit_cpu: SIGXCPU, then SIGKILL).  Read and
     * set on the thread group's leader (Linux: signal_struct).  Inherited
     * by fork, kept by exec; RLIM64_INFINITY for init and kernel threads. */
    unsigned long long rlim_cpu[2];
    /* RLIMIT_MEMLOCK, soft and hard, in bytes: what mlock may lock (mm/mmap.c,
     * "memory locks").  Inherited by fork, kept by exec; 8 MiB at boot, as
     * Linux's MLOCK_LIMIT. */
    unsigned long long rlim_memlock[2];
    /* RLIMIT_SIGPENDING, soft and hard: how many signals may be pending on
     * a task before a real-time one sent with its own info is refused
     * (kernel/signal.c send_signal: -EAGAIN).  Read and set on the thread
     * group's leader (Linux: signal_struct).  Inherited by fork, kept by
     * exec; init's is Linux's default for the memory (kernel/user_init.c). */
    unsigned long long rlim_sigpending[2];
    /* ITIMER_REAL (alarm, setitimer: kernel/itimer.c): SIGALRM at jiffies
     * it_real_expires while it_real_armed, then every it_real_incr_us
     * microseconds (0: once).  Not inherited by fork, kept by exec. */
    int it_real_armed;
    unsigned long it_real_expires;
    unsigned long long it_real_far;    /* ticks still to run after it_real_expires */
    unsigned long long it_real_incr_us;
    /* Credentials (include/cred.h, kernel/cred.c): inherited by fork,
     * changed by the set*id calls and by exec of a set-ID file.  Zero
     * (root) for kernel threads and init. */
    struct cred cred;
};

#define RLIM64_INFINITY (~0ULL)
#define MLOCK_LIMIT     (8ULL << 20)   /* RLIMIT_MEMLOCK's default (Linux's, since 5.16) */

/* task->flags (Linux's PF_* names and meanings) */
#define PF_IDLE       0x00000002       /* a CPU's idle task: never queued (kernel/sched.c) */
#define PF_MEMALLOC   0x00000800       /* reclaiming: may use every free page, never
                                          reclaims recursively (kswapd) */
#define PF_MEMDIE     0x00001000       /* chosen by the OOM killer: dying, may use the
                                          reserves (Linux 2.6's PF_MEMDIE, later TIF_MEMDIE) */
#define PF_KSWAPD     0x00020000       /* the kswapd thread */

/* exit_state values (Linux's) */
#define EXIT_ZOMBIE  16
#define EXIT_DEAD    32

/* The leader of t's thread group (Linux's t->group_leader; a task not made
 * by fork/clone, a kernel thread or a test's stand-in, leads itself). */
static inline struct task_struct *tg_leader(struct task_struct *t)
{
    return t->group_leader ? t->group_leader : t;
}

/* Is t the only task of its thread group (Linux's thread_group_empty)? */
static inline int thread_group_empty(struct task_struct *t)
{
    return !t->thread_group.next || list_empty(&t->thread_group);
}

/* Is a fatal signal (SIGKILL) pending for t?  Long kernel loops (the write
 * path, step 3 of the write loop in docs/page-cache.md) check it between chunks and return what they
 * have done.  send_signal(SIGKILL) sets both the pending bit and
 * pending_fatal; kernel tests may set pending_fatal directly. */
static inline int fatal_signal_pending(struct task_struct *t)
{
    return t->pending_fatal || sigismember_k(&t->pending, SIGKILL);
}

/* The kernel stack of every task (except the boot stack, see get_current):
 *
 *   stack + THREAD_SIZE -> +---------------------------+  <- esp0 (TSS) for user tasks
 *                          | trap frames, C frames ... |
 *                          |            |              |
 *                          |            v  grows down  |
 *                          |                           |
 *   stack + 8 ------------ +---------------------------+
 *                          | STACK_END_MAGIC           |  overflow canary, checked in schedule()
 *   stack (8 KiB aligned)->| struct task_struct *task  |  <- esp & ~(THREAD_SIZE-1)
 *                          +---------------------------+
 */
struct thread_info {
    struct task_struct *task;
    unsigned long magic;
};
#define STACK_END_MAGIC 0x57AC6E9DUL
#define TASK_TIMESLICE  10             /* ticks (100 ms at HZ=100) */

extern struct task_struct init_task;   /* pid 0, "swapper": kmain's context */


/* The running task: one load of this CPU's current_task (%fs:current_task,
 * include/asm/percpu.h), which switch_to() sets together with the stack
 * pointer (Linux x86's per-CPU current_task and this_cpu_read_stable).  The
 * stack-base thread_info above still names its task: the overflow canary is
 * checked there, and Linux i386 before 2.6.20 found `current` that way
 * (esp & ~(THREAD_SIZE-1)), at a few instructions more on every lock. */
DECLARE_PER_CPU(struct task_struct *, current_task);
static inline struct task_struct *get_current(void) { return this_cpu_read(current_task); }
#define current get_current()

void schedule(void);
long schedule_timeout(long timeout);       /* returns jiffies left, 0 if expired */
int wake_up_process(struct task_struct *t);/* 1 if it was asleep */
/* Wake t if its state is one of the bits in state (wake_up_process is
 * TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE; SIGCONT uses TASK_STOPPED).
 * 1 if woken.  Any context. */
int wake_up_state(struct task_struct *t, long state);
void yield(void);
void cond_resched(void);
void msleep(unsigned int ms);
void set_current_state(long state);

/* Kernel threads.  kthread_run creates and starts one running fn(data)
 * (returns the task, or ERR_PTR(-ENOMEM)); fn's return value ends it.
 * kthread_stop sets should_stop, wakes the thread, waits for it to exit,
 * frees its task_struct and returns its exit value.  A kthread that returns
 * on its own stays a zombie (task_struct only; its stack is freed at once)
 * until kthread_stop() reaps it: every kthread must be stopped once, by one
 * caller, and the pointer is invalid afterwards. */
struct task_struct *kthread_run(int (*fn)(void *), void *data, const char *name);
/* kthread_run in two steps (Linux's kthread_create, kthread_bind): the
 * thread is made asleep; kthread_bind (before its first wake-up) lets it
 * run on one CPU only, from that CPU's queue; wake_up_process starts it. */
struct task_struct *kthread_create(int (*fn)(void *), void *data, const char *name);
void kthread_bind(struct task_struct *t, int cpu);
int kthread_should_stop(void);
int kthread_stop(struct task_struct *t);
void do_exit(int code) __attribute__((noreturn));

/* Walk every task (for deadlock reports, ps-style dumps). */
extern struct list_head task_list;
void show_task(struct task_struct *t);     /* one line + backtrace of a sleeping task */
void show_state(void);                     /* show_task() for every task, then
                                              show_runqueues() */
void show_runqueues(void);                 /* each CPU's current and queued pids */
int show_schedstat(char *buf, size_t size);   /* /proc/schedstat: each CPU's queue's counters */
/* pid 0's last act: the idle loop (kernel/sched.c).  Never returns. */
void cpu_idle(void) __attribute__((noreturn));
/* Return addresses on a switched-out task's stack (innermost first); 0 for
 * the running or a dead task. */
int task_backtrace(struct task_struct *t, unsigned long *out, int max);
char task_state_char(long state);          /* 'R', 'S', 'D', 'T', 'X' */
/* Each CPU's idle task (kernel/sched.c). */
DECLARE_PER_CPU(struct task_struct *, idle_task);
/* An AP's idle task is its CPU's current (kernel/x86/smpboot.c, before the
 * AP starts; Linux's init_idle). */
void init_idle(struct task_struct *idle, int cpu);
/* Every CPU (Linux's CPU_MASK_ALL). */
#define CPU_MASK_ALL (~0ul)
/* Let t run only on the CPUs in mask (bit n: CPU n; Linux's
 * set_cpus_allowed_ptr).  If t is current and this CPU is not in mask, it
 * moves now (schedule(), then onto an allowed CPU's queue); a queued or
 * sleeping t moves to an allowed CPU's queue at once; a t running on another
 * CPU not in mask moves at its next schedule(), which that CPU is asked
 * for.  -EINVAL if no online CPU is in mask. */
int set_cpus_allowed(struct task_struct *t, unsigned long mask);
/* If t runs on another CPU, interrupt it (the RESCHEDULE IPI) so that it
 * sees a new signal before it goes on in user mode (kernel/sched.c). */
void kick_process(struct task_struct *t);

/* Called by the boot CPU's tick (kernel/sched.c's tick hook), interrupts
 * off, the big kernel lock held: wakes the tasks whose schedule_timeout()
 * expired.  (Each CPU's tick charges its own task's slice.) */
void scheduler_tick(void);
struct pt_regs;
void hung_task_tick(struct pt_regs *regs); /* kernel/hung_task.c; from the tick */
void it_real_tick(void);                   /* kernel/itimer.c: SIGALRM; from the tick */

/* Where each CPU's time went since boot, in ticks (1/HZ s): each tick is
 * charged to what it interrupted (kernel/sched.c, account_tick), as is the
 * running task's utime or stime.  Per CPU, written by that CPU's tick only
 * (Linux's kernel_cpustat); cpu_times_total sums the online CPUs'.
 * /proc/stat's cpu lines, /proc/uptime. */
struct cpu_times {
    unsigned long user, system, idle;
};
DECLARE_PER_CPU(struct cpu_times, kernel_cpustat);
void cpu_times_total(struct cpu_times *sum);
/* The 1, 5 and 15 minute load averages in fixed point: FIXED_1 is 1.0
 * (Linux's avenrun; /proc/loadavg, sysinfo). */
#define FSHIFT  11
#define FIXED_1 (1UL << FSHIFT)
extern unsigned long avenrun[3];
/* Tasks running or runnable, in uninterruptible sleep, and all of them
 * (the idle loop, pid 0, not counted).  Any context. */
struct task_counts {
    unsigned long running, blocked, total;
};
void count_tasks(struct task_counts *c);
/* Print a backtrace starting from frame pointer ebp; frames must lie in
 * [lo, hi) (a task's stack) or the walk stops. */
void sched_backtrace(unsigned long ebp, unsigned long lo, unsigned long hi);
#endif
