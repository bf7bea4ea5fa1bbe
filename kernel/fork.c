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
#include "sched_glue.h"

/* ---- per-process root and cwd (the VFS's struct fs_struct) -------------
 * Each process has its own copy (Linux shares it only between threads made
 * with CLONE_FS): chdir in a child does not move its parent.  A task with
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

int max_processes = DEFAULT_MAX_PROCESSES;
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

/* Next free pid after the last one handed out, wrapping at PID_MAX to 2
 * (Linux wraps to 300 to skip daemons' low pids; we have none).  A pid is
 * not reused while it still names a process group or session.  O(tasks)
 * per try: fine for a few hundred tasks. */
pid_t last_pid = 1;                    /* the pid handed out last (/proc/loadavg) */

pid_t alloc_pid(void)
{
    unsigned long flags = local_irq_save();
    for (int tries = 0; tries < PID_MAX; tries++) {
        pid_t p = last_pid + 1;
        if (p >= PID_MAX)
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
 * interrupts off just before switch_to (Linux: switch_mm + __switch_to).
 * Kernel threads keep whatever directory is loaded (the kernel half is the
 * same in all), as Linux's lazy TLB mode. */
void arch_switch_to(struct task_struct *prev, struct task_struct *next)
{
    if (prev->fpu)
        save_fpregs_to_fpstate(prev->fpu);
    if (next->mm && next->mm != prev->mm)
        switch_mm(prev->mm, next->mm, next);
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
    init_waitqueue_head(&t->wait_chldexit);
    t->time_slice = TASK_TIMESLICE;
    t->is_process = 1;
    strlcpy(t->comm, parent->comm, TASK_COMM_LEN);
    t->rlim_fsize[0] = parent->rlim_fsize[0];  /* init: init_task's, unlimited */
    t->rlim_fsize[1] = parent->rlim_fsize[1];
    t->rlim_nofile[0] = parent->rlim_nofile[0];
    t->rlim_nofile[1] = parent->rlim_nofile[1];
    if (parent->is_process) {
        t->pgrp = parent->pgrp;
        t->session = parent->session;
        t->blocked = parent->blocked;
        memcpy(t->action, parent->action, sizeof t->action);
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

/* Make t visible (pid, lists) and runnable.  Fails with -EAGAIN over the
 * process limit or out of pids. */
static int attach_and_wake(struct task_struct *t, struct task_struct *parent, pid_t pid)
{
    unsigned long flags = local_irq_save();
    if (nr_processes >= max_processes) {
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
    t->parent = parent;
    if (parent)
        list_add_tail(&t->sibling, &parent->children);
    list_add_tail(&t->tasks, &task_list);
    nr_processes++;
    t->state = TASK_UNINTERRUPTIBLE;
    local_irq_restore(flags);
    wake_up_process(t);                /* onto the run queue */
    return 0;
}

long do_fork(struct pt_regs *regs)
{
    struct task_struct *me = current, *t;
    if (!me->is_process || !me->mm)
        return -EINVAL;
    if (READ_ONCE(nr_processes) >= max_processes)
        return -EAGAIN;
    t = dup_task(me);
    if (!t)
        return -ENOMEM;
    save_fpregs_to_fpstate(t->fpu);    /* our live registers are the child's too */
    t->mm = dup_mm(me->mm);
    if (!t->mm)
        goto nomem;
    if (me->files) {
        t->files = dup_files(me->files);
        if (!t->files)
            goto nomem;
    }
    if (me->fs) {
        t->fs = copy_fs_struct(me->fs);
        if (!t->fs)
            goto nomem;
    }
    struct pt_regs *child = task_pt_regs(t);
    *child = *regs;
    child->ax = 0;                     /* fork() returns 0 in the child */
    setup_fork_stack(t, NULL, NULL);
    int err = attach_and_wake(t, me, 0);
    if (err) {
        release_task_resources(t);
        free_task(t);
        return err;
    }
    return t->pid;
nomem:
    release_task_resources(t);
    free_task(t);
    return -ENOMEM;
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

long sys_fork(void)
{
    return do_fork(current_pt_regs());
}

/* vfork: the child shares nothing here; it gets a copy-on-write copy like
 * fork (allowed by POSIX: vfork may be fork), and the parent does not wait
 * for its exec.  Programs written for vfork work. */
long sys_vfork(void)
{
    return do_fork(current_pt_regs());
}

#define CLONE_VM       0x00000100
#define CLONE_FS       0x00000200
#define CLONE_FILES    0x00000400
#define CLONE_SIGHAND  0x00000800
#define CLONE_VFORK    0x00004000
#define CLONE_THREAD   0x00010000
#define CLONE_SETTLS   0x00080000
#define CLONE_PARENT_SETTID  0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID   0x01000000
#define CSIGNAL        0x000000ff

/* clone: only the fork-like uses (glibc's fork() is clone(SIGCHLD |
 * CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID, 0, ...)).  Threads (CLONE_VM,
 * CLONE_THREAD...) are not supported: -EINVAL. */
long sys_clone(unsigned long flags, unsigned long newsp, int *parent_tid,
               unsigned long tls, int *child_tid)
{
    if (flags & (CLONE_VM | CLONE_THREAD | CLONE_SIGHAND | CLONE_FS | CLONE_FILES))
        return -EINVAL;
    struct pt_regs *regs = current_pt_regs();
    long pid = do_fork(regs);
    if (pid < 0)
        return pid;
    struct task_struct *t = find_task_by_pid(pid);
    if (t) {
        if (newsp)
            task_pt_regs(t)->sp = newsp;
        if (flags & CLONE_CHILD_CLEARTID)
            t->clear_child_tid = (unsigned long)child_tid;
        /* CLONE_CHILD_SETTID (write the tid into the child's memory) is
         * ignored: glibc's fork only uses it to cache the tid, which it
         * re-reads with set_tid_address/getpid.  (Simplification.) */
    }
    if ((flags & CLONE_PARENT_SETTID) && parent_tid)
        put_user((int)pid, parent_tid);
    return pid;
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
