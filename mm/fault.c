/* mm/fault.c: what a page fault on a user address means, and the fault
 * counters.  Layer: mm.  The x86 handler, do_page_fault() in
 * kernel/x86/traps.c (beside the trap dispatch, with the exception-table
 * fixup), calls resolve_user_fault() for a user address it may resolve:
 *
 *     VMA lookup (growing the stack if the address is just below a
 *     GROWSDOWN VMA), permission check, handle_mm_fault (demand-zero,
 *     copy-on-write, file pages through filemap_fault).  If that fails:
 *       user mode    -> SIGSEGV (SEGV_MAPERR: no VMA; SEGV_ACCERR: the VMA
 *                       forbids the access), SIGBUS (a file page beyond EOF
 *                       or unreadable); out of memory: the OOM killer, then
 *                       the access is retried (never a signal for it)
 *       kernel mode  -> the exception-table fixup (copy_*_user returns short)
 *
 * Also here: pagefault_disable()/pagefault_enable(), which make
 * do_page_fault() go straight to the fixup (the write path's atomic copy),
 * and the page-fault counters (<asm/uaccess.h>).  The exception table is
 * described in <asm/uaccess.h>; docs/user-memory.md walks through a fault
 * inside copy_from_user.
 */
#include <kernel.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <asm/pgtable.h>
#include <asm/uaccess.h>
#include <oom.h>

#include <asm/ptrace.h>
#include <asm/traps.h>


unsigned long page_fault_count;         /* every fault (tests read these) */
unsigned long page_fault_fixups;        /* faults resolved by the exception table */
unsigned long page_fault_atomic_fixups; /* ... taken at once: faults were disabled */
unsigned long page_fault_demand_zero;   /* mm/memory.c */
unsigned long page_fault_cow;
unsigned long page_fault_zero_page;      /* mm/memory.c */
unsigned long page_fault_zero_cow;
unsigned long page_fault_cow_reuse;
unsigned long page_fault_stack_grow;    /* mm/mmap.c */
unsigned long page_fault_sigsegv;

/* ---- page faults disabled ----------------------------------------------- */

void pagefault_disable(void)
{
    current->pagefault_disabled++;
    barrier();          /* the copy must not be moved before the increment */
}

void pagefault_enable(void)
{
    barrier();
    current->pagefault_disabled--;
}

int pagefault_disabled(void)
{
    return current->pagefault_disabled != 0;
}

/* Does the VMA allow this access?  (i386 without NX: read == execute.) */
static bool access_error(unsigned long error_code, struct vm_area_struct *vma)
{
    if (error_code & X86_PF_WRITE)
        return !(vma->vm_flags & VM_WRITE);
    return !(vma->vm_flags & (VM_READ | VM_EXEC));
}

int resolve_user_fault(struct mm_struct *mm, unsigned long address,
                       unsigned long error_code, int *code)
{
    /* Caller holds mm->mmap_sem (do_page_fault takes it; interrupts are on
     * if they were on at the fault: a file-backed fault sleeps on the page
     * lock and the disk read). */
    struct vm_area_struct *vma = find_vma(mm, address);
    *code = SEGV_MAPERR;
    if (!vma)
        return SIGSEGV;
    if (vma->vm_start > address) {
        /* Linux (before 2023) also rejected user accesses far below the
         * stack pointer; we only check the limit and the guard gap. */
        if (!(vma->vm_flags & VM_GROWSDOWN) || expand_stack(vma, address))
            return SIGSEGV;
    }
    *code = SEGV_ACCERR;
    if (access_error(error_code, vma))
        return SIGSEGV;
    unsigned long maj = current->maj_flt;
    int fault = handle_mm_fault(vma, address,
                                (error_code & X86_PF_WRITE ? FAULT_FLAG_WRITE : 0) |
                                (error_code & X86_PF_USER ? FAULT_FLAG_USER : 0));
    if (!(fault & VM_FAULT_ERROR)) {
        if (current->maj_flt == maj)
            current->min_flt++;        /* no read waited for (getrusage) */
        return 0;
    }
    if (fault & VM_FAULT_SIGSEGV)
        return SIGSEGV;
    if (fault & VM_FAULT_OOM) {
        /* No memory, even after reclaim (the allocation's own loop may
         * already have killed someone).  As Linux's
         * pagefault_out_of_memory: the OOM killer, then return and let
         * the access fault again.  If this task was the victim, SIGKILL is
         * pending and it dies on the way back to user mode.  Never SIGBUS:
         * a stack or bss page is memory like any other. */
        pagefault_out_of_memory();
        return 0;
    }
    *code = BUS_ADRERR;
    return SIGBUS;
}
