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
#include <ktest.h>
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

static trap_test_hook_t test_hooks[256];
static struct pt_regs *cur_trap_regs;

trap_test_hook_t trap_set_test_hook(unsigned vector, trap_test_hook_t fn)
{
    if (vector >= 256)
        return NULL;
    trap_test_hook_t old = test_hooks[vector];
    test_hooks[vector] = fn;
    return old;
}

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

void do_trap(struct pt_regs *regs)
{
    unsigned long vec = regs->trapno;
    struct pt_regs *prev = cur_trap_regs;
    cur_trap_regs = regs;
    if (vec < 256 && test_hooks[vec] && test_hooks[vec](regs))
        goto out;
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
out:
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

/* ---- tests ----------------------------------------------------------- */

static struct pt_regs hook_seen;
static int hook_calls;

static bool hook_record(struct pt_regs *regs)
{
    hook_seen = *regs;
    hook_calls++;
    return true;
}

static bool hook_skip2(struct pt_regs *regs)
{
    hook_seen = *regs;
    hook_seen.ax = read_cr2();         /* for #PF tests; harmless otherwise */
    hook_calls++;
    regs->ip += 2;                     /* all test instructions are 2 bytes */
    regs->ax = 0x1234abcd;             /* visible to the interrupted code */
    return true;
}

KTEST(traps, int3_caught_and_registers_saved)
{
    trap_test_hook_t old = trap_set_test_hook(X86_TRAP_BP, hook_record);
    hook_calls = 0;
    unsigned long b = 0x11111111, c = 0x22222222, d = 0x33333333, s = 0x44444444;
    unsigned long di = 0x55555555;
    __asm__ volatile("int3" : "+b"(b), "+c"(c), "+d"(d), "+S"(s), "+D"(di) :: "memory");
    trap_set_test_hook(X86_TRAP_BP, old);
    KASSERT_EQ(hook_calls, 1);
    KEXPECT_EQ(hook_seen.trapno, X86_TRAP_BP);
    KEXPECT_EQ(hook_seen.bx, 0x11111111);
    KEXPECT_EQ(hook_seen.cx, 0x22222222);
    KEXPECT_EQ(hook_seen.dx, 0x33333333);
    KEXPECT_EQ(hook_seen.si, 0x44444444);
    KEXPECT_EQ(hook_seen.di, 0x55555555);
    KEXPECT_EQ(hook_seen.cs, __KERNEL_CS);
    KEXPECT_EQ(hook_seen.ds, __KERNEL_DS);
    KEXPECT(!user_mode(&hook_seen));
    /* the registers came back intact */
    KEXPECT_EQ(b, 0x11111111);
    KEXPECT_EQ(di, 0x55555555);
    /* int3 is a trap: ip is already past the 1-byte instruction, in this function */
    unsigned long off;
    const char *fn = ksym_lookup(hook_seen.ip, &off, NULL);
    KEXPECT(fn && !strcmp(fn, "ktest_traps_int3_caught_and_registers_saved"));
}

KTEST(traps, ud2_and_divide_skipped_by_hook)
{
    trap_test_hook_t o6 = trap_set_test_hook(X86_TRAP_UD, hook_skip2);
    trap_test_hook_t o0 = trap_set_test_hook(X86_TRAP_DE, hook_skip2);
    hook_calls = 0;
    unsigned long a = 0;
    __asm__ volatile("ud2" : "+a"(a) :: "memory");     /* 0F 0B */
    KEXPECT_EQ(a, 0x1234abcd);
    KEXPECT_EQ(hook_seen.trapno, X86_TRAP_UD);
    unsigned long eax = 100, edx = 0, ecx = 0;
    __asm__ volatile("divl %%ecx" : "+a"(eax), "+d"(edx) : "c"(ecx) : "memory");   /* F7 F1 */
    KEXPECT_EQ(hook_seen.trapno, X86_TRAP_DE);
    KEXPECT_EQ(eax, 0x1234abcd);
    trap_set_test_hook(X86_TRAP_UD, o6);
    trap_set_test_hook(X86_TRAP_DE, o0);
    KEXPECT_EQ(hook_calls, 2);
}

KTEST(traps, page_fault_error_code_and_cr2)
{
    trap_test_hook_t old = trap_set_test_hook(X86_TRAP_PF, hook_skip2);
    hook_calls = 0;
    /* The top 4 MiB are never mapped (asm/layout.h). */
    unsigned long addr = 0xFFC00010, v = 0;
    __asm__ volatile("movl (%%ecx), %%eax" : "+a"(v) : "c"(addr) : "memory");   /* 8B 01 */
    struct pt_regs rd = hook_seen;
    __asm__ volatile("movl %%eax, (%%ecx)" : "+a"(v) : "c"(addr + 4) : "memory"); /* 89 01 */
    struct pt_regs wr = hook_seen;
    trap_set_test_hook(X86_TRAP_PF, old);
    KASSERT_EQ(hook_calls, 2);
    KEXPECT_EQ(rd.trapno, X86_TRAP_PF);
    KEXPECT_EQ(rd.ax, 0xFFC00010);                     /* CR2, saved by the hook */
    KEXPECT_EQ(rd.err, 0);                             /* not present, read, kernel */
    KEXPECT_EQ(wr.ax, 0xFFC00014);
    KEXPECT_EQ(wr.err, X86_PF_WRITE);
}

KTEST(traps, double_fault_is_a_task_gate)
{
    /* vector 8: present, DPL 0, task gate to the double-fault TSS */
    KEXPECT_EQ(idt[X86_TRAP_DF].type_attr, GATE_TASK);
    KEXPECT_EQ(idt[X86_TRAP_DF].selector, __DOUBLEFAULT_TSS_SEL);
    /* every other exception stays an interrupt gate on the current stack */
    KEXPECT_EQ(idt[X86_TRAP_PF].type_attr, GATE_INTR_KERNEL);
    KEXPECT_EQ(idt[X86_TRAP_GP].type_attr, GATE_INTR_KERNEL);
}

KTEST(traps, syscall_gate_returns_enosys)
{
    long ret = 4242;
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(9999) : "memory");
    KEXPECT_EQ(ret, -ENOSYS);
}

/* ---- ring 3 round trip ------------------------------------------------
 * Map a 4 MiB user-accessible alias of the page holding user_area at
 * USER_TEST_VA, copy a few instructions there, iret to ring 3, let them make
 * a system call (which must come in on the TSS esp0 stack with the user's
 * cs/ss/sp in the frame) and a second "exit" call that the test hook turns
 * into a return to ring 0 at user_test_return. */
#define USER_TEST_VA   0x40000000UL
#define USER_EXIT_MAGIC 0xDEAD0001UL

extern const char user_test_code[], user_test_code_end[];
void enter_user_test(unsigned long ip, unsigned long sp);
extern char user_test_return[];
unsigned long user_test_saved_esp;

__asm__(
    ".pushsection .rodata\n"
    "user_test_code:\n"
    "    movl $7777, %eax\n"           /* no such system call */
    "    int $0x80\n"
    "    movl %eax, %ebx\n"            /* -ENOSYS */
    "    movl %ss, %ecx\n"             /* what ring 3 sees */
    "    movl $0xDEAD0001, %eax\n"
    "    int $0x80\n"
    "1:  jmp 1b\n"
    "user_test_code_end:\n"
    ".popsection\n"
    ".text\n"
    ".globl enter_user_test\n"
    "enter_user_test:\n"
    "    pushl %ebp\n"
    "    pushl %ebx\n"
    "    pushl %esi\n"
    "    pushl %edi\n"
    "    movl %esp, user_test_saved_esp\n"
    "    movl 20(%esp), %eax\n"
    "    movl 24(%esp), %ecx\n"
    "    pushl $0x23\n"                /* ss = __USER_DS */
    "    pushl %ecx\n"                 /* esp */
    "    pushl $0x202\n"               /* eflags: IF on */
    "    pushl $0x1B\n"                /* cs = __USER_CS */
    "    pushl %eax\n"                 /* eip */
    "    movl $0x23, %edx\n"
    "    movl %edx, %ds\n"
    "    movl %edx, %es\n"
    "    iret\n"
    ".globl user_test_return\n"
    "user_test_return:\n"
    "    movl user_test_saved_esp, %esp\n"
    "    popl %edi\n"
    "    popl %esi\n"
    "    popl %ebx\n"
    "    popl %ebp\n"
    "    ret\n");

static char user_area[8192] __attribute__((aligned(4096)));
/* The TSS esp0 stack for the ring 3 round trip.  Like every kernel stack
 * (include/sched.h) it is THREAD_SIZE-aligned with a thread_info naming its
 * task at the bottom: an interrupt taken in ring 3 (the timer tick) runs on
 * it, and `current` (esp rounded down) must find the test's own task there,
 * not a NULL or a pointer from the neighbouring data. */
static char user_kstack[THREAD_SIZE] __attribute__((aligned(THREAD_SIZE)));
static unsigned long user_regs_addr;
static struct pt_regs user_sys1, user_exit;
static int user_syscalls;

static bool hook_user_syscall(struct pt_regs *regs)
{
    user_syscalls++;
    if (regs->orig_ax != USER_EXIT_MAGIC) {
        user_sys1 = *regs;
        user_regs_addr = (unsigned long)regs;
        return false;                  /* let the normal path return -ENOSYS */
    }
    user_exit = *regs;
    regs->ip = (unsigned long)user_test_return;
    regs->cs = __KERNEL_CS;
    regs->ds = regs->es = __KERNEL_DS;
    regs->flags = X86_EFLAGS_FIXED;    /* back in ring 0 with interrupts off */
    return true;
}

KTEST(traps, ring3_syscall_round_trip)
{
    unsigned long cr4 = read_cr4();
    KASSERT(!(cr4 & 0x20));            /* no PAE: two-level tables */
    uint32_t *pgdir = phys_to_virt(read_cr3() & PAGE_MASK);
    unsigned pde_idx = USER_TEST_VA >> 22;
    KASSERT(!(pgdir[pde_idx] & 1));   /* the test needs an unused 4 MiB slot */
    unsigned long phys = virt_to_phys(user_area);
    KASSERT((phys >> 22) == ((phys + sizeof user_area - 1) >> 22));  /* one 4 MiB page */
    unsigned long uva = USER_TEST_VA + (phys & 0x3FFFFF);
    __asm__ volatile("mov %0, %%cr4" :: "r"(cr4 | 0x10));         /* PSE */
    pgdir[pde_idx] = (phys & ~0x3FFFFFUL) | 0x87;                  /* P|W|U|PS */
    write_cr3(read_cr3());
    memcpy(user_area, user_test_code, user_test_code_end - user_test_code);

    struct thread_info *ti = (struct thread_info *)user_kstack;
    ti->task = current;
    ti->magic = STACK_END_MAGIC;
    unsigned long old_sp0 = tss_get_kernel_stack();
    tss_set_kernel_stack((unsigned long)user_kstack + sizeof user_kstack);
    trap_test_hook_t old = trap_set_test_hook(IA32_SYSCALL_VECTOR, hook_user_syscall);
    user_syscalls = 0;
    unsigned long flags = local_irq_save();
    /* Let a timer tick become pending (udelay polls the PIT, no interrupt
     * needed): it arrives the moment ring 3 turns interrupts on, so the
     * round trip always includes an interrupt taken from user mode. */
    mdelay(12);
    for (int i = 0; i < 500; i++) {    /* QEMU raises it asynchronously: */
        outb(0x20, 0x0A);              /* OCW3: read the master PIC's IRR */
        if (inb(0x20) & 1)             /* IRQ 0 requested */
            break;
        mdelay(1);
    }
    unsigned long j0 = jiffies;
    enter_user_test(uva, uva + sizeof user_area);  /* returns via user_test_return */
    unsigned long ticks_in_ring3 = jiffies - j0;   /* interrupts still off */
    local_irq_restore(flags);
    trap_set_test_hook(IA32_SYSCALL_VECTOR, old);
    tss_set_kernel_stack(old_sp0);
    pgdir[pde_idx] = 0;
    write_cr3(read_cr3());
    __asm__ volatile("mov %0, %%cr4" :: "r"(cr4));

    KASSERT_EQ(user_syscalls, 2);
    KEXPECT_EQ(user_sys1.cs, __USER_CS);
    KEXPECT_EQ(user_sys1.ss, __USER_DS);
    KEXPECT_EQ(user_sys1.ds, __USER_DS);
    KEXPECT_EQ(user_sys1.orig_ax, 7777);
    /* the frame sits at the very top of the TSS esp0 stack */
    KEXPECT_EQ(user_regs_addr + sizeof(struct pt_regs),
               (unsigned long)user_kstack + sizeof user_kstack);
    KEXPECT_EQ(user_sys1.sp, uva + sizeof user_area);
    KEXPECT(user_sys1.ip > uva && user_sys1.ip < uva + 32);
    KEXPECT(user_sys1.flags & X86_EFLAGS_IF);
    KEXPECT(user_mode(&user_exit));
    KEXPECT_EQ(user_exit.bx, (unsigned long)-ENOSYS);   /* result seen in ring 3 */
    KEXPECT_EQ(user_exit.cx, __USER_DS);
    KEXPECT(ticks_in_ring3 >= 1);      /* the tick above came from ring 3 */
}
