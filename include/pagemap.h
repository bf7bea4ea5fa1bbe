/* include/pagemap.h: the page cache (mm/filemap.c, mm/truncate.c).
 *
 * A page belongs to at most one address_space at one index.  Lookup is by
 * (mapping, index) in a hash table.  The page cache holds one reference on
 * each page it contains; every find_* below returns the page with an extra
 * reference for the caller, who drops it with put_page().
 *
 * Page lock: PG_locked, taken with lock_page() (sleeps on a hashed wait
 * queue, as Linux's page_waitqueue) and released with unlock_page(), which
 * wakes the waiters.  A task that tries to lock a page it already holds is
 * reported as a self-deadlock (the teaching kernel explains why it hangs)
 * and then hangs; a lock_page that waits longer than a few seconds reports
 * the holder.  Unlocking a page that is not locked is a BUG.
 */
#ifndef _PAGEMAP_H
#define _PAGEMAP_H
#include <fs.h>
#include <mm_types.h>
#include <gfp.h>

#define PAGE_CACHE_SIZE PAGE_SIZE

struct page *find_get_page(struct address_space *mapping, unsigned long index);
struct page *find_lock_page(struct address_space *mapping, unsigned long index);
/* Find or allocate-and-insert; returned locked and referenced.  NULL: -ENOMEM. */
struct page *find_or_create_page(struct address_space *mapping, unsigned long index,
                                 gfp_t gfp);
/* For a write (write_begin): find_or_create_page with GFP_HIGHUSER, and the
 * page marked accessed.  No flags: Linux's AOP_FLAG_NOFS (2.6.29-6.2) made
 * this allocation GFP_NOFS, so that its reclaim would not call back into the
 * filesystem that is writing; Vellum's direct reclaim never does (only
 * kswapd writes pages back, and reclaim only trylocks: the lock order in
 * mm/filemap.c), so there is nothing for a flag to switch off.  Linux 6.3
 * dropped the argument too. */
struct page *grab_cache_page_write_begin(struct address_space *mapping, unsigned long index);
int add_to_page_cache(struct page *page, struct address_space *mapping,
                      unsigned long index);   /* page locked by caller; -EEXIST */
void delete_from_page_cache(struct page *page); /* page locked, clean */
/* add_to_page_cache, then onto the LRU lists (include/swap.h): how every
 * page enters the cache, so that reclaim can find it.  0 or -EEXIST. */
int add_to_page_cache_lru(struct page *page, struct address_space *mapping,
                          unsigned long index);
/* Read page index (readpage if not uptodate, wait); referenced, unlocked,
 * uptodate; ERR_PTR(-EIO) on error. */
struct page *read_mapping_page(struct address_space *mapping, unsigned long index,
                               struct file *file);

/* Returns with the page locked, always.  A task locking a page it already
 * holds is reported (SELF-DEADLOCK, backtrace, counted in self_deadlocks)
 * and then sleeps forever in state D, as Linux's would; with the boot
 * option deadlock=panic the report panics instead. */
void lock_page(struct page *page);
/* The try-style escape for a caller that backs out on purpose (only the
 * legacy_write_mode=naive demonstration, in filemap_fault): 0 = locked;
 * -EDEADLK = this task already holds the page (reported, counted in
 * self_deadlocks, nothing taken). */
int lock_page_or_deadlock(struct page *page);
struct wait_queue_head *page_waitqueue(struct page *page);  /* hashed queue for PG_locked/PG_writeback */
int trylock_page(struct page *page);           /* 1 if we took it */
void unlock_page(struct page *page);
void wait_on_page_locked(struct page *page);
void wait_on_page_writeback(struct page *page);
void set_page_writeback(struct page *page);    /* PG_writeback, counted (NR_WRITEBACK) */
void end_page_writeback(struct page *page);
void cancel_dirty_page(struct page *page);     /* truncate: dirty no more, uncounted */
int set_page_dirty(struct page *page);         /* 1 if it was clean */
int clear_page_dirty_for_io(struct page *page);/* 1 if it was dirty; page locked */
void mapping_set_error(struct address_space *mapping, int error);

/* Write back and wait: every dirty page of mapping in [start, end]. */
int filemap_write_and_wait(struct address_space *mapping);
int filemap_fdatawrite(struct address_space *mapping);
int filemap_fdatawait(struct address_space *mapping);
/* Remove every page from lstart on (partial page at lstart zeroed past it). */
void truncate_inode_pages(struct address_space *mapping, loff_t lstart);

/* Page-cache statistics for tests and /proc (counts since boot). */
struct pagecache_stats {
    unsigned long lookups, hits, misses;     /* find_get_page */
    unsigned long readpage_calls;            /* ->readpage issued */
    unsigned long readahead_pages;           /* pages read ahead */
    unsigned long writepage_calls;
    unsigned long lock_waits;                /* lock_page had to sleep */
    unsigned long long_lock_waits;           /* ... longer than 5 s (holder reported) */
    unsigned long self_deadlocks;            /* lock_page on a page the task holds */
};
extern struct pagecache_stats pagecache_stats;
extern unsigned long lock_page_report_jiffies;  /* long-wait report threshold (5 s) */

/* The write loops' events, for tests and /proc/vellum/writepath: each is
 * counted by its tracepoint (include/trace/events/filemap.h). */
struct write_path_stats {
    unsigned long attempts;      /* write_begin calls (legacy: chunks begun) */
    unsigned long short_copies;  /* atomic copy came up short */
    /* zero_commits and fault_ins count one event (trace_write_fault_in):
     * write_end committed 0 bytes, so the loop faulted the source in.  Both
     * stay, as /proc/vellum/writepath's readers know them. */
    unsigned long zero_commits;
    unsigned long fault_ins;
    unsigned long retries;       /* chunk retried after fault-in (legacy 2-copy:
                                    the page raced with truncate or a read) */
    unsigned long efaults;       /* loop ended because the source could not be faulted in */
    unsigned long legacy_2copy;  /* legacy fallback: chunks copied via a temporary page */
    unsigned long legacy_naive;  /* legacy naive path: copies with faults on under the lock */
};
extern struct write_path_stats write_path_stats;
/* The text of /proc/vellum/writepath (mm/filemap.c): one "name value" line
 * per counter, the write loop's above, the page-fault handler's
 * (page_faults, fixups, atomic_fixups, demand_zero, cow_copies, cow_reuses,
 * stack_grows, user_sigsegv), the legacy paths' (legacy_2copy, legacy_naive,
 * self_deadlocks) and the file mappings' (file_faults, file_fault_reads,
 * file_fault_sigbus, file_fault_deadlocks, shared_dirtied, private_cow,
 * truncate_unmapped, mkclean: struct filemap_fault_stats in <mm.h>), and
 * legacy_write_mode (0 = 2copy, 1 = naive: the boot option).  Writes at most size bytes including a NUL;
 * returns the length written (without the NUL). */
size_t write_path_stats_show(char *buf, size_t size);
extern int write_path_trace;     /* 1: the write loops' tracepoints printk each
                                    event (boot option writetrace=1;
                                    include/trace/events/filemap.h) */

/* How filesystems with only prepare_write/commit_write are driven
 * (boot option legacy_write_mode=naive; mm/filemap.c explains both). */
#define LEGACY_WRITE_2COPY 0     /* 2.6.24's safe fallback (default) */
#define LEGACY_WRITE_NAIVE 1     /* pre-2.6.24: copy with faults enabled under
                                    the page lock.  DEADLOCKS; demonstration only */
extern int legacy_write_mode;

/* write_begin/write_end through mapping->a_ops, for kernel-internal writers
 * (page_symlink): callers pass AOP_FLAG_UNINTERRUPTIBLE and memcpy between. */
int pagecache_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
                          unsigned len, unsigned flags, struct page **pagep, void **fsdata);
int pagecache_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                        unsigned len, unsigned copied, struct page *page, void *fsdata);
#endif
