/* include/gfp.h: allocation flags ("get free pages" flags), as Linux's
 * <linux/gfp.h>, much reduced.  Every allocator (alloc_pages, kmalloc) takes
 * one.  Vellum's allocators never sleep and never reclaim, so GFP_KERNEL and
 * GFP_ATOMIC behave the same: either there is free memory now, or the call
 * returns NULL.  The distinction is kept so callers document their context. */
#ifndef _GFP_H
#define _GFP_H

typedef unsigned int gfp_t;

#define __GFP_ZERO    0x01u   /* return zero-filled memory */
#define __GFP_NOWARN  0x02u   /* no "out of memory" log line on failure */

#define GFP_KERNEL    0x00u   /* process context (would sleep in Linux) */
#define GFP_ATOMIC    0x00u   /* IRQ context: same as GFP_KERNEL here, we never sleep */

#endif
