/* kernel/fork.c: creating processes (process layer).  fork/vfork/clone,
 * the pid allocator and table lookups, the process limit, the first
 * process (user_process_create, used for pid 1), and the process part of a
 * context switch (page directory, TLS, FPU registers).
 *
 * Sits on the scheduler (task structs, kernel stacks, the run queue), the
 * address-space layer (dup_mm: copy-on-write), the file layer (dup_files)
 * and kernel/x86/user_entry.S (ret_from_fork).
 *
 * A child's kernel stack right after fork, as switch_to() will find it:
 *
 *   stack + THREAD_SIZE -> +----------------------+
 *                          | struct pt_regs       |  copy of the parent's user
 *                          |  (ax = 0: fork()     |  registers: the child
 *                          |   returns 0 here)    |  "returns" from int $0x80
 *                          +----------------------+
 *                          | ret_from_fork        |  switch_to's `ret` lands here
 *                          | ebp ebx esi edi      |  popped by switch_to
 *   t->sp ---------------> +----------------------+
 *
 * ret_from_fork calls schedule_tail() and jumps to ret_from_intr with esp
 * pointing at the pt_regs, which irets to user mode.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <init.h>
#include <sched.h>
#include <asm/fpu.h>
#include <signal.h>
#include <slab.h>
#include <mm.h>
#include <proc.h>
#include <syscalls.h>
#include <asm/irqflags.h>
#include <asm/segment.h>
#include <asm/pgtable.h>
#include <asm/uaccess.h>
#include <fs.h>
#include <fdtable.h>
#include <completion.h>
#include <futex.h>
#include "sched_glue.h"

/* ---- per-process root and cwd (the VFS's struct fs_struct) -------------
 * Each process has its own copy, shared only between tasks made with
 * CLONE_FS (threads): chdir in a child does not move its parent.  A task with
 * fs == NULL uses the VFS's init_fs (kernel threads). */
extern struct fs_struct init_fs;
void path_get(struct path *p);

struct fs_struct *copy_fs_struct(struct fs_struct *old)
{
    struct fs_struct *fs = kzalloc(sizeof *fs, GFP_KERNEL);
    if (!fs)
        return NULL;
    if (!old)
        old = &init_fs;
    fs->root = old->root;
    fs->pwd = old->pwd;
    fs->umask = old->umask;
    if (fs->root.inode)
        path_get(&fs->root);
    if (fs->pwd.inode)
        path_get(&fs->pwd);
    fs->users = 1;
    return fs;
}

void put_fs_struct(struct fs_struct *fs)
{
    if (!fs || fs == &init_fs || --fs->users > 0)
        return;
    if (fs->root.inode)
        path_put(&fs->root);
    if (fs->pwd.inode)
        path_put(&fs->pwd);
    kfree(fs);
}

int max_processes = MIN_MAX_PROCESSES;  /* kmain sets the default once RAM is known */

/* Linux's set_max_threads: at most an eighth of RAM in kernel stacks
 * (THREAD_SIZE each), at least MIN_MAX_PROCESSES, and never more tasks
 * than pids.  256 MiB gives about 4000 (a task costs its stack, page
 * directory and tables, task_struct: roughly 16-20 KiB before any user
 * page), 16 MiB about 250. */
int default_max_processes(void)
{
    unsigned long n = totalram_pages / (8 * THREAD_SIZE / PAGE_SIZE);
    if (n < MIN_MAX_PROCESSES)
        n = MIN_MAX_PROCESSES;
    if (n > PID_MAX / 2)
        n = PID_MAX / 2;
    return (int)n;
}
int nr_processes;
struct task_struct *init_process;

/* user_entry.S */
void ret_from_fork(void);

/* ---- pids ------------------------------------------------------------------ */

struct task_struct *find_task_by_pid(pid_t pid)
{
    struct task_struct *t, *found = NULL;
    unsigned long flags = local_irq_save();
    list_for_each_entry(t, &task_list, tasks)
        if (t->pid == pid && t->exit_state != EXIT_DEAD) {
            found = t;
            break;
        }
    local_irq_restore(flags);
    return found;
}

static bool pid_in_use(pid_t pid)
{
    struct task_struct *t;
    list_for_each_entry(t, &task_list, tasks)
        if (t->pid == pid || (t->is_process && (t->pgrp == pid || t->session == pid)))
            return true;
    return false;
}

/* Next free pid after the last one handed out, wrapping at pid_max to 2
 * (Linux wraps to 300 to skip daemons' low pids; we have none).  A pid is
 * not reused while it still names a process group or session.  O(tasks)
 * per try: fine for a few hundred tasks. */
pid_t last_pid = 1;                    /* the pid handed out last (/proc/loadavg) */
int pid_max = PID_MAX;                 /* /proc/sys/kernel/pid_max (fs/pseudofs.c) */

pid_t alloc_pid(void)
{
    unsigned long flags = local_irq_save();
    int limit = READ_ONCE(pid_max);
    for (int tries = 0; tries < limit; tries++) {
        pid_t p = last_pid + 1;
        if (p >= limit)
            p = 2;
        last_pid = p;
        if (!pid_in_use(p)) {
            local_irq_restore(flags);
            return p;
        }
    }
    local_irq_restore(flags);
    return -EAGAIN;
}

/* The process half of a context switch, called by schedule() with
 * interrupts off just before switch_to (Linux: context_switch's switch_mm
 * or enter_lazy_tlb, then __switch_to).  A kernel thread keeps the
 * directory of whatever ran here before it (Linux's lazy TLB mode: no CR3
 * write, and none when the same process's task comes back); the mm's
 * cpu_vm_mask keeps this CPU until a flush makes it leave (mm/mmap.c,
 * kernel/x86/smp.c, docs/smp.md). */
void arch_switch_to(struct task_struct *prev, struct task_struct *next)
{
    if (prev->fpu)
        save_fpregs_to_fpstate(prev->fpu);
    if (next->mm)
        switch_mm(prev->mm, next->mm, next);
    else
        enter_lazy_tlb(prev->mm, next);
    if (next->is_process) {
        load_TLS(next->tls_array);
        if (next->fpu)
            restore_fpregs_from_fpstate(next->fpu);
    }
    /* %gs is not part of the switch (switch.S swaps stacks only) and the
     * kernel runs with the user's value in it (entry.S), so next would run
     * with prev's.  If that names a TLS entry load_TLS just changed, a
     * kernel-mode interrupt in next saves it and faults popping it back
     * (#GP in restore_all).  A null selector, as exec loads; next's own
     * comes back from its frame on the way to user mode.  (Linux's
     * __switch_to saves and reloads it per task instead.)  %fs is the
     * kernel's per-CPU segment in the kernel (include/asm/percpu.h): the
     * user's is in the frame. */
    loadsegment(gs, 0);
}

/* ---- creating a task --------------------------------------------------------- */

/* A task_struct with a kernel stack, not yet on any list.  The process
 * fields are inherited from `parent` where Linux inherits them (signal
 * handlers and mask, process group, session, TLS, comm). */
static struct task_struct *dup_task(struct task_struct *parent)
{
    struct task_struct *t = alloc_task_struct();
    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    t->stack = alloc_thread_stack();
    t->fpu = fpstate_alloc();
    if (!t->stack || !t->fpu) {
        if (t->stack)
            free_thread_stack(t->stack);
        kfree(t->fpu);
        free_task_struct(t);
        return NULL;
    }
    struct thread_info *ti = t->stack;
    ti->task = t;
    ti->magic = STACK_END_MAGIC;
    INIT_LIST_HEAD(&t->run_list);
    INIT_LIST_HEAD(&t->tasks);
    INIT_LIST_HEAD(&t->children);
    INIT_LIST_HEAD(&t->sibling);
    INIT_LIST_HEAD(&t->thread_group);
    init_waitqueue_head(&t->wait_chldexit);
    t->time_slice = TASK_TIMESLICE;
    /* inherited, as Linux; pid 1 is not kept on CPU 0 as kmain is */
    t->cpus_allowed = parent == &init_task ? CPU_MASK_ALL : parent->cpus_allowed;
    t->cpu = current->cpu;             /* its first run queue: this CPU's (Linux's sched_fork) */
    t->start_time = jiffies;
    t->is_process = 1;
    strlcpy(t->comm, parent->comm, TASK_COMM_LEN);
    t->rlim_fsize[0] = parent->rlim_fsize[0];  /* init: init_task's, unlimited */
    t->rlim_fsize[1] = parent->rlim_fsize[1];
    t->rlim_nofile[0] = parent->rlim_nofile[0];
    t->rlim_nofile[1] = parent->rlim_nofile[1];
    t->rlim_nproc[0] = parent->rlim_nproc[0];
    t->rlim_nproc[1] = parent->rlim_nproc[1];
    t->rlim_cpu[0] = tg_leader(parent)->rlim_cpu[0];
    t->rlim_cpu[1] = tg_leader(parent)->rlim_cpu[1];
    t->rlim_memlock[0] = parent->rlim_memlock[0];
    t->rlim_memlock[1] = parent->rlim_memlock[1];
    t->rlim_sigpending[0] = tg_leader(parent)->rlim_sigpending[0];
    t->rlim_sigpending[1] = tg_leader(parent)->rlim_sigpending[1];
    t->cred = parent->cred;            /* include/cred.h: fork inherits the ids */
    if (parent->is_process) {
        t->pgrp = parent->pgrp;
        t->session = parent->session;
        t->blocked = parent->blocked;
        /* The handlers live in the group leader's task_struct (a thread's
         * own action[] is unused: kernel/signal.c sig_action). */
        memcpy(t->action, tg_leader(parent)->action, sizeof t->action);
        memcpy(t->tls_array, parent->tls_array, sizeof t->tls_array);
        t->sas_ss_sp = parent->sas_ss_sp;      /* fork keeps the alternate */
        t->sas_ss_size = parent->sas_ss_size;  /* signal stack (POSIX) */
        t->sas_ss_flags = parent->sas_ss_flags;
    }
    return t;
}

static void free_task(struct task_struct *t)
{
    if (t->stack)
        free_thread_stack(t->stack);
    kfree(t->fpu);
    free_task_struct(t);
}

/* Build the stack switch_to() expects: the pt_regs at the top, then the
 * frame that makes switch_to's `ret` enter ret_from_fork with ebx = fn and
 * edi = arg (fn NULL: straight to user mode). */
static void setup_fork_stack(struct task_struct *t, int (*fn)(void *), void *arg)
{
    unsigned long *sp = (unsigned long *)task_pt_regs(t);
    *--sp = (unsigned long)ret_from_fork;
    *--sp = 0;                         /* ebp: ends backtraces */
    *--sp = (unsigned long)fn;         /* ebx */
    *--sp = 0;                         /* esi */
    *--sp = (unsigned long)arg;        /* edi */
    t->sp = (unsigned long)sp;
}

/* RLIMIT_NPROC (Linux's copy_process): a user other than root may own at
 * most the soft limit of tasks, counted by real uid (threads and zombies
 * too, until reaped); CAP_SYS_RESOURCE and CAP_SYS_ADMIN are exempt. */
static bool over_nproc_limit(struct task_struct *me)
{
    uid_t uid = me->cred.uid;
    if (uid == 0 || capable(CAP_SYS_RESOURCE) || capable(CAP_SYS_ADMIN))
        return false;
    unsigned long long n = 0;
    struct task_struct *t;
    unsigned long flags = local_irq_save();
    list_for_each_entry(t, &task_list, tasks)
        if (t->is_process && t->exit_state != EXIT_DEAD && t->cred.uid == uid)
            n++;
    local_irq_restore(flags);
    return n >= me->rlim_nproc[0];
}

/* Make t visible (pid, lists) and runnable.  Fails with -EAGAIN over the
 * system-wide task limit, max_processes (threads count, as in Linux's
 * threads-max; the per-user RLIMIT_NPROC is over_nproc_limit's) or out of pids.
 * A task that is not a thread leads a new group: tgid = pid.  A thread
 * (t->group_leader set by copy_process) joins its leader's group and is
 * nobody's child: parent NULL, on no children list (wait() never sees it). */
static int attach_and_wake(struct task_struct *t, struct task_struct *parent, pid_t pid)
{
    unsigned long flags = local_irq_save();
    if (nr_processes >= max_processes) {
        local_irq_restore(flags);
        return -EAGAIN;
    }
    if (t->group_leader && t->group_leader->group_exit) {
        /* exit_group, a fatal signal or an exec is ending the group: no
         * new threads (Linux's copy_process refuses them too, with -EINTR
         * where a fatal signal is pending; the caller dies either way). */
        local_irq_restore(flags);
        return -EAGAIN;
    }
    if (!pid)
        pid = alloc_pid();
    if (pid < 0) {
        local_irq_restore(flags);
        return -EAGAIN;
    }
    t->pid = pid;
    if (t->group_leader) {
        t->tgid = t->group_leader->tgid;
        t->parent = NULL;
        list_add_tail(&t->thread_group, &t->group_leader->thread_group);
        t->group_leader->group_live++;
    } else {
        t->group_leader = t;
        t->tgid = pid;
        t->group_live = 1;
        t->parent = parent;
        if (parent)
            list_add_tail(&t->sibling, &parent->children);
    }
    list_add_tail(&t->tasks, &task_list);
    nr_processes++;
    t->state = TASK_UNINTERRUPTIBLE;
    local_irq_restore(flags);
    wake_up_process(t);                /* onto the run queue */
    return 0;
}

/* The clone flags (Linux's <linux/sched.h> values). */
#define CLONE_VM       0x00000100      /* share the mm_struct */
#define CLONE_FS       0x00000200      /* share root, cwd, umask */
#define CLONE_FILES    0x00000400      /* share the descriptor table */
#define CLONE_SIGHAND  0x00000800      /* share the handlers */
#define CLONE_VFORK    0x00004000      /* the parent sleeps until the child execs or exits */
#define CLONE_PARENT   0x00008000      /* the child's parent is ours */
#define CLONE_THREAD   0x00010000      /* same thread group */
#define CLONE_SYSVSEM  0x00040000      /* share SysV undo lists: none here, accepted */
#define CLONE_SETTLS   0x00080000      /* the TLS entry from the user_desc in tls */
#define CLONE_PARENT_SETTID  0x00100000  /* store the tid at parent_tid */
#define CLONE_CHILD_CLEARTID 0x00200000  /* clear_child_tid = child_tid */
#define CLONE_DETACHED 0x00400000      /* ignored, as Linux */
#define CLONE_CHILD_SETTID   0x01000000  /* store the tid at child_tid, in the child */
#define CSIGNAL        0x000000ff      /* the exit signal */
#define CLONE_SUPPORTED (CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
                         CLONE_VFORK | CLONE_PARENT | CLONE_THREAD | CLONE_SYSVSEM | \
                         CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | \
                         CLONE_DETACHED | CLONE_CHILD_SETTID)

/* fork, vfork and clone (Linux's do_fork + copy_process): a new task
 * that returns 0 from the same system call, at the same user eip, on the
 * stack newsp (0: the caller's, as fork).  What it shares with us and what
 * it gets a copy of is what the flags say:
 *
 *   CLONE_VM     the mm (copy_mm: mm_users + 1; without it dup_mm's COW copy)
 *   CLONE_FILES  the descriptor table (copy_files: files->count + 1)
 *   CLONE_FS     root, cwd and umask (copy_fs: fs->users + 1)
 *   CLONE_SIGHAND  the handlers: they live in the group leader's task_struct
 *                (Linux: a refcounted sighand_struct), so only together
 *                with CLONE_THREAD; alone it is -EINVAL (simplification)
 *   CLONE_THREAD the same thread group: tgid, leader, no exit signal, not a
 *                child for wait(); needs CLONE_SIGHAND, which needs CLONE_VM
 *                (-EINVAL otherwise, Linux's copy_process checks)
 *
 * Returns the child's pid (its tid) or -errno; nothing is left behind on
 * failure. */
long do_fork(unsigned long clone_flags, unsigned long newsp, struct pt_regs *regs,
             int *parent_tid, unsigned long tls, int *child_tid)
{
    struct task_struct *me = current, *t;
    if (!me->is_process || !me->mm)
        return -EINVAL;
    if (clone_flags & ~CLONE_SUPPORTED)
        return -EINVAL;
    if ((clone_flags & CLONE_THREAD) && !(clone_flags & CLONE_SIGHAND))
        return -EINVAL;
    if ((clone_flags & CLONE_SIGHAND) && !(clone_flags & CLONE_VM))
        return -EINVAL;
    if ((clone_flags & CLONE_SIGHAND) && !(clone_flags & CLONE_THREAD))
        return -EINVAL;                /* see above: handlers shared by a group only */
    if (READ_ONCE(nr_processes) >= max_processes || over_nproc_limit(me))
        return -EAGAIN;
    t = dup_task(me);
    if (!t)
        return -ENOMEM;
    save_fpregs_to_fpstate(t->fpu);    /* our live registers are the child's too */
    /* copy_mm */
    if (clone_flags & CLONE_VM) {
        me->mm->mm_users++;
        t->mm = me->mm;
    } else {
        t->mm = dup_mm(me->mm);
        if (!t->mm)
            goto nomem;
    }
    /* copy_files */
    if (me->files) {
        if (clone_flags & CLONE_FILES) {
            spin_lock(&me->files->file_lock);
            me->files->count++;
            spin_unlock(&me->files->file_lock);
            t->files = me->files;
        } else {
            t->files = dup_files(me->files);
            if (!t->files)
                goto nomem;
        }
    }
    /* copy_fs */
    if (me->fs) {
        if (clone_flags & CLONE_FS) {
            me->fs->users++;
            t->fs = me->fs;
        } else {
            t->fs = copy_fs_struct(me->fs);
            if (!t->fs)
                goto nomem;
        }
    }
    int err;
    if (clone_flags & CLONE_SETTLS) {
        err = do_set_thread_area(t, (void *)tls, 0);
        if (err)
            goto fail;
    }
    struct pt_regs *child = task_pt_regs(t);
    *child = *regs;
    child->ax = 0;                     /* fork() returns 0 in the child */
    if (newsp)
        child->sp = newsp;
    if (clone_flags & CLONE_CHILD_CLEARTID)
        t->clear_child_tid = (unsigned long)child_tid;
    if ((clone_flags & (CLONE_VM | CLONE_VFORK)) == CLONE_VM) {
        /* A task sharing our memory but running beside us must not
         * deliver signals on our alternate stack (Linux's sas_ss_reset). */
        t->sas_ss_sp = t->sas_ss_size = 0;
        t->sas_ss_flags = SS_DISABLE;
    }
    setup_fork_stack(t, NULL, NULL);

    struct task_struct *parent = tg_leader(me);      /* children belong to the group */
    if (clone_flags & (CLONE_PARENT | CLONE_THREAD))
        parent = tg_leader(me)->parent;
    if (clone_flags & CLONE_THREAD)
        t->group_leader = tg_leader(me);
    struct completion vfork;
    if (clone_flags & CLONE_VFORK) {
        init_completion(&vfork);
        t->vfork_done = &vfork;
    }
    /* The tid stores, before the child can run.  CLONE_CHILD_SETTID writes
     * into the child's memory: with CLONE_VM that is ours; a fork child's
     * copy is not written (glibc's fork does not read it: it asks
     * set_tid_address; simplification). */
    pid_t pid = alloc_pid();
    if (pid < 0) {
        err = pid;
        goto fail;
    }
    if ((clone_flags & CLONE_PARENT_SETTID) && put_user((int)pid, parent_tid)) {
        err = -EFAULT;
        goto fail;
    }
    if ((clone_flags & CLONE_CHILD_SETTID) && (clone_flags & CLONE_VM) &&
        put_user((int)pid, child_tid)) {
        err = -EFAULT;
        goto fail;
    }
    err = attach_and_wake(t, parent, pid);
    if (err)
        goto fail;
    if (clone_flags & CLONE_VFORK)
        wait_for_completion(&vfork);   /* the child's exec or exit (mm_release) */
    return pid;
nomem:
    err = -ENOMEM;
fail:
    t->vfork_done = NULL;
    release_task_resources(t);
    free_task(t);
    return err;
}

/* Drop what dup_task/do_fork attached (for failure paths and exit). */
void release_task_resources(struct task_struct *t)
{
    if (t->mm) {
        mmput(t->mm);
        t->mm = NULL;
    }
    if (t->files)
        put_files(t->files);
    t->files = NULL;
    if (t->fs)
        put_fs_struct(t->fs);
    t->fs = NULL;
}

/* The mm is about to stop being t's (exit, exec: Linux's mm_release).  The
 * robust mutexes t still holds are marked dead (kernel/futex.c), a
 * vfork parent waiting on t wakes up; a thread's clear_child_tid gets 0
 * and a FUTEX_WAKE, which is how pthread_join learns a thread ended (only
 * if someone else uses the mm: nobody could be waiting otherwise). */
void mm_release(struct task_struct *t, struct mm_struct *mm)
{
    if (t->robust_list && mm)
        exit_robust_list(t);
    if (t->vfork_done) {
        complete(t->vfork_done);
        t->vfork_done = NULL;
    }
    if (t->clear_child_tid) {
        int *tidptr = (int *)t->clear_child_tid;
        t->clear_child_tid = 0;
        if (mm && mm->mm_users > 1 && !put_user(0, tidptr))
            futex_wake_address(tidptr, 1);
    }
}

long sys_fork(void)
{
    return do_fork(SIGCHLD, 0, current_pt_regs(), NULL, 0, NULL);
}

/* vfork: the child borrows our mm and we sleep until it execs or exits
 * (Linux's CLONE_VM | CLONE_VFORK). */
long sys_vfork(void)
{
    return do_fork(CLONE_VM | CLONE_VFORK | SIGCHLD, 0, current_pt_regs(), NULL, 0, NULL);
}

/* clone(flags, newsp, parent_tid, tls, child_tid): i386's argument order.
 * The exit signal (flags & CSIGNAL) is SIGCHLD whatever it says
 * (simplification: no other exit signal is modelled); a thread has none. */
long sys_clone(unsigned long flags, unsigned long newsp, int *parent_tid,
               unsigned long tls, int *child_tid)
{
    return do_fork(flags, newsp, current_pt_regs(), parent_tid, tls, child_tid);
}

/* ---- the first process --------------------------------------------------- */

struct task_struct *user_process_create(int (*fn)(void *), void *arg, const char *name,
                                        pid_t pid)
{
    struct task_struct *t = dup_task(&init_task);
    if (!t)
        return ERR_PTR(-ENOMEM);
    fpstate_init(t->fpu);
    strlcpy(t->comm, name, TASK_COMM_LEN);
    memset(task_pt_regs(t), 0, sizeof(struct pt_regs));
    setup_fork_stack(t, fn, arg);
    if (pid) {
        /* pid 1 is never handed out by alloc_pid(); refuse a pid in use. */
        if (find_task_by_pid(pid)) {
            free_task(t);
            return ERR_PTR(-EEXIST);
        }
    }
    int err = attach_and_wake(t, NULL, pid);
    if (err) {
        free_task(t);
        return ERR_PTR(err);
    }
    /* Its own process group and session, as init's.  (It has not run yet:
     * the kernel is not preemptible, we have not scheduled.) */
    t->pgrp = t->session = t->pid;
    return t;
}
