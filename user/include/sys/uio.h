/* sys/uio.h - scatter/gather I/O: readv, writev, preadv, pwritev,
 * preadv2, pwritev2 (RWF_* flags as Linux's). */
#ifndef _SYS_UIO_H
#define _SYS_UIO_H

#include <sys/types.h>

struct iovec {
	void  *iov_base;
	size_t iov_len;
};

ssize_t readv(int fd, const struct iovec *iov, int iovcnt);
ssize_t writev(int fd, const struct iovec *iov, int iovcnt);
ssize_t preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset);
ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset);
ssize_t preadv2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags);
ssize_t pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags);

#define RWF_HIPRI  0x01
#define RWF_DSYNC  0x02
#define RWF_SYNC   0x04
#define RWF_NOWAIT 0x08
#define RWF_APPEND 0x10

#endif
