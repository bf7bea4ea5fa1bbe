/* sys/uio.h - scatter/gather I/O: readv, writev, preadv, pwritev,
 * preadv2, pwritev2 (RWF_* flags as Linux's). */
#ifndef _SYS_UIO_H
#define _SYS_UIO_H

#include <sys/types.h>

#include <linux/uio.h>          /* struct iovec */
#include <linux/fs.h>           /* RWF_HIPRI, RWF_DSYNC.. for preadv2/pwritev2 */

ssize_t readv(int fd, const struct iovec *iov, int iovcnt);
ssize_t writev(int fd, const struct iovec *iov, int iovcnt);
ssize_t preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset);
ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset);
ssize_t preadv2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags);
ssize_t pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags);

#endif
