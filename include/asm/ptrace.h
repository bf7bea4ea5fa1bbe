/* include/asm/ptrace.h: struct pt_regs, the ONE trap frame.
 *
 * Every way into the kernel after boot (exception, hardware interrupt,
 * int $0x80 system call) goes through kernel/x86/entry.S, which saves the
 * interrupted context on the kernel stack in this layout and passes a
 * pointer to it to C.  The field names are Linux i386's, so code reads the
 * same as Linux's (regs->ax is the system call result, regs->ip the
 * interrupted instruction...).
 *
 *   higher addresses (top of the kernel stack = TSS esp0 for user entries)
 *   +------------+
 *   |     ss     |  \  pushed by the CPU only on a privilege change
 *   |     sp     |  /  (entry from ring 3); absent for kernel-mode traps
 *   |   flags    |  \
 *   |     cs     |   | pushed by the CPU on every trap/interrupt
 *   |     ip     |  /
 *   | orig_ax/err|  CPU error code, or 0 pushed by the stub; for int $0x80
 *   |            |  the system call number (eax on entry) as Linux's orig_ax
 *   |   trapno   |  vector number, pushed by the stub (0-31, 0x20-0x2F, 0x80)
 *   |     gs     |  \
 *   |     fs     |   | segment registers, pushed by common_entry
 *   |     es     |   |
 *   |     ds     |  /
 *   |     ax     |  \
 *   |     bp     |   |
 *   |     di     |   | general registers, pushed by common_entry
 *   |     si     |   |
 *   |     dx     |   |
 *   |     cx     |   |
 *   |     bx     |  /
 *   +------------+  <- struct pt_regs *regs  (esp when C is called)
 *   lower addresses
 *
 * (Linux keeps the error code in orig_ax and the vector nowhere in the
 * frame; we keep both, err aliased with orig_ax, for teaching clarity.)
 */
#ifndef _ASM_PTRACE_H
#define _ASM_PTRACE_H

/* Byte offsets, for entry.S. */
#define PT_BX      0
#define PT_CX      4
#define PT_DX      8
#define PT_SI      12
#define PT_DI      16
#define PT_BP      20
#define PT_AX      24
#define PT_DS      28
#define PT_ES      32
#define PT_FS      36
#define PT_GS      40
#define PT_TRAPNO  44
#define PT_ORIG_AX 48
#define PT_IP      52
#define PT_CS      56
#define PT_FLAGS   60
#define PT_SP      64
#define PT_SS      68
#define PT_REGS_SIZE 72

#ifndef __ASSEMBLER__
struct pt_regs {
    unsigned long bx;
    unsigned long cx;
    unsigned long dx;
    unsigned long si;
    unsigned long di;
    unsigned long bp;
    unsigned long ax;
    unsigned long ds;
    unsigned long es;
    unsigned long fs;
    unsigned long gs;
    unsigned long trapno;
    union {
        unsigned long orig_ax;         /* int $0x80: syscall number */
        unsigned long err;             /* exceptions: CPU error code (or 0) */
    };
    unsigned long ip;
    unsigned long cs;
    unsigned long flags;
    /* Valid only if user_mode(regs): */
    unsigned long sp;
    unsigned long ss;
};

_Static_assert(sizeof(struct pt_regs) == PT_REGS_SIZE, "pt_regs layout");

/* Did the trap come from ring 3? */
static inline int user_mode(const struct pt_regs *regs)
{
    return (regs->cs & 3) == 3;
}

/* The stack pointer at the time of the trap.  A kernel-mode trap has no
 * sp/ss in the frame: the interrupted esp is just above the iret frame. */
static inline unsigned long kernel_stack_pointer(const struct pt_regs *regs)
{
    return (unsigned long)&regs->sp;
}

static inline unsigned long instruction_pointer(const struct pt_regs *regs)
{
    return regs->ip;
}

#define X86_EFLAGS_IF  0x00000200
#define X86_EFLAGS_FIXED 0x00000002    /* bit 1 always reads 1 */
#endif
#endif
