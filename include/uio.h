/* include/uio.h: iov_iter, the source or destination of a read or write.
 *
 * generic_perform_write copies from an iov_iter into page-cache pages; the
 * iterator hides where the bytes come from:
 *   ITER_KVEC   kernel buffers (kernel_write, directory bodies): a copy
 *               cannot fault, so callers pass AOP_FLAG_UNINTERRUPTIBLE
 *   ITER_IOVEC  user buffers (write/writev, the process layer): the atomic
 *               copy runs with page faults disabled and may stop short
 * (The test kernel adds a third, ITER_FAULTY: kernel buffers that pretend to
 * fault at chosen bytes, so the short-copy/retry logic can be tested without
 * user space.  It lives in lib/iov_iter_test.c and lib/iov_iter_test.h; the
 * production kernel has none of it.)
 *
 * Contract, as Linux 2.6.24's iov_iter:
 *   copy_page_from_iter_atomic(page, offset, bytes, i)
 *       copies up to bytes into page at offset with page faults disabled;
 *       returns the number copied (possibly 0); does NOT advance i.
 *   iov_iter_advance(i, n)           consume n bytes
 *   fault_in_iov_iter_readable(i, n) fault in the next n bytes with faults
 *       enabled; returns how many could NOT be faulted in (0 = all fine)
 *   iov_iter_copy_from_user(page, i, offset, bytes)   (2.6.24's name)
 *       copies with page faults ENABLED (may sleep to resolve a fault); does
 *       NOT advance i; returns bytes copied.  Only the legacy paths use it (the 2-copy fallback copies
 *       into an unlocked temporary page; the naive pre-2.6.24 path copies
 *       under the page lock, which is exactly its deadlock)
 *   copy_to_iter(buf, n, i) / copy_from_iter(buf, n, i)  copy and advance;
 *       return bytes copied (short on a fault)
 *
 * ITER_IOVEC calls the user-access primitives of <asm/uaccess.h> directly
 * (lib/iov_iter.c): copy_page_from_iter_atomic is one call away from the
 * instruction that may fault.
 */
#ifndef _UIO_H
#define _UIO_H
#include <types.h>
#include <linux/uio.h>                 /* struct iovec: the user-space buffer list */

struct page;

struct kvec  { void *iov_base; size_t iov_len; };

enum iter_type { ITER_KVEC, ITER_IOVEC };
#define READ  0                        /* data flows into the iterator (read()) */
#define WRITE 1                        /* data flows out of it (write()) */

struct iov_iter {
    enum iter_type type;
    int data_source;                   /* WRITE: we copy from it; READ: into it */
    size_t iov_offset;                 /* offset within the current segment */
    size_t count;                      /* bytes left in all segments */
    union {
        const struct iovec *iov;
        const struct kvec *kvec;
    };
    unsigned long nr_segs;
    /* Per-call flags of this transfer (IOCB_*), set from preadv2/pwritev2's
     * RWF_* by the system-call layer; 0 for everything else.  Linux keeps
     * them in struct kiocb (ki_flags); we have no kiocb, and the iterator
     * is the one per-call object every read_iter/write_iter receives. */
    unsigned int iocb_flags;
};
#define IOCB_HIPRI   0x01              /* RWF_HIPRI: ignored */
#define IOCB_DSYNC   0x02              /* write: sync the data before returning */
#define IOCB_SYNC    0x04              /* write: ... and the inode (with IOCB_DSYNC) */
#define IOCB_APPEND  0x08              /* write: at end of file, as O_APPEND */
#define IOCB_NOWAIT  0x10              /* read: only what is cached, else -EAGAIN */


void iov_iter_kvec(struct iov_iter *i, int direction, const struct kvec *kvec,
                   unsigned long nr_segs, size_t count);
void iov_iter_init(struct iov_iter *i, int direction, const struct iovec *iov,
                   unsigned long nr_segs, size_t count);
static inline size_t iov_iter_count(const struct iov_iter *i) { return i->count; }
void iov_iter_advance(struct iov_iter *i, size_t bytes);
size_t copy_page_from_iter_atomic(struct page *page, size_t offset, size_t bytes,
                                  struct iov_iter *i);
size_t fault_in_iov_iter_readable(const struct iov_iter *i, size_t bytes);
size_t iov_iter_copy_from_user(struct page *page, struct iov_iter *i, size_t offset,
                               size_t bytes);
/* Limit the iterator to count bytes (s_maxbytes clamp). */
static inline void iov_iter_truncate(struct iov_iter *i, size_t count)
{ if (i->count > count) i->count = count; }
size_t copy_to_iter(const void *buf, size_t bytes, struct iov_iter *i);
size_t copy_from_iter(void *buf, size_t bytes, struct iov_iter *i);
size_t copy_page_to_iter(struct page *page, size_t offset, size_t bytes, struct iov_iter *i);

#endif
