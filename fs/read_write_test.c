/* fs/read_write_test.c: the ktests of read_write.c (test=sendfile); built
 * into the test kernel only (make check), never into the production kernel.
 * The tests reach read_write.c's static functions and data, so this file
 * includes it: in the test kernel the two are one object (Makefile). */
#include "read_write.c"
#include <ktest.h>

/* ---- tests: sendfile on a ramfs root ------------------------------------- */

static int open_fd(const char *path, int flags)
{
    struct file *f = filp_open(path, flags, 0644);
    if (IS_ERR(f))
        return PTR_ERR(f);
    int fd = get_unused_fd_flags(0);
    if (fd < 0) {
        filp_close(f);
        return fd;
    }
    fd_install(fd, f);
    return fd;
}

KTEST(sendfile, copies_across_pages_and_moves_offsets)
{
    static char data[5000], back[5100];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = 'a' + i % 23;
    vfs_ensure_root();
    struct files_struct *saved = current->files;    /* a table of our own */
    current->files = files_alloc();
    KT_ASSERT(current->files != NULL);
    struct file *f = filp_open("/sf_in", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    KT_ASSERT(!IS_ERR(f));
    loff_t p = 0;
    KT_ASSERT_EQ(kernel_write(f, data, sizeof data, &p), (ssize_t)sizeof data);
    filp_close(f);
    int in = open_fd("/sf_in", O_RDONLY), out = open_fd("/sf_out", O_WRONLY | O_CREAT | O_TRUNC);
    KT_ASSERT(in >= 0 && out >= 0);
    KT_EXPECT_EQ(do_sendfile(out, in, NULL, 100000), 5000);   /* to end of file */
    struct file *fin = fget(in);
    KT_EXPECT_EQ(fin->f_pos, 5000);
    loff_t pos = 4990;                                      /* explicit offset: */
    KT_EXPECT_EQ(do_sendfile(out, in, &pos, 100), 10);
    KT_EXPECT_EQ(pos, 5000);
    KT_EXPECT_EQ(fin->f_pos, 5000);                           /* f_pos untouched */
    fput(fin);
    KT_EXPECT_EQ(do_sendfile(out, in, NULL, 10), 0);          /* at end of file */
    KT_EXPECT_EQ(sys_sendfile64(out, in, (loff_t __user *)0xC0000000, 1), -EFAULT);
    KT_EXPECT_EQ(do_sendfile(out, 999, NULL, 1), -EBADF);
    KT_EXPECT_EQ(do_sendfile(in, out, NULL, 1), -EBADF);      /* wrong directions */
    close_fd(in);
    close_fd(out);
    f = filp_open("/sf_out", O_RDONLY, 0);
    KT_ASSERT(!IS_ERR(f));
    p = 0;
    KT_EXPECT_EQ(kernel_read(f, back, sizeof back, &p), 5010);
    KT_EXPECT(memcmp(back, data, 5000) == 0);
    KT_EXPECT(memcmp(back + 5000, data + 4990, 10) == 0);
    filp_close(f);
    vfs_unlink("/sf_in");
    vfs_unlink("/sf_out");
    put_files(current->files);
    current->files = saved;
}
