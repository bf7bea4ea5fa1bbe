/* kernel/x86/doublefault.c: the double-fault task and kernel stack overflow
 * reports (arch layer, beside kernel/x86/traps.c and kernel/x86/gdt.c).
 *
 * Why a task gate: when a kernel stack overflows, the faulting instruction
 * pushes into memory that is not mapped (a guard page); the CPU then tries
 * to deliver the #PF by pushing a trap frame on that same stack, which faults
 * again, and that is a double fault (#DF, vector 8).  An ordinary interrupt
 * gate for #DF would push on the same broken stack once more: a triple
 * fault, and the machine resets without a word.  So vector 8 is a TASK gate
 * (as Linux i386: doublefault_tss, arch/x86/kernel/doublefault_32.c): the
 * CPU saves the faulting context into the main TSS (EIP, ESP, EBP, ...) and
 * switches to doublefault_tss, which has its own stack.  The handler reads
 * the faulting registers back out of the main TSS, reports, and panics.
 *
 *   IDT[8] = task gate -> GDT[GDT_ENTRY_DOUBLEFAULT_TSS] -> doublefault_tss
 *                                        eip = doublefault_entry
 *                                        esp = top of doublefault_stack
 *                                        cr3 = swapper_pg_dir (once mm is up)
 *
 * There is no return from the double-fault task: a #DF is always fatal here.
 *
 * Guard pages: Vellum's task stacks are order-1 buddy blocks in the direct
 * map, which uses 4 MiB pages above phys 4 MiB, so they have NO guard page:
 * an overflow there first overwrites the thread_info canary and then whatever
 * lies below (schedule() and die() notice the dead canary afterwards, if the
 * machine lives that long).  Only stacks placed where 4 KiB PTEs exist (the
 * kernel image, phys 0-4 MiB: kernel/oops_test.c's oops=stack) can have an
 * unmapped guard page and so fault at once.  See docs/boot-and-cpu.md. */
#include <kernel.h>
#include <string.h>
#include <init.h>
#include <ksyms.h>
#include <sched.h>
#include <asm/segment.h>
#include <asm/traps.h>
#include <asm/io.h>
#include <asm/layout.h>
#include <asm/pgtable.h>

/* Bytes above the stack base (the thread_info) that still count as "the
 * stack ran out": a report inside them is an overflow in progress. */
#define STACK_OVERFLOW_SLACK 256

struct x86_hw_tss doublefault_tss __attribute__((aligned(16)));

/* The double-fault task's stack: THREAD_SIZE-aligned with a thread_info at
 * its base like every task stack, so `current` (and printk, which may ask
 * for it) works on it; do_double_fault points ->task at the faulting task. */
static union {
    struct thread_info ti;
    unsigned long words[THREAD_SIZE / sizeof(unsigned long)];
} doublefault_stack __attribute__((aligned(THREAD_SIZE)));

void doublefault_entry(void);
/* The task starts here with the error code (always 0 for #DF) on its stack:
 * that word becomes do_double_fault's argument.  ebp = 0 ends backtraces. */
__asm__(".text\n"
        ".globl doublefault_entry\n"
        "doublefault_entry:\n"
        "    xorl %ebp, %ebp\n"
        "    call do_double_fault\n"
        "1:  hlt\n"
        "    jmp 1b\n");

void doublefault_tss_init(void)
{
    extern char boot_stack_top[];
    memset(&doublefault_tss, 0, sizeof doublefault_tss);
    doublefault_tss.sp0 = (unsigned long)boot_stack_top;   /* unused: no ring change */
    doublefault_tss.ss0 = __KERNEL_DS;
    doublefault_tss.ip = (unsigned long)doublefault_entry;
    doublefault_tss.flags = 0x2;       /* reserved bit 1; IF clear */
    doublefault_tss.sp = (unsigned long)&doublefault_stack + THREAD_SIZE;
    doublefault_tss.cs = __KERNEL_CS;
    doublefault_tss.ds = doublefault_tss.es = doublefault_tss.ss = __KERNEL_DS;
    doublefault_tss.fs = __KERNEL_PERCPU;     /* `current` is read through it */
    doublefault_tss.gs = 0;
    doublefault_tss.cr3 = read_cr3();  /* the boot directory, until mm's is loaded */
    doublefault_tss.io_bitmap_base = sizeof doublefault_tss;
    doublefault_stack.ti.task = &init_task;
    doublefault_stack.ti.magic = STACK_END_MAGIC;
}

/* After paging_init the kernel runs on swapper_pg_dir (its kernel half is in
 * every process directory); the double-fault task must use it too: the boot
 * directory maps only the first 16 MiB. */
static void doublefault_use_swapper(void)
{
    doublefault_tss.cr3 = virt_to_phys(swapper_pg_dir);
}
core_initcall(doublefault_use_swapper);

struct task_struct *task_of_stack(unsigned long sp, unsigned long *lo, unsigned long *hi)
{
    extern char boot_stack[], boot_stack_top[];
    struct task_struct *t;
    if (sp >= (unsigned long)boot_stack - PAGE_SIZE && sp < (unsigned long)boot_stack_top) {
        *lo = (unsigned long)boot_stack;
        *hi = (unsigned long)boot_stack_top;
        return &init_task;
    }
    list_for_each_entry(t, &task_list, tasks) {
        unsigned long base = (unsigned long)t->stack;
        if (base && sp >= base - PAGE_SIZE && sp < base + THREAD_SIZE) {
            *lo = base;
            *hi = base + THREAD_SIZE;
            return t;
        }
    }
    return NULL;
}

bool report_stack_overflow(unsigned long sp)
{
    unsigned long lo, hi;
    struct task_struct *t = task_of_stack(sp, &lo, &hi);
    if (!t)
        return false;
    bool low = sp < lo + sizeof(struct thread_info) + STACK_OVERFLOW_SLACK;
    bool canary = t->stack && ((struct thread_info *)t->stack)->magic != STACK_END_MAGIC;
    if (!low && !canary)
        return false;
    printk(KERN_EMERG "BUG: kernel stack overflow in task %d (%s): ESP %08lx, stack %08lx-%08lx"
           "%s\n", t->pid, t->comm, sp, lo, hi,
           sp < lo ? " (below its bottom)" : low ? " (at its bottom)" : "");
    if (canary)
        printk(KERN_EMERG "BUG: thread_info canary at %08lx overwritten: %08lx (want %08lx)\n",
               lo, ((struct thread_info *)t->stack)->magic, (unsigned long)STACK_END_MAGIC);
    return true;
}

/* Runs as the double-fault task, interrupts off, on doublefault_stack.  The
 * faulting context is what the CPU saved in the main TSS at the switch. */
__attribute__((used, noreturn)) void do_double_fault(unsigned long err)
{
    const struct x86_hw_tss *t = main_tss();
    unsigned long lo, hi;
    char sym[96];

    struct task_struct *task = task_of_stack(t->sp, &lo, &hi);
    if (task)
        doublefault_stack.ti.task = task;          /* `current` in this report */
    printk(KERN_EMERG "PANIC: double fault, error_code: 0x%04lx\n", err);
    printk(KERN_EMERG "Oops: double fault: %04lx [#1]\n", err);
    ksym_snprint(sym, sizeof sym, t->ip);
    printk(KERN_EMERG "EIP: %s\n", sym);
    printk(KERN_EMERG "CS:EIP: %04x:%08x vector: %d\n", t->cs & 0xFFFF, t->ip, X86_TRAP_DF);
    printk(KERN_EMERG "EAX: %08x EBX: %08x ECX: %08x EDX: %08x\n", t->ax, t->bx, t->cx, t->dx);
    printk(KERN_EMERG "ESI: %08x EDI: %08x EBP: %08x ESP: %08x\n", t->si, t->di, t->bp, t->sp);
    printk(KERN_EMERG "DS: %04x ES: %04x FS: %04x GS: %04x SS: %04x EFLAGS: %08x\n",
           t->ds & 0xFFFF, t->es & 0xFFFF, t->fs & 0xFFFF, t->gs & 0xFFFF, t->ss & 0xFFFF,
           t->flags);
    /* A task switch does not save CR3 into the old TSS; the faulting
     * context's kernel half is swapper_pg_dir's, which is what we run on. */
    printk(KERN_EMERG "CR0: %08lx CR2: %08lx CR3: %08lx CR4: %08lx\n",
           read_cr0(), read_cr2(), read_cr3(), read_cr4());
    if (task)
        printk(KERN_EMERG "task: %d (%s) stack %08lx-%08lx\n", task->pid, task->comm, lo, hi);
    else
        printk(KERN_EMERG "task: unknown (ESP %08x is on no task's stack)\n", t->sp);
    if (!report_stack_overflow(t->sp) && task == NULL)
        printk(KERN_EMERG "(not a known kernel stack: no overflow verdict)\n");
    printk(KERN_EMERG "Call Trace:\n");
    if (task) {
        unsigned long trace[STACK_TRACE_DEPTH];
        int n = walk_stack_bounded(t->bp, lo, hi, trace, STACK_TRACE_DEPTH);
        for (int i = 0; i < n; i++) {
            unsigned long off, size;
            const char *name = ksym_lookup(trace[i] - 1, &off, &size);   /* the call */
            if (name)
                printk(KERN_EMERG "  [<%08lx>] %s+%#lx/%#lx\n", trace[i], name, off + 1, size);
            else
                printk(KERN_EMERG "  [<%08lx>] ?\n", trace[i]);
        }
    }
    printk(KERN_EMERG "---[ end trace ]---\n");
    panic_halt("double fault");
}
