/* include/smp_lock.h: the big kernel lock (kernel/smp_lock.c; docs/smp.md,
 * "Step 3").  One CPU at a time runs kernel code, as in Linux 2.0, the
 * first Linux on several CPUs; user code runs on every CPU at once.
 *
 * Who holds it: every way into the kernel takes it (system calls but those
 * in sys_call_unlocked[] (SMP step 5: read, write), exceptions, page
 * faults, the devices' interrupts; exit_to_user_mode; kmain and every
 * kernel thread), so the kernel's code keeps the one-CPU rules it was
 * written for: not preemptible, and local_irq_save() excludes the
 * interrupt handlers (which take it too, or run on the CPU that holds it).
 * Code that runs without it calls what is not locked yet through functions
 * that take it themselves (ext2_get_block, blkdev_rw, balance_dirty_pages:
 * docs/smp.md, "Step 5").
 * Who does not: the scheduler's core and the idle loops (under
 * each CPU's rq->lock, kernel/sched.c), the IPI handlers (kernel/x86/smp.c), the
 * tick's per-CPU part, and since SMP step 4 a kernel thread that lets go of
 * it to call code with locks of its own: the page allocator (zone->lock) and
 * kmalloc (cachep->spinlock).  schedule() lets go of it for the switch and
 * takes it back, as many times as the task held it (task_struct.lock_depth).
 *
 * Contract:
 *  lock_kernel: take it, or if this CPU holds it already, hold it once
 *    more (an interrupt taken in the kernel, a nested entry).  While it
 *    waits it has interrupts on, whatever the caller had, so that this CPU
 *    still answers TLB shootdowns and function calls from the holder; it
 *    returns with the caller's interrupt flag.  Not from an IPI handler.
 *  unlock_kernel: once less; the last one lets go.  BUG if not held here.
 *    A kernel thread holds it once (kthread_main), so unlock_kernel() lets
 *    it run without it, as Linux 2.6's kernel threads ran, until it takes
 *    it back with lock_kernel() (before it returns, and before it calls
 *    anything that still needs it).  In between it may call only code that
 *    has its own locks (docs/smp.md, "Step 4": alloc_pages, __free_pages,
 *    kmalloc, kfree; alloc_pages takes the lock itself for reclaim; "Step
 *    5": kernel_read and kernel_write of a FOP_UNLOCKED_RW file), sleep
 *    and schedule; a page fault takes the lock itself.  The SMP tests of
 *    kmalloc and the page allocator (mm/kmalloc_test.c) and of the write
 *    path (fs/read_write_test.c) do that.
 *  kernel_trylock: take it if that needs no wait (or this CPU holds it);
 *    1 if taken.  For the tick, which must not wait (kernel/sched.c).
 *  kernel_locked: this CPU holds it.
 *  release_kernel_lock / reacquire_kernel_lock: schedule()'s pair: let go
 *    entirely, keeping the depth in the task, and take it back as deep.
 *
 * Simplification, said where it matters: Linux 2.2 to 2.6.38 pushed this
 * lock down into the subsystems, each getting its own lock (the LOCK ORDER
 * in mm/filemap.c is theirs); steps 4 and 5 of issue 25 began that here.
 * The lock is a test-and-set word, not a ticket lock: a CPU may want it
 * twice at once (a device's interrupt arriving while this CPU waits for
 * it), and a ticket taken by the interrupted wait would never be served. */
#ifndef _SMP_LOCK_H
#define _SMP_LOCK_H
#include <kernel.h>
#include <smp.h>
#include <asm/irqflags.h>
#include <asm/percpu.h>
struct task_struct;

int kernel_trylock(void);
int kernel_locked(void);
void release_kernel_lock(struct task_struct *t);
void reacquire_kernel_lock(struct task_struct *t);
extern volatile int kernel_flag_cpu;   /* the CPU that holds it, -1: nobody */
/* How many times the code running on each CPU holds it (an AP zeroes its
 * own: its per-CPU area began as a copy of the boot CPU's). */
DECLARE_PER_CPU(int, kernel_lock_depth);
/* /proc/lock_stat's line for it (kernel_lock_stat): the times each CPU took
 * it while not holding it, and of those the times it had to wait. */
DECLARE_PER_CPU(unsigned long, kernel_lock_acquisitions);
DECLARE_PER_CPU(unsigned long, kernel_lock_contentions);
void kernel_lock_stat(unsigned long *contentions, unsigned long *acquisitions);
void lock_kernel_wait(void);           /* kernel/smp_lock.c: the slow paths */
void unlock_kernel_bug(void);
void lock_kernel_asm(void);            /* out of line, for assembly */
void unlock_kernel_asm(void);

/* Every system call takes and lets go of the lock, so the two fast paths
 * are inline here and the wait and the report are out of line (Linux
 * 2.0's lock_kernel was inline assembly in <asm/smp_lock.h>; 2.6's keeps
 * the depth in current->lock_depth and needs no cli, as no interrupt
 * handler of its takes the lock).  The depth and the flag change together,
 * with interrupts off: an interrupt handler between the two would take the
 * lock "again" on the strength of a flag whose depth is not counted yet,
 * and let it go entirely on the way out. */
static inline void lock_kernel(void)
{
    unsigned long flags = local_irq_save();
    int cpu = smp_processor_id();
    if (kernel_flag_cpu == cpu) {
        this_cpu_write(kernel_lock_depth, this_cpu_read(kernel_lock_depth) + 1);
    } else if (__sync_bool_compare_and_swap(&kernel_flag_cpu, -1, cpu)) {
        this_cpu_write(kernel_lock_depth, 1);
        this_cpu_write(kernel_lock_acquisitions, this_cpu_read(kernel_lock_acquisitions) + 1);
    } else {
        lock_kernel_wait();            /* another CPU holds it */
    }
    local_irq_restore(flags);
}

/* The last one lets go: the flag after the critical section's stores (a
 * compiler barrier; x86 keeps stores in order). */
static inline void unlock_kernel(void)
{
    unsigned long flags = local_irq_save();
    int depth = this_cpu_read(kernel_lock_depth);
    if (depth <= 0 || kernel_flag_cpu != smp_processor_id())
        unlock_kernel_bug();           /* not held here: BUG */
    this_cpu_write(kernel_lock_depth, depth - 1);
    if (depth == 1) {
        barrier();
        WRITE_ONCE(kernel_flag_cpu, -1);
    }
    local_irq_restore(flags);
}
#endif
