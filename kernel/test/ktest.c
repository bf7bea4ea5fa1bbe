/* kernel/test/ktest.c: runs the in-kernel tests collected by KTEST() in the
 * .ktests section, as selected by test= on the command line.  See ktest.h
 * for the output protocol tools/run-tests reads. */
#include <kernel.h>
#include <string.h>
#include <ktest.h>
#include <console.h>
#include <cmdline.h>
#include <bench.h>

extern const struct ktest __start_ktests[], __stop_ktests[];
static int cur_failed;

void ktest_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct va_format vaf = { fmt, &ap };
    printk(KERN_ERR "ktest: assertion failed at %s:%d: %pV\n", file, line, &vaf);
    va_end(ap);
    cur_failed++;
}

int ktest_failed(void) { return cur_failed; }

/* Is suite named in the comma-separated selection ("all" selects every one)?
 * "suite.name" selects a single test. */
static bool selected(const char *sel, const struct ktest *t)
{
    size_t sl = strlen(t->suite);
    while (*sel) {
        const char *end = strchr(sel, ',');
        size_t n = end ? (size_t)(end - sel) : strlen(sel);
        if ((n == 3 && !strncmp(sel, "all", 3)) ||
            (n == sl && !strncmp(sel, t->suite, n)))
            return true;
        if (n > sl && sel[sl] == '.' && !strncmp(sel, t->suite, sl) &&
            n - sl - 1 == strlen(t->name) && !strncmp(sel + sl + 1, t->name, n - sl - 1))
            return true;
        sel += n + (end ? 1 : 0);
    }
    return false;
}

/* test=list: name every distinct suite once, in link order, so that the host
 * runner (tools/run-tests) can boot each suite on its own:
 *     ktest: suite NAME
 * then "ktest: done" and a passing exit. */
static void ktest_list(void)
{
    int n = 0;
    for (const struct ktest *t = __start_ktests; t < __stop_ktests; t++) {
        const struct ktest *u = __start_ktests;
        while (u < t && strcmp(u->suite, t->suite))
            u++;
        if (u == t) {                  /* first test of this suite */
            printk(KERN_INFO "ktest: suite %s\n", t->suite);
            n++;
        }
    }
    printk(KERN_INFO "ktest: done %d suites listed\n", n);
    qemu_exit(0);
}

void ktest_run(const char *selection)
{
    if (!strcmp(selection, "list"))
        ktest_list();
    int passed = 0, failed = 0;
    printk(KERN_INFO "ktest: running test=%s\n", selection);
    for (const struct ktest *t = __start_ktests; t < __stop_ktests; t++) {
        if (!selected(selection, t))
            continue;
        printk(KERN_INFO "ktest: start %s.%s\n", t->suite, t->name);
        cur_failed = 0;
        t->fn();
        if (cur_failed) {
            printk(KERN_ERR "ktest: FAIL %s.%s\n", t->suite, t->name);
            failed++;
        } else {
            printk(KERN_INFO "ktest: PASS %s.%s\n", t->suite, t->name);
            passed++;
        }
    }
    printk(KERN_INFO "ktest: done %d passed, %d failed\n", passed, failed);
    qemu_exit(failed ? 1 : 0);
}

void ktest_boot(void)
{
    const char *tests = cmdline_get("test");
    if (tests && *tests)
        ktest_run(tests);
    const char *bench = cmdline_get("bench");
    if (bench && *bench)
        bench_run(bench);
}
