/* include/asm/traps.h: exception vectors and the trap-handling interface
 * (kernel/x86/traps.c, kernel/x86/entry.S, kernel/panic.c).
 *
 * Who handles what:
 *   vector 14 (#PF)     -> do_page_fault(regs, error_code)  (traps.c; mm/fault.c
 *                          decides what a user address fault means)
 *   other exceptions    -> kernel mode: die();  user mode: force_sig_fault()
 *   0x20-0x2F (IRQs)    -> do_interrupt() -> do_IRQ() -> handlers from
 *                          request_irq (irq.h)
 *   0xEF-0xFF (local APIC) -> do_interrupt() -> smp_apic_interrupt()
 *                          (kernel/x86/smp.c)
 *   0x80 (int $0x80)    -> syscall_handler(regs); result stored in regs->ax
 */
#ifndef _ASM_TRAPS_H
#define _ASM_TRAPS_H
#include <asm/ptrace.h>

enum {
    X86_TRAP_DE = 0,    /* divide error */
    X86_TRAP_DB,        /* debug */
    X86_TRAP_NMI,       /* non-maskable interrupt */
    X86_TRAP_BP,        /* int3 */
    X86_TRAP_OF,        /* overflow */
    X86_TRAP_BR,        /* bound range */
    X86_TRAP_UD,        /* invalid opcode (ud2) */
    X86_TRAP_NM,        /* device not available */
    X86_TRAP_DF,        /* double fault */
    X86_TRAP_OLD_MF,    /* coprocessor segment overrun */
    X86_TRAP_TS,        /* invalid TSS */
    X86_TRAP_NP,        /* segment not present */
    X86_TRAP_SS,        /* stack segment */
    X86_TRAP_GP,        /* general protection */
    X86_TRAP_PF,        /* page fault */
    X86_TRAP_SPURIOUS,
    X86_TRAP_MF,        /* x87 floating point */
    X86_TRAP_AC,        /* alignment check */
    X86_TRAP_MC,        /* machine check */
    X86_TRAP_XF,        /* SIMD floating point */
    X86_TRAP_VE,        /* virtualization */
};
#define FIRST_EXTERNAL_VECTOR 0x20     /* PIC IRQ 0 after the remap */
#define NR_IRQS               16
#define IA32_SYSCALL_VECTOR   0x80

/* Page-fault error code bits (Linux's X86_PF_*). */
#define X86_PF_PROT   0x01             /* 0: not-present page, 1: protection violation */
#define X86_PF_WRITE  0x02             /* 0: read, 1: write */
#define X86_PF_USER   0x04             /* 0: kernel mode, 1: user mode */
#define X86_PF_RSVD   0x08             /* reserved bit set in a paging entry */
#define X86_PF_INSTR  0x10             /* instruction fetch (needs NX) */

#include <asm/signal.h>                /* the signal numbers and si_codes it raises */

/* The C entry from entry.S: dispatch one trap frame. */
void do_trap(struct pt_regs *regs);

/* The page-fault handler (kernel/x86/traps.c).  Called with interrupts off; CR2
 * holds the faulting address (read_cr2()). */
void do_page_fault(struct pt_regs *regs, unsigned long error_code);

/* Send current a fault signal (kernel/signal.c; Linux's signature): a user
 * fault do_trap or do_page_fault could not resolve. */
void force_sig_fault(int sig, int code, void *addr);

/* System calls (kernel/syscall.c): returns the value for regs->ax (negative
 * errno on failure; -ENOSYS for an unknown number).  Entered with interrupts
 * ON, from do_trap. */
long syscall_handler(struct pt_regs *regs);

/* Called on every return to user mode (entry.S), interrupts off: reschedule
 * if need_resched, deliver pending signals (kernel/signal.c; Linux's
 * exit_to_user_mode_prepare). */
void exit_to_user_mode(struct pt_regs *regs);

/* The trap frame being handled now (innermost), or NULL.  For reports. */
struct pt_regs *get_trap_regs(void);

/* Report a fatal kernel fault (an "oops") and stop the machine; see the
 * format at the top of kernel/x86/traps.c.  err is the CPU error code. */
void die(const char *what, struct pt_regs *regs, unsigned long err)
    __attribute__((noreturn));

/* kernel/x86/doublefault.c.  task_of_stack: the task whose kernel stack holds
 * sp, or lies at most one page above it (an overflow's guard page); sets
 * [*lo, *hi) to that stack.  NULL if none.  report_stack_overflow: if sp is
 * below or within a few hundred bytes of the bottom of its task's stack, or
 * that stack's thread_info canary is overwritten, print "BUG: kernel stack
 * overflow in task PID (COMM)..." and return true; else print nothing.
 * Both are for fault reports (die, the double-fault task). */
struct task_struct;
struct task_struct *task_of_stack(unsigned long sp, unsigned long *lo, unsigned long *hi);
bool report_stack_overflow(unsigned long sp);

/* kernel/panic.c: print "Kernel panic - not syncing: msg" and stop (exit
 * QEMU under test= / oops= in the test kernel, else halt).  No backtrace
 * (die printed one). */
void panic_halt(const char *msg) __attribute__((noreturn));
/* True in the test kernel if the command line asks for tests (test= or
 * oops=); always false in the production kernel, which has neither. */
bool under_test(void);

/* kernel/x86/entry.S */
extern const unsigned long trap_stub_table[48];   /* vectors 0x00-0x2F */
/* Where do_trap returns to in the trap entry: a frame returning there sits
 * right under a struct pt_regs (backtraces cross it, kernel/ksyms.c). */
extern const unsigned long trap_return_address;
void trap_stub_syscall(void);                       /* vector 0x80 */
/* The local APIC's vectors (kernel/x86/apic.h: the timer, the IPIs, the
 * spurious vector 0xFF), one stub each (apic_stub_table, in the order of
 * apic_vectors), dispatched by do_trap through do_interrupt (irq.h) to
 * smp_apic_interrupt (kernel/x86/smp.c). */
#define NR_APIC_VECTORS 6
extern const unsigned long apic_stub_table[NR_APIC_VECTORS];
extern const unsigned char apic_vectors[NR_APIC_VECTORS];
void smp_apic_interrupt(unsigned vector, struct pt_regs *regs);
/* kernel/x86/traps.c: load the IDT on this CPU (an AP: start_secondary). */
void idt_load(void);
void ret_from_intr(void);        /* esp = pt_regs: restore and iret */

static inline unsigned long read_cr0(void)
{ unsigned long v; __asm__ volatile("mov %%cr0, %0" : "=r"(v)); return v; }
static inline unsigned long read_cr4(void)
{ unsigned long v; __asm__ volatile("mov %%cr4, %0" : "=r"(v)); return v; }
#endif
