/* mm/fault.c: the page-fault handler (vector 14) and the exception table.
 * The cpu layer's trap entry (kernel/traps.c) calls do_page_fault() with the
 * saved registers; this file decides what a fault means:
 *
 *   kernel mode, EIP listed in __ex_table  -> resume at the fixup (-EFAULT)
 *   kernel mode, otherwise                 -> oops: die()
 *   user mode                              -> (issue 4) VMA lookup, demand
 *                                             paging, copy-on-write, SIGSEGV
 *
 * The exception table is described in <asm/uaccess.h>.
 */
#include <kernel.h>
#include <errno.h>
#include <mm.h>
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

extern const struct exception_table_entry __start_ex_table[], __stop_ex_table[];

const struct exception_table_entry *search_exception_tables(unsigned long ip)
{
    for (const struct exception_table_entry *e = __start_ex_table; e < __stop_ex_table; e++)
        if (e->insn == ip)
            return e;
    return NULL;
}

int fixup_exception(struct pt_regs *regs)
{
    const struct exception_table_entry *e = search_exception_tables(regs->ip);
    if (!e)
        return 0;
    regs->ip = e->fixup;
    return 1;
}

void do_page_fault(struct pt_regs *regs, unsigned long error_code)
{
    unsigned long address = __read_cr2();   /* first: a nested fault would overwrite it */
    page_fault_count++;

    if (error_code & PF_USER) {
        /* TODO(issue 4): find_vma(current->mm, address); demand paging
         * (anonymous zero page, file page from the page cache) and
         * copy-on-write via handle_mm_fault(); no VMA or a permission
         * mismatch -> force_sig(SIGSEGV).  There are no user processes yet. */
        printk(KERN_ALERT "user page fault at %#lx (error %#lx, eip %#lx): "
               "no VMA handling yet\n", address, error_code, regs->ip);
        die("user page fault", regs, error_code);
        return;
    }

    /* Kernel mode.
     * TODO(issue 4): a fault on a user address (address < TASK_SIZE) from a
     * uaccess routine, with !pagefault_disabled() and current->mm set, goes
     * through the same VMA lookup as a user fault first (the page may just
     * not be faulted in yet); only if that fails does the fixup apply. */
    if (fixup_exception(regs)) {
        page_fault_fixups++;
        return;
    }
    printk(KERN_ALERT "BUG: unable to handle kernel %s at %#lx\n",
           address < PAGE_SIZE ? "NULL pointer dereference" : "paging request", address);
    printk(KERN_ALERT "#PF: %s access, %s, eip %#lx\n",
           error_code & PF_WRITE ? "write" : "read",
           error_code & PF_PROT ? "protection violation" : "page not present", regs->ip);
    die("Oops", regs, error_code);
}


/* ---------------------------------------------------------------------- */
/* Tests: test=fault                                                      */
#include <ktest.h>
#include "internal.h"


KTEST(fault, exception_table_is_populated)
{
    /* probe.S contributes two entries; each fixup lies near its insn. */
    KASSERT(__stop_ex_table - __start_ex_table >= 2);
    const struct exception_table_entry *e = search_exception_tables(__start_ex_table[0].insn);
    KEXPECT(e == &__start_ex_table[0]);
    KEXPECT(search_exception_tables((unsigned long)do_page_fault) == NULL);
    KEXPECT(search_exception_tables(0) == NULL);
    struct pt_regs regs = { .ip = (unsigned long)do_page_fault };
    KEXPECT_EQ(fixup_exception(&regs), 0);
    KEXPECT_EQ(regs.ip, (unsigned long)do_page_fault);
    regs.ip = __start_ex_table[1].insn;
    KEXPECT_EQ(fixup_exception(&regs), 1);
    KEXPECT_EQ(regs.ip, __start_ex_table[1].fixup);
}

KTEST(fault, unmapped_kernel_read_returns_efault)
{
    static volatile uint8_t target = 0x5a;
    uint8_t v = 0;
    unsigned long faults0 = page_fault_count, fixups0 = page_fault_fixups;

    int mapped = probe_kernel_read_u8((const void *)&target, &v);
    int top = probe_kernel_read_u8((const void *)0xFFC01234, &v);  /* unused top 4 MiB */
    int null = probe_kernel_read_u8(NULL, &v);                     /* no identity map */
    int user = probe_kernel_read_u8((const void *)0x08048000, &v); /* user half, empty */
    int wnull = probe_kernel_write_u8(NULL, 1);

    KEXPECT_EQ(mapped, 0);
    KEXPECT_EQ(top, -EFAULT);
    KEXPECT_EQ(null, -EFAULT);
    KEXPECT_EQ(user, -EFAULT);
    KEXPECT_EQ(wnull, -EFAULT);
    KEXPECT_EQ(page_fault_count, faults0 + 4);
    KEXPECT_EQ(page_fault_fixups, fixups0 + 4);
    /* The kernel survived and its memory is intact. */
    uint8_t w = 0;
    KEXPECT_EQ(probe_kernel_read_u8((const void *)&target, &w), 0);
    KEXPECT_EQ(w, 0x5a);
}
