/* kernel/x86/traps.c: the IDT, exception handling and the oops report (arch layer).
 *
 * Sets up the 256-entry IDT (32 exceptions, 16 ISA IRQs at 0x20-0x2F, the
 * system call gate 0x80 reachable from ring 3, the local APIC's vectors
 * 0xEF-0xFF), dispatches every trap frame
 * built by kernel/x86/entry.S (do_trap): system calls through the table of
 * kernel/syscall.c (syscall_handler), page faults to do_page_fault, and
 * reports fatal kernel faults (die).
 *
 * The oops format (a host-side test greps these lines; keep them stable):
 *
 *   BUG: unable to handle page fault for address: 0x00000000     (#PF only)
 *   #PF error_code(0x0002): not-present page, write, kernel mode  (#PF only;
 *        "protection violation" for a present page, "read"/"write",
 *        "kernel mode"/"user mode", then ", reserved bit" and
 *        ", instruction fetch" when those bits are set)
 *   Oops: page fault: 0002 [#1]             (exception name: error code, count)
 *   EIP: oops_null_deref+0x5/0x20           (function+offset/size, or the bare
 *                                            address 0x%08lx if not in kernel text)
 *   CS:EIP: 0008:c0101234 vector: 14
 *   EAX: 00000000 EBX: 00000000 ECX: 00000000 EDX: 00000000
 *   ESI: 00000000 EDI: 00000000 EBP: c0108fe8 ESP: c0108fd8
 *   DS: 0010 ES: 0010 FS: 0000 GS: 0000 SS: 0010 EFLAGS: 00010246
 *   CR0: 80010011 CR2: 00000000 CR3: 00102000 CR4: 00000010
 *   Call Trace:
 *     [<c01234ab>] name+0xoff/0xsize     (one line per frame, innermost caller first)
 *   ---[ end trace ]---
 *   Kernel panic - not syncing: Fatal exception
 *
 * Exception names are Linux's: "divide error", "debug", "nmi", "int3",
 * "overflow", "bounds", "invalid opcode", "device not available",
 * "double fault", "coprocessor segment overrun", "invalid TSS",
 * "segment not present", "stack segment", "general protection fault",
 * "page fault", ... .  panic() prints "Kernel panic - not syncing: MSG" and a
 * Call Trace of its caller in the same format.  Under test= or oops= the
 * machine then leaves QEMU with status 7 (qemu_exit(3)); otherwise it halts.
 */
#include <kernel.h>
#include <smp_lock.h>
#include <string.h>
#include <errno.h>
#include <init.h>
#include <irq.h>
#include <ksyms.h>
#include <timer.h>
#include <console.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/segment.h>
#include <asm/traps.h>
#include <asm/layout.h>
#include <smp.h>
#include <sched.h>                     /* THREAD_SIZE */
#include <syscalls.h>                  /* the system call table */
#include <mm.h>                        /* resolve_user_fault */
#include <signal.h>                    /* force_sig_fault */
#include <asm/uaccess.h>               /* the exception table, the fault counters */
#include <asm/pgtable.h>               /* __read_cr2 */
#include <asm/unistd.h>
#include "apic.h"                      /* the local APIC's vectors */

/* ---- the IDT ---------------------------------------------------------- */

struct gate_desc {
    uint16_t offset_low;
    uint16_t selector;
    uint8_t  zero;
    uint8_t  type_attr;                /* P | DPL | 0 | type (0xE: 32-bit interrupt gate) */
    uint16_t offset_high;
} __attribute__((packed));

#define GATE_INTR_KERNEL 0x8E          /* present, DPL 0, interrupt gate (IF cleared) */
#define GATE_INTR_USER   0xEE          /* present, DPL 3: int $n allowed from ring 3 */
#define GATE_TASK        0x85          /* present, DPL 0, task gate (selector = a TSS) */

static struct gate_desc idt[256] __attribute__((aligned(8)));

static void set_gate(unsigned vec, unsigned long handler, uint8_t type)
{
    idt[vec].offset_low = handler & 0xFFFF;
    idt[vec].offset_high = handler >> 16;
    idt[vec].selector = __KERNEL_CS;
    idt[vec].zero = 0;
    idt[vec].type_attr = type;
}

static void idt_init(void)
{
    for (unsigned v = 0; v < 48; v++)
        set_gate(v, trap_stub_table[v], GATE_INTR_KERNEL);
    /* int3 and into are meant to be used by programs (debuggers): allowed
     * from ring 3, as Linux.  Everything else raised by "int $n" from user
     * mode is a #GP. */
    set_gate(X86_TRAP_BP, trap_stub_table[X86_TRAP_BP], GATE_INTR_USER);
    set_gate(X86_TRAP_OF, trap_stub_table[X86_TRAP_OF], GATE_INTR_USER);
    set_gate(IA32_SYSCALL_VECTOR, (unsigned long)trap_stub_syscall, GATE_INTR_USER);
    /* #DF switches to its own task and stack (kernel/x86/doublefault.c): a
     * stack overflow's double fault cannot push onto the stack that just
     * ran out.  A task gate's offset is unused. */
    set_gate(X86_TRAP_DF, 0, GATE_TASK);
    idt[X86_TRAP_DF].selector = __DOUBLEFAULT_TSS_SEL;
    /* The local APIC's vectors: its timer, the IPIs, the spurious vector
     * (kernel/x86/apic.h, smp.c). */
    for (unsigned i = 0; i < NR_APIC_VECTORS; i++)
        set_gate(apic_vectors[i], apic_stub_table[i], GATE_INTR_KERNEL);
    idt_load();
}

void idt_load(void)
{
    struct { uint16_t limit; uint32_t base; } __attribute__((packed)) idtr =
        { sizeof idt - 1, (uint32_t)(unsigned long)idt };
    __asm__ volatile("lidt %0" :: "m"(idtr));
}

/* Linux's sort_main_extable (kernel/extable.c) and sort_extable
 * (lib/extable.c).  Simplified: an insertion sort instead of lib/sort.c's
 * heapsort: the table has a few dozen entries, in nearly sorted link order. */
void sort_extable(struct exception_table_entry *start, struct exception_table_entry *end)
{
    for (struct exception_table_entry *e = start + 1; e < end; e++) {
        struct exception_table_entry x = *e, *p = e;
        for (; p > start && p[-1].insn > x.insn; p--)
            p[0] = p[-1];
        *p = x;
    }
}

static void sort_main_extable(void)
{
    sort_extable(__start_ex_table, __stop_ex_table);
}

static void trap_init(void)
{
    /* First: no fault may need the table before it is sorted, and .rodata
     * is still writable (mm_init's paging_init write-protects it). */
    sort_main_extable();
    gdt_init();
    pic_init();
    idt_init();
    printk(KERN_INFO "traps: IDT loaded (exceptions 0-31, IRQs %#x-%#x, syscall %#x, "
           "local APIC %#x-%#x)\n", FIRST_EXTERNAL_VECTOR, FIRST_EXTERNAL_VECTOR + 15,
           IA32_SYSCALL_VECTOR, LOCAL_TIMER_VECTOR, SPURIOUS_APIC_VECTOR);
}
arch_initcall(trap_init);

/* ---- exception table -------------------------------------------------- */

static const struct {
    const char *name;
    int sig, code;
} exceptions[32] = {
    [X86_TRAP_DE]  = { "divide error", SIGFPE, FPE_INTDIV },
    [X86_TRAP_DB]  = { "debug", SIGTRAP, 0 },
    [X86_TRAP_NMI] = { "nmi", 0, 0 },
    [X86_TRAP_BP]  = { "int3", SIGTRAP, TRAP_BRKPT },
    [X86_TRAP_OF]  = { "overflow", SIGSEGV, 0 },
    [X86_TRAP_BR]  = { "bounds", SIGSEGV, 0 },
    [X86_TRAP_UD]  = { "invalid opcode", SIGILL, ILL_ILLOPN },
    [X86_TRAP_NM]  = { "device not available", SIGSEGV, 0 },
    [X86_TRAP_DF]  = { "double fault", SIGSEGV, 0 },
    [X86_TRAP_OLD_MF] = { "coprocessor segment overrun", SIGFPE, 0 },
    [X86_TRAP_TS]  = { "invalid TSS", SIGSEGV, 0 },
    [X86_TRAP_NP]  = { "segment not present", SIGBUS, 0 },
    [X86_TRAP_SS]  = { "stack segment", SIGBUS, 0 },
    [X86_TRAP_GP]  = { "general protection fault", SIGSEGV, 0 },
    [X86_TRAP_PF]  = { "page fault", SIGSEGV, SEGV_MAPERR },
    [X86_TRAP_SPURIOUS] = { "spurious interrupt bug", 0, 0 },
    [X86_TRAP_MF]  = { "coprocessor error", SIGFPE, 0 },
    [X86_TRAP_AC]  = { "alignment check", SIGBUS, BUS_ADRALN },
    [X86_TRAP_MC]  = { "machine check", SIGBUS, 0 },
    [X86_TRAP_XF]  = { "simd floating point", SIGFPE, 0 },
    [X86_TRAP_VE]  = { "virtualization", SIGSEGV, 0 },
};

static const char *trap_name(unsigned long vec)
{
    if (vec < 32)
        return exceptions[vec].name ? exceptions[vec].name : "reserved exception";
    if (vec >= FIRST_EXTERNAL_VECTOR && vec < FIRST_EXTERNAL_VECTOR + 16)
        return "hardware interrupt";
    if (vec == IA32_SYSCALL_VECTOR)
        return "system call";
    return "unknown vector";
}

/* ---- dispatch --------------------------------------------------------- */

static DEFINE_PER_CPU(struct pt_regs *, cur_trap_regs);   /* each CPU's innermost frame */

struct pt_regs *get_trap_regs(void)
{
    return this_cpu_read(cur_trap_regs);
}

/* force_sig_fault() and exit_to_user_mode() (rescheduling, signal
 * delivery) are the process layer's: kernel/signal.c. */

unsigned long syscall_count;           /* every system call (tests, /proc) */

/* int $0x80: the number in orig_ax, the arguments in bx..bp; the result
 * goes back in ax (do_trap stores it).  The table is kernel/syscall.c's.
 * (Linux's do_int80_syscall_32, arch/x86/entry/common.c.) */
long syscall_handler(struct pt_regs *regs)
{
    unsigned long nr = regs->orig_ax;
    syscall_fn_t fn = nr < NR_syscalls ? sys_call_table[nr] : NULL;

    stat_inc(syscall_count);
    if (!fn || fn == (syscall_fn_t)(void (*)(void))sys_ni_syscall)
        fn = NULL;                     /* ni_syscall, below */
    else if (sys_call_unlocked[nr])    /* SMP step 5: no big kernel lock */
        return fn(regs->bx, regs->cx, regs->dx, regs->si, regs->di, regs->bp);
    lock_kernel();
    long ret = fn ? fn(regs->bx, regs->cx, regs->dx, regs->si, regs->di, regs->bp)
                  : ni_syscall(regs, nr);
    unlock_kernel();
    return ret;
}

static void do_exception(struct pt_regs *regs)
{
    unsigned long vec = regs->trapno;
    if (vec == X86_TRAP_NMI) {
        printk(KERN_WARNING "NMI received (port 0x61 = %#x), ignored\n", inb(0x61));
        return;
    }
    lock_kernel();
    if (user_mode(regs) && vec < 32 && exceptions[vec].sig)
        force_sig_fault(exceptions[vec].sig, exceptions[vec].code, (void *)regs->ip);
    else
        die(trap_name(vec), regs, regs->err);
    unlock_kernel();
}

/* Every vector's C entry.  The big kernel lock (include/smp_lock.h) is
 * taken for a system call by syscall_handler (but for the calls that run
 * without it, SMP step 5), and by the others where they can: the page
 * fault after it has read CR2, an exception but the NMI (which must not
 * wait), a device's interrupt before its EOI (do_IRQ); the local APIC's
 * vectors take what they need (kernel/x86/smp.c). */
void do_trap(struct pt_regs *regs)
{
    unsigned long vec = regs->trapno;
    struct pt_regs *prev = this_cpu_read(cur_trap_regs);
    this_cpu_write(cur_trap_regs, regs);
    if (vec >= FIRST_EXTERNAL_VECTOR && vec != IA32_SYSCALL_VECTOR) {
        do_interrupt(vec, regs);       /* a device's IRQ or the local APIC's */
    } else if (vec == IA32_SYSCALL_VECTOR) {
        local_irq_enable();            /* system calls run with interrupts on */
        regs->ax = syscall_handler(regs);   /* the big kernel lock: in there */
        local_irq_disable();
    } else if (vec == X86_TRAP_PF) {
        do_page_fault(regs, regs->err);
    } else {
        do_exception(regs);
    }
    this_cpu_write(cur_trap_regs, prev);
}

/* ---- the page fault: vector 14 ---------------------------------------------
 * The x86 half of a page fault: CR2, the error code, the exception-table
 * fixup, the oops.  What a fault on a user address means (VMA lookup, stack
 * growth, permissions, handle_mm_fault) is mm's: resolve_user_fault() in
 * mm/fault.c.  Simplification: Linux keeps all of it in arch/x86/mm/fault.c
 * and the table search in kernel/extable.c; here the write path's fixup is
 * read right below the trap dispatch. */

/* Binary search of the table sorted at boot (Linux's search_extable via
 * search_exception_tables; Linux also searches each module's table). */
const struct exception_table_entry *search_exception_tables(unsigned long ip)
{
    const struct exception_table_entry *lo = __start_ex_table, *hi = __stop_ex_table;
    while (lo < hi) {                      /* the entry, if any, is in [lo, hi) */
        const struct exception_table_entry *mid = lo + (hi - lo) / 2;
        if (mid->insn < ip)
            lo = mid + 1;
        else if (mid->insn > ip)
            hi = mid;
        else
            return mid;
    }
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

/* A kernel-mode fault nobody could resolve: fixup or oops. */
static void no_context(struct pt_regs *regs, unsigned long error_code, unsigned long address)
{
    if (fixup_exception(regs)) {
        stat_inc(page_fault_fixups);
        return;
    }
    die("page fault", regs, error_code);   /* die() prints the one BUG line */
}

/* The access cannot be allowed: a signal for user mode, a fixup (or oops)
 * for the kernel. */
static void bad_area(struct pt_regs *regs, unsigned long error_code, unsigned long address,
                     int sig, int code)
{
    if (error_code & X86_PF_USER) {
        stat_inc(page_fault_sigsegv);
        force_sig_fault(sig, code, (void *)address);
        return;
    }
    no_context(regs, error_code, address);
}

/* A user address touched by the kernel with page faults disabled (the
 * atomic copy of the write path, a page lock held): the fault is not
 * resolved and nothing sleeps; the fixup makes the copy return short, and
 * no fixup is a kernel bug: an oops (Linux: faulthandler_disabled() sends
 * the fault to no_context).  Returns true if it was such a fault. */
static bool handle_atomic_fault(struct pt_regs *regs, unsigned long error_code,
                                unsigned long address)
{
    if ((error_code & X86_PF_USER) || !current->pagefault_disabled)
        return false;
    no_context(regs, error_code, address);   /* returns only if fixed up */
    stat_inc(page_fault_atomic_fixups);
    return true;
}

void do_page_fault(struct pt_regs *regs, unsigned long error_code)
{
    unsigned long address = __read_cr2();   /* first: a nested fault would overwrite it */
    struct mm_struct *mm = current->mm;
    stat_inc(page_fault_count);
    /* The atomic copy's fault needs no lock: nothing is resolved. */
    if (address < TASK_SIZE && mm && handle_atomic_fault(regs, error_code, address))
        return;
    /* The big kernel lock (after CR2: it may wait with interrupts on), from
     * user mode and from the kernel alike: a copy_from_user of a system
     * call that runs without it (SMP step 5) faults here too. */
    lock_kernel();
    if (address >= TASK_SIZE || !mm) {
        /* A kernel address (or a task without user space): never resolved
         * here; the kernel's own mappings do not fault legitimately. */
        bad_area(regs, error_code, address, SIGSEGV,
                 error_code & X86_PF_PROT ? SEGV_ACCERR : SEGV_MAPERR);
    } else {
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
        down_read(&mm->mmap_sem);
        int code, sig = resolve_user_fault(mm, address, error_code, &code);
        up_read(&mm->mmap_sem);
        if (irqs)
            local_irq_disable();
        if (sig)
            bad_area(regs, error_code, address, sig, code);
    }
    unlock_kernel();
}

static void print_pf_reason(unsigned long err)
{
    printk(KERN_EMERG "BUG: unable to handle page fault for address: 0x%08lx\n", read_cr2());
    printk(KERN_EMERG "#PF error_code(0x%04lx): %s, %s, %s%s%s\n", err,
           err & X86_PF_PROT ? "protection violation" : "not-present page",
           err & X86_PF_WRITE ? "write" : "read",
           err & X86_PF_USER ? "user mode" : "kernel mode",
           err & X86_PF_RSVD ? ", reserved bit" : "",
           err & X86_PF_INSTR ? ", instruction fetch" : "");
}

void die(const char *what, struct pt_regs *regs, unsigned long err)
{
    static volatile int die_nest;
    static int oops_count;
    char sym[96];

    local_irq_disable();
    if (die_nest++) {
        /* A fault while reporting a fault: say so once, then stop for good. */
        if (die_nest == 2) {
            /* Straight to the UART: printk or a console may be what faults. */
            static const char msg[] = "\ndie: nested fault while reporting an oops; halting\n";
            for (const char *p = msg; *p; p++)
                serial_putc(*p);
            if (under_test())
                qemu_exit(3);
        }
        for (;;)
            hlt();
    }
    smp_send_stop();                   /* the other CPUs: halted, silent */
    if (regs->trapno == X86_TRAP_PF)
        print_pf_reason(err);
    printk(KERN_EMERG "Oops: %s: %04lx [#%d]\n", what, err, ++oops_count);
    ksym_snprint(sym, sizeof sym, regs->ip);
    printk(KERN_EMERG "EIP: %s\n", sym);
    printk(KERN_EMERG "CS:EIP: %04lx:%08lx vector: %lu\n", regs->cs & 0xFFFF, regs->ip,
           regs->trapno);
    unsigned long sp, ss;
    if (user_mode(regs)) {
        sp = regs->sp;
        ss = regs->ss & 0xFFFF;
    } else {
        sp = kernel_stack_pointer(regs);
        ss = __KERNEL_DS;
    }
    printk(KERN_EMERG "EAX: %08lx EBX: %08lx ECX: %08lx EDX: %08lx\n",
           regs->ax, regs->bx, regs->cx, regs->dx);
    printk(KERN_EMERG "ESI: %08lx EDI: %08lx EBP: %08lx ESP: %08lx\n",
           regs->si, regs->di, regs->bp, sp);
    printk(KERN_EMERG "DS: %04lx ES: %04lx FS: %04lx GS: %04lx SS: %04lx EFLAGS: %08lx\n",
           regs->ds & 0xFFFF, regs->es & 0xFFFF, regs->fs & 0xFFFF, regs->gs & 0xFFFF, ss,
           regs->flags);
    printk(KERN_EMERG "CR0: %08lx CR2: %08lx CR3: %08lx CR4: %08lx\n",
           read_cr0(), read_cr2(), read_cr3(), read_cr4());
    if (!user_mode(regs))
        report_stack_overflow(sp);     /* the canary, or sp at the bottom */
    show_regs_call_trace(regs);        /* the faulting code's callers */
    printk(KERN_EMERG "---[ end trace ]---\n");
    panic_halt("Fatal exception");
}
