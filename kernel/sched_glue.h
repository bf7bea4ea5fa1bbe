/* kernel/sched_glue.h: what the scheduler needs from the CPU and memory
 * layers, in one place (private to kernel/sched.c and friends). */
#ifndef _SCHED_GLUE_H
#define _SCHED_GLUE_H
#include <kernel.h>

/* TEMPORARY until the cpu layer lands: jiffies/HZ (include/timer.h) and
 * the TSS's ring-0 stack (tss_set_kernel_stack). Weak fallbacks in sched.c. */
#ifndef HZ
#define HZ 100
#endif
extern volatile unsigned long jiffies;
void tss_set_kernel_stack(unsigned long esp0);

/* kernel stacks and task structs (sched.c) */
void *alloc_thread_stack(void);
void free_thread_stack(void *stack);
struct task_struct *alloc_task_struct(void);
void free_task_struct(struct task_struct *t);

/* "    [<c0101234>] func+0x12/0x40" (sched.c, from the .ksyms table) */
void print_symbol_line(unsigned long addr);
#endif
