/* kernel/signal.c: signals (process layer).  Sending (kill, tkill and
 * tgkill, rt_sigqueueinfo and rt_tgsigqueueinfo with the sender's own
 * siginfo, faults, the tty), the per-process handlers and mask
 * (rt_sigaction, rt_sigprocmask, sigpending), delivery on the way back to
 * user mode (exit_to_user_mode -> do_signal), the i386 signal frames and
 * sigreturn/rt_sigreturn.
 *
 * Delivery, as Linux i386:
 *
 *   user stack before           user stack with an rt frame (SA_SIGINFO)
 *   +-------------+ <- regs->sp +-------------+
 *   | interrupted |             | interrupted |
 *   |   frames    |             |   frames    |
 *   +-------------+             +-------------+ <- old sp
 *                               | rt_sigframe:|  retcode, ucontext (the saved
 *                               |  uc, info   |  registers + old mask), siginfo
 *                               |  puc, pinfo |
 *                               |  sig        |
 *                               |  pretcode --+--> sa_restorer: rt_sigreturn
 *                               +-------------+ <- sp when the handler starts
 *
 * The handler "returns" into its restorer, which calls (rt_)sigreturn; that
 * reads the saved registers back from the frame into the trap frame, so the
 * interrupted code resumes exactly where it was with every register intact.
 *
 * Below the frame's old sp sits the FPU area (struct _fpstate, pointed to
 * by sigcontext.fpstate): the x87/SSE registers of the interrupted code.
 * The handler starts with a clean FPU (as after execve); sigreturn loads
 * the saved registers back, so a handler doing floating point leaves the
 * interrupted computation exact.  An SA_ONSTACK handler's frame goes on
 * the alternate signal stack (sigaltstack) instead, if one is set and we
 * are not on it already.
 *
 * Job control, as Linux: the default action of SIGSTOP/SIGTSTP/SIGTTIN/
 * SIGTTOU stops the process, at delivery (do_signal_stop):
 *
 *   send SIGSTOP -> pending -> do_signal: jobctl_stop = 1, stop_report = sig,
 *       SIGCHLD (CLD_STOPPED) to the parent, state TASK_STOPPED, schedule()
 *   send SIGCONT -> at once, in send_signal (even if SIGCONT is blocked or
 *       ignored): pending stop signals dropped, jobctl_stop = 0, woken
 *       (wake_up_state TASK_STOPPED), SIGCHLD (CLD_CONTINUED) to the parent
 *   send SIGKILL -> wakes a stopped task too; it dies on its way out
 *
 * The parent sees a stop with wait4(WUNTRACED): status (sig << 8) | 0x7f,
 * once; a continue with wait4(WCONTINUED): 0xffff, once.
 *
 * Simplifications (each a comment where it matters): signals do not
 * queue (a second instance of a pending signal is merged with it, a
 * real-time one too), no xsave (AVX) state: the fxsave image is all the frame holds.
 */
#include <kernel.h>
#include <smp_lock.h>
#include <string.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <proc.h>
#include <timer.h>                     /* HZ */
#include <syscalls.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <asm/segment.h>
#include <asm/irqflags.h>
#include <asm/uaccess.h>
#include <asm/unistd.h>
#include <asm/fpu.h>

#define SIG_KERNEL_ONLY_MASK (sigmask(SIGKILL) | sigmask(SIGSTOP))
/* SIGCONT's "continue" happens when it is sent; delivered, it is ignored. */
#define SIG_KERNEL_IGNORE_MASK (sigmask(SIGCHLD) | sigmask(SIGURG) | sigmask(SIGWINCH) | \
                                sigmask(SIGCONT))
#define SIG_KERNEL_STOP_MASK (sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | \
                              sigmask(SIGTTOU))

static bool valid_signal(int sig) { return sig >= 1 && sig <= _NSIG; }

static bool sig_default_ignored(int sig)
{
    return sig <= 32 && (SIG_KERNEL_IGNORE_MASK & sigmask(sig));
}

static bool sig_kernel_stop(int sig)
{
    return sig <= 32 && (SIG_KERNEL_STOP_MASK & sigmask(sig));
}

/* The signals whose default action on Linux dumps core (Vellum writes no
 * core: docs/processes.md); Linux leaves them to the task that takes them. */
#define SIG_KERNEL_COREDUMP_MASK (sigmask(SIGQUIT) | sigmask(SIGILL) | sigmask(SIGTRAP) | \
                                  sigmask(SIGABRT) | sigmask(SIGBUS) | sigmask(SIGFPE) | \
                                  sigmask(SIGSEGV) | sigmask(SIGSYS) | sigmask(SIGXCPU) | \
                                  sigmask(SIGXFSZ))

/* The handlers are the thread group's: they live in the leader's
 * task_struct (Linux: the sighand_struct CLONE_SIGHAND shares). */
static struct k_sigaction *sig_action(struct task_struct *t, int sig)
{
    return &tg_leader(t)->action[sig - 1];
}

/* Would delivering sig to t do nothing at all?  (Then it is not queued,
 * as Linux's sig_ignored(), unless blocked: the mask may change later; or
 * blocked before an rt_sigtimedwait unblocked it to wait for it: that
 * takes it, ignored or not.) */
static bool sig_ignored(struct task_struct *t, int sig)
{
    if (sigismember_k(&t->blocked, sig) || sigismember_k(&t->real_blocked, sig))
        return false;
    __sighandler_t h = sig_action(t, sig)->sa.sa_handler;
    return h == SIG_IGN || (h == SIG_DFL && sig_default_ignored(sig));
}

static bool has_pending_unblocked(struct task_struct *t)
{
    for (int i = 0; i < _NSIG_WORDS; i++)
        if (t->pending.sig[i] & ~t->blocked.sig[i])
            return true;
    return false;
}

int signal_pending(struct task_struct *t)
{
    return has_pending_unblocked(t);
}

/* Tell t's parent that t stopped or continued (Linux's do_notify_parent_cldstop):
 * SIGCHLD unless the parent asked for none (SA_NOCLDSTOP), and a wake-up for
 * a wait4() with WUNTRACED/WCONTINUED.  Interrupts off. */
static void notify_parent_cldstop(struct task_struct *t, int why, int sig)
{
    struct task_struct *parent = t->parent;
    if (!parent)
        return;
    if (!(sig_action(parent, SIGCHLD)->sa.sa_flags & SA_NOCLDSTOP)) {
        struct kern_siginfo ci = { .code = why, .pid = t->pid, .status = sig };
        send_signal(parent, SIGCHLD, &ci);
    }
    wake_up_all(&parent->wait_chldexit);
}

/* What sending sig does at once, before it is queued (Linux's
 * prepare_signal): a stop signal cancels a pending SIGCONT; SIGCONT cancels
 * pending stop signals and resumes a stopped t, whatever its handler or
 * mask.  Interrupts off. */
static void prepare_signal(struct task_struct *t, int sig)
{
    if (sig_kernel_stop(sig)) {
        sigdelset_k(&t->pending, SIGCONT);
    } else if (sig == SIGCONT) {
        for (int s = 1; s <= 32; s++)
            if (sig_kernel_stop(s))
                sigdelset_k(&t->pending, s);
        if (t->jobctl_stop) {
            t->jobctl_stop = 0;
            t->stop_report = 0;
            t->cont_report = 1;
            wake_up_state(t, TASK_STOPPED);
            notify_parent_cldstop(t, CLD_CONTINUED, SIGCONT);
        }
    }
}

static unsigned long pending_count(const struct task_struct *t)
{
    unsigned long n = 0;
    for (int i = 0; i < _NSIG_WORDS; i++)
        n += __builtin_popcountl(t->pending.sig[i]);
    return n;
}

/* Does sig, sent to t, kill t's whole group for sure (Linux's sig_fatal and
 * the test in complete_signal): its default action, which terminates
 * without a core, and t would take it now (Linux's wants_signal): not
 * blocked (a blocked one may yet be handled: sigaction, sigwait), t not
 * stopped (a stopped process keeps a SIGTERM pending until SIGCONT: why
 * bash's kill sends SIGCONT after it to a stopped job), no signal pending
 * already (that one is taken first).  init is never killed so
 * (send_signal, above). */
static bool sig_fatal_now(struct task_struct *t, int sig)
{
    if (sig == SIGKILL)
        return true;
    if (t->jobctl_stop || has_pending_unblocked(t) || sigismember_k(&t->blocked, sig) ||
        sigismember_k(&t->real_blocked, sig) || sig_action(t, sig)->sa.sa_handler != SIG_DFL)
        return false;
    return sig > 32 || !((SIG_KERNEL_IGNORE_MASK | SIG_KERNEL_STOP_MASK |
                          SIG_KERNEL_COREDUMP_MASK) & sigmask(sig));
}

/* The group of t dies of sig: its status is fixed now, and every task of
 * it gets SIGKILL (Linux's complete_signal: SIGNAL_GROUP_EXIT, the
 * group_exit_code, SIGKILL to each thread).  So a signal sent after it,
 * a SIGKILL on another CPU a moment later, does not change what the
 * parent's wait4 reports, whichever the tasks take first (do_group_exit
 * leaves with the group's code).  Interrupts off. */
static void group_fatal(struct task_struct *t, int sig)
{
    struct task_struct *leader = tg_leader(t), *p;
    struct kern_siginfo info = { .code = SI_KERNEL };
    leader->group_exit = 1;
    leader->group_exit_code = sig;
    send_signal(leader, SIGKILL, &info);
    if (leader->thread_group.next)
        list_for_each_entry(p, &leader->thread_group, thread_group)
            send_signal(p, SIGKILL, &info);
}

int send_signal(struct task_struct *t, int sig, const struct kern_siginfo *info)
{
    if (!valid_signal(sig))
        return -EINVAL;
    unsigned long flags = local_irq_save();
    if (!t->is_process || t->exit_state)
        goto out;
    prepare_signal(t, sig);
    /* init ignores signals it has no handler for (Linux's SIGNAL_UNKILLABLE),
     * except faults forced on it (force_sig unblocks them first). */
    if (t == init_process && sig_action(t, sig)->sa.sa_handler == SIG_DFL &&
        !(info && info->force))
        goto out;
    if (sig_ignored(t, sig))
        goto out;
    /* A real-time signal a process sent with its own info (sigqueue,
     * tkill: si_code != SI_USER) needs a queue entry, which the target's
     * RLIMIT_SIGPENDING bounds: past it, -EAGAIN (Linux's
     * __sigqueue_alloc); kill()'s (SI_USER) and the standard signals are
     * still delivered, without their info.  Simplification: the count is
     * the target's pending signals, not its user's queued ones. */
    if (sig >= SIGRTMIN && info && info->code != SI_USER &&
        pending_count(t) >= tg_leader(t)->rlim_sigpending[0]) {
        local_irq_restore(flags);
        return -EAGAIN;
    }
    if (sig == SIGKILL)
        t->pending_fatal = 1;
    if (!tg_leader(t)->group_exit && sig_fatal_now(t, sig)) {
        group_fatal(t, sig);           /* SIGKILL to t too: nothing more to queue */
        goto out;
    }
    if (!sigismember_k(&t->pending, sig)) {
        sigaddset_k(&t->pending, sig);
        struct kern_siginfo *pi = &t->pending_info[sig - 1];
        if (info) {
            *pi = *info;
        } else {
            memset(pi, 0, sizeof *pi);
            pi->code = SI_USER;
            pi->pid = current->is_process ? current->tgid : 0;
        }
    }
    /* Wake it if it sleeps where a signal may interrupt; SIGKILL also ends
     * the sleep even if the signal was blocked (it cannot be). */
    if (!sigismember_k(&t->blocked, sig) || sig == SIGKILL) {
        if (t->state == TASK_INTERRUPTIBLE)
            wake_up_process(t);
        kick_process(t);               /* running on another CPU: look now */
    }
    /* A stopped task wakes only for SIGKILL (SIGCONT: prepare_signal). */
    if (sig == SIGKILL)
        wake_up_state(t, TASK_STOPPED);
out:
    local_irq_restore(flags);
    return 0;
}

/* A process-directed signal (kill, SIGCHLD, the tty's): to one task of
 * p's thread group that does not block it, the leader first; if all block
 * it, pending on the first live one (Linux's complete_signal picks so,
 * and shares the pending set; simplification: one task's pending set
 * holds it).  A fatal one ends the whole group when it is acted on
 * (do_group_exit).  Interrupts off or on. */
int send_group_signal(struct task_struct *p, int sig, const struct kern_siginfo *info)
{
    struct task_struct *leader = tg_leader(p), *t, *pick = NULL, *live = NULL;
    if (!valid_signal(sig))
        return -EINVAL;
    unsigned long flags = local_irq_save();
    if (!leader->exit_state) {
        live = leader;
        if (!sigismember_k(&leader->blocked, sig))
            pick = leader;
    }
    if (!pick && leader->thread_group.next) {
        list_for_each_entry(t, &leader->thread_group, thread_group) {
            if (t->exit_state)
                continue;
            if (!live)
                live = t;
            if (!sigismember_k(&t->blocked, sig)) {
                pick = t;
                break;
            }
        }
    }
    local_irq_restore(flags);
    if (!pick)
        pick = live;
    return pick ? send_signal(pick, sig, info) : 0;
}

/* Did a process send it (kill, tkill, tgkill), rather than the kernel?
 * Linux's si_fromuser: no info is kill(2)'s (SEND_SIG_NOINFO); the
 * kernel's own signals (the tty's, faults, SIGCHLD) carry a positive
 * code such as SI_KERNEL. */
static bool si_fromuser(const struct kern_siginfo *info)
{
    return !info || info->code <= 0;
}

/* Linux's kill_ok_by_cred: the sender's real or effective uid is the
 * target's real or saved uid (not its effective one: a set-user-ID
 * program run by you is yours to signal, one you made setuid(0) is not
 * after it drops its saved id), or the sender is privileged. */
static bool kill_ok_by_cred(const struct task_struct *t)
{
    const struct cred *c = current_cred(), *tc = &t->cred;
    return c->euid == tc->suid || c->euid == tc->uid || c->uid == tc->suid ||
           c->uid == tc->uid || capable(CAP_KILL);
}

/* May the caller send sig to t?  Linux's check_kill_permission: a bad
 * signal is -EINVAL first; the kernel may send anything; a process may
 * signal its own thread group, a process kill_ok_by_cred allows, and with
 * SIGCONT any process of its session (so a shell continues a job that
 * changed its ids); otherwise -EPERM, for signal 0 too. */
static int check_kill_permission(int sig, const struct kern_siginfo *info,
                                 struct task_struct *t)
{
    if (sig && !valid_signal(sig))
        return -EINVAL;
    if (!si_fromuser(info) || t->tgid == current->tgid || kill_ok_by_cred(t))
        return 0;
    if (sig == SIGCONT && t->session == current->session)
        return 0;
    return -EPERM;
}

/* Linux's group_send_sig_info for one target: signal 0 only checks it
 * exists and may be signalled; a bad signal is -EINVAL, found only once
 * there is a target. */
static int kill_one(struct task_struct *t, int sig, const struct kern_siginfo *info)
{
    int err = check_kill_permission(sig, info, t);
    if (err || !sig)
        return err;
    return send_group_signal(t, sig, info);
}

/* Is t a process that has a task alive: a thread group's leader (which
 * may have exited before its threads) with group_live > 0?  Each process
 * is counted once, by its leader. */
static bool live_process(struct task_struct *t)
{
    return t->is_process && tg_leader(t) == t && t->group_live > 0;
}

/* Every process of the group: 0 if one of them got it, else the last error
 * (-ESRCH: no such group), as Linux's __kill_pgrp_info. */
static int kill_pgrp_info(pid_t pgrp, int sig, const struct kern_siginfo *info)
{
    struct task_struct *t;
    int success = 0, ret = -ESRCH;
    list_for_each_entry(t, &task_list, tasks)
        if (live_process(t) && t->pgrp == pgrp) {
            ret = kill_one(t, sig, info);
            success |= !ret;
        }
    return success ? 0 : ret;
}

int kill_pgrp(pid_t pgrp, int sig)
{
    /* The kernel's signal (Linux's SEND_SIG_PRIV): no permission check,
     * and the handler sees si_code SI_KERNEL. */
    const struct kern_siginfo priv = { .code = SI_KERNEL };
    return kill_pgrp_info(pgrp, sig, &priv);
}

/* The target is looked up before the signal is checked: kill(pid, 65) of a
 * pid nobody has is -ESRCH, of a live one -EINVAL (Linux's
 * kill_something_info). */
int kill_pid_info(int pid, int sig, const struct kern_siginfo *info)
{
    struct task_struct *t;
    if (pid > 0) {
        t = find_task_by_pid(pid);
        if (!t || !t->is_process || t->exit_state == EXIT_DEAD)
            return -ESRCH;
        return kill_one(t, sig, info);
    }
    if (pid == -0x7fffffff - 1)        /* INT_MIN: -pid would overflow */
        return -ESRCH;
    if (pid == -1) {                   /* everyone but init and ourselves */
        int count = 0, ret = 0;
        list_for_each_entry(t, &task_list, tasks)
            if (live_process(t) && t != init_process && t != tg_leader(current)) {
                int err = kill_one(t, sig, info);
                count++;
                if (err != -EPERM)     /* as Linux: the ones we may not signal */
                    ret = err;         /* are skipped, not an error */
            }
        return count ? ret : -ESRCH;
    }
    return kill_pgrp_info(pid ? -pid : current->pgrp, sig, info);
}

long sys_kill(pid_t pid, int sig)
{
    return kill_pid_info(pid, sig, NULL);
}

/* tkill/tgkill: one task, by its tid (tgkill also checks it is in thread
 * group tgid: -ESRCH otherwise). */
static long do_tkill(pid_t tgid, pid_t pid, int sig)
{
    struct task_struct *t = find_task_by_pid(pid);
    if (!t || !t->is_process || t->exit_state || (tgid > 0 && t->tgid != tgid))
        return -ESRCH;
    /* as Linux's do_tkill: the receiver sees si_code SI_TKILL, our tgid */
    struct kern_siginfo info = { .code = SI_TKILL, .pid = current->tgid };
    int err = check_kill_permission(sig, &info, t);
    if (err || !sig)
        return err;
    return send_signal(t, sig, &info);
}

long sys_tkill(pid_t pid, int sig)
{
    if (pid <= 0)
        return -EINVAL;
    return do_tkill(0, pid, sig);
}

long sys_tgkill(pid_t tgid, pid_t pid, int sig)
{
    if (pid <= 0 || tgid <= 0)
        return -EINVAL;
    return do_tkill(tgid, pid, sig);
}

/* ---- rt_sigqueueinfo, rt_tgsigqueueinfo ----------------------------------- */

/* The sender's siginfo_t (sigqueue's, pthread_sigqueue's), kept as given.
 * Not even root may pretend to be the kernel (si_code >= 0) or tkill
 * (SI_TKILL), which add their own source, except to itself: -EPERM
 * (Linux's do_rt_sigqueueinfo). */
static long copy_given_siginfo(struct kern_siginfo *ki, pid_t target, const void *uinfo)
{
    siginfo_t u;
    if (copy_from_user(&u, uinfo, sizeof u))
        return -EFAULT;
    memset(ki, 0, sizeof *ki);
    ki->given = 1;
    ki->signo = u.si_signo;
    ki->errno_val = u.si_errno;
    ki->code = u.si_code;
    ki->pid = u.si_pid;
    /* Which union fields the code says there are (Linux's siginfo_layout,
     * as its 32-bit entry on a 64-bit kernel copies them): a kill-like
     * code (SI_USER, SI_KERNEL and above) has the pid and uid only; the
     * queued ones (negative codes: SI_QUEUE, SI_TKILL...) the value too,
     * and the others their first four words (simplification: Linux
     * copies a SIGCHLD's five). */
    int words = (ki->code == SI_USER || ki->code >= SI_KERNEL) ? 2 : 4;
    for (int i = 0; i < words; i++)
        ki->words[i] = (unsigned long)u._sifields._pad[i];
    if ((ki->code >= 0 || ki->code == SI_TKILL) && target != current->pid)
        return -EPERM;
    return 0;
}

/* To the process that has thread pid (Linux's kill_proc_info: a thread
 * id names its process; no process groups, no -1: -ESRCH). */
long sys_rt_sigqueueinfo(pid_t pid, int sig, const void *uinfo)
{
    struct kern_siginfo ki;
    long err = copy_given_siginfo(&ki, pid, uinfo);
    if (err)
        return err;
    if (pid <= 0)
        return -ESRCH;
    return kill_pid_info(pid, sig, &ki);
}

/* To one thread, as tgkill (Linux's do_send_specific). */
long sys_rt_tgsigqueueinfo(pid_t tgid, pid_t pid, int sig, const void *uinfo)
{
    struct kern_siginfo ki;
    if (pid <= 0 || tgid <= 0)
        return -EINVAL;
    long err = copy_given_siginfo(&ki, pid, uinfo);
    if (err)
        return err;
    struct task_struct *t = find_task_by_pid(pid);
    if (!t || !t->is_process || t->exit_state || t->tgid != tgid)
        return -ESRCH;
    err = check_kill_permission(sig, &ki, t);
    if (err || !sig)
        return err;
    return send_signal(t, sig, &ki);
}

/* ---- faults -------------------------------------------------------------- */

static void force_sig_info(int sig, const struct kern_siginfo *info)
{
    struct task_struct *t = current;
    struct k_sigaction *ka = sig_action(t, sig);
    unsigned long flags = local_irq_save();
    /* A synchronous fault cannot be blocked or ignored: that would return to
     * the same instruction forever.  Linux resets it to the default. */
    if (sigismember_k(&t->blocked, sig) || ka->sa.sa_handler == SIG_IGN) {
        sigdelset_k(&t->blocked, sig);
        if (ka->sa.sa_handler == SIG_IGN)
            ka->sa.sa_handler = SIG_DFL;
    }
    local_irq_restore(flags);
    struct kern_siginfo ki = *info;
    ki.force = 1;                      /* even init: it dies, we panic */
    send_signal(t, sig, &ki);
}

void force_sig(int sig)
{
    struct kern_siginfo info = { .code = SI_KERNEL };
    force_sig_info(sig, &info);
}

static const char *fault_reason(int sig, int code, const struct pt_regs *regs)
{
    if (regs && regs->trapno == X86_TRAP_PF) {
        if (sig == SIGBUS)
            return "bus error: no page behind a file mapping";
        if (code == SEGV_ACCERR)
            return regs->err & X86_PF_WRITE ? "write to a read-only mapping"
                                            : "access not permitted by the mapping";
        return "no mapping at this address";
    }
    switch (regs ? regs->trapno : 0xFFFF) {
    case X86_TRAP_GP: return "general protection fault";
    case X86_TRAP_UD: return "invalid opcode";
    case X86_TRAP_DE: return "divide error";
    case X86_TRAP_BP: return "breakpoint";
    case X86_TRAP_SS: return "stack segment fault";
    case X86_TRAP_NP: return "segment not present";
    case X86_TRAP_AC: return "alignment check";
    default:          return "fault";
    }
}

void show_user_fault(int sig, unsigned long addr, struct pt_regs *regs, const char *reason)
{
    printk(KERN_INFO "[pid %d %s] %s at %lx ip %08lx error %lx (%s)\n",
           current->pid, current->comm,
           sig == SIGSEGV ? "segfault" : sig == SIGBUS ? "bus error" :
           sig == SIGILL ? "illegal instruction" : sig == SIGFPE ? "arithmetic fault" :
           "trap", addr, regs ? regs->ip : 0, regs ? regs->err : 0, reason);
}

/* The trap layer's hook (<asm/traps.h>): a user-mode fault becomes a
 * signal to the current process, with the one-line report if the signal
 * will kill it (no handler), as Linux's show_signal_msg(). */
void force_sig_fault(int sig, int code, void *addr)
{
    struct pt_regs *regs = get_trap_regs();
    struct task_struct *t = current;
    if (!t->is_process) {
        if (regs)
            die("fault in a task without a user side", regs, regs->err);
        panic("force_sig_fault: signal %d outside a process", sig);
    }
    if (!valid_signal(sig))
        return;
    if (sig_action(t, sig)->sa.sa_handler == SIG_DFL ||
        sigismember_k(&t->blocked, sig))
        show_user_fault(sig, (unsigned long)addr, regs, fault_reason(sig, code, regs));
    struct kern_siginfo info = { .code = code, .addr = (unsigned long)addr };
    force_sig_info(sig, &info);
}

/* ---- sigaction, sigprocmask ------------------------------------------------ */

long sys_rt_sigaction(int sig, const struct sigaction *act, struct sigaction *oact,
                      unsigned long sigsetsize)
{
    struct sigaction new, old;
    if (sigsetsize != sizeof(sigset_t))
        return -EINVAL;
    if (!valid_signal(sig))
        return -EINVAL;
    if (act && copy_from_user(&new, act, sizeof new))
        return -EFAULT;
    if (act && (sig == SIGKILL || sig == SIGSTOP))
        return -EINVAL;
    struct k_sigaction *ka = sig_action(current, sig);
    old = ka->sa;
    if (act) {
        sigdelset_k(&new.sa_mask, SIGKILL);
        sigdelset_k(&new.sa_mask, SIGSTOP);
        unsigned long flags = local_irq_save();
        ka->sa = new;
        /* Setting SIG_IGN (or SIG_DFL for a default-ignored signal) discards
         * what is pending, as POSIX requires. */
        if (new.sa_handler == SIG_IGN || (new.sa_handler == SIG_DFL && sig_default_ignored(sig)))
            sigdelset_k(&current->pending, sig);
        local_irq_restore(flags);
    }
    if (oact && copy_to_user(oact, &old, sizeof old))
        return -EFAULT;
    return 0;
}

static void set_current_blocked(sigset_t *set)
{
    sigdelset_k(set, SIGKILL);
    sigdelset_k(set, SIGSTOP);
    unsigned long flags = local_irq_save();
    current->blocked = *set;
    local_irq_restore(flags);
}

long sys_rt_sigprocmask(int how, const void *set, void *oset, unsigned long sigsetsize)
{
    sigset_t old = current->blocked, new;
    if (sigsetsize != sizeof(sigset_t))
        return -EINVAL;
    if (set) {
        if (copy_from_user(&new, set, sizeof new))
            return -EFAULT;
        sigset_t b = old;
        for (int i = 0; i < _NSIG_WORDS; i++) {
            switch (how) {
            case SIG_BLOCK:   b.sig[i] |= new.sig[i]; break;
            case SIG_UNBLOCK: b.sig[i] &= ~new.sig[i]; break;
            case SIG_SETMASK: b.sig[i] = new.sig[i]; break;
            default: return -EINVAL;
            }
        }
        set_current_blocked(&b);
    }
    if (oset && copy_to_user(oset, &old, sizeof old))
        return -EFAULT;
    return 0;
}

long sys_rt_sigpending(void *set, unsigned long sigsetsize)
{
    if (sigsetsize != sizeof(sigset_t))
        return -EINVAL;
    sigset_t p;
    for (int i = 0; i < _NSIG_WORDS; i++)
        p.sig[i] = current->pending.sig[i] & current->blocked.sig[i];
    return copy_to_user(set, &p, sizeof p) ? -EFAULT : 0;
}

/* The old call (73): the first word of the set only (old_sigset_t). */
long sys_sigpending(unsigned long *set)
{
    return put_user(current->pending.sig[0] & current->blocked.sig[0], set) ? -EFAULT : 0;
}

/* Sleep until a signal is pending (pause, sigsuspend).  The state is set
 * before the second check, so a signal sent in between wakes us. */
static void sleep_until_signal(void)
{
    while (!signal_pending(current)) {
        set_current_state(TASK_INTERRUPTIBLE);
        if (!signal_pending(current))
            schedule();
        set_current_state(TASK_RUNNING);
    }
}

/* Sleep until a signal arrives (the restart code turns -ERESTARTNOHAND into
 * -EINTR once a handler ran). */
long sys_pause(void)
{
    sleep_until_signal();
    return -ERESTARTNOHAND;
}

long sys_rt_sigsuspend(const void *uset, unsigned long sigsetsize)
{
    sigset_t set;
    if (sigsetsize != sizeof(sigset_t))
        return -EINVAL;
    if (copy_from_user(&set, uset, sizeof set))
        return -EFAULT;
    current->saved_sigmask = current->blocked;
    current->restore_sigmask = 1;
    set_current_blocked(&set);
    sleep_until_signal();
    return -ERESTARTNOHAND;
}

/* ---- sigaltstack ------------------------------------------------------------ */

/* Is sp on current's alternate signal stack?  (It grows down: the top,
 * sp == base + size, counts, the base does not, as Linux.)  With
 * SS_AUTODISARM the stack is forgotten while a handler runs, so never. */
static bool on_sig_stack(unsigned long sp)
{
    struct task_struct *t = current;
    if (t->sas_ss_flags & SS_AUTODISARM)
        return false;
    return sp > t->sas_ss_sp && sp - t->sas_ss_sp <= t->sas_ss_size;
}

static int sas_ss_flags(unsigned long sp)
{
    if (!current->sas_ss_size)
        return SS_DISABLE;
    return on_sig_stack(sp) ? SS_ONSTACK : 0;
}

static void sas_ss_reset(struct task_struct *t)
{
    t->sas_ss_sp = 0;
    t->sas_ss_size = 0;
    t->sas_ss_flags = SS_DISABLE;
}

/* Linux's do_sigaltstack on kernel copies: report the old stack in *oss,
 * install *ss.  sp is the user stack pointer (changing the stack while
 * running on it is -EPERM).  ss_flags: 0 or SS_ONSTACK (both mean "use
 * it"), or SS_DISABLE; optionally | SS_AUTODISARM. */
static int do_sigaltstack(const stack_t *ss, stack_t *oss, unsigned long sp)
{
    struct task_struct *t = current;
    if (oss) {
        memset(oss, 0, sizeof *oss);
        oss->ss_sp = t->sas_ss_sp;
        oss->ss_size = t->sas_ss_size;
        oss->ss_flags = sas_ss_flags(sp) | (t->sas_ss_flags & SS_AUTODISARM);
    }
    if (!ss)
        return 0;
    if (on_sig_stack(sp))
        return -EPERM;
    unsigned int mode = (unsigned int)ss->ss_flags & ~SS_AUTODISARM;
    if (mode != 0 && mode != SS_ONSTACK && mode != SS_DISABLE)
        return -EINVAL;
    if (mode == SS_DISABLE) {
        sas_ss_reset(t);
        return 0;
    }
    if (ss->ss_size < MINSIGSTKSZ)
        return -ENOMEM;
    /* The memory itself is only checked when a frame is written there:
     * a bad ss_sp makes that delivery fail with SIGSEGV, as Linux. */
    t->sas_ss_sp = ss->ss_sp;
    t->sas_ss_size = ss->ss_size;
    t->sas_ss_flags = (unsigned int)ss->ss_flags & SS_AUTODISARM;
    return 0;
}

long sys_sigaltstack(const void *uss, void *uoss)
{
    stack_t ss, oss;
    if (uss && copy_from_user(&ss, uss, sizeof ss))
        return -EFAULT;
    int err = do_sigaltstack(uss ? &ss : NULL, uoss ? &oss : NULL,
                             current_pt_regs()->sp);
    if (!err && uoss && copy_to_user(uoss, &oss, sizeof oss))
        return -EFAULT;
    return err;
}

/* ---- frames ----------------------------------------------------------------- */

#define FIX_EFLAGS (0x40000 /*AC*/ | 0x800 /*OF*/ | 0x400 /*DF*/ | 0x100 /*TF*/ | \
                    0x80 /*SF*/ | 0x40 /*ZF*/ | 0x10 /*AF*/ | 0x4 /*PF*/ | 0x1 /*CF*/ | \
                    0x10000 /*RF*/)

static void setup_sigcontext(struct sigcontext *sc, struct pt_regs *regs,
                             unsigned long fpstate, unsigned long mask, unsigned long cr2)
{
    memset(sc, 0, sizeof *sc);
    sc->gs = regs->gs; sc->fs = regs->fs; sc->es = regs->es; sc->ds = regs->ds;
    sc->di = regs->di; sc->si = regs->si; sc->bp = regs->bp; sc->sp = regs->sp;
    sc->bx = regs->bx; sc->dx = regs->dx; sc->cx = regs->cx; sc->ax = regs->ax;
    sc->trapno = regs->trapno; sc->err = regs->err; sc->ip = regs->ip;
    sc->cs = regs->cs; sc->flags = regs->flags; sc->sp_at_signal = regs->sp;
    sc->ss = regs->ss;
    sc->fpstate = fpstate;
    sc->oldmask = mask;
    sc->cr2 = cr2;
}

/* A selector user space may load into %fs/%gs: null, user data, or a TLS
 * entry, with RPL 3.  Anything else would fault inside restore_all. */
static unsigned long sanitize_seg(unsigned long sel)
{
    sel &= 0xFFFF;
    if (sel < 4)
        return 0;
    unsigned idx = sel >> 3;
    if ((sel & 7) == 3 && (idx == GDT_ENTRY_USER_DS ||
                          (idx >= GDT_ENTRY_TLS_MIN && idx <= GDT_ENTRY_TLS_MAX)))
        return sel;
    return 0;
}

/* ---- the FPU area of a frame (struct _fpstate) ----
 *
 *   fpstate -> +0    fnsave image (108 bytes: cw, sw, tag, ..., st0-st7)
 *              +108  status (sw again), magic (0: fxsave follows, 0xffff: not)
 *              +112  fxsave image (512 bytes, 16-aligned: x87, MXCSR, xmm0-7)
 */
#define FPSTATE_SIZE (FPSTATE_HDR_SIZE + sizeof(struct fpu_state))

/* A 16-aligned fxsave buffer on the kernel stack.  The type's aligned(16)
 * is not enough here: gcc assumes the incoming stack is 16-aligned and ours
 * is only 4-aligned (interrupt entry), so align by hand. */
#define ON_STACK_FXBUF(name)                                                   \
    uint8_t name##_raw[sizeof(struct fpu_state) + 15];                         \
    struct fpu_state *name = (struct fpu_state *)(((unsigned long)name##_raw + 15) & ~15UL)

/* Copy the interrupted code's FPU registers to the frame at ufp and give
 * the handler a clean FPU.  On -EFAULT the registers are left as they were. */
static int save_fpstate(unsigned long ufp)
{
    ON_STACK_FXBUF(fx);
    uint8_t hdr[FPSTATE_HDR_SIZE];
    bool fxsr = fpu_have_fxsr();
    fpu_save_sigframe(hdr, fx);
    uint16_t magic = fxsr ? X86_FXSR_MAGIC : X86_FSAVE_MAGIC;
    memcpy(hdr + FSAVE_SIZE, hdr + 4, 2);       /* status = the sw word */
    memcpy(hdr + FSAVE_SIZE + 2, &magic, 2);
    if (copy_to_user((void *)ufp, hdr, sizeof hdr) ||
        (fxsr && copy_to_user((void *)(ufp + FPSTATE_HDR_SIZE), fx, sizeof *fx))) {
        fpu_restore_sigframe(hdr, fxsr ? fx : NULL);
        return -EFAULT;
    }
    fpu_init_for_handler();
    return 0;
}

/* sigreturn: load the FPU registers from the frame's area at ufp (0: none,
 * the FPU is reset, as Linux).  Whatever user space wrote there is checked
 * before it reaches the CPU: -EFAULT (unreadable), -EINVAL (MXCSR bits the
 * CPU rejects); the caller makes both a SIGSEGV. */
static int restore_fpstate(unsigned long ufp)
{
    ON_STACK_FXBUF(fx);
    uint8_t hdr[FPSTATE_HDR_SIZE];
    uint16_t magic;
    if (!ufp) {
        fpu_init_for_handler();
        return 0;
    }
    if (copy_from_user(hdr, (const void *)ufp, sizeof hdr))
        return -EFAULT;
    memcpy(&magic, hdr + FSAVE_SIZE + 2, 2);
    bool has_fx = fpu_have_fxsr() && magic == X86_FXSR_MAGIC;
    if (has_fx && copy_from_user(fx, (const void *)(ufp + FPSTATE_HDR_SIZE), sizeof *fx))
        return -EFAULT;
    return fpu_restore_sigframe(hdr, has_fx ? fx : NULL);
}

static int restore_sigcontext(struct pt_regs *regs, const struct sigcontext *sc)
{
    int err = restore_fpstate(sc->fpstate);
    if (err)
        return err;
    regs->gs = sanitize_seg(sc->gs);
    regs->fs = sanitize_seg(sc->fs);
    regs->es = __USER_DS; regs->ds = __USER_DS; regs->ss = __USER_DS;
    regs->cs = __USER_CS;
    regs->di = sc->di; regs->si = sc->si; regs->bp = sc->bp; regs->sp = sc->sp;
    regs->bx = sc->bx; regs->dx = sc->dx; regs->cx = sc->cx; regs->ax = sc->ax;
    regs->ip = sc->ip;
    regs->flags = (regs->flags & ~FIX_EFLAGS) | (sc->flags & FIX_EFLAGS) | X86_EFLAGS_IF;
    regs->trapno = (unsigned long)-1;  /* not in a system call: no restart */
    return 0;
}

/* Where the frame (size bytes) and its FPU area (*fpstate) go: below the
 * interrupted sp, or at the top of the alternate stack for an SA_ONSTACK
 * handler when there is one and we are not on it yet.  0 if a frame on
 * the alternate stack would overflow it (Linux: SIGSEGV). */
static unsigned long get_sigframe(struct k_sigaction *ka, struct pt_regs *regs, size_t size,
                                  unsigned long *fpstate)
{
    unsigned long sp = regs->sp;
    bool was_onstack = on_sig_stack(sp);
    if ((ka->sa.sa_flags & SA_ONSTACK) && sas_ss_flags(sp) == 0)
        sp = current->sas_ss_sp + current->sas_ss_size;
    else
        sp -= 128;                     /* leave room, as x86-64 does; harmless */
    /* The fxsave image 64-aligned (16 is what fxrstor needs; Linux uses 64
     * for xsave), the 112-byte header just below it. */
    unsigned long fx = (sp - sizeof(struct fpu_state)) & ~63UL;
    *fpstate = fx - FPSTATE_HDR_SIZE;
    sp = *fpstate - size;
    sp = ((sp + 4) & ~15UL) - 4;       /* at handler entry (sp + 4) is 16-aligned */
    if (was_onstack && !on_sig_stack(sp))
        return 0;
    return sp;
}

/* Record the alternate stack in uc_stack (rt frames); with SS_AUTODISARM
 * forget it while the handler runs (rt_sigreturn puts it back). */
static void save_altstack(stack_t *st, unsigned long sp)
{
    struct task_struct *t = current;
    st->ss_sp = t->sas_ss_sp;
    st->ss_flags = sas_ss_flags(sp) | (t->sas_ss_flags & SS_AUTODISARM);
    st->ss_size = t->sas_ss_size;
    if (t->sas_ss_flags & SS_AUTODISARM)
        sas_ss_reset(t);
}

static int setup_frame(int sig, struct k_sigaction *ka, sigset_t *oldset, struct pt_regs *regs,
                       unsigned long cr2)
{
    struct sigframe f;
    unsigned long fp, addr = get_sigframe(ka, regs, sizeof f, &fp);
    if (!addr)
        return -EFAULT;
    memset(&f, 0, sizeof f);
    f.sig = sig;
    setup_sigcontext(&f.sc, regs, fp, oldset->sig[0], cr2);
    f.extramask[0] = oldset->sig[1];
    /* popl %eax; movl $__NR_sigreturn, %eax; int $0x80 (for gdb; unused
     * when there is a restorer) */
    static const char code[8] = { 0x58, 0xb8, __NR_sigreturn, 0, 0, 0, (char)0xcd, (char)0x80 };
    memcpy(f.retcode, code, 8);
    f.pretcode = (ka->sa.sa_flags & SA_RESTORER) ? (unsigned long)ka->sa.sa_restorer
                                                 : addr + offsetof(struct sigframe, retcode);
    if (copy_to_user((void *)addr, &f, sizeof f) || save_fpstate(fp))
        return -EFAULT;
    regs->sp = addr;
    regs->ip = (unsigned long)ka->sa.sa_handler;
    regs->ax = sig;
    regs->dx = 0;
    regs->cx = 0;
    return 0;
}

/* The siginfo_t user space sees for a dequeued signal (an SA_SIGINFO
 * handler's frame, rt_sigtimedwait): si_signo, si_code, and the fields of
 * the union the kind of signal has (si_addr, the child's pid and status,
 * or the sender's pid); the rest zero.  info zeroed by the caller. */
static void fill_siginfo(siginfo_t *info, int sig, const struct kern_siginfo *ki)
{
    info->si_signo = sig;
    info->si_code = ki->code;
    if (ki->given) {                   /* rt_sigqueueinfo's, as the sender wrote it */
        info->si_signo = ki->signo;
        info->si_errno = ki->errno_val;
        for (int i = 0; i < 4; i++)
            info->_sifields._pad[i] = (int)ki->words[i];
    } else if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP)
        info->si_addr = (void *)ki->addr;
    else if (sig == SIGCHLD) {
        info->_sifields.chld.pid = ki->pid;
        info->_sifields.chld.status = ki->status;
    } else
        info->si_pid = ki->pid;
}

static int setup_rt_frame(int sig, struct k_sigaction *ka, const struct kern_siginfo *ki,
                          sigset_t *oldset, struct pt_regs *regs)
{
    struct rt_sigframe f;
    unsigned long fp, addr = get_sigframe(ka, regs, sizeof f, &fp);
    if (!addr)
        return -EFAULT;
    memset(&f, 0, sizeof f);
    f.sig = sig;
    f.pinfo = addr + offsetof(struct rt_sigframe, info);
    f.puc = addr + offsetof(struct rt_sigframe, uc);
    fill_siginfo(&f.info, sig, ki);
    save_altstack(&f.uc.uc_stack, regs->sp);
    setup_sigcontext(&f.uc.uc_mcontext, regs, fp, oldset->sig[0], ki->addr);
    f.uc.uc_sigmask = *oldset;
    /* movl $__NR_rt_sigreturn, %eax; int $0x80 */
    static const char code[8] = { (char)0xb8, (char)__NR_rt_sigreturn, 0, 0, 0, (char)0xcd,
                                  (char)0x80, 0 };
    memcpy(f.retcode, code, 8);
    f.pretcode = (ka->sa.sa_flags & SA_RESTORER) ? (unsigned long)ka->sa.sa_restorer
                                                 : addr + offsetof(struct rt_sigframe, retcode);
    if (copy_to_user((void *)addr, &f, sizeof f) || save_fpstate(fp))
        return -EFAULT;
    regs->sp = addr;
    regs->ip = (unsigned long)ka->sa.sa_handler;
    regs->ax = sig;                    /* also as regparm(3) arguments, as Linux */
    regs->dx = f.pinfo;
    regs->cx = f.puc;
    return 0;
}

long sys_sigreturn(void)
{
    struct pt_regs *regs = current_pt_regs();
    struct sigframe f;
    unsigned long addr = regs->sp - 8; /* the restorer popped pretcode and sig */
    if (copy_from_user(&f, (void *)addr, sizeof f))
        goto bad;
    sigset_t set = { { f.sc.oldmask, f.extramask[0] } };
    set_current_blocked(&set);
    if (restore_sigcontext(regs, &f.sc))
        goto bad;
    return regs->ax;                   /* the dispatcher stores it back in ax */
bad:
    show_user_fault(SIGSEGV, addr, regs, "bad sigreturn frame");
    force_sig(SIGSEGV);
    return 0;
}

long sys_rt_sigreturn(void)
{
    struct pt_regs *regs = current_pt_regs();
    struct rt_sigframe f;
    unsigned long addr = regs->sp - 4; /* the restorer's ret popped pretcode */
    if (copy_from_user(&f, (void *)addr, sizeof f))
        goto bad;
    set_current_blocked(&f.uc.uc_sigmask);
    if (restore_sigcontext(regs, &f.uc.uc_mcontext))
        goto bad;
    /* Put back the alternate stack the frame recorded (SS_AUTODISARM took
     * it away; a handler may also have edited uc_stack).  Errors other than
     * -EFAULT are ignored, as Linux's restore_altstack; ours is a kernel copy. */
    do_sigaltstack(&f.uc.uc_stack, NULL, regs->sp);
    return regs->ax;
bad:
    show_user_fault(SIGSEGV, addr, regs, "bad rt_sigreturn frame");
    force_sig(SIGSEGV);
    return 0;
}

/* ---- stopping (job control) ------------------------------------------------ */

/* Default action of a stop signal: stop until SIGCONT (or SIGKILL).  Called
 * by do_signal on the way to user mode, interrupts on.  The parent is told
 * once (SIGCHLD CLD_STOPPED, wait4 WUNTRACED).
 *
 * Simplification: Linux discards SIGTSTP/SIGTTIN/SIGTTOU sent to an orphaned
 * process group (nobody could resume it); we stop it anyway, and we do not
 * send SIGHUP + SIGCONT to a stopped group its parent leaves behind. */
static void do_signal_stop(int sig)
{
    struct task_struct *t = current;
    unsigned long flags = local_irq_save();
    t->jobctl_stop = 1;
    t->stop_report = sig;
    t->cont_report = 0;
    notify_parent_cldstop(t, CLD_STOPPED, sig);
    /* Sleep until SIGCONT clears jobctl_stop or SIGKILL arrives.  Both wake
     * us with interrupts off after we set the state, so none is missed. */
    while (t->jobctl_stop && !fatal_signal_pending(t)) {
        set_current_state(TASK_STOPPED);
        local_irq_restore(flags);
        schedule();
        flags = local_irq_save();
    }
    set_current_state(TASK_RUNNING);
    t->jobctl_stop = 0;                /* killed while stopped: not stopped any more */
    local_irq_restore(flags);
}

/* ---- delivery ------------------------------------------------------------ */

/* Take the lowest-numbered pending signal not in mask (SIGKILL first):
 * delivery passes the blocked set (never SIGKILL), rt_sigtimedwait the
 * complement of the set it waits for (always SIGKILL and SIGSTOP: a
 * SIGKILL stays pending and kills on the way out). */
static int dequeue_signal_mask(struct task_struct *t, const sigset_t *mask,
                               struct kern_siginfo *info)
{
    unsigned long flags = local_irq_save();
    int sig = 0;
    if (sigismember_k(&t->pending, SIGKILL) && !sigismember_k(mask, SIGKILL)) {
        sig = SIGKILL;
    } else {
        for (int i = 0; i < _NSIG_WORDS && !sig; i++) {
            unsigned long m = t->pending.sig[i] & ~mask->sig[i];
            if (m)
                sig = i * 32 + __builtin_ctzl(m) + 1;
        }
    }
    if (sig) {
        sigdelset_k(&t->pending, sig);
        *info = t->pending_info[sig - 1];
    }
    local_irq_restore(flags);
    return sig;
}

/* Take the lowest-numbered pending unblocked signal (SIGKILL first). */
static int dequeue_signal(struct task_struct *t, struct kern_siginfo *info)
{
    sigset_t blocked = t->blocked;
    return dequeue_signal_mask(t, &blocked, info);
}

/* ---- waiting for a signal: rt_sigtimedwait --------------------------------- */

/* rt_sigtimedwait (Linux's do_sigtimedwait): take a pending signal of the
 * set `which` (blocked or not; SIGKILL and SIGSTOP are never taken), or
 * sleep until one comes, at most ticks (MAX_SCHEDULE_TIMEOUT: no limit; 0:
 * do not sleep).  While asleep the set is unblocked, so a signal of it
 * wakes us; so does any other unblocked one.  The mask from before is
 * kept in real_blocked, so that a signal of the set that was blocked is
 * still queued if it is ignored (sig_ignored), as Linux.  Returns the signal, with its
 * info; -EAGAIN when the time ran out (or was 0), -EINTR when another
 * signal woke us (its handler runs on the way out, and the call is not
 * restarted, whatever SA_RESTART says, as Linux). */
static long do_sigtimedwait(const sigset_t *which, struct kern_siginfo *info, long ticks)
{
    struct task_struct *t = current;
    sigset_t mask = *which, saved;
    sigdelset_k(&mask, SIGKILL);
    sigdelset_k(&mask, SIGSTOP);
    sigset_t others = mask;            /* what dequeue_signal_mask must skip */
    for (int i = 0; i < _NSIG_WORDS; i++)
        others.sig[i] = ~mask.sig[i];

    int sig = dequeue_signal_mask(t, &others, info);
    if (sig || !ticks)
        return sig ? sig : -EAGAIN;
    unsigned long flags = local_irq_save();
    saved = t->real_blocked = t->blocked;
    for (int i = 0; i < _NSIG_WORDS; i++)
        t->blocked.sig[i] &= ~mask.sig[i];
    local_irq_restore(flags);
    for (;;) {
        set_current_state(TASK_INTERRUPTIBLE);
        if (signal_pending(t) || !ticks)
            break;
        ticks = schedule_timeout(ticks);
    }
    set_current_state(TASK_RUNNING);
    flags = local_irq_save();
    t->blocked = saved;
    memset(&t->real_blocked, 0, sizeof t->real_blocked);
    local_irq_restore(flags);
    sig = dequeue_signal_mask(t, &others, info);
    if (sig)
        return sig;
    return ticks ? -EINTR : -EAGAIN;
}

/* The timeout as ticks, rounded up as nanosleep's (kernel/sys.c), or
 * -EINVAL for a negative time or tv_nsec outside 0..999999999. */
static long timeout_ticks(long long sec, long long nsec)
{
    if (sec < 0 || nsec < 0 || nsec >= 1000000000LL)
        return -EINVAL;
    if (sec == 0 && nsec == 0)
        return 0;
    if (sec > MAX_SCHEDULE_TIMEOUT / HZ - 2)
        return MAX_SCHEDULE_TIMEOUT - 1;
    /* + 1: the current tick is partly over */
    return (long)sec * HZ + (long)((nsec + 1000000000 / HZ - 1) / (1000000000 / HZ)) + 1;
}

/* rt_sigtimedwait(set, info, timeout, sigsetsize) and its _time64 twin
 * (glibc's sigwaitinfo, sigtimedwait, sigwait): sigsetsize other than 8 is
 * -EINVAL, an unreadable set or timeout -EFAULT, a bad timeout -EINVAL
 * (only once the set was read, as Linux); no timeout (NULL) waits for
 * ever.  The signal number is returned and, if info is not NULL, its
 * siginfo_t (128 bytes) written there: -EFAULT if that fails, the signal
 * being taken all the same.  ts64: struct __kernel_timespec (64-bit
 * seconds and nanoseconds, of which only the low 32 bits count on i386),
 * otherwise struct timespec with 32-bit fields. */
static long sigtimedwait_common(const void *uthese, void *uinfo, const void *uts,
                                unsigned long sigsetsize, bool ts64)
{
    sigset_t these;
    long ticks = MAX_SCHEDULE_TIMEOUT;
    if (sigsetsize != sizeof(sigset_t))
        return -EINVAL;
    if (copy_from_user(&these, uthese, sizeof these))
        return -EFAULT;
    if (uts) {
        long long sec, nsec;
        if (ts64) {
            long long v[2];
            if (copy_from_user(v, uts, sizeof v))
                return -EFAULT;
            sec = v[0], nsec = (int)(unsigned int)v[1];
        } else {
            long v[2];
            if (copy_from_user(v, uts, sizeof v))
                return -EFAULT;
            sec = v[0], nsec = v[1];
        }
        ticks = timeout_ticks(sec, nsec);
        if (ticks < 0)
            return ticks;
    }
    struct kern_siginfo ki;
    long ret = do_sigtimedwait(&these, &ki, ticks);
    if (ret > 0 && uinfo) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        fill_siginfo(&info, (int)ret, &ki);
        if (copy_to_user(uinfo, &info, sizeof info))
            return -EFAULT;
    }
    return ret;
}

long sys_rt_sigtimedwait(const void *uthese, void *uinfo, const void *uts,
                         unsigned long sigsetsize)
{
    return sigtimedwait_common(uthese, uinfo, uts, sigsetsize, false);
}

long sys_rt_sigtimedwait_time64(const void *uthese, void *uinfo, const void *uts,
                                unsigned long sigsetsize)
{
    return sigtimedwait_common(uthese, uinfo, uts, sigsetsize, true);
}

/* ---- system call restart ---------------------------------------------------- */

static bool in_syscall(struct pt_regs *regs)
{
    return regs->trapno == IA32_SYSCALL_VECTOR;
}

/* A system call interrupted by a signal returned -ERESTART*: decide between
 * restarting it (back up over the 2-byte int $0x80, eax = number again) and
 * failing it with -EINTR.  has_handler: a handler is about to run. */
static void handle_restart(struct pt_regs *regs, struct k_sigaction *ka, bool has_handler)
{
    if (!in_syscall(regs))
        return;
    long r = (long)regs->ax;
    switch (r) {
    case -ERESTARTNOHAND:
        if (has_handler) { regs->ax = -EINTR; break; }
        goto restart;
    case -ERESTARTSYS:
        if (has_handler && !(ka->sa.sa_flags & SA_RESTART)) { regs->ax = -EINTR; break; }
        goto restart;
    case -ERESTARTNOINTR:
    restart:
        regs->ax = regs->orig_ax;
        regs->ip -= 2;
        break;
    }
    regs->trapno = (unsigned long)-1;  /* decided once */
}

void do_signal(struct pt_regs *regs)
{
    struct task_struct *t = current;
    struct kern_siginfo info;
    int sig;

    while ((sig = dequeue_signal(t, &info))) {
        struct k_sigaction *ka = sig_action(t, sig);
        __sighandler_t h = ka->sa.sa_handler;
        if (h == SIG_IGN)
            continue;
        if (h == SIG_DFL) {
            if (sig_default_ignored(sig))
                continue;
            if (t == init_process && !info.force)
                continue;
            if (sig_kernel_stop(sig)) {
                do_signal_stop(sig);   /* back here after SIGCONT or SIGKILL */
                continue;
            }
            /* Default action: terminate ("core" signals too: no core dumps).
             * Wait status = the signal number. */
            do_group_exit(sig);
        }
        /* A handler. */
        handle_restart(regs, ka, true);
        sigset_t *oldset = t->restore_sigmask ? &t->saved_sigmask : &t->blocked;
        sigset_t old = *oldset;
        int err = (ka->sa.sa_flags & SA_SIGINFO) ? setup_rt_frame(sig, ka, &info, &old, regs)
                                                 : setup_frame(sig, ka, &old, regs, info.addr);
        t->restore_sigmask = 0;
        if (err) {
            /* No room for the frame on the user stack: Linux's force_sigsegv. */
            show_user_fault(SIGSEGV, regs->sp, regs, "cannot build the signal frame");
            ka = sig_action(t, SIGSEGV);
            ka->sa.sa_handler = SIG_DFL;
            force_sig(SIGSEGV);
            continue;
        }
        sigset_t b = old;
        for (int i = 0; i < _NSIG_WORDS; i++)
            b.sig[i] |= ka->sa.sa_mask.sig[i];
        if (!(ka->sa.sa_flags & SA_NODEFER))
            sigaddset_k(&b, sig);
        if (ka->sa.sa_flags & SA_RESETHAND)
            ka->sa.sa_handler = SIG_DFL;
        set_current_blocked(&b);
        regs->flags &= ~(0x100 | 0x400);   /* TF, DF clear in the handler, as Linux */
        return;                        /* one frame per return to user mode */
    }
    /* No handler ran: restart what was interrupted, restore sigsuspend's mask. */
    handle_restart(regs, NULL, false);
    if (t->restore_sigmask) {
        t->restore_sigmask = 0;
        set_current_blocked(&t->saved_sigmask);
    }
}

/* Reset handlers at execve: caught signals go back to SIG_DFL (the handler
 * code is gone), ignored ones stay ignored, the mask and pending set stay. */
void flush_signal_handlers(struct task_struct *t)
{
    for (int i = 0; i < _NSIG; i++) {
        struct k_sigaction *ka = &t->action[i];
        if (ka->sa.sa_handler != SIG_IGN)
            ka->sa.sa_handler = SIG_DFL;
        ka->sa.sa_flags = 0;
        ka->sa.sa_restorer = NULL;
        memset(&ka->sa.sa_mask, 0, sizeof ka->sa.sa_mask);
    }
    sas_ss_reset(t);                   /* the alternate stack is gone too */
}

/* ---- the way back to user mode --------------------------------------------- */

/* entry.S calls this with interrupts off before every return to ring 3
 * (Linux's exit_to_user_mode_loop): reschedule if the tick asked for it,
 * deliver signals, and repeat until there is nothing left to do. */
/* Anything to do before user mode: a reschedule, a signal, a restart. */
static bool exit_work(struct task_struct *t, struct pt_regs *regs)
{
    return t->need_resched || has_pending_unblocked(t) || t->restore_sigmask ||
           (in_syscall(regs) && (long)regs->ax <= -ERESTARTSYS &&
            (long)regs->ax >= -ERESTARTNOHAND);
}

void exit_to_user_mode(struct pt_regs *regs)
{
    struct task_struct *t = current;
    /* Only processes return to user mode; the traps test's ring 3 round
     * trip is the test's kernel thread (its private stack names it). */
    if (!t || !t->is_process)
        return;
    /* Nothing to do: no lock needed (interrupts are off; a signal that
     * another CPU sends from now on interrupts us in user mode,
     * kick_process, and we come back here). */
    if (!exit_work(t, regs))
        return;
    lock_kernel();                     /* signals, schedule(): kernel code */
    for (;;) {
        local_irq_disable();
        if (t->need_resched) {
            local_irq_enable();
            schedule();
            continue;
        }
        if (exit_work(t, regs)) {
            local_irq_enable();
            do_signal(regs);
            local_irq_disable();
            if (!t->need_resched && !has_pending_unblocked(t))
                break;
            continue;
        }
        break;
    }
    unlock_kernel();                   /* interrupts off until the iret */
    BUG_ON(kernel_locked());           /* user mode never holds it */
}
