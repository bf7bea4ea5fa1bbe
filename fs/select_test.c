/* fs/select_test.c: the ktests of select.c (test=poll); built into the test
 * kernel only (make check), never into the production kernel. The tests reach
 * select.c's static functions and data, so this file includes it: in the test
 * kernel the two are one object (Makefile). */
#include "select.c"
#include <ktest.h>

KTEST(poll, pipe_events)
{
    struct file *f[2];
    loff_t pos = 0;
    char buf[8];
    KT_ASSERT_EQ(create_pipe_files(f, O_NONBLOCK), 0);
    KT_EXPECT_EQ(vfs_poll(f[0]), 0);                          /* empty, writer open */
    KT_EXPECT_EQ(vfs_poll(f[1]), POLLOUT | POLLWRNORM);       /* room */
    KT_EXPECT_EQ(kernel_write(f[1], "hi", 2, &pos), 2);
    KT_EXPECT_EQ(vfs_poll(f[0]), POLLIN | POLLRDNORM);
    KT_EXPECT_EQ(kernel_read(f[0], buf, sizeof buf, &pos), 2);
    KT_EXPECT_EQ(vfs_poll(f[0]), 0);                          /* drained */
    fput(f[1]);
    KT_EXPECT_EQ(vfs_poll(f[0]), POLLHUP);                    /* no writer: read gives 0 */
    fput(f[0]);

    KT_ASSERT_EQ(create_pipe_files(f, O_NONBLOCK), 0);
    fput(f[0]);
    KT_EXPECT_EQ(vfs_poll(f[1]), POLLOUT | POLLWRNORM | POLLERR);  /* no reader */
    fput(f[1]);
}

/* A pollfd array in kernel memory is refused (access_ok), as is a huge nfds. */
KTEST(poll, bad_arguments)
{
    struct pollfd k = { .fd = 0, .events = POLLIN };
    KT_EXPECT_EQ(sys_poll((struct pollfd __user *)&k, 1, 0), -EFAULT);
    KT_EXPECT_EQ(sys_poll(NULL, POLL_MAX_FDS + 1, 0), -EINVAL);
    KT_EXPECT_EQ(sys_poll(NULL, 0, 0), 0);                     /* nothing to wait for */
}
