/* include/ktest.h: Vellum's in-kernel test framework (KUnit in spirit).
 *
 * A test lives next to the code it tests:
 *
 *     KTEST(kmalloc, sizes_are_aligned)
 *     {
 *         void *p = kmalloc(24);
 *         KASSERT(p != NULL);
 *         KASSERT_EQ((unsigned long)p % 8, 0);
 *         kfree(p);
 *     }
 *
 * Tests are collected in the .ktests section.  The command line selects
 * suites: test=kmalloc,paging or test=all (test=list prints "ktest: suite NAME"
 * for each suite, then "ktest: done").  Each test prints on the console
 *     ktest: start SUITE.NAME
 *     ktest: PASS SUITE.NAME           or
 *     ktest: FAIL SUITE.NAME at FILE:LINE: ASSERTION (details)
 * and after the last one
 *     ktest: done P passed, F failed
 * then the machine exits (isa-debug-exit) with status 0 iff F == 0.
 * A failed KASSERT ends that test (it returns from the test function);
 * KEXPECT records a failure and carries on.  tools/run-tests parses these lines.
 */
#ifndef _KTEST_H
#define _KTEST_H
#include <kernel.h>

struct ktest {
    const char *suite;
    const char *name;
    void (*fn)(void);
};

#define KTEST(suite, name) \
    static void ktest_##suite##_##name(void); \
    static const struct ktest ktest_desc_##suite##_##name \
        __attribute__((used, section(".ktests"), aligned(4))) = \
        { #suite, #name, ktest_##suite##_##name }; \
    static void ktest_##suite##_##name(void)

void ktest_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int ktest_failed(void);                  /* has the current test failed yet? */

#define KEXPECT(cond) do { if (!(cond)) \
        ktest_fail(__FILE__, __LINE__, "%s", #cond); } while (0)
#define KASSERT(cond) do { if (!(cond)) { \
        ktest_fail(__FILE__, __LINE__, "%s", #cond); return; } } while (0)
#define KASSERT_EQ(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
        if (_a != _b) { ktest_fail(__FILE__, __LINE__, "%s == %s (%lld != %lld)", \
        #a, #b, _a, _b); return; } } while (0)
#define KEXPECT_EQ(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
        if (_a != _b) ktest_fail(__FILE__, __LINE__, "%s == %s (%lld != %lld)", \
        #a, #b, _a, _b); } while (0)

/* Run the suites named by test= (called from kmain once the kernel is up). */
void ktest_run(const char *selection) __attribute__((noreturn));
/* Called by kmain in the test kernel only, once the initcalls have run:
 * test= runs the ktests, bench= the benchmarks (include/bench.h); either
 * ends the boot.  Without them the test kernel boots on like the other. */
void ktest_boot(void);
#endif
