/* mm/filemap.c: the page cache.  Owns the (mapping, index) hash of cached
 * pages, the page lock and its hashed wait queues, the dirty/writeback bits,
 * the read path with sequential readahead (and RWF_NOWAIT's limit), and the
 * write loop generic_perform_write (write_begin / atomic copy / write_end,
 * with the short-copy and fault-in-and-retry logic), the legacy prepare_write /
 * commit_write fallbacks, and the page-cache side of file mappings
 * (filemap_fault, generic_file_mmap; docs/mmap.md), and the text of
 * /proc/vellum/writepath (write_path_stats_show: the write loop's counters).
 * Sits on the page allocator (<mm.h>) and the scheduler's wait queues;
 * filesystems plug in below through a_ops.
 *
 * ======================================================================
 * LOCK ORDER.  This is the one place it is written down.  Outermost first;
 * a lock may only be taken while holding locks ABOVE it in this list.
 *
 *   the big kernel lock            (kernel_flag_cpu, include/smp_lock.h: one CPU
 *                                   in the kernel at a time, SMP step 3.  Outside
 *                                   everything: every entry to the kernel takes
 *                                   it first.  Not a sleeping lock and not in
 *                                   the validator: schedule() lets go of it
 *                                   before it sleeps and takes it back after,
 *                                   so a task may sleep "holding" it, and the
 *                                   mutexes below are never waited for with it
 *                                   held.  For the same reason code without it
 *                                   may take it under a mutex or a page lock
 *                                   (SMP step 5: read and write enter without
 *                                   it; ext2_get_block and blkdev_rw take it
 *                                   under i_mutex and the page lock): its
 *                                   holder, should it wait for that mutex,
 *                                   sleeps and lets it go.  Never under a
 *                                   spinlock.  A kernel thread may run without it
 *                                   (unlock_kernel, SMP step 4); alloc_pages
 *                                   takes it back for its slow path only when
 *                                   the caller may sleep, so holds no spinlock)
 *   namespace_sem                  (mutex: the mount table, fs/namespace.c)
 *     sb_list_lock                 (mutex: the super_blocks list, fs/super.c.
 *                                   umount under namespace_sem; sync and the
 *                                   flusher hold it across writeback, so it
 *                                   sits above the page lock; never taken
 *                                   with an i_mutex held)
 *       bdev->bd_sync_lock         (mutex: one sync_blockdev pass per device,
 *                                   fs/buffer.c; sync and umount take it
 *                                   under sb_list_lock, never under a page
 *                                   lock; above bcache_lock, bh->b_lock and
 *                                   bdev->lock)
 *   file->f_pos_lock               (mutex: one open file's f_pos, fs/read_write.c:
 *                                   read/write/lseek/getdents.  Outside
 *                                   i_mutex; sendfile(fd, fd) takes it once)
 *   rename_mutex                   (mutex: the tree's shape during rename,
 *                                   fs/namei.c; Linux's s_vfs_rename_mutex)
 *     inode->i_mutex               (mutex: directory ops; write(), truncate.
 *                                   Two directories (rename): lower address first)
 *   fifo_lock                      (mutex: every FIFO's i_pipe and open counts,
 *                                   fs/pipe.c; let go while an open waits for
 *                                   its partner, never held across a copy)
 *   pipe->mutex, tty read_mutex    (mutexes: a pipe's buffer, fs/pipe.c; one tty
 *                                   reader, kernel/drivers/tty.c.  Held across
 *                                   copies to/from user space: above mmap_sem)
 *       mm->mmap_sem               (rw_semaphore: the VMAs and PTEs of one mm.
 *                                   For reading by the page-fault handler for a
 *                                   user address, msync, mincore, futex, /proc;
 *                                   for writing by mmap, munmap, mprotect,
 *                                   mremap, brk, mlock, fork.  A read orders as
 *                                   a write: a writer queued between two
 *                                   readers blocks the second)
 *         page lock (PG_locked)    (lock_page: sleeps; one page at a time.
 *                                   filemap_fault locks a page to read it in)
 *           jbd_handle             (a JBD handle, journal_start .. journal_stop,
 *                                   fs/jbd/transaction.c.  Not a lock object, but
 *                                   it behaves as one: a task holding a handle
 *                                   blocks kjournald's commit (which waits for
 *                                   t_updates == 0), and journal_start may wait
 *                                   for that commit.  Linux 2.6.24's ext3 takes
 *                                   the page lock first and then the handle
 *                                   (ext3_write_begin, ext3_ordered_writepage),
 *                                   so the handle sits under the page lock, and
 *                                   the commit never waits for a page lock (ext4
 *                                   later reversed it: docs/journal.md).  Above
 *                                   ei->truncate_mutex and sb->s_lock: ext3's
 *                                   get_block and allocation run under it.  No
 *                                   user copy may fault while a handle is held.
 *                                   The validator knows it as the class
 *                                   "jbd_handle".  Ordered data keeps the
 *                                   rule: the commit writes the filed data
 *                                   buffers without their page locks, and
 *                                   waits for PG_writeback, not a page lock
 *                                   (a flusher sends its plug before it
 *                                   sleeps, and ext3's writepage before it
 *                                   starts a handle); journal_invalidatepage
 *                                   waits for a commit under the page lock,
 *                                   as journal_start does)
 *             j_checkpoint_mutex   (mutex: one checkpoint of a journal at a time,
 *                                   fs/jbd/checkpoint.c; journal_start takes it
 *                                   when the log is full, before it joins a
 *                                   transaction: it may wait for a commit)
 *           ei->truncate_mutex     (mutex: ext2 get_block vs truncate_blocks,
 *                                   fs/ext2/inode.c; get_block runs under the
 *                                   page lock.  A truncate lets go of it while
 *                                   its handle restarts, since the commit it
 *                                   waits for may wait for a handle whose task
 *                                   waits for this mutex)
 *             sb->s_lock           (fs allocation: bitmaps, free counts)
 *               bh->b_lock         (mutex: one metadata buffer being read in or
 *                                   written out)
 *                 j_state_lock     (mutex: a journal's in-core state, fs/jbd/:
 *                                   transactions, credits, journal_heads, the
 *                                   log's head and tail.  journal_get_write_access
 *                                   takes it under b_lock, to wait out a write of
 *                                   the buffer; never held across I/O)
 *                   bcache_lock    (mutex: the buffer cache's hash and LRU,
 *                                   fs/buffer.c; never held across I/O.  JBD
 *                                   drops buffer references under j_state_lock)
 *                 bdev->lock       (mutex: one request at a time to a driver,
 *                                   kernel/blkdev.c)
 *                   ATA channel lock (mutex "ata primary": one command per
 *                                   channel, kernel/drivers/ata.c; innermost
 *                                   sleeping lock)
 *           mapping->i_mmap_lock   (spinlock: mapping->i_mmap, the VMAs mapping
 *                                   a file; page_mkclean, truncate and reclaim's
 *                                   page_referenced/try_to_unmap walk it)
 *             inode_wb_lock        (page_mkclean and try_to_unmap dirty a page
 *                                   under it: set_page_dirty marks its inode)
 *           mapping->tree_lock     (spinlock: mapping->pages, nrpages)
 *             page_hash_lock       (spinlock: the global hash chains)
 *           lru_lock               (spinlock, irqs off: the LRU lists, mm/swap.c.
 *                                   A leaf: the free path takes it (a page's last
 *                                   put_page), so no reference is dropped under it)
 *           inode_wb_lock          (spinlock: sb->s_dirty lists, I_DIRTY* bits)
 *           inode_hash_lock        (spinlock: the inode cache, fs/inode.c)
 *           files->file_lock       (spinlock: one fd table, fs/fdtable.c)
 *           tty.lock               (spinlock, irqs off: the tty's input ring and
 *                                   termios; the keyboard/serial interrupt takes it)
 *           wait-queue locks       (innermost; inside wake_up/prepare_to_wait)
 *   futex_hash_bucket.lock         (spinlock: one futex hash bucket's sleepers,
 *                                   kernel/futex.c.  Taken with no other lock
 *                                   held: the futex key lookup drops mm->mmap_sem
 *                                   first, and the user word is read under it
 *                                   with page faults disabled, so no fault
 *                                   path's lock nests in it.  A leaf: only
 *                                   wake_up_process runs under it)
 *   file_lock_lock                 (spinlock: every inode's advisory locks,
 *                                   i_flock, and the blocked requests,
 *                                   fs/locks.c.  Taken under no spinlock: by
 *                                   fcntl and flock with no lock held (user
 *                                   memory is copied before and after, never
 *                                   under it), by a close, and by a file's last
 *                                   fput, which munmap makes under mmap_sem.
 *                                   Nested: wait queues, send_sigio's signal)
 *   Leaves that may be taken under any lock above, nothing under them
 *   (kernel/x86, kernel/sched.c, mm/, fs/open.c's inode_wc_lock; smp.md):
 *   call_lock                      (spinlock, interrupts ON: smp_call_function's
 *                                   data, kernel/x86/smp.c; two CPUs calling
 *                                   each other with interrupts off would wait
 *                                   for ever)
 *   tlbstate_lock                  (spinlock, irqs off: the TLB shootdown's data,
 *                                   kernel/x86/smp.c; flush_tlb_mm_page takes it
 *                                   under mmap_sem or i_mmap_lock.  An mm's
 *                                   cpu_vm_mask and each CPU's cpu_tlbstate
 *                                   take no lock: locked bitops, and the
 *                                   CPU's own writes with interrupts off)
 *   ioapic_lock                    (spinlock, irqs off: the I/O APIC's register
 *                                   window and each line's CPU and affinity
 *                                   mask, kernel/x86/io_apic.c)
 *   rq->lock                       (spinlock, irqs off: one CPU's run queue and
 *                                   its tasks' state, on_cpu and cpu,
 *                                   kernel/sched.c; Linux 2.6's, class
 *                                   "&rq->lock", one for every CPU's.
 *                                   wake_up_process takes it under any lock
 *                                   above, the wait-queue locks included; it is
 *                                   held across the context switch, taken by
 *                                   prev and let go by next.  Two at once
 *                                   (a wake-up or an affinity change moving a
 *                                   task, a balancing pull) only through
 *                                   double_rq_lock: the lower CPU number first,
 *                                   the second rq->lock/1 (spin_lock_nested),
 *                                   so two CPUs moving tasks between the same
 *                                   two queues in opposite directions take them
 *                                   in one order and cannot deadlock)
 *   ac->lock                       (spinlock, irqs off: one CPU's array of free
 *                                   objects of one kmalloc cache, struct
 *                                   array_cache, mm/kmalloc.c; class
 *                                   "&ac->lock", one for every cache's and
 *                                   CPU's.  Its CPU takes it for every kmalloc
 *                                   and kfree; another only to drain the array
 *                                   (kmalloc_drain_cpu_caches: the shrinker)
 *                                   or to look in it for a double free.  Never
 *                                   two at once.  Above cachep->spinlock: an
 *                                   empty array is refilled and a full one
 *                                   flushed holding both, as pcp->lock above
 *                                   zone->lock)
 *   cachep->spinlock               (spinlock, irqs off: one kmalloc cache's partial
 *                                   list, page count and its pages' free lists,
 *                                   mm/kmalloc.c; Linux 2.4's SLAB name, class
 *                                   "&cachep->spinlock".  SMP step 4: kmalloc
 *                                   and kfree run without the big kernel lock,
 *                                   on any CPU, with interrupts off and in
 *                                   interrupt handlers, hence irqsave.  The
 *                                   page allocator is called with it (and
 *                                   ac->lock) let go, so it is never held
 *                                   with zone->lock)
 *   pcp->lock                      (spinlock, irqs off: one CPU's list of free
 *                                   single pages, struct per_cpu_pages,
 *                                   mm/page_alloc.c; Linux's since 5.19, class
 *                                   "&pcp->lock", one for every CPU's.  Its CPU
 *                                   takes it; another only to drain the list.
 *                                   Never two at once)
 *   zone->lock                     (spinlock, irqs off: the buddy allocator's free
 *                                   lists, mm/page_alloc.c;
 *                                   Linux's name, class "&zone->lock".  SMP step
 *                                   4: alloc_pages and __free_pages run without
 *                                   the big kernel lock, on any CPU, with
 *                                   interrupts off and in interrupt handlers (a
 *                                   last put_page anywhere), hence irqsave.
 *                                   __free_pages lets lru_lock go before it;
 *                                   reclaim, the OOM killer and the sleeps of
 *                                   the slow path run without it)
 * Spinlocks are leaves: nothing that sleeps, and no other spinlock except
 * as nested above (tree_lock -> page_hash_lock, i_mmap_lock ->
 * inode_wb_lock, ac->lock -> cachep->spinlock, pcp->lock -> zone->lock,
 * rq->lock -> rq->lock/1 in CPU order), is taken under one.
 * The lock validator (kernel/lockdep.c, docs/lockdep.md; the test kernel
 * and DEBUG=1) learns the order the code really follows and reports any
 * cycle in it, a sleep under a spinlock, a spinlock that an interrupt
 * handler takes without the others disabling interrupts; every make check
 * boot runs under it, quietly.  Its classes are these names; page locks
 * nest only in (mapping, index) order, the second directory of rename is
 * mutex_lock_nested (&inode->i_mutex/1).
 *
 * Reclaim (mm/vmscan.c) runs inside allocations, under whatever locks the
 * allocating code holds, so it takes nothing it could wait for: the page
 * lock with trylock_page, bcache_lock (the buffer cache's shrinker) with
 * mutex_trylock, and no mmap_sem at all (try_to_unmap works under
 * i_mmap_lock, as page_mkclean does; mm/memory.c says why that is safe).
 * Only kswapd, which holds nothing, calls ->writepage (page lock ->
 * truncate_mutex -> ... as any writeback).  The allocations that may sleep
 * (GFP_USER: page-cache pages, user pages) are made holding at most
 * i_mutex and mmap_sem, never a page lock, so kswapd and the flusher,
 * which they wait for, can always progress.
 *
 * Why mmap_sem sits between i_mutex and the page lock, and why that forces
 * the whole write_begin/write_end design (docs/page-cache.md, the write loop):
 *   write() holds i_mutex and locks a page in write_begin, then copies from
 *   the user buffer.  If that copy takes a page fault, the fault handler
 *   takes mmap_sem and, for a file-backed address, lock_page()s the page it
 *   must read in (filemap_fault).  So a faulting copy under a page lock means
 *     page lock -> mmap_sem       (against the order above: munmap holds
 *                                  mmap_sem and waits for our page: ABBA)
 *     page lock -> same page lock (the buffer is an mmap of the very page
 *                                  we are writing: the task sleeps on
 *                                  itself forever)
 *     page A -> page B            (two writers copying each from the other's
 *                                  file: ABBA on two page locks)
 *   Hence: copy with page faults DISABLED under the page lock (it stops
 *   short instead of faulting), unlock the page in write_end, THEN fault the
 *   source in (i_mutex -> mmap_sem is in order), and retry.  Pre-2.6.24
 *   kernels copied with faults enabled under the page lock: see
 *   legacy_write_chunk_naive() below, kept to demonstrate the deadlock
 *   (docs/mmap.md shows how to reproduce each case on Vellum).
 *   Never take i_mutex while holding mmap_sem: msync drops mmap_sem before
 *   it writes the file back.
 * ======================================================================
 */
#include <kernel.h>
#include <smp_lock.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <init.h>
#include <cmdline.h>
#include <uio.h>
#include <writeback.h>
#include <pagemap.h>
#include <buffer_head.h>
#include <swap.h>
#include <vmstat.h>
#include <sched.h>
#include <signal.h>
#include <mm.h>
#include <slab.h>
#include <timer.h>
#include <fdtable.h>
#include <asm/uaccess.h>
#include <linux/mman.h>
#include <trace/events/filemap.h>       /* the write loops' tracepoints */

struct pagecache_stats pagecache_stats;
struct write_path_stats write_path_stats;
int write_path_trace;
int legacy_write_mode = LEGACY_WRITE_2COPY;

/* /proc/vellum/writepath (fs/pseudofs.c): the write loop's counters above,
 * with the page-fault handler's and the file mappings' (<pagemap.h>). */
size_t write_path_stats_show(char *buf, size_t size)
{
    const struct write_path_stats *w = &write_path_stats;
    const struct filemap_fault_stats *f = &filemap_fault_stats;
    int n = snprintf(buf, size,
        "attempts %lu\nshort_copies %lu\nzero_commits %lu\nfault_ins %lu\n"
        "retries %lu\nefaults %lu\n"
        "page_faults %lu\nfixups %lu\natomic_fixups %lu\ndemand_zero %lu\n"
        "cow_copies %lu\ncow_reuses %lu\nzero_page %lu\nzero_cow %lu\n"
        "stack_grows %lu\nuser_sigsegv %lu\n"
        "legacy_2copy %lu\nlegacy_naive %lu\nself_deadlocks %lu\n"
        "file_faults %lu\nfile_fault_reads %lu\nfile_fault_sigbus %lu\n"
        "file_fault_deadlocks %lu\nshared_dirtied %lu\nprivate_cow %lu\n"
        "truncate_unmapped %lu\nmkclean %lu\nfile_fault_around %lu\nlegacy_write_mode %d\n",
        w->attempts, w->short_copies, w->zero_commits, w->fault_ins, w->retries, w->efaults,
        page_fault_count, page_fault_fixups, page_fault_atomic_fixups, page_fault_demand_zero,
        page_fault_cow, page_fault_cow_reuse, page_fault_zero_page, page_fault_zero_cow,
        page_fault_stack_grow, page_fault_sigsegv,
        w->legacy_2copy, w->legacy_naive, pagecache_stats.self_deadlocks,
        f->faults, f->reads, f->sigbus, f->deadlocks, f->shared_dirtied, f->private_cow,
        f->unmapped, f->mkclean, f->fault_around, legacy_write_mode);
    return n < 0 ? 0 : (size_t)n >= size ? (size ? size - 1 : 0) : (size_t)n;
}

/* ---- the hash table of cached pages ----------------------------------- */

#define PAGE_HASH_BITS 10
static struct page *page_hash_table[1 << PAGE_HASH_BITS];
static DEFINE_SPINLOCK(page_hash_lock);

static unsigned page_hashfn(struct address_space *mapping, unsigned long index)
{
    unsigned long h = ((unsigned long)mapping / sizeof(struct address_space)) + index;
    h *= 0x9E3779B1u;                         /* Knuth's multiplicative hash */
    return h >> (32 - PAGE_HASH_BITS);
}

/* ---- page lock wait queues (Linux's page_waitqueue) -------------------
 * A wait queue per page would cost memory in every struct page; instead
 * pages hash onto a small table of queues.  Waiters of different pages may
 * share a queue, so every waiter re-checks its own page after a wake-up. */
#define PAGE_WAIT_BITS 6
static wait_queue_head_t page_wait_table[1 << PAGE_WAIT_BITS];

wait_queue_head_t *page_waitqueue(struct page *page)
{
    unsigned long h = ((unsigned long)page / sizeof(struct page)) * 0x9E3779B1u;
    return &page_wait_table[h >> (32 - PAGE_WAIT_BITS)];
}

/* Wake the page's waiters, if its queue has any: unlocking a page nobody
 * waits for (nearly always) costs no wake-up walk.  Linux tests PG_waiters
 * for the same (unlock_page, end_page_writeback).  A waiter queues itself
 * (and sets its state, a full barrier) before it tests the bit, and the
 * bit is cleared by a locked instruction, a full barrier too, before the
 * queue is looked at: the waiter is seen, or it sees the bit clear. */
static void wake_up_page(struct page *page)
{
    wait_queue_head_t *wq = page_waitqueue(page);
    if (waitqueue_active(wq))
        wake_up(wq);
}

static void pagecache_init(void)
{
    for (unsigned k = 0; k < ARRAY_SIZE(page_wait_table); k++)
        init_waitqueue_head(&page_wait_table[k]);
    const char *v = cmdline_get("writetrace");
    if (v && (*v == '\0' || *v == '1'))
        write_path_trace = 1;
    v = cmdline_get("legacy_write_mode");
    if (v && !strcmp(v, "naive"))
        legacy_write_mode = LEGACY_WRITE_NAIVE;
    else if (v && strcmp(v, "2copy"))
        printk(KERN_WARNING "legacy_write_mode=%s: unknown (naive or 2copy); using 2copy\n", v);
}
subsys_initcall(pagecache_init);

/* ---- the page lock ----------------------------------------------------- */

int trylock_page(struct page *page)
{
    if (TestSetPageLocked(page))
        return 0;
    page->lock_owner = current;
    lock_page_acquire(page, 1, _RET_IP_);   /* the validator, if built in */
    return 1;
}

static void describe_page(struct page *page)
{
    struct address_space *m = page->mapping;
    printk(KERN_ERR "  page %p flags %#lx mapping %p (inode %lu) index %lu\n", page,
           page->flags, m, m && m->host ? m->host->i_ino : 0UL, page->index);
}

static void report_self_deadlock(struct page *page)
{
    stat_inc(pagecache_stats.self_deadlocks);
    printk(KERN_ERR "lock_page: SELF-DEADLOCK: task %s (pid %d) locks a page it already holds\n",
           current->comm, current->pid);
    describe_page(page);
    printk(KERN_ERR "  Typical cause: a page fault while copying into a page this task\n");
    printk(KERN_ERR "  locked (the pre-2.6.24 write path); see docs/page-cache.md.  Backtrace:\n");
    dump_stack();
}

/* A lock_page wait longer than this reports the holder (tests shorten it). */
unsigned long lock_page_report_jiffies = 5 * HZ;

/* Sleep until the page lock is ours.  A wait longer than
 * lock_page_report_jiffies reports the holder, once. */
static void __lock_page(struct page *page)
{
    stat_inc(pagecache_stats.lock_waits);
    wait_queue_head_t *wq = page_waitqueue(page);
    DEFINE_WAIT(w);
    unsigned long start = jiffies;
    int reported = 0;
    current->waiting_on_page = page;
    for (;;) {
        prepare_to_wait(wq, &w, TASK_UNINTERRUPTIBLE);
        if (trylock_page(page))
            break;
        if (!reported && jiffies - start >= lock_page_report_jiffies) {
            struct task_struct *owner = page->lock_owner;
            reported = 1;
            stat_inc(pagecache_stats.long_lock_waits);
            set_current_state(TASK_RUNNING);
            printk(KERN_WARNING "lock_page: task %s (pid %d) waited %lu ms for a page lock\n",
                   current->comm, current->pid, jiffies_to_msecs(jiffies - start));
            describe_page(page);
            if (owner) {
                printk(KERN_WARNING "  held by %s (pid %d):\n", owner->comm, owner->pid);
                show_task(owner);
            }
            continue;
        }
        schedule_timeout(reported ? MAX_SCHEDULE_TIMEOUT : (long)lock_page_report_jiffies);
    }
    finish_wait(wq, &w);
    current->waiting_on_page = NULL;
}

/* Returns with the page locked, always.  Locking a page this task already
 * holds is reported (SELF-DEADLOCK, backtrace), then the task sleeps here
 * for good, in state D, as Linux's would (deadlock=panic: it panics). */
void lock_page(struct page *page)
{
    might_sleep();
    lock_page_acquire(page, 0, _RET_IP_);   /* the validator: before we sleep */
    if (trylock_page(page))
        return;
    if (page->lock_owner == current) {
        report_self_deadlock(page);
        self_deadlock_stuck("page lock");
    }
    __lock_page(page);
}

/* The one escape, for a caller that backs out on purpose (filemap_fault in
 * the legacy_write_mode=naive demonstration): 0 with the lock held, or
 * -EDEADLK, reported and nothing taken, if this task already holds it. */
int lock_page_or_deadlock(struct page *page)
{
    might_sleep();
    lock_page_acquire(page, 0, _RET_IP_);
    if (trylock_page(page))
        return 0;
    if (page->lock_owner == current) {
        report_self_deadlock(page);
        printk(KERN_ERR "  (legacy_write_mode=naive: the fault backs out with -EDEADLK "
               "instead of sleeping forever)\n");
        return -EDEADLK;
    }
    __lock_page(page);
    return 0;
}

/* Any task may unlock (I/O completion does, for the reader); unlocking a
 * page that is not locked is a broken contract. */
void unlock_page(struct page *page)
{
    BUG_ON(!PageLocked(page));
    page->lock_owner = NULL;
    barrier();
    ClearPageLocked(page);
    wake_up_page(page);
}

void wait_on_page_locked(struct page *page)
{
    if (PageLocked(page))
        wait_event(*page_waitqueue(page), !PageLocked(page));
}

void wait_on_page_writeback(struct page *page)
{
    if (PageWriteback(page))
        wait_event(*page_waitqueue(page), !PageWriteback(page));
}

/* PG_writeback set on a locked page about to be written (Linux's
 * set_page_writeback), counted in NR_WRITEBACK until end_page_writeback.
 * A sync pass's PG_towrite goes now, as Linux's __test_set_page_writeback
 * clears PAGECACHE_TAG_TOWRITE: from the tag to PG_writeback there is no
 * moment a second pass, looking for either, could miss the page. */
void set_page_writeback(struct page *page)
{
    if (!TestSetPageWriteback(page))
        inc_page_state(NR_WRITEBACK);
    if (PageTowrite(page))
        ClearPageTowrite(page);
}

void end_page_writeback(struct page *page)
{
    int was_writeback = TestClearPageWriteback(page);
    BUG_ON(!was_writeback);
    dec_page_state(NR_WRITEBACK);
    wake_up_page(page);
}

/* ---- dirty state ------------------------------------------------------- */

/* Does mapping write its pages back (->writepage)?  Only such dirty pages
 * count in NR_FILE_DIRTY, which dirty throttling limits (Linux's
 * mapping_can_writeback). */
static bool mapping_can_writeback(const struct address_space *mapping)
{
    return mapping && mapping->a_ops && mapping->a_ops->writepage;
}

/* Mark a page dirty.  Mappings whose filesystem writes pages back (has
 * ->writepage) also count it in NR_FILE_DIRTY and put their inode on
 * sb->s_dirty for the flusher; mappings without one (ramfs: the page cache
 * IS the storage) keep the bit only, as Linux's __set_page_dirty_no_writeback. */
int set_page_dirty(struct page *page)
{
    if (TestSetPageDirty(page))
        return 0;
    struct address_space *mapping = page->mapping;
    if (mapping_can_writeback(mapping)) {
        inc_page_state(NR_FILE_DIRTY);
        current->nr_dirtied++;          /* for balance_dirty_pages_ratelimited */
        if (mapping->host)
            inode_mark_dirty_pages(mapping->host);
    }
    return 1;
}

/* Truncate: the page's dirty data will never be written (Linux's
 * cancel_dirty_page).  Page locked. */
void cancel_dirty_page(struct page *page)
{
    if (TestClearPageDirty(page) && mapping_can_writeback(page->mapping))
        dec_page_state(NR_FILE_DIRTY);
}

/* Page locked, about to be written.  Shared mappings' PTEs are write-
 * protected first (page_mkclean, mm/memory.c), so a write through a mapping
 * during or after the I/O faults and dirties the page again.  A PTE that
 * page_mkclean found dirty was stored through since the page was last
 * marked: which bytes is unknown, so the whole page is dirtied again,
 * every buffer of it, before it is cleaned for the I/O (Linux's
 * "if (page_mkclean(page)) set_page_dirty(page);", whose set_page_dirty is
 * __set_page_dirty_buffers).  Otherwise block_write_full_page would write
 * only the buffers write(2) marked and the store would be lost.  Nothing
 * written through a mapping is ever lost by being "cleaned" unseen. */
int clear_page_dirty_for_io(struct page *page)
{
    if (page->mapping && !list_empty(&page->mapping->i_mmap) && page_mkclean(page)) {
        mark_page_buffers_dirty(page);
        set_page_dirty(page);
    }
    if (!TestClearPageDirty(page))
        return 0;
    if (mapping_can_writeback(page->mapping))
        dec_page_state(NR_FILE_DIRTY);
    return 1;
}

void mapping_set_error(struct address_space *mapping, int error)
{
    if (!error)
        return;
    set_bit(error == -ENOSPC ? AS_ENOSPC : AS_EIO, &mapping->flags);
}

/* ---- the cache proper -------------------------------------------------- */

struct page *find_get_page(struct address_space *mapping, unsigned long index)
{
    unsigned long flags;
    struct page *page;
    spin_lock_irqsave(&page_hash_lock, flags);
    pagecache_stats.lookups++;
    for (page = page_hash_table[page_hashfn(mapping, index)]; page; page = page->hash_next)
        if (page->mapping == mapping && page->index == index)
            break;
    if (page) {
        get_page(page);
        pagecache_stats.hits++;
    } else {
        pagecache_stats.misses++;
    }
    spin_unlock_irqrestore(&page_hash_lock, flags);
    return page;
}

struct page *find_lock_page(struct address_space *mapping, unsigned long index)
{
    for (;;) {
        struct page *page = find_get_page(mapping, index);
        if (!page)
            return NULL;
        lock_page(page);
        if (page->mapping == mapping && page->index == index)
            return page;
        unlock_page(page);              /* truncated while we slept */
        put_page(page);
    }
}

int add_to_page_cache(struct page *page, struct address_space *mapping, unsigned long index)
{
    unsigned long flags;
    BUG_ON(!PageLocked(page));
    spin_lock_irqsave(&mapping->tree_lock, flags);
    spin_lock(&page_hash_lock);
    unsigned h = page_hashfn(mapping, index);
    for (struct page *p = page_hash_table[h]; p; p = p->hash_next)
        if (p->mapping == mapping && p->index == index) {
            spin_unlock(&page_hash_lock);
            spin_unlock_irqrestore(&mapping->tree_lock, flags);
            return -EEXIST;
        }
    get_page(page);                     /* the page cache's own reference */
    page->mapping = mapping;
    page->index = index;
    page->hash_next = page_hash_table[h];
    page_hash_table[h] = page;
    list_add_tail(&page->i_pages, &mapping->pages);
    mapping->nrpages++;
    spin_unlock(&page_hash_lock);
    spin_unlock_irqrestore(&mapping->tree_lock, flags);
    return 0;
}

void delete_from_page_cache(struct page *page)
{
    struct address_space *mapping = page->mapping;
    unsigned long flags;
    if (!mapping)
        return;
    spin_lock_irqsave(&mapping->tree_lock, flags);
    spin_lock(&page_hash_lock);
    struct page **pp = &page_hash_table[page_hashfn(mapping, page->index)];
    while (*pp && *pp != page)
        pp = &(*pp)->hash_next;
    if (*pp)
        *pp = page->hash_next;
    page->hash_next = NULL;
    list_del_init(&page->i_pages);
    mapping->nrpages--;
    page->mapping = NULL;
    spin_unlock(&page_hash_lock);
    spin_unlock_irqrestore(&mapping->tree_lock, flags);
    put_page(page);                     /* the cache's reference */
}

/* Insert a locked page and put it on the inactive LRU list, where reclaim
 * will find it (Linux's add_to_page_cache_lru).  0 or -EEXIST. */
int add_to_page_cache_lru(struct page *page, struct address_space *mapping, unsigned long index)
{
    int err = add_to_page_cache(page, mapping, index);
    if (!err)
        lru_cache_add(page);
    return err;
}

/* A fresh page, locked, with no stale state bits, allocated with gfp.  The
 * page cache's pages are user memory, GFP_HIGHUSER: the allocation may sleep
 * (reclaim, the OOM killer), and every caller inserts with
 * add_to_page_cache_lru, which reports a page another task added meanwhile. */
static struct page *alloc_locked_page(gfp_t gfp)
{
    struct page *page = alloc_page(gfp);
    if (!page)
        return NULL;
    ClearPageUptodate(page);
    ClearPageDirty(page);
    ClearPageError(page);
    ClearPageWriteback(page);
    ClearPagePrivate(page);
    page->private = 0;
    page->mapping = NULL;
    trylock_page(page);                 /* nobody else can see it: cannot fail */
    return page;
}

struct page *find_or_create_page(struct address_space *mapping, unsigned long index,
                                 gfp_t gfp)
{
    for (;;) {
        struct page *page = find_lock_page(mapping, index);
        if (page)
            return page;
        page = alloc_locked_page(gfp);
        if (!page)
            return NULL;
        int err = add_to_page_cache_lru(page, mapping, index);
        if (err == 0)
            return page;
        unlock_page(page);              /* raced with another creator: use theirs */
        put_page(page);
        if (err != -EEXIST)
            return NULL;                /* not a race: give up */
    }
}

struct page *grab_cache_page_write_begin(struct address_space *mapping, unsigned long index)
{
    struct page *page = find_or_create_page(mapping, index, GFP_HIGHUSER);
    if (page)
        mark_page_accessed(page);       /* a write is a use (Linux: FGP_ACCESSED) */
    return page;
}

/* ---- reading ----------------------------------------------------------- */

static int do_readpage(struct address_space *mapping, struct file *file, struct page *page)
{
    stat_inc(pagecache_stats.readpage_calls);
    ClearPageError(page);
    int err = mapping->a_ops->readpage(file, page);
    if (err < 0 && PageLocked(page) && page->lock_owner == current)
        unlock_page(page);              /* be forgiving about the contract */
    return err;
}

/* Make a cached page uptodate: wait for a read in flight, or read it again
 * if the last read failed.  Page referenced, unlocked.  Returns 0, -EIO, or
 * -EAGAIN if the page was truncated meanwhile (caller looks it up again). */
static int page_wait_uptodate(struct address_space *mapping, struct file *file,
                              struct page *page)
{
    wait_on_page_locked(page);          /* someone (maybe readahead) is reading it */
    if (PageUptodate(page))
        return 0;
    lock_page(page);
    if (page->mapping != mapping) {
        unlock_page(page);
        return -EAGAIN;
    }
    if (PageUptodate(page)) {           /* raced with another reader */
        unlock_page(page);
        return 0;
    }
    do_readpage(mapping, file, page);   /* retry once, as Linux does */
    wait_on_page_locked(page);
    if (PageUptodate(page))
        return 0;
    printk(KERN_ERR "filemap: read error: inode %lu page %lu\n",
           mapping->host ? mapping->host->i_ino : 0UL, page->index);
    return -EIO;
}

#define RA_INIT_PAGES 4
#define RA_MAX_PAGES  32

/* Sequential readahead, simplified from Linux's: on a cache miss at index,
 * if the miss continues the previous window (index == readahead_next) the
 * window doubles (up to RA_MAX_PAGES), otherwise it restarts at
 * max(RA_INIT_PAGES, pages the caller asked for).  Every page of the window
 * that is not cached is allocated, added locked and handed to ->readpage. */
static void page_cache_readahead(struct address_space *mapping, struct file *file,
                                 unsigned long index, unsigned long req_pages)
{
    struct inode *inode = mapping->host;
    if (inode->i_size <= 0)
        return;
    unsigned long last = (unsigned long)((inode->i_size - 1) >> PAGE_SHIFT);
    unsigned long size;
    if (index == mapping->readahead_next && mapping->readahead_size)
        size = min((unsigned long)RA_MAX_PAGES, mapping->readahead_size * 2);
    else
        size = min((unsigned long)RA_MAX_PAGES, max((unsigned long)RA_INIT_PAGES, req_pages));
    mapping->readahead_size = size;
    mapping->readahead_next = index + size;
    for (unsigned long n = 0; n < size && index + n <= last; n++) {
        struct page *page = find_get_page(mapping, index + n);
        if (page) {
            put_page(page);
            continue;
        }
        page = alloc_locked_page(GFP_HIGHUSER);
        if (!page)
            break;
        if (add_to_page_cache_lru(page, mapping, index + n)) {
            unlock_page(page);
            put_page(page);
            continue;
        }
        if (n)
            stat_inc(pagecache_stats.readahead_pages);
        do_readpage(mapping, file, page);   /* unlocks the page when done */
        put_page(page);                 /* the cache keeps its reference */
    }
}

struct page *read_mapping_page(struct address_space *mapping, unsigned long index,
                               struct file *file)
{
    for (;;) {
        struct page *page = find_get_page(mapping, index);
        if (!page) {
            page = alloc_locked_page(GFP_HIGHUSER);
            if (!page)
                return ERR_PTR(-ENOMEM);
            int err = add_to_page_cache_lru(page, mapping, index);
            if (err) {
                unlock_page(page);
                put_page(page);
                if (err != -EEXIST)
                    return ERR_PTR(err);
                continue;               /* raced with another reader */
            }
            do_readpage(mapping, file, page);
        }
        int err = page_wait_uptodate(mapping, file, page);
        if (!err)
            return page;
        put_page(page);
        if (err != -EAGAIN)
            return ERR_PTR(err);
    }
}

/*
 * A read under IOCB_NOWAIT (preadv2's RWF_NOWAIT, on a file that takes it):
 * cut it to the bytes from pos on that the page cache holds uptodate, up
 * to EOF; -EAGAIN if that is none and pos is before EOF.  Linux's
 * filemap_read stops so at the first page it would have to wait for
 * (filemap_update_page): one not cached, locked (I/O under way), or not
 * uptodate where the read needs it (filemap_range_uptodate asks
 * a_ops->is_partially_uptodate when blocks are smaller than a page).
 * generic_file_read_iter knows no IOCB_NOWAIT, so a file system that sets
 * FMODE_NOWAIT calls this first (ext2_file_read_iter).
 */
int filemap_nowait_limit(struct address_space *mapping, struct iov_iter *to, loff_t pos)
{
    loff_t isize = mapping->host->i_size;
    size_t count = iov_iter_count(to), want = count, n = 0;
    int (*partly)(struct page *, unsigned long, unsigned long) =
        mapping->host->i_blkbits < PAGE_SHIFT ? mapping->a_ops->is_partially_uptodate : NULL;

    if (pos >= isize || !want)
        return 0;
    if ((loff_t)want > isize - pos)
        want = (size_t)(isize - pos);
    while (n < want) {
        size_t off = (size_t)((pos + n) & (PAGE_SIZE - 1));
        struct page *page = find_get_page(mapping, (unsigned long)((pos + n) >> PAGE_SHIFT));
        int ready = page && PageUptodate(page);
        if (page && !ready && partly && trylock_page(page)) {
            ready = PageUptodate(page) || partly(page, off, count - n);
            unlock_page(page);
        }
        if (page)
            put_page(page);
        if (!ready)
            break;
        n += PAGE_SIZE - off;
    }
    if (!n)
        return -EAGAIN;
    iov_iter_truncate(to, min(n, want));
    return 0;
}

ssize_t generic_file_read_iter(struct file *file, struct iov_iter *to, loff_t *ppos)
{
    struct address_space *mapping = file->f_mapping;
    struct inode *inode = mapping->host;
    loff_t pos = *ppos;
    ssize_t copied = 0;
    int err = 0;

    if (!iov_iter_count(to))
        return 0;
    if (pos < 0)
        return -EINVAL;
    unsigned long last_req = (unsigned long)((pos + iov_iter_count(to) - 1) >> PAGE_SHIFT);
    while (iov_iter_count(to)) {
        if (pos >= inode->i_size)
            break;
        unsigned long index = (unsigned long)(pos >> PAGE_SHIFT);
        size_t offset = (size_t)(pos & (PAGE_SIZE - 1));
        struct page *page = find_get_page(mapping, index);
        if (!page) {
            page_cache_readahead(mapping, file, index, last_req - index + 1);
            page = find_get_page(mapping, index);
            if (!page) {
                /* Short of memory: readahead could not add the page, or
                 * reclaim took it back already.  Read just this one. */
                page = read_mapping_page(mapping, index, file);
                if (IS_ERR(page)) {
                    err = PTR_ERR(page);
                    break;
                }
            }
        }
        if (!PageUptodate(page)) {
            err = page_wait_uptodate(mapping, file, page);
            if (err) {
                put_page(page);
                if (err == -EAGAIN) {
                    err = 0;
                    continue;
                }
                break;
            }
        }
        loff_t isize = inode->i_size;   /* again: a truncate may have run */
        if (pos >= isize) {
            put_page(page);
            break;
        }
        mark_page_accessed(page);       /* for reclaim: PG_referenced, or activate */
        size_t nr = PAGE_SIZE - offset;
        if ((loff_t)nr > isize - pos)
            nr = (size_t)(isize - pos);
        size_t n = copy_page_to_iter(page, offset, nr, to);
        put_page(page);
        pos += n;
        copied += n;
        if (n < nr && iov_iter_count(to)) {
            err = -EFAULT;
            break;
        }
    }
    *ppos = pos;
    file_accessed(file);                /* even at EOF, as Linux's filemap_read (relatime) */
    return copied ? copied : err;
}

/* ---- cachestat(2): the page cache seen from user space ----------------
 * Linux 6.5's system call 451 (mm/filemap.c there too): how many pages of
 * a file's byte range are cached, dirty, under writeback, evicted.  Lab 1
 * of the course (docs/labs/01-syscall.md) writes it end to end. */

/* Count the cached pages of mapping with first_index <= index <= last_index
 * into cs.  Linux walks the xarray from first_index (filemap_cachestat);
 * Vellum's cache is a hash by (mapping, index), so this walks the mapping's
 * list of pages instead, under tree_lock, which keeps the list and each
 * page's flags as they are (no page is added or removed meanwhile).
 * Simplified: a page is one page (no large folios), and there are no
 * shadow entries, so nr_evicted and nr_recently_evicted stay 0. */
static void filemap_cachestat(struct address_space *mapping, unsigned long first_index,
                              unsigned long last_index, struct cachestat *cs)
{
    unsigned long flags;
    struct page *page;

    if (!mapping)               /* a pipe, a socket: no page cache here (Linux's */
        return;                 /* pipe inode has an empty i_mapping): all 0 */
    spin_lock_irqsave(&mapping->tree_lock, flags);
    list_for_each_entry(page, &mapping->pages, i_pages) {
        if (page->index < first_index || page->index > last_index)
            continue;
        cs->nr_cache++;
        if (PageDirty(page))
            cs->nr_dirty++;
        if (PageWriteback(page))
            cs->nr_writeback++;
    }
    spin_unlock_irqrestore(&mapping->tree_lock, flags);
}

/* The checks in Linux 6.5's order: the descriptor (-EBADF), the range
 * (-EFAULT), the flags (-EINVAL); the result is copied out last (-EFAULT).
 * Linux also refuses hugetlbfs files (-EOPNOTSUPP): Vellum has none.
 * len == 0 means to the end of the file, as last_index = ~0UL (ULONG_MAX),
 * and so does a range whose end wraps past 2^64 (Linux's rule); an
 * index past 32 bits is cut to unsigned long, as pgoff_t is on Linux i386. */
long sys_cachestat(unsigned int fd, struct cachestat_range __user *cstat_range,
                   struct cachestat __user *cstat, unsigned int flags)
{
    struct cachestat_range csr;
    struct cachestat cs;
    unsigned long first_index, last_index;
    struct file *file = fget(fd);

    if (!file)
        return -EBADF;
    if (copy_from_user(&csr, cstat_range, sizeof csr)) {
        fput(file);
        return -EFAULT;
    }
    if (flags != 0) {
        fput(file);
        return -EINVAL;
    }
    first_index = (unsigned long)(csr.off >> PAGE_SHIFT);
    if (csr.len == 0 || csr.off + csr.len < csr.off)    /* to EOF; or the sum wraps */
        last_index = ~0UL;
    else
        last_index = (unsigned long)((csr.off + csr.len - 1) >> PAGE_SHIFT);
    memset(&cs, 0, sizeof cs);
    filemap_cachestat(file->f_mapping, first_index, last_index, &cs);
    fput(file);
    if (copy_to_user(cstat, &cs, sizeof cs))
        return -EFAULT;
    return 0;
}

/* ---- file mappings: the page cache's side ------------------------------ */

static unsigned long size_in_pages(struct inode *inode)
{
    return (unsigned long)((inode->i_size + PAGE_SIZE - 1) >> PAGE_SHIFT);
}

/*
 * filemap_fault: vm_ops->fault of a file mapping (Linux's name; 2.6.23 and
 * before called it filemap_nopage).  Finds the page-cache page for the
 * faulting address, reading it in if needed, and returns it referenced,
 * uptodate and unlocked; handle_mm_fault maps it.  Called with mmap_sem
 * held and interrupts on; sleeps for the page lock and the read.
 *
 *   pgoff beyond EOF                  -> -EFAULT (SIGBUS, as Linux)
 *   not cached: allocate, add locked, ->readpage, wait for the read
 *   cached, uptodate                  -> map it, no lock taken
 *   cached, NOT uptodate              -> lock_page, ->readpage, wait
 *       (that lock_page is where a pre-2.6.24 writer deadlocked: it held
 *        this page locked and faulted on a mapping of it.  lock_page
 *        reports it and the task stays stuck, as Linux's.  Only in the
 *        legacy_write_mode=naive demonstration do we take the lock with
 *        lock_page_or_deadlock and back out with -EDEADLK: the fault fails
 *        (SIGBUS for user mode, a short copy for the kernel))
 *
 * i_size and page->mapping are re-checked after the last sleep: a truncate
 * that ran meanwhile makes us look again (or give SIGBUS).
 */
int filemap_fault(struct vm_area_struct *vma, unsigned long address, struct page **pagep)
{
    struct file *file = vma->vm_file;
    struct address_space *mapping = file->f_mapping;
    struct inode *inode = mapping->host;
    unsigned long pgoff = vma->vm_pgoff + ((address - vma->vm_start) >> PAGE_SHIFT);
    filemap_fault_stats.faults++;

    for (;;) {
        if (pgoff >= size_in_pages(inode))
            break;                                   /* SIGBUS */
        struct page *page = find_get_page(mapping, pgoff);
        if (!page) {
            page = alloc_locked_page(GFP_HIGHUSER);
            if (!page)
                return -ENOMEM;
            if (add_to_page_cache_lru(page, mapping, pgoff)) {
                unlock_page(page);                   /* raced: use the other one */
                put_page(page);
                continue;
            }
            filemap_fault_stats.reads++;
            current->maj_flt++;            /* it waits for a read: a major fault */
            do_readpage(mapping, file, page);        /* unlocks when the read is done */
            wait_on_page_locked(page);
        } else if (!PageUptodate(page)) {
            if (legacy_write_mode == LEGACY_WRITE_NAIVE) {
                if (lock_page_or_deadlock(page) == -EDEADLK) {
                    /* We hold this very page locked ourselves (reported). */
                    filemap_fault_stats.deadlocks++;
                    put_page(page);
                    return -EDEADLK;
                }
            } else {
                lock_page(page);
            }
            if (page->mapping != mapping) {          /* truncated while we slept */
                unlock_page(page);
                put_page(page);
                continue;
            }
            if (PageUptodate(page)) {
                unlock_page(page);
            } else {
                filemap_fault_stats.reads++;
                current->maj_flt++;
                do_readpage(mapping, file, page);
                wait_on_page_locked(page);
            }
        }
        if (!PageUptodate(page)) {
            printk(KERN_ERR "filemap_fault: read error: inode %lu page %lu\n",
                   inode->i_ino, pgoff);
            put_page(page);
            filemap_fault_stats.sigbus++;
            return -EIO;
        }
        if (page->mapping != mapping) {
            put_page(page);
            continue;
        }
        if (pgoff >= size_in_pages(inode)) {         /* truncated while we slept */
            put_page(page);
            break;
        }
        *pagep = page;                               /* our reference: the PTE's */
        return 0;
    }
    filemap_fault_stats.sigbus++;
    return -EFAULT;
}

/*
 * filemap_map_pages: fault-around's page-cache half (Linux's name): map
 * every page of vmf->pgoff..max_pgoff that is in the cache, uptodate, not
 * locked and inside i_size, into an empty PTE slot, read-only (do_set_pte).
 * A page that would need a read or a lock is left for its own fault.
 * Simplified: Linux takes each page with trylock_page and re-checks under
 * it; Vellum is uniprocessor and not preemptible and nothing here sleeps,
 * so no truncate or read completion can change a page between our checks
 * and the PTE (truncate's unmap_mapping_range would find the PTE anyway).
 */
void filemap_map_pages(struct vm_area_struct *vma, struct vm_fault *vmf)
{
    struct address_space *mapping = vma->vm_file->f_mapping;
    unsigned long size = size_in_pages(mapping->host);
    if (!size)
        return;
    unsigned long last = min(vmf->max_pgoff, size - 1);     /* not beyond EOF */
    for (unsigned long pgoff = vmf->pgoff; pgoff <= last; pgoff++) {
        pte_t *ptep = vmf->pte + (pgoff - vmf->pgoff);
        if (pte_has_page(*ptep))
            continue;                           /* the faulting page, or mapped before */
        struct page *page = find_get_page(mapping, pgoff);
        if (!page)
            continue;
        if (PageLocked(page) || !PageUptodate(page) || page->mapping != mapping) {
            put_page(page);
            continue;
        }
        do_set_pte(vma, vmf->address + ((pgoff - vmf->pgoff) << PAGE_SHIFT), page, ptep);
        filemap_fault_stats.fault_around++;
    }
}

static const struct vm_operations_struct generic_file_vm_ops = {
    .fault = filemap_fault,
    .map_pages = filemap_map_pages,
};

/* f_op->mmap of page-cache files (ext2, ramfs): the file must be able to
 * read pages; mapping it sets vm_ops and, as Linux, counts as an access
 * (atime, relatime). */
int generic_file_mmap(struct file *file, struct vm_area_struct *vma)
{
    struct address_space *mapping = file->f_mapping;
    if (!mapping->a_ops || !mapping->a_ops->readpage)
        return -ENOEXEC;
    file_accessed(file);
    vma->vm_ops = &generic_file_vm_ops;
    return 0;
}

/* ---- the write loop ---------------------------------------------------- */

int pagecache_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
                          unsigned len, unsigned flags, struct page **pagep, void **fsdata)
{
    return mapping->a_ops->write_begin(file, mapping, pos, len, flags, pagep, fsdata);
}

int pagecache_write_end(struct file *file, struct address_space *mapping, loff_t pos,
                        unsigned len, unsigned copied, struct page *page, void *fsdata)
{
    return mapping->a_ops->write_end(file, mapping, pos, len, copied, page, fsdata);
}

static ssize_t legacy_perform_write(struct file *file, struct iov_iter *i, loff_t pos);

/*
 * generic_perform_write: copy the iterator into the page cache at pos, one
 * page-sized chunk at a time, through the filesystem's write_begin and
 * write_end.  Caller holds i_mutex.  The numbered steps are those of the
 * write-loop figure in docs/page-cache.md:
 *
 *   1 chunk = the rest of this page, or what is left
 *   2 (no prefault: the 2025 style; the atomic copy alone prevents the deadlock)
 *   3 fatal signal pending? stop
 *   4 write_begin -> locked page
 *   5 copy with page faults disabled: may stop short, never sleeps on a fault
 *   6 write_end(copied) -> bytes committed; page unlocked
 *   7 committed 0? fault the source in (page unlocked now); nothing
 *     faultable -> -EFAULT; else retry the same chunk, shortened to what
 *     faulted in
 *   8 advance by what was committed
 *   9 return the bytes written, or the error if none
 * The trace_*() lines are the loop's tracepoints (include/trace/events/filemap.h):
 * each counts its event in write_path_stats and, booted with writetrace=1,
 * prints it.
 */
ssize_t generic_perform_write(struct file *file, struct iov_iter *i, loff_t pos)
{
    struct address_space *mapping = file->f_mapping;
    const struct address_space_operations *a_ops = mapping->a_ops;
    ssize_t written = 0;
    long status = 0;
    unsigned flags = 0;

    if (!a_ops->write_begin) {
        if (a_ops->prepare_write && a_ops->commit_write)
            return legacy_perform_write(file, i, pos);
        return -EINVAL;
    }
    /* A kernel buffer cannot fault: the copy is complete by construction,
     * so the filesystem may skip reading blocks the write covers fully. */
    if (i->type == ITER_KVEC)
        flags |= AOP_FLAG_UNINTERRUPTIBLE;

    trace_write_start(pos, iov_iter_count(i), flags);
    while (iov_iter_count(i)) {
        /* 1: one page-sized chunk */
        unsigned offset = (unsigned)(pos & (PAGE_SIZE - 1));
        unsigned bytes = min((size_t)(PAGE_SIZE - offset), iov_iter_count(i));
        struct page *page;
        void *fsdata = NULL;
        size_t copied;
again:
        /* 3: a fatal signal ends the write between chunks */
        if (fatal_signal_pending(current)) {
            trace_write_fatal_signal(pos);
            status = -EINTR;
            break;
        }
        /* 4 */
        status = a_ops->write_begin(file, mapping, pos, bytes, flags, &page, &fsdata);
        trace_write_begin(pos, bytes, status, page);
        if (status < 0)
            break;
        /* 5: faults disabled inside: a fault ends the copy, it is not resolved */
        copied = copy_page_from_iter_atomic(page, offset, bytes, i);
        trace_write_copy(copied, bytes);
        /* 6: write_end unlocks and releases the page */
        status = a_ops->write_end(file, mapping, pos, bytes, copied, page, fsdata);
        trace_write_end(copied, status);
        if (status < 0)
            break;
        BUG_ON(status > (long)copied);           /* ->write_end's contract */
        cond_resched();
        if (status == 0) {
            /* 7: nothing committed.  The page is unlocked now, so a fault can
             * be handled: bring the source in, then redo the same chunk. */
            size_t missing = fault_in_iov_iter_readable(i, bytes);
            trace_write_fault_in(pos, bytes, missing);
            if (missing >= bytes) {
                status = -EFAULT;
                break;
            }
            bytes -= missing;           /* retry only what is now readable */
            goto again;
        }
        /* 8 */
        iov_iter_advance(i, status);
        pos += status;
        written += status;
        balance_dirty_pages_ratelimited(mapping);   /* over the dirty limit: write back, wait */
    }
    /* 9 */
    trace_write_done(written, status);
    return written ? written : status;
}

/*
 * ---- the legacy API: prepare_write / commit_write ----------------------
 *
 * Filesystems written before 2.6.24 provide prepare_write/commit_write: the
 * VFS locks the page, the fs prepares it, the VFS copies, the fs commits.
 * Two ways to drive them (legacy_write_mode, boot option legacy_write_mode=):
 *
 * LEGACY_WRITE_2COPY (default): 2.6.24's safe-but-slow fallback.
 * LEGACY_WRITE_NAIVE: the pre-2.6.24 path, which can deadlock.  Kept ONLY to
 *   demonstrate the deadlock (the test writepath.naive_legacy_path_self_deadlocks_2copy_does_not,
 *   and from user space docs/mmap.md with ramfs -o legacy_aops); never the default.
 */

/* Trim blocks a failed prepare_write may have allocated past i_size. */
static void legacy_trim(struct inode *inode, loff_t end)
{
    if (end > inode->i_size && inode->i_op && inode->i_op->setattr) {
        struct iattr a = { .ia_valid = ATTR_SIZE, .ia_size = inode->i_size };
        inode->i_op->setattr(inode, &a);
    }
}

/*
 * 2.6.24's fallback, one chunk (at most to the end of its page):
 *   - fault the source in FIRST, with no page locked (a failure on the
 *     very first byte is -EFAULT);
 *   - find and lock the page;
 *   - page NOT uptodate and a source that can fault (not a kernel buffer):
 *     a short copy cannot be committed into it and a fault must not happen
 *     under its lock, so UNLOCK it, copy the source into a temporary page
 *     with faults ENABLED (copy #1), lock the page again and re-check: if it
 *     was truncated meanwhile or became uptodate, start the chunk over;
 *   - prepare_write; copy: memcpy from the temporary page (copy #2), or, for
 *     an uptodate page, an atomic copy (a short copy into an uptodate page is
 *     harmless); commit_write what was copied; unlock.
 * "Cannot be supported in a way which is simultaneously safe and fast": the
 * safe part is that no fault ever happens under a page lock; the slow part
 * is the second copy and the extra page.
 */
static long legacy_write_chunk_2copy(struct file *file, struct iov_iter *i, loff_t pos,
                                     unsigned bytes)
{
    struct address_space *mapping = file->f_mapping;
    const struct address_space_operations *a_ops = mapping->a_ops;
    unsigned offset = (unsigned)(pos & (PAGE_SIZE - 1));
    struct page *page, *src_page = NULL;
    size_t copied = 0;                 /* set on every path that reads it; gcc
                                          cannot see it once lab pagecache's
                                          cuts change the inlining (-Werror) */
    long status;

    size_t missing = fault_in_iov_iter_readable(i, bytes);   /* the prefault */
    if (missing >= bytes) {
        trace_legacy_efault(pos);
        return -EFAULT;
    }
    bytes -= missing;
    page = grab_cache_page_write_begin(mapping, (unsigned long)(pos >> PAGE_SHIFT));
    if (!page)
        return -ENOMEM;
    if (!PageUptodate(page) && i->type != ITER_KVEC) {
        unlock_page(page);
        src_page = alloc_page(GFP_KERNEL);
        if (!src_page) {
            put_page(page);
            return -ENOMEM;
        }
        copied = iov_iter_copy_from_user(src_page, i, offset, bytes);   /* copy #1 */
        trace_legacy_copy_tmp(copied, bytes);
        if (copied == 0) {
            put_page(src_page);
            put_page(page);
            trace_legacy_efault(pos);
            return -EFAULT;
        }
        bytes = copied;
        lock_page(page);
        /* truncated, or read in by someone else: start the chunk over (the
         * source has not been advanced) */
        bool raced = page->mapping != mapping || PageUptodate(page);
        trace_legacy_relock(raced);
        if (raced) {
            unlock_page(page);
            put_page(page);
            put_page(src_page);
            return 0;
        }
    }
    status = a_ops->prepare_write(file, page, offset, offset + bytes);
    if (status >= 0) {
        if (src_page) {
            memcpy((char *)page_address(page) + offset,
                   (char *)page_address(src_page) + offset, bytes);      /* copy #2 */
            copied = bytes;
        } else {
            copied = copy_page_from_iter_atomic(page, offset, bytes, i);
            trace_write_copy(copied, bytes);
        }
        /* We commit what was copied (from..from+copied); 2.6.24 committed the
         * whole prepared range even after a short copy into an uptodate page. */
        status = a_ops->commit_write(file, page, offset, offset + copied);
    }
    unlock_page(page);
    put_page(page);
    if (src_page)
        put_page(src_page);
    if (status < 0) {
        legacy_trim(mapping->host, pos + bytes);
        return status;
    }
    iov_iter_advance(i, copied);
    return 0;
}

/*
 * !!! THE PRE-2.6.24 NAIVE PATH.  IT DEADLOCKS.  Demonstration only. !!!
 *
 * Lock the page, prepare_write, copy from the source WITH PAGE FAULTS
 * ENABLED while the page is still locked, commit_write, unlock.
 *
 * Why it deadlocks: if the source buffer is an mmap of the page being
 * written (or of any page whose lock we or a peer hold), the copy faults,
 * the fault handler needs to read that page in and calls lock_page() on it:
 *   - same page: this task sleeps waiting for itself (lock_page reports it
 *     as a SELF-DEADLOCK in Vellum; Linux hangs in state D);
 *   - two writers, each copying from the other's file: ABBA on two page locks;
 *   - the fault takes mmap_sem while we hold a page lock, against the lock
 *     order at the top of this file: munmap holds mmap_sem and waits for our
 *     page.
 * It has a second bug: a short copy into a page that is not uptodate is
 * committed anyway, exposing whatever the page held before (stale data).
 *
 * What Vellum does instead of hanging (same page): filemap_fault, in this
 * mode only, takes the lock with lock_page_or_deadlock, which sees that the
 * faulting task holds the page, reports the
 * SELF-DEADLOCK (with a backtrace) and fails the fault; the copy stops
 * short; this chunk then ends the write with -EDEADLK (or the bytes of
 * the chunks before, if any).  Two writers (ABBA) would still hang: each
 * lock_page waits for the other; the 5-second lock_page report names them.
 */
static long legacy_write_chunk_naive(struct file *file, struct iov_iter *i, loff_t pos,
                                     unsigned bytes)
{
    struct address_space *mapping = file->f_mapping;
    const struct address_space_operations *a_ops = mapping->a_ops;
    unsigned offset = (unsigned)(pos & (PAGE_SIZE - 1));
    struct page *page = grab_cache_page_write_begin(mapping, (unsigned long)(pos >> PAGE_SHIFT));
    if (!page)                                  /* (it is LOCKED) */
        return -ENOMEM;
    long status = a_ops->prepare_write(file, page, offset, offset + bytes);
    if (status < 0) {
        unlock_page(page);
        put_page(page);
        legacy_trim(mapping->host, pos + bytes);
        return status;
    }
    /* HERE: a copy that may fault, under the page lock. */
    unsigned long deadlocks0 = filemap_fault_stats.deadlocks;
    size_t copied = iov_iter_copy_from_user(page, i, offset, bytes);
    bool deadlocked = filemap_fault_stats.deadlocks != deadlocks0;
    trace_legacy_naive_copy(copied, bytes);
    status = a_ops->commit_write(file, page, offset, offset + copied);
    unlock_page(page);
    put_page(page);
    if (status < 0)
        return status;
    iov_iter_advance(i, copied);
    if (deadlocked) {
        /* The fault in our copy found the page we hold: Linux would hang
         * here.  Whatever was copied was committed (and may be the
         * stale-data bug above); stop. */
        trace_legacy_naive_deadlock();
        return -EDEADLK;
    }
    if (copied == 0) {
        trace_legacy_efault(pos);
        return -EFAULT;
    }
    return 0;
}

/* The legacy loop: one page-sized chunk at a time, written by the mode's
 * chunk function, which advances i by what commit_write took and returns 0
 * or -errno.  The bytes written are what i was advanced by. */
/* The legacy path runs under the big kernel lock, as the filesystems that
 * still had prepare_write did in Linux 2.6.24 (SMP step 5: write enters
 * without it). */
static ssize_t legacy_perform_write(struct file *file, struct iov_iter *i, loff_t pos)
{
    size_t count = iov_iter_count(i);
    long status = 0;

    lock_kernel();
    while (iov_iter_count(i)) {
        loff_t at = pos + (loff_t)(count - iov_iter_count(i));
        unsigned bytes = min((size_t)(PAGE_SIZE - (at & (PAGE_SIZE - 1))), iov_iter_count(i));
        if (fatal_signal_pending(current)) {
            status = -EINTR;
            break;
        }
        trace_legacy_chunk(at, bytes);
        if (legacy_write_mode == LEGACY_WRITE_NAIVE)
            status = legacy_write_chunk_naive(file, i, at, bytes);
        else
            status = legacy_write_chunk_2copy(file, i, at, bytes);
        if (status < 0)
            break;
        cond_resched();
    }
    unlock_kernel();
    ssize_t written = count - iov_iter_count(i);
    return written ? written : status;
}

/*
 * O_DSYNC/O_SYNC files and pwritev2's RWF_DSYNC/RWF_SYNC: after a write of
 * written > 0 bytes, put them on disk before returning, as Linux's
 * generic_write_sync.  Datasync unless O_SYNC/RWF_SYNC asked for the inode
 * too.  Simplification: Linux syncs only the written range
 * (vfs_fsync_range); we fsync the whole file.  Called without i_mutex.
 */
static ssize_t generic_write_sync(struct file *file, struct iov_iter *from, ssize_t written)
{
    if (written <= 0)
        return written;
    if (!(file->f_flags & O_DSYNC) && !(from->iocb_flags & IOCB_DSYNC))
        return written;
    int full = (file->f_flags & __O_SYNC) || (from->iocb_flags & IOCB_SYNC);
    lock_kernel();                      /* writeback: under the big lock (SMP step 5) */
    int err = vfs_fsync(file, !full);
    unlock_kernel();
    return err ? err : written;
}

/*
 * Linux's generic_write_check_limits: may count bytes be written at pos?
 * RLIMIT_FSIZE first: a write starting at or past it is -EFBIG and sends
 * SIGXFSZ to the writer (default action: terminate; ignored: just -EFBIG;
 * blocked: left pending), one crossing it is cut short at it.  Then
 * s_maxbytes, or MAX_NON_LFS for a file opened without O_LARGEFILE (a
 * 32-bit program's): the same without the signal.  0, *count possibly
 * lowered.
 */
static int generic_write_check_limits(struct file *file, loff_t pos, loff_t *count)
{
    unsigned long long rlim = current->rlim_fsize[0];
    unsigned long long limit = file->f_mapping->host->i_sb->s_maxbytes;

    if (unlikely(!(file->f_flags & O_LARGEFILE)) && limit > MAX_NON_LFS)
        limit = MAX_NON_LFS;
    if (rlim < limit)
        limit = rlim;                   /* one bound for both: a compare less */
    if ((unsigned long long)pos >= limit) {
        if ((unsigned long long)pos >= rlim) {
            lock_kernel();             /* signals: under the big lock (SMP step 5) */
            send_signal(current, SIGXFSZ, NULL);
            unlock_kernel();
        }
        return -EFBIG;
    }
    if ((unsigned long long)*count > limit - pos)
        *count = (loff_t)(limit - pos);
    return 0;
}

/*
 * write() for page-cache files.  Takes i_mutex.  A write of 0 bytes returns
 * 0 and changes nothing (not even *ppos under O_APPEND); else O_APPEND (or
 * IOCB_APPEND from pwritev2's RWF_APPEND) writes at EOF, read under it;
 * generic_write_check_limits may refuse it (-EFBIG) or cut it short;
 * S_ISUID and S_ISGID are cleared (file_remove_privs, fs/permission.c);
 * mtime/ctime are updated; *ppos becomes the end of the bytes written, and
 * only if some were (Linux: generic_write_checks, then new_sync_write
 * stores ki_pos only for ret > 0).
 * O_DSYNC/O_SYNC/IOCB_DSYNC: the bytes are on disk when it returns.
 */
ssize_t generic_file_write_iter(struct file *file, struct iov_iter *from, loff_t *ppos)
{
    struct inode *inode = file->f_mapping->host;
    ssize_t ret;

    mutex_lock(&inode->i_mutex);
    loff_t pos = *ppos;
    ret = 0;
    if (!iov_iter_count(from))
        goto out;
    if ((file->f_flags & O_APPEND) || (from->iocb_flags & IOCB_APPEND))
        pos = inode->i_size;
    if (pos < 0) {
        ret = -EINVAL;
        goto out;
    }
    loff_t count = (loff_t)iov_iter_count(from);
    ret = generic_write_check_limits(file, pos, &count);
    if (ret)
        goto out;
    if (count < (loff_t)iov_iter_count(from))
        iov_iter_truncate(from, (size_t)count);
    ret = file_remove_privs(file);      /* a non-root write clears S_ISUID, S_ISGID */
    if (ret)
        goto out;
    file_update_time(file);
    if (pos > inode->i_size) {          /* a gap after the old end: zeros there */
        lock_kernel();                  /* unmapping: under the big lock (SMP step 5) */
        pagecache_isize_extended(inode, inode->i_size, pos);
        unlock_kernel();
    }
    ret = generic_perform_write(file, from, pos);
    if (ret > 0)
        *ppos = pos + ret;
out:
    mutex_unlock(&inode->i_mutex);
    return generic_write_sync(file, from, ret);
}
