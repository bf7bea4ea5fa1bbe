/* include/mman.h: mmap/mprotect constants, Linux i386 values (the ABI that
 * user programs and glibc compile against: <asm-generic/mman-common.h>).
 * Used by mm/mmap.c and by user/ (the project's libc mirrors them). */
#ifndef _MMAN_H
#define _MMAN_H

#define PROT_NONE       0x0
#define PROT_READ       0x1
#define PROT_WRITE      0x2
#define PROT_EXEC       0x4
#define PROT_GROWSDOWN  0x01000000     /* mprotect: extend to the start of a GROWSDOWN vma */

#define MAP_SHARED      0x01
#define MAP_PRIVATE     0x02
#define MAP_TYPE        0x0f
#define MAP_FIXED       0x10
#define MAP_ANONYMOUS   0x20
#define MAP_ANON        MAP_ANONYMOUS
#define MAP_GROWSDOWN   0x0100
#define MAP_DENYWRITE   0x0800         /* ignored, as Linux */
#define MAP_EXECUTABLE  0x1000         /* ignored, as Linux */
#define MAP_LOCKED      0x2000         /* accepted, no effect (nothing is swapped) */
#define MAP_NORESERVE   0x4000         /* accepted, no effect */
#define MAP_POPULATE    0x8000         /* fault every page in now */

/* msync(2) flags (Linux values) */
#define MS_ASYNC        1              /* schedule the write-back (flusher) */
#define MS_INVALIDATE   2              /* accepted; nothing to do for us */
#define MS_SYNC         4              /* write back and wait */
#define MAP_STACK       0x20000        /* accepted, no effect */
#define MAP_FIXED_NOREPLACE 0x100000   /* like MAP_FIXED but -EEXIST over a mapping */

#define MAP_FAILED      ((void *)-1)
#endif
