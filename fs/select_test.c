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

/* ---- the select family ---- */

/* Run body with current->files set to a fresh table, restored afterwards
 * (as fdtable_test.c's WITH_TABLE). */
#define WITH_TABLE(tbl) \
    for (struct files_struct *_saved = current->files, *tbl = (current->files = files_alloc()); \
         tbl; put_files(tbl), current->files = _saved, tbl = NULL)

/* select_once: a pipe's read end is in the read answer once it holds data
 * or lost its writer; its write end is writable; a bit counts per set; a
 * bit for a closed fd is the checker's (-EBADF), and one at or past n is
 * not looked at. */
KTEST(poll, select_sets_and_count)
{
    WITH_TABLE(t) {
        struct file *f[2];
        loff_t pos = 0;
        KT_ASSERT_EQ(create_pipe_files(f, O_NONBLOCK), 0);
        int r = get_unused_fd_flags(0); fd_install(r, f[0]);
        int w = get_unused_fd_flags(0); fd_install(w, f[1]);
        struct fd_set_bits *s = kzalloc(sizeof *s, GFP_KERNEL);
        KT_ASSERT(s != NULL);
        s->in[0] = 1UL << r | 1UL << w;
        s->out[0] = 1UL << w;
        s->ex[0] = 1UL << r;
        KT_EXPECT_EQ(check_select_fds(w + 1, s), 0);
        KT_EXPECT_EQ(select_once(w + 1, s), 1);               /* w writable; nothing else */
        KT_EXPECT_EQ(s->res_out[0], 1UL << w);
        KT_EXPECT_EQ(s->res_in[0] | s->res_ex[0], 0);
        KT_EXPECT_EQ(kernel_write(f[1], "x", 1, &pos), 1);
        memset(s->res_in, 0, sizeof s->res_in);
        memset(s->res_out, 0, sizeof s->res_out);
        KT_EXPECT_EQ(select_once(w + 1, s), 2);               /* + r readable */
        KT_EXPECT_EQ(s->res_in[0], 1UL << r);
        s->in[0] |= 1UL << (w + 1);                           /* not open */
        KT_EXPECT_EQ(check_select_fds(w + 2, s), -EBADF);
        KT_EXPECT_EQ(check_select_fds(w + 1, s), 0);          /* past n: ignored */
        KT_EXPECT_EQ(close_fd(w), 0);
        s->in[0] = 1UL << r;
        s->out[0] = s->ex[0] = 0;
        memset(s->res_in, 0, sizeof s->res_in);
        memset(s->res_out, 0, sizeof s->res_out);
        KT_EXPECT_EQ(select_once(r + 1, s), 1);               /* data, then POLLHUP */
        kfree(s);
    }
}

/* The time-out's checks (poll_select_set_timeout) and the time left:
 * counted from the call's start tick, never negative; a zero time-out is
 * not written back; a write-back that fails turns -ERESTARTNOHAND into
 * -EINTR and leaves other results alone. */
KTEST(poll, select_timeout_rules)
{
    struct sel_timeout to;
    KT_EXPECT_EQ(sel_set_timeout(&to, -1, 0), -EINVAL);
    KT_EXPECT_EQ(sel_set_timeout(&to, 0, -1), -EINVAL);
    KT_EXPECT_EQ(sel_set_timeout(&to, 0, NSEC_PER_SEC), -EINVAL);
    KT_EXPECT_EQ(sel_set_timeout(&to, 1LL << 40, 0), 0);     /* saturated */
    KT_EXPECT_EQ(to.sec, 0x7fffffffL);
    KT_EXPECT_EQ(sel_set_timeout(&to, 0, 0), 0);
    long sec, nsec;
    struct sel_timeout t = { .sec = 1, .nsec = 5000000, .start = 1000 };
    sel_time_left(&t, 1000, &sec, &nsec);
    KT_EXPECT_EQ(sec, 1); KT_EXPECT_EQ(nsec, 5000000);
    sel_time_left(&t, 1001, &sec, &nsec);                     /* one tick: 10 ms */
    KT_EXPECT_EQ(sec, 0); KT_EXPECT_EQ(nsec, 995000000);
    sel_time_left(&t, 1100, &sec, &nsec);
    KT_EXPECT_EQ(sec, 0); KT_EXPECT_EQ(nsec, 5000000);
    sel_time_left(&t, 1101, &sec, &nsec);                     /* past: 0 */
    KT_EXPECT_EQ(sec, 0); KT_EXPECT_EQ(nsec, 0);
    sel_time_left(&t, 1000 + 500 * HZ, &sec, &nsec);
    KT_EXPECT_EQ(sec, 0); KT_EXPECT_EQ(nsec, 0);
    /* A kernel address is no user pointer: the write-back fails. */
    long k[2];
    KT_EXPECT_EQ(sel_finish(&to, k, PT_TIMEVAL, -ERESTARTNOHAND), -ERESTARTNOHAND); /* zero: none */
    KT_EXPECT_EQ(sel_set_timeout(&to, 0, 100000000), 0);
    KT_EXPECT_EQ(sel_finish(&to, k, PT_TIMEVAL, -ERESTARTNOHAND), -EINTR);
    KT_EXPECT_EQ(sel_finish(&to, k, PT_OLD_TIMESPEC, 3), 3);
    KT_EXPECT_EQ(sel_finish(&to, NULL, PT_TIMESPEC, -ERESTARTNOHAND), -ERESTARTNOHAND);
    /* nfds < 0 before anything; kernel pointers for the sets: -EFAULT. */
    KT_EXPECT_EQ(core_sys_select(-1, NULL, NULL, NULL, &to), -EINVAL);
    unsigned long set = 1;
    KT_EXPECT_EQ(core_sys_select(1, &set, NULL, NULL, &to), -EFAULT);
    KT_EXPECT_EQ(core_sys_select(0, NULL, NULL, NULL, &(struct sel_timeout){0}), 0);
}
