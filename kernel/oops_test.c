/* kernel/oops_test.c: deliberate crashes on request, to see (and test) the
 * oops and panic reports.  Boot option oops=KIND, run as a late initcall:
 *
 *   oops=null    NULL pointer write in oops_null_deref()   -> page fault, CR2 0
 *   oops=write   write to a read-only kernel page in oops_write_ro() if the
 *                page tables have one (mm maps .rodata read-only), else a
 *                write to the never-mapped top 4 MiB       -> page fault
 *   oops=divide  division by zero in oops_divide()         -> divide error
 *   oops=panic   panic() from oops_panic()
 *   oops=bug     BUG_ON() in oops_bug()
 *   oops=spinlock  oops_spinlock() takes a spinlock it holds: "BUG: spinlock
 *                recursion", then BUG() in spin_lock()
 *   oops=nested  a console whose write faults: the oops report itself faults,
 *                and die() must notice the recursion and stop
 *   oops=stack   unbounded recursion in oops_stack_recurse() on a kthread
 *                "oops_stack": its stack runs into an unmapped guard page,
 *                the #PF cannot be pushed -> double fault, reported by the
 *                double-fault task (kernel/x86/doublefault.c) as a kernel stack
 *                overflow.  The kthread runs the recursion on a stack of its
 *                own in the kernel image (phys 0-4 MiB, mapped with 4 KiB
 *                PTEs) because ordinary task stacks live in the 4 MiB-page
 *                direct map and cannot have a guard page; see below.
 *
 * Every kind ends with "Kernel panic - not syncing" and QEMU exit status 7.
 * The functions are noinline/noipa so their names appear in the report. */
#include <kernel.h>
#include <string.h>
#include <init.h>
#include <cmdline.h>
#include <console.h>
#include <ksyms.h>
#include <asm/io.h>
#include <asm/layout.h>
#include <asm/traps.h>
#include <asm/pgtable.h>
#include <sched.h>
#include <err.h>

static const unsigned long oops_ro_word = 0x600df00d;

void __noipa oops_null_deref(void)
{
    /* volatile pointer: gcc would otherwise see the NULL store, call it
     * undefined and emit ud2 (an "invalid opcode" oops) instead */
    volatile unsigned long *volatile p = NULL;
    *p = 0x2a;
}

/* Is va mapped read-only (present, R/W clear at either level)?  Walks the
 * two-level tables through the direct map.  -1: not present. */
static int page_is_readonly(unsigned long va)
{
    uint32_t *pgdir = phys_to_virt(read_cr3() & PAGE_MASK);
    uint32_t pde = pgdir[va >> 22];
    if (!(pde & 1))
        return -1;
    if (!(pde & 2))
        return 1;
    if (pde & 0x80)                    /* 4 MiB page */
        return 0;
    uint32_t *pt = phys_to_virt(pde & PAGE_MASK);
    uint32_t pte = pt[(va >> 12) & 1023];
    if (!(pte & 1))
        return -1;
    return !(pte & 2);
}

void __noipa oops_write_ro(volatile unsigned long *target)
{
    *target = 0xbad;
}

void __noipa oops_divide(unsigned long n)
{
    volatile unsigned long zero = 0;
    printk(KERN_INFO "oops: %lu / 0 = %lu\n", n, n / zero);
}

void __noipa oops_panic(void)
{
    panic("oops=panic requested on the command line");
}

void __noipa oops_bug(void)
{
    volatile int broken = 1;
    BUG_ON(broken);
}

void __noipa oops_spinlock(void)
{
    static DEFINE_SPINLOCK(oops_lock);
    spin_lock(&oops_lock);
    spin_lock(&oops_lock);
}

static void faulty_console_write(struct console *con, const char *s, size_t n)
{
    oops_null_deref();
}
static struct console faulty_console = { .name = "faulty", .write = faulty_console_write };

/* ---- oops=stack ------------------------------------------------------
 *
 *   oops_guarded_stack:  [ guard page (unmapped) | thread_info | ...stack... ]
 *                        ^ THREAD_SIZE aligned    ^ THREAD_SIZE aligned   top ^
 *
 * The 8 KiB stack proper is THREAD_SIZE-aligned with a thread_info at its
 * base, like a task stack, so `current` works on it; the last page of the
 * block below it is unmapped (its PTE in kernel_pt0, the page table every
 * directory shares for phys 0-4 MiB, is cleared).  The recursion overwrites
 * the canary, then pushes into the guard page: #PF, whose frame cannot be
 * pushed either: #DF. */
static char oops_guarded_stack[2 * THREAD_SIZE] __attribute__((aligned(THREAD_SIZE)));

void oops_call_on_stack(unsigned long (*fn)(unsigned long), unsigned long arg,
                        unsigned long sp) __attribute__((noreturn));
__asm__(".text\n"
        ".globl oops_call_on_stack\n"
        "oops_call_on_stack:\n"
        "    movl 4(%esp), %eax\n"         /* fn */
        "    movl 8(%esp), %edx\n"         /* arg */
        "    movl 12(%esp), %esp\n"        /* the new stack */
        "    xorl %ebp, %ebp\n"            /* end of the frame chain */
        "    pushl %edx\n"
        "    call *%eax\n"
        "1:  hlt\n"
        "    jmp 1b\n");

/* Each level keeps 64 bytes live across the call, so this is not a tail
 * call and gcc cannot turn it into a loop.  The limit (volatile, never
 * reached) only keeps gcc's -Winfinite-recursion quiet. */
static volatile unsigned long oops_stack_limit = ~0UL;

unsigned long __noipa oops_stack_recurse(unsigned long depth)
{
    volatile unsigned char pad[64];
    if (depth == oops_stack_limit)
        return 0;
    pad[0] = (unsigned char)depth;
    unsigned long r = oops_stack_recurse(depth + 1);
    __asm__ volatile("" :: "r"(pad) : "memory");
    return r + pad[0];
}

static int oops_stack_thread(void *unused)
{
    struct task_struct *me = current;
    char *stack = oops_guarded_stack + THREAD_SIZE;
    unsigned long guard = (unsigned long)stack - PAGE_SIZE;
    pte_t *pte = lookup_pte(swapper_pg_dir, guard);
    if (!pte || !(*pte & _PAGE_PRESENT)) {
        printk(KERN_ERR "oops: no 4 KiB PTE for the guard page at %#lx\n", guard);
        return -1;
    }
    *pte = 0;                          /* shared by every directory (kernel_pt0) */
    flush_tlb_page(guard);
    struct thread_info *ti = (struct thread_info *)stack;
    ti->task = me;
    ti->magic = STACK_END_MAGIC;
    /* Interrupts off: the recursion must not be switched away from (the
     * old stack stays this task's until then) and tick handlers need not
     * run on a dying stack.  Simplification: me->stack now names the
     * guarded stack; the buddy stack is leaked (we never come back). */
    local_irq_disable();
    me->stack = stack;
    printk(KERN_NOTICE "oops: %s recursing on stack %p-%p, guard page %#lx\n", me->comm,
           stack, stack + THREAD_SIZE, guard);
    oops_call_on_stack(oops_stack_recurse, 0, (unsigned long)stack + THREAD_SIZE);
}

static void oops_run(void)
{
    const char *kind = cmdline_get("oops");
    if (!kind)
        return;
    printk(KERN_NOTICE "oops: deliberate fault oops=%s\n", kind);
    if (!strcmp(kind, "null")) {
        if (page_is_readonly(0) >= 0) {
            /* The boot page directory still identity-maps 0-16 MiB (mm's
             * real tables do not): drop that 4 MiB so page 0 is unmapped. */
            uint32_t *pgdir = phys_to_virt(read_cr3() & PAGE_MASK);
            printk(KERN_NOTICE "oops: unmapping the boot identity map of 0-4 MiB\n");
            pgdir[0] = 0;
            write_cr3(read_cr3());
        }
        oops_null_deref();
    } else if (!strcmp(kind, "write")) {
        unsigned long ro = (unsigned long)&oops_ro_word;
        if (page_is_readonly(ro) == 1 && (read_cr0() & 0x10000)) {
            printk(KERN_NOTICE "oops: writing read-only .rodata at %#lx\n", ro);
            oops_write_ro((volatile unsigned long *)ro);
        } else {
            /* The boot page tables map the whole kernel writable (4 MiB
             * pages); a write to an unmapped kernel address is the nearest. */
            printk(KERN_NOTICE "oops: .rodata is writable here; writing unmapped %#lx\n",
                   0xFFC00000UL);
            oops_write_ro((volatile unsigned long *)0xFFC00000UL);
        }
    } else if (!strcmp(kind, "divide")) {
        oops_divide(42);
    } else if (!strcmp(kind, "panic")) {
        oops_panic();
    } else if (!strcmp(kind, "bug")) {
        oops_bug();
    } else if (!strcmp(kind, "spinlock")) {
        oops_spinlock();
    } else if (!strcmp(kind, "nested")) {
        uint32_t *pgdir = phys_to_virt(read_cr3() & PAGE_MASK);
        pgdir[0] = 0;                  /* as for null: page 0 must be unmapped */
        write_cr3(read_cr3());
        register_console(&faulty_console);
        printk(KERN_NOTICE "oops: this line faults in the faulty console\n");
    } else if (!strcmp(kind, "stack")) {
        struct task_struct *t = kthread_run(oops_stack_thread, NULL, "oops_stack");
        if (IS_ERR(t))
            panic("oops=stack: no kthread (%ld)", PTR_ERR(t));
        msleep(2000);                  /* the kthread double-faults before this ends */
    } else {
        printk(KERN_ERR "oops: unknown kind '%s' (null, write, divide, panic, bug, spinlock, "
               "nested, stack)\n", kind);
        return;
    }
    panic("oops=%s did not crash", kind);
}
late_initcall(oops_run);
