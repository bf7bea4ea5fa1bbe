/* kernel/exit.c: ending processes and waiting for them (process layer).
 *
 * exit/exit_group and fatal signals end in do_group_exit(status):
 *   1. release the address space (back to the kernel's directory first),
 *      the descriptors and the cwd: the frames go back to the allocator now,
 *      not when the parent reaps;
 *   2. children are reparented to init (pid 1), which reaps them;
 *   3. the task becomes a ZOMBIE holding only its task_struct and the wait
 *      status; the parent gets SIGCHLD and is woken in wait4();
 *   4. the scheduler's do_exit() switches away for good; the next task
 *      frees the kernel stack (schedule_tail).
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

void do_group_exit(int status)
{
    struct task_struct *me = current, *c, *n;

    if (!me->is_process)
        panic("do_group_exit: kernel thread %d (%s)", me->pid, me->comm);
    if (me == init_process)
        panic("Attempted to kill init! exit status %#x", status);

    /* 1. resources.  use_mm(NULL) loads swapper_pg_dir: the old directory
     * can then be freed by mmput. */
    struct mm_struct *mm = use_mm(NULL);
    me->mm = NULL;
    if (mm)
        mmput(mm);
    release_task_resources(me);

    unsigned long flags = local_irq_save();
    /* 2. orphans go to init */
    bool zombies_to_init = false;
    list_for_each_entry_safe(c, n, &me->children, sibling) {
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
    /* 3. zombie, tell the parent; or gone at once if it ignores SIGCHLD */
    me->exit_status = status;
    me->exit_state = EXIT_ZOMBIE;
    exit_count++;
    struct task_struct *parent = me->parent;
    if (parent) {
        struct kern_siginfo ci = {
            .code = (status & 0x7f) ? CLD_KILLED : CLD_EXITED,
            .pid = me->pid,
            .status = (status & 0x7f) ? (status & 0x7f) : (status >> 8) & 0xff,
        };
        const struct sigaction *psa = &parent->action[SIGCHLD - 1].sa;
        if (psa->sa_handler == SIG_IGN || (psa->sa_flags & SA_NOCLDWAIT)) {
            me->exit_state = EXIT_DEAD;        /* autoreap */
            list_del_init(&me->sibling);
        }
        if (psa->sa_handler != SIG_IGN)
            send_signal(parent, SIGCHLD, &ci);
        wake_up_all(&parent->wait_chldexit);
    }
    /* 4. never returns; interrupts stay off until the switch. */
    do_exit(status);
    local_irq_restore(flags);          /* not reached */
    for (;;)
        ;
}

long sys_exit(int code)
{
    do_group_exit((code & 0xff) << 8);
}

long sys_exit_group(int code)
{
    do_group_exit((code & 0xff) << 8);
}

/* Does child c match wait4's pid argument? */
static bool wait_match(struct task_struct *me, struct task_struct *c, pid_t pid)
{
    if (pid > 0)
        return c->pid == pid;
    if (pid == -1)
        return true;
    if (pid == 0)
        return c->pgrp == me->pgrp;
    return c->pgrp == -pid;
}

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

long kernel_wait4(pid_t pid, int *status, int options)
{
    struct task_struct *me = current, *c;
    DEFINE_WAIT(w);
    long ret;

    if (options & ~(WNOHANG | WUNTRACED | __WALL | WCONTINUED))
        return -EINVAL;
    for (;;) {
        prepare_to_wait(&me->wait_chldexit, &w, TASK_INTERRUPTIBLE);
        unsigned long flags = local_irq_save();
        bool any = false, busy = false;
        struct task_struct *found = NULL;
        int jobctl_status = 0;
        list_for_each_entry(c, &me->children, sibling) {
            if (!wait_match(me, c, pid))
                continue;
            any = true;
            if (c->exit_state == EXIT_ZOMBIE) {
                if (c->state == TASK_DEAD && !c->stack) {
                    found = c;
                    break;
                }
                busy = true;           /* still switching away: look again */
                continue;
            }
            /* Linux's wait_task_stopped / wait_task_continued: report, do
             * not reap, and consume the report. */
            if ((options & WUNTRACED) && c->jobctl_stop && c->stop_report) {
                jobctl_status = (c->stop_report << 8) | 0x7f;
                c->stop_report = 0;
            } else if ((options & WCONTINUED) && c->cont_report) {
                jobctl_status = 0xffff;
                c->cont_report = 0;
            } else {
                continue;
            }
            ret = c->pid;
            local_irq_restore(flags);
            if (status)
                *status = jobctl_status;
            goto out;
        }
        if (found) {
            ret = found->pid;
            if (status)
                *status = found->exit_status;
            release_task(found);
            local_irq_restore(flags);
            break;
        }
        local_irq_restore(flags);
        if (!any) {
            ret = -ECHILD;
            break;
        }
        if (busy) {
            finish_wait(&me->wait_chldexit, &w);
            yield();
            continue;
        }
        if (options & WNOHANG) {
            ret = 0;
            break;
        }
        if (signal_pending(me)) {
            ret = -ERESTARTSYS;
            break;
        }
        schedule();
    }
out:
    finish_wait(&me->wait_chldexit, &w);
    return ret;
}

long sys_wait4(pid_t pid, int *ustatus, int options, void *rusage)
{
    int status = 0;
    if (ustatus && !access_ok(ustatus, sizeof(int)))
        return -EFAULT;
    long ret = kernel_wait4(pid, &status, options);
    if (ret > 0 && ustatus && put_user(status, ustatus))
        return -EFAULT;
    if (ret >= 0 && rusage) {
        /* struct rusage (i386: 2 timevals + 14 longs = 72 bytes): no
         * accounting kept, so all zero. */
        if (clear_user(rusage, 72))
            return -EFAULT;
    }
    return ret;
}

long sys_waitpid(pid_t pid, int *status, int options)
{
    return sys_wait4(pid, status, options, NULL);
}
