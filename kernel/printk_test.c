/* kernel/printk_test.c: the ktests of printk.c (test=printk): formats, the
 * log ring, %pV; built into the test kernel only (make check), never into the
 * production kernel. */
#include <kernel.h>
#include <string.h>
#include <console.h>
#include <ktest.h>

KTEST(printk, formats)
{
    char b[64];
    snprintf(b, sizeof b, "%d|%u|%x|%X|%5d|%-4d|%05d", -42, 7u, 0xbeefu, 0xabu, 12, 3, -7);
    KT_EXPECT(!strcmp(b, "-42|7|beef|AB|   12|3   |-0007"));
    snprintf(b, sizeof b, "%s|%.3s|%6s|%-6s|%c|%%", "abc", "abcdef", "hi", "hi", 'z');
    KT_EXPECT(!strcmp(b, "abc|abc|    hi|hi    |z|%"));
    snprintf(b, sizeof b, "%lld|%llu|%llx|%p|%#x", -1234567890123LL,
             18446744073709551615ULL, 0x123456789aULL, (void *)0xc0100000, 0x1f);
    KT_EXPECT(!strcmp(b, "-1234567890123|18446744073709551615|123456789a|0xc0100000|0x1f"));
    const char *volatile nul = NULL;   /* hide the NULL from gcc's checker */
    snprintf(b, sizeof b, "%s", nul);
    KT_EXPECT(!strcmp(b, "(null)"));
}

KTEST(printk, truncation_reports_full_length)
{
    char b[8];
    int n = snprintf(b, sizeof b, "%s", "0123456789");
    KT_EXPECT_EQ(n, 10);
    KT_EXPECT(!strcmp(b, "0123456"));
    KT_EXPECT_EQ(snprintf(NULL, 0, "%d", 12345), 5);
}

/* snprintf "<%pV>" of (fmt, ...): what warn_at and ktest_fail do. */
static int __attribute__((format(printf, 3, 4))) wrap(char *b, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct va_format vaf = { fmt, &ap };
    int len = snprintf(b, n, "<%pV>", &vaf);
    va_end(ap);
    return len;
}

KTEST(printk, pV_prints_the_callers_message)
{
    char b[32];
    KT_EXPECT_EQ(wrap(b, sizeof b, "%s=%d", "x", 42), 6);
    KT_EXPECT(!strcmp(b, "<x=42>"));
    KT_EXPECT_EQ(wrap(b, 6, "%s", "abcdef"), 8);     /* truncated, full length */
    KT_EXPECT(!strcmp(b, "<abcd"));
    KT_EXPECT_EQ(wrap(b, 2, "%s", "abcdef"), 8);
    KT_EXPECT(!strcmp(b, "<"));
}

KTEST(printk, log_ring_keeps_messages)
{
    static char buf[16384];
    printk(KERN_DEBUG "ktest-marker-%d\n", 4711);
    size_t n = log_read(buf, sizeof buf);
    KT_ASSERT(n > 0);
    bool found = false;
    for (size_t i = 0; i + 16 <= n; i++)
        if (!memcmp(buf + i, "ktest-marker-4711", 16))
            found = true;
    KT_EXPECT(found);
}
