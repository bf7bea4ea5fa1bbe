/* kernel/x86/doublefault_test.c: the ktests of doublefault.c (test=traps);
 * built into the test kernel only (make check), never into the production
 * kernel. The tests reach doublefault.c's static functions and data, so this
 * file includes it: in the test kernel the two are one object (Makefile). */
#include "doublefault.c"
#include <ktest.h>


KTEST(traps, doublefault_tss_ready)
{
    const struct x86_hw_tss *d = &doublefault_tss;
    KT_EXPECT_EQ(d->ip, (unsigned long)doublefault_entry);
    KT_EXPECT_EQ(d->sp, (unsigned long)&doublefault_stack + THREAD_SIZE);
    KT_EXPECT_EQ(d->cs, __KERNEL_CS);
    KT_EXPECT_EQ(d->ss, __KERNEL_DS);
    KT_EXPECT_EQ(d->ds, __KERNEL_DS);
    KT_EXPECT_EQ(d->flags & 0x200, 0);                   /* IF off in the handler */
    KT_EXPECT_EQ(d->cr3, virt_to_phys(swapper_pg_dir));
    /* GDT entry: base = doublefault_tss, type 9 (32-bit TSS, available: the
     * CPU refuses to switch to a busy one). */
    struct desc_struct g = gdt_get(GDT_ENTRY_DOUBLEFAULT_TSS);
    unsigned long base = (g.a >> 16) | (g.b & 0xFF) << 16 | (g.b & 0xFF000000);
    KT_EXPECT_EQ(base, (unsigned long)&doublefault_tss);
    KT_EXPECT_EQ((g.b >> 8) & 0xFF, 0x89);
    KT_EXPECT_EQ(g.a & 0xFFFF, sizeof doublefault_tss - 1);
}

KTEST(traps, stack_overflow_verdicts)
{
    unsigned long sp = (unsigned long)__builtin_frame_address(0), lo, hi;
    KT_ASSERT(task_of_stack(sp, &lo, &hi) == current);
    KT_EXPECT(sp >= lo && sp < hi);
    unsigned long lo2, hi2;
    KT_EXPECT(task_of_stack(lo - 16, &lo2, &hi2) == current);   /* the guard page */
    KT_EXPECT_EQ(lo2, lo);
    KT_EXPECT(task_of_stack(lo - PAGE_SIZE - 4, &lo2, &hi2) != current);
    KT_EXPECT(task_of_stack(0x1000, &lo2, &hi2) == NULL);
    KT_EXPECT(!report_stack_overflow(hi - 64));          /* near the top: fine */
    KT_EXPECT(report_stack_overflow(lo + 16));           /* at the bottom */
    KT_EXPECT(report_stack_overflow(lo - 4));            /* below it */
    KT_EXPECT(!report_stack_overflow(0x1000));           /* nobody's stack */
}
