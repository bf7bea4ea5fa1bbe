/* kernel/smp_lock.c: the big kernel lock (include/smp_lock.h has the
 * contract and why; docs/smp.md draws it).  Core layer: it uses only the
 * per-CPU area and one atomic word.
 *
 * kernel_flag_cpu is the holder's CPU number, -1 when free, changed only
 * by a lock cmpxchg (take) and by the holder's store of -1 (let go), with
 * a compiler barrier before it so that the critical section's stores come
 * first (x86 keeps stores in order).  kernel_lock_depth is per CPU: how
 * many times the code running on this CPU has taken it; the scheduler moves
 * a task's depth into task_struct.lock_depth while the task is off the CPU
 * (Linux 2.0-2.6's lock_depth).  lock_kernel and unlock_kernel are inline
 * in include/smp_lock.h (every system call takes them); their slow paths,
 * the wait and the BUG, are here. */
#include <kernel.h>
#include <sched.h>
#include <smp.h>
#include <smp_lock.h>
#include <asm/io.h>
#include <asm/irqflags.h>

volatile int kernel_flag_cpu = -1;
DEFINE_PER_CPU(int, kernel_lock_depth);
DEFINE_PER_CPU(unsigned long, kernel_lock_acquisitions);
DEFINE_PER_CPU(unsigned long, kernel_lock_contentions);

/* The counts summed over the CPUs, each read without a lock (a snapshot). */
void kernel_lock_stat(unsigned long *contentions, unsigned long *acquisitions)
{
    int cpu;
    *contentions = *acquisitions = 0;
    for_each_online_cpu(cpu) {
        *contentions += READ_ONCE(per_cpu(kernel_lock_contentions, cpu));
        *acquisitions += READ_ONCE(per_cpu(kernel_lock_acquisitions, cpu));
    }
}

static void count_taken(void)
{
    this_cpu_write(kernel_lock_acquisitions, this_cpu_read(kernel_lock_acquisitions) + 1);
}

static int try_take(int cpu)
{
    return __sync_bool_compare_and_swap(&kernel_flag_cpu, -1, cpu);
}

int kernel_locked(void)
{
    return kernel_flag_cpu == smp_processor_id();
}

/* The depth and the flag change together, with interrupts off: an interrupt
 * handler between the two would take the lock "again" on the strength of a
 * flag whose depth is not counted yet, and let it go entirely on the way
 * out. */
static void depth_add(int n)
{
    this_cpu_write(kernel_lock_depth, this_cpu_read(kernel_lock_depth) + n);
}

int kernel_trylock(void)
{
    unsigned long flags = local_irq_save();
    int cpu = smp_processor_id(), held = kernel_flag_cpu == cpu, taken = held || try_take(cpu);
    if (taken)
        depth_add(1);
    if (taken && !held)
        count_taken();
    local_irq_restore(flags);
    return taken;
}

/* Take it (this CPU does not hold it), waiting with interrupts on, then
 * hold it depth times; interrupts off on return. */
static void take(int depth)
{
    int cpu = smp_processor_id();
    count_taken();
    if (READ_ONCE(kernel_flag_cpu) != -1)
        this_cpu_write(kernel_lock_contentions, this_cpu_read(kernel_lock_contentions) + 1);
    while (!try_take(cpu)) {
        local_irq_enable();
        while (READ_ONCE(kernel_flag_cpu) != -1)
            cpu_relax();
        local_irq_disable();
    }
    this_cpu_write(kernel_lock_depth, depth);
}

/* lock_kernel's slow path (include/smp_lock.h has the fast one): another
 * CPU holds it; interrupts off. */
void lock_kernel_wait(void)
{
    take(1);
}

/* Let go entirely (interrupts off): the flag after the critical section's
 * stores (a compiler barrier; x86 keeps stores in order). */
static void let_go(void)
{
    this_cpu_write(kernel_lock_depth, 0);
    barrier();
    WRITE_ONCE(kernel_flag_cpu, -1);
}

/* The two for assembly (ret_from_fork, kernel/x86/user_entry.S), which
 * cannot use the inline ones. */
void lock_kernel_asm(void) { lock_kernel(); }
void unlock_kernel_asm(void) { unlock_kernel(); }

/* unlock_kernel (include/smp_lock.h) of a lock this CPU does not hold. */
void unlock_kernel_bug(void)
{
    BUG();
}

void release_kernel_lock(struct task_struct *t)
{
    unsigned long flags = local_irq_save();
    t->lock_depth = this_cpu_read(kernel_lock_depth);
    if (t->lock_depth) {
        BUG_ON(kernel_flag_cpu != smp_processor_id());
        let_go();
    }
    local_irq_restore(flags);
}

void reacquire_kernel_lock(struct task_struct *t)
{
    unsigned long flags = local_irq_save();
    BUG_ON(this_cpu_read(kernel_lock_depth) != 0);
    if (t->lock_depth)
        take(t->lock_depth);
    local_irq_restore(flags);
}
