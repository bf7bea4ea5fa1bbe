/*
 * sys/mman.h - memory mappings (mmap goes through the mmap2 system call,
 * whose last argument counts 4096-byte pages, not bytes).
 */
#ifndef _SYS_MMAN_H
#define _SYS_MMAN_H

#include <sys/types.h>

#include <asm/mman.h>           /* PROT_*, MAP_*, MS_*, MAP_FAILED: the kernel's */
#include <linux/mman.h>         /* struct cachestat_range, struct cachestat */

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
int   munmap(void *addr, size_t len);
int   mprotect(void *addr, size_t len, int prot);
int   msync(void *addr, size_t len, int flags);
/* cachestat(2) (Linux 6.5, number 451): page-cache counts of the bytes
 * [range->off, range->off + range->len) of fd (len 0: to the end of the
 * file) into *cstat.  flags must be 0.  0, or -1 with errno EBADF, EFAULT,
 * EINVAL.  (glibc has no wrapper; its users call syscall(451, ...).) */
int   cachestat(unsigned int fd, struct cachestat_range *range, struct cachestat *cstat,
                unsigned int flags);

#endif
