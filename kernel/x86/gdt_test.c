/* kernel/x86/gdt_test.c: the ktests of gdt.c (test=traps); built into the
 * test kernel only (make check), never into the production kernel. The tests
 * reach gdt.c's static functions and data, so this file includes it: in the
 * test kernel the two are one object (Makefile). */
#include "gdt.c"
#include <ktest.h>
#include <err.h>
#include <sched.h>

static unsigned short read_seg(int which)
{
    unsigned short v = 0;
    switch (which) {
    case 0: __asm__ volatile("mov %%cs, %0" : "=r"(v)); break;
    case 1: __asm__ volatile("mov %%ds, %0" : "=r"(v)); break;
    case 2: __asm__ volatile("mov %%ss, %0" : "=r"(v)); break;
    case 3: __asm__ volatile("str %0" : "=r"(v)); break;
    }
    return v;
}

KTEST(traps, gdt_segments_loaded)
{
    KT_EXPECT_EQ(read_seg(0), __KERNEL_CS);
    KT_EXPECT_EQ(read_seg(1), __KERNEL_DS);
    KT_EXPECT_EQ(read_seg(2), __KERNEL_DS);
    KT_EXPECT_EQ(read_seg(3), __TSS_SEL);
    /* User code: DPL 3 (bits 13-14 of the high word), code type. */
    struct desc_struct uc = gdt_get(GDT_ENTRY_USER_CS);
    KT_EXPECT_EQ((uc.b >> 13) & 3, 3);
    KT_EXPECT_EQ((uc.b >> 8) & 0xFF, ACC_UCODE);
    /* The CPU marks the TSS busy (type 0xB) once loaded with ltr. */
    KT_EXPECT_EQ((gdt_get(GDT_ENTRY_TSS).b >> 8) & 0xF, 0xB);
}

KTEST(traps, tls_desc_and_gs_load)
{
    static uint32_t tls_word = 0x5a5aa5a5;
    struct user_desc u = { .entry_number = 6, .base_addr = (unsigned long)&tls_word,
                           .limit = 0xFFFFF, .seg_32bit = 1, .limit_in_pages = 1,
                           .useable = 1 };
    struct desc_struct d;
    KT_ASSERT_EQ(tls_fill_desc(&d, &u), 0);
    KT_ASSERT_EQ(gdt_set_tls(GDT_ENTRY_TLS_MIN, d), 0);
    KT_EXPECT_EQ(gdt_set_tls(2, d), -EINVAL);
    /* Load %gs with the TLS selector (entry 6, RPL 3 = 0x33) from ring 0 and
     * read through it: %gs:0 must be tls_word. */
    uint32_t got;
    unsigned long sel = (GDT_ENTRY_TLS_MIN << 3) | 3;
    unsigned long flags = local_irq_save();
    __asm__ volatile("movl %1, %%gs\n\tmovl %%gs:0, %0\n\t"
                     "xorl %1, %1\n\tmovl %1, %%gs" : "=r"(got), "+r"(sel) :: "memory");
    local_irq_restore(flags);
    KT_EXPECT_EQ(got, 0x5a5aa5a5);
    struct user_desc empty = { .read_exec_only = 1, .seg_not_present = 1 };
    KT_ASSERT_EQ(tls_fill_desc(&d, &empty), 0);
    KT_EXPECT_EQ(d.a | d.b, 0);
    struct user_desc code = { .contents = 2, .seg_32bit = 1 };
    KT_EXPECT_EQ(tls_fill_desc(&d, &code), -EINVAL);
    gdt_set_tls(GDT_ENTRY_TLS_MIN, (struct desc_struct){ 0, 0 });
}

/* The kernel keeps the user's %fs/%gs while it runs (entry.S) and switch_to
 * swaps only the stacks, so a task would otherwise run in the kernel with
 * the selectors of the task before it.  If they name a TLS entry that the
 * switch reloaded for another task (empty, say), a kernel-mode interrupt
 * saves them and faults popping them back (#GP in restore_all).  A context
 * switch must leave null selectors behind.  Here: %gs = a valid TLS entry,
 * then a switch to a kthread and back. */
static int switch_peer(void *arg)
{
    return 7;
}

KTEST(traps, context_switch_drops_stale_tls_selector)
{
    static uint32_t tls_word;
    struct user_desc u = { .entry_number = 6, .base_addr = (unsigned long)&tls_word,
                           .limit = 0xFFFFF, .seg_32bit = 1, .limit_in_pages = 1,
                           .useable = 1 };
    struct desc_struct d;
    KT_ASSERT_EQ(tls_fill_desc(&d, &u), 0);
    KT_ASSERT_EQ(gdt_set_tls(GDT_ENTRY_TLS_MIN, d), 0);
    unsigned long sel = (GDT_ENTRY_TLS_MIN << 3) | 3, gs;
    __asm__ volatile("movl %0, %%gs" :: "r"(sel) : "memory");
    struct task_struct *t = kthread_run(switch_peer, NULL, "tls_peer");
    KT_EXPECT(!IS_ERR(t));
    if (!IS_ERR(t))
        KT_EXPECT_EQ(kthread_stop(t), 7);       /* we slept: two switches */
    __asm__ volatile("movl %%gs, %0" : "=r"(gs));
    __asm__ volatile("movl %0, %%gs" :: "r"(0UL) : "memory");
    gdt_set_tls(GDT_ENTRY_TLS_MIN, (struct desc_struct){ 0, 0 });
    KT_EXPECT_EQ(gs & 0xffff, 0);
}
