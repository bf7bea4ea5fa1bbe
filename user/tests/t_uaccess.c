/*
 * t_uaccess.c - the write loop's abort-and-retry path, from user space.
 * Every check looks at return values, errno, the file offset and the
 * file's contents; on Vellum it also reads /proc/vellum/writepath before
 * and after to prove which path ran (on another kernel, e.g. the Linux
 * host, those counter checks print SKIP).
 *
 *   half      a buffer whose first half is touched and second half is a
 *             never-touched anonymous page: all bytes written (short copy,
 *             fault-in, retry)
 *   writev    second iovec PROT_NONE, then unmapped: exactly the first
 *             iovec's bytes are written, the offset moved by exactly that
 *   unmapped  a wholly unmapped buffer, NULL, a kernel address: EFAULT,
 *             file and offset unchanged
 *   straddle  writes whose chunks straddle file pages and whose source
 *             straddles an untouched page, on a new file (pages not cached)
 *             and an existing one (cached)
 *   read      read() into untouched memory, into read-only memory
 *
 * usage: t_uaccess [dir]   (files are created in dir, default /tmp)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "check.h"

#define PG 4096

static unsigned char pat(unsigned long i) { return (unsigned char)((i * 31 + 7) | 1); }

/* The counters of /proc/vellum/writepath; 0 if the file does not exist. */
struct wp { long attempts, short_copies, fault_ins, retries, efaults, atomic_fixups; };

static int read_wp(struct wp *w)
{
	char buf[1024], *p;
	int fd = open("/proc/vellum/writepath", O_RDONLY);
	ssize_t n;

	memset(w, 0, sizeof(*w));
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		char *sp = strchr(p, ' ');
		long v;
		if (!sp)
			break;
		v = strtol(sp + 1, NULL, 10);
		if (!strncmp(p, "attempts ", 9)) w->attempts = v;
		else if (!strncmp(p, "short_copies ", 13)) w->short_copies = v;
		else if (!strncmp(p, "fault_ins ", 10)) w->fault_ins = v;
		else if (!strncmp(p, "retries ", 8)) w->retries = v;
		else if (!strncmp(p, "efaults ", 8)) w->efaults = v;
		else if (!strncmp(p, "atomic_fixups ", 14)) w->atomic_fixups = v;
	}
	return 1;
}

static int have_wp;
#define CHECK_WP(name, cond) do {                                              \
	if (have_wp) CHECK(name, cond);                                        \
	else { printf("SKIP %s (no /proc/vellum/writepath)\n", name); fflush(stdout); } \
} while (0)

static char path[256];

static int fresh(const char *dir, const char *name, size_t fill)
{
	static char z[3 * PG];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fd >= 0 && fill) {
		memset(z, 'Z', fill);
		if (write(fd, z, fill) != (ssize_t)fill || lseek(fd, 0, SEEK_SET) != 0) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

static off_t fsize(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 ? st.st_size : -1;
}

static void *map(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void test_half(const char *dir)
{
	static char got[2 * PG];
	unsigned char *b = map(2 * PG, PROT_READ | PROT_WRITE);
	struct wp w0, w1;
	int fd = fresh(dir, "ua_half", 2 * PG), ok = 1, i;
	ssize_t n;

	CHECK("half.setup", b && fd >= 0);
	if (!b || fd < 0)
		return;
	for (i = 0; i < PG; i++)            /* page 0 touched, page 1 never */
		b[i] = pat(i);
	read_wp(&w0);
	n = write(fd, b + PG / 2, PG);
	read_wp(&w1);
	CHECK("half.returns_all", n == PG);
	CHECK("half.offset", lseek(fd, 0, SEEK_CUR) == PG);
	CHECK("half.size", fsize(fd) == 2 * PG);
	CHECK("half.pread", pread(fd, got, 2 * PG, 0) == 2 * PG);
	for (i = 0; i < PG / 2; i++)
		ok &= (unsigned char)got[i] == pat(PG / 2 + i);
	for (i = PG / 2; i < PG; i++)
		ok &= got[i] == 0;
	for (i = PG; i < 2 * PG; i++)
		ok &= got[i] == 'Z';
	CHECK("half.contents", ok);
	CHECK_WP("half.short_copy_seen", w1.short_copies > w0.short_copies);
	CHECK_WP("half.fault_in_seen", w1.fault_ins > w0.fault_ins);
	CHECK_WP("half.retry_seen", w1.retries > w0.retries);
	CHECK_WP("half.atomic_fixup_seen", w1.atomic_fixups > w0.atomic_fixups);
	CHECK_WP("half.no_efault", w1.efaults == w0.efaults);
	close(fd);
	unlink(path);
	munmap(b, 2 * PG);
}

static void test_writev(const char *dir)
{
	static char got[PG];
	unsigned char *a = map(PG, PROT_READ | PROT_WRITE);
	unsigned char *bad = map(PG, PROT_READ | PROT_WRITE);
	struct iovec iov[3];
	struct wp w0, w1;
	int fd = fresh(dir, "ua_writev", 0), ok = 1, i;
	ssize_t n;

	CHECK("writev.setup", a && bad && fd >= 0);
	if (!a || !bad || fd < 0)
		return;
	for (i = 0; i < PG; i++)
		a[i] = pat(i), bad[i] = 'B';
	CHECK("writev.mprotect", mprotect(bad, PG, PROT_NONE) == 0);
	iov[0].iov_base = a + 100; iov[0].iov_len = 300;
	iov[1].iov_base = bad;     iov[1].iov_len = 200;
	iov[2].iov_base = a + 1000; iov[2].iov_len = 50;
	read_wp(&w0);
	n = writev(fd, iov, 3);
	read_wp(&w1);
	CHECK("writev.prot_none_returns_first", n == 300);
	CHECK("writev.prot_none_offset", lseek(fd, 0, SEEK_CUR) == 300);
	CHECK("writev.prot_none_size", fsize(fd) == 300);
	CHECK("writev.pread", pread(fd, got, PG, 0) == 300);
	for (i = 0; i < 300; i++)
		ok &= (unsigned char)got[i] == pat(100 + i);
	CHECK("writev.prot_none_contents", ok);
	CHECK_WP("writev.efault_counted", w1.efaults > w0.efaults);
	/* now unmapped */
	CHECK("writev.munmap", munmap(bad, PG) == 0);
	n = writev(fd, iov, 3);
	CHECK("writev.unmapped_returns_first", n == 300);
	CHECK("writev.unmapped_offset", lseek(fd, 0, SEEK_CUR) == 600);
	CHECK("writev.unmapped_size", fsize(fd) == 600);
	/* the first iovec itself bad: EFAULT, nothing moves */
	iov[0].iov_base = bad;
	errno = 0;
	n = writev(fd, iov, 3);
	CHECK("writev.first_bad_efault", n == -1 && errno == EFAULT);
	CHECK("writev.first_bad_offset", lseek(fd, 0, SEEK_CUR) == 600);
	close(fd);
	unlink(path);
	munmap(a, PG);
}

static void test_unmapped(const char *dir)
{
	static char got[PG];
	unsigned char *gone = map(PG, PROT_READ | PROT_WRITE);
	int fd = fresh(dir, "ua_unmapped", 50), ok = 1, i;
	ssize_t n;

	CHECK("unmapped.setup", gone && fd >= 0 && lseek(fd, 10, SEEK_SET) == 10);
	if (!gone || fd < 0)
		return;
	munmap(gone, PG);
	errno = 0;
	n = write(fd, gone, 100);
	CHECK("unmapped.efault", n == -1 && errno == EFAULT);
	errno = 0;
	n = write(fd, NULL, 100);
	CHECK("unmapped.null_efault", n == -1 && errno == EFAULT);
	errno = 0;
	n = write(fd, (void *)0xC0100000UL, 100);
	CHECK("unmapped.kernel_address_efault", n == -1 && errno == EFAULT);
	errno = 0;
	n = pwrite(fd, gone, 100, 20);
	CHECK("unmapped.pwrite_efault", n == -1 && errno == EFAULT);
	CHECK("unmapped.offset_unchanged", lseek(fd, 0, SEEK_CUR) == 10);
	CHECK("unmapped.size_unchanged", fsize(fd) == 50);
	CHECK("unmapped.pread", pread(fd, got, PG, 0) == 50);
	for (i = 0; i < 50; i++)
		ok &= got[i] == 'Z';
	CHECK("unmapped.contents_unchanged", ok);
	close(fd);
	unlink(path);
}

static void straddle(const char *dir, const char *tag, size_t fill)
{
	char name[64], got[64];
	unsigned char *b = map(3 * PG, PROT_READ | PROT_WRITE);
	int fd, ok = 1, i;
	unsigned long soff;

	snprintf(name, sizeof(name), "ua_straddle_%s", tag);
	fd = fresh(dir, name, fill);
	if (!b || fd < 0) {
		CHECK("straddle.setup", 0);
		return;
	}
	for (i = 0; i < PG; i++)
		b[i] = pat(i);                  /* page 1 and 2 untouched */
	for (soff = PG - 7; soff < PG; soff += 3) {
		off_t pos = PG - 13;
		ok &= pwrite(fd, b + soff, 40, pos) == 40;
		ok &= pread(fd, got, 40, pos) == 40;
		for (i = 0; i < 40; i++)
			ok &= (unsigned char)got[i] == (soff + i < PG ? pat(soff + i) : 0);
	}
	/* a plain write() at an offset that straddles, and the offset after */
	ok &= lseek(fd, 2 * PG - 5, SEEK_SET) == 2 * PG - 5;
	ok &= write(fd, b + PG - 5, 10) == 10;
	ok &= lseek(fd, 0, SEEK_CUR) == 2 * PG + 5;
	snprintf(got, sizeof(got), "straddle.%s", tag);
	CHECK(got, ok);
	snprintf(got, sizeof(got), "straddle.%s_size", tag);
	CHECK(got, fsize(fd) == (fill > 2 * PG + 5 ? (off_t)fill : 2 * PG + 5));
	close(fd);
	unlink(path);
	munmap(b, 3 * PG);
}

static void test_read(const char *dir)
{
	unsigned char *b = map(2 * PG, PROT_READ | PROT_WRITE);
	unsigned char *ro = map(PG, PROT_READ);
	int fd = fresh(dir, "ua_read", 3 * PG);
	ssize_t n;

	CHECK("read.setup", b && ro && fd >= 0);
	if (!b || !ro || fd < 0)
		return;
	CHECK("read.into_untouched", read(fd, b + 100, PG) == PG && b[100 + PG - 1] == 'Z');
	errno = 0;
	n = read(fd, ro, 10);
	CHECK("read.into_readonly_efault", n == -1 && errno == EFAULT);
	CHECK("read.into_readonly_offset", lseek(fd, 0, SEEK_CUR) == PG);
	CHECK("read.into_readonly_untouched", ro[0] == 0);
	close(fd);
	unlink(path);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	struct wp w;

	have_wp = read_wp(&w);
	test_half(dir);
	test_writev(dir);
	test_unmapped(dir);
	straddle(dir, "new", 0);
	straddle(dir, "cached", 3 * PG);
	test_read(dir);
	return check_summary();
}
