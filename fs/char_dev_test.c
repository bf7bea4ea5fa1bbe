/* fs/char_dev_test.c: the ktests of char_dev.c (test=chrdev); built into the
 * test kernel only (make check), never into the production kernel. The tests
 * reach char_dev.c's static functions and data, so this file includes it: in
 * the test kernel the two are one object (Makefile). */
#include "char_dev.c"
#include <ktest.h>

KTEST(chrdev, table_and_open_dispatch)
{
    static struct inode ino;
    struct file f;
    memset(&f, 0, sizeof f);
    init_special_inode(&ino, S_IFCHR | 0666, MKDEV(1, 5));
    KT_EXPECT(ino.i_fop == &def_chr_fops);
    f.f_op = ino.i_fop;
    KT_EXPECT_EQ(f.f_op->open(&ino, &f), 0);
    KT_EXPECT(f.f_op == &zero_fops);
    ino.i_rdev = MKDEV(1, 9);
    f.f_op = &def_chr_fops;
    KT_EXPECT_EQ(f.f_op->open(&ino, &f), -ENXIO);
    ino.i_rdev = MKDEV(30, 0);
    KT_EXPECT_EQ(def_chr_fops.open(&ino, &f), -ENXIO);
    KT_EXPECT_EQ(register_chrdev(MEM_MAJOR, "again", &null_fops), -EBUSY);
    KT_EXPECT_EQ(register_chrdev(MAX_CHRDEV, "big", &null_fops), -EINVAL);
}
