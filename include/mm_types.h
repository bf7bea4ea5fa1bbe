/* include/mm_types.h: struct page, one per physical page frame (mem_map[]).
 * The page allocator (mm/page_alloc.c) owns _count and the free lists; the
 * page cache (mm/filemap.c) owns flags, mapping, index and the hash and
 * i_pages links while a page belongs to an address_space, the LRU lists
 * (mm/swap.c, mm/vmscan.c) own lru then; filesystems own private.
 *
 *   flags       PG_* bits below, changed with the atomic helpers in <mm.h>
 *   _count      references; alloc_page() returns 1; put_page() to 0 frees
 *   _mapcount   number of user PTEs mapping the page (-1 = none), for mmap
 *   mapping     the address_space the page caches, or NULL
 *   index       offset in the mapping, in pages
 *   lru         while free: on the buddy allocator's free list; while a
 *               page-cache page: on an LRU list (PG_lru, mm/swap.c); while
 *               PG_slab: on its kmalloc cache's partial list
 *   i_pages     on mapping->pages while cached (Linux 2.4 called it list)
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
#include <mutex.h>
#include <rwsem.h>
#include <asm/pgtable.h>

struct address_space;
struct task_struct;

struct page {
    unsigned long flags;
    int _count;
    int _mapcount;
    struct address_space *mapping;
    unsigned long index;
    struct list_head lru;
    struct list_head i_pages;
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
    PG_referenced,    /* accessed since reclaim last looked (mark_page_accessed) */
    PG_private,       /* private holds filesystem data */
    PG_reserved,      /* not for the allocator: kernel image, BIOS, holes */
    PG_slab,          /* owned by kmalloc */
    PG_buddy,         /* free, on the allocator's free list */
    PG_lru,           /* on an LRU list (mm/swap.c): lru links it there */
    PG_active,        /* ... the active list (else inactive) */
    PG_unevictable,   /* ... the unevictable list: nothing could clean it (ramfs) */
    PG_towrite,       /* dirty when a pass for sync began: it writes this page
                         (Linux's PAGECACHE_TAG_TOWRITE; mm/page-writeback.c) */
};
/* ======================================================================
 * Address spaces (mm/mmap.c, mm/memory.c, mm/fault.c).
 *
 * A user process's memory is an mm_struct: a page directory plus a sorted
 * list of virtual memory areas.  A VMA is a page-aligned range [vm_start,
 * vm_end) with one set of permissions and one backing (anonymous memory
 * now; a file later).  PTEs are filled lazily by the page-fault handler.
 *
 *   mm->mmap --> [text r-x] --> [data rw-] --> [heap rw- (brk)] -->
 *                [mmap rw-] ... --> [stack rw- GROWSDOWN] (sorted by address)
 *
 * Locking: mm->mmap_sem (Linux 2.6's name; today's mmap_lock), a
 * reader-writer semaphore (include/rwsem.h), guards the VMA list and the
 * PTEs of user space.  For READING (down_read): the page-fault handler (a
 * file-backed fault sleeps: it reads the page), mincore, msync, the futex
 * key lookup, /proc's maps, smaps, pagemap and cmdline readers, madvise's
 * advice that changes no VMA: two threads of one process (CLONE_VM) fault
 * at once.  For WRITING (down_write): mmap, munmap, mprotect, mremap, brk,
 * mlock, madvise's VMA-changing advice and fork (the parent's, dup_mm), as
 * Linux.  What readers write must bear several of them at once:
 * mm->mmap_cache is one word, a benign race (find_vma); the PTEs of the
 * fault path, rss and hiwater_rss and a stack's growth are changed under
 * mm->page_table_lock (mm/memory.c).  Its place in the lock order
 * (i_mutex -> mmap_sem -> page lock) is in mm/filemap.c's header.
 * ====================================================================== */
struct mm_struct;
struct file;
struct vm_area_struct;

/* Hook for mappings with a backing object (file mappings: filemap_fault).
 * fault: called with mmap_sem held, no page lock held, interrupts on; may
 *   sleep.  Return the page to map at address in *pagep, referenced (that
 *   reference becomes the PTE's), unlocked and uptodate, or a negative
 *   errno: -ENOMEM -> VM_FAULT_OOM; anything else (-EFAULT beyond EOF, -EIO,
 *   -EDEADLK) -> VM_FAULT_SIGBUS (SIGBUS for user mode, the exception-table
 *   fixup for the kernel).  NULL vm_ops or fault: anonymous memory. */
/* map_pages: fault-around (Linux's ->map_pages, filemap_map_pages for file
 *   mappings): after a read fault was resolved by ->fault, map whichever of
 *   the file pages vmf->pgoff..vmf->max_pgoff are ready without sleeping
 *   (cached, uptodate, unlocked, inside i_size), each with do_set_pte()
 *   (mm/memory.c), read-only; skip a PTE slot that is not empty.  Never
 *   sleeps, takes no page lock; NULL: one page per fault. */
struct vm_fault {                      /* Linux 3.15's, its ->map_pages fields */
    unsigned long pgoff, max_pgoff;    /* file pages to try, inclusive */
    unsigned long address;             /* the user address of page pgoff */
    pte_t *pte;                        /* its PTE slot; the others follow (one page table) */
};

struct vm_operations_struct {
    int (*fault)(struct vm_area_struct *vma, unsigned long address, struct page **pagep);
    void (*map_pages)(struct vm_area_struct *vma, struct vm_fault *vmf);
    void (*close)(struct vm_area_struct *vma);
};

struct vm_area_struct {
    struct mm_struct *vm_mm;           /* the address space we belong to */
    unsigned long vm_start;            /* first address (page aligned) */
    unsigned long vm_end;              /* first address past the end */
    unsigned long vm_flags;            /* VM_* in <mm.h> */
    unsigned long vm_pgoff;            /* offset in vm_file, in pages */
    struct file *vm_file;              /* NULL: anonymous */
    const struct vm_operations_struct *vm_ops;
    struct list_head vm_list;          /* on mm->mmap, sorted by vm_start */
    struct list_head shared;           /* on vm_file's mapping->i_mmap (file VMAs) */
};

struct mm_struct {
    uint32_t *pgd;                     /* page directory (pgd_t *, <asm/pgtable.h>) */
    unsigned long cpu_vm_mask;         /* CPUs that may hold its TLB entries: each
                                          running one of its tasks or keeping it in
                                          lazy TLB mode (Linux's cpu_vm_mask; locked
                                          bitops; switch_mm, leave_mm, docs/smp.md) */
    struct list_head mmap;             /* VMAs, sorted, non-overlapping */
    int map_count;                     /* number of VMAs (at most sysctl_max_map_count + 1) */
    struct vm_area_struct *mmap_cache; /* the VMA find_vma found or vma_link linked
                                          last, or NULL: where find_vma looks first */
    int mm_users;                      /* references (tasks using it); mmput drops */
    unsigned long start_code, end_code, start_data, end_data;   /* set by exec */
    unsigned long start_brk, brk;      /* heap: [start_brk, brk) */
    unsigned long start_stack;         /* initial user esp (exec) */
    unsigned long arg_start, arg_end, env_start, env_end;
    unsigned long mmap_base;           /* where bottom-up mmap searches start */
    unsigned long stack_rlimit;        /* RLIMIT_STACK (bytes); Linux keeps it in
                                        * signal->rlim, we keep it here */
    unsigned long total_vm;            /* pages covered by VMAs */
    unsigned long rss;                 /* frames mapped by its PTEs (resident set) */
    unsigned long hiwater_rss;         /* the most rss has been (getrusage's
                                          ru_maxrss): mm_rss_inc */
    unsigned long locked_vm;           /* pages of its VM_LOCKED VMAs (VmLck) */
    unsigned long def_flags;           /* mlockall(MCL_FUTURE): VM_LOCKED for new VMAs */
    int not_dumpable;                  /* prctl(PR_SET_DUMPABLE, 0), or a set-ID exec:
                                          Linux's mm->flags dumpable bits, inverted so
                                          that a new mm (zeroed) is dumpable */
    struct rw_semaphore mmap_sem;      /* the VMA list and PTEs (see above) */
    spinlock_t page_table_lock;        /* the fault path's PTE changes, rss, hiwater_rss,
                                          a stack's growth: mmap_sem readers at once */
    struct file *exe_file;             /* the program exec loaded (referenced; it
                                          denies writers while held: -ETXTBSY,
                                          fs/open.c), or NULL */
};
#endif
