/* kernel/x86/smp_test.c: the ktests of SMP step 2's interrupts (suite smp,
 * tools/suites/smp.conf: -smp 1, -smp 4, maxcpus=2, nosmp, noapic): every
 * online CPU's local APIC timer ticks at HZ in guest time, the calibration
 * is sane, smp_call_function and smp_call_function_single run on the CPUs
 * they name exactly once (and have run when wait=1 returns), the
 * RESCHEDULE and INVALIDATE_TLB IPIs are counted on their targets, a
 * flush of an mm asks only the CPUs in its mask (none when only this CPU
 * has it; a lazy CPU leaves it, also at the last mmput), and
 * /proc/interrupts agrees with the counters.  Built into the test kernel
 * only. */
#include "smp.c"
#include <ktest.h>
#include <string.h>
#include <err.h>
#include <mm.h>
#include <sched.h>

/* The first occurrence of s in buf, or NULL. */
static char *find_str(char *buf, const char *s)
{
    for (size_t n = strlen(s); *buf; buf++)
        if (!strncmp(buf, s, n))
            return buf;
    return NULL;
}

KTEST(smp, lapic_timer_calibrated_sanely)
{
    KT_ASSERT(lapic_present());
    unsigned long long hz = (unsigned long long)lapic_timer_ticks * 16 * HZ;
    /* Any real APIC bus runs between 10 MHz and 10 GHz (QEMU's: 1 GHz). */
    KT_EXPECT(hz >= 10000000ull && hz <= 10000000000ull);
}

/* Over 200 ms of guest time, measured on the PIT's counter (mdelay), every
 * online CPU's local timer ticks HZ/5 times (give or take one), and the
 * boot CPU's ticks are jiffies'. */
KTEST(smp, every_cpu_local_timer_ticks_at_hz)
{
    unsigned long before[NR_CPUS], j0;
    int cpu;
    KT_ASSERT(!irqs_disabled());
    for_each_online_cpu(cpu)
        before[cpu] = per_cpu(irq_stat, cpu).apic_timer_irqs;
    j0 = jiffies;
    mdelay(200);
    unsigned long dj = jiffies - j0;
    KT_EXPECT(dj >= HZ / 5 - 1 && dj <= HZ / 5 + 1);
    for_each_online_cpu(cpu) {
        unsigned long d = per_cpu(irq_stat, cpu).apic_timer_irqs - before[cpu];
        KT_EXPECT(d >= HZ / 5 - 1 && d <= HZ / 5 + 1);
    }
}

static int call_hits[NR_CPUS];
static volatile int call_done[NR_CPUS];

static void count_call(void *info)
{
    int cpu = smp_processor_id();
    call_hits[cpu]++;
    if (info)
        *(int *)info = cpu;
    udelay(500);                       /* long enough that wait=0 returns first */
    call_done[cpu] = 1;
}

static void clear_calls(void)
{
    memset(call_hits, 0, sizeof call_hits);
    memset((void *)call_done, 0, sizeof call_done);
}

KTEST(smp, call_function_runs_once_on_every_other_cpu)
{
    int cpu, self = smp_processor_id();
    unsigned long cal[NR_CPUS];
    for_each_online_cpu(cpu)
        cal[cpu] = per_cpu(irq_stat, cpu).irq_call_count;
    clear_calls();
    KT_EXPECT_EQ(smp_call_function(count_call, NULL, 1), 0);
    for (cpu = 0; cpu < NR_CPUS; cpu++) {
        int want = cpu_online(cpu) && cpu != self;
        KT_EXPECT_EQ(call_hits[cpu], want);
        KT_EXPECT_EQ(call_done[cpu], want);        /* wait=1: already done */
        if (cpu_online(cpu))
            KT_EXPECT_EQ(per_cpu(irq_stat, cpu).irq_call_count - cal[cpu], (unsigned long)want);
    }

    /* wait=0: it returns once each has started; each then finishes, once. */
    clear_calls();
    KT_EXPECT_EQ(smp_call_function(count_call, NULL, 0), 0);
    for (int ms = 0; ms < 100; ms++)
        mdelay(1);
    for (cpu = 0; cpu < NR_CPUS; cpu++) {
        int want = cpu_online(cpu) && cpu != self;
        KT_EXPECT_EQ(call_hits[cpu], want);
        KT_EXPECT_EQ(call_done[cpu], want);
    }
}

KTEST(smp, call_function_single_to_each_cpu_in_turn)
{
    int cpu;
    for_each_online_cpu(cpu) {
        int ran_on = -1;
        clear_calls();
        KT_EXPECT_EQ(smp_call_function_single(cpu, count_call, &ran_on, 1), 0);
        KT_EXPECT_EQ(ran_on, cpu);
        for (int other = 0; other < NR_CPUS; other++)
            KT_EXPECT_EQ(call_hits[other], other == cpu);
    }
    /* A CPU that is not online: refused, nothing run. */
    clear_calls();
    KT_EXPECT_EQ(smp_call_function_single(NR_CPUS - 1, count_call, NULL, 1),
                 cpu_online(NR_CPUS - 1) ? 0 : -ENXIO);
    KT_EXPECT_EQ(call_hits[NR_CPUS - 1], cpu_online(NR_CPUS - 1));
}

KTEST(smp, reschedule_ipi_counted_on_its_target)
{
    int cpu, self = smp_processor_id();
    for_each_online_cpu(cpu) {
        if (cpu == self)
            continue;
        unsigned long mine = per_cpu(irq_stat, self).irq_resched_count;
        unsigned long before = per_cpu(irq_stat, cpu).irq_resched_count;
        smp_send_reschedule(cpu);
        for (int ms = 0; ms < 100 && per_cpu(irq_stat, cpu).irq_resched_count == before; ms++)
            mdelay(1);
        mdelay(10);                    /* and no second one */
        KT_EXPECT_EQ(per_cpu(irq_stat, cpu).irq_resched_count - before, 1ul);
        KT_EXPECT_EQ(per_cpu(irq_stat, self).irq_resched_count, mine);
    }
}

KTEST(smp, tlb_shootdown_reaches_the_cpus_that_need_it)
{
    int cpu, self = smp_processor_id();
    unsigned long tlb[NR_CPUS];
    for_each_online_cpu(cpu)
        tlb[cpu] = per_cpu(irq_stat, cpu).irq_tlb_count;
    flush_tlb_all();                   /* every other online CPU, synchronously */
    for_each_online_cpu(cpu)
        KT_EXPECT_EQ(per_cpu(irq_stat, cpu).irq_tlb_count - tlb[cpu],
                     (unsigned long)(cpu != self));
    KT_EXPECT_EQ(flush_cpumask, 0ul);

    /* A kernel address: every other CPU. */
    for_each_online_cpu(cpu)
        tlb[cpu] = per_cpu(irq_stat, cpu).irq_tlb_count;
    flush_tlb_page(KERNEL_BASE);
    for_each_online_cpu(cpu)
        KT_EXPECT_EQ(per_cpu(irq_stat, cpu).irq_tlb_count - tlb[cpu],
                     (unsigned long)(cpu != self));
}

/* Lazy TLB (docs/smp.md, "Page tables on several CPUs"): a kthread on CPU
 * a->cpu takes mm and gives it back, as a process's task followed by a
 * kernel thread; that CPU keeps mm loaded, lazily, in mm's mask. */
struct lazy_arg {
    struct mm_struct *mm;
    int cpu, ran_on, in_mask, lazy, loaded;
};

static int lazy_fn(void *p)
{
    struct lazy_arg *a = p;
    /* Made on CPU 0, where kmain sleeps in kthread_stop: leaving it, CPU 0
     * goes to its idle task (swapper/0, kernel/sched.c's sched_init). */
    if (set_cpus_allowed(current, 1ul << a->cpu))
        return 0;
    use_mm(a->mm);
    use_mm(NULL);
    unsigned long flags = local_irq_save();
    a->ran_on = smp_processor_id();
    a->in_mask = test_bit(a->ran_on, &a->mm->cpu_vm_mask);
    a->lazy = this_cpu_read(cpu_tlbstate.state) == TLBSTATE_LAZY &&
              this_cpu_read(cpu_tlbstate.active_mm) == a->mm;
    a->loaded = this_cpu_read(cpu_loaded_pgd) == (pgd_t *)a->mm->pgd;
    local_irq_restore(flags);
    return 0;
}

/* The last online CPU keeps mm lazily; how many IPIs each CPU took since. */
static bool make_lazy_on(struct mm_struct *mm, int cpu)
{
    struct lazy_arg a = { mm, cpu, -1, 0, 0, 0 };
    struct task_struct *t = kthread_run(lazy_fn, &a, "lazytlb");
    if (IS_ERR(t))
        return false;
    kthread_stop(t);
    return a.ran_on == cpu && a.in_mask && a.lazy && a.loaded;
}

static void tlb_counts(unsigned long *tlb)
{
    int cpu;
    for_each_online_cpu(cpu)
        tlb[cpu] = per_cpu(irq_stat, cpu).irq_tlb_count;
}

/* IPIs per CPU since tlb: a bit per CPU that took exactly one, or ~0ul
 * if one took more. */
static unsigned long tlb_ipis_since(const unsigned long *tlb)
{
    unsigned long got = 0;
    int cpu;
    for_each_online_cpu(cpu) {
        unsigned long d = per_cpu(irq_stat, cpu).irq_tlb_count - tlb[cpu];
        if (d > 1)
            return ~0ul;
        got |= d << cpu;
    }
    return got;
}

KTEST(smp, lazy_tlb_flushes_ask_only_the_cpus_in_the_mm_mask)
{
    int self = smp_processor_id(), other = -1, cpu;
    unsigned long tlb[NR_CPUS];
    const unsigned long va = 0x08048000;
    for_each_online_cpu(cpu)
        if (cpu != self)
            other = cpu;                       /* the last online one */

    struct mm_struct *mm = mm_alloc();
    KT_ASSERT(mm);
    KT_ASSERT(current->mm == NULL);            /* kmain: a kernel thread */
    /* 1. Loaded on this CPU only: a flush sends no IPI. */
    use_mm(mm);
    KT_EXPECT_EQ(mm->cpu_vm_mask, 1ul << self);
    KT_EXPECT(this_cpu_read(cpu_loaded_pgd) == (pgd_t *)mm->pgd);
    KT_EXPECT_EQ(this_cpu_read(cpu_tlbstate.state), TLBSTATE_OK);
    tlb_counts(tlb);
    flush_tlb_mm_page(mm, va);
    flush_tlb_mm(mm);
    KT_EXPECT_EQ(tlb_ipis_since(tlb), 0ul);
    KT_EXPECT_EQ(mm->cpu_vm_mask, 1ul << self);  /* a task of mm runs here: stays */
    struct mm_struct *child = dup_mm(mm);      /* fork's copy: loaded nowhere yet */
    KT_ASSERT(child);
    KT_EXPECT_EQ(child->cpu_vm_mask, 0ul);
    mmput(child);

    /* 2. As a kernel thread: the directory stays loaded (no CR3 write),
     * lazily; a flush of mm then makes this CPU leave it. */
    unsigned long flags = local_irq_save();
    use_mm(NULL);
    KT_EXPECT(this_cpu_read(cpu_loaded_pgd) == (pgd_t *)mm->pgd);
    KT_EXPECT_EQ(this_cpu_read(cpu_tlbstate.state), TLBSTATE_LAZY);
    KT_EXPECT(this_cpu_read(cpu_tlbstate.active_mm) == mm);
    flush_tlb_mm_page(mm, va);
    KT_EXPECT(this_cpu_read(cpu_loaded_pgd) == swapper_pg_dir);
    KT_EXPECT(this_cpu_read(cpu_tlbstate.active_mm) == NULL);
    local_irq_restore(flags);
    KT_EXPECT_EQ(mm->cpu_vm_mask, 0ul);
    KT_EXPECT_EQ(tlb_ipis_since(tlb), 0ul);

    if (other >= 0) {
        /* 3. Another CPU keeps it lazily: the flush asks that CPU alone,
         * which leaves (out of the mask, swapper_pg_dir); the next flush
         * asks nobody. */
        KT_ASSERT(make_lazy_on(mm, other));
        KT_EXPECT_EQ(mm->cpu_vm_mask, 1ul << other);
        tlb_counts(tlb);
        flush_tlb_mm_page(mm, va);
        KT_EXPECT_EQ(tlb_ipis_since(tlb), 1ul << other);
        KT_EXPECT_EQ(mm->cpu_vm_mask, 0ul);
        KT_EXPECT(per_cpu(cpu_loaded_pgd, other) == swapper_pg_dir);
        KT_EXPECT(per_cpu(cpu_tlbstate, other).active_mm == NULL);
        tlb_counts(tlb);
        flush_tlb_mm_page(mm, va);
        KT_EXPECT_EQ(tlb_ipis_since(tlb), 0ul);

        /* 4. The last mmput while that CPU keeps it: exit_mmap makes it
         * leave before the directory is freed. */
        KT_ASSERT(make_lazy_on(mm, other));
        pgd_t *pgd = (pgd_t *)mm->pgd;
        tlb_counts(tlb);
        mmput(mm);
        KT_EXPECT_EQ(tlb_ipis_since(tlb), 1ul << other);
        KT_EXPECT(per_cpu(cpu_loaded_pgd, other) != pgd);
        KT_EXPECT(per_cpu(cpu_tlbstate, other).active_mm == NULL);
    } else {
        mmput(mm);
    }
}

/* The numbers on row name, one per online CPU, into v; how many. */
static int row_values(char *buf, const char *name, unsigned long *v)
{
    char *p = find_str(buf, name);
    int n = 0;
    if (!p)
        return -1;
    p += strlen(name);
    while (n < NR_CPUS) {
        while (*p == ' ')
            p++;
        if (*p < '0' || *p > '9')
            break;
        v[n++] = simple_strtoul(p, &p, 10);
    }
    return n;
}

KTEST(smp, proc_interrupts_has_a_column_per_cpu_and_the_counts)
{
    static char buf[4096];
    unsigned long loc0[NR_CPUS], loc[NR_CPUS], cal[NR_CPUS], kbd[NR_CPUS];
    int cpu, cols = 0;
    for_each_online_cpu(cpu)
        loc0[cpu] = per_cpu(irq_stat, cpu).apic_timer_irqs;
    int n = show_interrupts(buf, sizeof buf - 1);
    KT_ASSERT(n > 0 && n < (int)sizeof buf - 1);
    buf[n] = 0;
    for (char *p = buf; (p = find_str(p, "CPU")) && p < find_str(buf, "\n"); p++)
        cols++;
    KT_EXPECT_EQ(cols, num_online_cpus());
    KT_EXPECT_EQ(row_values(buf, "LOC: ", loc), num_online_cpus());
    KT_EXPECT_EQ(row_values(buf, "CAL: ", cal), num_online_cpus());
    for_each_online_cpu(cpu) {
        /* CPU n is column n: the online CPUs are 0 .. N-1 */
        KT_EXPECT(loc[cpu] >= loc0[cpu] && loc[cpu] <= per_cpu(irq_stat, cpu).apic_timer_irqs);
        KT_EXPECT_EQ(cal[cpu], per_cpu(irq_stat, cpu).irq_call_count);
    }
    /* The keyboard's line: its handler, its chip, its counts. */
    char *kb = find_str(buf, "  1: ");
    KT_ASSERT(kb);
    KT_EXPECT_EQ(row_values(buf, "  1: ", kbd), num_online_cpus());
    for_each_online_cpu(cpu)
        KT_EXPECT_EQ(kbd[cpu], per_cpu(kstat, cpu).irqs[1]);
    KT_EXPECT(find_str(kb, irq_get_chip()->name) == kb + 5 + 11 * num_online_cpus() + 1);
    KT_EXPECT(find_str(buf, "SPU: ") && find_str(buf, "RES: ") && find_str(buf, "TLB: "));
}

/* smp_send_stop (panic, the oops): every other CPU leaves cpu_online_mask
 * and stops ticking.  The boot has lost its APs afterwards, so this test
 * runs only when named in full (tools/tests/smp_stop.sh boots it). */
KTEST_ENDS_BOOT(smp, send_stop_halts_the_others)
{
    unsigned long loc[NR_CPUS];
    int cpu, was = num_online_cpus();
    for (cpu = 0; cpu < NR_CPUS; cpu++)
        loc[cpu] = per_cpu(irq_stat, cpu).apic_timer_irqs;
    smp_send_stop();
    KT_EXPECT_EQ(num_online_cpus(), 1);
    KT_EXPECT(cpu_online(0));
    for (cpu = 1; cpu < was; cpu++)
        loc[cpu] = per_cpu(irq_stat, cpu).apic_timer_irqs;
    unsigned long loc0 = per_cpu(irq_stat, 0).apic_timer_irqs;
    mdelay(100);
    for (cpu = 1; cpu < was; cpu++)               /* halted, timer masked */
        KT_EXPECT_EQ(per_cpu(irq_stat, cpu).apic_timer_irqs, loc[cpu]);
    KT_EXPECT(per_cpu(irq_stat, 0).apic_timer_irqs - loc0 >= 9);   /* we still tick */
    KT_EXPECT_EQ(smp_call_function(count_call, NULL, 1), 0);    /* nobody left to ask */
}
