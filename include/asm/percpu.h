/* include/asm/percpu.h: per-CPU variables (arch layer; Linux 2.6.24's
 * <asm-x86/percpu_32.h>, with today's Linux's names).
 *
 * DEFINE_PER_CPU(type, name) puts name in the .data..percpu section (boot/linker.ld: __per_cpu_start .. __per_cpu_end).  Every CPU has
 * its own copy of the whole section, its "per-CPU area", at
 * __per_cpu_offset[cpu] bytes from the section:
 *
 *   per_cpu(var, cpu)     that CPU's copy, an lvalue (any CPU may read it)
 *   this_cpu_read(var)    this CPU's copy, in one instruction: %fs:var
 *   this_cpu_write(var, v)
 *   this_cpu_ptr(&var)    a pointer to this CPU's copy
 *
 * The symbol itself (current_task, what GDB prints) is the boot CPU's copy;
 * code reaches a per-CPU variable only through these.  (Linux 2.6.24 named
 * the symbol per_cpu__name to stop direct use; since 2.6.34 it is name, and
 * sparse's __percpu checks what the prefix did.)
 *
 * How "this CPU" costs one instruction: each CPU's GDT has a data segment,
 * GDT_ENTRY_PERCPU (selector __KERNEL_PERCPU, include/asm/segment.h), whose
 * base is that CPU's __per_cpu_offset, and the kernel keeps that selector
 * in %fs (boot/entry.S loads it before kmain, startup_32_smp on each AP,
 * kernel/x86/entry.S on every entry from user mode, which saves the user's
 * %fs in pt_regs first).  So %fs:var is the running CPU's copy,
 * and a task that moves to another CPU reads the new CPU's.  (Linux i386
 * has done this since 2.6.22; user space keeps %gs for its TLS, as glibc
 * does.)
 *
 * The boot CPU's area is the section itself (offset 0).  Simplification:
 * Linux copies the pristine section into a fresh area for every CPU, boot
 * CPU included, before using any; Vellum's boot CPU uses the section from
 * its first instruction, so an AP's area (kernel/x86/smpboot.c) starts as a
 * copy of the boot CPU's at the time the AP is brought up, and the AP sets
 * what must be its own (cpu_number, current_task, its GDT and TSS).
 *
 * this_cpu_read/write take 4-byte variables only (all Vellum has). */
#ifndef _ASM_PERCPU_H
#define _ASM_PERCPU_H

#define NR_CPUS 8                      /* the most CPUs Vellum brings up */

#ifndef __ASSEMBLER__
#define DEFINE_PER_CPU(type, name) \
    __attribute__((section(".data..percpu"))) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name

extern char __per_cpu_start[], __per_cpu_end[];
extern unsigned long __per_cpu_offset[NR_CPUS];
DECLARE_PER_CPU(unsigned long, this_cpu_off);   /* __per_cpu_offset[this cpu] */

#define SHIFT_PERCPU_PTR(ptr, off) \
    ((__typeof__(ptr))((unsigned long)(ptr) + (off)))
#define per_cpu(var, cpu) (*SHIFT_PERCPU_PTR(&(var), __per_cpu_offset[cpu]))

/* "m"(var): the compiler addresses the boot CPU's copy, which the
 * %fs prefix turns into this CPU's.  Not volatile: a read may be reused
 * until the next call or barrier, which is right for values that do not
 * change under the running code (current, the CPU number). */
#define this_cpu_read(var) ({                                               \
        _Static_assert(sizeof(var) == 4, "4-byte per-CPU only"); \
        __typeof__(var) __r;                                     \
        __asm__("movl %%fs:%1, %0" : "=r"(__r) : "m"((var)));      \
        __r; })
#define this_cpu_write(var, val) do {                                       \
        _Static_assert(sizeof(var) == 4, "4-byte per-CPU only"); \
        __typeof__(var) __v = (val);                             \
        __asm__ volatile("movl %1, %%fs:%0" : "=m"((var)) : "ri"(__v)); \
    } while (0)
#define this_cpu_ptr(ptr) SHIFT_PERCPU_PTR(ptr, this_cpu_read(this_cpu_off))
#endif
#endif
