/*
 * sys/mman.h - memory mappings (mmap goes through the mmap2 system call,
 * whose last argument counts 4096-byte pages, not bytes).
 */
#ifndef _SYS_MMAN_H
#define _SYS_MMAN_H

#include <sys/types.h>

#include <asm/mman.h>           /* PROT_*, MAP_*, MS_*, MAP_FAILED: the kernel's */

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
int   munmap(void *addr, size_t len);
int   mprotect(void *addr, size_t len, int prot);
int   msync(void *addr, size_t len, int flags);

#endif
