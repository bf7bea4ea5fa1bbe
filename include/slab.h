/* include/slab.h: kmalloc, the kernel's general-purpose allocator
 * (mm/kmalloc.c), as Linux's <linux/slab.h>.
 *
 * kmalloc(size, gfp): size bytes, or NULL (out of memory).  Sizes up to
 *   KMALLOC_MAX_CACHE_SIZE come from power-of-two size classes (16 .. 2048
 *   bytes), each object naturally aligned to its class size; bigger sizes
 *   come straight from alloc_pages() and are page-aligned.  kmalloc(0)
 *   returns ZERO_SIZE_PTR, which kfree() accepts and which faults if used.
 *   Callable from interrupt context (never sleeps).  Memory is not zeroed
 *   unless __GFP_ZERO (or kzalloc).
 * kfree(p): p must come from kmalloc; NULL and ZERO_SIZE_PTR are ignored.
 *   A double free, or a pointer kmalloc never returned, is reported
 *   (WARN: the line and a backtrace; counted in kmalloc_bad_free_count) and
 *   ignored.
 * ksize(p): the usable size of p's object (its size class), 0 for NULL.
 * krealloc(p, size, gfp): grow or shrink, keeping the contents; on failure
 *   returns NULL and p stays valid.
 * kmalloc_drain_cpu_caches(): every CPU's array of free objects (kmalloc
 *   per CPU, mm/kmalloc.c) back to the slab pages, and the pages left empty
 *   back to the page allocator; returns the objects moved.  Reclaim does it
 *   (kmalloc's shrinker); so does a test before it counts free pages.  Any
 *   context.
 */
#ifndef _SLAB_H
#define _SLAB_H
#include <types.h>
#include <gfp.h>

#define KMALLOC_MIN_SIZE        16
#define KMALLOC_MAX_CACHE_SIZE  2048
#define ZERO_SIZE_PTR           ((void *)16)
#define ZERO_OR_NULL_PTR(p)     ((unsigned long)(p) <= (unsigned long)ZERO_SIZE_PTR)

#define POISON_FREE  0x6b       /* fills freed objects (Linux: POISON_FREE) */

void *kmalloc(size_t size, gfp_t gfp);
void kfree(const void *p);
size_t ksize(const void *p);
void *krealloc(const void *p, size_t size, gfp_t gfp);
unsigned long kmalloc_drain_cpu_caches(void);
static inline void *kzalloc(size_t size, gfp_t gfp) { return kmalloc(size, gfp | __GFP_ZERO); }
static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{ return size && n > (size_t)-1 / size ? NULL : kzalloc(n * size, gfp); }

extern unsigned long kmalloc_bad_free_count;   /* double/bad frees detected */
extern unsigned long kmalloc_poison_count;     /* use-after-free writes detected */
#endif
