/* kernel/x86/traps.c: the IDT, exception handling and the oops report (arch layer).
 *
 * Sets up the 256-entry IDT (32 exceptions, 16 PIC IRQs at 0x20-0x2F, the
 * system call gate 0x80 reachable from ring 3), dispatches every trap frame
 * built by kernel/x86/entry.S (do_trap), and reports fatal kernel faults (die).
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
#include <sched.h>                     /* THREAD_SIZE */

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
    struct { uint16_t limit; uint32_t base; } __attribute__((packed)) idtr =
        { sizeof idt - 1, (uint32_t)(unsigned long)idt };
    __asm__ volatile("lidt %0" :: "m"(idtr));
}

static void trap_init(void)
{
    gdt_init();
    pic_init();
    idt_init();
    printk(KERN_INFO "traps: IDT loaded (exceptions 0-31, IRQs %#x-%#x, syscall %#x)\n",
           FIRST_EXTERNAL_VECTOR, FIRST_EXTERNAL_VECTOR + 15, IA32_SYSCALL_VECTOR);
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

static struct pt_regs *cur_trap_regs;

struct pt_regs *get_trap_regs(void)
{
    return cur_trap_regs;
}

/* force_sig_fault() and exit_to_user_mode() (rescheduling, signal
 * delivery) are the process layer's: kernel/signal.c; syscall_handler() is
 * kernel/syscall.c's. */

static void do_exception(struct pt_regs *regs)
{
    unsigned long vec = regs->trapno;
    if (vec == X86_TRAP_NMI) {
        printk(KERN_WARNING "NMI received (port 0x61 = %#x), ignored\n", inb(0x61));
        return;
    }
    if (user_mode(regs) && vec < 32 && exceptions[vec].sig) {
        force_sig_fault(exceptions[vec].sig, exceptions[vec].code, (void *)regs->ip);
        return;
    }
    die(trap_name(vec), regs, regs->err);
}

#ifdef CONFIG_KTEST
/* The test kernel only: the per-vector hooks of kernel/x86/traps_test.c
 * (which includes this file) see every trap first; true = handled. */
static bool trap_test_hook(struct pt_regs *regs);
#endif

void do_trap(struct pt_regs *regs)
{
    unsigned long vec = regs->trapno;
#ifdef CONFIG_KTEST
    if (trap_test_hook(regs))
        return;
#endif
    struct pt_regs *prev = cur_trap_regs;
    cur_trap_regs = regs;
    if (vec >= FIRST_EXTERNAL_VECTOR && vec < FIRST_EXTERNAL_VECTOR + NR_IRQS) {
        do_IRQ(vec - FIRST_EXTERNAL_VECTOR, regs);
    } else if (vec == IA32_SYSCALL_VECTOR) {
        local_irq_enable();            /* system calls run with interrupts on */
        regs->ax = syscall_handler(regs);
        local_irq_disable();
    } else if (vec == X86_TRAP_PF) {
        do_page_fault(regs, regs->err);
    } else {
        do_exception(regs);
    }
    cur_trap_regs = prev;
}

/* ---- die(): the oops report ------------------------------------------ */

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
    if (user_mode(regs))
        printk(KERN_EMERG "Call Trace:\n  <user mode: no kernel frames>\n");
    else
        show_trace(regs->bp);
    printk(KERN_EMERG "---[ end trace ]---\n");
    panic_halt("Fatal exception");
}
