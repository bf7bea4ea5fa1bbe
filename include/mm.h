/* include/mm.h: physical page frames, as Linux's <linux/mm.h> presents them.
 *
 * Every frame of RAM below LOWMEM_LIMIT has a struct page in mem_map[]
 * (include/mm_types.h), indexed by page frame number (pfn = phys >> 12).
 * Every such frame is also mapped at phys + KERNEL_BASE (the direct map),
 * so page_address() is arithmetic.  mm/page_alloc.c owns the buddy
 * allocator behind alloc_pages(); mm/kmalloc.c builds kmalloc on top.
 *
 *   struct page *  <--page_to_pfn/pfn_to_page-->  pfn
 *        |  page_address()                          |  << PAGE_SHIFT
 *        v                                          v
 *   virtual (KERNEL_BASE + phys) <--virt_to_phys-- physical
 *
 * References: alloc_pages() returns a page with _count == 1.  get_page()
 * adds one, put_page() drops one and frees the frame when it reaches 0.
 * __free_pages(page, order) is "put_page for a block": it drops the caller's
 * reference to the first page and frees the whole 2^order block at 0.
 * (Linux frees multi-page blocks the same way; it also has "compound" pages
 * so that put_page() knows the order, which we leave out: put_page() always
 * frees order 0.)
 *
 * Errors (freeing a free page, a reserved page, a pointer that is no page,
 * a count going negative) are reported with KERN_ERR and dump_stack(),
 * counted in mm_bad_page_count, and the operation is ignored: the allocator
 * never corrupts its lists because of a caller's bug.
 */
#ifndef _MM_H
#define _MM_H
#include <kernel.h>
#include <mm_types.h>
#include <gfp.h>
#include <asm/layout.h>

#define MAX_ORDER   11                  /* orders 0..10: 4 KiB .. 4 MiB blocks */

extern struct page *mem_map;            /* one per frame, pfn 0 .. max_pfn-1 */
extern unsigned long max_pfn;           /* first pfn past the end of lowmem RAM */
extern unsigned long totalram_pages;    /* frames the allocator manages (not reserved) */
extern unsigned long mm_bad_page_count; /* misuses detected (tests read it) */
extern unsigned long mm_oom_count;      /* allocations that failed for lack of memory */

/* --- conversions --- */
static inline unsigned long page_to_pfn(const struct page *page) { return page - mem_map; }
static inline struct page *pfn_to_page(unsigned long pfn) { return mem_map + pfn; }
static inline bool pfn_valid(unsigned long pfn) { return pfn < max_pfn; }
static inline phys_addr_t page_to_phys(const struct page *page)
{ return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT; }
static inline void *page_address(const struct page *page)
{ return phys_to_virt(page_to_phys(page)); }
/* Is addr an address in the direct map of a frame we have a struct page for? */
static inline bool virt_addr_valid(const void *addr)
{
    unsigned long a = (unsigned long)addr;
    return a >= KERNEL_BASE && pfn_valid((a - KERNEL_BASE) >> PAGE_SHIFT);
}
/* Only for direct-map addresses (check with virt_addr_valid first if unsure). */
static inline struct page *virt_to_page(const void *addr)
{ return pfn_to_page(virt_to_phys(addr) >> PAGE_SHIFT); }
/* Is p one of mem_map's entries (not some other pointer)? */
static inline bool page_in_mem_map(const struct page *p)
{
    return p >= mem_map && p < mem_map + max_pfn &&
           ((unsigned long)p - (unsigned long)mem_map) % sizeof(struct page) == 0;
}

/* --- page flags: atomic (lock-prefixed, SMP-safe) bit operations ---
 * Named pgflag_* so they do not collide with a future <asm/bitops.h>. */
static inline int pgflag_test_bit(int nr, const volatile unsigned long *addr)
{ return (*addr >> nr) & 1; }
static inline void pgflag_set_bit(int nr, volatile unsigned long *addr)
{ __asm__ volatile("lock btsl %1, %0" : "+m"(*addr) : "Ir"(nr) : "memory"); }
static inline void pgflag_clear_bit(int nr, volatile unsigned long *addr)
{ __asm__ volatile("lock btrl %1, %0" : "+m"(*addr) : "Ir"(nr) : "memory"); }
static inline int pgflag_test_and_set_bit(int nr, volatile unsigned long *addr)
{
    unsigned char old;
    __asm__ volatile("lock btsl %2, %0; setc %1" : "+m"(*addr), "=q"(old) : "Ir"(nr) : "memory", "cc");
    return old;
}
static inline int pgflag_test_and_clear_bit(int nr, volatile unsigned long *addr)
{
    unsigned char old;
    __asm__ volatile("lock btrl %2, %0; setc %1" : "+m"(*addr), "=q"(old) : "Ir"(nr) : "memory", "cc");
    return old;
}

/* PAGEFLAG(Locked, locked) generates, as Linux's page-flags.h:
 *   PageLocked(p)  SetPageLocked(p)  ClearPageLocked(p)
 *   TestSetPageLocked(p)  TestClearPageLocked(p)   (return the old bit)
 *   __SetPageLocked(p)  __ClearPageLocked(p)      (non-atomic: only while
 *                                                  nobody else can see p) */
#define PAGEFLAG(uname, lname)                                                       \
static inline int Page##uname(const struct page *p)                                 \
{ return pgflag_test_bit(PG_##lname, &p->flags); }                                  \
static inline void SetPage##uname(struct page *p) { pgflag_set_bit(PG_##lname, &p->flags); } \
static inline void ClearPage##uname(struct page *p) { pgflag_clear_bit(PG_##lname, &p->flags); } \
static inline int TestSetPage##uname(struct page *p)                                \
{ return pgflag_test_and_set_bit(PG_##lname, &p->flags); }                          \
static inline int TestClearPage##uname(struct page *p)                              \
{ return pgflag_test_and_clear_bit(PG_##lname, &p->flags); }                        \
static inline void __SetPage##uname(struct page *p) { p->flags |= 1UL << PG_##lname; } \
static inline void __ClearPage##uname(struct page *p) { p->flags &= ~(1UL << PG_##lname); }

PAGEFLAG(Locked, locked)
PAGEFLAG(Uptodate, uptodate)
PAGEFLAG(Dirty, dirty)
PAGEFLAG(Writeback, writeback)
PAGEFLAG(Error, error)
PAGEFLAG(Referenced, referenced)
PAGEFLAG(Private, private)
PAGEFLAG(Reserved, reserved)
PAGEFLAG(Slab, slab)
PAGEFLAG(Buddy, buddy)

/* --- reference counts --- */
static inline int page_count(const struct page *page) { return READ_ONCE(page->_count); }
static inline void set_page_count(struct page *page, int v) { WRITE_ONCE(page->_count, v); }
static inline void get_page(struct page *page)
{ __atomic_add_fetch(&page->_count, 1, __ATOMIC_SEQ_CST); }
/* Drop a reference; at zero the frame is freed (order 0).  A page that
 * still has a mapping (page cache) at zero is a bug: reported, not freed. */
void put_page(struct page *page);

/* --- the page allocator (mm/page_alloc.c) ---
 * alloc_pages: 2^order physically contiguous frames, the first one's pfn a
 *   multiple of 2^order; _count of the first page is 1.  NULL when no block
 *   is free (one rate-limited log line unless __GFP_NOWARN).  Never sleeps,
 *   callable with interrupts off.  __GFP_ZERO zero-fills. */
struct page *alloc_pages(gfp_t gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);   /* virtual address or 0 */
void free_pages(unsigned long addr, unsigned int order);
#define alloc_page(gfp)        alloc_pages(gfp, 0)
#define __free_page(page)      __free_pages(page, 0)
#define __get_free_page(gfp)   __get_free_pages(gfp, 0)
#define free_page(addr)        free_pages(addr, 0)
unsigned long get_zeroed_page(gfp_t gfp);
unsigned long nr_free_pages(void);

/* --- boot (mm/init.c calls these in order) --- */
void memory_scan(void);                 /* Multiboot map -> max_pfn, print the map */
void page_alloc_init(void);             /* mem_map[], reserve, free the rest */
void kmalloc_init(void);
extern unsigned long kernel_image_bytes;

#endif
