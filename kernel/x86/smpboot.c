/* kernel/x86/smpboot.c: bringing up the other CPUs, SMP step 1 (arch layer;
 * Linux 2.6.24's arch/x86/kernel/smpboot_32.c, in the small; docs/smp.md).
 *
 * Owns the boot of the application processors (APs): smp_init() reads
 * ACPI's MADT (acpi.c) or else the MP table (mpparse.c), maps and enables the boot CPU's local APIC
 * (apic.c), copies the real-mode trampoline (trampoline.S) to a free page
 * below 1 MiB, and starts each AP in turn (do_boot_cpu): a per-CPU area
 * (setup_percpu.c), an idle task and kernel stack, a GDT and TSS
 * (gdt.c), then INIT and two STARTUP IPIs (wakeup_secondary_cpu_via_init),
 * and a bounded wait for the AP to mark itself online.  The AP's path:
 *
 *   trampoline.S (real mode) -> boot/entry.S startup_32_smp (protected
 *   mode, paging on with the boot directory, then swapper_pg_dir, its GDT,
 *   %fs, its stack) -> start_secondary() here: IDT, TSS, local APIC and
 *   its timer, cpuid, online, idle.
 *
 * Before the APs, the boot CPU's interrupts move to the I/O APIC
 * (io_apic.c; the 8259A stays with `noapic`, `nosmp` or no I/O APIC) and
 * its tick to its local APIC timer (setup_boot_APIC_clock, apic.c).  An
 * AP starts its own APIC timer and its FPU, then enters its idle loop
 * (cpu_idle, kernel/sched.c): it runs tasks from the one run queue, and
 * halts with interrupts on, taking its ticks and IPIs (smp.c), when there
 * are none (step 3).  Only the boot CPU takes the devices' interrupts.  `nosmp` or `maxcpus=1`
 * on the command line, or no MP table, boots on one CPU as before.
 * Simplifications: the BIOS's warm-reset vector and CMOS shutdown code
 * (for the 82489DX external APICs that need INIT alone) are not set; an
 * AP that does not start is reported and its memory kept (it might still
 * wake up and use it). */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <init.h>
#include <cmdline.h>
#include <multiboot.h>
#include <sched.h>
#include <smp.h>
#include <timer.h>
#include <asm/layout.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/irqflags.h>
#include <asm/traps.h>
#include <asm/fpu.h>
#include <smp_lock.h>
#include "../sched_glue.h"
#include "apic.h"
#include "mpparse.h"

extern char trampoline_data[], trampoline_end[];           /* trampoline.S */
extern struct multiboot_info *boot_info;

unsigned long initial_stack;           /* the next AP's stack top (startup_32_smp) */
static unsigned long trampoline_phys;
static bool have_pge;

/* A free page below 1 MiB for the trampoline: the page allocator never hands
 * out the first MiB (mm/page_alloc.c), but the Multiboot structures may lie
 * there and are still read; the EBDA and above are the BIOS's.  0 if none. */
static bool overlaps(unsigned long pa, unsigned long start, unsigned long len)
{
    return len && pa < start + len && start < pa + PAGE_SIZE;
}

static unsigned long find_trampoline_page(void)
{
    const struct multiboot_info *mbi = boot_info;
    for (unsigned long pa = 0x8000; pa < 0x80000; pa += PAGE_SIZE) {
        if (overlaps(pa, virt_to_phys(mbi), sizeof *mbi))
            continue;
        if ((mbi->flags & MB_INFO_MEM_MAP) && overlaps(pa, mbi->mmap_addr, mbi->mmap_length))
            continue;
        if ((mbi->flags & MB_INFO_CMDLINE) &&
            overlaps(pa, mbi->cmdline, strlen(phys_to_virt(mbi->cmdline)) + 1))
            continue;
        if ((mbi->flags & MB_INFO_MODS) && mbi->mods_count &&
            overlaps(pa, mbi->mods_addr, 0x10000))   /* the list and its names, roughly */
            continue;
        return pa;
    }
    return 0;
}

/* The AP's first C, on its own stack, with its GDT and %fs loaded by
 * startup_32_smp. */
void start_secondary(void)
{
    int cpu = smp_processor_id();
    struct cpuinfo_x86 *c = this_cpu_ptr(&cpu_info);

    if (have_pge)
        __write_cr4(__read_cr4() | X86_CR4_PGE);
    gdt_load_cpu(cpu);                 /* its TSS: ltr */
    idt_load();
    setup_local_APIC(false);
    identify_cpu(c);
    c->apicid = read_apic_id();
    printk(KERN_INFO "smpboot: CPU%d: %s (family: %#x, model: %#x, stepping: %#x), APIC id %d\n",
           cpu, c->x86_model_id, c->x86, c->x86_model, c->x86_stepping, c->apicid);
    if (lapic_timer_ticks)
        setup_APIC_timer();            /* its own tick, at HZ */
    fpu_init_secondary();              /* user tasks may run here */
    this_cpu_write(kernel_lock_depth, 0);  /* the copy of the boot CPU's holds kmain's */
    current->cpu = cpu;
    set_bit(cpu, &cpu_online_mask);    /* the boot CPU waits for this */
    /* Its idle loop: it runs tasks from the run queue, and halts with
     * interrupts on, taking its tick and IPIs, when there are none. */
    cpu_idle();
}

/* INIT, then two STARTUP IPIs with the trampoline's page, with the MP spec's
 * delays (B.4: INIT, 10 ms, STARTUP, 200 us, STARTUP).  Linux's
 * wakeup_secondary_cpu_via_init.  0, or -EIO if an IPI was never sent. */
static int wakeup_secondary_cpu_via_init(unsigned apicid, unsigned long start_eip)
{
    int err = 0;
    apic_write(APIC_ESR, 0);
    err |= apic_send_ipi(apicid, APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT);
    mdelay(10);
    err |= apic_send_ipi(apicid, APIC_INT_LEVELTRIG | APIC_DM_INIT);   /* deassert */
    for (int i = 0; i < 2; i++) {
        err |= apic_send_ipi(apicid, APIC_DM_STARTUP | (start_eip >> 12));
        udelay(200);
    }
    return err ? -EIO : 0;
}

/* Start CPU cpu (APIC id apicid); 0 once it is online. */
static int do_boot_cpu(int cpu, unsigned apicid)
{
    int err = setup_per_cpu_area(cpu);
    if (err)
        return err;
    struct task_struct *idle = alloc_task_struct();
    void *stack = alloc_thread_stack();
    if (!idle || !stack) {
        if (idle)
            free_task_struct(idle);
        if (stack)
            free_thread_stack(stack);
        return -ENOMEM;
    }
    /* Its idle task: Linux's fork_idle.  Never queued (PF_IDLE): the CPU runs
     * it until its run queue has a task for it (kernel/sched.c). */
    idle->state = TASK_RUNNING;
    idle->on_cpu = 1;                  /* its CPU's current: never queued */
    idle->flags = PF_IDLE;
    idle->cpus_allowed = 1ul << cpu;
    idle->stack = stack;
    snprintf(idle->comm, sizeof idle->comm, "swapper/%d", cpu);
    INIT_LIST_HEAD(&idle->run_list);
    INIT_LIST_HEAD(&idle->tasks);
    ((struct thread_info *)stack)->task = idle;
    ((struct thread_info *)stack)->magic = STACK_END_MAGIC;
    per_cpu(current_task, cpu) = idle;
    per_cpu(idle_task, cpu) = idle;
    init_idle(idle, cpu);              /* its run queue's current (kernel/sched.c) */
    per_cpu(cpu_loaded_pgd, cpu) = swapper_pg_dir;     /* startup_32_smp loads it */
    per_cpu(cpu_tlbstate, cpu) = (struct tlb_state){ NULL, TLBSTATE_OK };   /* no mm */

    unsigned long top = (unsigned long)stack + THREAD_SIZE;
    gdt_prepare_cpu(cpu, top);
    early_gdt_descr.address = (uint32_t)(unsigned long)&per_cpu(gdt_page, cpu);
    initial_stack = top;

    printk(KERN_INFO "smpboot: Booting Node 0 Processor %d APIC %#x\n", cpu, apicid);
    err = wakeup_secondary_cpu_via_init(apicid, trampoline_phys);
    /* Wait for it, in guest time: 2 s (Linux waits 5). */
    for (int ms = 0; !err && ms < 2000 && !cpu_online(cpu); ms++)
        mdelay(1);
    if (!cpu_online(cpu)) {
        printk(KERN_ERR "CPU%d failed to start%s\n", cpu, err ? " (IPI not delivered)" : "");
        return err ? err : -EIO;
    }
    return 0;
}

/* Linux's setup_boot_APIC_clock: calibrate, start the boot CPU's APIC
 * timer, and give up the PIT's interrupt (its counter stays udelay's). */
static void setup_boot_APIC_clock(void)
{
    calibrate_APIC_clock();
    if (WARN(lapic_timer_ticks < 100, "apic: timer counts %lu per tick: the PIT keeps the tick",
             lapic_timer_ticks)) {
        lapic_timer_ticks = 0;
        return;
    }
    unsigned long flags = local_irq_save();
    setup_APIC_timer();
    pit_stop_tick();
    local_irq_restore(flags);
    printk(KERN_INFO "apic: the tick is each CPU's local APIC timer, at %d Hz\n", HZ);
}

/* Linux's smp_init (with smp_prepare_cpus). */
static void smp_init(void)
{
    const char *maxcpus = cmdline_get("maxcpus");
    int max = NR_CPUS;
    if (maxcpus && *maxcpus)
        max = simple_strtoul(maxcpus, NULL, 10);
    if (cmdline_get("nosmp"))
        max = 1;

    if (!(acpi_parse_madt() || mp_parse_config()) || !lapic_map(mp_info.lapic_addr)) {
        printk(KERN_INFO "smp: one CPU (no MADT or MP table, or no local APIC)\n");
        return;
    }
    setup_local_APIC(true);
    unsigned boot_id = read_apic_id();
    this_cpu_ptr(&cpu_info)->apicid = boot_id;
    /* The boot CPU is CPU 0: move its entry first, the rest keep their order. */
    int i = 0;
    while (i < mp_info.nr_cpus && mp_info.cpu[i].apicid != boot_id)
        i++;
    if (i == mp_info.nr_cpus) {
        printk(KERN_ERR "smp: the boot CPU's APIC id %u is not in the table: one CPU\n", boot_id);
        mp_info.nr_cpus = 1;
        mp_info.cpu[0].apicid = boot_id;
        return;
    }
    __typeof__(mp_info.cpu[0]) boot = mp_info.cpu[i];
    memmove(&mp_info.cpu[1], &mp_info.cpu[0], i * sizeof boot);
    mp_info.cpu[0] = boot;
    setup_IO_APIC();
    setup_boot_APIC_clock();
    if (max <= 1 || mp_info.nr_cpus == 1) {
        printk(KERN_INFO "smp: Brought up 1 node, 1 CPU%s\n",
               mp_info.nr_cpus > 1 ? " (nosmp or maxcpus=1)" : "");
        return;
    }
    trampoline_phys = find_trampoline_page();
    if (!trampoline_phys || trampoline_end - trampoline_data > PAGE_SIZE) {
        printk(KERN_ERR "smp: no page below 1 MiB for the trampoline: one CPU\n");
        return;
    }
    memcpy(phys_to_virt(trampoline_phys), trampoline_data, trampoline_end - trampoline_data);
    have_pge = __read_cr4() & X86_CR4_PGE;

    printk(KERN_INFO "x86: Booting SMP configuration:\n");
    int cpu = 1;
    for (int i = 1; i < mp_info.nr_cpus && cpu < max; i++)
        if (!do_boot_cpu(cpu, mp_info.cpu[i].apicid))
            cpu++;
    printk(KERN_INFO "smp: Brought up 1 node, %d CPU%s\n", num_online_cpus(),
           num_online_cpus() == 1 ? "" : "s");
    setup_ioapic_dest();               /* the devices' lines to every CPU */
}
subsys_initcall(smp_init);
