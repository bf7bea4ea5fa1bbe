/* kernel/x86/smpboot_test.c: the ktests of SMP step 1 (test=smp): the CPUs
 * QEMU was given are online, each with its own APIC id and per-CPU area;
 * atomic_t (the ticket lock's tests are kernel/spinlock_test.c's).
 * Built into the test kernel only.  tools/suites/smp.conf boots the suite
 * at -smp 1 and -smp 4 with ktest_cpus=N, the count QEMU was given, and at
 * -smp 4 with maxcpus=2 and with nosmp. */
#include "smpboot.c"
#include <ktest.h>
#include <asm/atomic.h>

/* The first occurrence of s in buf, or NULL (lib/string.c has no strstr). */
static char *find(char *buf, const char *s)
{
    for (size_t n = strlen(s); *buf; buf++)
        if (!strncmp(buf, s, n))
            return buf;
    return NULL;
}

/* QEMU's -smp N, limited by maxcpus= and nosmp as Linux's are. */
KTEST(smp, online_cpus_are_what_qemu_gave)
{
    const char *n = cmdline_get("ktest_cpus"), *max = cmdline_get("maxcpus");
    KT_ASSERT(n && *n);                /* tools/suites/smp.conf passes it */
    int want = simple_strtoul(n, NULL, 10);
    if (max && *max)
        want = min(want, (int)simple_strtoul(max, NULL, 10));
    if (cmdline_get("nosmp"))
        want = 1;
    KT_EXPECT_EQ(num_online_cpus(), want);
    KT_EXPECT(cpu_online(0));
    for (int cpu = 0; cpu < NR_CPUS; cpu++)
        KT_EXPECT_EQ(cpu_online(cpu), cpu < num_online_cpus());
    KT_EXPECT(!cpu_online(NR_CPUS) && !cpu_online(-1));
}

KTEST(smp, apic_ids_distinct_and_from_the_firmware_table)
{
    int a, b;
    for_each_online_cpu(a) {
        int id = per_cpu(cpu_info, a).apicid;      /* each CPU wrote its own */
        KT_EXPECT_EQ(id, (int)mp_info.cpu[a].apicid);
        for_each_online_cpu(b)
            if (b != a)
                KT_EXPECT(per_cpu(cpu_info, b).apicid != id);
    }
    KT_EXPECT_EQ((int)read_apic_id(), per_cpu(cpu_info, 0).apicid);
}

KTEST(smp, per_cpu_areas_are_distinct)
{
    int a, b;
    KT_EXPECT_EQ(smp_processor_id(), 0);          /* the tests run on the boot CPU */
    KT_EXPECT_EQ(__per_cpu_offset[0], 0ul);
    KT_EXPECT(current == per_cpu(current_task, 0));
    KT_EXPECT(this_cpu_ptr(&cpu_number) == &per_cpu(cpu_number, 0));
    for_each_online_cpu(a) {
        KT_EXPECT_EQ(per_cpu(cpu_number, a), a);
        KT_EXPECT_EQ(per_cpu(this_cpu_off, a), __per_cpu_offset[a]);
        if (a) {
            char comm[TASK_COMM_LEN];
            snprintf(comm, sizeof comm, "swapper/%d", a);
            KT_EXPECT(!strcmp(per_cpu(idle_task, a)->comm, comm));
            /* its GDT's per-CPU segment has its area's base */
            struct desc_struct d = per_cpu(gdt_page, a).gdt[GDT_ENTRY_PERCPU];
            unsigned long base = (d.a >> 16) | (d.b & 0xFF) << 16 | (d.b & 0xFF000000);
            KT_EXPECT_EQ(base, __per_cpu_offset[a]);
        }
        for_each_online_cpu(b)
            if (b != a) {
                KT_EXPECT(&per_cpu(cpu_info, a) != &per_cpu(cpu_info, b));
                KT_EXPECT(per_cpu(current_task, a) != per_cpu(current_task, b));
            }
    }
}

KTEST(smp, atomic_ops)
{
    atomic_t v = ATOMIC_INIT(5);
    atomic_inc(&v);
    atomic_add(10, &v);
    atomic_sub(3, &v);
    KT_EXPECT_EQ(atomic_read(&v), 13);
    KT_EXPECT_EQ(atomic_add_return(2, &v), 15);
    KT_EXPECT_EQ(atomic_inc_return(&v), 16);
    KT_EXPECT_EQ(atomic_cmpxchg(&v, 15, 0), 16);   /* not 15: unchanged */
    KT_EXPECT_EQ(atomic_cmpxchg(&v, 16, 1), 16);
    KT_EXPECT_EQ(atomic_read(&v), 1);
    KT_EXPECT(atomic_dec_and_test(&v));
    atomic_dec(&v);
    KT_EXPECT_EQ(atomic_read(&v), -1);
}

KTEST(smp, proc_cpuinfo_lists_each_online_cpu)
{
    static char buf[8192];
    int n = show_cpuinfo(buf, sizeof buf - 1);
    KT_ASSERT(n > 0 && n < (int)sizeof buf - 1);
    buf[n] = 0;
    int cpus = 0;
    for (char *p = buf; (p = find(p, "processor\t: ")); p++) {
        KT_EXPECT_EQ((int)simple_strtoul(p + 12, NULL, 10), cpus);
        cpus++;
    }
    KT_EXPECT_EQ(cpus, num_online_cpus());
    KT_EXPECT(find(buf, "vendor_id\t: ") && find(buf, "model name\t: "));
    KT_EXPECT(find(buf, "flags\t\t: fpu"));
}
