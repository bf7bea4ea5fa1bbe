/* kernel/x86/fpu.c: the x87/SSE unit (arch layer).  Owns turning it on at
 * boot (CR0/CR4 bits, fxsave detection, the clean initial state), saving
 * and loading a process's registers at a context switch, fork and exec
 * (called from kernel/fork.c and kernel/exec.c), and the FPU part of signal
 * frames (kernel/signal.c).  Declared in <asm/fpu.h>.
 *
 * The kernel never touches x87/SSE registers (-mno-sse -mno-80387), so they
 * belong to the running process; a switch between processes saves the old
 * one's with fxsave and loads the new one's with fxrstor (eager switching,
 * simpler than Linux's lazy-then-eager history). */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <init.h>
#include <slab.h>
#include <sched.h>
#include <asm/fpu.h>
#include <asm/pgtable.h>               /* __read_cr4, __write_cr4 */
#include <asm/processor.h>
#include <asm/traps.h>                 /* read_cr0 */

static bool have_fxsr;
static struct fpu_state init_fpstate;  /* after fninit (and MXCSR 0x1f80) */

/* This CPU: x87 on (not emulated, no lazy TS trap, errors as #MF) and,
 * with fxsr, SSE on (the OS saves with fxsave; SSE errors as #XM). */
static void fpu__init_cpu(uint32_t features)
{
    unsigned long cr0 = read_cr0();
    cr0 &= ~(X86_CR0_EM | X86_CR0_TS);
    cr0 |= X86_CR0_MP | X86_CR0_NE;
    write_cr0(cr0);
    if (have_fxsr)
        __write_cr4(__read_cr4() | X86_CR4_OSFXSR |
                    ((features & (1u << X86_FEATURE_XMM)) ? X86_CR4_OSXMMEXCPT : 0));
}

/* Boot: detect fxsave, turn the unit on, record the clean state every new
 * program and every signal handler starts with. */
static void fpu__init_system(void)
{
    uint32_t features = cpuid_edx(1);
    have_fxsr = features & (1u << X86_FEATURE_FXSR);
    fpu__init_cpu(features);
    if (have_fxsr) {
        uint32_t mxcsr = 0x1f80;
        __asm__ volatile("fninit\n\t"
                         "ldmxcsr %1\n\t"
                         "fxsave %0" : "=m"(init_fpstate) : "m"(mxcsr));
    } else {
        __asm__ volatile("fninit");
    }
    printk(KERN_INFO "fpu: x87%s enabled for user processes\n", have_fxsr ? " + SSE (fxsave)" : "");
}
arch_initcall(fpu__init_system);

/* An AP, as it comes up (kernel/x86/smpboot.c): the same bits as the boot
 * CPU, so that a process may run there. */
void fpu_init_secondary(void)
{
    fpu__init_cpu(cpuid_edx(1));
    __asm__ volatile("fninit");
}

/* ---- a process's saved registers (kernel/fork.c, kernel/exec.c) ---- */

struct fpu_state *fpstate_alloc(void)
{
    /* kmalloc's size classes are powers of two, naturally aligned: a 512-byte
     * object is 16-byte aligned as fxsave needs. */
    struct fpu_state *f = kmalloc(sizeof *f, GFP_KERNEL);
    if (f && WARN((unsigned long)f & 15, "fpu: kmalloc returned a misaligned buffer %p", f)) {
        kfree(f);                      /* kmalloc broke its promise: no FPU state */
        return NULL;
    }
    return f;
}

void fpstate_init(struct fpu_state *f)
{
    memcpy(f, &init_fpstate, sizeof init_fpstate);
}

void save_fpregs_to_fpstate(struct fpu_state *f)
{
    if (have_fxsr)
        __asm__ volatile("fxsave %0" : "=m"(*f));
    else
        __asm__ volatile("fnsave %0; fwait" : "=m"(*f));
}

void restore_fpregs_from_fpstate(const struct fpu_state *f)
{
    if (have_fxsr)
        __asm__ volatile("fxrstor %0" :: "m"(*f));
    else
        __asm__ volatile("frstor %0" :: "m"(*f));
}

/* exec: the FPU starts clean (fninit state) for the new program. */
void fpu_flush_thread(void)
{
    if (current->fpu) {
        fpstate_init(current->fpu);
        restore_fpregs_from_fpstate(current->fpu);
    }
}

/* ---- the FPU in signal frames (kernel/signal.c) ----
 * The live registers are current's whenever current runs (the kernel never
 * uses them, and a switch away saves them and a switch back reloads them),
 * so these work on the CPU's registers directly. */

bool fpu_have_fxsr(void) { return have_fxsr; }

void fpu_save_sigframe(void *fsave_hdr, struct fpu_state *fx)
{
    /* fxsave first (it leaves the registers alone), then fnsave: the
     * legacy 108-byte image for the frame's header, with the full tag word
     * (fnsave also re-initializes the x87 unit). */
    if (have_fxsr)
        __asm__ volatile("fxsave %0" : "=m"(*fx));
    __asm__ volatile("fnsave %0" : "=m"(*(uint8_t (*)[FSAVE_SIZE])fsave_hdr));
}

void fpu_init_for_handler(void)
{
    restore_fpregs_from_fpstate(&init_fpstate);
}

/* MXCSR bits the CPU accepts (fxsave's mxcsr_mask; 0 there means the
 * original default 0xffbf, as Linux's mxcsr_feature_mask_init). */
static uint32_t mxcsr_feature_mask(void)
{
    uint32_t m;
    memcpy(&m, init_fpstate.fxsave + 28, 4);
    return m ? m : 0xffbf;
}

int fpu_restore_sigframe(const void *fsave_hdr, const struct fpu_state *fx)
{
    if (fx) {
        if (!have_fxsr)
            return -EINVAL;
        uint32_t mxcsr;
        memcpy(&mxcsr, fx->fxsave + 24, 4);
        if (mxcsr & ~mxcsr_feature_mask())
            return -EINVAL;            /* fxrstor would #GP in the kernel */
        __asm__ volatile("fxrstor %0" :: "m"(*fx));
    }
    /* The legacy header wins for the x87 part, as Linux's convert_to_fxsr
     * (a debugger editing the registers in the header is obeyed).  frstor
     * takes any bytes; a pending unmasked exception it loads is raised by
     * the user's next x87 instruction (SIGFPE), never in the kernel: the
     * kernel executes no waiting x87 instruction after it. */
    __asm__ volatile("frstor %0" :: "m"(*(const uint8_t (*)[FSAVE_SIZE])fsave_hdr));
    return 0;
}
