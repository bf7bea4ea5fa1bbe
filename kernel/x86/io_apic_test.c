/* kernel/x86/io_apic_test.c: the ktests of the interrupt routing (suite
 * smp, tools/suites/smp.conf): with an I/O APIC and neither noapic nor
 * nosmp, every line with a handler is an unmasked redirection entry on its
 * pin (QEMU's IRQ 0 on pin 2) with its vector, edge, to the boot CPU, every
 * other pin masked, the 8259A wholly masked and the boot CPU's LINT0 too;
 * else the 8259A routes, its lines with handlers open.  Either way the tick
 * is the local APIC timer's: the PIT's IRQ 0 has no handler.  Built into
 * the test kernel only. */
#include "io_apic.c"
#include <ktest.h>
#include <asm/io.h>

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
    for (unsigned irq = 0; irq < NR_IRQS; irq++) {
        unsigned pin = mp_info.isa_irq[irq].gsi;
        if (!irq_first_handler(irq) || pin >= nr_ioapic_pins)
            continue;
        uint32_t low = io_apic_read(IO_APIC_REDTBL + 2 * pin);
        uint32_t high = io_apic_read(IO_APIC_REDTBL + 2 * pin + 1);
        KT_EXPECT_EQ(low & 0xFF, FIRST_EXTERNAL_VECTOR + irq);
        KT_EXPECT_EQ(low & (IO_APIC_MASKED | 0x700 | 0x800), 0u);   /* open, fixed, physical */
        KT_EXPECT_EQ(high >> 24, (uint32_t)per_cpu(cpu_info, 0).apicid);
        if (!(mp_info.isa_irq[irq].flags & MP_IRQTRIG_MASK))
            KT_EXPECT(!(low & (IO_APIC_TRIGGER_LEVEL | IO_APIC_POLARITY_LOW)));   /* ISA: edge high */
        routed |= 1u << pin;
    }
    for (unsigned pin = 0; pin < nr_ioapic_pins; pin++)
        if (!(routed & 1u << pin))
            KT_EXPECT(io_apic_read(IO_APIC_REDTBL + 2 * pin) & IO_APIC_MASKED);
    /* The keyboard's interrupts counted so far came on the boot CPU. */
    int cpu;
    for_each_online_cpu(cpu)
        if (cpu)
            KT_EXPECT_EQ(per_cpu(kstat, cpu).irqs[1], 0ul);
}
