/* include/uapi/linux/uio.h: struct iovec, one piece of a readv(2)/writev(2)
 * buffer list.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md): the
 * kernel reads arrays of them from user space (lib/iov_iter.c, fs/read_write.c),
 * user/include/sys/uio.h offers it. */
#ifndef _UAPI_LINUX_UIO_H
#define _UAPI_LINUX_UIO_H

struct iovec {
    void *iov_base;
    __SIZE_TYPE__ iov_len;             /* size_t (the compiler's name for it) */
};

#endif
