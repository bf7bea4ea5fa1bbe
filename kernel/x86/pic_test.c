/* kernel/x86/pic_test.c: the ktests of pic.c (test=traps); built into the
 * test kernel only (make check), never into the production kernel. The tests
 * reach pic.c's static functions and data, so this file includes it: in the
 * test kernel the two are one object (Makefile). */
#include "pic.c"
#include <ktest.h>

static void count_handler(struct pt_regs *regs, void *data)
{
    (*(volatile unsigned long *)data)++;
}

KTEST(traps, request_irq_shares_timer_line)
{
    static volatile unsigned long hits;
    hits = 0;
    KT_ASSERT_EQ(request_irq(0, count_handler, (void *)&hits), 0);
    KT_EXPECT_EQ(request_irq(0, count_handler, (void *)&hits), -EBUSY);
    KT_EXPECT_EQ(request_irq(16, count_handler, NULL), -EINVAL);
    KT_EXPECT_EQ(request_irq(3, NULL, NULL), -EINVAL);
    for (long spin = 0; spin < 100000000 && hits < 3; spin++)
        hlt();
    free_irq(0, count_handler, (void *)&hits);
    KT_EXPECT(hits >= 3);
    unsigned long seen = hits;
    for (int i = 0; i < 3; i++)
        hlt();                         /* the timer still ticks, we are gone */
    KT_EXPECT_EQ(hits, seen);
    /* On the 8259A (noapic, nosmp, no I/O APIC), the master's mask
     * register has line 0 open only if a handler is left (the PIT's tick,
     * when there is no local APIC timer), line 3 closed; once the I/O APIC
     * routes (io_apic_test.c checks its entries), every line is closed. */
    uint8_t mask = inb(PIC1_DATA);
    if (irq_chip == &i8259A_chip) {
        KT_EXPECT_EQ(mask & 1, irq_actions[0] ? 0 : 1);
        KT_EXPECT_EQ((mask >> 3) & 1, 1);
    } else {
        KT_EXPECT_EQ(mask, 0xFF);
    }
}
