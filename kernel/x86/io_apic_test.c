/* kernel/x86/io_apic_test.c: the ktests of the interrupt routing (suite
 * smp, tools/suites/smp.conf): with an I/O APIC and neither noapic nor
 * nosmp, every line with a handler is an unmasked redirection entry on its
 * pin (QEMU's IRQ 0 on pin 2) with its vector, edge, to its CPU (round
 * robin over the online CPUs: not all on one when there are several),
 * every other pin masked, the 8259A wholly masked and the boot CPU's LINT0
 * too; else the 8259A routes, its lines with handlers open.  Either way the
 * tick is the local APIC timer's: the PIT's IRQ 0 has no handler.  The
 * keyboard's line, moved by /proc/irq/1/smp_affinity's write to each
 * online CPU in turn, is taken and counted there (an interrupt the i8042
 * makes on command); empty, offline-only and malformed masks are refused.
 * Built into the test kernel only. */
#include "io_apic.c"
#include <ktest.h>
#include <asm/io.h>
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <timer.h>

KTEST(smp, io_apic_routes_the_isa_irqs_or_the_8259A_does)
{
    bool want_ioapic = !cmdline_get("noapic") && !cmdline_get("nosmp") && mp_info.nr_ioapics;
    uint16_t pic_mask = inb(0x21) | inb(0xA1) << 8;

    KT_EXPECT(lapic_timer_ticks != 0);
    KT_EXPECT(irq_first_handler(0) == NULL);      /* the PIT's tick was given up */
    KT_ASSERT(irq_first_handler(1) != NULL);      /* the keyboard's */
    KT_EXPECT_EQ(irq_get_chip() == &ioapic_chip, want_ioapic);
    if (!want_ioapic) {
        KT_EXPECT(irq_get_chip() == &i8259A_chip);
        for (unsigned irq = 0; irq < NR_IRQS; irq++)
            if (irq != 2)
                KT_EXPECT_EQ(!(pic_mask & 1u << irq), irq_first_handler(irq) != NULL);
        return;
    }
    KT_EXPECT_EQ(pic_mask, 0xFFFF);
    KT_EXPECT(apic_read(APIC_LVT0) & APIC_LVT_MASKED);
    KT_EXPECT_EQ(mp_info.isa_irq[0].gsi, 2u);       /* QEMU's interrupt source override */
    uint32_t routed = 0;                           /* pins with a line's entry */
    unsigned long dests = 0;                       /* the CPUs they go to */
    int lines = 0;
    for (unsigned irq = 0; irq < NR_IRQS; irq++) {
        unsigned pin = mp_info.isa_irq[irq].gsi;
        if (!irq_first_handler(irq) || pin >= nr_ioapic_pins)
            continue;
        uint32_t low = io_apic_read(IO_APIC_REDTBL + 2 * pin);
        uint32_t high = io_apic_read(IO_APIC_REDTBL + 2 * pin + 1);
        KT_EXPECT_EQ(low & 0xFF, FIRST_EXTERNAL_VECTOR + irq);
        KT_EXPECT_EQ(low & (IO_APIC_MASKED | 0x700 | 0x800), 0u);   /* open, fixed, physical */
        KT_EXPECT(cpu_online(irq_dest(irq)));
        KT_EXPECT_EQ(high >> 24, (uint32_t)per_cpu(cpu_info, irq_dest(irq)).apicid);
        KT_EXPECT_EQ(irq_affinity(irq), 1ul << irq_dest(irq));   /* the round robin's */
        int k = irq % num_online_cpus(), nth = 0, c;
        for (c = 0; c < irq_dest(irq); c++)
            nth += cpu_online(c);
        KT_EXPECT_EQ(nth, k);
        dests |= 1ul << irq_dest(irq);
        lines++;
        if (!(mp_info.isa_irq[irq].flags & MP_IRQTRIG_MASK))
            KT_EXPECT(!(low & (IO_APIC_TRIGGER_LEVEL | IO_APIC_POLARITY_LOW)));   /* ISA: edge high */
        routed |= 1u << pin;
    }
    for (unsigned pin = 0; pin < nr_ioapic_pins; pin++)
        if (!(routed & 1u << pin))
            KT_EXPECT(io_apic_read(IO_APIC_REDTBL + 2 * pin) & IO_APIC_MASKED);
    /* Spread: line n to the (n mod N)th online CPU, so with two or more
     * the keyboard's (IRQ 1) is not on the boot CPU. */
    KT_EXPECT(lines >= 2);                         /* the keyboard's and the serial port's */
    KT_EXPECT_EQ(dests & 1ul << irq_dest(1), 1ul << irq_dest(1));
    if (num_online_cpus() >= 2)
        KT_EXPECT(irq_dest(1) != 0 && dests != 1);
}

/* A keyboard interrupt, made by the i8042 itself: its "write keyboard
 * output buffer" command (0xD2) puts the next data byte in its output
 * buffer as if the keyboard had sent it, and raises IRQ 1.  The byte is
 * the space bar's release, which the driver ignores.  Waits asleep (the
 * handler's CPU needs the big kernel lock we hold) until CPU cpu counted
 * it; true if it did within 200 ms. */
static bool kbd_irq_on(int cpu)
{
    unsigned long before = per_cpu(kstat, cpu).irqs[1];
    for (int i = 0; i < 1000 && (inb(0x64) & 2); i++)
        udelay(10);
    outb(0x64, 0xD2);
    for (int i = 0; i < 1000 && (inb(0x64) & 2); i++)
        udelay(10);
    outb(0x60, 0xB9);
    for (int i = 0; i < 20 && per_cpu(kstat, cpu).irqs[1] == before; i++)
        msleep(10);
    return per_cpu(kstat, cpu).irqs[1] == before + 1;
}

static int affinity_text(unsigned irq, char *buf, size_t size)
{
    int n = show_irq_affinity(irq, buf, size - 1);
    buf[n > 0 ? n : 0] = 0;
    return n;
}

KTEST(smp, smp_affinity_moves_a_line_to_each_cpu)
{
    bool ioapic = irq_get_chip() == &ioapic_chip;
    unsigned long was = irq_affinity(1), count[NR_CPUS];
    char buf[32], want[32];
    int cpu, digits = (mp_info.nr_cpus + 3) / 4;

    KT_ASSERT(irq_first_handler(1) != NULL);
    affinity_text(1, buf, sizeof buf);
    snprintf(want, sizeof want, "%0*lx\n", digits > 0 ? digits : 1, was);
    KT_EXPECT(!strcmp(buf, want));
    /* Refused as Linux refuses them: nothing, no online CPU, not hex. */
    KT_EXPECT_EQ(store_irq_affinity(1, "0\n", 2), -EINVAL);
    KT_EXPECT_EQ(store_irq_affinity(1, "\n", 1), -EINVAL);
    KT_EXPECT_EQ(store_irq_affinity(1, "xyz", 3), -EINVAL);
    KT_EXPECT_EQ(store_irq_affinity(1, "1 2", 3), -EINVAL);
    KT_EXPECT_EQ(store_irq_affinity(1, "100", 3), -EOVERFLOW);
    if (num_online_cpus() < NR_CPUS)
        KT_EXPECT_EQ(irq_set_affinity(1, ~cpu_online_mask & ((1ul << NR_CPUS) - 1)), -EINVAL);
    KT_EXPECT_EQ(irq_set_affinity(NR_IRQS, 1), -EINVAL);
    KT_EXPECT_EQ(irq_affinity(1), was);            /* the refusals changed nothing */
    if (!ioapic) {
        KT_EXPECT_EQ(store_irq_affinity(1, "1\n", 2), -EIO);   /* the 8259A: CPU 0's wire */
        KT_EXPECT(kbd_irq_on(0));
        return;
    }
    for_each_online_cpu(cpu) {
        char mask[16];
        int n = snprintf(mask, sizeof mask, "%lx\n", 1ul << cpu);
        KT_EXPECT_EQ(store_irq_affinity(1, mask, n), 0);
        KT_EXPECT_EQ(irq_dest(1), cpu);
        KT_EXPECT_EQ(io_apic_read(IO_APIC_REDTBL + 2 * mp_info.isa_irq[1].gsi + 1) >> 24,
                     (uint32_t)per_cpu(cpu_info, cpu).apicid);
        int other;
        for_each_online_cpu(other)
            count[other] = per_cpu(kstat, other).irqs[1];
        KT_EXPECT(kbd_irq_on(cpu));                /* taken there ... */
        for_each_online_cpu(other)                 /* ... and nowhere else */
            if (other != cpu)
                KT_EXPECT_EQ(per_cpu(kstat, other).irqs[1], count[other]);
    }
    /* Several CPUs, offline ones among them: the first online one. */
    KT_EXPECT_EQ(store_irq_affinity(1, "fe\n", 3), num_online_cpus() > 1 ? 0 : -EINVAL);
    if (num_online_cpus() > 1) {
        KT_EXPECT_EQ(irq_dest(1), 1);
        affinity_text(1, buf, sizeof buf);
        snprintf(want, sizeof want, "%0*lx\n", digits, 0xfeul);
        KT_EXPECT(!strcmp(buf, want));
    }
    KT_EXPECT_EQ(irq_set_affinity(1, was), 0);
}
