/* kernel/proc_test.c: kernel tests of the process layer (test=proc).
 * They run real user programs (embedded by kernel/test/proc_blobs.S) as
 * processes and check their exit status, the task and frame counts, from
 * the kernel side.  The user program proc_core.c reports a failure as its
 * exit status (the failing line), so a failure here names the line. */
#include <kernel.h>
#include <string.h>
#include <err.h>
#include <ktest.h>
#include <sched.h>
#include <slab.h>
#include <mm.h>
#include <proc.h>
#include <errno.h>
#include <fs.h>
#include <signal.h>
#include <cmdline.h>
#include <asm/irqflags.h>
#include "sched_glue.h"

extern const char proc_core_elf[], proc_core_elf_end[];

static const char *run_path;

static int run_program(void *arg)
{
    const char *const argv[] = { run_path, NULL };
    const char *const envp[] = { "PATH=/", NULL };
    return kernel_execve(run_path, argv, envp);
}

/* Wait (polling: the test runs as pid 0, nobody's parent) until t is a
 * zombie whose stack is gone, then free it.  Returns the wait status or -1
 * on timeout. */
static int wait_orphan(struct task_struct *t, unsigned timeout_ms)
{
    for (unsigned waited = 0; waited < timeout_ms; waited += 10) {
        unsigned long flags = local_irq_save();
        if (t->exit_state == EXIT_ZOMBIE && t->state == TASK_DEAD && !t->stack) {
            int st = t->exit_status;
            list_del(&t->tasks);
            nr_processes--;
            kfree(t->fpu);
            free_task_struct(t);
            local_irq_restore(flags);
            return st;
        }
        local_irq_restore(flags);
        msleep(10);
    }
    return -1;
}

static void register_blobs(void)
{
    static int done;
    if (!done++)
        register_builtin_binary("/proc_core", proc_core_elf,
                                proc_core_elf_end - proc_core_elf);
}

KTEST(proc, core_program_passes)
{
    register_blobs();
    kmalloc_drain_cpu_caches();        /* proc_core's vellum_debug(1) drains them too */
    unsigned long free0 = nr_free_pages();
    int procs0 = nr_processes;
    run_path = "/proc_core";
    struct task_struct *t = user_process_create(run_program, NULL, "proc_core", 0);
    KT_ASSERT(!IS_ERR(t));
    int st = wait_orphan(t, 15000);
    /* 0 = every check in user/tests/proc_core.c passed; else (line % 255) + 1 */
    KT_EXPECT_EQ(st, 0);
    if (st > 0)
        printk("proc_core failed near line %d (mod 255) status %#x\n", (st >> 8) - 1, st);
    KT_EXPECT_EQ(nr_processes, procs0);
    /* Whole run: everything but allocator caches comes back. */
    long diff = (long)free0 - (long)nr_free_pages();
    KT_EXPECT(diff >= 0 && diff < 64);
}

KTEST(proc, exec_rejects_bad_files)
{
    register_blobs();
    static const char junk[64] = "#!/bin/sh\n";
    register_builtin_binary("/junk", junk, sizeof junk);
    run_path = "/junk";
    struct task_struct *t = user_process_create(run_program, NULL, "junk", 0);
    KT_ASSERT(!IS_ERR(t));
    int st = wait_orphan(t, 2000);
    /* kernel_execve failed with -ENOEXEC: the process ended with that code. */
    KT_EXPECT_EQ(st, ((-ENOEXEC) & 0xff) << 8);
    run_path = "/nonexistent";
    t = user_process_create(run_program, NULL, "none", 0);
    KT_ASSERT(!IS_ERR(t));
    st = wait_orphan(t, 2000);
    KT_EXPECT_EQ(st, ((-ENOENT) & 0xff) << 8);
}

KTEST(proc, process_limit_eagain)
{
    int saved = max_processes;
    max_processes = nr_processes;      /* no room for one more */
    struct task_struct *t = user_process_create(run_program, NULL, "over", 0);
    max_processes = saved;
    KT_EXPECT(IS_ERR(t) && PTR_ERR(t) == -EAGAIN);
}

/* The default task limit is Linux's threads-max: kernel stacks in an
 * eighth of RAM, at least 20, at most half the pids; it is what fork
 * enforces unless nproc= said otherwise. */
KTEST(proc, default_process_limit_is_an_eighth_of_ram)
{
    int n = default_max_processes();
    unsigned long want = totalram_pages / (8 * THREAD_SIZE / PAGE_SIZE);
    if (want < MIN_MAX_PROCESSES)
        want = MIN_MAX_PROCESSES;
    if (want > PID_MAX / 2)
        want = PID_MAX / 2;
    KT_EXPECT_EQ(n, (int)want);
    KT_EXPECT(n >= MIN_MAX_PROCESSES && n <= PID_MAX / 2);
    KT_EXPECT((unsigned long)n * THREAD_SIZE <= totalram_pages * PAGE_SIZE / 8 ||
              n == MIN_MAX_PROCESSES);
    if (!cmdline_get("nproc"))
        KT_EXPECT_EQ(max_processes, n);
}

/* execve needs a regular file with an execute bit: a directory or a file
 * without one is -EACCES before its contents are looked at (Linux's
 * may_open with MAY_EXEC); a data file with one is -ENOEXEC. */
static int mkfile_mode(const char *path, mode_t mode)
{
    struct file *f = filp_open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    if (IS_ERR(f))
        return PTR_ERR(f);
    kernel_write(f, "hello\n", 6, &f->f_pos);
    filp_close(f);
    return 0;
}

static int exec_status(const char *path)
{
    run_path = path;
    struct task_struct *t = user_process_create(run_program, NULL, "execerr", 0);
    if (IS_ERR(t))
        return PTR_ERR(t);
    return wait_orphan(t, 2000);
}

KTEST(proc, exec_needs_a_regular_file_with_an_x_bit)
{
    KT_ASSERT_EQ(vfs_ensure_root(), 0);
    vfs_mkdir("/execdir", 0755);
    KT_ASSERT_EQ(mkfile_mode("/execdir/data644", 0644), 0);
    KT_ASSERT_EQ(mkfile_mode("/execdir/data755", 0755), 0);
    KT_EXPECT_EQ(exec_status("/execdir"), ((-EACCES) & 0xff) << 8);
    KT_EXPECT_EQ(exec_status("/execdir/data644"), ((-EACCES) & 0xff) << 8);
    KT_EXPECT_EQ(exec_status("/execdir/data755"), ((-ENOEXEC) & 0xff) << 8);
    vfs_unlink("/execdir/data644");
    vfs_unlink("/execdir/data755");
    vfs_rmdir("/execdir");
}

/* kill looks the target up before it checks the signal (Linux's
 * kill_something_info): no such process is -ESRCH whatever the signal. */
static int sleep_then_exit(void *arg)
{
    msleep(100);
    return 3;
}

KTEST(proc, kill_finds_the_target_before_the_signal)
{
    KT_EXPECT_EQ(kill_pid_info(PID_MAX + 1, 65, NULL), -ESRCH);
    KT_EXPECT_EQ(kill_pid_info(-(PID_MAX + 1), 65, NULL), -ESRCH);
    KT_EXPECT_EQ(kill_pid_info(-0x7fffffff - 1, 0, NULL), -ESRCH);
    struct task_struct *t = user_process_create(sleep_then_exit, NULL, "sleeper", 0);
    KT_ASSERT(!IS_ERR(t));
    KT_EXPECT_EQ(kill_pid_info(t->pid, 65, NULL), -EINVAL);
    KT_EXPECT_EQ(kill_pid_info(t->pid, -1, NULL), -EINVAL);
    KT_EXPECT_EQ(kill_pid_info(t->pid, 0, NULL), 0);
    KT_EXPECT_EQ(kill_pid_info(-t->pgrp, 65, NULL), -EINVAL);
    KT_EXPECT_EQ(wait_orphan(t, 2000), 3 << 8);
}

/* A parent that ignores SIGCHLD (SIG_IGN or SA_NOCLDWAIT) gets no zombie:
 * the child leaves its list at exit and is freed with its stack; with
 * SIGCHLD at its default the zombie stays for wait. */
KTEST(proc, sigchld_ignored_reaps_at_exit)
{
    static struct task_struct parent;  /* a stand-in: lists, queue, handlers */
    for (int how = 0; how < 3; how++) {
        memset(&parent, 0, sizeof parent);
        INIT_LIST_HEAD(&parent.children);
        init_waitqueue_head(&parent.wait_chldexit);
        parent.action[SIGCHLD - 1].sa.sa_handler = how == 1 ? SIG_IGN : SIG_DFL;
        parent.action[SIGCHLD - 1].sa.sa_flags = how == 2 ? SA_NOCLDWAIT : 0;
        int procs0 = nr_processes;
        struct task_struct *t = user_process_create(sleep_then_exit, NULL, "child", 0);
        KT_ASSERT(!IS_ERR(t));
        pid_t pid = t->pid;
        unsigned long flags = local_irq_save();
        t->parent = &parent;
        list_add_tail(&t->sibling, &parent.children);
        local_irq_restore(flags);
        if (how == 0) {
            msleep(300);
            KT_EXPECT_EQ(t->exit_state, EXIT_ZOMBIE);
            KT_EXPECT(!list_empty(&parent.children));
            flags = local_irq_save();
            list_del(&t->sibling);
            local_irq_restore(flags);
            KT_EXPECT_EQ(wait_orphan(t, 2000), 3 << 8);
        } else {
            for (int ms = 0; ms < 2000 && find_task_by_pid(pid); ms += 10)
                msleep(10);
            msleep(20);                /* the stack and task_struct, freed */
            KT_EXPECT(find_task_by_pid(pid) == NULL);
            KT_EXPECT(list_empty(&parent.children));
        }
        KT_EXPECT_EQ(nr_processes, procs0);
    }
}

/* clone's flag checks, as Linux's copy_process: CLONE_THREAD needs
 * CLONE_SIGHAND, CLONE_SIGHAND needs CLONE_VM (and, here, CLONE_THREAD:
 * the handlers live in the group leader); flags Vellum does not model
 * (CLONE_NEWNS) are refused.  Each is refused before anything is made: the
 * process count does not move.  Run from a process with an mm (clone's
 * caller); its exit status says it got to the end. */
#define T_CLONE_VM      0x00000100
#define T_CLONE_SIGHAND 0x00000800
#define T_CLONE_THREAD  0x00010000
#define T_CLONE_NEWNS   0x00020000

static long clone_res[5];

static int clone_checks(void *arg)
{
    long *res = arg;
    struct mm_struct *mm = mm_alloc();
    if (!mm)
        return 99;
    use_mm(mm);                        /* ours now: exit drops it */
    int procs0 = nr_processes;
    struct pt_regs *regs = current_pt_regs();
    res[0] = do_fork(T_CLONE_THREAD | T_CLONE_VM, 0, regs, NULL, 0, NULL);
    res[1] = do_fork(T_CLONE_SIGHAND, 0, regs, NULL, 0, NULL);
    res[2] = do_fork(T_CLONE_SIGHAND | T_CLONE_VM, 0, regs, NULL, 0, NULL);
    res[3] = do_fork(T_CLONE_NEWNS | SIGCHLD, 0, regs, NULL, 0, NULL);
    res[4] = nr_processes - procs0;
    return 7;
}

KTEST(proc, clone_flags_checked_as_copy_process)
{
    struct task_struct *t = user_process_create(clone_checks, clone_res, "clonechk", 0);
    KT_ASSERT(!IS_ERR(t));
    KT_EXPECT_EQ(wait_orphan(t, 2000), 7 << 8);
    KT_EXPECT_EQ(clone_res[0], -EINVAL);
    KT_EXPECT_EQ(clone_res[1], -EINVAL);
    KT_EXPECT_EQ(clone_res[2], -EINVAL);
    KT_EXPECT_EQ(clone_res[3], -EINVAL);
    KT_EXPECT_EQ(clone_res[4], 0);
}
