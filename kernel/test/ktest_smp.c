/* kernel/test/ktest_smp.c: the SMP tests' workers (include/ktest.h,
 * ktest_smp_run): a kernel thread per online CPU, each bound to its CPU
 * and without the big kernel lock, released together by one "go" and
 * stopped when its function returns.  The kmalloc, rwsem and rw suites'
 * tests "without the big lock" (docs/smp.md) run their workers here.
 * Built into the test kernel only. */
#include <kernel.h>
#include <string.h>
#include <ktest.h>
#include <err.h>
#include <errno.h>
#include <sched.h>
#include <smp.h>
#include <smp_lock.h>
#include <timer.h>
#include <asm/atomic.h>

/* The run under way (ktests run one at a time, on one task). */
static struct ktest_smp *run;
static int (*run_fn)(struct ktest_smp_worker *w, void *arg);
static void *run_arg;
static atomic_t ready;                  /* workers on their CPUs, lock let go */
static volatile int go;                 /* 1: run fn; -1: a worker did not start, return */

int ktest_smp_nr(void)
{
    int n = num_online_cpus();
    return n < 2 ? 2 : n;
}

static int worker_main(void *data)
{
    struct ktest_smp_worker *w = data;
    set_cpus_allowed(current, 1ul << w->cpu);   /* moves there now */
    unlock_kernel();                            /* kthread_main's; back below */
    w->had_big_lock = kernel_locked();
    atomic_inc(&ready);
    /* Wait for the others asleep, not in a yield() loop: under -icount
     * QEMU runs the CPUs in turn on one host thread, and a CPU that loops
     * through yield() could keep it from ever running the other CPUs (seen
     * at -smp 2: the second worker never left the run queue). */
    while (!READ_ONCE(go))
        msleep(1);
    int ret = go > 0 ? run_fn(w, run_arg) : -EINTR;   /* called off */
    w->ran_on = smp_processor_id();
    lock_kernel();
    return ret;
}

int ktest_smp_run(struct ktest_smp *s, const char *name,
                  int (*fn)(struct ktest_smp_worker *w, void *arg), void *arg)
{
    struct task_struct *t[KTEST_SMP_MAX];
    int cpus[NR_CPUS], cpu, err = 0;
    BUG_ON(run);                                /* one run at a time */
    memset(s, 0, sizeof *s);
    for_each_online_cpu(cpu)
        cpus[s->ncpus++] = cpu;
    s->nr = ktest_smp_nr();
    run = s;
    run_fn = fn;
    run_arg = arg;
    atomic_set(&ready, 0);
    go = 0;
    for (int i = 0; i < s->nr; i++) {
        struct ktest_smp_worker *w = &s->w[i];
        char comm[TASK_COMM_LEN];
        w->id = i;
        w->cpu = cpus[i % s->ncpus];
        w->shares_cpu = s->nr > s->ncpus;
        w->ran_on = -1;
        snprintf(comm, sizeof comm, "%s/%d", name, w->cpu);
        t[i] = kthread_run(worker_main, w, comm);
        if (IS_ERR(t[i])) {
            err = PTR_ERR(t[i]);
            ktest_fail(__FILE__, __LINE__, "kthread_run: %d", err);
            s->nr = i;                          /* stop the ones started */
            break;
        }
    }
    while (atomic_read(&ready) < s->nr)
        msleep(1);
    unsigned long j0 = jiffies, cont, bkl0, bkl1;
    kernel_lock_stat(&cont, &bkl0);
    go = err ? -1 : 1;
    for (int i = 0; i < s->nr; i++)
        s->w[i].ret = kthread_stop(t[i]);
    kernel_lock_stat(&cont, &bkl1);
    s->ms = (jiffies - j0) * 1000 / HZ;
    s->big_lock = bkl1 - bkl0;
    run = NULL;
    return err;
}
