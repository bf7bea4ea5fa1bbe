/* mm/fault.c: the page-fault handler (vector 14) and the exception table.
 * Layer: mm.  The cpu layer's trap entry (kernel/x86/traps.c) calls
 * do_page_fault() with the saved registers; this file decides what a fault
 * means:
 *
 *   address in user space (< TASK_SIZE), current has an mm:
 *     kernel mode with page faults disabled  -> fixup at once (no resolving)
 *     otherwise: interrupts back on (if they were on), take mm->mmap_sem,
 *     VMA lookup (growing the stack if the address is just below
 *     a GROWSDOWN VMA), permission check, handle_mm_fault (demand-zero,
 *     copy-on-write, file pages through filemap_fault).  If that fails:
 *       user mode    -> SIGSEGV (SEGV_MAPERR: no VMA; SEGV_ACCERR: the VMA
 *                       forbids the access), SIGBUS when out of memory
 *       kernel mode  -> the exception-table fixup (copy_*_user returns short)
 *   kernel address, or no mm:
 *     user mode      -> SIGSEGV (SEGV_MAPERR, or SEGV_ACCERR for a present
 *                       kernel page)
 *     kernel mode    -> fixup if EIP is in __ex_table, else oops: die()
 *
 * The exception table is described in <asm/uaccess.h>; docs/user-memory.md
 * walks through a fault inside copy_from_user.
 */
#include <kernel.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <asm/pgtable.h>
#include <asm/uaccess.h>

#include <asm/ptrace.h>
#include <asm/traps.h>


/* Page-fault error code bits (pushed by the CPU). */
#define PF_PROT   0x1       /* 0: page not present, 1: protection violation */
#define PF_WRITE  0x2       /* 0: read, 1: write */
#define PF_USER   0x4       /* 0: kernel mode, 1: user mode */

unsigned long page_fault_count;         /* every fault (tests read these) */
unsigned long page_fault_fixups;        /* faults resolved by the exception table */
unsigned long page_fault_atomic_fixups; /* ... taken at once: faults were disabled */
unsigned long page_fault_demand_zero;   /* mm/memory.c */
unsigned long page_fault_cow;
unsigned long page_fault_cow_reuse;
unsigned long page_fault_stack_grow;    /* mm/mmap.c */
unsigned long page_fault_sigsegv;

extern const struct exception_table_entry __start_ex_table[], __stop_ex_table[];

const struct exception_table_entry *search_exception_tables(unsigned long ip)
{
    for (const struct exception_table_entry *e = __start_ex_table; e < __stop_ex_table; e++)
        if (e->insn == ip)
            return e;
    return NULL;
}

/* noinline: one real function for a debugger to stop in (docs/user-memory.md) */
__attribute__((noinline)) int fixup_exception(struct pt_regs *regs)
{
    const struct exception_table_entry *e = search_exception_tables(regs->ip);
    if (!e)
        return 0;
    regs->ip = e->fixup;
    return 1;
}

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

/* ---- the handler ----------------------------------------------------------- */

/* A kernel-mode fault nobody could resolve: fixup or oops. */
static void no_context(struct pt_regs *regs, unsigned long error_code, unsigned long address)
{
    if (fixup_exception(regs)) {
        page_fault_fixups++;
        return;
    }
    die("page fault", regs, error_code);   /* die() prints the one BUG line */
}

/* The access cannot be allowed: a signal for user mode, a fixup (or oops)
 * for the kernel. */
static void bad_area(struct pt_regs *regs, unsigned long error_code, unsigned long address,
                     int sig, int code)
{
    if (error_code & PF_USER) {
        page_fault_sigsegv++;
        force_sig_fault(sig, code, (void *)address);
        return;
    }
    no_context(regs, error_code, address);
}

/* Does the VMA allow this access?  (i386 without NX: read == execute.) */
static bool access_error(unsigned long error_code, struct vm_area_struct *vma)
{
    if (error_code & PF_WRITE)
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
    int fault = handle_mm_fault(vma, address,
                                (error_code & PF_WRITE ? FAULT_FLAG_WRITE : 0) |
                                (error_code & PF_USER ? FAULT_FLAG_USER : 0));
    if (!(fault & VM_FAULT_ERROR))
        return 0;
    if (fault & VM_FAULT_SIGSEGV)
        return SIGSEGV;
    /* Out of memory: Linux invokes the OOM killer; we give the task SIGBUS. */
    *code = BUS_ADRERR;
    return SIGBUS;
}

void do_page_fault(struct pt_regs *regs, unsigned long error_code)
{
    unsigned long address = __read_cr2();   /* first: a nested fault would overwrite it */
    struct task_struct *tsk = current;
    struct mm_struct *mm = tsk->mm;
    page_fault_count++;

    if (address >= TASK_SIZE || !mm) {
        /* A kernel address (or a task without user space): never resolved
         * here; the kernel's own mappings do not fault legitimately. */
        bad_area(regs, error_code, address, SIGSEGV,
                 error_code & PF_PROT ? SEGV_ACCERR : SEGV_MAPERR);
        return;
    }

    /* A user address touched by the kernel with page faults disabled (the
     * atomic copy of the write path, a page lock held): do not resolve,
     * do not sleep; the fixup makes the copy return short. */
    if (!(error_code & PF_USER) && tsk->pagefault_disabled) {
        if (fixup_exception(regs)) {
            page_fault_fixups++;
            page_fault_atomic_fixups++;
            return;
        }
        no_context(regs, error_code, address);   /* no entry: a kernel bug */
        return;
    }

    /* Resolving may sleep (a file page is locked and read from disk), so,
     * as Linux, interrupts go back on if the interrupted code had them on
     * (user mode always; the kernel inside a system call), and the
     * address space is locked: i_mutex -> mmap_sem -> page lock (the
     * order in mm/filemap.c).  A kernel fault here comes from a copy with
     * faults ENABLED; the write path copies with them disabled (above)
     * while it holds a page lock, so we never take mmap_sem under one --
     * except legacy_write_mode=naive, which exists to show why not. */
    bool irqs = regs->flags & X86_EFLAGS_IF;
    if (irqs)
        local_irq_enable();
    mutex_lock(&mm->mmap_sem);
    int code, sig = resolve_user_fault(mm, address, error_code, &code);
    mutex_unlock(&mm->mmap_sem);
    if (irqs)
        local_irq_disable();
    if (sig)
        bad_area(regs, error_code, address, sig, code);
}
