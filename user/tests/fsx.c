/*
 * fsx.c - a small fsx-style random file test (after fsx, the File System
 * eXerciser of xfstests): N random operations on one file, each checked
 * against a shadow copy of the file kept in memory.
 *
 *   fsx FILE SEED NOPS
 *
 * Operations (chosen by a xorshift PRNG seeded with SEED, so a run is
 * exactly repeatable):
 *   write     pwrite random bytes at a random offset (may extend the file)
 *   read      pread a random range; compare with the shadow
 *   mapread   mmap(MAP_SHARED, PROT_READ) the range; compare
 *   mapwrite  extend with ftruncate if needed, mmap(MAP_SHARED, RW), store
 *             random bytes, msync(MS_SYNC) one time in three, munmap
 *   truncate  ftruncate to a random size (shrink: the shadow's tail zeroed)
 *   mapcopy   pwrite whose BUFFER is a mapping of another range of the same
 *             file (the write-from-mmap case of docs/mmap.md)
 *   msync     map the whole file, msync(MS_SYNC), unmap
 * At the end the whole file is compared with the shadow, and one line
 *   fsx: FILE size N sum S
 * is printed (a checksum of the contents).  The same program, compiled for
 * the host (tools/tests/mmap.sh), replays the same run on a host file to
 * produce the exact bytes that debugfs must find in Vellum's ext2 image.
 * Output: "PASS fsx.NAME" / "FAIL fsx.NAME (...)" lines (check.h); the first
 * mismatch prints the operation log tail.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "check.h"

#define PG      4096
#define MAXLEN  (48 * PG)          /* the file never grows past this */
#define MAXOP   (3 * PG)           /* one operation's range */

static unsigned char good[MAXLEN], buf[MAXOP];
static unsigned long size;         /* the shadow's file size */
static unsigned int rng;
static int fd;
static const char *tag;            /* name in the PASS/FAIL lines */

static unsigned int rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

#define LOGN 16
static char oplog[LOGN][80];
static int opno;

static void logop(const char *fmt, unsigned long a, unsigned long b)
{
	snprintf(oplog[opno % LOGN], sizeof(oplog[0]), fmt, a, b);
}

static int failed;

static void fail(const char *what, unsigned long off, unsigned long len)
{
	char name[64];
	if (failed++)
		return;
	printf("fsx: op %d: %s failed at offset %lu len %lu (file size %lu); last ops:\n",
	       opno, what, off, len, size);
	for (int k = opno - LOGN + 1; k <= opno; k++)
		if (k >= 0)
			printf("fsx:   %d %s\n", k, oplog[k % LOGN]);
	snprintf(name, sizeof(name), "fsx.%s.%s", tag, what);
	CHECK(name, 0);
}

/* A random range [*off, *off + *len) inside [0, limit), len >= 1. */
static int range(unsigned long limit, unsigned long *off, unsigned long *len)
{
	if (!limit)
		return 0;
	*off = rnd() % limit;
	unsigned long room = limit - *off;
	if (room > MAXOP)
		room = MAXOP;
	*len = 1 + rnd() % room;
	return 1;
}

static void compare(const unsigned char *got, unsigned long off, unsigned long len,
		    const char *what)
{
	if (memcmp(got, good + off, len)) {
		unsigned long k = 0;
		while (got[k] == good[off + k])
			k++;
		printf("fsx: byte %lu: got %#x want %#x\n", off + k, got[k], good[off + k]);
		fail(what, off, len);
	}
}

static void op_write(void)
{
	unsigned long off, len;
	range(MAXLEN, &off, &len);
	logop("write off %lu len %lu", off, len);
	for (unsigned long k = 0; k < len; k++)
		buf[k] = (unsigned char)rnd();
	if (pwrite(fd, buf, len, off) != (ssize_t)len)
		return fail("write", off, len);
	memcpy(good + off, buf, len);
	if (off + len > size)
		size = off + len;
}

static void op_read(void)
{
	unsigned long off, len;
	if (!range(size, &off, &len))
		return;
	logop("read off %lu len %lu", off, len);
	if (pread(fd, buf, len, off) != (ssize_t)len)
		return fail("read", off, len);
	compare(buf, off, len, "read");
}

static void op_mapread(void)
{
	unsigned long off, len;
	if (!range(size, &off, &len))
		return;
	logop("mapread off %lu len %lu", off, len);
	unsigned long start = off & ~(unsigned long)(PG - 1), mlen = off + len - start;
	unsigned char *m = mmap(NULL, mlen, PROT_READ, MAP_SHARED, fd, start);
	if (m == MAP_FAILED)
		return fail("mapread_mmap", off, len);
	compare(m + (off - start), off, len, "mapread");
	munmap(m, mlen);
}

static void op_mapwrite(void)
{
	unsigned long off, len;
	range(MAXLEN, &off, &len);
	logop("mapwrite off %lu len %lu", off, len);
	if (off + len > size) {
		if (ftruncate(fd, off + len))
			return fail("mapwrite_extend", off, len);
		size = off + len;               /* the shadow past the old size is zeros */
	}
	unsigned long start = off & ~(unsigned long)(PG - 1), mlen = off + len - start;
	unsigned char *m = mmap(NULL, mlen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, start);
	if (m == MAP_FAILED)
		return fail("mapwrite_mmap", off, len);
	for (unsigned long k = 0; k < len; k++)
		good[off + k] = m[off - start + k] = (unsigned char)rnd();
	if (rnd() % 3 == 0 && msync(m, mlen, MS_SYNC))
		fail("mapwrite_msync", off, len);
	munmap(m, mlen);
}

static void op_truncate(void)
{
	unsigned long newsize = rnd() % MAXLEN;
	logop("truncate to %lu (from %lu)", newsize, size);
	if (ftruncate(fd, newsize))
		return fail("truncate", newsize, 0);
	if (newsize < size)
		memset(good + newsize, 0, size - newsize);
	size = newsize;
}

/* pwrite(dst) from a mapping of [src, src+len) of the same file, the ranges
 * not overlapping (an overlapping copy is done page by page: its result
 * depends on the chunking, so fsx does not ask for one). */
static void op_mapcopy(void)
{
	unsigned long src, len;
	if (!range(size, &src, &len))
		return;
	unsigned long dst = rnd() % MAXLEN;
	if (dst + len > MAXLEN)
		len = MAXLEN - dst;
	if (!len || (dst < src + len && src < dst + len))
		return;
	logop("mapcopy src %lu len %lu", src, len);
	unsigned long start = src & ~(unsigned long)(PG - 1), mlen = src + len - start;
	unsigned char *m = mmap(NULL, mlen, PROT_READ, MAP_SHARED, fd, start);
	if (m == MAP_FAILED)
		return fail("mapcopy_mmap", src, len);
	ssize_t n = pwrite(fd, m + (src - start), len, dst);
	munmap(m, mlen);
	if (n != (ssize_t)len)
		return fail("mapcopy", dst, len);
	memcpy(good + dst, good + src, len);
	if (dst + len > size)
		size = dst + len;
}

static void op_msync(void)
{
	if (!size)
		return;
	logop("msync size %lu (op %lu)", size, (unsigned long)opno);
	unsigned char *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return fail("msync_mmap", 0, size);
	if (msync(m, size, MS_SYNC))
		fail("msync", 0, size);
	munmap(m, size);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: fsx FILE SEED NOPS\n");
		return 2;
	}
	const char *file = argv[1];
	rng = (unsigned int)strtoul(argv[2], NULL, 0) | 1;
	int nops = (int)strtoul(argv[3], NULL, 0);
	tag = strncmp(file, "/st", 3) ? "ramfs" : "ext2";
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		printf("FAIL fsx.%s.open (errno %d)\n", tag, errno);
		return 1;
	}
	for (opno = 0; opno < nops && !failed; opno++) {
		switch (rnd() % 8) {
		case 0: op_write(); break;
		case 1: op_read(); break;
		case 2: op_mapread(); break;
		case 3: op_mapwrite(); break;
		case 4: op_truncate(); break;
		case 5: op_mapcopy(); break;
		case 6: op_msync(); break;
		default: op_read(); break;
		}
	}
	char name[64];
	snprintf(name, sizeof(name), "fsx.%s.%d_ops", tag, nops);
	CHECK(name, !failed && opno == nops);

	/* the whole file, through a fresh descriptor */
	close(fd);
	fd = open(file, O_RDONLY);
	static unsigned char all[MAXLEN + 1];
	ssize_t n = fd >= 0 ? pread(fd, all, MAXLEN + 1, 0) : -1;
	snprintf(name, sizeof(name), "fsx.%s.final_contents", tag);
	CHECK(name, n == (ssize_t)size && !memcmp(all, good, size));
	unsigned int sum = 0;          /* 32 bits on Vellum and on the host */
	for (unsigned long k = 0; k < size; k++)
		sum = sum * 31 + good[k];
	printf("fsx: %s size %lu sum %u\n", file, size, sum);
	close(fd);
	return check_summary();
}
