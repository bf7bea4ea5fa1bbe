/* fs/pipe_test.c: the ktests of pipe.c (test=pipe); built into the test
 * kernel only (make check), never into the production kernel. The tests reach
 * pipe.c's static functions and data, so this file includes it: in the test
 * kernel the two are one object (Makefile). */
#include "pipe.c"
#include <ktest.h>

/* ---- tests: kthreads as reader and writer -------------------------------- */

static ssize_t kread(struct file *f, void *buf, size_t n)
{
    loff_t pos = 0;
    return kernel_read(f, buf, n, &pos);
}
static ssize_t kwrite(struct file *f, const void *buf, size_t n)
{
    loff_t pos = 0;
    return kernel_write(f, buf, n, &pos);
}

KTEST(pipe, data_eof_and_epipe)
{
    struct file *f[2];
    unsigned long alive = pipes_alive;
    KT_ASSERT_EQ(create_pipe_files(f, O_NONBLOCK), 0);
    char buf[16];
    KT_EXPECT_EQ(kread(f[0], buf, sizeof buf), -EAGAIN);     /* empty, writer open */
    KT_EXPECT_EQ(kwrite(f[1], "hello", 5), 5);
    KT_EXPECT_EQ(kread(f[0], buf, 3), 3);
    KT_EXPECT(memcmp(buf, "hel", 3) == 0);
    KT_EXPECT_EQ(kread(f[1], buf, 3), -EBADF);               /* wrong end */
    KT_EXPECT_EQ(kwrite(f[0], "x", 1), -EBADF);
    struct kstat st;
    KT_EXPECT_EQ(vfs_fstat(f[0], &st), 0);
    KT_EXPECT(S_ISFIFO(st.mode));
    fput(f[1]);                                             /* last writer gone */
    KT_EXPECT_EQ(kread(f[0], buf, sizeof buf), 2);            /* the rest first */
    KT_EXPECT_EQ(kread(f[0], buf, sizeof buf), 0);            /* then EOF */
    fput(f[0]);
    KT_EXPECT_EQ(pipes_alive, alive);                          /* freed */

    KT_ASSERT_EQ(create_pipe_files(f, 0), 0);
    fput(f[0]);                                             /* no reader */
    KT_EXPECT_EQ(kwrite(f[1], "x", 1), -EPIPE);
    fput(f[1]);
    KT_EXPECT_EQ(pipes_alive, alive);
}

static struct file *pipe_w;
static int writer_thread(void *arg)
{
    static char chunk[1000];
    for (int i = 0; i < 200; i++) {           /* 200000 bytes through a 65536-byte pipe */
        memset(chunk, 'a' + i % 26, sizeof chunk);
        if (kwrite(pipe_w, chunk, sizeof chunk) != sizeof chunk)
            return -1;
    }
    fput(pipe_w);                             /* EOF for the reader */
    return 0;
}

KTEST(pipe, blocking_reader_and_writer)
{
    struct file *f[2];
    KT_ASSERT_EQ(create_pipe_files(f, 0), 0);
    pipe_w = f[1];
    struct task_struct *t = kthread_run(writer_thread, NULL, "pipewriter");
    KT_ASSERT(t != NULL);
    static char buf[512];
    size_t total = 0;
    int in_order = 1;
    ssize_t n;
    while ((n = kread(f[0], buf, sizeof buf)) > 0) {        /* sleeps while empty */
        for (ssize_t i = 0; i < n; i++)
            if (buf[i] != 'a' + (int)((total + i) / 1000) % 26)
                in_order = 0;
        total += n;
    }
    KT_EXPECT_EQ(n, 0);
    KT_EXPECT_EQ(total, 200000);
    KT_EXPECT(in_order);
    KT_EXPECT_EQ(kthread_stop(t), 0);
    fput(f[0]);
}

/* Linux's ring of 16 pages: the capacity, and writes that merge into the
 * last buffer only when they fit there (a non-blocking writer sees exactly
 * Linux's partial counts and EAGAINs). */
KTEST(pipe, capacity_16_pages_merging_as_linux)
{
    struct file *f[2];
    static char big[100000], buf[4096];
    unsigned long alive = pipes_alive;
    KT_ASSERT_EQ(create_pipe_files(f, O_NONBLOCK), 0);
    KT_EXPECT_EQ(pipe_fcntl(f[0], F_GETPIPE_SZ, 0), 65536);
    KT_EXPECT_EQ(pipe_fcntl(f[1], F_GETPIPE_SZ, 0), 65536);
    KT_EXPECT_EQ(kwrite(f[1], big, sizeof big), 65536);      /* 16 whole pages */
    KT_EXPECT_EQ(kwrite(f[1], big, 1), -EAGAIN);
    KT_EXPECT_EQ(kread(f[0], buf, 1), 1);
    KT_EXPECT_EQ(kwrite(f[1], big, 1), -EAGAIN);             /* the last page is full */
    KT_EXPECT_EQ(kread(f[0], buf, 4095), 4095);              /* the first page freed */
    KT_EXPECT_EQ(kwrite(f[1], big, 1), 1);                   /* a new page */
    KT_EXPECT_EQ(kwrite(f[1], big, 4096), -EAGAIN);
    KT_EXPECT_EQ(kwrite(f[1], big, 4095), 4095);             /* merged into it */
    KT_EXPECT_EQ(kwrite(f[1], big, 1), -EAGAIN);
    size_t total = 0;
    ssize_t n;
    while ((n = kread(f[0], buf, sizeof buf)) > 0)
        total += n;
    KT_EXPECT_EQ(n, -EAGAIN);
    KT_EXPECT_EQ(total, 65536);
    /* one byte in: 100000 & 4095 merge into its page, 15 pages follow */
    KT_EXPECT_EQ(kwrite(f[1], big, 1), 1);
    KT_EXPECT_EQ(kwrite(f[1], big, sizeof big), 1696 + 15 * 4096);
    fput(f[0]);
    fput(f[1]);
    KT_EXPECT_EQ(pipes_alive, alive);                          /* pages freed too */
}

/* F_SETPIPE_SZ as Linux's: rounded up to a page and a power of 2 pages,
 * the data kept in order across a resize, -EBUSY when the data would not
 * fit, -EINVAL beyond 2^31 bytes, -EBADF for what is not a pipe. */
KTEST(pipe, setpipe_sz_resizes_keeping_the_data)
{
    struct file *f[2];
    static char big[70000], buf[70000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)(i * 7 + i / 4096);
    KT_ASSERT_EQ(create_pipe_files(f, O_NONBLOCK), 0);
    KT_EXPECT_EQ(pipe_fcntl(f[1], F_SETPIPE_SZ, 1), 4096);
    KT_EXPECT_EQ(pipe_fcntl(f[0], F_GETPIPE_SZ, 0), 4096);
    KT_EXPECT_EQ(pipe_fcntl(f[1], F_SETPIPE_SZ, 10000), 16384);
    KT_EXPECT_EQ(kwrite(f[1], big, sizeof big), 16384);       /* 4 pages: full */
    KT_EXPECT_EQ(kwrite(f[1], big, 1), -EAGAIN);
    KT_EXPECT_EQ(pipe_fcntl(f[0], F_SETPIPE_SZ, 8192), -EBUSY);  /* 4 in use */
    KT_EXPECT_EQ(pipe_fcntl(f[0], F_GETPIPE_SZ, 0), 16384);
    KT_EXPECT_EQ(kread(f[0], buf, 5000), 5000);                /* the ring turns */
    KT_EXPECT_EQ(kwrite(f[1], big + 16384, 4096), 4096);       /* into slot 0 again */
    KT_EXPECT_EQ(pipe_fcntl(f[1], F_SETPIPE_SZ, 65536), 65536);  /* moved, in order */
    KT_EXPECT_EQ(kwrite(f[1], big + 20480, 40000), 40000);
    KT_EXPECT_EQ(kread(f[0], buf + 5000, sizeof buf - 5000), 60480 - 5000);
    KT_EXPECT_EQ(memcmp(buf, big, 60480), 0);
    KT_EXPECT_EQ(pipe_fcntl(f[1], F_SETPIPE_SZ, 0x80000001UL), -EINVAL);
    KT_EXPECT_EQ(pipe_fcntl(f[1], F_SETPIPE_SZ, 0), 4096);
    fput(f[0]);
    fput(f[1]);
}

/* A signal pending while a read or write would sleep: -ERESTARTSYS (the
 * return to user mode makes it -EINTR or a restart), or the short count
 * when some bytes were moved. */
KTEST(pipe, signal_gives_erestartsys_or_short_count)
{
    struct file *f[2];
    static char big[200000];
    char buf[8];
    KT_ASSERT_EQ(create_pipe_files(f, 0), 0);
    sigaddset_k(&current->pending, SIGUSR1);                /* as if sent */
    KT_EXPECT_EQ(kread(f[0], buf, sizeof buf), -ERESTARTSYS); /* empty */
    KT_EXPECT_EQ(kwrite(f[1], big, sizeof big), 65536);     /* filled, then short */
    KT_EXPECT_EQ(kwrite(f[1], big, 100), -ERESTARTSYS);     /* full: nothing moved */
    KT_EXPECT_EQ(kread(f[0], buf, sizeof buf), sizeof buf); /* data: no sleep */
    sigdelset_k(&current->pending, SIGUSR1);
    fput(f[0]);
    fput(f[1]);
}
