/* kernel/user_init_test.c: the ktests of user_init.c (test=proc); built into
 * the test kernel only (make check), never into the production kernel. The
 * tests reach user_init.c's static functions and data, so this file includes
 * it: in the test kernel the two are one object (Makefile). */
#include "user_init.c"
#include <ktest.h>

KTEST(proc, nproc_option)
{
    KT_EXPECT_EQ(nproc_option(NULL, 64), 64);
    KT_EXPECT_EQ(nproc_option("", 64), 64);
    KT_EXPECT_EQ(nproc_option("5", 64), 5);
    KT_EXPECT_EQ(nproc_option("1", 64), 1);
    KT_EXPECT_EQ(nproc_option("0", 64), 64);
    KT_EXPECT_EQ(nproc_option("abc", 64), 64);
    KT_EXPECT_EQ(nproc_option("5x", 64), 64);
    KT_EXPECT_EQ(nproc_option("-3", 64), 64);
    KT_EXPECT_EQ(nproc_option("4294967301", 64), 64);  /* wraps to 5 in 32 bits */
}
