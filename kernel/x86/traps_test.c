/* kernel/x86/traps_test.c: the ktests of traps.c (test=traps), and the
 * per-vector test hooks that see a trap before do_trap handles it; built
 * into the test kernel only (make check), never into the production kernel.
 * The tests reach traps.c's static functions and data, so this file
 * includes it: in the test kernel the two are one object (Makefile).
 *
 * traps.c has no branch for the hooks: while it is compiled into this file
 * its do_trap is named real_do_trap, and the test kernel's do_trap, below
 * the hooks, offers each trap to them before handing it on (as
 * lib/iov_iter_test.c wraps the iov_iter's entry points). */
#define do_trap real_do_trap
#include "traps.c"
#undef do_trap
#include <ktest.h>

/* A per-vector hook that do_trap runs before the normal handler (the test
 * kernel only).  It returns true if it handled the trap (it may advance
 * regs->ip to skip the faulting instruction, or change any register).
 * trap_set_test_hook installs one (NULL removes it) and returns the
 * previous hook. */
typedef bool (*trap_test_hook_t)(struct pt_regs *regs);
static trap_test_hook_t test_hooks[256];

static trap_test_hook_t trap_set_test_hook(unsigned vector, trap_test_hook_t fn)
{
    if (vector >= 256)
        return NULL;
    trap_test_hook_t old = test_hooks[vector];
    test_hooks[vector] = fn;
    return old;
}

static bool trap_test_hook(struct pt_regs *regs)
{
    trap_test_hook_t fn = regs->trapno < 256 ? test_hooks[regs->trapno] : NULL;
    return fn && fn(regs);
}

/* The test kernel's do_trap (entry.S calls it): the hook first, then traps.c's. */
void do_trap(struct pt_regs *regs)
{
    if (!trap_test_hook(regs))
        real_do_trap(regs);
}

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
    KT_ASSERT_EQ(hook_calls, 1);
    KT_EXPECT_EQ(hook_seen.trapno, X86_TRAP_BP);
    KT_EXPECT_EQ(hook_seen.bx, 0x11111111);
    KT_EXPECT_EQ(hook_seen.cx, 0x22222222);
    KT_EXPECT_EQ(hook_seen.dx, 0x33333333);
    KT_EXPECT_EQ(hook_seen.si, 0x44444444);
    KT_EXPECT_EQ(hook_seen.di, 0x55555555);
    KT_EXPECT_EQ(hook_seen.cs, __KERNEL_CS);
    KT_EXPECT_EQ(hook_seen.ds, __KERNEL_DS);
    KT_EXPECT(!user_mode(&hook_seen));
    /* the registers came back intact */
    KT_EXPECT_EQ(b, 0x11111111);
    KT_EXPECT_EQ(di, 0x55555555);
    /* int3 is a trap: ip is already past the 1-byte instruction, in this function */
    unsigned long off;
    const char *fn = ksym_lookup(hook_seen.ip, &off, NULL);
    KT_EXPECT(fn && !strcmp(fn, "ktest_traps_int3_caught_and_registers_saved"));
}

KTEST(traps, ud2_and_divide_skipped_by_hook)
{
    trap_test_hook_t o6 = trap_set_test_hook(X86_TRAP_UD, hook_skip2);
    trap_test_hook_t o0 = trap_set_test_hook(X86_TRAP_DE, hook_skip2);
    hook_calls = 0;
    unsigned long a = 0;
    __asm__ volatile("ud2" : "+a"(a) :: "memory");     /* 0F 0B */
    KT_EXPECT_EQ(a, 0x1234abcd);
    KT_EXPECT_EQ(hook_seen.trapno, X86_TRAP_UD);
    unsigned long eax = 100, edx = 0, ecx = 0;
    __asm__ volatile("divl %%ecx" : "+a"(eax), "+d"(edx) : "c"(ecx) : "memory");   /* F7 F1 */
    KT_EXPECT_EQ(hook_seen.trapno, X86_TRAP_DE);
    KT_EXPECT_EQ(eax, 0x1234abcd);
    trap_set_test_hook(X86_TRAP_UD, o6);
    trap_set_test_hook(X86_TRAP_DE, o0);
    KT_EXPECT_EQ(hook_calls, 2);
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
    KT_ASSERT_EQ(hook_calls, 2);
    KT_EXPECT_EQ(rd.trapno, X86_TRAP_PF);
    KT_EXPECT_EQ(rd.ax, 0xFFC00010);                     /* CR2, saved by the hook */
    KT_EXPECT_EQ(rd.err, 0);                             /* not present, read, kernel */
    KT_EXPECT_EQ(wr.ax, 0xFFC00014);
    KT_EXPECT_EQ(wr.err, X86_PF_WRITE);
}

KTEST(traps, double_fault_is_a_task_gate)
{
    /* vector 8: present, DPL 0, task gate to the double-fault TSS */
    KT_EXPECT_EQ(idt[X86_TRAP_DF].type_attr, GATE_TASK);
    KT_EXPECT_EQ(idt[X86_TRAP_DF].selector, __DOUBLEFAULT_TSS_SEL);
    /* every other exception stays an interrupt gate on the current stack */
    KT_EXPECT_EQ(idt[X86_TRAP_PF].type_attr, GATE_INTR_KERNEL);
    KT_EXPECT_EQ(idt[X86_TRAP_GP].type_attr, GATE_INTR_KERNEL);
}

KTEST(traps, syscall_gate_returns_enosys)
{
    long ret = 4242;
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(9999) : "memory");
    KT_EXPECT_EQ(ret, -ENOSYS);
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
    KT_ASSERT(!(cr4 & 0x20));            /* no PAE: two-level tables */
    uint32_t *pgdir = phys_to_virt(read_cr3() & PAGE_MASK);
    unsigned pde_idx = USER_TEST_VA >> 22;
    KT_ASSERT(!(pgdir[pde_idx] & 1));   /* the test needs an unused 4 MiB slot */
    unsigned long phys = virt_to_phys(user_area);
    KT_ASSERT((phys >> 22) == ((phys + sizeof user_area - 1) >> 22));  /* one 4 MiB page */
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

    KT_ASSERT_EQ(user_syscalls, 2);
    KT_EXPECT_EQ(user_sys1.cs, __USER_CS);
    KT_EXPECT_EQ(user_sys1.ss, __USER_DS);
    KT_EXPECT_EQ(user_sys1.ds, __USER_DS);
    KT_EXPECT_EQ(user_sys1.orig_ax, 7777);
    /* the frame sits at the very top of the TSS esp0 stack */
    KT_EXPECT_EQ(user_regs_addr + sizeof(struct pt_regs),
               (unsigned long)user_kstack + sizeof user_kstack);
    KT_EXPECT_EQ(user_sys1.sp, uva + sizeof user_area);
    KT_EXPECT(user_sys1.ip > uva && user_sys1.ip < uva + 32);
    KT_EXPECT(user_sys1.flags & X86_EFLAGS_IF);
    KT_EXPECT(user_mode(&user_exit));
    KT_EXPECT_EQ(user_exit.bx, (unsigned long)-ENOSYS);   /* result seen in ring 3 */
    KT_EXPECT_EQ(user_exit.cx, __USER_DS);
    KT_EXPECT(ticks_in_ring3 >= 1);      /* the tick above came from ring 3 */
}

/* A backtrace taken inside a trap from kernel code goes on through the trap
 * frame (walk_stack_bounded, kernel/ksyms.c): past common_entry come the
 * interrupted instruction and the interrupted code's callers. */
static unsigned long trap_trace[STACK_TRACE_DEPTH];
static int trap_trace_n;

static bool hook_backtrace(struct pt_regs *regs)
{
    trap_trace_n = save_stack_trace(trap_trace, STACK_TRACE_DEPTH);
    hook_seen = *regs;
    return true;
}

KTEST(traps, backtrace_crosses_the_trap_frame)
{
    trap_test_hook_t old = trap_set_test_hook(X86_TRAP_BP, hook_backtrace);
    trap_trace_n = 0;
    __asm__ volatile("int3" ::: "memory");
    trap_set_test_hook(X86_TRAP_BP, old);
    int entry = -1, ip = -1, caller = -1;
    for (int k = 0; k < trap_trace_n; k++) {
        const char *fn = ksym_lookup(trap_trace[k] - 1, NULL, NULL);
        if (trap_trace[k] == trap_return_address && entry < 0)
            entry = k;
        else if (trap_trace[k] == hook_seen.ip && ip < 0)
            ip = k;
        else if (fn && !strcmp(fn, "ktest_run") && caller < 0)
            caller = k;
    }
    KT_EXPECT(entry >= 0);                       /* the trap entry's frame */
    KT_EXPECT(ip == entry + 1);                  /* then the int3's place, exact */
    KT_EXPECT(caller > ip);                      /* then this test's caller */
    const char *fn = ip >= 0 ? ksym_lookup(trap_trace[ip] - 1, NULL, NULL) : NULL;
    KT_EXPECT(fn && !strcmp(fn, "ktest_traps_backtrace_crosses_the_trap_frame"));
}
