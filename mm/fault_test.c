/* mm/fault_test.c: the ktests of fault.c (test=fault); built into the test
 * kernel only (make check), never into the production kernel. The tests reach
 * fault.c's static functions and data, so this file includes it: in the test
 * kernel the two are one object (Makefile). */
#include "fault.c"
#include <ktest.h>

#include "internal.h"


KTEST(fault, exception_table_is_populated)
{
    /* probe.S contributes two entries; each fixup lies near its insn. */
    KT_ASSERT(__stop_ex_table - __start_ex_table >= 2);
    const struct exception_table_entry *e = search_exception_tables(__start_ex_table[0].insn);
    KT_EXPECT(e == &__start_ex_table[0]);
    KT_EXPECT(search_exception_tables((unsigned long)do_page_fault) == NULL);
    KT_EXPECT(search_exception_tables(0) == NULL);
    struct pt_regs regs = { .ip = (unsigned long)do_page_fault };
    KT_EXPECT_EQ(fixup_exception(&regs), 0);
    KT_EXPECT_EQ(regs.ip, (unsigned long)do_page_fault);
    regs.ip = __start_ex_table[1].insn;
    KT_EXPECT_EQ(fixup_exception(&regs), 1);
    KT_EXPECT_EQ(regs.ip, __start_ex_table[1].fixup);
}

KTEST(fault, unmapped_kernel_read_returns_efault)
{
    static volatile uint8_t target = 0x5a;
    uint8_t v = 0;
    unsigned long faults0 = page_fault_count, fixups0 = page_fault_fixups;

    int mapped = probe_kernel_read_u8((const void *)&target, &v);
    int top = probe_kernel_read_u8((const void *)0xFFC01234, &v);  /* unused top 4 MiB */
    int null = probe_kernel_read_u8(NULL, &v);                     /* no identity map */
    int user = probe_kernel_read_u8((const void *)0x08048000, &v); /* user half, empty */
    int wnull = probe_kernel_write_u8(NULL, 1);

    KT_EXPECT_EQ(mapped, 0);
    KT_EXPECT_EQ(top, -EFAULT);
    KT_EXPECT_EQ(null, -EFAULT);
    KT_EXPECT_EQ(user, -EFAULT);
    KT_EXPECT_EQ(wnull, -EFAULT);
    KT_EXPECT_EQ(page_fault_count, faults0 + 4);
    KT_EXPECT_EQ(page_fault_fixups, fixups0 + 4);
    /* The kernel survived and its memory is intact. */
    uint8_t w = 0;
    KT_EXPECT_EQ(probe_kernel_read_u8((const void *)&target, &w), 0);
    KT_EXPECT_EQ(w, 0x5a);
}
