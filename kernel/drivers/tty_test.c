/* kernel/drivers/tty_test.c: the ktests of tty.c (test=tty); built into the
 * test kernel only (make check), never into the production kernel. The tests
 * reach tty.c's static functions and data, so this file includes it: in the
 * test kernel the two are one object (Makefile). */
#include "tty.c"
#include <ktest.h>

/* Read up to n bytes into a kernel buffer as read(2) would (blocking unless
 * nonblock): n_tty_read with a memcpy for the copy out.  Returns bytes, 0 at
 * end of file, -errno.  n_tty_read may copy in several pieces (raw mode,
 * VMIN): dst is a cursor into the buffer, moved on by each piece, as an
 * iov_iter is. */
static size_t copy_kernel(void *dst, const char *src, size_t n)
{
    char **cursor = dst;
    memcpy(*cursor, src, n);
    *cursor += n;
    return n;
}

static ssize_t tty_kernel_read(char *buf, size_t n, int nonblock)
{
    char *cursor = buf;
    return n_tty_read(copy_kernel, &cursor, n, nonblock);
}

/* Raw mode as a line editor sets it: no ICANON, no ECHO, no ISIG, and the
 * given VMIN and VTIME (tenths of a second). */
static void set_raw(int vmin, int vtime)
{
    unsigned long flags;
    spin_lock_irqsave(&tty.lock, flags);
    tty.termios.c_lflag &= ~(ICANON | ECHO | ISIG | IEXTEN);
    tty.termios.c_cc[VMIN] = vmin;
    tty.termios.c_cc[VTIME] = vtime;
    spin_unlock_irqrestore(&tty.lock, flags);
}

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

/* A kthread sleeps in read until a line arrives from "the keyboard".
 * It asks for reader_n bytes (sizeof reader_buf unless a test says) and
 * notes when its read returned, in jiffies. */
static char reader_buf[32];
static ssize_t reader_ret = -1;
static size_t reader_n = sizeof reader_buf;
static unsigned long reader_done_at;
static int tty_reader(void *unused)
{
    reader_ret = tty_kernel_read(reader_buf, reader_n, 0);
    reader_done_at = jiffies;
    return 0;
}

static struct task_struct *start_reader(size_t n)
{
    reader_ret = -1;
    reader_n = n;
    memset(reader_buf, 0, sizeof reader_buf);
    return kthread_run(tty_reader, NULL, "ttyreader");
}

KTEST(tty, read_sleeps_until_a_line)
{
    tty_reset();
    struct task_struct *t = start_reader(sizeof reader_buf);
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

/* ---- raw mode: VMIN and VTIME (n_tty_read's table) ------------------------ */

/* VMIN = 3, VTIME = 0: the read sleeps until three bytes came, however they
 * trickle in, and then returns them all at once; a read of fewer bytes than
 * VMIN returns when it has what it asked for. */
KTEST(tty, raw_vmin_waits_for_that_many_bytes)
{
    char buf[8];
    tty_reset();
    set_raw(3, 0);
    struct task_struct *t = start_reader(sizeof reader_buf);
    KT_ASSERT(t != NULL);
    type("a");
    msleep(30);
    KT_EXPECT_EQ(reader_ret, -1);                      /* one of three */
    type("b");
    msleep(30);
    KT_EXPECT_EQ(reader_ret, -1);                      /* two of three */
    type("cd");
    kthread_stop(t);
    KT_EXPECT(reader_ret >= 3);                        /* c woke it; d may have come in time */
    KT_EXPECT(memcmp(reader_buf, "abc", 3) == 0);
    if (reader_ret == 3)
        KT_EXPECT_EQ(tty_kernel_read(buf, 1, 0), 1);   /* d is still there */
    type("xy");
    KT_EXPECT_EQ(tty_kernel_read(buf, 2, 0), 2);       /* asked 2 < VMIN: 2 will do */
    KT_EXPECT(memcmp(buf, "xy", 2) == 0);
    tty_reset();
}

/* VMIN = 0, VTIME = 0: a poll.  Never sleeps; 0 (not -EAGAIN) when empty. */
KTEST(tty, raw_vmin0_vtime0_never_waits)
{
    char buf[8];
    tty_reset();
    set_raw(0, 0);
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 0);
    type("xy");
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 2);
    KT_EXPECT(memcmp(buf, "xy", 2) == 0);
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 0);
    tty_reset();
}

/* VMIN = 0, VTIME = 2: wait at most 0.2 s for a byte; 0 if none came (what a
 * line editor uses to tell the Esc key from an escape sequence).  A byte
 * that comes in time ends the wait at once. */
KTEST(tty, raw_vtime_times_out)
{
    char buf[8];
    tty_reset();
    set_raw(0, 2);
    unsigned long t0 = jiffies;
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 0);
    unsigned long waited = jiffies - t0;
    KT_EXPECT(waited >= 2 * HZ / 10);                  /* the whole 0.2 s */
    KT_EXPECT(waited < 2 * HZ);                        /* and then it gave up */

    set_raw(0, 30);                                    /* 3 s: room for a slow host */
    struct task_struct *t = start_reader(sizeof reader_buf);
    KT_ASSERT(t != NULL);
    msleep(50);
    type("k");
    unsigned long typed = jiffies;
    kthread_stop(t);
    KT_EXPECT_EQ(reader_ret, 1);
    KT_EXPECT_EQ(reader_buf[0], 'k');
    KT_EXPECT(time_before(reader_done_at, typed + 2 * HZ)); /* the byte woke it */
    tty_reset();
}

/* VMIN = 5, VTIME = 1: the timer does not run before the first byte (the
 * read sleeps as long as it takes); after a byte, 0.1 s without another
 * returns what came, fewer than VMIN. */
KTEST(tty, raw_vmin_vtime_inter_byte_timer)
{
    tty_reset();
    set_raw(5, 1);
    struct task_struct *t = start_reader(sizeof reader_buf);
    KT_ASSERT(t != NULL);
    msleep(250);
    KT_EXPECT_EQ(reader_ret, -1);                      /* no byte: no timer */
    type("ab");
    kthread_stop(t);                                   /* returns after the 0.1 s */
    KT_EXPECT_EQ(reader_ret, 2);                       /* fewer than VMIN: the timer */
    KT_EXPECT(memcmp(reader_buf, "ab", 2) == 0);
    tty_reset();
}

/* poll in raw mode agrees with read: with VMIN = 3 and VTIME = 0, readable
 * only once three bytes are in; with a timer, one byte is enough. */
KTEST(tty, raw_poll_follows_vmin)
{
    struct file f = { .f_op = &tty_fops };
    char buf[8];
    tty_reset();
    set_raw(3, 0);
    type("ab");
    KT_EXPECT_EQ(vfs_poll(&f) & POLLIN, 0);
    type("c");
    KT_EXPECT(vfs_poll(&f) & POLLIN);
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 3);
    set_raw(3, 1);
    type("d");
    KT_EXPECT(vfs_poll(&f) & POLLIN);
    tty_reset();
}

/* Raw with ISIG off (a line editor): ^C, ^Z, ^D and ESC are data, and with
 * ECHO off nothing is echoed; TCSETS back to the saved termios restores
 * canonical lines. */
KTEST(tty, raw_no_isig_controls_are_data)
{
    char buf[8];
    struct termios saved;
    unsigned long flags;
    tty_reset();
    spin_lock_irqsave(&tty.lock, flags);
    saved = tty.termios;
    spin_unlock_irqrestore(&tty.lock, flags);
    set_raw(1, 0);
    type("\x03\x1a\x04\x1b[A");
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 6);
    KT_EXPECT(memcmp(buf, "\x03\x1a\x04\x1b[A", 6) == 0);
    spin_lock_irqsave(&tty.lock, flags);
    tty.termios = saved;
    spin_unlock_irqrestore(&tty.lock, flags);
    type("ok\n");
    KT_EXPECT_EQ(tty_kernel_read(buf, sizeof buf, 0), 3);
    KT_EXPECT(memcmp(buf, "ok\n", 3) == 0);
    tty_reset();
}
