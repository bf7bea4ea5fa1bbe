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
    for (int i = 0; i < 20; i++) {            /* 20000 bytes through a 4096-byte pipe */
        memset(chunk, 'a' + i, sizeof chunk);
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
            if (buf[i] != 'a' + (int)((total + i) / 1000))
                in_order = 0;
        total += n;
    }
    KT_EXPECT_EQ(n, 0);
    KT_EXPECT_EQ(total, 20000);
    KT_EXPECT(in_order);
    KT_EXPECT_EQ(kthread_stop(t), 0);
    fput(f[0]);
}
