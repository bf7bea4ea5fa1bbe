/* mm/fadvise.c: posix_fadvise(2), advice about how a file will be read
 * (Linux's mm/fadvise.c, generic_fadvise, as of 6.1).  Layer: mm, over the
 * files layer's descriptors.
 *
 * The checks are Linux's, in its order: a bad descriptor is -EBADF, a pipe
 * or FIFO -ESPIPE, a negative length or an advice Linux does not know
 * -EINVAL.  Every advice Linux knows (NORMAL, RANDOM, SEQUENTIAL,
 * WILLNEED, DONTNEED, NOREUSE) is then accepted and, here, changes
 * nothing (simplification on purpose): the page cache's readahead is its
 * own (mm/filemap.c), WILLNEED reads nothing ahead, DONTNEED drops no
 * pages (they go under memory pressure, mm/vmscan.c).  What a program can
 * observe (the return value, the data) is as on Linux.
 *
 * i386 has two entries: fadvise64 (250: a 64-bit offset, a 32-bit length)
 * and fadvise64_64 (272: both 64-bit; what glibc's posix_fadvise calls).
 */
#include <kernel.h>
#include <errno.h>
#include <fs.h>
#include <fdtable.h>
#include <mm.h>

#define POSIX_FADV_NORMAL     0
#define POSIX_FADV_RANDOM     1
#define POSIX_FADV_SEQUENTIAL 2
#define POSIX_FADV_WILLNEED   3
#define POSIX_FADV_DONTNEED   4
#define POSIX_FADV_NOREUSE    5

static long do_fadvise(int fd, long long offset, long long len, int advice)
{
    struct fd f = fdget(fd);
    long ret = 0;
    if (!f.file)
        return -EBADF;
    if (S_ISFIFO(f.file->f_inode->i_mode))
        ret = -ESPIPE;
    else if (len < 0 || advice < POSIX_FADV_NORMAL || advice > POSIX_FADV_NOREUSE)
        ret = -EINVAL;
    (void)offset;                      /* any offset: advice past the end is no error */
    fdput(f);
    return ret;
}

long sys_fadvise64(int fd, unsigned long off_lo, unsigned long off_hi, size_t len, int advice)
{
    return do_fadvise(fd, (long long)((unsigned long long)off_hi << 32 | off_lo), len, advice);
}

long sys_fadvise64_64(int fd, unsigned long off_lo, unsigned long off_hi,
                      unsigned long len_lo, unsigned long len_hi, int advice)
{
    return do_fadvise(fd, (long long)((unsigned long long)off_hi << 32 | off_lo),
                      (long long)((unsigned long long)len_hi << 32 | len_lo), advice);
}
