/* include/smp.h: which CPU am I, which CPUs are up, and asking the others
 * to do something (Linux's <linux/smp.h> and <linux/cpumask.h>, in the
 * small).
 *
 * SMP steps 1 to 3 (docs/smp.md): the boot CPU finds the others (ACPI's
 * MADT or the MP table), starts them (kernel/x86/smpboot.c) and each marks
 * itself online, with its own local APIC timer's tick and IPIs
 * (kernel/x86/smp.c), and runs tasks from the one run queue
 * (kernel/sched.c), one CPU at a time in the kernel (include/smp_lock.h);
 * the devices' interrupts are spread over the online CPUs
 * (kernel/x86/io_apic.c).  cpu_online_mask is a
 * bitmap of NR_CPUS bits (include/asm/percpu.h), set with the lock-prefixed
 * bitops. */
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

/* A full memory barrier (Linux i386's, where there may be no mfence). */
#define smp_mb() __asm__ volatile("lock; addl $0,0(%%esp)" ::: "memory")

/* What each CPU counts (Linux's irq_cpustat_t; /proc/interrupts' rows). */
typedef struct {
    unsigned long apic_timer_irqs;     /* LOC: its local APIC timer's ticks */
    unsigned long irq_resched_count;   /* RES */
    unsigned long irq_call_count;      /* CAL */
    unsigned long irq_tlb_count;       /* TLB */
    unsigned long irq_spurious_count;  /* SPU: the APIC's spurious vector */
} irq_cpustat_t;
DECLARE_PER_CPU(irq_cpustat_t, irq_stat);

/* kernel/x86/smp.c, Linux's semantics:
 * smp_call_function: run func(info) on every other online CPU, in its
 *   interrupt handler (interrupts off there; func must not sleep); return
 *   once each has started it, or with wait once each has finished it.
 *   Call it with interrupts on.  0, or -ETIMEDOUT (and a WARN) if a CPU did
 *   not answer within 1 s of guest time.
 * smp_call_function_single: the same on cpu alone (this CPU: func runs
 *   here at once, interrupts off); -ENXIO if cpu is not online.
 * smp_send_reschedule: the RESCHEDULE IPI to cpu (counted): it ends a
 *   halt waiting for work, or makes a task in user mode look at its signals.
 * smp_send_stop: halt every other CPU (panic, the oops); they leave
 *   cpu_online_mask; waits at most 100 ms for them. */
int smp_call_function(void (*func)(void *info), void *info, int wait);
int smp_call_function_single(int cpu, void (*func)(void *info), void *info, int wait);
void smp_send_reschedule(int cpu);
void smp_send_stop(void);
#endif
