/* kernel/sched_glue.h: what the scheduler needs from the CPU and memory
 * layers, in one place (private to kernel/sched.c and friends). */
#ifndef _SCHED_GLUE_H
#define _SCHED_GLUE_H
#include <kernel.h>

#include <timer.h>                     /* jiffies, HZ, the tick hook */
#include <asm/segment.h>               /* tss_set_kernel_stack */

/* kernel stacks and task structs (sched.c) */
void *alloc_thread_stack(void);
void free_thread_stack(void *stack);
struct task_struct *alloc_task_struct(void);
void free_task_struct(struct task_struct *t);

#endif
