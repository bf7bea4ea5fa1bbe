/* kernel/drivers/tty_test.c: the ktests of tty.c (test=tty); built into the
 * test kernel only (make check), never into the production kernel. The tests
 * reach tty.c's static functions and data, so this file includes it: in the
 * test kernel the two are one object (Makefile). */
#include "tty.c"
#include <ktest.h>

/* ---- tests: type characters, read lines ---------------------------------- */

static void type(const char *s)
{
    while (*s)
        tty_receive_char(*s++);
}

KTEST(tty, canonical_lines_and_editing)
{
    char buf[64];
    tty_reset();
    type("ls");
    KT_EXPECT_EQ(tty_chars_available(), 0);          /* no line yet */
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 1), -EAGAIN);
    type("x\x7f -l\r");                             /* DEL erases the x; CR -> NL */
    KT_EXPECT_EQ(tty_chars_available(), 6);
    ssize_t n = tty_kernel_read(buf, sizeof buf, 0);
    KT_ASSERT_EQ(n, 6);
    KT_EXPECT(memcmp(buf, "ls -l\n", 6) == 0);
    type("junk\x15" "echo\n" "two\n");             /* ^U kills the line */
    n = tty_kernel_read(buf, sizeof buf, 0);        /* one line per read */
    KT_ASSERT_EQ(n, 5);
    KT_EXPECT(memcmp(buf, "echo\n", 5) == 0);
    n = tty_kernel_read(buf, 2, 0);                 /* a short read leaves the rest */
    KT_EXPECT_EQ(n, 2);
    n = tty_kernel_read(buf, sizeof buf, 0);
    KT_EXPECT_EQ(n, 2);
    KT_EXPECT(memcmp(buf, "o\n", 2) == 0);
    type("\x7f\x7f");                               /* erase at an empty line: nothing */
    KT_EXPECT_EQ(tty_chars_available(), 0);
}

KTEST(tty, ctrl_d_is_end_of_file)
{
    char buf[16];
    tty_reset();
    type("\x04");
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 0);        /* EOF */
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 1), -EAGAIN);  /* consumed */
    type("abc\x04");                                 /* ^D mid-line: pushes the line */
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 3);
    KT_EXPECT(memcmp(buf, "abc", 3) == 0);
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 1), -EAGAIN);  /* the mark went too */
}

KTEST(tty, raw_mode_and_ctrl_c_flush)
{
    char buf[16];
    tty_reset();
    type("half");
    type("\x03");                                    /* ^C flushes the edited line */
    type("ok\n");
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 3);
    KT_EXPECT(memcmp(buf, "ok\n", 3) == 0);
    unsigned long flags;
    spin_lock_irqsave(&tty.lock, flags);
    tty.termios.c_lflag &= ~(ICANON | ECHO);
    spin_unlock_irqrestore(&tty.lock, flags);
    type("q\x7f");                                   /* raw: DEL is data */
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 2);
    KT_EXPECT_EQ(buf[0], 'q');
    KT_EXPECT_EQ(buf[1], 0x7f);
    tty_reset();
}

/* poll: readable only once a whole line (or a ^D) is in, in canonical mode. */
KTEST(tty, poll_readable_after_a_line)
{
    struct file f = { .f_op = &tty_fops };
    char buf[8];
    tty_reset();
    KT_EXPECT_EQ(vfs_poll(&f), POLLOUT | POLLWRNORM);
    type("ab");
    KT_EXPECT_EQ(vfs_poll(&f) & POLLIN, 0);            /* still being edited */
    type("\n");
    KT_EXPECT_EQ(vfs_poll(&f), POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM);
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 3);
    KT_EXPECT_EQ(vfs_poll(&f) & POLLIN, 0);
    type("\x04");                                    /* ^D: read returns 0, poll says readable */
    KT_EXPECT(vfs_poll(&f) & POLLIN);
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 0);
    tty_reset();
}

/* A kthread sleeps in read until a line arrives from "the keyboard". */
static char reader_buf[32];
static ssize_t reader_ret = -1;
static int tty_reader(void *unused)
{
    reader_ret = tty_kernel_read(reader_buf, sizeof reader_buf, 0);
    return 0;
}

KTEST(tty, read_sleeps_until_a_line)
{
    tty_reset();
    reader_ret = -1;
    struct task_struct *t = kthread_run(tty_reader, NULL, "ttyreader");
    KT_ASSERT(t != NULL);
    msleep(30);
    KT_EXPECT_EQ(reader_ret, -1);                      /* still asleep */
    type("hi");
    msleep(20);
    KT_EXPECT_EQ(reader_ret, -1);                      /* half a line wakes no one */
    type("\n");
    kthread_stop(t);
    KT_EXPECT_EQ(reader_ret, 3);
    KT_EXPECT(memcmp(reader_buf, "hi\n", 3) == 0);
}
