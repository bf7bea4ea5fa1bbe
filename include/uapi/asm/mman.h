/* include/uapi/asm/mman.h: mmap(2)/mprotect(2)/msync(2) constants, Linux
 * i386 values.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md):
 * mm/mmap.c implements them, user/include/sys/mman.h offers them.
 * (Linux: asm-generic/mman-common.h and mman.h.) */
#ifndef _UAPI_ASM_MMAN_H
#define _UAPI_ASM_MMAN_H

#define PROT_NONE       0x0
#define PROT_READ       0x1
#define PROT_WRITE      0x2
#define PROT_EXEC       0x4
#define PROT_GROWSDOWN  0x01000000     /* mprotect: extend to the start of a GROWSDOWN vma */

#define MAP_SHARED      0x01
#define MAP_PRIVATE     0x02
#define MAP_SHARED_VALIDATE 0x03       /* MAP_SHARED, unknown flags: -EOPNOTSUPP */
#define MAP_TYPE        0x0f
#define MAP_FIXED       0x10
#define MAP_ANONYMOUS   0x20
#define MAP_ANON        MAP_ANONYMOUS
#define MAP_GROWSDOWN   0x0100
#define MAP_DENYWRITE   0x0800         /* ignored, as Linux */
#define MAP_EXECUTABLE  0x1000         /* ignored, as Linux */
#define MAP_LOCKED      0x2000         /* VM_LOCKED, as mlock (mm/mmap.c) */
#define MAP_NORESERVE   0x4000         /* accepted, no effect */
#define MAP_POPULATE    0x8000         /* fault every page in now */
#define MAP_STACK       0x20000        /* accepted, no effect */
#define MAP_FIXED_NOREPLACE 0x100000   /* like MAP_FIXED but -EEXIST over a mapping */
#define MAP_SYNC        0x80000        /* DAX only: -EOPNOTSUPP here */
/* The flags MAP_SHARED_VALIDATE knows (Linux 6.1's LEGACY_MAP_MASK; the
 * huge-page size bits and MAP_32BIT, 0x40, included: accepted, no effect) */
#define LEGACY_MAP_MASK (MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | \
                         MAP_DENYWRITE | MAP_EXECUTABLE | 0x4000000 /* UNINITIALIZED */ | \
                         MAP_GROWSDOWN | MAP_LOCKED | MAP_NORESERVE | MAP_POPULATE | \
                         0x10000 /* NONBLOCK */ | MAP_STACK | 0x40000 /* HUGETLB */ | \
                         0x40 /* 32BIT */ | (0x3fU << 26) /* HUGE_MASK */)

#define MAP_FAILED      ((void *)-1)   /* what mmap returns on error */

/* msync(2) flags */
#define MS_ASYNC        1              /* schedule the write-back (flusher) */
#define MS_INVALIDATE   2              /* EBUSY on locked pages; else nothing to do */
#define MS_SYNC         4              /* write back and wait */

/* mlockall(2), mlock2(2) flags */
#define MCL_CURRENT     1
#define MCL_FUTURE      2
#define MCL_ONFAULT     4
#define MLOCK_ONFAULT   1

/* mremap(2) flags (mm/mremap.c; Linux: uapi/linux/mman.h) */
#define MREMAP_MAYMOVE   1             /* may move the mapping to grow it */
#define MREMAP_FIXED     2             /* move it to new_addr (with MAYMOVE) */
#define MREMAP_DONTUNMAP 4             /* move, leaving the old range mapped, empty */

/* madvise(2) advice (mm/madvise.c says what each does here) */
#define MADV_NORMAL          0
#define MADV_RANDOM          1
#define MADV_SEQUENTIAL      2
#define MADV_WILLNEED        3
#define MADV_DONTNEED        4
#define MADV_FREE            8
#define MADV_REMOVE          9
#define MADV_DONTFORK        10
#define MADV_DOFORK          11
#define MADV_MERGEABLE       12
#define MADV_UNMERGEABLE     13
#define MADV_HUGEPAGE        14
#define MADV_NOHUGEPAGE      15
#define MADV_DONTDUMP        16
#define MADV_DODUMP          17
#define MADV_WIPEONFORK      18
#define MADV_KEEPONFORK      19
#define MADV_COLD            20
#define MADV_PAGEOUT         21
#define MADV_POPULATE_READ   22
#define MADV_POPULATE_WRITE  23
#define MADV_DONTNEED_LOCKED 24
#define MADV_COLLAPSE        25

#endif
