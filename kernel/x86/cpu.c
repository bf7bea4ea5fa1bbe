/* kernel/x86/cpu.c: what each CPU is (arch layer; Linux's
 * arch/x86/kernel/cpu/common.c identify_cpu and cpu/proc.c, in the small).
 * Owns the per-CPU struct cpuinfo_x86 (cpu_info), filled by each CPU
 * itself from its own cpuid (the boot CPU at boot, an AP in
 * start_secondary), and the text of /proc/cpuinfo (fs/pseudofs.c shows it):
 * one block per online CPU in Linux's format. */
#include <kernel.h>
#include <string.h>
#include <smp.h>
#include <init.h>
#include <asm/processor.h>

DEFINE_PER_CPU(struct cpuinfo_x86, cpu_info);

void identify_cpu(struct cpuinfo_x86 *c)
{
    uint32_t a, b, cx, d;
    memset(c, 0, sizeof *c);
    cpuid(0, &a, &b, &cx, &d);
    memcpy(c->x86_vendor_id + 0, &b, 4);
    memcpy(c->x86_vendor_id + 4, &d, 4);
    memcpy(c->x86_vendor_id + 8, &cx, 4);
    if (a >= 1) {
        cpuid(1, &a, &b, &cx, &d);
        c->x86 = (a >> 8) & 0xF;
        c->x86_model = (a >> 4) & 0xF;
        c->x86_stepping = a & 0xF;
        if (c->x86 == 0xF)
            c->x86 += (a >> 20) & 0xFF;
        if (c->x86 >= 6)
            c->x86_model += ((a >> 16) & 0xF) << 4;
        c->initial_apicid = b >> 24;
        c->x86_capability[0] = d;
        c->x86_capability[1] = cx;
    }
    cpuid(0x80000000, &a, &b, &cx, &d);
    if (a >= 0x80000004) {
        uint32_t *v = (uint32_t *)c->x86_model_id;
        for (uint32_t op = 0x80000002; op <= 0x80000004; op++, v += 4)
            cpuid(op, &v[0], &v[1], &v[2], &v[3]);
        char *p = c->x86_model_id;     /* Intel pads it in front */
        while (*p == ' ')
            p++;
        memmove(c->x86_model_id, p, strlen(p) + 1);
    } else {
        strcpy(c->x86_model_id, "unknown");
    }
}

/* The boot CPU's, at the first level (its APs copy nothing of it). */
static void identify_boot_cpu(void)
{
    identify_cpu(this_cpu_ptr(&cpu_info));
}
arch_initcall(identify_boot_cpu);

/* cpuid(1).edx and .ecx bit names as /proc/cpuinfo prints them (Linux's
 * x86_cap_flags, words 0 and 4); NULL: not shown. */
static const char *const cap_flags[2][32] = {
    { "fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce", "cx8", "apic", NULL, "sep",
      "mtrr", "pge", "mca", "cmov", "pat", "pse36", "pn", "clflush", NULL, "dts", "acpi",
      "mmx", "fxsr", "sse", "sse2", "ss", "ht", "tm", "ia64", "pbe" },
    { "pni", "pclmulqdq", "dtes64", "monitor", "ds_cpl", "vmx", "smx", "est", "tm2",
      "ssse3", "cid", "sdbg", "fma", "cx16", "xtpr", "pdcm", NULL, "pcid", "dca", "sse4_1",
      "sse4_2", "x2apic", "movbe", "popcnt", "tsc_deadline_timer", "aes", "xsave", NULL,
      "avx", "f16c", "rdrand", "hypervisor" },
};

int show_cpuinfo(char *buf, size_t size)
{
    size_t n = 0;
    int cpu;
#define OUT(...) (n += snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__))
    for_each_online_cpu(cpu) {
        const struct cpuinfo_x86 *c = &per_cpu(cpu_info, cpu);
        OUT("processor\t: %d\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n"
            "model name\t: %s\nstepping\t: %d\napicid\t\t: %d\ninitial apicid\t: %d\nflags\t\t:",
            cpu, c->x86_vendor_id, c->x86, c->x86_model, c->x86_model_id, c->x86_stepping,
            c->apicid, c->initial_apicid);
        for (int w = 0; w < 2; w++)
            for (int i = 0; i < 32; i++)
                if ((c->x86_capability[w] >> i & 1) && cap_flags[w][i])
                    OUT(" %s", cap_flags[w][i]);
        OUT("\n\n");
    }
#undef OUT
    return n < size ? (int)n : (int)size;
}
