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
 * a count going negative) are reported with WARN (the line and a
 * backtrace), counted in mm_bad_page_count, and the operation is ignored: the allocator
 * never corrupts its lists because of a caller's bug.
 */
#ifndef _MM_H
#define _MM_H
#include <kernel.h>
#include <mm_types.h>
#include <gfp.h>
#include <asm/layout.h>
#include <asm/bitops.h>             /* set_bit..: the page flags */

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

/* PAGEFLAG(Locked, locked) generates, as Linux's page-flags.h:
 *   PageLocked(p)  SetPageLocked(p)  ClearPageLocked(p)
 *   TestSetPageLocked(p)  TestClearPageLocked(p)   (return the old bit)
 *   __SetPageLocked(p)  __ClearPageLocked(p)      (non-atomic: only while
 *                                                  nobody else can see p) */
#define PAGEFLAG(uname, lname)                                                       \
static inline int Page##uname(const struct page *p)                                 \
{ return test_bit(PG_##lname, &p->flags); }                                  \
static inline void SetPage##uname(struct page *p) { set_bit(PG_##lname, &p->flags); } \
static inline void ClearPage##uname(struct page *p) { clear_bit(PG_##lname, &p->flags); } \
static inline int TestSetPage##uname(struct page *p)                                \
{ return test_and_set_bit(PG_##lname, &p->flags); }                          \
static inline int TestClearPage##uname(struct page *p)                              \
{ return test_and_clear_bit(PG_##lname, &p->flags); }                        \
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
PAGEFLAG(LRU, lru)
PAGEFLAG(Active, active)
PAGEFLAG(Unevictable, unevictable)
PAGEFLAG(Towrite, towrite)

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
 *   could be had (one rate-limited log line unless __GFP_NOWARN).  Below the
 *   watermarks it wakes kswapd and reclaims page-cache pages; only
 *   __GFP_WAIT (GFP_USER) sleeps, and only with interrupts on (include/gfp.h
 *   says what each GFP may do).  Callable with interrupts off.  __GFP_ZERO
 *   zero-fills. */
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
void show_mem(void);                    /* the OOM report's memory summary */

/* --- boot (mm/init.c calls these in order) --- */
void memory_scan(void);                 /* Multiboot map -> max_pfn, print the map */
void page_alloc_init(void);             /* mem_map[], reserve, free the rest */
void kmalloc_init(void);
extern unsigned long kernel_image_bytes;

/* ======================================================================
 * User address spaces: VMAs, mmap, page faults (mm/mmap.c, mm/memory.c,
 * mm/fault.c).  Structures in <mm_types.h>; constants in <mman.h>.
 * ====================================================================== */
#define VM_READ        0x0001
#define VM_WRITE       0x0002
#define VM_EXEC        0x0004
#define VM_SHARED      0x0008          /* MAP_SHARED: writes shared, no COW at fork */
#define VM_GROWSDOWN   0x0100          /* the stack: grows down on a fault below it */
#define VM_MAYWRITE    0x0020          /* shared: mprotect may add VM_WRITE (Linux's; only
                                          MAP_SHARED VMAs carry it here, mm/mmap.c) */
#define VM_LOCKED      0x2000          /* mlock: counted in locked_vm, populated (mm/mmap.c) */
#define VM_LOCKONFAULT 0x08000000      /* mlock2(MLOCK_ONFAULT): locked as faulted in */
#define VM_DONTCOPY    0x00020000      /* madvise(MADV_DONTFORK): fork leaves it out */
#define VM_WIPEONFORK  0x02000000      /* madvise(MADV_WIPEONFORK): fork's copy starts empty */
#define VM_DONTDUMP    0x04000000      /* madvise(MADV_DONTDUMP): kept for Linux's sake (no core dumps) */
#define VM_LOCKED_MASK (VM_LOCKED | VM_LOCKONFAULT)
#define VM_ACCESS_FLAGS (VM_READ | VM_WRITE | VM_EXEC)
/* The most VMAs an address space may hold (vm.max_map_count, mm/mmap.c). */
#define DEFAULT_MAX_MAP_COUNT 65530
extern int sysctl_max_map_count;

#define STACK_TOP          TASK_SIZE             /* the stack VMA ends here */
#define TASK_UNMAPPED_BASE (TASK_SIZE / 3)      /* 0x40000000: mmap searches up from here */
#define DEFAULT_STACK_RLIMIT (8UL << 20)         /* RLIMIT_STACK default, 8 MiB */
#define STACK_GUARD_GAP    PAGE_SIZE             /* the stack never grows into the page
                                                  * just above another VMA */
#define PAGE_ALIGN(x)      (((unsigned long)(x) + PAGE_SIZE - 1) & PAGE_MASK)

/* handle_mm_fault's flags and results (Linux's FAULT_FLAG_* / VM_FAULT_*). */
#define FAULT_FLAG_WRITE   0x01
#define FAULT_FLAG_USER    0x02
#define VM_FAULT_OOM       0x0001
#define VM_FAULT_SIGBUS    0x0002
#define VM_FAULT_SIGSEGV   0x0004
#define VM_FAULT_ERROR     (VM_FAULT_OOM | VM_FAULT_SIGBUS | VM_FAULT_SIGSEGV)

/* --- address spaces (mm/mmap.c) ---
 * mm_alloc: an empty address space (own page directory, no VMAs,
 *   mm_users = 1, stack_rlimit 8 MiB, mmap_base TASK_UNMAPPED_BASE).
 *   NULL when out of memory.
 * mmput: one user less (fork's dup_mm makes an mm of its own); the last one frees every
 *   frame, page table and VMA (exit_mmap) and the directory.  If mm's
 *   directory is loaded in CR3, mmput switches to swapper_pg_dir first.
 * dup_mm: fork's copy.  Every VMA is copied; private pages are shared
 *   copy-on-write (both PTEs made read-only, a reference added to the
 *   frame); shared ones stay writable.  NULL when out of memory.
 * switch_mm: run next's tasks on this CPU: into next's cpu_vm_mask, out of
 *   the previous mm's, next's directory in CR3 (none of it if this CPU has
 *   next loaded already, kept lazily).  next not NULL; interrupts off.
 *   prev and tsk are Linux's arguments, unused here; tsk may be NULL.
 * enter_lazy_tlb: a kernel thread follows on this CPU: the directory stays
 *   loaded, lazily (Linux's lazy TLB mode; the next flush of that mm makes
 *   the CPU leave it: leave_mm, <asm/pgtable.h>).  Interrupts off.  The
 *   scheduler calls one of the two at every switch (kernel/fork.c's
 *   arch_switch_to).  mmput's exit_mmap makes every lazy CPU leave before
 *   it frees the directory (docs/smp.md).
 */
struct mm_struct *mm_alloc(void);
void mmput(struct mm_struct *mm);
struct mm_struct *dup_mm(struct mm_struct *oldmm);
void switch_mm(struct mm_struct *prev, struct mm_struct *next, struct task_struct *tsk);
void enter_lazy_tlb(struct mm_struct *mm, struct task_struct *tsk);
/* Kernel tests and exec: make mm the current task's address space (sets
 * current->mm and CR3) and return the previous mm (NULL for a kernel
 * thread).  use_mm(NULL) makes the task a kernel thread: the previous
 * directory stays loaded lazily (enter_lazy_tlb) until a flush or that
 * mm's exit_mmap makes this CPU leave it.  (Linux has kthread_use_mm for
 * the same purpose.) */
struct mm_struct *use_mm(struct mm_struct *mm);

/* --- VMAs ---
 * find_vma: the first VMA with vm_end > addr (it may start above addr), or
 *   NULL.  find_vma_intersection: a VMA overlapping [start, end), or NULL.
 * do_mmap: map [addr, addr+len) with PROT_* prot and MAP_* flags.  Anonymous
 *   (MAP_ANONYMOUS, file ignored) private or shared, or file (referenced by
 *   the caller; the VMA takes its own reference) from page pgoff on, through
 *   file->f_op->mmap (-ENODEV if none); -EACCES if the file is not open for
 *   reading, or MAP_SHARED with PROT_WRITE on a file not open for writing.
 *   Caller holds mm->mmap_sem (or mm is not in use yet).  Without MAP_FIXED addr is a hint: the first free gap
 *   from mm->mmap_base up is used if the hint is taken.  MAP_FIXED replaces
 *   whatever was there.  Adjacent compatible anonymous VMAs are merged.
 *   Returns the address or a negative errno (IS_ERR_VALUE): -EINVAL (len 0,
 *   unaligned MAP_FIXED address, bad flags), -ENOMEM (no room, past
 *   TASK_SIZE, out of memory), -EEXIST (MAP_FIXED_NOREPLACE over a mapping).
 *   Linux's do_mmap works on current->mm; ours takes mm so that exec and the
 *   tests can build an address space before switching to it.
 * do_munmap: unmap [start, start+len): splits VMAs at the edges, drops the
 *   pages.  0, or -EINVAL (start unaligned, len 0, range past TASK_SIZE).
 *   Unmapping a range with nothing in it is not an error.
 * do_mprotect: change the protection of [start, start+len) (splits and
 *   merges VMAs).  0, -EINVAL (unaligned start, bad prot), -ENOMEM (part of
 *   the range is not mapped).  Removing PROT_WRITE write-protects the PTEs;
 *   PROT_NONE makes them not present (the frame is kept).
 * do_brk_flags / sys_brk: the heap.  mm->start_brk and mm->brk are set by
 *   exec (end of bss, page aligned); sys_brk moves brk and returns the new
 *   value, or the old one if the request fails (Linux's semantics).
 * setup_stack_vma: exec's stack: a GROWSDOWN, read-write VMA of size bytes
 *   ending at top (STACK_TOP).  0 or -ENOMEM.
 * expand_stack: grow a GROWSDOWN vma down to cover addr.  0, or -ENOMEM if
 *   the stack would exceed mm->stack_rlimit or come within STACK_GUARD_GAP
 *   of the VMA below.
 */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
                                             unsigned long end);
long do_mmap(struct mm_struct *mm, struct file *file, unsigned long addr, unsigned long len,
             unsigned long prot, unsigned long flags, unsigned long pgoff);
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);
int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
                unsigned long prot);
int setup_stack_vma(struct mm_struct *mm, unsigned long top, unsigned long size);
int expand_stack(struct vm_area_struct *vma, unsigned long addr);

/* --- page tables of user space (mm/memory.c) ---
 * handle_mm_fault: resolve a fault at address inside vma (the caller
 *   checked the permissions): demand-zero, copy-on-write, or the vma's
 *   ->fault.  flags: FAULT_FLAG_WRITE.  0 or VM_FAULT_* bits.
 * zap_page_range: drop the pages mapped in [start, end) (references put,
 *   PTEs cleared).  The page tables stay until the directory is freed.
 * change_protection: rewrite the PTEs of [start, end) for newflags.
 * copy_page_range: fork's copy of one VMA's PTEs (COW for private VMAs).
 * access_remote_vm: read (write = 0) or write len bytes at addr in mm,
 *   which need not be the current address space, faulting pages in as the
 *   owner would (exec fills a new stack with it; tests use it).  Returns the
 *   bytes transferred.
 */
int handle_mm_fault(struct vm_area_struct *vma, unsigned long address, unsigned int flags);
/* The shared zero page (Linux's empty_zero_page, ZERO_PAGE(), is_zero_pfn()):
 * one page of zeros in the kernel image's bss (so PG_reserved, never
 * freed), mapped read-only by every read fault on private anonymous memory
 * (mm/memory.c).  Its PTEs hold no reference and no mapcount (Linux's
 * vm_normal_page() returns NULL for it): fork, munmap and exit skip it, and
 * the first write gives the PTE a fresh zeroed page of its own. */
extern char empty_zero_page[PAGE_SIZE];
#define ZERO_PAGE(vaddr) virt_to_page(empty_zero_page)
static inline bool is_zero_pfn(unsigned long pfn)
{ return pfn == virt_to_phys(empty_zero_page) >> PAGE_SHIFT; }
/* mm/fault.c: the policy half of do_page_fault for a user address in mm:
 * VMA lookup, stack growth, permission check, handle_mm_fault.  error_code
 * is the CPU's (X86_PF_WRITE, X86_PF_USER).  Returns 0 if resolved, else
 * the signal to send (SIGSEGV or SIGBUS) with its si_code in *code
 * (SEGV_MAPERR, SEGV_ACCERR, BUS_ADRERR). */
int resolve_user_fault(struct mm_struct *mm, unsigned long address,
                       unsigned long error_code, int *code);
void zap_page_range(struct mm_struct *mm, unsigned long start, unsigned long end);
void change_protection(struct vm_area_struct *vma, unsigned long start, unsigned long end,
                       unsigned long newflags);
int copy_page_range(struct mm_struct *dst, struct mm_struct *src, struct vm_area_struct *vma);
int access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, int len, int write);

/* --- system calls (mm/mmap.c; Linux i386 numbers in the syscall table) --- */
long sys_brk(unsigned long brk);
long sys_mmap2(unsigned long addr, unsigned long len, unsigned long prot,
               unsigned long flags, unsigned long fd, unsigned long pgoff);
long sys_munmap(unsigned long addr, unsigned long len);
long sys_mprotect(unsigned long start, unsigned long len, unsigned long prot);
long sys_madvise(unsigned long start, size_t len, int advice);   /* mm/madvise.c */
long sys_fadvise64(int fd, unsigned long off_lo, unsigned long off_hi, size_t len,
                   int advice);                                  /* mm/fadvise.c */
long sys_fadvise64_64(int fd, unsigned long off_lo, unsigned long off_hi,
                      unsigned long len_lo, unsigned long len_hi, int advice);
long sys_mincore(unsigned long start, size_t len, unsigned char *vec);   /* mm/mincore.c */
long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
                unsigned long flags, unsigned long new_addr);      /* mm/mremap.c */
/* Memory locks (mm/mmap.c, "memory locks"): Linux's calls and errors. */
long sys_mlock(unsigned long start, size_t len);
long sys_mlock2(unsigned long start, size_t len, int flags);
long sys_munlock(unsigned long start, size_t len);
long sys_mlockall(int flags);
long sys_munlockall(void);
/* May the caller lock memory at all (RLIMIT_MEMLOCK not 0, or CAP_IPC_LOCK)? */
bool can_do_mlock(void);
long sys_msync(unsigned long start, unsigned long len, int flags);
/* cachestat(2), Linux 6.5's number 451 (mm/filemap.c): page-cache counts
 * of a file range; the structures are ABI (include/uapi/linux/mman.h). */
struct cachestat_range;
struct cachestat;
long sys_cachestat(unsigned int fd, struct cachestat_range *cstat_range,
                   struct cachestat *cstat, unsigned int flags);   /* both user pointers */

/* --- file mappings (mm/memory.c, mm/filemap.c) ---
 * page_mapcount: how many user PTEs map page (_mapcount + 1).
 * msync_pte_range: for the shared file VMA v, move the hardware dirty bit
 *   of each PTE in [start, end) to its page (set_page_dirty_mapped).  The
 *   PTE stays writable: writeback's page_mkclean write-protects it when it
 *   cleans the page.  mmap_sem held.
 * unmap_mapping_range: zap every PTE, in every VMA on mapping->i_mmap, that
 *   maps file page index >= pgoff (private COW copies too, as Linux's
 *   truncate does): truncate calls it so that a later access beyond the new
 *   EOF faults (SIGBUS) instead of reaching a page no longer in the file.
 * page_mkclean: write-protect (and clean) every shared PTE mapping page;
 *   returns 1 if one of them was dirty.  Page locked.  Writeback calls it
 *   (clear_page_dirty_for_io) so that a write through a mapping after the
 *   page was cleaned faults again and marks it dirty again.
 * generic_file_mmap: f_op->mmap of page-cache files: vm_ops = filemap_fault.
 * filemap_fault: vm_ops->fault of file mappings (mm/filemap.c).
 */
static inline int page_mapcount(const struct page *page) { return page->_mapcount + 1; }
struct address_space;
void msync_pte_range(struct vm_area_struct *v, unsigned long start, unsigned long end);
void unmap_mapping_range(struct address_space *mapping, unsigned long pgoff);
int page_mkclean(struct page *page);
int generic_file_mmap(struct file *file, struct vm_area_struct *vma);
int filemap_fault(struct vm_area_struct *vma, unsigned long address, struct page **pagep);
/* Fault-around (mm/memory.c calls it after a read fault; Linux's
 * do_fault_around): FAULT_AROUND_PAGES-aligned window of the faulting
 * address, clipped to the VMA.  filemap_map_pages: vm_ops->map_pages of
 * file mappings (mm/filemap.c).  do_set_pte: map page read-only at address
 * through the empty slot ptep; the caller's page reference becomes the
 * PTE's (Linux's do_set_pte, 3.15). */
#define FAULT_AROUND_PAGES 16          /* Linux's fault_around_bytes: 64 KiB */
void filemap_map_pages(struct vm_area_struct *vma, struct vm_fault *vmf);
void do_set_pte(struct vm_area_struct *vma, unsigned long address, struct page *page,
                pte_t *ptep);
/* Counters of the file-mapping paths (for /proc/vellum/writepath and tests). */
struct filemap_fault_stats {
    unsigned long faults;        /* filemap_fault calls */
    unsigned long reads;         /* ... that had to ->readpage the page */
    unsigned long sigbus;        /* ... beyond EOF (or read error) */
    unsigned long deadlocks;     /* ... on a page the faulting task itself holds locked */
    unsigned long shared_dirtied;/* shared write faults that dirtied a page */
    unsigned long private_cow;   /* private write faults that copied a file page */
    unsigned long unmapped;      /* PTEs zapped by truncate (unmap_mapping_range) */
    unsigned long mkclean;       /* PTEs write-protected by page_mkclean */
    unsigned long fault_around;  /* neighbour pages mapped by fault-around */
};
extern struct filemap_fault_stats filemap_fault_stats;

#endif
