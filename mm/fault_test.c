/* mm/fault_test.c: the ktests of fault.c (test=fault); built into the test
 * kernel only (make check), never into the production kernel. The tests reach
 * fault.c's static functions and data, so this file includes it: in the test
 * kernel the two are one object (Makefile). */
#include "fault.c"
#include <ktest.h>

#include "internal.h"


KTEST(fault, exception_table_is_populated)
{
    /* probe_test.S contributes two entries; each fixup lies near its insn. */
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

/* trap_init sorted the table (sort_main_extable): every entry is found by
 * the binary search, nothing between or outside them is. */
KTEST(fault, exception_table_sorted_and_every_entry_found)
{
    const struct exception_table_entry *s = __start_ex_table, *e = __stop_ex_table;
    KT_ASSERT(e - s >= 2);
    const struct exception_table_entry *last = s + (e - s - 1);
    bool sorted = true, found = true, gaps = true;
    for (const struct exception_table_entry *x = s; x < e; x++) {
        if (x > s)
            sorted &= x[-1].insn < x->insn;             /* strictly: no duplicates */
        found &= search_exception_tables(x->insn) == x;
        if (x + 1 == e || x[1].insn != x->insn + 1)
            gaps &= search_exception_tables(x->insn + 1) == NULL;
        if (x == s || x[-1].insn != x->insn - 1)
            gaps &= search_exception_tables(x->insn - 1) == NULL;
    }
    KT_EXPECT(sorted);
    KT_EXPECT(found);
    KT_EXPECT(gaps);
    KT_EXPECT(search_exception_tables(s->insn - 0x1000) == NULL);
    KT_EXPECT(search_exception_tables(last->insn + 0x1000) == NULL);
    KT_EXPECT(search_exception_tables(~0UL) == NULL);
}

/* sort_extable on tables of every length 0..9, in reverse order, rotated
 * by half and with neighbours swapped: the result is the sorted
 * permutation, each fixup moved with its insn. */
KTEST(fault, sort_extable_sorts_entries_with_their_fixups)
{
    struct exception_table_entry t[9];
    bool ok = true;
    for (int n = 0; n <= 9; n++)
        for (int order = 0; order < 3; order++) {
            for (int i = 0; i < n; i++) {
                int k = order == 0 ? n - 1 - i
                      : order == 1 ? (i + n / 2) % n
                      : ((i ^ 1) < n ? i ^ 1 : i);
                t[i].insn = 0x1000 + 16 * (unsigned long)k;
                t[i].fixup = 0x9000 + (unsigned long)k;
            }
            sort_extable(t, t + n);
            for (int i = 0; i < n; i++)
                ok &= t[i].insn == 0x1000 + 16 * (unsigned long)i &&
                      t[i].fixup == 0x9000 + (unsigned long)i;
        }
    KT_EXPECT(ok);
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
