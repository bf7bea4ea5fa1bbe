/* kernel/drivers/keyboard_test.c: the ktests of keyboard.c (test=console);
 * built into the test kernel only (make check), never into the production
 * kernel. The tests reach keyboard.c's static functions and data, so this
 * file includes it: in the test kernel the two are one object (Makefile). */
#include "keyboard.c"
#include <ktest.h>
#include <sched.h>                     /* msleep */

static int feed(struct kbd_state *st, const uint8_t *sc, int n, char *buf)
{
    int len = 0;
    for (int i = 0; i < n; i++)
        len += kbd_translate(st, sc[i], buf + len);
    buf[len] = '\0';
    return len;
}

KTEST(console, kbd_translate_table)
{
    static const struct {
        uint8_t sc[12];
        int n;
        const char *want;
    } cases[] = {
        { { 0x23, 0xA3, 0x17, 0x97 }, 4, "hi" },
        { { 0x2A, 0x23, 0xA3, 0xAA, 0x17 }, 5, "Hi" },                 /* left shift */
        { { 0x36, 0x02, 0x0D, 0xB6, 0x02 }, 5, "!+1" },                /* right shift */
        { { 0x3A, 0xBA, 0x1E, 0x02, 0x2A, 0x1E, 0xAA, 0x3A, 0x1E }, 9, "A1aa" }, /* caps */
        { { 0x1D, 0x2E, 0xAE, 0x9D, 0x2E }, 5, "\x03" "c" },           /* ^C, then c */
        { { 0x1C, 0x0E, 0x0F, 0x39 }, 4, "\r\x7f\t " },                /* enter bs tab space */
        { { 0xE0, 0x48, 0xE0, 0xC8, 0xE0, 0x4B }, 6, "\x1b[A\x1b[D" },  /* arrows */
        { { 0xE0, 0x47, 0xE0, 0x4F, 0xE0, 0xCF, 0xE0, 0x53 }, 8,
          "\x1b[H\x1b[F\x1b[3~" },                                      /* Home End Del */
        { { 0xE0, 0x2A, 0xE0, 0x1D, 0x20, 0xE0, 0x9D, 0x20 }, 8, "\x04" "d" }, /* rctrl */
        { { 0x3B, 0x38, 0x1E, 0xB8 }, 4, "a" },                        /* F1, alt: ignored */
        { { 0x1A, 0x2B, 0x29, 0x33, 0x35 }, 5, "[\\`,/" },
    };
    for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
        struct kbd_state st = { 0 };
        char buf[40];
        feed(&st, cases[i].sc, cases[i].n, buf);
        if (strcmp(buf, cases[i].want)) {
            ktest_fail(__FILE__, __LINE__, "case %u: got %d chars, first %#x", i,
                       (int)strlen(buf), (unsigned char)buf[0]);
        }
    }
}

/* End to end: the i8042's "write keyboard output buffer" command (0xD2)
 * makes the controller present a byte as if the keyboard had sent it, with
 * IRQ 1.  Shift-down, 'k' down and up, shift-up must reach the ring as "K". */
static void i8042_inject(uint8_t b)
{
    for (int i = 0; i < 100000 && (inb(KBD_STATUS) & KBD_STAT_IBF); i++)
        cpu_relax();
    outb(KBD_STATUS, 0xD2);
    for (int i = 0; i < 100000 && (inb(KBD_STATUS) & KBD_STAT_IBF); i++)
        cpu_relax();
    outb(KBD_DATA, b);
}

KTEST(console, keyboard_irq_feeds_console_input)
{
    while (console_getc_nonblock() >= 0)
        ;
    unsigned long before = kbd_bytes;
    static const uint8_t seq[] = { 0x2A, 0x25, 0xA5, 0xAA, 0x1C };
    for (unsigned i = 0; i < ARRAY_SIZE(seq); i++) {
        unsigned long want = before + i + 1;
        i8042_inject(seq[i]);
        unsigned long j0 = jiffies;
        /* Asleep, not in hlt(): on several CPUs IRQ 1 is another CPU's
         * (docs/smp.md, the I/O APIC), and its handler waits for the big
         * kernel lock, which this task lets go only when it sleeps. */
        while (kbd_bytes < want && jiffies - j0 < 20)
            msleep(1);
    }
    KT_EXPECT_EQ(kbd_bytes - before, ARRAY_SIZE(seq));
    KT_EXPECT_EQ(console_getc_nonblock(), 'K');
    KT_EXPECT_EQ(console_getc_nonblock(), '\r');
    KT_EXPECT_EQ(console_getc_nonblock(), -1);
}
