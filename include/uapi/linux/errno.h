/* include/uapi/linux/errno.h: the error numbers, Linux i386 values.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md): the
 * kernel returns them negated from a system call, the libc stores them in
 * errno.  Included by the kernel's <errno.h> and by user/include/errno.h;
 * nothing else defines them.  (Linux splits them over
 * asm-generic/errno-base.h and asm-generic/errno.h.) */
#ifndef _UAPI_LINUX_ERRNO_H
#define _UAPI_LINUX_ERRNO_H

#define EPERM         1
#define ENOENT        2
#define ESRCH         3
#define EINTR         4
#define EIO           5
#define ENXIO         6
#define E2BIG         7
#define ENOEXEC       8
#define EBADF         9
#define ECHILD       10
#define EAGAIN       11
#define ENOMEM       12
#define EACCES       13
#define EFAULT       14
#define ENOTBLK      15
#define EBUSY        16
#define EEXIST       17
#define EXDEV        18
#define ENODEV       19
#define ENOTDIR      20
#define EISDIR       21
#define EINVAL       22
#define ENFILE       23
#define EMFILE       24
#define ENOTTY       25
#define ETXTBSY      26
#define EFBIG        27
#define ENOSPC       28
#define ESPIPE       29
#define EROFS        30
#define EMLINK       31
#define EPIPE        32
#define EDOM         33
#define ERANGE       34
#define EDEADLK      35
#define ENAMETOOLONG 36
#define ENOLCK       37
#define ENOSYS       38
#define ENOTEMPTY    39
#define ELOOP        40
#define ENODATA      61
#define EOVERFLOW    75
#define ENOTSUP      95
#define EOPNOTSUPP   95
#define ETIMEDOUT   110              /* futex: the deadline passed */
#define EUCLEAN     117              /* "structure needs cleaning": a corrupt fs */

#endif
