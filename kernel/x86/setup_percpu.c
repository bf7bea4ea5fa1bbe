/* kernel/x86/setup_percpu.c: the per-CPU areas (arch layer; Linux's
 * arch/x86/kernel/setup_percpu.c).  Owns __per_cpu_offset[] (where each
 * CPU's copy of the .data..percpu section lives, relative to the section),
 * and the two per-CPU variables every CPU needs first: its number
 * (smp_processor_id, include/smp.h) and its own offset (this_cpu_ptr).
 * How a CPU reaches its area, through %fs: include/asm/percpu.h. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <smp.h>
#include <asm/percpu.h>

unsigned long __per_cpu_offset[NR_CPUS];       /* the boot CPU's: 0, the section */
DEFINE_PER_CPU(unsigned long, this_cpu_off);
DEFINE_PER_CPU(int, cpu_number);
unsigned long cpu_online_mask = 1;             /* the boot CPU */

int setup_per_cpu_area(int cpu)
{
    size_t size = __per_cpu_end - __per_cpu_start;
    BUG_ON(cpu <= 0 || cpu >= NR_CPUS);
    char *area = kmalloc(size, GFP_KERNEL);
    if (!area)
        return -ENOMEM;
    memcpy(area, __per_cpu_start, size);
    __per_cpu_offset[cpu] = (unsigned long)area - (unsigned long)__per_cpu_start;
    per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
    per_cpu(cpu_number, cpu) = cpu;
    return 0;
}
