/* include/asm/fpu.h: the x87/SSE unit (arch layer, kernel/x86/fpu.c): a
 * process's saved registers (struct fpu_state; kernel/fork.c and
 * kernel/exec.c save and load them) and the FPU state in signal frames
 * (kernel/signal.c).
 *
 * A frame's FPU area is Linux i386's struct _fpstate: a 112-byte header
 * holding the legacy fnsave image (108 bytes) and a status/magic word,
 * followed, on CPUs with fxsave, by the 512-byte fxsave image, 16-aligned.
 */
#ifndef _ASM_FPU_H
#define _ASM_FPU_H
#include <types.h>

/* A process's registers while it is switched out: the fxsave area, 512
 * bytes, 16-byte aligned (fnsave uses its first 108 bytes on a CPU
 * without fxsave). */
struct fpu_state {
    uint8_t fxsave[512];
} __attribute__((aligned(16)));

/* A kmalloc'd fpu_state, 16-aligned; NULL when out of memory. */
struct fpu_state *fpstate_alloc(void);
/* Fill f with the clean state (fninit, MXCSR 0x1f80) a new program gets. */
void fpstate_init(struct fpu_state *f);
/* The live registers into f / from f (context switch, fork). */
void save_fpregs_to_fpstate(struct fpu_state *f);
void restore_fpregs_from_fpstate(const struct fpu_state *f);
/* exec: reset current's saved and live registers to the clean state. */
void fpu_flush_thread(void);

#define FSAVE_SIZE        108          /* fnsave image, 32-bit protected mode */
#define FPSTATE_HDR_SIZE  112          /* + status, magic */
#define X86_FXSR_MAGIC    0x0000       /* _fpstate.magic: fxsave data follows */
#define X86_FSAVE_MAGIC   0xffff       /* _fpstate.magic: header only */

/* Does the CPU have fxsave/fxrstor (and SSE state)? */
bool fpu_have_fxsr(void);
/* Copy current's live FPU registers out: the fnsave image into fsave_hdr
 * (FSAVE_SIZE bytes, any alignment) and, with fxsr, the fxsave image into
 * fx (16-aligned).  Leaves the x87 unit re-initialized. */
void fpu_save_sigframe(void *fsave_hdr, struct fpu_state *fx);
/* Load the clean state (as after execve) a signal handler starts with. */
void fpu_init_for_handler(void);
/* An AP's FPU and SSE bits, as the boot CPU's (kernel/x86/smpboot.c). */
void fpu_init_secondary(void);
/* Load registers a signal frame gave back: fx (kernel copy, 16-aligned; NULL
 * for a header-only frame) then the fnsave header over the x87 part.
 * -EINVAL, and nothing loaded, if fx has MXCSR bits the CPU rejects (fxrstor
 * would fault); 0 otherwise. */
int fpu_restore_sigframe(const void *fsave_hdr, const struct fpu_state *fx);

#endif
