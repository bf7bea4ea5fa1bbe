/* include/asm/processor.h: asking the CPU what it has (cpuid) and the
 * control-register bits Vellum sets (Linux's <asm/processor.h>,
 * <asm/special_insns.h> and <uapi/asm/processor-flags.h> in one header).
 * Used by mm/paging.c (global pages) and kernel/x86/fpu.c (x87/SSE). */
#ifndef _ASM_PROCESSOR_H
#define _ASM_PROCESSOR_H
#include <types.h>

/* cpuid leaf `op`, subleaf 0: the four result registers. */
static inline void cpuid(uint32_t op, uint32_t *eax, uint32_t *ebx, uint32_t *ecx, uint32_t *edx)
{
    *eax = op;
    *ecx = 0;
    __asm__ volatile("cpuid" : "+a"(*eax), "=b"(*ebx), "+c"(*ecx), "=d"(*edx));
}

static inline uint32_t cpuid_edx(uint32_t op)
{
    uint32_t eax, ebx, ecx, edx;
    cpuid(op, &eax, &ebx, &ecx, &edx);
    return edx;
}

/* What a CPU is (Linux's struct cpuinfo_x86, the fields /proc/cpuinfo
 * shows): each CPU fills its own per-CPU cpu_info (kernel/x86/cpu.c). */
struct cpuinfo_x86 {
    int x86, x86_model, x86_stepping;  /* family, model, stepping */
    char x86_vendor_id[16];            /* "GenuineIntel" */
    char x86_model_id[64];             /* the brand string, or "unknown" */
    uint32_t x86_capability[2];        /* cpuid(1).edx, cpuid(1).ecx */
    int apicid;                        /* read from its local APIC */
    int initial_apicid;                /* cpuid(1).ebx[31:24] */
};
void identify_cpu(struct cpuinfo_x86 *c);
/* /proc/cpuinfo's text, one block per online CPU; the length written. */
int show_cpuinfo(char *buf, size_t size);

/* Feature bits of cpuid(1).edx (Linux's X86_FEATURE_*, word 0). */
#define X86_FEATURE_APIC  9            /* a local APIC */
#define X86_FEATURE_PGE   13           /* global pages (CR4.PGE) */
#define X86_FEATURE_FXSR  24           /* fxsave/fxrstor */
#define X86_FEATURE_XMM   25           /* SSE */

/* CR0 and CR4 bits (Linux's X86_CR0_*, X86_CR4_*). */
#define X86_CR0_MP          (1u << 1)  /* wait/fwait honours TS */
#define X86_CR0_EM          (1u << 2)  /* no x87: emulate (trap) */
#define X86_CR0_TS          (1u << 3)  /* task switched: x87 use traps */
#define X86_CR0_NE          (1u << 5)  /* x87 errors as #MF, not IRQ 13 */
#define X86_CR4_PGE         (1u << 7)  /* global pages */
#define X86_CR4_OSFXSR      (1u << 9)  /* the OS saves with fxsave: SSE on */
#define X86_CR4_OSXMMEXCPT  (1u << 10) /* SSE errors as #XM */

/* (read_cr0 is <asm/traps.h>'s, beside the other readers the oops uses.) */
static inline void write_cr0(unsigned long v)
{ __asm__ volatile("mov %0, %%cr0" :: "r"(v) : "memory"); }
#endif
