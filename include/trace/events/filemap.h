/* include/trace/events/filemap.h: the tracepoints of the write loop
 * (generic_perform_write) and of the legacy prepare_write/commit_write
 * loops, mm/filemap.c.
 *
 * As in Linux (the headers of include/trace/events/), an event is one line at the place
 * it happens, trace_<event>(args), defined here.  Each tracepoint does two
 * things:
 *   - counts the event in write_path_stats (<pagemap.h>; stat_inc: writes
 *     run on several CPUs at once since SMP step 5), which the tests
 *     and /proc/vellum/writepath read: the counting is here, not beside the
 *     call, so the loops carry no line that exists only for them;
 *   - with the boot option writetrace=1 (write_path_trace, set by
 *     pagecache_init), prints the event as one "writepath: ..." line.
 *     Tracing off, what is left of the printk is one branch, not taken.
 *     (Linux's tracepoints are a patched-out jump when off, and write to
 *     the trace ring buffer, read through tracefs, when on; Vellum has
 *     neither and printks.)
 *
 * The output, one write whose source faults in the middle of a new page
 * (docs/page-cache.md, "Seeing it"):
 *   writepath: start pos=0 count=4096
 *   writepath: write_begin pos=0 len=4096 -> 0 (page not uptodate)
 *   writepath: atomic copy SHORT: 1000 of 4096 bytes
 *   writepath: write_end copied=1000 -> committed 0
 *   writepath: fault-in 4096 bytes: 0 could not be faulted in: retry pos=0 len=4096
 *   writepath: write_begin pos=0 len=4096 -> 0 (page not uptodate)
 *   writepath: atomic copy 4096 of 4096 bytes
 *   writepath: write_end copied=4096 -> committed 4096
 *   writepath: done: written=4096 status=0
 */
#ifndef _TRACE_EVENTS_FILEMAP_H
#define _TRACE_EVENTS_FILEMAP_H
#include <kernel.h>
#include <fs.h>
#include <mm.h>
#include <pagemap.h>

#define writepath_printk(fmt, ...) do { if (unlikely(write_path_trace)) \
        printk(KERN_INFO "writepath: " fmt "\n", ##__VA_ARGS__); } while (0)

/* ---- generic_perform_write ------------------------------------------- */

/* The loop starts: count bytes at pos; flags are the write_begin flags. */
static inline void trace_write_start(loff_t pos, size_t count, unsigned flags)
{
    writepath_printk("start pos=%lld count=%u%s", pos, (unsigned)count,
                     flags & AOP_FLAG_UNINTERRUPTIBLE ? " (kernel source: UNINTERRUPTIBLE)" : "");
}

/* Step 3: a fatal signal ends the write between chunks. */
static inline void trace_write_fatal_signal(loff_t pos)
{
    writepath_printk("fatal signal pending at pos=%lld: stop", pos);
}

/* Step 4: ->write_begin returned status (and, if >= 0, a locked page). */
static inline void trace_write_begin(loff_t pos, unsigned len, long status, struct page *page)
{
    stat_inc(write_path_stats.attempts);
    writepath_printk("write_begin pos=%lld len=%u -> %ld (page %s)", pos, len, status,
                     status < 0 ? "-" : PageUptodate(page) ? "uptodate" : "not uptodate");
}

/* Step 5 (and the legacy 2-copy loop's copy into an uptodate page): the
 * atomic copy, page faults disabled, copied bytes of the chunk's bytes. */
static inline void trace_write_copy(size_t copied, unsigned bytes)
{
    if (copied < bytes)
        stat_inc(write_path_stats.short_copies);
    writepath_printk("atomic copy %s%u of %u bytes", copied < bytes ? "SHORT: " : "",
                     (unsigned)copied, bytes);
}

/* Step 6: ->write_end committed status (bytes, or an error) of copied. */
static inline void trace_write_end(size_t copied, long status)
{
    writepath_printk("write_end copied=%u -> committed %ld", (unsigned)copied, status);
}

/* Step 7: nothing was committed, so the loop faulted the chunk's bytes in;
 * missing of them could not be.  All of them: the write ends (-EFAULT, or
 * the bytes written before); else it retries the readable part at pos. */
static inline void trace_write_fault_in(loff_t pos, unsigned bytes, size_t missing)
{
    stat_inc(write_path_stats.zero_commits);
    stat_inc(write_path_stats.fault_ins);
    if (missing >= bytes) {
        stat_inc(write_path_stats.efaults);
        writepath_printk("fault-in %u bytes: %u could not be faulted in: stop (-EFAULT)",
                         bytes, (unsigned)missing);
    } else {
        stat_inc(write_path_stats.retries);
        writepath_printk("fault-in %u bytes: %u could not be faulted in: retry pos=%lld len=%u",
                         bytes, (unsigned)missing, pos, bytes - (unsigned)missing);
    }
}

/* Step 9: the loop returns written, or status if nothing was written. */
static inline void trace_write_done(ssize_t written, long status)
{
    writepath_printk("done: written=%d status=%ld", (int)written, written ? 0L : status);
}

/* ---- the legacy loop (legacy_perform_write, legacy_write_chunk_*) ----- */

/* A chunk of len bytes at pos: the page is about to be found and locked. */
static inline void trace_legacy_chunk(loff_t pos, unsigned len)
{
    stat_inc(write_path_stats.attempts);
    writepath_printk("legacy %s: chunk pos=%lld len=%u",
                     legacy_write_mode == LEGACY_WRITE_NAIVE ? "NAIVE" : "2-copy", pos, len);
}

/* Nothing of the chunk at pos could be faulted in or copied: -EFAULT. */
static inline void trace_legacy_efault(loff_t pos)
{
    stat_inc(write_path_stats.efaults);
    writepath_printk("legacy: nothing at pos=%lld could be copied: -EFAULT", pos);
}

/* 2-copy, copy #1: copied of bytes into the temporary page, faults enabled,
 * the page cache's page unlocked. */
static inline void trace_legacy_copy_tmp(size_t copied, unsigned bytes)
{
    writepath_printk("legacy 2-copy: %u of %u bytes into the temporary page",
                     (unsigned)copied, bytes);
}

/* 2-copy, the page locked again after copy #1.  raced: it was truncated or
 * read in meanwhile, the chunk starts over; else copy #2 follows. */
static inline void trace_legacy_relock(bool raced)
{
    if (raced)
        stat_inc(write_path_stats.retries);
    else
        stat_inc(write_path_stats.legacy_2copy);
    writepath_printk("legacy 2-copy: page locked again: %s", raced
                     ? "truncated or read in meanwhile: start the chunk over"
                     : "copy #2 from the temporary page");
}

/* Naive: copied of bytes copied with page faults ENABLED under the page lock. */
static inline void trace_legacy_naive_copy(size_t copied, unsigned bytes)
{
    stat_inc(write_path_stats.legacy_naive);
    writepath_printk("legacy NAIVE: copied %u of %u bytes with faults enabled under the page lock",
                     (unsigned)copied, bytes);
}

/* Naive: that copy faulted on the very page this task holds locked. */
static inline void trace_legacy_naive_deadlock(void)
{
    writepath_printk("legacy NAIVE: the copy faulted on the page we hold locked: -EDEADLK");
}

#endif
