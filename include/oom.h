/* include/oom.h: the OOM killer (mm/oom_kill.c), as Linux's <linux/oom.h>.
 *
 * When an allocation that may sleep has reclaimed nothing for
 * MAX_RECLAIM_RETRIES rounds (mm/page_alloc.c), memory is held by
 * something reclaim cannot free (anonymous memory: Vellum has no swap), and
 * a process must die.  out_of_memory() prints Linux's report (who asked,
 * the memory summary, every task's size), chooses the process with the
 * largest resident set (not init, not a kernel thread), and kills it with
 * SIGKILL.  The victim gets PF_MEMDIE: its allocations may use the last
 * reserves, so it can exit.  While a victim is still exiting, no second
 * one is chosen (for at most OOM_VICTIM_WAIT).
 */
#ifndef _OOM_H
#define _OOM_H
#include <gfp.h>

struct task_struct;
/* true if memory is on its way back (a victim was killed, one is still
 * exiting, or the caller itself is dying); false if nothing can be killed:
 * the allocation then fails instead of looping for ever. */
bool out_of_memory(gfp_t gfp, unsigned int order);
/* A page fault that could not get memory (VM_FAULT_OOM) outside the
 * allocator's own loop: run the OOM killer, and retry the access.  If
 * nothing else can be killed, the faulting process itself gets SIGKILL
 * (never init: with init alone left, Linux's panic). */
void pagefault_out_of_memory(void);
extern unsigned long oom_kill_count;         /* processes killed since boot */
extern int oom_last_victim_pid;               /* for tests */
#endif
