/* kernel/ksyms_test.c: the ktests of ksyms.c (test=ksyms); built into the
 * test kernel only (make check), never into the production kernel. The tests
 * reach ksyms.c's static functions and data, so this file includes it: in the
 * test kernel the two are one object (Makefile). */
#include "ksyms.c"
#include <ktest.h>

KTEST(ksyms, lookup_known_function)
{
    KT_ASSERT(ksyms_count > 10);
    unsigned long a = (unsigned long)ksym_lookup;
    unsigned long off = 99, size = 0;
    const char *n = ksym_lookup(a, &off, &size);
    KT_ASSERT(n != NULL);
    KT_EXPECT(!strcmp(n, "ksym_lookup"));
    KT_EXPECT_EQ(off, 0);
    KT_EXPECT(size > 16 && size < 4096);
    n = ksym_lookup(a + 5, &off, NULL);
    KT_EXPECT(n && !strcmp(n, "ksym_lookup"));
    KT_EXPECT_EQ(off, 5);
    n = ksym_lookup(a + size, &off, NULL);         /* the next function */
    KT_EXPECT(n && strcmp(n, "ksym_lookup") != 0 && off == 0);
    KT_EXPECT_EQ(ksym_address("ksym_lookup"), a);
    KT_EXPECT_EQ(ksym_address("kmain"), (unsigned long)ksym_address("kmain"));
    KT_EXPECT(ksym_address("no_such_symbol_here") == 0);
    KT_EXPECT(ksym_lookup(0x1000, NULL, NULL) == NULL);
    KT_EXPECT(ksym_lookup((unsigned long)_etext + 16, NULL, NULL) == NULL);
    char buf[64];
    ksym_snprint(buf, sizeof buf, a + 0x10);
    char want[64];
    snprintf(want, sizeof want, "ksym_lookup+0x10/0x%lx", size);
    KT_EXPECT(!strcmp(buf, want));
}

KTEST(ksyms, addresses_ascending)
{
    for (unsigned long i = 1; i < ksyms_count; i++)
        if (ksyms_addrs[i] < ksyms_addrs[i - 1]) {
            KT_EXPECT(!"ksyms_addrs not sorted");
            return;
        }
}

/* A known call chain: test -> bt_level1 -> bt_level2 -> bt_level3 -> save_stack_trace.
 * noipa keeps gcc from cloning them (bt_level3.constprop.0); the asm barriers
 * after each call keep the calls from becoming tail jumps. */
static unsigned long bt_trace[STACK_TRACE_DEPTH];
static int bt_n;

static __noipa int bt_level3(int x)
{
    bt_n = save_stack_trace(bt_trace, STACK_TRACE_DEPTH);
    __asm__ volatile("" ::: "memory");
    return x + 1;
}
static __noipa int bt_level2(int x)
{
    int r = bt_level3(x + 1);
    __asm__ volatile("" ::: "memory");
    return r + 1;
}
static __noipa int bt_level1(int x)
{
    int r = bt_level2(x + 1);
    __asm__ volatile("" ::: "memory");
    return r + 1;
}

static bool frame_is(int i, const char *want)
{
    const char *n = i < bt_n ? ksym_lookup(bt_trace[i], NULL, NULL) : NULL;
    return n && !strcmp(n, want);
}

KTEST(ksyms, backtrace_names_call_chain)
{
    KT_EXPECT_EQ(bt_level1(0), 5);
    KT_ASSERT(bt_n >= 5);
    KT_EXPECT(frame_is(0, "bt_level3"));
    KT_EXPECT(frame_is(1, "bt_level2"));
    KT_EXPECT(frame_is(2, "bt_level1"));
    KT_EXPECT(frame_is(3, "ktest_ksyms_backtrace_names_call_chain"));
    KT_EXPECT(frame_is(4, "ktest_run"));
    /* ... and the chain ends at kmain, whose caller zeroed ebp */
    KT_EXPECT(frame_is(bt_n - 1, "higher_half") || frame_is(bt_n - 1, "kmain"));
}

KTEST(ksyms, walker_rejects_bad_frames)
{
    static unsigned long fake[16] __attribute__((aligned(16)));
    unsigned long lo = (unsigned long)fake, hi = lo + sizeof fake, out[8];
    unsigned long text = (unsigned long)ksym_lookup + 3;
    /* a loop: frame 0 -> frame 0 */
    fake[0] = lo; fake[1] = text;
    KT_EXPECT_EQ(walk_stack_bounded(lo, lo, hi, out, 8), 1);
    /* going down instead of up: stops after the first frame */
    fake[4] = lo; fake[5] = text;
    KT_EXPECT_EQ(walk_stack_bounded(lo + 16, lo, hi, out, 8), 1);
    /* out of the stack, into user space, misaligned */
    fake[0] = 0x1000;
    KT_EXPECT_EQ(walk_stack_bounded(lo, lo, hi, out, 8), 1);
    fake[0] = lo + 9;
    KT_EXPECT_EQ(walk_stack_bounded(lo, lo, hi, out, 8), 1);
    /* a return address outside kernel text ends the walk */
    fake[1] = 0xdeadbeef;
    KT_EXPECT_EQ(walk_stack_bounded(lo, lo, hi, out, 8), 0);
    /* a long valid chain is cut at max */
    for (int i = 0; i < 7; i++) {
        fake[2 * i] = lo + 8 * (i + 1);
        fake[2 * i + 1] = text;
    }
    fake[14] = 0; fake[15] = text;
    KT_EXPECT_EQ(walk_stack_bounded(lo, lo, hi, out, 8), 8);
    KT_EXPECT_EQ(walk_stack_bounded(lo, lo, hi, out, 3), 3);
    KT_EXPECT_EQ(out[2], text);
    KT_EXPECT_EQ(walk_stack_bounded(0, lo, hi, out, 8), 0);
}

/* show_regs_trace on a trap frame taken at the first instruction of a
 * function (its "push %ebp" not done yet): the frame pointer is still the
 * caller's, and the caller's own line must come from the return address on
 * top of the interrupted stack (leaf_return_address), not be skipped.  The
 * frame is made up: ip = ksyms_test_callee, the word at the interrupted esp
 * (regs.sp, see kernel_stack_pointer) the address just after this test's
 * call of it, bp this test's frame. */
static unsigned long callee_ret;

void __noipa ksyms_test_callee(void)
{
    callee_ret = (unsigned long)__builtin_return_address(0);
}

KTEST(ksyms, regs_trace_names_the_caller_of_a_frameless_function)
{
    struct pt_regs regs;
    ksyms_test_callee();
    KT_ASSERT(callee_ret != 0);
    memset(&regs, 0, sizeof regs);
    regs.ip = (unsigned long)ksyms_test_callee;
    regs.cs = 0x08;                                /* __KERNEL_CS */
    regs.sp = callee_ret;                          /* the top of the stack */
    regs.bp = (unsigned long)__builtin_frame_address(0);
    KT_EXPECT_EQ(leaf_return_address(&regs), callee_ret);
    printk(KERN_INFO "ksyms_test: trace follows\n");
    show_regs_trace(&regs);
    const char *log = ktest_log_since("ksyms_test: trace follows");
    const char *trace = ktest_find(log, "Call Trace:");
    KT_EXPECT(ktest_find(log, "EIP: ksyms_test_callee+0x0/0x") != NULL);
    KT_EXPECT(trace && ktest_find(trace, "] ktest_ksyms_regs_trace_names_the_caller_of_a_frameless_function+0x"));
    KT_EXPECT(trace && ktest_find(trace, "] ktest_run+0x"));
    /* a frame with no such return address: nothing added */
    regs.sp = 0;
    KT_EXPECT_EQ(leaf_return_address(&regs), 0);
}
