/* include/uapi/linux/mman.h: the structures of cachestat(2), Linux 6.5's
 * system call 451 (mm/filemap.c, sys_cachestat; docs/page-cache.md).
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md): the
 * kernel reads a struct cachestat_range from user space and writes a struct
 * cachestat back; user/include/sys/mman.h offers both and the libc wrapper.
 * The fields are Linux's __u64 (unsigned long long here: a uapi header uses
 * C's own types).  With 8-byte fields only, the layout is the same under
 * i386's 4-byte alignment of long long: 16 and 40 bytes. */
#ifndef _UAPI_LINUX_MMAN_H
#define _UAPI_LINUX_MMAN_H

/* The byte range to look at: [off, off + len); len 0 means "to the end of
 * the file" (every page from off's on). */
struct cachestat_range {
    unsigned long long off;
    unsigned long long len;
};

/* Counts of pages of the range, each a page of the file's page cache:
 *   nr_cache             pages in the page cache
 *   nr_dirty             ... of them dirty (newer than the disk)
 *   nr_writeback         ... of them being written back now
 *   nr_evicted           pages evicted from the cache (Linux: the shadow
 *                        entries reclaim leaves behind)
 *   nr_recently_evicted  ... of them evicted recently enough that reading
 *                        them again would count as refaulting
 * Vellum never reclaims page-cache pages (only truncation removes them,
 * which leaves no shadow entry in Linux either), so the last two are 0. */
struct cachestat {
    unsigned long long nr_cache;
    unsigned long long nr_dirty;
    unsigned long long nr_writeback;
    unsigned long long nr_evicted;
    unsigned long long nr_recently_evicted;
};

#endif
