/* kernel/x86/smp.c: interrupts between CPUs and the local APIC's own
 * interrupts (arch layer; Linux 2.6.24's arch/x86/kernel/smp_32.c and
 * apic_32.c's handlers, in the small; docs/smp.md).
 *
 * Owns what each CPU counts (irq_stat: local timer ticks, rescheduling,
 * call-function and TLB-shootdown IPIs, spurious APIC interrupts) and the
 * handlers of the vectors the local APIC delivers (smp_apic_interrupt,
 * called by do_trap); the IPIs: smp_send_reschedule, smp_call_function and
 * smp_call_function_single, the TLB shootdown (flush_tlb_mm_page,
 * flush_tlb_mm, flush_tlb_page, flush_tlb_all, to the CPUs in the mm's
 * cpu_vm_mask) and lazy TLB's leave_mm with each CPU's cpu_tlbstate,
 * smp_send_stop (panic and the oops); and the text of /proc/interrupts.
 *
 * The call-function data: one static call_data_struct, written by the
 * sender under call_lock and read by the targets' handlers without a lock
 * (the sender holds call_lock until every target has taken what it needs:
 * `started` counts them).  The shootdown's (flush_mm, flush_va,
 * flush_cpumask) likewise, under tlbstate_lock until flush_cpumask is
 * empty.  Both are leaf locks (mm/filemap.c's LOCK ORDER), taken with
 * interrupts on for call_lock (two CPUs calling each other with interrupts
 * off would wait for ever: Linux's rule) and with them saved for
 * tlbstate_lock (a page-table change may be made with interrupts off; the
 * targets' handlers take no lock, so that cannot deadlock as long as only
 * one CPU changes page tables: the one that holds the big kernel lock,
 * include/smp_lock.h, while it does; a CPU waiting for that lock waits
 * with interrupts on, and answers).
 * A target that does not answer within 1 s of guest time is reported (a
 * WARN) and the call returns -ETIMEDOUT: the data being static, a late
 * answer cannot write to a stack that is gone. */
#include <kernel.h>
#include <errno.h>
#include <irq.h>
#include <lockdep.h>
#include <smp.h>
#include <spinlock.h>
#include <timer.h>
#include <ksyms.h>
#include <mm_types.h>
#include <asm/atomic.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include "apic.h"
#include "mpparse.h"

DEFINE_PER_CPU(irq_cpustat_t, irq_stat);
DEFINE_PER_CPU(pgd_t *, cpu_loaded_pgd);

/* Wait until *v >= want: at most 1 s of guest time, in 10 us steps of the
 * PIT's counter (udelay); true if it got there. */
static bool wait_for_count(atomic_t *v, int want)
{
    for (long i = 0; i < 100000; i++) {
        barrier();
        if (atomic_read(v) >= want)
            return true;
        udelay(10);
    }
    return atomic_read(v) >= want;
}

/* The online CPUs but this one. */
static unsigned long others_online(void)
{
    return cpu_online_mask & ~(1ul << smp_processor_id());
}

/* Vector to every CPU in mask: the ICR's all-but-self shorthand when mask
 * is every CPU the firmware listed but this one (no CPU was left offline),
 * else one IPI per CPU. */
static void send_IPI_mask(unsigned long mask, unsigned vector)
{
    if (mask == others_online() && num_online_cpus() == mp_info.nr_cpus) {
        send_IPI_allbutself(vector);
        return;
    }
    for (int cpu = 0; cpu < NR_CPUS; cpu++)
        if (mask & (1ul << cpu))
            send_IPI_mask_one(cpu, vector);
}

/* ---- rescheduling ----------------------------------------------------- */

void smp_send_reschedule(int cpu)
{
    if (WARN(!cpu_online(cpu), "smp_send_reschedule: CPU%d is not online", cpu))
        return;
    send_IPI_mask_one(cpu, RESCHEDULE_VECTOR);
}

/* ---- call-function ---------------------------------------------------- */

struct call_data_struct {
    void (*func)(void *info);
    void *info;
    atomic_t started;                  /* targets that have read func, info, wait */
    atomic_t finished;                 /* targets that have run func (if wait) */
    int wait;
};
static DEFINE_SPINLOCK(call_lock);
static struct call_data_struct call_data;

static void smp_call_function_interrupt(void)
{
    void (*func)(void *info) = call_data.func;
    void *info = call_data.info;
    int wait = call_data.wait;

    smp_mb();                          /* read them before saying so */
    atomic_inc(&call_data.started);
    func(info);
    if (wait) {
        smp_mb();
        atomic_inc(&call_data.finished);
    }
}

/* Run func(info) on every CPU in mask (not this one); with wait, return
 * once every one has run it.  Interrupts on.  0 or -ETIMEDOUT. */
static int smp_call_function_mask(unsigned long mask, void (*func)(void *info), void *info,
                                  int wait)
{
    int cpus = __builtin_popcountl(mask), ret = 0;
    if (!cpus)
        return 0;
    WARN_ON(irqs_disabled());
    spin_lock(&call_lock);
    call_data.func = func;
    call_data.info = info;
    call_data.wait = wait;
    atomic_set(&call_data.started, 0);
    atomic_set(&call_data.finished, 0);
    smp_mb();
    send_IPI_mask(mask, CALL_FUNCTION_VECTOR);
    if (!wait_for_count(&call_data.started, cpus) ||
        (wait && !wait_for_count(&call_data.finished, cpus))) {
        WARN(1, "smp_call_function: %d of %d CPUs answered in 1 s (mask %#lx)",
             atomic_read(wait ? &call_data.finished : &call_data.started), cpus, mask);
        ret = -ETIMEDOUT;
    }
    spin_unlock(&call_lock);
    return ret;
}

int smp_call_function(void (*func)(void *info), void *info, int wait)
{
    return smp_call_function_mask(others_online(), func, info, wait);
}

int smp_call_function_single(int cpu, void (*func)(void *info), void *info, int wait)
{
    if (cpu == smp_processor_id()) {
        unsigned long flags = local_irq_save();
        func(info);                    /* as Linux: here, interrupts off */
        local_irq_restore(flags);
        return 0;
    }
    if (!cpu_online(cpu))
        return -ENXIO;
    return smp_call_function_mask(1ul << cpu, func, info, wait);
}

/* ---- the TLB shootdown ------------------------------------------------ */

DEFINE_PER_CPU(struct tlb_state, cpu_tlbstate) = { NULL, TLBSTATE_OK };

static DEFINE_SPINLOCK(tlbstate_lock);
static struct mm_struct *flush_mm;     /* NULL: a kernel mapping, every CPU */
static unsigned long flush_va;         /* TLB_FLUSH_ALL: everything */
static volatile unsigned long flush_cpumask;

void __flush_tlb_all(void)
{
    unsigned long cr4 = __read_cr4();
    if (cr4 & X86_CR4_PGE) {           /* toggling PGE drops the global entries too */
        __write_cr4(cr4 & ~X86_CR4_PGE);
        __write_cr4(cr4);
    } else {
        __write_cr3(__read_cr3());
    }
}

/* Linux's leave_mm: this CPU, lazy (a kernel thread keeps the mm of the
 * task before it), stops keeping it: swapper_pg_dir in CR3, out of the
 * mm's mask, so that no flush of that mm asks it again and the mm may be
 * freed.  The mask bit goes last: after it, nothing here touches the mm
 * (exit_mmap frees it once the mask has emptied: docs/smp.md).  Interrupts
 * off. */
void leave_mm(int cpu)
{
    struct tlb_state *ts = this_cpu_ptr(&cpu_tlbstate);
    struct mm_struct *mm = ts->active_mm;
    BUG_ON(cpu != smp_processor_id() || ts->state == TLBSTATE_OK);
    if (!mm)
        return;
    ts->active_mm = NULL;
    switch_pgd(swapper_pg_dir);
    clear_bit(cpu, &mm->cpu_vm_mask);
}

/* What a CPU does with a flush of (mm, va) for its own TLB: drop the entry
 * (or all of them) if mm is the one loaded here and a task of it runs; leave
 * mm if this CPU only keeps it lazily (Linux 2.6.24's rule: a lazy CPU
 * would otherwise be asked again at every flush).  A kernel address (mm
 * NULL): every CPU drops it.  Interrupts off. */
static void flush_tlb_here(struct mm_struct *mm, unsigned long va)
{
    struct tlb_state *ts = this_cpu_ptr(&cpu_tlbstate);
    if (mm && mm != ts->active_mm)
        return;                        /* not loaded here (any more) */
    if (mm && ts->state == TLBSTATE_LAZY) {
        leave_mm(smp_processor_id());
        return;
    }
    if (va == TLB_FLUSH_ALL)
        __flush_tlb_all();
    else
        __flush_tlb_one(va);
}

static void smp_invalidate_interrupt(void)
{
    int cpu = smp_processor_id();
    if (!test_bit(cpu, &flush_cpumask))
        return;                        /* not for us (a late IPI) */
    flush_tlb_here(flush_mm, flush_va);
    smp_mb();
    clear_bit(cpu, &flush_cpumask);
}

/* Linux's flush_tlb_others: the CPUs in mask do flush_tlb_here(mm, va);
 * return once they have. */
static void flush_tlb_others(unsigned long mask, struct mm_struct *mm, unsigned long va)
{
    unsigned long flags;
    spin_lock_irqsave(&tlbstate_lock, flags);
    flush_mm = mm;
    flush_va = va;
    flush_cpumask = mask;
    smp_mb();
    send_IPI_mask(mask, INVALIDATE_TLB_VECTOR);
    for (long i = 0; flush_cpumask && i < 100000; i++)     /* 1 s */
        udelay(10);
    WARN(flush_cpumask, "flush_tlb_others: CPUs %#lx did not answer in 1 s", flush_cpumask);
    flush_cpumask = 0;
    spin_unlock_irqrestore(&tlbstate_lock, flags);
}

/* The PTE change is made before this reads the mask: a CPU that sets its
 * bit later (switch_mm, a locked op before its CR3 load) loads the changed
 * PTE.  Here first: mm in use on this CPU (a task of it runs: only a
 * context switch changes that, never an interrupt) or a kernel address,
 * drop the entry; mm kept lazily, leave it (interrupts off: a flush IPI
 * may do the same meanwhile). */
static void flush_tlb_mm_range(struct mm_struct *mm, unsigned long va)
{
    struct tlb_state *ts = this_cpu_ptr(&cpu_tlbstate);
    if (!mm || (ts->active_mm == mm && ts->state == TLBSTATE_OK)) {
        if (va == TLB_FLUSH_ALL)
            __flush_tlb_all();
        else
            __flush_tlb_one(va);
    } else if (ts->active_mm == mm) {
        unsigned long flags = local_irq_save();
        flush_tlb_here(mm, va);
        local_irq_restore(flags);
    }
    unsigned long others = others_online();
    if (!others)
        return;
    unsigned long mask = (mm ? READ_ONCE(mm->cpu_vm_mask) : cpu_online_mask) & others;
    if (mask)
        flush_tlb_others(mask, mm, va);
}

void flush_tlb_mm_page(struct mm_struct *mm, unsigned long va)
{
    if (va >= TASK_SIZE)
        mm = NULL;                     /* the kernel's half: in every directory */
    flush_tlb_mm_range(mm, va == TLB_FLUSH_ALL ? va : va & PAGE_MASK);
}

void flush_tlb_mm(struct mm_struct *mm)
{
    if (mm)
        flush_tlb_mm_range(mm, TLB_FLUSH_ALL);
}

void flush_tlb_page(unsigned long va)
{
    struct mm_struct *mm = this_cpu_read(cpu_tlbstate.active_mm);
    if (va < TASK_SIZE && !mm) {
        __flush_tlb_one(va);           /* swapper_pg_dir: no user half */
        return;
    }
    flush_tlb_mm_page(mm, va);
}

void flush_tlb_all(void)
{
    unsigned long flags = local_irq_save();
    __flush_tlb_all();
    local_irq_restore(flags);
    if (others_online())
        flush_tlb_others(others_online(), NULL, TLB_FLUSH_ALL);
}

/* ---- stopping the others ---------------------------------------------- */

/* Linux's stop_this_cpu: offline, timer off, interrupts off, halted. */
static void __attribute__((noreturn)) stop_this_cpu(void)
{
    clear_bit(smp_processor_id(), &cpu_online_mask);
    apic_write(APIC_LVTT, APIC_LVT_MASKED);
    for (;;)
        __asm__ volatile("cli; hlt" ::: "memory");
}

void smp_send_stop(void)
{
    if (!others_online())
        return;
    send_IPI_mask(others_online(), REBOOT_VECTOR);
    for (int i = 0; others_online() && i < 10000; i++)     /* 100 ms */
        udelay(10);
}

/* ---- the local APIC's vectors ----------------------------------------- */

void smp_apic_interrupt(unsigned vector, struct pt_regs *regs)
{
    irq_cpustat_t *st = this_cpu_ptr(&irq_stat);

    if (vector == SPURIOUS_APIC_VECTOR) {
        st->irq_spurious_count++;      /* no EOI: the SDM says so */
        return;
    }
    /* EOI first, as do_IRQ: the boot CPU's tick may switch tasks. */
    ack_APIC_irq();
    lockdep_hardirq_enter();
    switch (vector) {
    case LOCAL_TIMER_VECTOR:
        st->apic_timer_irqs++;
        timer_tick(regs);              /* jiffies (the boot CPU's), the scheduler's tick, the watchdogs */
        break;
    case RESCHEDULE_VECTOR:
        /* Only its arrival matters: it ends the hlt of a CPU waiting for
         * work (kernel/sched.c, kick_idle_cpu), which then looks at the
         * run queue. */
        st->irq_resched_count++;
        break;
    case CALL_FUNCTION_VECTOR:
        st->irq_call_count++;
        smp_call_function_interrupt();
        break;
    case INVALIDATE_TLB_VECTOR:
        st->irq_tlb_count++;
        smp_invalidate_interrupt();
        break;
    case REBOOT_VECTOR:
        stop_this_cpu();
    default:
        WARN(1, "smp_apic_interrupt: vector %#x", vector);
    }
    lockdep_hardirq_exit();
}

/* ---- /proc/interrupts ------------------------------------------------- */

int show_interrupts(char *buf, size_t size)
{
    size_t n = 0;
    int cpu;
    char sym[64];
#define OUT(...) (n += snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__))
    OUT("           ");
    for_each_online_cpu(cpu)
        OUT("CPU%-8d", cpu);
    OUT("\n");
    for (unsigned irq = 0; irq < NR_IRQS; irq++) {
        irq_handler_t h = irq_first_handler(irq);
        if (!h)
            continue;
        OUT("%3u: ", irq);
        for_each_online_cpu(cpu)
            OUT("%10lu ", per_cpu(kstat, cpu).irqs[irq]);
        unsigned long off, sz;
        const char *name = ksym_lookup((unsigned long)h, &off, &sz);
        snprintf(sym, sizeof sym, "%s", name ? name : "?");
        OUT(" %-14s  %s\n", irq_get_chip()->name, sym);
    }
    static const struct { const char *row, *what; size_t off; } rows[] = {
        { "LOC", "Local timer interrupts", offsetof(irq_cpustat_t, apic_timer_irqs) },
        { "RES", "Rescheduling interrupts", offsetof(irq_cpustat_t, irq_resched_count) },
        { "CAL", "Function call interrupts", offsetof(irq_cpustat_t, irq_call_count) },
        { "TLB", "TLB shootdowns", offsetof(irq_cpustat_t, irq_tlb_count) },
        { "SPU", "Spurious interrupts", offsetof(irq_cpustat_t, irq_spurious_count) },
    };
    for (size_t r = 0; r < ARRAY_SIZE(rows); r++) {
        OUT("%3s: ", rows[r].row);
        for_each_online_cpu(cpu)
            OUT("%10lu ", *(unsigned long *)((char *)&per_cpu(irq_stat, cpu) + rows[r].off));
        OUT("  %s\n", rows[r].what);
    }
#undef OUT
    return n < size ? (int)n : (int)size;
}
