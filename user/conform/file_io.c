/* file_io.c - conformance: reads, seeks, vectors and sizes of regular files
 * (issue 22).  Reads in holes, at and past EOF, across a hole that spans
 * block and page boundaries; readv/writev at and past IOV_MAX, with
 * zero-length segments; lseek's whences (SEEK_DATA/SEEK_HOLE on holes),
 * _llseek of large offsets, negative offsets; a program's 32-bit view of a
 * file past 2 GiB (open without O_LARGEFILE, the 32-bit lseek, fstat and
 * ftruncate: EOVERFLOW, EFBIG, EINVAL); preadv2/pwritev2's RWF_* flags and
 * offset -1; O_SYNC/O_DSYNC writes; truncate down into a page and up again
 * (the old tail reads as zeros), st_blocks after each; ENOSPC on the ext2
 * file systems (a short count, then -1 ENOSPC; statfs's free counts as
 * before once the file is gone).  Prints observations only (conform.h).
 * Fills: the file's bytes are 'x' (78); other writes 'S' (53), 'a'.. (61..).
 */
#include "conform.h"
#include <limits.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#define PG 4096
#define GiB (1LL << 30)
#ifndef RWF_HIPRI
#define RWF_HIPRI 0x01
#define RWF_DSYNC 0x02
#define RWF_SYNC 0x04
#define RWF_NOWAIT 0x08
#define RWF_APPEND 0x10
#endif

static char buf[65536];
static void *volatile bad_ptr = (void *)0x10;   /* an address nothing maps */
static volatile int minus1 = -1;
static int is_ramfs;

/* st_blocks of fd */
static long long blocks(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -1;
	return st.st_blocks;
}

/* A file NAME: 'x' at [off, off+len) for each pair, size as written. */
static int layout(const char *name, int n, const long long *ext)
{
	int fd = fresh(name, 0, 0);
	for (int i = 0; i < n; i++)
		if (pwrite(fd, xs, ext[2 * i + 1], ext[2 * i]) != ext[2 * i + 1])
			say("error layout %s", name);
	return fd;
}

/* lseek(fd, off, whence) as "ret=... pos=..." (a ring of buffers) */
static const char *seek(int fd, long long off, int whence)
{
	static char ring[4][80];
	static int n;
	char *b = ring[n++ & 3];
	long long r = lseek(fd, off, whence);
	const char *s = rv(r);
	snprintf(b, 80, "ret=%s pos=%lld", s, fpos(fd));
	return b;
}

/* 1. Reads: holes, EOF, short reads, a hole across block and page boundaries. */
static void reads(void)
{
	long long e1[] = { 0, 1000, 9000, 100 };
	int fd = layout("holes", 2, e1);
	say("holes size=%lld blocks=%lld", fsize(fd), blocks(fd));
	say("holes_pread_0_1000 %s", bytes(fd, 0, 1000));
	say("holes_pread_2000_1000 %s", bytes(fd, 2000, 1000));
	say("holes_after_hole_read blocks=%lld", blocks(fd));
	say("holes_pread_500_9000 %s", bytes(fd, 500, 9000));
	say("holes_pread_9050_100 %s", bytes(fd, 9050, 100));
	say("holes_pread_at_eof %s", bytes(fd, 9100, 100));
	say("holes_pread_past_eof %s", bytes(fd, 9101, 100));
	say("holes_pread_1MiB %s", bytes(fd, 1 << 20, 100));
	say("holes_pread_2^40 %s", bytes(fd, 1LL << 40, 100));
	say("holes_pread_len0_at_eof %s", bytes(fd, 9100, 0));
	lseek(fd, 9050, SEEK_SET);
	ssize_t r = read(fd, buf, 100);
	say("holes_read_at_9050 ret=%s pos=%lld", rv(r), fpos(fd));
	r = read(fd, buf, 100);
	say("holes_read_at_eof ret=%s pos=%lld", rv(r), fpos(fd));
	lseek(fd, 20000, SEEK_SET);
	r = read(fd, buf, 100);
	say("holes_read_past_eof ret=%s pos=%lld", rv(r), fpos(fd));
	say("holes_end blocks=%lld", blocks(fd));
	done(fd, "holes");

	/* data [0,1500), a hole [1500,6000), data [6000,7000): the hole
	 * starts inside block 1 (1 KiB blocks) and ends inside page 1 */
	long long e2[] = { 0, 1500, 6000, 1000 };
	fd = layout("span", 2, e2);
	say("span size=%lld blocks=%lld", fsize(fd), blocks(fd));
	say("span_pread_1000_5500 %s", bytes(fd, 1000, 5500));
	say("span_pread_1024_1024 %s", bytes(fd, 1024, 1024));
	say("span_pread_2048_2048 %s", bytes(fd, 2048, 2048));
	say("span_pread_4000_200 %s", bytes(fd, 4000, 200));
	say("span_pread_5120_1024 %s", bytes(fd, 5120, 1024));
	say("span_pread_6990_100 %s", bytes(fd, 6990, 100));
	say("span_after_reads blocks=%lld", blocks(fd));
	fsync(fd);
	say("span_after_fsync blocks=%lld", blocks(fd));
	const long long at[] = { 0, 1499, 1500, 2047, 2048, 4095, 4096, 5119, 5120, 5999, 6000, 6999, 7000, 8000, -1 };
	for (int i = 0; i < (int)(sizeof at / sizeof at[0]); i++) {
		long long d = lseek(fd, at[i], SEEK_DATA);
		const char *ds = rv(d);
		long long h = lseek(fd, at[i], SEEK_HOLE);
		say("span_seek_%lld data=%s hole=%s", at[i], ds, rv(h));
	}
	done(fd, "span");

	/* a file that is all hole */
	fd = fresh("allhole", 0, 0);
	ftruncate(fd, 64 * 1024);
	say("allhole blocks=%lld", blocks(fd));
	say("allhole_read %s", bytes(fd, 0, 65536));
	say("allhole_after_read blocks=%lld", blocks(fd));
	say("allhole_seek_0 data=%s", rv(lseek(fd, 0, SEEK_DATA)));
	say("allhole_seek_0 hole=%s", rv(lseek(fd, 0, SEEK_HOLE)));
	say("allhole_seek_65535 data=%s", rv(lseek(fd, 65535, SEEK_DATA)));
	say("allhole_seek_65535 hole=%s", rv(lseek(fd, 65535, SEEK_HOLE)));
	/* data after the hole */
	pwrite(fd, xs, 10, 65536);
	say("allhole_then_10 size=%lld blocks=%lld", fsize(fd), blocks(fd));
	say("allhole_then_10_seek_0 data=%s", rv(lseek(fd, 0, SEEK_DATA)));
	say("allhole_then_10_seek_0 hole=%s", rv(lseek(fd, 0, SEEK_HOLE)));
	say("allhole_then_10_seek_65540 data=%s", rv(lseek(fd, 65540, SEEK_DATA)));
	say("allhole_then_10_seek_65540 hole=%s", rv(lseek(fd, 65540, SEEK_HOLE)));
	done(fd, "allhole");

	/* reading into a buffer whose second page is unmapped */
	char *p = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p + PG, PG) < 0) {
		say("error mmap");
		return;
	}
	fd = fresh("shortbuf", 8192, 0);
	r = pread(fd, p + PG - 100, 200, 0);
	say("read_into_half_buffer ret=%s", rv(r));
	r = pread(fd, p + PG, 200, 0);
	say("read_into_unmapped ret=%s", rv(r));
	lseek(fd, 10, SEEK_SET);
	r = read(fd, p + PG - 100, 200);
	say("read_into_half_buffer_at_10 ret=%s pos=%lld", rv(r), fpos(fd));
	r = read(fd, p + PG, 200);
	say("read_into_unmapped_at_110 ret=%s pos=%lld", rv(r), fpos(fd));
	r = read(fd, p + PG, 0);
	say("read_len0_into_unmapped ret=%s pos=%lld", rv(r), fpos(fd));
	done(fd, "shortbuf");
	munmap(p, PG);
}

/* 2. readv/writev: many segments, zero-length ones, IOV_MAX and past it. */
static struct iovec iov[1100];
static char vb[1100];

static void vectors(void)
{
	int fd = fresh("vec", 0, 0);
	/* IOV_MAX segments of 1 byte each, every third of length 0 */
	char src[1024];
	for (int i = 0; i < 1024; i++) {
		src[i] = 'a' + i % 26;
		iov[i].iov_base = src + i;
		iov[i].iov_len = i % 3 != 2;
	}
	ssize_t r = writev(fd, iov, 1024);
	say("writev_1024_segments ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	say("writev_1024_segments head %s", bytes(fd, 0, 6));
	r = writev(fd, iov, 1025);
	say("writev_1025_segments ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	r = writev(fd, iov, 0);
	say("writev_0_segments ret=%s pos=%lld", rv(r), fpos(fd));
	r = writev(fd, bad_ptr, 0);
	say("writev_0_segments_bad_array ret=%s", rv(r));
	r = writev(fd, bad_ptr, 1);
	say("writev_1_segment_bad_array ret=%s", rv(r));
	r = writev(fd, iov, minus1);
	say("writev_minus1_segments ret=%s", rv(r));
	struct iovec z[4] = { { (void *)0x10, 0 }, { src, 0 }, { NULL, 0 }, { src, 0 } };
	r = writev(fd, z, 4);
	say("writev_all_zero_length ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	struct iovec neg[2] = { { src, 1 }, { src, 0x80000000u } };
	r = writev(fd, neg, 2);
	say("writev_negative_length ret=%s size=%lld", rv(r), fsize(fd));
	r = pwritev(fd, iov, 1025, 0);
	say("pwritev_1025_segments ret=%s", rv(r));

	/* readv: 1024 segments (zero-length ones mixed in) */
	memset(vb, 0, sizeof vb);
	for (int i = 0; i < 1024; i++) {
		iov[i].iov_base = vb + i;
		iov[i].iov_len = i % 3 != 2;
	}
	lseek(fd, 0, SEEK_SET);
	r = readv(fd, iov, 1024);
	/* each non-empty segment holds the byte written from it, the empty
	 * ones' bytes are untouched */
	int same = 1, zero = 1, nseg = 0;
	for (int i = 0; i < 1024; i++) {
		if (i % 3 == 2) {
			zero &= vb[i] == 0;
		} else {
			same &= vb[i] == 'a' + i % 26;
			nseg++;
		}
	}
	say("readv_1024_segments ret=%s pos=%lld segments=%d", rv(r), fpos(fd), nseg);
	say("readv_1024_segments in_place=%d gaps_untouched=%d", same, zero);
	r = readv(fd, iov, 1025);
	say("readv_1025_segments ret=%s pos=%lld", rv(r), fpos(fd));
	r = preadv(fd, iov, 1025, 0);
	say("preadv_1025_segments ret=%s", rv(r));
	r = readv(fd, z, 4);
	say("readv_all_zero_length ret=%s pos=%lld", rv(r), fpos(fd));
	lseek(fd, 680, SEEK_SET);
	for (int i = 0; i < 10; i++) {
		iov[i].iov_base = vb + 10 * i;
		iov[i].iov_len = 1 + i;
	}
	r = readv(fd, iov, 10);
	say("readv_short_at_eof ret=%s pos=%lld", rv(r), fpos(fd));
	/* a total past MAX_RW_COUNT: the last segment is cut to fit */
	static char big[PG];
	struct iovec huge[2] = { { vb, 100 }, { big, 0x7ffff000u } };
	r = preadv(fd, huge, 2, 0);
	say("preadv_total_past_max_rw_count ret=%s", rv(r));
	done(fd, "vec");
}

/* 3. lseek: every whence, negative results, invalid whence; _llseek. */
static long llseek32(int fd, unsigned long hi, unsigned long lo, long long *res, int whence)
{
	return syscall(SYS__llseek, fd, hi, lo, res, whence);
}

static void seeks(void)
{
	int fd = fresh("seek", 10000, 0);
	say("lseek_set_5000 %s", seek(fd, 5000, SEEK_SET));
	say("lseek_set_20000 %s", seek(fd, 20000, SEEK_SET));
	say("lseek_set_minus1 %s", seek(fd, -1, SEEK_SET));
	say("lseek_cur_minus100 %s", seek(fd, -100, SEEK_CUR));
	say("lseek_cur_0 %s", seek(fd, 0, SEEK_CUR));
	say("lseek_cur_minus20000 %s", seek(fd, -20000, SEEK_CUR));
	say("lseek_cur_minus19900 %s", seek(fd, -19900, SEEK_CUR));
	say("lseek_cur_minus1 %s", seek(fd, -1, SEEK_CUR));
	say("lseek_end_0 %s", seek(fd, 0, SEEK_END));
	say("lseek_end_minus1 %s", seek(fd, -1, SEEK_END));
	say("lseek_end_minus10000 %s", seek(fd, -10000, SEEK_END));
	say("lseek_end_minus10001 %s", seek(fd, -10001, SEEK_END));
	say("lseek_end_plus100 %s", seek(fd, 100, SEEK_END));
	say("lseek_whence_5 %s", seek(fd, 0, 5));
	say("lseek_whence_100 %s", seek(fd, 0, 100));
	say("lseek_whence_minus1 %s", seek(fd, 0, -1));
	say("lseek_data_0 %s", seek(fd, 0, SEEK_DATA));
	say("lseek_data_9999 %s", seek(fd, 9999, SEEK_DATA));
	say("lseek_data_10000 %s", seek(fd, 10000, SEEK_DATA));
	say("lseek_data_minus1 %s", seek(fd, -1, SEEK_DATA));
	say("lseek_hole_0 %s", seek(fd, 0, SEEK_HOLE));
	say("lseek_hole_9999 %s", seek(fd, 9999, SEEK_HOLE));
	say("lseek_hole_10000 %s", seek(fd, 10000, SEEK_HOLE));
	say("lseek_hole_20000 %s", seek(fd, 20000, SEEK_HOLE));
	say("lseek_hole_minus1 %s", seek(fd, -1, SEEK_HOLE));
	say("lseek_llong_min_set %s", seek(fd, LLONG_MIN, SEEK_SET));
	say("lseek_llong_max_cur %s", seek(fd, LLONG_MAX, SEEK_CUR));
	say("lseek_llong_max_end %s", seek(fd, LLONG_MAX, SEEK_END));
	say("lseek_badfd ret=%s", rv(lseek(-1, 0, SEEK_SET)));
	say("lseek_closed_fd ret=%s", rv(lseek(999, 0, SEEK_SET)));
	int pfd[2];
	if (pipe(pfd) == 0) {
		say("lseek_pipe ret=%s", rv(lseek(pfd[0], 0, SEEK_CUR)));
		say("lseek_pipe_whence_9 ret=%s", rv(lseek(pfd[0], 0, 9)));
		say("pread_pipe ret=%s", rv(pread(pfd[0], buf, 1, 0)));
		say("pwrite_pipe ret=%s", rv(pwrite(pfd[1], buf, 1, 0)));
		close(pfd[0]);
		close(pfd[1]);
	}

	/* _llseek: the 64-bit offset in two halves, the result through a pointer */
	long long res = -7;
	lseek(fd, 0, SEEK_SET);
	long r = llseek32(fd, 1, 0, &res, SEEK_SET);
	say("llseek_4GiB ret=%s result=%lld pos=%lld", rv(r), res, fpos(fd));
	res = -7;
	r = llseek32(fd, 0x100, 0, &res, SEEK_SET);
	say("llseek_1TiB ret=%s result=%lld pos=%lld", rv(r), res, fpos(fd));
	res = -7;
	r = llseek32(fd, 0x400, 0, &res, SEEK_SET);
	say("llseek_4TiB ret=%s result=%lld pos=%lld", rv(r), res, fpos(fd));
	res = -7;
	r = llseek32(fd, 0xffffffff, 0xffffffff, &res, SEEK_SET);
	say("llseek_minus1 ret=%s result=%lld pos=%lld", rv(r), res, fpos(fd));
	res = -7;
	r = llseek32(fd, 0xffffffff, 0xfffffff0, &res, SEEK_CUR);
	say("llseek_cur_minus16 ret=%s result=%lld pos=%lld", rv(r), res, fpos(fd));
	res = -7;
	r = llseek32(fd, 0, 3 * GiB, &res, SEEK_END);
	say("llseek_end_plus3GiB ret=%s result=%lld pos=%lld", rv(r), res, fpos(fd));
	lseek(fd, 100, SEEK_SET);
	r = llseek32(fd, 0, 5000, NULL, SEEK_SET);
	say("llseek_null_result ret=%s pos=%lld", rv(r), fpos(fd));
	lseek(fd, 100, SEEK_SET);
	r = llseek32(fd, 0, 5000, (long long *)0xc0001000, SEEK_SET);
	say("llseek_kernel_result ret=%s pos=%lld", rv(r), fpos(fd));
	res = -7;
	r = llseek32(fd, 0, 0, &res, 5);
	say("llseek_whence_5 ret=%s result=%lld", rv(r), res);
	r = llseek32(-1, 0, 0, &res, SEEK_SET);
	say("llseek_badfd ret=%s", rv(r));
	done(fd, "seek");
}

/* 4. Negative and overflowing offsets to pread/pwrite and their vector kin. */
static void offsets(void)
{
	int fd = fresh("offs", 100, 0);
	struct iovec v = { buf, 10 };
	ssize_t r;
	say("pread_minus1 ret=%s", rv(pread(fd, buf, 10, -1)));
	say("pread_llong_min ret=%s", rv(pread(fd, buf, 10, LLONG_MIN)));
	say("pread_len0_minus1 ret=%s", rv(pread(fd, buf, 0, -1)));
	r = pwrite(fd, xs, 10, -1);
	say("pwrite_minus1 ret=%s size=%lld", rv(r), fsize(fd));
	say("pwrite_len0_minus1 ret=%s", rv(pwrite(fd, xs, 0, -1)));
	say("preadv_minus1 ret=%s", rv(preadv(fd, &v, 1, -1)));
	say("pwritev_minus1 ret=%s", rv(pwritev(fd, &v, 1, -1)));
	say("pread_badfd_minus1 ret=%s", rv(pread(-1, buf, 10, -1)));
	say("pwrite_badfd_minus1 ret=%s", rv(pwrite(-1, buf, 10, -1)));
	say("preadv_badfd_minus1 ret=%s", rv(preadv(-1, &v, 1, -1)));
	say("pread_llong_max-10_len100 ret=%s", rv(pread(fd, buf, 100, LLONG_MAX - 10)));
	say("pread_llong_max-10_len0 ret=%s", rv(pread(fd, buf, 0, LLONG_MAX - 10)));
	say("pread_llong_max_len1 ret=%s", rv(pread(fd, buf, 1, LLONG_MAX)));
	r = pwrite(fd, xs, 100, LLONG_MAX - 10);
	say("pwrite_llong_max-10_len100 ret=%s size=%lld", rv(r), fsize(fd));
	say("pread_2^62 ret=%s", rv(pread(fd, buf, 100, 1LL << 62)));
	say("pwrite_len0_2^62 ret=%s", rv(pwrite(fd, xs, 0, 1LL << 62)));
	/* 4 TiB: past ext2's largest file (both block sizes), not ramfs's */
	r = pwrite(fd, xs, 100, 4LL << 40);
	say("pwrite_4TiB ret=%s size=%lld", rv(r), fsize(fd));
	say("pread_4GiB ret=%s", rv(pread(fd, buf, 100, 4 * GiB)));
	done(fd, "offs");
}

/* 5. A 32-bit program's view of a file past 2 GiB: the non-LFS system calls
 * (open without O_LARGEFILE, lseek, stat/fstat with struct stat's 32-bit
 * st_size, ftruncate with a 32-bit length). */
struct stat32 {                        /* i386's struct stat (SYS_stat, SYS_fstat) */
	unsigned long st_dev, st_ino;
	unsigned short st_mode, st_nlink, st_uid, st_gid;
	unsigned long st_rdev, st_size, st_blksize, st_blocks;
	unsigned long t[6], unused[2];
};

static const char *fstat32(int fd)
{
	static char b[64];
	struct stat32 st;
	int e = errno;                     /* a say() may hold rv() of an earlier call */
	memset(&st, 0, sizeof st);
	long r = syscall(SYS_fstat, fd, &st);
	if (r < 0)
		snprintf(b, sizeof b, "fstat32=%s", rv(r));
	else
		snprintf(b, sizeof b, "fstat32=0 size=%lu blocks=%lu", st.st_size, st.st_blocks);
	errno = e;
	return b;
}

static const char *stat32(const char *name)
{
	static char b[64];
	struct stat32 st;
	int e = errno;
	memset(&st, 0, sizeof st);
	long r = syscall(SYS_stat, path(name), &st);
	if (r < 0)
		snprintf(b, sizeof b, "stat32=%s", rv(r));
	else
		snprintf(b, sizeof b, "stat32=0 size=%lu", st.st_size);
	errno = e;
	return b;
}

static int open32(const char *name, int flags)
{
	return syscall(SYS_open, path(name), flags, 0644);
}

/* The 32-bit lseek to a position past 2 GiB - 1: what it returned (the
 * line keyed compat_: i386 Linux's -1 EOVERFLOW, 6.1's x86_64 compat entry
 * the low 32 bits, KNOWN-DIFFERENCES), then the position (both: moved). */
static void lseek32(const char *key, int fd, long off, int whence)
{
	errno = 0;
	long r = syscall(SYS_lseek, fd, off, whence);
	say("compat_%s ret=%ld errno=%s", key, r, errno ? errname(errno) : "0");
	say("%s_after pos=%lld", key, fpos(fd));
}

static void large(void)
{
	long long max = 2 * GiB - 1;   /* MAX_NON_LFS */
	int fd = fresh("large", 0, 0);
	long r = ftruncate(fd, max);
	say("lfs_ftruncate_2GiB-1 ret=%s %s %s", rv(r), fstat32(fd), stat32("large"));
	r = ftruncate(fd, max + 1);
	say("lfs_ftruncate_2GiB ret=%s %s %s", rv(r), fstat32(fd), stat32("large"));
	r = pwrite(fd, "abc", 3, 2 * GiB + 100);
	say("lfs_pwrite_2GiB+100 ret=%s size=%lld blocks=%lld %s", rv(r), fsize(fd), blocks(fd), fstat32(fd));
	say("lfs_getfl_largefile=%d", (fcntl(fd, F_GETFL) & O_LARGEFILE) != 0);

	/* open without O_LARGEFILE: refused past 2 GiB where the file
	 * system's open checks (generic_file_open), O_TRUNC not done */
	int fd32 = open32("large", O_RDONLY);
	say("nonlfs_open_rdonly ret=%s", rv(fd32 < 0 ? -1 : 0));
	close(fd32);
	fd32 = open32("large", O_RDWR | O_LARGEFILE);
	say("nonlfs_open_with_largefile ret=%s", rv(fd32 < 0 ? -1 : 0));
	close(fd32);
	fd32 = open32("large", O_RDWR | O_TRUNC);
	say("nonlfs_open_trunc ret=%s size=%lld", rv(fd32 < 0 ? -1 : 0), fsize(fd));
	close(fd32);
	done(fd, "large");

	/* a file opened small without O_LARGEFILE: writes stop at 2 GiB - 1 */
	int small = open32("small", O_RDWR | O_CREAT | O_TRUNC);
	say("nonlfs_open_small ret=%s getfl_largefile=%d", rv(small < 0 ? -1 : 0),
	    (fcntl(small, F_GETFL) & O_LARGEFILE) != 0);
	r = pwrite(small, "abc", 3, max - 1);
	say("nonlfs_pwrite_3_at_2GiB-2 ret=%s size=%lld", rv(r), fsize(small));
	r = pwrite(small, "abc", 3, max + 1);
	say("nonlfs_pwrite_3_at_2GiB ret=%s size=%lld", rv(r), fsize(small));
	r = pwrite(small, "abc", 0, max + 1);
	say("nonlfs_pwrite_0_at_2GiB ret=%s", rv(r));
	r = syscall(SYS_ftruncate, small, (unsigned long)(2 * GiB + 4096));
	say("nonlfs_ftruncate32_2GiB+4096 ret=%s size=%lld", rv(r), fsize(small));
	r = syscall(SYS_ftruncate, small, (unsigned long)max);
	say("nonlfs_ftruncate32_2GiB-1 ret=%s size=%lld", rv(r), fsize(small));
	/* ftruncate64 on it: i386 Linux lets it pass 2 GiB (ia32_ftruncate64
	 * as Linux 6.9+), 6.1's x86_64 compat entry does not (KNOWN-DIFFERENCES) */
	r = ftruncate(small, max + 1);
	say("compat_nonlfs_ftruncate64_2GiB ret=%s", rv(r));

	/* grown past 2 GiB through a large-file descriptor */
	int lfs = open(path("small"), O_RDWR);
	r = ftruncate(lfs, 3 * GiB);
	say("nonlfs_grown_3GiB ret=%s size=%lld %s %s", rv(r), fsize(small), fstat32(small), stat32("small"));
	r = pwrite(lfs, "abc", 3, 3 * GiB - 2);
	say("nonlfs_grown_pwrite_lfs ret=%s size=%lld", rv(r), fsize(small));
	close(lfs);
	r = pwrite(small, "abc", 3, 3 * GiB - 2);
	say("nonlfs_pwrite_3_at_3GiB-2 ret=%s size=%lld", rv(r), fsize(small));
	say("nonlfs_pread_at_2GiB-2 %s", bytes(small, max - 1, 4));
	say("nonlfs_pread_at_3GiB-10 %s", bytes(small, 3 * GiB - 10, 100));
	long long res = -7;
	r = llseek32(small, 0, 2 * GiB + 100, &res, SEEK_SET);
	say("nonlfs_llseek_2GiB+100 ret=%s result=%lld", rv(r), res);
	r = read(small, buf, 10);
	say("nonlfs_read_at_2GiB+100 ret=%s pos=%lld", rv(r), fpos(small));
	r = write(small, "abc", 3);
	say("nonlfs_write_at_2GiB+110 ret=%s pos=%lld size=%lld", rv(r), fpos(small), fsize(small));
	r = ftruncate(small, 2 * GiB + 4096);
	say("compat_nonlfs_ftruncate64_shrink_2GiB+4096 ret=%s", rv(r));
	r = syscall(SYS_ftruncate, small, 4096UL);
	say("nonlfs_ftruncate32_shrink_4096 ret=%s size=%lld", rv(r), fsize(small));
	r = ftruncate(small, 3 * GiB);
	say("compat_nonlfs_ftruncate64_3GiB ret=%s", rv(r));

	/* the 32-bit lseek: offsets that fit, results that do not (i386
	 * Linux: -1 EOVERFLOW with the position moved; 6.1's x86_64 compat
	 * entry returns the low 32 bits: KNOWN-DIFFERENCES) */
	lfs = open(path("small"), O_RDWR);
	ftruncate(lfs, 3 * GiB);
	close(lfs);
	r = syscall(SYS_lseek, small, (long)max, SEEK_SET);
	say("lseek32_set_2GiB-1 ret=%s pos=%lld", rv(r), fpos(small));
	r = syscall(SYS_lseek, small, -1L, SEEK_SET);
	say("lseek32_set_minus1 ret=%s pos=%lld", rv(r), fpos(small));
	lseek32("lseek32_cur_plus1_past_2GiB-1", small, 1L, SEEK_CUR);
	lseek32("lseek32_end_3GiB", small, 0L, SEEK_END);
	lseek(small, 100, SEEK_SET);
	lseek32("lseek32_cur_past_2GiB", small, (long)max, SEEK_CUR);
	lseek(small, 100, SEEK_SET);
	lseek32("lseek32_end_plus4096", small, 4096L, SEEK_END);
	lseek(small, 100, SEEK_SET);
	r = syscall(SYS_lseek, small, (long)max, SEEK_DATA);
	say("lseek32_data_2GiB-1 ret=%s pos=%lld", rv(r), fpos(small));
	done(small, "small");

	/* the same calls on a small file: all work */
	fd = fresh("small32", 5000, 0);
	say("small_fstat32 %s", fstat32(fd));
	say("small_stat32 %s", stat32("small32"));
	r = syscall(SYS_lseek, fd, 100L, SEEK_END);
	say("small_lseek32_end_plus100 ret=%s pos=%lld", rv(r), fpos(fd));
	r = syscall(SYS_stat, path("nonexistent"), buf);
	say("stat32_enoent ret=%s", rv(r));
	r = syscall(SYS_fstat, -1, buf);
	say("fstat32_badfd ret=%s", rv(r));
	r = syscall(SYS_fstat, fd, NULL);
	say("fstat32_null ret=%s", rv(r));
	r = syscall(SYS_lstat, path("small32"), buf);
	say("lstat32 ret=%s", rv(r));
	done(fd, "small32");
}

/* 6. preadv2/pwritev2: RWF_* flags and offset -1 (the file position). */
static long rw2(int nr, int fd, const struct iovec *v, int n, long long off, int flags)
{
	return syscall(nr, fd, v, n, (unsigned long)off, (unsigned long)(off >> 32), flags);
}

static void rwf(void)
{
	int fd = fresh("rwf", 100, 0);
	struct iovec w = { "abcdefgh", 8 }, rd = { buf, 8 }, z = { buf, 0 };
	static const struct { const char *name; int flag; } fl[] = {
		{ "0", 0 }, { "hipri", RWF_HIPRI }, { "dsync", RWF_DSYNC }, { "sync", RWF_SYNC },
		{ "nowait", RWF_NOWAIT }, { "append", RWF_APPEND }, { "0x20", 0x20 },
		{ "0x40", 0x40 }, { "0x80", 0x80 }, { "minus1", -1 },
	};
	for (int i = 0; i < (int)(sizeof fl / sizeof fl[0]); i++) {
		lseek(fd, 50, SEEK_SET);
		long r = rw2(SYS_pwritev2, fd, &w, 1, 10, fl[i].flag);
		say("pwritev2_%s_at_10 ret=%s pos=%lld size=%lld", fl[i].name, rv(r), fpos(fd), fsize(fd));
		r = rw2(SYS_preadv2, fd, &rd, 1, 10, fl[i].flag);
		say("preadv2_%s_at_10 ret=%s pos=%lld", fl[i].name, rv(r), fpos(fd));
		r = rw2(SYS_pwritev2, fd, &z, 1, 10, fl[i].flag);
		say("pwritev2_%s_len0 ret=%s", fl[i].name, rv(r));
	}
	say("rwf_bytes %s", bytes(fd, 0, 200));
	ftruncate(fd, 100);
	lseek(fd, 20, SEEK_SET);
	long r = rw2(SYS_pwritev2, fd, &w, 1, -1, 0);
	say("pwritev2_at_minus1 ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	r = rw2(SYS_preadv2, fd, &rd, 1, -1, 0);
	say("preadv2_at_minus1 ret=%s pos=%lld", rv(r), fpos(fd));
	r = rw2(SYS_pwritev2, fd, &w, 1, -1, RWF_APPEND);
	say("pwritev2_append_at_minus1 ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	r = rw2(SYS_pwritev2, fd, &w, 1, -2, 0);
	say("pwritev2_at_minus2 ret=%s pos=%lld", rv(r), fpos(fd));
	r = rw2(SYS_preadv2, fd, &rd, 1, -2, 0);
	say("preadv2_at_minus2 ret=%s", rv(r));
	r = rw2(SYS_preadv2, fd, &rd, 1, 1 << 20, 0);
	say("preadv2_past_eof ret=%s", rv(r));
	r = rw2(SYS_preadv2, fd, &rd, 1, -1, RWF_NOWAIT);
	say("preadv2_nowait_at_eof ret=%s pos=%lld", rv(r), fpos(fd));
	r = rw2(SYS_pwritev2, fd, &w, 1, 0, RWF_NOWAIT | 0x80);
	say("pwritev2_nowait_and_0x80 ret=%s", rv(r));
	r = rw2(SYS_pwritev2, fd, &w, 1025, 0, 0x80);
	say("pwritev2_1025_segments_0x80 ret=%s", rv(r));
	say("rwf_bytes_end %s", bytes(fd, 0, 200));
	close(fd);
	fd = open(path("rwf"), O_RDONLY);
	r = rw2(SYS_pwritev2, fd, &w, 1, 0, 0);
	say("pwritev2_rdonly ret=%s", rv(r));
	r = rw2(SYS_pwritev2, fd, &w, 1, 0, 0x80);
	say("pwritev2_rdonly_0x80 ret=%s", rv(r));
	done(fd, "rwf");
}

/* 7. O_SYNC and O_DSYNC writes: the results, the bytes, st_blocks. */
static void syncs(void)
{
	int fd = fresh("osync", 0, O_SYNC);
	int fl = fcntl(fd, F_GETFL);
	say("osync_getfl sync=%d dsync=%d", (fl & O_SYNC) == O_SYNC, (fl & O_DSYNC) != 0);
	ssize_t r = write(fd, xs, 5000);
	say("osync_write_5000 ret=%s pos=%lld size=%lld blocks=%lld", rv(r), fpos(fd), fsize(fd), blocks(fd));
	r = pwrite(fd, "SSSS", 4, 12288);
	say("osync_pwrite_4_at_12288 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	say("osync_bytes %s", bytes(fd, 0, 20000));
	say("osync_fsync ret=%s", rv(fsync(fd)));
	say("osync_fdatasync ret=%s", rv(fdatasync(fd)));
	done(fd, "osync");

	fd = fresh("odsync", 0, O_DSYNC);
	fl = fcntl(fd, F_GETFL);
	say("odsync_getfl sync=%d dsync=%d", (fl & O_SYNC) == O_SYNC, (fl & O_DSYNC) != 0);
	r = fcntl(fd, F_SETFL, fl & ~O_DSYNC);
	fl = fcntl(fd, F_GETFL);
	say("odsync_setfl_clear ret=%s dsync=%d", rv(r), (fl & O_DSYNC) != 0);
	r = write(fd, xs, 100);
	say("odsync_write_100 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	struct iovec v[3] = { { xs, 1000 }, { xs, 0 }, { "SS", 2 } };
	r = pwritev(fd, v, 3, 8000);
	say("odsync_pwritev_1002_at_8000 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	say("odsync_bytes %s", bytes(fd, 0, 20000));
	r = write(fd, xs, 0);
	say("odsync_write_0 ret=%s", rv(r));
	done(fd, "odsync");

	fd = fresh("setflsync", 0, 0);
	r = fcntl(fd, F_SETFL, O_SYNC);
	fl = fcntl(fd, F_GETFL);
	say("setfl_osync ret=%s sync=%d dsync=%d", rv(r), (fl & O_SYNC) == O_SYNC, (fl & O_DSYNC) != 0);
	done(fd, "setflsync");
}

/* 8. truncate: down into a page and up again, to 0 and up, by path, errors. */
static void truncates(void)
{
	int fd = fresh("trunc", 10000, 0);
	say("trunc_start size=%lld blocks=%lld", fsize(fd), blocks(fd));
	long r = ftruncate(fd, 1500);
	say("trunc_1500 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	say("trunc_1500_pread_1400 %s", bytes(fd, 1400, 200));
	r = ftruncate(fd, 10000);
	say("trunc_up_10000 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	say("trunc_up_10000_bytes %s", bytes(fd, 0, 10000));
	say("trunc_up_10000_after_read blocks=%lld", blocks(fd));
	ftruncate(fd, 1500);
	r = pwrite(fd, "S", 1, 3000);
	say("trunc_1500_pwrite_at_3000 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	say("trunc_1500_pwrite_at_3000_bytes %s", bytes(fd, 0, 4000));
	fsync(fd);
	r = ftruncate(fd, 4097);
	say("trunc_4097 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	ftruncate(fd, 2000);
	r = ftruncate(fd, 8192);
	say("trunc_2000_up_8192 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	say("trunc_2000_up_8192_bytes %s", bytes(fd, 0, 8192));
	r = ftruncate(fd, 0);
	say("trunc_0 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	r = ftruncate(fd, 5000);
	say("trunc_0_up_5000 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	say("trunc_0_up_5000_bytes %s", bytes(fd, 0, 5000));
	say("trunc_0_up_5000_after_read blocks=%lld", blocks(fd));
	r = pwrite(fd, xs, 10, 0);
	say("trunc_0_up_5000_pwrite_10 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	lseek(fd, 4000, SEEK_SET);
	r = ftruncate(fd, 100);
	say("trunc_pos_after ret=%s pos=%lld", rv(r), fpos(fd));
	r = write(fd, "S", 1);
	say("trunc_write_at_old_pos ret=%s size=%lld", rv(r), fsize(fd));
	say("trunc_write_at_old_pos_bytes %s", bytes(fd, 0, 5000));

	/* by path; 64- and 32-bit lengths */
	r = truncate(path("trunc"), 100);
	say("truncate_path_100 ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	r = truncate(path("trunc"), -1);
	say("truncate_path_minus1 ret=%s size=%lld", rv(r), fsize(fd));
	r = syscall(SYS_truncate, path("trunc"), -1L);
	say("truncate32_path_minus1 ret=%s size=%lld", rv(r), fsize(fd));
	r = syscall(SYS_truncate, path("trunc"), 200L);
	say("truncate32_path_200 ret=%s size=%lld", rv(r), fsize(fd));
	r = truncate(path("nonexistent"), 0);
	say("truncate_path_enoent ret=%s", rv(r));
	r = truncate(c_dir, 0);
	say("truncate_path_dir ret=%s", rv(r));
	r = truncate("", 0);
	say("truncate_path_empty ret=%s", rv(r));
	r = ftruncate(fd, -1);
	say("ftruncate_minus1 ret=%s size=%lld", rv(r), fsize(fd));
	r = ftruncate(-1, -1);
	say("ftruncate_badfd_minus1 ret=%s", rv(r));
	r = ftruncate(-1, 0);
	say("ftruncate_badfd_0 ret=%s", rv(r));
	r = syscall(SYS_ftruncate, fd, (unsigned long)-1);
	say("ftruncate32_ulong_max ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), blocks(fd));
	say("ftruncate32_ulong_max_tail %s", bytes(fd, 4294967295LL - 10, 100));
	close(fd);
	fd = open(path("trunc"), O_RDONLY);
	r = ftruncate(fd, 10);
	say("ftruncate_rdonly ret=%s size=%lld", rv(r), fsize(fd));
	close(fd);
	fd = open(path("trunc"), O_WRONLY | O_APPEND);
	r = ftruncate(fd, 10);
	say("ftruncate_append ret=%s size=%lld", rv(r), fsize(fd));
	close(fd);
	fd = open(c_dir, O_RDONLY | O_DIRECTORY);
	r = ftruncate(fd, 0);
	say("ftruncate_dir ret=%s", rv(r));
	close(fd);
	int pfd[2];
	if (pipe(pfd) == 0) {
		say("ftruncate_pipe ret=%s", rv(ftruncate(pfd[1], 0)));
		close(pfd[0]);
		close(pfd[1]);
	}
	unlink(path("trunc"));
}

/* 9. ENOSPC: fill the file system with big writes; statfs before and after. */
static char chunk[1 << 20];

static void enospc(void)
{
	if (is_ramfs) {
		say("enospc skipped on ramfs (no size limit)");
		return;
	}
	memset(chunk, 'S', sizeof chunk);
	struct statfs s0, s1, s2;
	sync();
	statfs(c_dir, &s0);
	int hole = fresh("enospc_hole", 0, 0);
	pwrite(hole, "h", 1, 1 << 20);          /* a hole below 1 MiB */
	long long hole_blocks = blocks(hole);

	/* 1 MiB writes until one fails; the last that wrote may be short */
	int fd = fresh("enospc", 0, 0);
	long long written = 0;
	ssize_t r, last = 0;
	int nshort = 0;
	while ((r = write(fd, chunk, sizeof chunk)) > 0) {
		written += r;
		last = r;
		nshort += r < (ssize_t)sizeof chunk;
	}
	const char *end = rv(r);
	say("enospc_fill ended=%s short_writes=%s last_mod_4096=%lld size_is_written=%d pos_is_written=%d",
	    end, nshort <= 1 ? "0or1" : "more", (long long)last % 4096,
	    fsize(fd) == written, fpos(fd) == written);
	r = write(fd, chunk, sizeof chunk);
	say("enospc_write_again ret=%s size_is_written=%d", rv(r), fsize(fd) == written);
	/* what a page could not take: one block at a time into a small file */
	int drain = fresh("enospc_drain", 0, 0);
	int nblk = 0;
	while (nblk < 12 && write(drain, chunk, s0.f_bsize) == (ssize_t)s0.f_bsize)
		nblk++;
	say("enospc_drain blocks_left_after_fill=%s", nblk < 12 ? "under12" : "more");
	statfs(c_dir, &s1);
	say("enospc_full bfree=%lld bavail=%lld", (long long)s1.f_bfree, (long long)s1.f_bavail);
	r = write(fd, chunk, 1);
	say("enospc_write_1 ret=%s size_is_written=%d", rv(r), fsize(fd) == written);
	r = write(fd, chunk, 0);
	say("enospc_write_0 ret=%s", rv(r));
	r = write(drain, chunk, 1);
	say("enospc_drain_write_1 ret=%s", rv(r));
	r = pwrite(fd, xs, 4096, 0);
	say("enospc_overwrite_4096_at_0 ret=%s", rv(r));
	r = pwrite(fd, xs, 100, written - 50);
	say("enospc_overwrite_across_eof ret=%s size_is_written=%d", rv(r), fsize(fd) == written);
	r = pwrite(hole, xs, 4096, 0);
	say("enospc_pwrite_into_hole ret=%s size=%lld blocks_as_before=%d", rv(r), fsize(hole),
	    blocks(hole) == hole_blocks);
	say("enospc_hole_bytes %s", bytes(hole, 0, 4096));
	r = pwrite(hole, xs, 1, 0);
	say("enospc_pwrite_1_into_hole ret=%s", rv(r));
	r = ftruncate(hole, 1 << 30);
	say("enospc_ftruncate_grow ret=%s size=%lld", rv(r), fsize(hole));
	r = pwrite(hole, xs, 10, (1 << 30) + 100);
	say("enospc_pwrite_past_eof ret=%s size=%lld", rv(r), fsize(hole));
	r = ftruncate(hole, (1 << 20) + 1);
	say("enospc_ftruncate_back ret=%s size=%lld blocks_as_before=%d", rv(r), fsize(hole),
	    blocks(hole) == hole_blocks);
	r = mkdir(path("enospc_dir"), 0755);
	say("enospc_mkdir ret=%s", rv(r));
	rmdir(path("enospc_dir"));
	int empty = open(path("enospc_empty"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	say("enospc_create ret=%s", rv(empty < 0 ? -1 : 0));
	r = write(empty, "a", 1);
	say("enospc_create_write_1 ret=%s size=%lld", rv(r), fsize(empty));
	done(empty, "enospc_empty");
	say("enospc_fsync ret=%s", rv(fsync(fd)));
	say("enospc_bytes_at_0 %s", bytes(fd, 0, 8192));
	say("enospc_bytes_at_end %s", bytes(fd, written - 4096, 8192));
	say("enospc_close ret=%s", rv(close(fd)));
	say("enospc_unlink ret=%s", rv(unlink(path("enospc"))));
	r = write(drain, chunk, s0.f_bsize);
	say("enospc_after_unlink_write_block ret=%s", r == (ssize_t)s0.f_bsize ? "bsize" : rv(r));
	done(drain, "enospc_drain");
	done(hole, "enospc_hole");
	sync();
	statfs(c_dir, &s2);
	say("enospc_after_unlink bfree_as_before=%d ffree_as_before=%d",
	    s2.f_bfree == s0.f_bfree, s2.f_ffree == s0.f_ffree);
	if (s2.f_bfree != s0.f_bfree || s2.f_ffree != s0.f_ffree)
		say("enospc_after_unlink bfree%+lld ffree%+lld", (long long)(s2.f_bfree - s0.f_bfree),
		    (long long)(s2.f_ffree - s0.f_ffree));
}

/* 10. Reads and writes that are not allowed on the descriptor. */
static void modes(void)
{
	int fd = fresh("modes", 100, 0);
	close(fd);
	fd = open(path("modes"), O_WRONLY);
	say("read_wronly ret=%s", rv(read(fd, buf, 10)));
	say("pread_wronly ret=%s", rv(pread(fd, buf, 10, 0)));
	say("read_wronly_len0 ret=%s", rv(read(fd, buf, 0)));
	close(fd);
	fd = open(path("modes"), O_RDONLY);
	say("write_rdonly ret=%s", rv(write(fd, xs, 10)));
	say("write_rdonly_len0 ret=%s", rv(write(fd, xs, 0)));
	say("pwrite_rdonly_minus1 ret=%s", rv(pwrite(fd, xs, 10, -1)));
	close(fd);
	fd = open(c_dir, O_RDONLY | O_DIRECTORY);
	say("read_dir ret=%s", rv(read(fd, buf, 10)));
	say("pread_dir ret=%s", rv(pread(fd, buf, 10, 0)));
	say("read_dir_len0 ret=%s", rv(read(fd, buf, 0)));
	close(fd);
	say("read_closed ret=%s", rv(read(fd, buf, 10)));
	unlink(path("modes"));
}

int main(int argc, char **argv)
{
	conform_start("file_io", argc, argv);
	is_ramfs = strcmp(c_fs, "ramfs") == 0;
	reads();
	vectors();
	seeks();
	offsets();
	large();
	rwf();
	syncs();
	truncates();
	enospc();
	modes();
	conform_end();
	return 0;
}
