/* include/gfp.h: allocation flags ("get free pages" flags), as Linux's
 * <linux/gfp.h>, much reduced.  Every allocator (alloc_pages, kmalloc) takes
 * one.  What each kind of allocation may do when free memory runs low
 * (mm/page_alloc.c, docs/page-cache.md "Reclaim and the OOM killer"):
 *
 *   GFP_USER     user memory and the page cache (anonymous and COW pages,
 *                page-cache pages).  May SLEEP: reclaim, wait for kswapd and
 *                writeback, and in the end call the OOM killer.  Stops at the
 *                min watermark, so the pages below it stay for the kernel.
 *                Only call sites written to re-check what they looked at
 *                before the allocation use it (the page cache's insert
 *                reports -EEXIST; the fault handler re-reads its PTE).
 *   GFP_KERNEL   the kernel's own allocations (kmalloc, page tables, kernel
 *                stacks, pipe buffers).  Reclaims clean page-cache pages
 *                without sleeping and may dip to half the min watermark,
 *                but NEVER sleeps: Vellum's kernel code was written to that
 *                contract, so it is kept (simplification: Linux's
 *                GFP_KERNEL sleeps).  NULL when nothing could be had.
 *   GFP_ATOMIC   the same, from any context, a little deeper into the
 *                reserve (__GFP_HIGH: a quarter of min).
 *
 * Interrupts off (or an interrupt handler): no reclaim at all, and no
 * sleep even for GFP_USER; only the free lists above the watermark.
 */
#ifndef _GFP_H
#define _GFP_H

typedef unsigned int gfp_t;

#define __GFP_ZERO     0x01u  /* return zero-filled memory */
#define __GFP_NOWARN   0x02u  /* no "out of memory" log line on failure */
#define __GFP_HIGH     0x04u  /* may use more of the reserve below min (atomic) */
#define __GFP_WAIT     0x08u  /* may sleep: wait for reclaim, the OOM killer */
#define __GFP_IO       0x10u  /* reclaim may start I/O */
#define __GFP_FS       0x20u  /* reclaim may call into filesystems */
#define __GFP_NOFAIL   0x40u  /* retry for ever, even with a fatal signal pending */
#define __GFP_MEMALLOC 0x80u  /* every free page, reserves included (tests, reclaim itself) */

#define GFP_ATOMIC    (__GFP_HIGH)
#define GFP_KERNEL    (__GFP_IO | __GFP_FS)
#define GFP_USER      (__GFP_WAIT | __GFP_IO | __GFP_FS)
#define GFP_HIGHUSER  GFP_USER          /* no highmem on Vellum */

#endif
