/* lib/iov_iter_test.c: the ktests of iov_iter.c (test=iov), and ITER_FAULTY,
 * the fake user buffer the write-loop tests copy from (lib/iov_iter_test.h);
 * built into the test kernel only (make check), never into the production
 * kernel.  The tests reach iov_iter.c's static functions, so this file
 * includes it: in the test kernel the two are one object (Makefile).
 *
 * The fake is served here, and iov_iter.c has no branch for it: while
 * iov_iter.c is compiled into this file, the four entry points that copy
 * from a source or fault it in are renamed real_*; the test kernel's
 * functions of those names, below, take a faulty iterator themselves and
 * hand any other to the real one.  (The rest of iov_iter.c works on a
 * faulty iterator as on kernel buffers: it is one.) */
#define copy_page_from_iter_atomic real_copy_page_from_iter_atomic
#define iov_iter_copy_from_user    real_iov_iter_copy_from_user
#define copy_from_iter             real_copy_from_iter
#define fault_in_iov_iter_readable real_fault_in_iov_iter_readable
#include "iov_iter.c"
#undef copy_page_from_iter_atomic
#undef iov_iter_copy_from_user
#undef copy_from_iter
#undef fault_in_iov_iter_readable
#include <ktest.h>
#include <iov_iter_test.h>

/* ---- ITER_FAULTY: the fake user buffer (struct faulty_iter) -------------- */

#define NEVER ((size_t)-1)

static struct faulty_iter *faulty(const struct iov_iter *i)
{
    return container_of((struct iov_iter *)i, struct faulty_iter, iter);
}

void iov_iter_faulty(struct faulty_iter *fi, const struct kvec *kvec, unsigned long nr_segs,
                     size_t count, size_t fault_at, int fault_in_allowed)
{
    memset(fi, 0, sizeof *fi);
    iov_iter_kvec(&fi->iter, WRITE, kvec, nr_segs, count);
    fi->iter.type = ITER_FAULTY;
    fi->count0 = count;
    fi->fault_at = fault_at;
    fi->fault_in_allowed = fault_in_allowed;
}

/* The page-fault handler's part: the fault is resolved for good. */
static void resolve(struct faulty_iter *fi)
{
    if (fi->fault_handler)
        fi->fault_handler(fi->fault_arg);
    fi->fault_at = NEVER;
}

/* How many of the next n bytes a copy may touch before "faulting".
 * atomic: faults disabled, so the copy stops at fault_at.
 * !atomic: faults enabled, so a resolvable fault (fault_in_allowed) is
 * resolved on the spot, as the page-fault handler would. */
static size_t faulty_iter_limit(struct iov_iter *i, size_t n, bool atomic)
{
    struct faulty_iter *fi = faulty(i);
    size_t consumed = fi->count0 - i->count;
    n = min(n, i->count);
    if (fi->fault_at == NEVER || fi->fault_at >= consumed + n)
        return n;                       /* the fault lies beyond this copy */
    if (!atomic && fi->fault_in_allowed) {
        resolve(fi);
        return n;
    }
    if (fi->fault_at <= consumed)
        return 0;
    return min(n, fi->fault_at - consumed);
}

/* A copy out of the fake, with faults disabled (atomic) or enabled: the
 * bytes before the "fault", copied as from any kernel buffer. */
static size_t faulty_copy(struct iov_iter *i, void *dst, size_t n, bool atomic)
{
    return copy_out(i, dst, faulty_iter_limit(i, n, atomic));
}

/* fault_in_iov_iter_readable for the fake: the bytes that could NOT be
 * faulted in.  Resolving a fault changes the fake's "page tables" (fault_at),
 * so the const that the real (user memory) case honours is cast away. */
static size_t faulty_iter_fault_in(const struct iov_iter *i, size_t bytes)
{
    struct faulty_iter *fi = faulty(i);
    size_t consumed = fi->count0 - i->count;
    bytes = min(bytes, i->count);
    if (fi->fault_at == NEVER || fi->fault_at >= consumed + bytes)
        return 0;
    if (fi->fault_in_allowed) {
        if (fi->refaults > 0) {         /* resolved, and lost again before the copy */
            fi->refaults--;
            if (fi->fault_handler)
                fi->fault_handler(fi->fault_arg);
            return 0;
        }
        resolve(fi);
        return 0;
    }
    return consumed + bytes - max(fi->fault_at, consumed);
}

/* ---- the test kernel's entry points: the fake here, the rest iov_iter.c's */

size_t copy_page_from_iter_atomic(struct page *page, size_t offset, size_t bytes,
                                  struct iov_iter *i)
{
    if (i->type != ITER_FAULTY)
        return real_copy_page_from_iter_atomic(page, offset, bytes, i);
    return faulty_copy(i, (char *)page_address(page) + offset,
                       min(bytes, (size_t)PAGE_SIZE - offset), true);
}

size_t iov_iter_copy_from_user(struct page *page, struct iov_iter *i, size_t offset,
                               size_t bytes)
{
    if (i->type != ITER_FAULTY)
        return real_iov_iter_copy_from_user(page, i, offset, bytes);
    return faulty_copy(i, (char *)page_address(page) + offset,
                       min(bytes, (size_t)PAGE_SIZE - offset), false);
}

size_t copy_from_iter(void *buf, size_t bytes, struct iov_iter *i)
{
    if (i->type != ITER_FAULTY)
        return real_copy_from_iter(buf, bytes, i);
    size_t n = faulty_copy(i, buf, bytes, false);
    iov_iter_advance(i, n);
    return n;
}

size_t fault_in_iov_iter_readable(const struct iov_iter *i, size_t bytes)
{
    if (i->type != ITER_FAULTY)
        return real_fault_in_iov_iter_readable(i, bytes);
    return faulty_iter_fault_in(i, bytes);
}

/* ---- the tests ------------------------------------------------------------ */

KTEST(iov, kvec_advance_across_segments)
{
    char a[3] = "abc", b[5] = "defgh", out[8];
    struct kvec v[2] = { { a, 3 }, { b, 5 } };
    struct iov_iter it;
    iov_iter_kvec(&it, WRITE, v, 2, 8);
    KT_ASSERT_EQ(copy_from_iter(out, 2, &it), 2);
    KT_ASSERT_EQ(iov_iter_count(&it), 6);
    KT_ASSERT_EQ(copy_from_iter(out + 2, 6, &it), 6);
    KT_EXPECT(!memcmp(out, "abcdefgh", 8));
    KT_EXPECT_EQ(iov_iter_count(&it), 0);
    KT_EXPECT_EQ(copy_from_iter(out, 1, &it), 0);
}

KTEST(iov, faulty_stops_and_faults_in)
{
    static char src[100], dst[100];
    for (int k = 0; k < 100; k++)
        src[k] = (char)k;
    struct kvec v = { src, 100 };
    struct faulty_iter fi;
    struct iov_iter *it = &fi.iter;
    iov_iter_faulty(&fi, &v, 1, 100, 40, 0);
    KT_ASSERT_EQ(faulty_copy(it, dst, 100, true), 40);       /* atomic: stops at 40 */
    KT_ASSERT_EQ(faulty_copy(it, dst, 30, true), 30);        /* before the fault: fine */
    KT_EXPECT_EQ(fault_in_iov_iter_readable(it, 30), 0);
    KT_EXPECT_EQ(fault_in_iov_iter_readable(it, 100), 60);  /* unfaultable from 40 */
    iov_iter_advance(it, 40);
    KT_EXPECT_EQ(faulty_copy(it, dst, 10, true), 0);
    KT_EXPECT_EQ(fault_in_iov_iter_readable(it, 10), 10);
    /* resolvable: fault-in clears the fault */
    iov_iter_faulty(&fi, &v, 1, 100, 10, 1);
    KT_EXPECT_EQ(faulty_copy(it, dst, 100, true), 10);
    KT_EXPECT_EQ(fault_in_iov_iter_readable(it, 100), 0);
    KT_EXPECT_EQ(faulty_copy(it, dst, 100, true), 100);
    KT_EXPECT(!memcmp(dst, src, 100));
}

