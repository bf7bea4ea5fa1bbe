/* mm/oom_kill.c: the OOM killer, as Linux's (include/oom.h says when it
 * runs).  The report, in Linux's format and order:
 *
 *   hog invoked oom-killer: gfp_mask=0x38(GFP_USER), order=0
 *   CPU: 0 PID: 9 Comm: hog
 *   Call Trace: ...                        (who was allocating)
 *   Mem-Info:                              (show_mem: the counters, the
 *   active_file:.. inactive_file:.. ...     watermarks, the buddy lists)
 *   Tasks state (memory values in pages):  (every process's size)
 *   [  pid  ]   uid  tgid total_vm      rss name
 *   oom-kill: task=hog,pid=9: the largest rss, 7012 pages
 *   Out of memory: Killed process 9 (hog) total-vm:..kB, anon-rss:..kB, file-rss:..kB
 *
 * Choosing (Linux's oom_badness, without oom_score_adj and swap): the
 * process with the most resident pages of its own, zero-page PTEs not
 * counted (oom_badness below).  Never init (pid 1: the system
 * would go with it), never a kernel thread, never one already exiting.
 * Simplification: Linux also counts page tables, prefers a child over its
 * parent in some versions ("or sacrifice child"), and has an OOM reaper
 * that frees a stuck victim's memory; we wait OOM_VICTIM_WAIT for the
 * victim, then choose again.
 */
#include <kernel.h>
#include <mm.h>
#include <sched.h>
#include <signal.h>
#include <proc.h>
#include <swap.h>
#include <vmstat.h>
#include <oom.h>
#include <timer.h>
#include <asm/pgtable.h>

unsigned long oom_kill_count;
int oom_last_victim_pid;
static unsigned long oom_victim_since;        /* jiffies of the last kill */

#define OOM_VICTIM_WAIT (5 * HZ)

/* Resident pages of mm by kind: page-cache pages, anonymous ones (the zero
 * page is neither, as in Linux's counters). */
static void mm_rss_split(struct mm_struct *mm, unsigned long *anon, unsigned long *file)
{
    struct vm_area_struct *v;
    *anon = *file = 0;
    if (!mm->pgd)
        return;
    list_for_each_entry(v, &mm->mmap, vm_list)
        for (unsigned long va = v->vm_start; va < v->vm_end; va += PAGE_SIZE) {
            pte_t *ptep = lookup_pte((pgd_t *)mm->pgd, va);
            if (!ptep) {                /* no page table: on to the next 4 MiB */
                va = (va & ~(PGDIR_SIZE - 1)) + PGDIR_SIZE - PAGE_SIZE;
                continue;
            }
            if (!pte_has_page(*ptep) || is_zero_pfn(pte_pfn(*ptep)))
                continue;
            if (pfn_to_page(pte_pfn(*ptep))->mapping)
                (*file)++;
            else
                (*anon)++;
        }
}

/* How bad killing mm's process would be for memory, in pages: its resident
 * pages that are its own, page-cache and anonymous (Linux's oom_badness:
 * get_mm_rss, without swap, page tables and oom_score_adj).  Not mm->rss:
 * that counts zero-page PTEs too (mm/memory.c's header), and a process
 * that only read a large private mapping holds no memory for them, so
 * killing it would free nothing (today's Linux leaves the zero page out of
 * rss: vm_normal_page is NULL for it). */
static unsigned long oom_badness(struct mm_struct *mm)
{
    unsigned long anon, file;
    mm_rss_split(mm, &anon, &file);
    return anon + file;
}

static const char *gfp_name(gfp_t gfp)
{
    gfp &= ~(__GFP_ZERO | __GFP_NOWARN);
    if (gfp == GFP_USER)
        return "GFP_USER";
    if (gfp == GFP_KERNEL)
        return "GFP_KERNEL";
    if (gfp == GFP_ATOMIC)
        return "GFP_ATOMIC";
    return "?";
}

static void dump_tasks(void)
{
    struct task_struct *t;
    printk(KERN_INFO "Tasks state (memory values in pages):\n");
    printk(KERN_INFO "[  pid  ]   uid  tgid total_vm      rss name\n");
    list_for_each_entry(t, &task_list, tasks) {
        if (!t->is_process || !t->mm || t->exit_state)
            continue;
        printk(KERN_INFO "[%7d] %5d %5d %8lu %8lu %s\n", t->pid, 0, t->pid,
               t->mm->total_vm, oom_badness(t->mm), t->comm);
    }
}

/* The process to kill, or NULL; *points its oom_badness.  A victim still exiting
 * makes it ERR (-EAGAIN): wait for that one first. */
static struct task_struct *select_bad_process(unsigned long *points)
{
    struct task_struct *t, *chosen = NULL;
    *points = 0;
    list_for_each_entry(t, &task_list, tasks) {
        if (!t->is_process || t->exit_state || t == init_process || t->pid == 1)
            continue;
        /* A victim not yet reaped, even one whose mm is already gone
         * (do_exit clears it before exit_mmap frees the pages, which may
         * sleep): its memory is on its way back. */
        if (t->flags & PF_MEMDIE) {
            if (jiffies - oom_victim_since < OOM_VICTIM_WAIT)
                return (struct task_struct *)-1L;
            continue;                   /* stuck: choose another */
        }
        if (!t->mm)
            continue;
        unsigned long points_t = oom_badness(t->mm);
        if (!chosen || points_t > *points) {
            chosen = t;
            *points = points_t;
        }
    }
    return chosen;
}

static void oom_kill_process(struct task_struct *victim, unsigned long points)
{
    unsigned long anon, file;
    struct kern_siginfo info = { .code = SI_KERNEL };
    mm_rss_split(victim->mm, &anon, &file);
    printk(KERN_ERR "oom-kill: task=%s,pid=%d: the largest rss, %lu pages of %lu\n",
           victim->comm, victim->pid, points, totalram_pages);
    printk(KERN_ERR "Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
           "file-rss:%lukB, UID:0\n", victim->pid, victim->comm,
           victim->mm->total_vm * (PAGE_SIZE / 1024), anon * (PAGE_SIZE / 1024),
           file * (PAGE_SIZE / 1024));
    victim->flags |= PF_MEMDIE;
    oom_victim_since = jiffies;
    oom_last_victim_pid = victim->pid;
    oom_kill_count++;
    send_signal(victim, SIGKILL, &info);
}

bool out_of_memory(gfp_t gfp, unsigned int order)
{
    struct task_struct *me = current;
    unsigned long points;

    /* Dying already: it will free its memory on the way out. */
    if (fatal_signal_pending(me) && me->mm) {
        me->flags |= PF_MEMDIE;
        return true;
    }
    struct task_struct *victim = select_bad_process(&points);
    if (victim == (struct task_struct *)-1L)
        return true;                    /* the last victim is still exiting */
    printk(KERN_WARNING "%s invoked oom-killer: gfp_mask=%#x(%s), order=%u\n",
           me->comm, gfp, gfp_name(gfp), order);
    printk(KERN_WARNING "CPU: 0 PID: %d Comm: %s\n", me->pid, me->comm);
    dump_stack();
    show_mem();
    dump_tasks();
    if (!victim) {
        printk(KERN_EMERG "Out of memory and no killable processes...\n");
        return false;                   /* the allocation fails (Linux panics) */
    }
    oom_kill_process(victim, points);
    return true;
}

void pagefault_out_of_memory(void)
{
    if (fatal_signal_pending(current))
        return;                         /* dying: SIGKILL is delivered on the way out */
    if (out_of_memory(GFP_USER, 0))
        return;
    /* Nobody else to kill: the faulting process cannot go on without the
     * page, so it is the one to die (init excepted: Linux panics there). */
    if (current->pid == 1)
        panic("Out of memory and no killable processes");
    printk(KERN_ERR "Out of memory: killing the faulting process %d (%s)\n",
           current->pid, current->comm);
    struct kern_siginfo info = { .code = SI_KERNEL };
    current->flags |= PF_MEMDIE;
    send_signal(current, SIGKILL, &info);
}
