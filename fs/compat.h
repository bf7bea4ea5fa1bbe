/* fs/compat.h: TEMPORARY stand-ins for <mm.h> and the timer while those
 * branches have not landed.  Removed at the merge. */
#ifndef _FS_COMPAT_H
#define _FS_COMPAT_H
#include <mm_types.h>
#include <asm/layout.h>

#if __has_include(<mm.h>)
#include <mm.h>
#else
struct page *alloc_page(unsigned gfp);
void get_page(struct page *page);
void put_page(struct page *page);
void *page_address(struct page *page);
void *kmalloc(size_t size);
void kfree(const void *p);
#define GFP_KERNEL 0
void dump_stack(void);
static inline int test_bit(int nr, const volatile unsigned long *a) { return (*a >> nr) & 1; }
static inline void set_bit(int nr, volatile unsigned long *a)
{ __asm__ volatile("lock; btsl %1,%0" : "+m"(*a) : "Ir"(nr) : "memory"); }
static inline void clear_bit(int nr, volatile unsigned long *a)
{ __asm__ volatile("lock; btrl %1,%0" : "+m"(*a) : "Ir"(nr) : "memory"); }
static inline int test_and_set_bit(int nr, volatile unsigned long *a)
{ int o; __asm__ volatile("lock; btsl %2,%1; sbbl %0,%0" : "=r"(o), "+m"(*a) : "Ir"(nr) : "memory"); return o; }
static inline int test_and_clear_bit(int nr, volatile unsigned long *a)
{ int o; __asm__ volatile("lock; btrl %2,%1; sbbl %0,%0" : "=r"(o), "+m"(*a) : "Ir"(nr) : "memory"); return o; }
#define PAGEFLAG(Name, bit) \
    static inline int Page##Name(struct page *p) { return test_bit(bit, &p->flags); } \
    static inline void SetPage##Name(struct page *p) { set_bit(bit, &p->flags); } \
    static inline void ClearPage##Name(struct page *p) { clear_bit(bit, &p->flags); } \
    static inline int TestSetPage##Name(struct page *p) { return test_and_set_bit(bit, &p->flags); } \
    static inline int TestClearPage##Name(struct page *p) { return test_and_clear_bit(bit, &p->flags); }
PAGEFLAG(Locked, PG_locked)
PAGEFLAG(Uptodate, PG_uptodate)
PAGEFLAG(Dirty, PG_dirty)
PAGEFLAG(Writeback, PG_writeback)
PAGEFLAG(Error, PG_error)
PAGEFLAG(Private, PG_private)
PAGEFLAG(Referenced, PG_referenced)
#endif

#if __has_include(<timer.h>)
#include <timer.h>
#else
extern volatile unsigned long jiffies;
#define HZ 100
#endif
#endif
