/* include/ktest.h: Vellum's in-kernel test framework (KUnit in spirit).
 *
 * A test lives beside the code it tests, in a file of its own named after it
 * (mm/kmalloc.c's tests are in mm/kmalloc_test.c), and is built into the test
 * kernel only (build/vellum-test.elf, compiled with -DCONFIG_KTEST: see the
 * Makefile); the production kernel has none of this.  A test that needs the
 * tested file's static functions begins with #include "kmalloc.c".
 *
 *     KTEST(kmalloc, sizes_are_aligned)
 *     {
 *         void *p = kmalloc(24);
 *         KT_ASSERT(p != NULL);
 *         KT_ASSERT_EQ((unsigned long)p % 8, 0);
 *         kfree(p);
 *     }
 *
 * Tests are collected in the .ktests section.  The command line selects
 * suites: test=kmalloc,paging or test=all (test=list prints "ktest: suite NAME"
 * for each suite, then "ktest: done").  Each test prints on the console
 *     ktest: start SUITE.NAME
 *     ktest: assertion failed at FILE:LINE: ASSERTION (details)   (each failed check)
 *     ktest: PASS SUITE.NAME           or       ktest: FAIL SUITE.NAME
 * and after the last one
 *     ktest: done P passed, F failed
 * then the machine exits (isa-debug-exit) with status 0 iff F == 0.  A test
 * the kernel's own watchdog finds stuck (ktest_stuck(), include/ktest_bug.h:
 * a soft lockup, a hung-task report, a self-deadlock of the test's task)
 * ends the boot instead, with
 *     ktest: FAIL SUITE.NAME (REPORT: the boot ends here)
 *     ktest: aborted by a REPORT in SUITE.NAME: P passed, F failed, N not run
 * and a failure status.
 * A failed KT_ASSERT ends that test (it returns from the test function);
 * KT_EXPECT records a failure and carries on.  tools/run-tests parses these lines.
 * The KT_ prefix marks them as a test's checks: the kernel's own assertions
 * are BUG_ON (a broken contract) and WARN_ON (a survivable oddity), kernel.h.
 */
#ifndef _KTEST_H
#define _KTEST_H
#include <kernel.h>
#include <asm/percpu.h>                  /* NR_CPUS */

struct ktest {
    const char *suite;
    const char *name;
    void (*fn)(void);
    unsigned flags;
};
#define KTEST_F_ENDS_BOOT 1              /* KTEST_ENDS_BOOT() below */

#define __KTEST(suite, name, flags) \
    static void ktest_##suite##_##name(void); \
    static const struct ktest ktest_desc_##suite##_##name \
        __attribute__((used, section(".ktests"), aligned(4))) = \
        { #suite, #name, ktest_##suite##_##name, flags }; \
    static void ktest_##suite##_##name(void)
#define KTEST(suite, name) __KTEST(suite, name, 0)
/* A test that ends its boot on purpose (a planted lockup, to see the
 * watchdog end it: kernel/watchdog_test.c).  It runs only when named in full,
 * test=SUITE.NAME, never with its suite or test=all, and test=list does not
 * name a suite that has only such tests: a host test boots it alone and
 * reads the log (tools/tests/lockups.sh). */
/* (The same selection serves a test that FAILS on purpose, to show how the
 * runner reports it: lockdep.unplanted_report_fails_the_test.) */
#define KTEST_ENDS_BOOT(suite, name) __KTEST(suite, name, KTEST_F_ENDS_BOOT)

void ktest_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int ktest_failed(void);                  /* has the current test failed yet? */
/* What the kernel printed (the printk ring) after the last occurrence of
 * marker, NUL-terminated in a buffer of the runner's; "" if marker is not
 * in the ring.  For tests of the kernel's reports: print a marker, make the
 * report, then look for its lines with ktest_find. */
const char *ktest_log_since(const char *marker);
/* strstr (the kernel's lib has none): the first needle in s, or NULL. */
const char *ktest_find(const char *s, const char *needle);
/* The super block of the file system that path (followed) is on, or NULL
 * if the lookup fails: for tests of one mounted file system. */
struct super_block;
struct super_block *ktest_sb_of(const char *path);
/* Bytes off .. off+n-1 of the test-file pattern keyed key (tools/vpattern.c;
 * defined in fs/ext2/ext2_test.c): what the host's vpattern writes. */
void vpattern_fill(void *buf, size_t n, const char *key, uint64_t off);
/* Write len bytes of that pattern to path (created or truncated), from
 * byte 0; 0 or -errno.  And copy the whole of disk from onto disk to (a
 * crash image: what the disk held at that moment); 0 or -errno.  Both
 * defined in fs/jbd/transaction_test.c. */
int ktest_write_pattern(const char *path, const char *key, size_t len);
int ktest_copy_disk(const char *from, const char *to);
/* Plant a disk write error (fs/jbd/transaction_test.c): from
 * ktest_fail_writes until ktest_fail_writes_end, bdev's writes that touch
 * sectors first..end-1 fail with -EIO and every other request goes to its
 * driver; _end puts the driver's ops back and returns how many writes
 * failed.  One range at a time. */
struct block_device;
void ktest_fail_writes(struct block_device *bdev, unsigned long first, unsigned long end);
int ktest_fail_writes_end(struct block_device *bdev);
/* SMP tests without the big kernel lock (defined in kernel/test/ktest_smp.c).
 * ktest_smp_run starts ktest_smp_nr() workers: a kernel thread per online
 * CPU (two on one CPU when only one is online), worker i bound to the
 * i-th online CPU (modulo their number), named "NAME/CPU".  Each moves to
 * its CPU (set_cpus_allowed), lets go of the big kernel lock that
 * kthread_main took (unlock_kernel) and waits, asleep, for the others;
 * when all are ready one "go" releases them together and each calls
 * fn(w, arg), then takes the big lock back and exits with fn's value.
 * ktest_smp_run waits for every worker to exit (kthread_stop) and fills
 * *s: what each fn returned, the CPU it returned on, whether it held the
 * big lock after letting go (it must not), the time from the go to the
 * last exit, and how many times the big lock was taken meanwhile
 * (/proc/lock_stat's kernel_flag: by anyone, the ticks too).  It returns 0,
 * or -errno if a kernel thread could not be made: the test has failed
 * then, and the workers started were stopped without calling fn.  Per-
 * worker data is the caller's, indexed by w->id. */
#define KTEST_SMP_MAX (NR_CPUS + 1)
struct ktest_smp_worker {
    int id;                  /* 0 .. nr - 1 */
    int cpu;                 /* the CPU it is bound to */
    bool shares_cpu;         /* another worker is bound to that CPU too */
    int ret;                 /* once stopped: what fn returned */
    int ran_on;              /* the CPU fn returned on */
    bool had_big_lock;       /* kernel_locked() once it let go */
};
struct ktest_smp {
    int nr, ncpus;           /* workers; online CPUs */
    unsigned long ms;        /* from the go to the last worker's exit */
    unsigned long big_lock;  /* the big kernel lock's acquisitions meanwhile */
    struct ktest_smp_worker w[KTEST_SMP_MAX];
};
int ktest_smp_nr(void);
int ktest_smp_run(struct ktest_smp *s, const char *name,
                  int (*fn)(struct ktest_smp_worker *w, void *arg), void *arg);
/* SMP step 5 (docs/smp.md): a writer per online CPU (two on one CPU),
 * each a kernel thread bound to its CPU that lets go of the big kernel
 * lock (ktest_smp_run) and overwrites, rounds times, 4 KiB pieces of its own 64 KiB file
 * dir/smpwN (pattern key "smpwN") and, every fourth round, its own stripe
 * of dir/smpw_shared (key "smpw_shared"), through kernel_write.  Then
 * every byte is read back and checked, and the big kernel lock must have
 * been taken fewer times than a quarter of the writes (/proc/lock_stat's
 * kernel_flag).  Fails the running test on any error; returns the writes
 * during which another writer's write finished.  Defined in
 * fs/read_write_test.c. */
unsigned long ktest_smp_writers(const char *dir, int rounds);
/* The buddy allocator's free lists are well formed and add up to its free
 * counts (defined in mm/page_alloc_test.c; mm/kmalloc_test.c uses it too). */
bool free_lists_consistent(void);

#define KT_EXPECT(cond) do { if (!(cond)) \
        ktest_fail(__FILE__, __LINE__, "%s", #cond); } while (0)
#define KT_ASSERT(cond) do { if (!(cond)) { \
        ktest_fail(__FILE__, __LINE__, "%s", #cond); return; } } while (0)
#define KT_ASSERT_EQ(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
        if (_a != _b) { ktest_fail(__FILE__, __LINE__, "%s == %s (%lld != %lld)", \
        #a, #b, _a, _b); return; } } while (0)
#define KT_EXPECT_EQ(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
        if (_a != _b) ktest_fail(__FILE__, __LINE__, "%s == %s (%lld != %lld)", \
        #a, #b, _a, _b); } while (0)

/* Run the suites named by test= (called from kmain once the kernel is up). */
void ktest_run(const char *selection) __attribute__((noreturn));
/* Called by kmain in the test kernel only, once the initcalls have run:
 * test= runs the ktests, bench= the benchmarks (include/bench.h); either
 * ends the boot.  Without them the test kernel boots on like the other. */
void ktest_boot(void);
#endif
