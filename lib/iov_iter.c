/* lib/iov_iter.c: the iov_iter, the "where do the bytes come from / go to"
 * abstraction under read() and write() (include/uio.h).  Sits below the page
 * cache (mm/filemap.c) and above the user-access primitives of
 * <asm/uaccess.h> (kernel/x86/usercopy.c, kernel/x86/copy_user.S), which it
 * calls directly, as Linux's lib/iov_iter.c does.
 *
 * Two kinds of iterator:
 *   ITER_KVEC    kernel buffers: memcpy, cannot fault
 *   ITER_IOVEC   user buffers: __copy_from_user_inatomic with faults
 *                disabled, copy_from_user / fault_in_readable with them enabled
 * (The test kernel's fake user buffer, ITER_FAULTY, is lib/iov_iter_test.c's:
 * that file compiles this one into itself and wraps the entry points that
 * copy from a source or fault it in.  Nothing here knows of it.)
 *
 * The atomic copy (copy_page_from_iter_atomic) never advances the iterator:
 * generic_perform_write advances it by what write_end COMMITTED, which may
 * be less than what was copied (Linux 2.6.24's iov_iter contract).
 */
#include <kernel.h>
#include <string.h>
#include <uio.h>
#include <sched.h>
#include <mm.h>
#include <asm/uaccess.h>             /* the user copies, pagefault_disable() */

/* What every iterator starts with; the caller then sets its segments
 * (i->kvec or i->iov, which share one union).  Field stores, not a memset. */
static void iter_start(struct iov_iter *i, int type, int direction,
                       unsigned long nr_segs, size_t count)
{
    *i = (struct iov_iter){ .type = type, .data_source = direction,
                            .nr_segs = nr_segs, .count = count };
}

void iov_iter_kvec(struct iov_iter *i, int direction, const struct kvec *kvec,
                   unsigned long nr_segs, size_t count)
{
    iter_start(i, ITER_KVEC, direction, nr_segs, count);
    i->kvec = kvec;
}

void iov_iter_init(struct iov_iter *i, int direction, const struct iovec *iov,
                   unsigned long nr_segs, size_t count)
{
    iter_start(i, ITER_IOVEC, direction, nr_segs, count);
    i->iov = iov;
}

/* Segments: struct iovec and struct kvec have the same layout (base, len);
 * we walk both through the kvec view. */
static const struct kvec *segs(const struct iov_iter *i) { return i->kvec; }

/* One step of a segment walk: handle the len bytes at seg (inside one
 * segment), which are bytes [done, done + len) of the walk.  Returns how
 * many of them it could NOT handle (a fault); the walk stops there. */
typedef size_t (*seg_step_fn)(const struct iov_iter *i, char *seg, size_t done,
                              size_t len, void *arg);

/* Walk the next n bytes of i's segments, from its position, calling step
 * for the piece in each segment.  Does not advance i (the callers decide
 * how far; the atomic copy must not: see the top of this file).  Returns
 * the bytes handled.
 * Linux's iterate_and_advance, without the advance and without macros. */
static size_t iterate_segs(const struct iov_iter *i, size_t n, seg_step_fn step, void *arg)
{
    const struct kvec *s = segs(i);
    size_t off = i->iov_offset, done = 0;
    for (unsigned long nr = i->nr_segs; done < n && nr; nr--, s++, off = 0) {
        size_t len = min(s->iov_len - off, n - done);
        if (!len)
            continue;                   /* an empty segment, or at its end */
        size_t left = step(i, (char *)s->iov_base + off, done, len, arg);
        done += len - left;
        if (left)
            break;
    }
    return done;
}

void iov_iter_advance(struct iov_iter *i, size_t bytes)
{
    BUG_ON(bytes > i->count);           /* past the end: a caller's broken count */
    i->count -= bytes;
    while (bytes || (i->nr_segs > 1 && i->iov_offset == segs(i)->iov_len)) {
        const struct kvec *s = segs(i);
        size_t left = s->iov_len - i->iov_offset;
        if (bytes < left) {
            i->iov_offset += bytes;
            break;
        }
        bytes -= left;
        if (i->nr_segs <= 1) {           /* stay on the last segment, at its end */
            i->iov_offset = s->iov_len;
            break;
        }
        i->kvec++;                      /* same pointer as i->iov (union) */
        i->nr_segs--;
        i->iov_offset = 0;
    }
}

/* copy_out's step: segment -> dst (arg), faults enabled for user memory. */
static size_t copy_out_step(const struct iov_iter *i, char *seg, size_t done, size_t len,
                            void *arg)
{
    char *dst = arg;
    if (i->type == ITER_IOVEC)
        return copy_from_user(dst + done, (const void __user *)seg, len);
    memcpy(dst + done, seg, len);
    return 0;
}

/* Copy up to n bytes out of the iterator (from its current position) into
 * dst without advancing it, faults enabled for a user source.  Returns the
 * bytes copied. */
static size_t copy_out(struct iov_iter *i, void *dst, size_t n)
{
    return iterate_segs(i, min(n, i->count), copy_out_step, dst);
}

/* The write loop's copy, with page faults disabled: from a user buffer it
 * is one hop to the instructions that may fault (__copy_from_user_inatomic,
 * an inline, calls __copy_user in kernel/x86/copy_user.S, whose fixup makes
 * it stop short).  Returns the bytes copied; never advances i. */
size_t copy_page_from_iter_atomic(struct page *page, size_t offset, size_t bytes,
                                  struct iov_iter *i)
{
    char *to = (char *)page_address(page) + offset;
    bytes = min(min(bytes, (size_t)PAGE_SIZE - offset), i->count);
    if (i->type != ITER_IOVEC)
        return copy_out(i, to, bytes);  /* kernel memory: cannot fault */
    const struct iovec *iov = i->iov;
    size_t off = i->iov_offset, done = 0;
    pagefault_disable();
    for (unsigned long nr = i->nr_segs; done < bytes && nr; nr--, iov++, off = 0) {
        size_t len = min(iov->iov_len - off, bytes - done);
        const char __user *from = (const char __user *)iov->iov_base + off;
        /* access_ok again: an iovec pointing into the kernel must fail here
         * even if the system call forgot to check it */
        size_t left = access_ok(from, len) ? __copy_from_user_inatomic(to + done, from, len)
                                           : len;
        done += len - left;
        if (left)
            break;
    }
    pagefault_enable();
    return done;
}

size_t iov_iter_copy_from_user(struct page *page, struct iov_iter *i, size_t offset,
                               size_t bytes)
{
    if (offset + bytes > PAGE_SIZE)
        bytes = PAGE_SIZE - offset;
    return copy_out(i, (char *)page_address(page) + offset, bytes);
}

size_t copy_from_iter(void *buf, size_t bytes, struct iov_iter *i)
{
    size_t n = copy_out(i, buf, bytes);
    iov_iter_advance(i, n);
    return n;
}

/* Touch one byte in each page of the user range with a faulting read
 * (get_user, faults enabled): the fault handler maps what it can.  Returns
 * the bytes that could not be faulted in (from the first failing page, or
 * from uaddr if that is the first page).  Linux keeps it in mm/gup.c. */
unsigned long fault_in_readable(const void __user *uaddr, unsigned long n)
{
    unsigned long start = (unsigned long)uaddr, end = start + n;
    if (!n)
        return 0;
    if (!access_ok(uaddr, n))
        return n;
    for (unsigned long a = start; a < end; a = (a & PAGE_MASK) + PAGE_SIZE) {
        uint8_t c;
        if (get_user(c, (const uint8_t __user *)a))
            return end - a;
        (void)c;
    }
    return 0;
}

/* fault_in_iov_iter_readable's step (user segments only). */
static size_t fault_in_step(const struct iov_iter *i, char *seg, size_t done, size_t len,
                            void *arg)
{
    return fault_in_readable((const void __user *)seg, len);
}

/* Fault in the next bytes of the source with faults enabled.  Returns the
 * number of bytes that could NOT be faulted in (0: all readable). */
size_t fault_in_iov_iter_readable(const struct iov_iter *i, size_t bytes)
{
    bytes = min(bytes, i->count);
    switch (i->type) {
    case ITER_KVEC:
        return 0;
    case ITER_IOVEC:
        return bytes - iterate_segs(i, bytes, fault_in_step, NULL);
    }
    return bytes;
}

/* copy_to_iter's step: src (arg) -> segment. */
static size_t copy_to_step(const struct iov_iter *i, char *seg, size_t done, size_t len,
                           void *arg)
{
    const char *src = arg;
    if (i->type == ITER_IOVEC)
        return copy_to_user((void __user *)seg, src + done, len);
    memcpy(seg, src + done, len);
    return 0;
}

/* Copy into the iterator (read direction) and advance. */
size_t copy_to_iter(const void *buf, size_t bytes, struct iov_iter *i)
{
    bytes = min(bytes, i->count);
    size_t done = iterate_segs(i, bytes, copy_to_step, (void *)buf);
    iov_iter_advance(i, done);
    return done;
}

size_t copy_page_to_iter(struct page *page, size_t offset, size_t bytes, struct iov_iter *i)
{
    if (offset + bytes > PAGE_SIZE)
        bytes = PAGE_SIZE - offset;
    return copy_to_iter((char *)page_address(page) + offset, bytes, i);
}
