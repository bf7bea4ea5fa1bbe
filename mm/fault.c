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

/* (Quoted path: <asm/ptrace.h> would also find the host's Linux header.) */
#if __has_include("../mm/../include/asm/ptrace.h")   /* ours, never /usr/include/asm */
#include <asm/ptrace.h>
#define HAVE_TRAPS 1
#else
/* Provisional until the cpu helper's <asm/ptrace.h> lands: Linux i386's
 * layout (the order the trap entry pushes registers in).  This file uses
 * only ip and cs. */
struct pt_regs {
    unsigned long bx, cx, dx, si, di, bp, ax;
    unsigned long ds, es, fs, gs;
    unsigned long orig_ax;              /* error code or syscall number */
    unsigned long ip, cs, flags;
    unsigned long sp, ss;               /* only on a privilege change */
};
#define HAVE_TRAPS 0
#endif

void do_page_fault(struct pt_regs *regs, unsigned long error_code);
void die(const char *what, struct pt_regs *regs, unsigned long err);

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

/* die() is the cpu helper's (kernel/panic.c: print the oops with registers
 * and a backtrace, then kill the task or panic).  Until it is linked in,
 * this weak stand-in panics. */
void __attribute__((weak)) die(const char *what, struct pt_regs *regs, unsigned long err)
{
    panic("%s: error %#lx at eip %#lx", what, err, regs->ip);
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

#if !HAVE_TRAPS
/* ---------------------------------------------------------------------- */
/* Test scaffolding, compiled only while the cpu layer (IDT, GDT, trap
 * entry) is missing from this tree: a private GDT and IDT with a vector-14
 * stub that builds a struct pt_regs and calls do_page_fault(), installed
 * only for the duration of a fault test.  Once <asm/ptrace.h> exists, the
 * tests use the real trap path instead. */
#include <asm/irqflags.h>

struct desc_ptr { uint16_t limit; uint32_t base; } __attribute__((packed));
static uint64_t test_gdt[8] __attribute__((aligned(8)));
static uint64_t test_idt[256] __attribute__((aligned(8)));
static struct desc_ptr saved_gdt, saved_idt;
static unsigned long saved_flags;
extern char test_pf_entry[];

__asm__(".text\n"
        "test_pf_entry:\n"                  /* CPU pushed flags, cs, ip, error */
        "  pushl %gs; pushl %fs; pushl %es; pushl %ds\n"
        "  pushl %eax; pushl %ebp; pushl %edi; pushl %esi\n"
        "  pushl %edx; pushl %ecx; pushl %ebx\n"
        "  movl %esp, %eax\n"
        "  pushl 44(%eax)\n"                /* error code */
        "  pushl %eax\n"                    /* regs */
        "  call do_page_fault\n"
        "  addl $8, %esp\n"
        "  popl %ebx; popl %ecx; popl %edx; popl %esi\n"
        "  popl %edi; popl %ebp; popl %eax\n"
        "  addl $20, %esp\n"                /* segments (unchanged), error code */
        "  iret\n");

void mm_test_traps_enter(void);
void mm_test_traps_exit(void);

void mm_test_traps_enter(void)
{
    uint16_t cs;
    saved_flags = local_irq_save();
    __asm__ volatile("mov %%cs, %0" : "=r"(cs));
    BUG_ON((cs >> 3) >= 8);
    __asm__ volatile("sgdt %0; sidt %1; mov %%cs, %2" : "=m"(saved_gdt), "=m"(saved_idt), "=r"(cs));
    for (int i = 1; i < 8; i++)             /* flat 4 GiB segments */
        test_gdt[i] = i == (cs >> 3) ? 0x00CF9A000000FFFFull : 0x00CF92000000FFFFull;
    uint32_t off = (uint32_t)test_pf_entry;
    test_idt[14] = (off & 0xFFFF) | ((uint64_t)cs << 16) | (0x8E00ull << 32) |
                   ((uint64_t)(off >> 16) << 48);
    struct desc_ptr g = { sizeof test_gdt - 1, (uint32_t)test_gdt };
    struct desc_ptr d = { sizeof test_idt - 1, (uint32_t)test_idt };
    __asm__ volatile("lgdt %0; lidt %1" :: "m"(g), "m"(d) : "memory");
}

void mm_test_traps_exit(void)
{
    __asm__ volatile("lgdt %0; lidt %1" :: "m"(saved_gdt), "m"(saved_idt) : "memory");
    local_irq_restore(saved_flags);
}

/* Without the cpu layer there is no IDT either, and the BIOS leaves the
 * timer interrupt unmasked: once kmain enables interrupts, the first tick
 * would triple-fault now that low memory (where the real-mode IDTR points)
 * is unmapped.  Mask the PICs until the cpu layer takes over. */
#include <init.h>
#include <asm/io.h>
static void mask_pics_until_traps_exist(void)
{
    outb(0x21, 0xff);
    outb(0xa1, 0xff);
}
mm_initcall(mask_pics_until_traps_exist);
#else
void mm_test_traps_enter(void) { }
void mm_test_traps_exit(void) { }
#endif

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

    mm_test_traps_enter();
    int mapped = probe_kernel_read_u8((const void *)&target, &v);
    int top = probe_kernel_read_u8((const void *)0xFFC01234, &v);  /* unused top 4 MiB */
    int null = probe_kernel_read_u8(NULL, &v);                     /* no identity map */
    int user = probe_kernel_read_u8((const void *)0x08048000, &v); /* user half, empty */
    int wnull = probe_kernel_write_u8(NULL, 1);
    mm_test_traps_exit();

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
