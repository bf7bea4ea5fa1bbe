/* kernel/test/ktest.c: runs the in-kernel tests collected by KTEST() in the
 * .ktests section, as selected by test= on the command line, and ends the
 * boot when the kernel's watchdogs find the running test stuck
 * (ktest_stuck(), include/ktest_bug.h).  See ktest.h for the output
 * protocol tools/run-tests reads. */
#include <kernel.h>
#include <string.h>
#include <ktest.h>
#include <ktest_bug.h>
#include <console.h>
#include <cmdline.h>
#include <bench.h>
#include <sched.h>
#include <watchdog.h>
#include <timer.h>
#include <ksyms.h>
#include <lockdep.h>
#include <fs.h>
#include <asm/irqflags.h>

extern const struct ktest __start_ktests[], __stop_ktests[];
static int cur_failed;
static int passed, failed;
static const char *cur_selection;
static const struct ktest *cur_test;      /* the running test, NULL between tests */
static struct task_struct *ktest_task;    /* the task that runs them */

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

const char *ktest_find(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (; *s; s++)
        if (!strncmp(s, needle, n))
            return s;
    return n ? NULL : s;
}

struct super_block *ktest_sb_of(const char *path)
{
    struct path p;
    if (kern_path(path, LOOKUP_FOLLOW, &p))
        return NULL;
    struct super_block *sb = p.inode->i_sb;
    path_put(&p);
    return sb;
}

const char *ktest_log_since(const char *marker)
{
    static char log[16384 + 1];            /* the whole ring (kernel/printk.c) */
    size_t n = log_read(log, sizeof log - 1);
    log[n] = '\0';
    const char *at = NULL;
    for (const char *p = ktest_find(log, marker); p; p = ktest_find(p + 1, marker))
        at = p;
    return at ? at + strlen(marker) : log + n;
}

/* Is suite named in the comma-separated selection ("all" selects every one)?
 * "suite.name" selects a single test; a KTEST_ENDS_BOOT test only that way. */
static bool selected(const char *sel, const struct ktest *t)
{
    size_t sl = strlen(t->suite);
    bool whole = !(t->flags & KTEST_F_ENDS_BOOT);
    while (*sel) {
        const char *end = strchr(sel, ',');
        size_t n = end ? (size_t)(end - sel) : strlen(sel);
        if (whole && ((n == 3 && !strncmp(sel, "all", 3)) ||
                      (n == sl && !strncmp(sel, t->suite, n))))
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
 * then "ktest: done" and a passing exit.  KTEST_ENDS_BOOT tests do not make
 * a suite (they are booted by name). */
static void ktest_list(void)
{
    int n = 0;
    for (const struct ktest *t = __start_ktests; t < __stop_ktests; t++) {
        if (t->flags & KTEST_F_ENDS_BOOT)
            continue;
        const struct ktest *u = __start_ktests;
        while (u < t && (strcmp(u->suite, t->suite) || (u->flags & KTEST_F_ENDS_BOOT)))
            u++;
        if (u == t) {                  /* first test of this suite */
            printk(KERN_INFO "ktest: suite %s\n", t->suite);
            n++;
        }
    }
    printk(KERN_INFO "ktest: done %d suites listed\n", n);
    qemu_exit(0);
}

/* ktest_timeout=SECONDS (tools/run-tests passes its TIMEOUT): the boot's
 * budget of guest time, from power-on, checked on every tick.  Past it the
 * running test fails and the boot ends (ktest_stuck), with where the tick
 * found the CPU.  Under QEMU's -icount (tools/testlib.sh) the guest's clock
 * counts instructions, so the budget does not shrink when the host is
 * loaded; the host's own time-out is only the last resort. */
static unsigned long ktest_deadline;           /* jiffies; 0: none */
static tick_hook_t ktest_next_tick;

static void ktest_tick(struct pt_regs *regs)
{
    if (ktest_next_tick)
        ktest_next_tick(regs);                 /* the scheduler's first */
    if (!ktest_deadline || time_before(jiffies, ktest_deadline))
        return;
    ktest_deadline = 0;
    printk(KERN_ERR "ktest: time-out: the boot ran %lu s of guest time (ktest_timeout=%s); "
           "the tick found:\n", jiffies / HZ, cmdline_get("ktest_timeout"));
    show_regs_trace(regs);
    ktest_stuck("time-out", NULL);
}

/* The lock validator's reports (include/lockdep.h) that no test planted
 * fail the test during which they were made; those of the boot before the
 * first test fail the first test.  (After an unplanted report the validator
 * is off, so later tests run unwatched: the first failure is the one to
 * read.) */
static void lockdep_check_quiet(const struct ktest *t)
{
    static unsigned long seen;
    unsigned long unplanted = lockdep_reports - ktest_lockdep_planted;
    if (unplanted == seen)
        return;
    ktest_fail(__FILE__, __LINE__, "%lu lock validator report%s during %s.%s (see above)",
               unplanted - seen, unplanted - seen > 1 ? "s" : "", t->suite, t->name);
    seen = unplanted;
}

void ktest_run(const char *selection)
{
    if (!strcmp(selection, "list"))
        ktest_list();
    cur_selection = selection;
    ktest_task = current;
    const char *t = cmdline_get("ktest_timeout");
    if (t && *t) {
        ktest_deadline = simple_strtoul(t, NULL, 10) * HZ;
        ktest_next_tick = timer_set_tick_hook(ktest_tick);
    }
    printk(KERN_INFO "ktest: running test=%s\n", selection);
    for (const struct ktest *t = __start_ktests; t < __stop_ktests; t++) {
        if (!selected(selection, t))
            continue;
        printk(KERN_INFO "ktest: start %s.%s\n", t->suite, t->name);
        cur_failed = 0;
        /* Each test gets the soft-lockup detector's full time: the runner
         * itself never schedules between tests. */
        touch_softlockup_watchdog();
        cur_test = t;
        t->fn();
        cur_test = NULL;
        lockdep_check_quiet(t);
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

/* include/ktest_bug.h.  The test cannot be unwound (the caller may be the
 * timer interrupt that found it spinning, or the test's own task about to
 * sleep forever): fail it, count what is left, leave QEMU. */
void ktest_stuck(const char *report, struct task_struct *task)
{
    const struct ktest *t = cur_test;
    if (!t || (task && task != ktest_task))
        return;
    local_irq_disable();
    cur_test = NULL;
    int not_run = 0;
    for (const struct ktest *u = t + 1; u < __stop_ktests; u++)
        if (selected(cur_selection, u))
            not_run++;
    printk(KERN_ERR "ktest: FAIL %s.%s (%s: the boot ends here)\n", t->suite, t->name, report);
    failed++;
    printk(KERN_ERR "ktest: aborted by a %s in %s.%s: %d passed, %d failed, %d not run\n",
           report, t->suite, t->name, passed, failed, not_run);
    qemu_exit(1);
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
