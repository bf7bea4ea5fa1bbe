/* include/smp.h: which CPU am I, which CPUs are up (Linux's <linux/smp.h>
 * and <linux/cpumask.h>, in the small).
 *
 * Step 1 of SMP (docs/smp.md): the boot CPU finds the others (the Intel MP
 * table, kernel/x86/mpparse.c), starts them (kernel/x86/smpboot.c) and each
 * marks itself online and parks; only the boot CPU runs tasks, takes
 * interrupts and ticks.  cpu_online_mask is a bitmap of NR_CPUS bits
 * (include/asm/percpu.h), set with the lock-prefixed bitops. */
#ifndef _SMP_H
#define _SMP_H
#include <types.h>
#include <asm/percpu.h>
#include <asm/bitops.h>

/* This CPU's number, 0 .. NR_CPUS-1 (0: the boot CPU): a per-CPU variable
 * each CPU sets once before it runs any other C. */
DECLARE_PER_CPU(int, cpu_number);
#define smp_processor_id() this_cpu_read(cpu_number)

/* Each CPU's cpuid and APIC id (include/asm/processor.h, kernel/x86/cpu.c). */
struct cpuinfo_x86;
DECLARE_PER_CPU(struct cpuinfo_x86, cpu_info);

/* Bit n: CPU n is up (it has set it itself, in start_secondary; the boot
 * CPU's is set at compile time). */
extern unsigned long cpu_online_mask;
static inline int cpu_online(int cpu)
{
    return cpu >= 0 && cpu < NR_CPUS && test_bit(cpu, &cpu_online_mask);
}
static inline int num_online_cpus(void)
{
    return __builtin_popcountl(cpu_online_mask);
}
#define for_each_online_cpu(cpu) \
    for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++) if (cpu_online(cpu))

/* kernel/x86/setup_percpu.c: give cpu (1 .. NR_CPUS-1) a per-CPU area, a
 * copy of the boot CPU's; 0 or -ENOMEM.  Its cpu_number and this_cpu_off
 * are set. */
int setup_per_cpu_area(int cpu);
#endif
