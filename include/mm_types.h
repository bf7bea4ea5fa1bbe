/* include/mm_types.h: struct page, one per physical page frame (mem_map[]).
 * The page allocator (mm/page_alloc.c) owns _count and the free lists; the
 * page cache (mm/filemap.c) owns flags, mapping, index and the hash/lru links
 * while a page belongs to an address_space; filesystems own private.
 *
 *   flags       PG_* bits below, changed with the atomic helpers in <mm.h>
 *   _count      references; alloc_page() returns 1; put_page() to 0 frees
 *   _mapcount   number of user PTEs mapping the page (-1 = none), for mmap
 *   mapping     the address_space the page caches, or NULL
 *   index       offset in the mapping, in pages
 *   lru         on the free list while free; on mapping->pages while cached
 *   hash_next   chain in the page-cache hash table (mapping, index)
 *   private     filesystem data (e.g. the page's buffer_heads) if PG_private
 *   lock_owner  the task holding PG_locked (debug: self-deadlock reports)
 *   freelist    kmalloc (PG_slab pages): first free object in this page
 *
 * While a page is free in the buddy allocator (PG_buddy), mm/page_alloc.c
 * also uses private: the block's order on its first page, BUDDY_TAIL on the
 * others (Linux keeps the order in page_private too).  While PG_slab,
 * private points to the kmalloc size class and index counts objects in use.
 */
#ifndef _MM_TYPES_H
#define _MM_TYPES_H
#include <types.h>
#include <list.h>

struct address_space;
struct task_struct;

struct page {
    unsigned long flags;
    int _count;
    int _mapcount;
    struct address_space *mapping;
    unsigned long index;
    struct list_head lru;
    struct page *hash_next;
    unsigned long private;
    struct task_struct *lock_owner;
    void *freelist;
};

enum pageflags {
    PG_locked,        /* page is locked: I/O in flight, or a writer holds it */
    PG_uptodate,      /* contents are valid (read from disk, or fully written) */
    PG_dirty,         /* contents newer than disk */
    PG_writeback,     /* being written to disk */
    PG_error,         /* I/O error seen */
    PG_referenced,
    PG_private,       /* private holds filesystem data */
    PG_reserved,      /* not for the allocator: kernel image, BIOS, holes */
    PG_slab,          /* owned by kmalloc */
    PG_buddy,         /* free, on the allocator's free list */
};
#endif
