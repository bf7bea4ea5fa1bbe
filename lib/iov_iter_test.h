/* lib/iov_iter_test.h: ITER_FAULTY, the test kernel's fake user buffer for
 * an iov_iter (lib/iov_iter_test.c), for the tests of the write loops
 * (mm/filemap_test.c, fs/ext2/ext2_test.c).  Test kernel only: no production
 * file includes it, and the production iov_iter (include/uio.h,
 * lib/iov_iter.c) has no branch for it.
 *
 * A faulty iterator is kernel buffers standing in for a user buffer with a
 * part that faults.  The code under test sees iter (pass &fi->iter); the
 * rest is the fake's state:
 *   fault_at          byte offset from the start of the source where atomic
 *                     copies stop; (size_t)-1 = never
 *   fault_in_allowed  fault_in_iov_iter_readable (or a copy with faults
 *                     enabled) "resolves" the fault (fault_at becomes never)
 *                     as the fault handler would; if 0, the bytes from
 *                     fault_at on are unfaultable (an unmapped buffer)
 *   fault_handler     called when a fault is resolved, standing in for the
 *                     page-fault handler (a test locks a page there, as the
 *                     real handler would for an mmap of a file page); or NULL
 *   refaults          fault_in_iov_iter_readable resolves the fault (and calls
 *                     fault_handler) but the fault comes back this many times,
 *                     as if the page were reclaimed between the fault-in and
 *                     the copy: a prefault is no guarantee (0: it sticks)
 * The bytes consumed so far are count0 - iter.count: never iov_iter_truncate
 * a faulty iterator.
 */
#ifndef _IOV_ITER_TEST_H
#define _IOV_ITER_TEST_H
#include <uio.h>

/* The fake's type: a value of enum iter_type that no production iterator
 * has.  Production code asks only "ITER_KVEC?" (a kernel buffer, cannot
 * fault) and "ITER_IOVEC?" (user memory, copied with the user-access
 * primitives): a faulty iterator answers no to both, and the entry points
 * that copy from a source or fault it in are the test kernel's, which serve
 * it (lib/iov_iter_test.c). */
#define ITER_FAULTY ((enum iter_type)(ITER_IOVEC + 1))

struct faulty_iter {
    struct iov_iter iter;
    size_t count0;
    size_t fault_at;
    int fault_in_allowed;
    void (*fault_handler)(void *arg);
    void *fault_arg;
    int refaults;
};
void iov_iter_faulty(struct faulty_iter *fi, const struct kvec *kvec, unsigned long nr_segs,
                     size_t count, size_t fault_at, int fault_in_allowed);
#endif
