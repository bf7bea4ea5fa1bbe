/* include/errno.h: the kernel's error numbers: the user-visible ones (the
 * ABI, <linux/errno.h> in include/uapi/) and the kernel-internal restart
 * codes. */
#ifndef _ERRNO_H
#define _ERRNO_H
#include <linux/errno.h>

/* Kernel-internal: never seen by user space (kernel/signal.c turns them
 * into a restart of the system call or -EINTR), as Linux's. */
#define ERESTARTSYS           512   /* restart if the handler has SA_RESTART */
#define ERESTARTNOINTR        513   /* always restart */
#define ERESTARTNOHAND        514   /* restart if no handler ran */
#endif
