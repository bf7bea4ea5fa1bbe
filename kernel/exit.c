/* kernel/exit.c: ending processes and threads, and waiting for them
 * (process layer).
 *
 * exit() ends the calling task (do_task_exit); exit_group and fatal signals
 * end its whole thread group (do_group_exit: the other tasks get SIGKILL
 * and leave with the group's status).  Each task, on its way out:
 *   1. releases its share of the address space (mm_release first: a vfork
 *      parent wakes, clear_child_tid is cleared and woken; then back to the
 *      kernel's directory), the descriptors and the cwd: the frames go back
 *      to the allocator when their last user goes, not when the parent reaps;
 *   2. (the group's last task) hands the children to init (pid 1);
 *   3. becomes a ZOMBIE holding only its task_struct and the wait status
 *      (the leader) or EXIT_DEAD (a thread: nobody waits for it); the
 *      group's last task tells the parent: SIGCHLD, wake-up in wait4();
 *   4. the scheduler's do_exit() switches away for good; the next task
 *      frees the kernel stack (schedule_tail), and a dead thread's
 *      task_struct with it.
 * A leader that exits before its threads is not reaped until they are all
 * gone (group_live, Linux's delay_group_leader).
 * wait4() reaps: it takes the zombie off every list and frees the
 * task_struct (Linux's release_task).
 *
 * A parent that ignores SIGCHLD (SIG_IGN, or SA_NOCLDWAIT) gets no zombies:
 * Linux's do_notify_parent says "autoreap".  In step 3 the child leaves its
 * parent's list as EXIT_DEAD (wait4 finds no such child: ECHILD once the
 * last is gone), the parent is woken, and signalled only if SIGCHLD is not
 * SIG_IGN; schedule_tail frees the task_struct with the stack
 * (release_dead_process).
 *
 * The wait status word (what WIFEXITED & co. decode):
 *   normal exit:  (code & 0xff) << 8        killed by signal: sig (0x7f mask)
 *   stopped:      (sig << 8) | 0x7f         continued: 0xffff
 * A stop is reported once, only to wait4(WUNTRACED); a continue once, only
 * to wait4(WCONTINUED); neither reaps (kernel/signal.c sets the reports).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <slab.h>
#include <mm.h>
#include <proc.h>
#include <syscalls.h>
#include <asm/irqflags.h>
#include <asm/uaccess.h>
#include "sched_glue.h"

unsigned long exit_count, reap_count;

/* Free a dead process: its stack is already gone (freed by the task that
 * ran after it died).  Interrupts off. */
static void free_dead_process(struct task_struct *c)
{
    list_del(&c->tasks);
    c->exit_state = EXIT_DEAD;
    nr_processes--;
    reap_count++;
    kfree(c->fpu);
    c->fpu = NULL;
    free_task_struct(c);
}

/* The last task of leader's group has exited (steps 2 and 3 above, for
 * the whole group): the children go to init, the leader's zombie gets the
 * group's status and the parent is told.  Called by that last task, which
 * may be the leader itself or a thread after it.  Interrupts off. */
static void group_dead(struct task_struct *leader)
{
    struct task_struct *c, *n;
    bool zombies_to_init = false;
    list_for_each_entry_safe(c, n, &leader->children, sibling) {
        list_del(&c->sibling);
        c->parent = init_process;
        if (init_process)
            list_add_tail(&c->sibling, &init_process->children);
        if (c->exit_state == EXIT_ZOMBIE)
            zombies_to_init = true;
    }
    if (zombies_to_init && init_process) {
        struct kern_siginfo ci = { .code = CLD_EXITED };
        send_signal(init_process, SIGCHLD, &ci);
        wake_up_all(&init_process->wait_chldexit);
    }
    int status = leader->group_exit ? leader->group_exit_code : leader->exit_status;
    leader->exit_status = status;
    exit_count++;
    struct task_struct *parent = leader->parent;
    if (!parent)
        return;
    struct kern_siginfo ci = {
        .code = (status & 0x7f) ? CLD_KILLED : CLD_EXITED,
        .pid = leader->pid,
        .status = (status & 0x7f) ? (status & 0x7f) : (status >> 8) & 0xff,
    };
    const struct sigaction *psa = &tg_leader(parent)->action[SIGCHLD - 1].sa;
    if (psa->sa_handler == SIG_IGN || (psa->sa_flags & SA_NOCLDWAIT)) {
        /* autoreap: a leader that is still running (it is the caller), or
         * whose CPU has not yet freed its stack (it died a moment ago on
         * another CPU: schedule_tail, waiting for the big lock we hold, has
         * it still to do), is freed with its stack by schedule_tail; one
         * already gone now. */
        list_del_init(&leader->sibling);
        if (leader != current && !leader->stack)
            free_dead_process(leader);
        else
            leader->exit_state = EXIT_DEAD;
    }
    if (psa->sa_handler != SIG_IGN)
        send_group_signal(parent, SIGCHLD, &ci);
    wake_up_all(&parent->wait_chldexit);
}

/* End the calling task (Linux's do_exit): exit(), and each task of a group
 * that exit_group or a fatal signal ends.  status is its wait word; a
 * process's is its leader's, or the group's (group_dead). */
static void __attribute__((noreturn)) do_task_exit(int status)
{
    struct task_struct *me = current, *leader = tg_leader(me);

    if (!me->is_process)
        panic("do_group_exit: kernel thread %d (%s)", me->pid, me->comm);
    if (leader == init_process && leader->group_live == 1)
        panic("Attempted to kill init! exit status %#x", status);

    /* 1. resources.  mm_release first (it writes clear_child_tid in this
     * mm); use_mm(NULL) keeps its directory loaded lazily (Linux's
     * exit_mm: enter_lazy_tlb); mmput, if we were its last user, makes
     * this CPU and any other keeping it leave before it frees it. */
    mm_release(me, me->mm);
    struct mm_struct *mm = use_mm(NULL);
    me->mm = NULL;
    if (mm) {
        note_maxrss(me, mm);
        mmput(mm);
    }
    release_task_resources(me);

    unsigned long flags = local_irq_save();
    me->exit_status = status;
    bool last = --leader->group_live == 0;
    if (me != leader) {
        /* A thread is nobody's child: gone as soon as it is off the CPU
         * (schedule_tail: release_dead_process). */
        list_del_init(&me->thread_group);
        me->exit_state = EXIT_DEAD;
    } else {
        /* The leader stays, a zombie not yet reapable, while its group has
         * threads (Linux's delay_group_leader). */
        me->exit_state = EXIT_ZOMBIE;
    }
    if (last)
        group_dead(leader);
    /* 4. never returns; interrupts stay off until the switch. */
    do_exit(status);
    local_irq_restore(flags);          /* not reached */
    for (;;)
        ;
}

/* Ask every other task of t's group to die (Linux's zap_other_threads):
 * SIGKILL, which they act on at their next return to user mode.
 * Interrupts off. */
static void zap_other_threads(struct task_struct *me)
{
    struct task_struct *leader = tg_leader(me), *t;
    struct kern_siginfo info = { .code = SI_KERNEL };
    if (leader != me && !leader->exit_state)
        send_signal(leader, SIGKILL, &info);
    list_for_each_entry(t, &leader->thread_group, thread_group)
        if (t != me && !t->exit_state)
            send_signal(t, SIGKILL, &info);
}

/* execve in a thread group (Linux's de_thread, which lives in fs/exec.c;
 * here beside zap_other_threads and the reaping it needs): every other
 * task of the group is killed and waited for, and if we are not the leader
 * we take over its pid, parent, children and handlers, and its zombie is
 * freed without a word to the parent: the process goes on, as one task,
 * under the same pid.  0, or -EAGAIN if the group is exiting already (the
 * exec fails; we die with the group on the way out).  The wait polls a
 * tick at a time: the dying tasks finish what they sleep on first. */
int de_thread(void)
{
    struct task_struct *me = current, *leader = tg_leader(me);
    unsigned long flags = local_irq_save();
    if (leader->group_live == 1 && leader == me) {
        local_irq_restore(flags);
        return 0;
    }
    if (leader->group_exit) {
        local_irq_restore(flags);
        return -EAGAIN;
    }
    /* The others leave as if killed by SIGKILL; nobody is told. */
    leader->group_exit = 1;
    leader->group_exit_code = SIGKILL;
    zap_other_threads(me);
    while (leader->group_live > 1 ||
           (leader != me && !(leader->state == TASK_DEAD && !leader->stack))) {
        local_irq_restore(flags);
        set_current_state(TASK_UNINTERRUPTIBLE);
        schedule_timeout(1);
        flags = local_irq_save();
    }
    if (leader != me) {
        /* Take the leader's place: its pid (the tgid), its parent and
         * place among the parent's children, its children, handlers and
         * job-control identity; then free it (it is a zombie whose stack
         * is gone, on no list but the task list and its parent's). */
        struct task_struct *c, *n;
        me->pid = leader->pid;
        me->group_leader = me;
        me->parent = leader->parent;
        list_add(&me->sibling, &leader->sibling);   /* our place is the leader's */
        list_del_init(&leader->sibling);
        list_for_each_entry_safe(c, n, &leader->children, sibling) {
            list_del(&c->sibling);
            c->parent = me;
            list_add_tail(&c->sibling, &me->children);
        }
        memcpy(me->action, leader->action, sizeof me->action);
        me->pgrp = leader->pgrp;
        me->session = leader->session;
        list_del_init(&me->thread_group);
        free_dead_process(leader);
        leader = me;
    }
    leader->group_live = 1;
    leader->group_exit = 0;
    leader->group_exit_code = 0;
    local_irq_restore(flags);
    return 0;
}

/* End the whole thread group: exit_group, a fatal signal.  The first task
 * to get here sets the group's status; the others, killed by it, leave
 * with that status whatever brought them here. */
void do_group_exit(int status)
{
    struct task_struct *me = current, *leader = tg_leader(me);
    unsigned long flags = local_irq_save();
    if (leader->group_exit) {
        status = leader->group_exit_code;
    } else if (leader->group_live > 1) {
        leader->group_exit = 1;
        leader->group_exit_code = status;
        zap_other_threads(me);
    }
    local_irq_restore(flags);
    do_task_exit(status);
}

/* exit: the calling thread only; the process ends with its last thread. */
long sys_exit(int code)
{
    do_task_exit((code & 0xff) << 8);
}

long sys_exit_group(int code)
{
    do_group_exit((code & 0xff) << 8);
}

/* One wait4/waitpid/waitid call (Linux's struct wait_opts and
 * waitid_info): what to look for, then what do_wait found. */
struct wait_opts {
    int type;                          /* P_ALL, P_PID, P_PGID */
    pid_t id;                          /* the pid or process group */
    int flags;                         /* WEXITED, WSTOPPED, WCONTINUED, WNOHANG, WNOWAIT */
    struct rusage32 *ru;               /* the child's usage, or NULL */
    pid_t pid;                         /* found: the child */
    uid_t uid;                         /* its real uid */
    int cause;                         /* CLD_EXITED ... CLD_CONTINUED */
    int status;                        /* exit code or signal (waitid's si_status) */
    int word;                          /* the wait4 status word */
};

/* Does child c match the wait's idtype and id (Linux's eligible_pid)? */
static bool wait_match(const struct wait_opts *wo, struct task_struct *c)
{
    switch (wo->type) {
    case P_PID:  return c->pid == wo->id;
    case P_PGID: return c->pgrp == wo->id;
    default:     return true;          /* P_ALL */
    }
}

/* Free a reaped zombie (wait4). */
static void release_task(struct task_struct *c)
{
    list_del(&c->sibling);
    free_dead_process(c);
}

/* schedule_tail, once the stack of a process that died EXIT_DEAD (its
 * parent ignores SIGCHLD: nobody will wait4 for it) is freed.  Interrupts
 * off. */
void release_dead_process(struct task_struct *t)
{
    BUG_ON(!t->is_process || t->exit_state != EXIT_DEAD || t->stack);
    free_dead_process(t);
}

/* Any task of a group waits for the group's children (they are the
 * leader's: do_fork), on the leader's queue. */
/* An mm leaves its task (exit, exec): its peak stays the process's
 * ru_maxrss (Linux's setmax_mm_hiwater_rss into signal->maxrss). */
void note_maxrss(struct task_struct *t, struct mm_struct *mm)
{
    struct task_struct *leader = tg_leader(t);
    unsigned long kib = mm->hiwater_rss * (PAGE_SIZE / 1024);
    if (kib > leader->maxrss)
        leader->maxrss = kib;
}

/* The reaper's group leader adds what the child it reaps used, the child's
 * own and its children's, to its children's figures (Linux's
 * wait_task_zombie; getrusage(RUSAGE_CHILDREN), times()'s cutime). */
static void reap_account(struct task_struct *me, struct task_struct *c, struct rusage32 *ru)
{
    struct rusage32 r;
    task_rusage(c, RUSAGE_BOTH, &r);
    me->cutime += r.utime_sec * HZ + r.utime_usec / (1000000 / HZ);
    me->cstime += r.stime_sec * HZ + r.stime_usec / (1000000 / HZ);
    me->cmin_flt += r.minflt, me->cmaj_flt += r.majflt;
    me->cnvcsw += r.nvcsw, me->cnivcsw += r.nivcsw;
    if ((unsigned long)r.maxrss > me->cmaxrss)
        me->cmaxrss = r.maxrss;
    if (ru)
        *ru = r;
}

/* What a report says of child c, as Linux's wait_task_* fill waitid's
 * siginfo: si_code (cause), si_status, si_uid (the child's real uid) and
 * the wait4 status word.  Interrupts off. */
static void wait_report(struct wait_opts *wo, struct task_struct *c, int cause, int status,
                        int word)
{
    wo->pid = c->pid;
    wo->uid = c->cred.uid;
    wo->cause = cause;
    wo->status = status;
    wo->word = word;
}

/* The search wait4, waitpid and waitid share (Linux's do_wait): sleep until
 * a child that wait_match()es has something to report, or there is no such
 * child.  What a child reports, the first that has something:
 *   a zombie (WEXITED): reaped, its usage added to ours (not with WNOWAIT:
 *       reported only, still waitable);
 *   a stop not yet reported (WSTOPPED), a continue (WCONTINUED): reported,
 *       the report consumed unless WNOWAIT.
 * A leader zombie whose threads still run counts as a child with nothing
 * to report.  Any other zombie, when WEXITED is not asked for, does not
 * count at all (as Linux's wait_task_zombie): with only such children,
 * -ECHILD.  Returns the child's pid (wo filled in), 0 with WNOHANG when
 * children have nothing to report, -ECHILD, or -ERESTARTSYS on a signal. */
static long do_wait(struct wait_opts *wo)
{
    struct task_struct *me = tg_leader(current), *c;
    DEFINE_WAIT(w);
    long ret;

    for (;;) {
        prepare_to_wait(&me->wait_chldexit, &w, TASK_INTERRUPTIBLE);
        unsigned long flags = local_irq_save();
        bool any = false, busy = false;
        struct task_struct *found = NULL;
        list_for_each_entry(c, &me->children, sibling) {
            if (!wait_match(wo, c))
                continue;
            if (c->exit_state == EXIT_ZOMBIE && c->group_live) {
                any = true;            /* a leader gone before its threads */
                continue;
            } else if (c->exit_state == EXIT_ZOMBIE) {
                if (!(wo->flags & WEXITED))
                    continue;
                any = true;
                if (c->state == TASK_DEAD && !c->stack) {
                    found = c;
                    break;
                }
                busy = true;           /* still switching away: look again */
                continue;
            }
            any = true;
            /* Linux's wait_task_stopped / wait_task_continued: report, do
             * not reap, and consume the report (not with WNOWAIT). */
            if ((wo->flags & WSTOPPED) && c->jobctl_stop && c->stop_report) {
                int sig = c->stop_report;
                if (!(wo->flags & WNOWAIT))
                    c->stop_report = 0;
                wait_report(wo, c, CLD_STOPPED, sig, (sig << 8) | 0x7f);
            } else if ((wo->flags & WCONTINUED) && c->cont_report) {
                if (!(wo->flags & WNOWAIT))
                    c->cont_report = 0;
                wait_report(wo, c, CLD_CONTINUED, SIGCONT, 0xffff);
            } else {
                continue;
            }
            if (wo->ru)                /* its usage so far, as Linux */
                task_rusage(c, RUSAGE_BOTH, wo->ru);
            ret = c->pid;
            local_irq_restore(flags);
            goto out;
        }
        if (found) {
            int word = found->exit_status, sig = word & 0x7f;
            ret = found->pid;
            if (!sig)
                wait_report(wo, found, CLD_EXITED, (word >> 8) & 0xff, word);
            else
                wait_report(wo, found, (word & 0x80) ? CLD_DUMPED : CLD_KILLED, sig, word);
            if (wo->flags & WNOWAIT) {
                if (wo->ru)
                    task_rusage(found, RUSAGE_BOTH, wo->ru);
            } else {
                reap_account(me, found, wo->ru);
                release_task(found);
            }
            local_irq_restore(flags);
            break;
        }
        local_irq_restore(flags);
        if (!any) {
            ret = -ECHILD;
            break;
        }
        if (busy && (wo->flags & WNOHANG)) {
            /* a zombie whose stack is not freed yet, on another CPU: it
             * is reapable in a moment (Linux's zombie is reapable at once) */
            finish_wait(&me->wait_chldexit, &w);
            yield();
            continue;
        }
        /* (busy and blocking: sleep below; the CPU that frees the zombie's
         * stack wakes us, schedule_tail's wake_reaper) */
        if (wo->flags & WNOHANG) {
            ret = 0;
            break;
        }
        if (signal_pending(current)) {
            ret = -ERESTARTSYS;
            break;
        }
        schedule();
    }
out:
    finish_wait(&me->wait_chldexit, &w);
    return ret;
}

/* wait4's pid argument as an idtype: > 0 that child, -1 any, 0 our
 * process group, < -1 the group -pid (Linux's kernel_wait4). */
long kernel_wait4(pid_t pid, int *status, int options, struct rusage32 *ru)
{
    struct wait_opts wo = { .type = P_ALL, .ru = ru };

    if (options & ~(WNOHANG | WUNTRACED | __WALL | WCONTINUED))
        return -EINVAL;
    if (pid == -0x7fffffff - 1)        /* INT_MIN: -pid would overflow, as Linux */
        return -ESRCH;
    if (pid > 0)
        wo.type = P_PID, wo.id = pid;
    else if (pid == 0)
        wo.type = P_PGID, wo.id = tg_leader(current)->pgrp;
    else if (pid < -1)
        wo.type = P_PGID, wo.id = -pid;
    wo.flags = options | WEXITED;      /* WUNTRACED is WSTOPPED */
    long ret = do_wait(&wo);
    if (ret > 0 && status)
        *status = wo.word;
    return ret;
}

long sys_wait4(pid_t pid, int *ustatus, int options, void *rusage)
{
    int status = 0;
    if (ustatus && !access_ok(ustatus, sizeof(int)))
        return -EFAULT;
    struct rusage32 ru;
    memset(&ru, 0, sizeof ru);
    long ret = kernel_wait4(pid, &status, options, &ru);
    if (ret > 0 && ustatus && put_user(status, ustatus))
        return -EFAULT;
    /* As Linux, only when a child is reported (a stopped or continued
     * one's too: its usage so far). */
    if (ret > 0 && rusage && copy_to_user(rusage, &ru, sizeof ru))
        return -EFAULT;
    return ret;
}

long sys_waitpid(pid_t pid, int *status, int options)
{
    return sys_wait4(pid, status, options, NULL);
}

/* waitid(idtype, id, infop, options, rusage), Linux's kernel_waitid and
 * sys_waitid.  idtype P_ALL (id ignored), P_PID (id > 0), P_PGID (id >= 0,
 * 0: our own group); options: at least one of WEXITED, WSTOPPED,
 * WCONTINUED, with WNOHANG and WNOWAIT; anything else -EINVAL.  The result
 * is 0 and the child in *infop: si_signo SIGCHLD, si_code CLD_EXITED,
 * CLD_KILLED, CLD_DUMPED, CLD_STOPPED or CLD_CONTINUED, si_pid, si_uid,
 * si_status (exit code or signal); with WNOHANG and nothing to report, 0
 * and those fields all zero.  As Linux, infop is written even when the
 * call fails (zeros), and only those six fields (si_errno 0 too): the rest
 * of the siginfo_t is left as it was; an unwritable infop is -EFAULT, even
 * after a child was reaped.  rusage (not NULL) gets the child's usage
 * (and its reaped children's) when one is reported.  Simplification: no
 * pidfds (P_PIDFD is an unknown idtype, -EINVAL). */
long sys_waitid(int which, pid_t upid, void *infop, int options, void *rusage)
{
    struct rusage32 ru;
    struct wait_opts wo = { .id = upid, .flags = options, .ru = rusage ? &ru : NULL };
    long err;

    memset(&ru, 0, sizeof ru);
    if (options & ~(WNOHANG | WNOWAIT | WEXITED | WSTOPPED | WCONTINUED | __WNOTHREAD |
                    __WCLONE | __WALL))
        err = -EINVAL;
    else if (!(options & (WEXITED | WSTOPPED | WCONTINUED)))
        err = -EINVAL;
    else if (which == P_ALL)
        err = 0;
    else if (which == P_PID)
        err = upid <= 0 ? -EINVAL : 0;
    else if (which == P_PGID)
        err = upid < 0 ? -EINVAL : 0;
    else
        err = -EINVAL;
    if (!err) {
        wo.type = which;
        if (which == P_PGID && upid == 0)
            wo.id = tg_leader(current)->pgrp;
        err = do_wait(&wo);
    }
    int signo = 0;
    if (err > 0) {
        signo = SIGCHLD;
        err = 0;
        if (rusage && copy_to_user(rusage, &ru, sizeof ru))
            return -EFAULT;
    } else {
        wo.pid = wo.uid = wo.cause = wo.status = 0;
    }
    if (!infop)
        return err;
    /* si_signo, si_errno, si_code, si_pid, si_uid, si_status: the first
     * 24 bytes of the i386 siginfo_t, in this order */
    _Static_assert(offsetof(siginfo_t, si_uid) == 16 && offsetof(siginfo_t, si_status) == 20,
                   "waitid's six siginfo fields");
    int head[6] = { signo, 0, wo.cause, wo.pid, (int)wo.uid, wo.status };
    if (copy_to_user(infop, head, sizeof head))
        return -EFAULT;
    return err;
}
