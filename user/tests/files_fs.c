/*
 * files_fs.c - the file system calls, from user space (our libc,
 * raw calls through sc.h).  For each call: the result on good arguments,
 * the errno on bad ones (EBADF, ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY,
 * EINVAL, ESPIPE, ...), and EFAULT for each bad pointer (NULL, 0xC0000000,
 * an unmapped page) in every pointer argument, with nothing changed: the
 * file's contents and offset, the directory's entries, no fd used up.
 *
 * usage: files_fs [dir]     (work happens in dir/ffs, default /tmp)
 * Prints "PASS files.NAME" / "FAIL files.NAME (...)"; exits 1 on a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <unistd.h>
#include "check.h"
#include "sc.h"

#define CKF(cond, ...) do {                                                  \
	char n_[128];                                                        \
	snprintf(n_, sizeof(n_), __VA_ARGS__);                               \
	check_report(n_, (cond) ? 1 : 0, #cond, __LINE__);                   \
} while (0)

static char D[200];                     /* the work directory */
static char P[300], P2[300];            /* scratch paths */

static const char *in(const char *name)
{
	snprintf(P, sizeof(P), "%s/%s", D, name);
	return P;
}
static const char *in2(const char *name)
{
	snprintf(P2, sizeof(P2), "%s/%s", D, name);
	return P2;
}

/* A fingerprint of a file (size and contents) and of a directory (names). */
static unsigned long file_sig(const char *path)
{
	unsigned char buf[512];
	unsigned long h = 5381;
	long fd = SC(__NR_open, path, O_RDONLY), n;

	if (fd < 0)
		return (unsigned long)fd;
	while ((n = SC(__NR_read, fd, buf, sizeof(buf))) > 0)
		for (long i = 0; i < n; i++)
			h = h * 33 + buf[i] + 1;
	SC(__NR_close, fd);
	return h;
}

static unsigned long dir_sig(const char *path)
{
	static char buf[2048];
	unsigned long h = 7, count = 0;
	long fd = SC(__NR_open, path, O_RDONLY | O_DIRECTORY), n;

	if (fd < 0)
		return (unsigned long)fd;
	while ((n = SC(__NR_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			unsigned short reclen = *(unsigned short *)(buf + off + 16);
			const char *name = buf + off + 19;
			unsigned long nh = 0;
			while (*name)
				nh = nh * 31 + (unsigned char)*name++;
			h += nh;                /* order-independent */
			count++;
			off += reclen;
		}
	}
	SC(__NR_close, fd);
	return h * 1000 + count;
}

static int make_file(const char *path, const char *text)
{
	long fd = SC(__NR_open, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	long n = (long)strlen(text);

	if (fd < 0)
		return -1;
	if (SC(__NR_write, fd, text, n) != n) {
		SC(__NR_close, fd);
		return -1;
	}
	SC(__NR_close, fd);
	return 0;
}

static long long cur(long fd)
{
	return (long long)SC(__NR_lseek, fd, 0, SEEK_CUR);
}

/* ---- sendfile with one open file as input and output ------------------
 * Both ends share one f_pos (and its lock): the kernel must take that lock
 * once.  Linux (6.18, checked) reads at the input offset, writes at f_pos,
 * returns the count; with offset NULL both are the same position, and the
 * input offset is stored last.  An O_APPEND output is EINVAL. */
static void test_sendfile_same_file(void)
{
	char buf[16];
	long fd = SC(__NR_open, in("sf"), O_RDWR | O_CREAT | O_TRUNC, 0644), r;
	long long off = 0;

	CHECK("files.sendfile_same.setup", fd >= 0 && SC(__NR_write, fd, "hello world", 11) == 11);
	SC(__NR_lseek, fd, 6, SEEK_SET);
	r = SC(__NR_sendfile64, fd, fd, NULL, 5);
	CHECK("files.sendfile_same.null_offset", r == 5 && cur(fd) == 11 &&
	      SC(__NR_pread64, fd, buf, 16, 0, 0) == 11 && !memcmp(buf, "hello world", 11));
	SC(__NR_lseek, fd, 6, SEEK_SET);
	r = SC(__NR_sendfile64, fd, fd, &off, 5);
	CHECK("files.sendfile_same.offset", r == 5 && off == 5 && cur(fd) == 11 &&
	      SC(__NR_pread64, fd, buf, 16, 0, 0) == 11 && !memcmp(buf, "hello hello", 11));
	r = SC(__NR_sendfile64, fd, fd, NULL, 5);
	CHECK("files.sendfile_same.at_eof", r == 0 && cur(fd) == 11);
	SC(__NR_close, fd);
	fd = SC(__NR_open, in("sf"), O_RDWR | O_APPEND);
	r = SC(__NR_sendfile64, fd, fd, NULL, 5);
	CHECK("files.sendfile_same.append_einval", r == -EINVAL &&
	      SC(__NR_pread64, fd, buf, 16, 0, 0) == 11 && !memcmp(buf, "hello hello", 11));
	SC(__NR_close, fd);
	SC(__NR_unlink, in("sf"));
}

/* ---- read, write, readv, writev, pread64, pwrite64, lseek, _llseek ------ */
static void test_rw(void)
{
	char buf[64];
	struct iovec iov[2];
	long fd, r;
	unsigned long long res = 0;

	CHECK("files.rw.setup", make_file(in("rw"), "0123456789abcdef") == 0);
	fd = SC(__NR_open, in("rw"), O_RDWR);
	CHECK("files.open.rdwr", fd >= 3);
	r = SC(__NR_read, fd, buf, 4);
	CHECK("files.read.result", r == 4 && !memcmp(buf, "0123", 4) && cur(fd) == 4);
	r = SC(__NR_write, fd, "WX", 2);
	CHECK("files.write.result", r == 2 && cur(fd) == 6);
	CHECK("files.write.contents", SC(__NR_pread64, fd, buf, 8, 0, 0) == 8 &&
	      !memcmp(buf, "0123WX67", 8));
	CHECK("files.pread64.offset_kept", cur(fd) == 6);
	CHECK("files.pwrite64.result", SC(__NR_pwrite64, fd, "pq", 2, 14, 0) == 2 && cur(fd) == 6);
	CHECK("files.pread64.eof", SC(__NR_pread64, fd, buf, 10, 16, 0) == 0);
	CHECK("files.pread64.past_eof_short", SC(__NR_pread64, fd, buf, 10, 12, 0) == 4 &&
	      !memcmp(buf, "cdpq", 4));
	iov[0].iov_base = buf; iov[0].iov_len = 3;
	iov[1].iov_base = buf + 10; iov[1].iov_len = 2;
	SC(__NR_lseek, fd, 0, SEEK_SET);
	r = SC(__NR_readv, fd, iov, 2);
	CHECK("files.readv.result", r == 5 && !memcmp(buf, "012", 3) && !memcmp(buf + 10, "3W", 2));
	iov[0].iov_base = "AB"; iov[0].iov_len = 2;
	iov[1].iov_base = "CDE"; iov[1].iov_len = 3;
	r = SC(__NR_writev, fd, iov, 2);
	CHECK("files.writev.result", r == 5 && cur(fd) == 10);
	CHECK("files.writev.contents", SC(__NR_pread64, fd, buf, 16, 0, 0) == 16 &&
	      !memcmp(buf, "0123WABCDEabcdpq", 16));
	CHECK("files.writev.zero_iovcnt", SC(__NR_writev, fd, iov, 0) == 0);
	CHECK("files.writev.einval_count", SC(__NR_writev, fd, iov, -1) == -EINVAL);
	CHECK("files.writev.einval_toomany", SC(__NR_writev, fd, iov, 1025) == -EINVAL);
	CHECK("files.lseek.end", SC(__NR_lseek, fd, -2, SEEK_END) == 14);
	CHECK("files.lseek.einval_whence", SC(__NR_lseek, fd, 0, 7) == -EINVAL);
	CHECK("files.lseek.einval_negative", SC(__NR_lseek, fd, -100, SEEK_SET) == -EINVAL &&
	      cur(fd) == 14);
	CHECK("files.llseek.result", SC(__NR__llseek, fd, 0, 5, &res, SEEK_SET) == 0 &&
	      res == 5 && cur(fd) == 5);
	CHECK("files.llseek.big", SC(__NR__llseek, fd, 1, 0, &res, SEEK_SET) == 0 &&
	      res == 0x100000000ULL);
	SC(__NR_lseek, fd, 5, SEEK_SET);
	CHECK("files.read.ebadf", SC(__NR_read, 99, buf, 1) == -EBADF);
	CHECK("files.write.ebadf", SC(__NR_write, -1, buf, 1) == -EBADF);
	CHECK("files.pread64.einval_neg", SC(__NR_pread64, fd, buf, 1, -1, -1) == -EINVAL);
	CHECK("files.lseek.ebadf", SC(__NR_lseek, 99, 0, SEEK_SET) == -EBADF);

	/* EFAULT with nothing changed, every bad pointer */
	unsigned long before = file_sig(in("rw"));
	for (int b = 0; b < NBAD; b++) {
		void *bp = BADPTR[b];
		struct iovec biov[2] = { { "zz", 2 }, { bp, 4 } };
		struct iovec fiov[1] = { { bp, 4 } };
		CKF(SC(__NR_write, fd, bp, 4) == -EFAULT, "files.write.efault_%s", BADNAME[b]);
		CKF(SC(__NR_read, fd, bp, 4) == -EFAULT, "files.read.efault_%s", BADNAME[b]);
		CKF(SC(__NR_pwrite64, fd, bp, 4, 1, 0) == -EFAULT, "files.pwrite64.efault_%s", BADNAME[b]);
		CKF(SC(__NR_pread64, fd, bp, 4, 1, 0) == -EFAULT, "files.pread64.efault_%s", BADNAME[b]);
		CKF(SC(__NR_writev, fd, bp, 2) == -EFAULT, "files.writev.efault_iovarray_%s", BADNAME[b]);
		CKF(SC(__NR_readv, fd, bp, 2) == -EFAULT, "files.readv.efault_iovarray_%s", BADNAME[b]);
		CKF(SC(__NR_writev, fd, fiov, 1) == -EFAULT, "files.writev.efault_base_%s", BADNAME[b]);
		CKF(SC(__NR_readv, fd, fiov, 1) == -EFAULT, "files.readv.efault_base_%s", BADNAME[b]);
		CKF(cur(fd) == 5, "files.rw.efault_offset_unchanged_%s", BADNAME[b]);
		/* writev: a good first iovec, a bad second.  A user address
		 * (NULL, unmapped): only the first's bytes.  A kernel address
		 * fails access_ok when the iovecs are imported, before anything
		 * is written (Linux's import_iovec): EFAULT, offset unchanged. */
		if (bp == BADPTR[1])
			CKF(SC(__NR_writev, fd, biov, 2) == -EFAULT && cur(fd) == 5,
			    "files.writev.second_kernel_efault_%s", BADNAME[b]);
		else
			CKF(SC(__NR_writev, fd, biov, 2) == 2 && cur(fd) == 7,
			    "files.writev.partial_%s", BADNAME[b]);
		SC(__NR_pwrite64, fd, "AB", 2, 5, 0);  /* put the bytes back */
		SC(__NR_lseek, fd, 5, SEEK_SET);
		/* _llseek: the result pointer is bad.  Linux moves the offset
		 * before the copy-out fails, so only the error is checked. */
		CKF(SC(__NR__llseek, fd, 0, 5, bp, SEEK_SET) == -EFAULT,
		    "files.llseek.efault_%s", BADNAME[b]);
		SC(__NR_lseek, fd, 5, SEEK_SET);
	}
	CHECK("files.rw.efault_contents_unchanged", file_sig(in("rw")) == before);
	SC(__NR_close, fd);
	CHECK("files.close.ebadf_after_close", SC(__NR_close, fd) == -EBADF);
	CHECK("files.close.ebadf", SC(__NR_close, -5) == -EBADF);
}

/* ---- preadv, pwritev, preadv2, pwritev2 --------------------------------
 * The offset goes in two registers (low, high); the 2 calls take RWF_*
 * flags and offset -1 for "at the file position".  The same EFAULT and
 * partial-iovec rules as readv/writev.  A write at 4 GiB + 5 proves the
 * high half is used.  Leaves base/pwv.dat ("Hello Vector tail!") and, on
 * /st, base/pwv_big.dat for the host to read with debugfs. */
static void test_rwv(const char *base)
{
	char buf[64], a[8], b[8];
	struct iovec iov[2], rv[2];
	long fd, r;
	char kept[300];

	CHECK("files.rwv.setup", make_file(in("rwv"), "0123456789") == 0);
	fd = SC(__NR_open, in("rwv"), O_RDWR);
	SC(__NR_lseek, fd, 1, SEEK_SET);
	iov[0].iov_base = "AB"; iov[0].iov_len = 2;
	iov[1].iov_base = "CDE"; iov[1].iov_len = 3;
	r = SC(__NR_pwritev, fd, iov, 2, 3, 0);
	CHECK("files.pwritev.result", r == 5 && cur(fd) == 1);
	CHECK("files.pwritev.contents", SC(__NR_pread64, fd, buf, 16, 0, 0) == 10 &&
	      !memcmp(buf, "012ABCDE89", 10));
	rv[0].iov_base = a; rv[0].iov_len = 2;
	rv[1].iov_base = b; rv[1].iov_len = 4;
	r = SC(__NR_preadv, fd, rv, 2, 6, 0);
	CHECK("files.preadv.short_at_eof", r == 4 && !memcmp(a, "DE", 2) && !memcmp(b, "89", 2) &&
	      cur(fd) == 1);
	CHECK("files.preadv.eof", SC(__NR_preadv, fd, rv, 2, 10, 0) == 0);
	CHECK("files.preadv.high_half_eof", SC(__NR_preadv, fd, rv, 2, 0, 1) == 0);
	CHECK("files.preadv.einval_negative", SC(__NR_preadv, fd, rv, 2, -1, -1) == -EINVAL);
	CHECK("files.pwritev.einval_negative", SC(__NR_pwritev, fd, iov, 2, 0, 0x80000000) == -EINVAL);
	CHECK("files.pwritev.efbig", SC(__NR_pwritev, fd, iov, 2, 0, 0x7fffff00) == -EFBIG);
	CHECK("files.preadv.ebadf", SC(__NR_preadv, 99, rv, 2, 0, 0) == -EBADF);
	CHECK("files.preadv.einval_count", SC(__NR_preadv, fd, rv, -1, 0, 0) == -EINVAL);
	CHECK("files.pwritev.einval_toomany", SC(__NR_pwritev, fd, iov, 1025, 0, 0) == -EINVAL);
	CHECK("files.pwritev.zero_iovcnt", SC(__NR_pwritev, fd, iov, 0, 0, 0) == 0);

	/* *v2: offset -1 is the file position, and it moves */
	rv[0].iov_len = 2; rv[1].iov_len = 1;
	r = SC(__NR_preadv2, fd, rv, 2, -1, -1, 0);
	CHECK("files.preadv2.at_fpos", r == 3 && !memcmp(a, "12", 2) && b[0] == 'A' && cur(fd) == 4);
	r = SC(__NR_preadv2, fd, rv, 2, 0, 0, 0);
	CHECK("files.preadv2.at_offset", r == 3 && !memcmp(a, "01", 2) && b[0] == '2' && cur(fd) == 4);
	CHECK("files.preadv2.einval_minus2", SC(__NR_preadv2, fd, rv, 2, -2, -1, 0) == -EINVAL);
	iov[0].iov_base = "x"; iov[0].iov_len = 1;
	r = SC(__NR_pwritev2, fd, iov, 1, -1, -1, 0);
	CHECK("files.pwritev2.at_fpos", r == 1 && cur(fd) == 5);
	CHECK("files.pwritev2.contents", SC(__NR_pread64, fd, buf, 16, 0, 0) == 10 &&
	      !memcmp(buf, "012AxCDE89", 10));
	/* flags: HIPRI accepted (ignored), DSYNC/SYNC write; NOWAIT on a write
	 * and unknown ones (0x100 does not exist) -EOPNOTSUPP with nothing
	 * written; a 0-byte transfer returns 0 before the flags are looked at
	 * (Linux's order). */
	iov[0].iov_base = "h"; iov[0].iov_len = 1;
	CHECK("files.preadv2.hipri", SC(__NR_preadv2, fd, rv, 1, 0, 0, RWF_HIPRI) == 2);
	CHECK("files.pwritev2.hipri", SC(__NR_pwritev2, fd, iov, 1, 0, 0, RWF_HIPRI) == 1);
	iov[0].iov_base = "d";
	CHECK("files.pwritev2.dsync", SC(__NR_pwritev2, fd, iov, 1, 1, 0, RWF_DSYNC) == 1);
	iov[0].iov_base = "s";
	CHECK("files.pwritev2.sync", SC(__NR_pwritev2, fd, iov, 1, 2, 0, RWF_SYNC) == 1);
	iov[0].iov_base = "!";
	CHECK("files.pwritev2.eopnotsupp_nowait",
	      SC(__NR_pwritev2, fd, iov, 1, 0, 0, RWF_NOWAIT) == -EOPNOTSUPP);
	CHECK("files.preadv2.eopnotsupp_unknown",
	      SC(__NR_preadv2, fd, rv, 1, 0, 0, 0x100) == -EOPNOTSUPP);
	CHECK("files.pwritev2.eopnotsupp_unknown",
	      SC(__NR_pwritev2, fd, iov, 1, -1, -1, 0x100) == -EOPNOTSUPP && cur(fd) == 5);
	CHECK("files.pwritev2.zero_len_before_flags", SC(__NR_pwritev2, fd, iov, 0, 0, 0, 0x100) == 0);
	CHECK("files.pwritev2.flags_contents", SC(__NR_pread64, fd, buf, 16, 0, 0) == 10 &&
	      !memcmp(buf, "hdsAxCDE89", 10));
	/* RWF_APPEND: at end of file whatever the offset; with an explicit
	 * offset f_pos stays, with -1 it moves to the new end */
	iov[0].iov_base = "+"; iov[0].iov_len = 1;
	r = SC(__NR_pwritev2, fd, iov, 1, 0, 0, RWF_APPEND);
	CHECK("files.pwritev2.append_offset", r == 1 && cur(fd) == 5);
	r = SC(__NR_pwritev2, fd, iov, 1, -1, -1, RWF_APPEND);
	CHECK("files.pwritev2.append_fpos", r == 1 && cur(fd) == 12);
	CHECK("files.pwritev2.append_contents", SC(__NR_pread64, fd, buf, 16, 0, 0) == 12 &&
	      !memcmp(buf, "hdsAxCDE89++", 12));
	/* not seekable: ESPIPE for an explicit offset, -1 works as readv */
	int pfd[2];
	if (SC(__NR_pipe, pfd) == 0) {
		CHECK("files.pwritev.espipe", SC(__NR_pwritev, pfd[1], iov, 1, 0, 0) == -ESPIPE);
		CHECK("files.pwritev2.pipe_fpos", SC(__NR_pwritev2, pfd[1], iov, 1, -1, -1, 0) == 1);
		CHECK("files.preadv2.pipe_fpos", SC(__NR_preadv2, pfd[0], rv, 1, -1, -1, 0) == 1 &&
		      a[0] == '+');
		CHECK("files.preadv.espipe", SC(__NR_preadv, pfd[0], rv, 1, 0, 0) == -ESPIPE);
		SC(__NR_close, pfd[0]);
		SC(__NR_close, pfd[1]);
	} else {
		CHECK("files.rwv.pipe", 0);
	}

	/* EFAULT with nothing changed; a good iovec then a bad one */
	unsigned long before = file_sig(in("rwv"));
	SC(__NR_lseek, fd, 5, SEEK_SET);
	for (int i = 0; i < NBAD; i++) {
		void *bp = BADPTR[i];
		struct iovec biov[2] = { { "zz", 2 }, { bp, 4 } };
		struct iovec fiov[1] = { { bp, 4 } };
		struct iovec briov[2] = { { a, 2 }, { bp, 4 } };
		CKF(SC(__NR_pwritev, fd, bp, 2, 0, 0) == -EFAULT, "files.pwritev.efault_iovarray_%s", BADNAME[i]);
		CKF(SC(__NR_preadv, fd, bp, 2, 0, 0) == -EFAULT, "files.preadv.efault_iovarray_%s", BADNAME[i]);
		CKF(SC(__NR_pwritev2, fd, bp, 2, -1, -1, 0) == -EFAULT, "files.pwritev2.efault_iovarray_%s", BADNAME[i]);
		CKF(SC(__NR_preadv2, fd, bp, 2, 0, 0, 0) == -EFAULT, "files.preadv2.efault_iovarray_%s", BADNAME[i]);
		CKF(SC(__NR_pwritev, fd, fiov, 1, 0, 0) == -EFAULT, "files.pwritev.efault_base_%s", BADNAME[i]);
		CKF(SC(__NR_preadv, fd, fiov, 1, 0, 0) == -EFAULT, "files.preadv.efault_base_%s", BADNAME[i]);
		CKF(SC(__NR_pwritev2, fd, fiov, 1, -1, -1, 0) == -EFAULT, "files.pwritev2.efault_base_%s", BADNAME[i]);
		CKF(SC(__NR_preadv2, fd, fiov, 1, -1, -1, 0) == -EFAULT, "files.preadv2.efault_base_%s", BADNAME[i]);
		CKF(cur(fd) == 5, "files.rwv.efault_offset_unchanged_%s", BADNAME[i]);
		/* partial: a user address gives the first iovec's bytes; a
		 * kernel address is refused at import, nothing done */
		if (bp == BADPTR[1]) {
			CKF(SC(__NR_pwritev, fd, biov, 2, 0, 0) == -EFAULT,
			    "files.pwritev.second_kernel_efault_%s", BADNAME[i]);
			CKF(SC(__NR_pwritev2, fd, biov, 2, -1, -1, 0) == -EFAULT && cur(fd) == 5,
			    "files.pwritev2.second_kernel_efault_%s", BADNAME[i]);
			CKF(SC(__NR_preadv, fd, briov, 2, 0, 0) == -EFAULT,
			    "files.preadv.second_kernel_efault_%s", BADNAME[i]);
		} else {
			CKF(SC(__NR_pwritev, fd, biov, 2, 3, 0) == 2 && cur(fd) == 5,
			    "files.pwritev.partial_%s", BADNAME[i]);
			CKF(SC(__NR_pwritev2, fd, biov, 2, -1, -1, 0) == 2 && cur(fd) == 7,
			    "files.pwritev2.partial_%s", BADNAME[i]);
			a[0] = a[1] = 0;
			CKF(SC(__NR_preadv, fd, briov, 2, 3, 0) == 2 && !memcmp(a, "zz", 2),
			    "files.preadv.partial_%s", BADNAME[i]);
			a[0] = a[1] = 0;
			CKF(SC(__NR_preadv2, fd, briov, 2, -1, -1, 0) == 2 && cur(fd) == 9 &&
			    !memcmp(a, "E8", 2), "files.preadv2.partial_%s", BADNAME[i]);
			SC(__NR_pwritev, fd, (&(struct iovec){ "AxCD", 4 }), 1, 3, 0); /* put back */
			SC(__NR_lseek, fd, 5, SEEK_SET);
		}
	}
	CHECK("files.rwv.efault_contents_unchanged", file_sig(in("rwv")) == before);
	SC(__NR_close, fd);
	SC(__NR_unlink, in("rwv"));

	/* the kept file, for debugfs on the host */
	snprintf(kept, sizeof(kept), "%s/pwv.dat", base);
	fd = SC(__NR_open, kept, O_RDWR | O_CREAT | O_TRUNC, 0644);
	iov[0].iov_base = "hello "; iov[0].iov_len = 6;
	iov[1].iov_base = "vector"; iov[1].iov_len = 6;
	CHECK("files.pwv.write", SC(__NR_pwritev, fd, iov, 2, 0, 0) == 12);
	iov[0].iov_base = " tail!"; iov[0].iov_len = 6;
	CHECK("files.pwv.append", SC(__NR_pwritev2, fd, iov, 1, 0, 0, RWF_APPEND) == 6);
	iov[0].iov_base = "V"; iov[0].iov_len = 1;
	CHECK("files.pwv.middle", SC(__NR_pwritev, fd, iov, 1, 6, 0) == 1);
	iov[0].iov_base = "H";
	CHECK("files.pwv.dsync_fpos", SC(__NR_pwritev2, fd, iov, 1, -1, -1, RWF_DSYNC) == 1 &&
	      cur(fd) == 1);
	CHECK("files.pwv.readback", SC(__NR_pread64, fd, buf, 64, 0, 0) == 18 &&
	      !memcmp(buf, "Hello Vector tail!", 18));
	SC(__NR_close, fd);
	/* 4 GiB + 5: the high half of the offset (O_LARGEFILE, as libc's open
	 * passes: without it a write stops at 2 GiB - 1) */
	snprintf(kept, sizeof(kept), "%s/pwv_big.dat", base);
	fd = SC(__NR_open, kept, O_RDWR | O_CREAT | O_TRUNC | O_LARGEFILE, 0644);
	iov[0].iov_base = "HIGH"; iov[0].iov_len = 4;
	r = SC(__NR_pwritev, fd, iov, 1, 5, 1);
	CHECK("files.pwv.high_write", r == 4);
	memset(a, 0, sizeof(a));
	rv[0].iov_base = a; rv[0].iov_len = 8;
	CHECK("files.pwv.high_read", SC(__NR_preadv, fd, rv, 1, 4, 1) == 5 &&
	      !memcmp(a, "\0HIGH", 5));
	CHECK("files.pwv.high_pread64_low_half", SC(__NR_pread64, fd, buf, 4, 5, 0) == 4 &&
	      !memcmp(buf, "\0\0\0\0", 4));
	if (strcmp(base, "/st") != 0)          /* only ext2's copy is checked on the host */
		SC(__NR_unlink, kept);
	SC(__NR_close, fd);
}

/* ---- open, openat, close, dup, dup2, pipe, fcntl, ioctl ----------------- */
static void test_fds(void)
{
	long fd, fd2, r;
	int pfd[2] = { -1, -1 };
	char buf[16];
	int low, low0 = lowest_fd();

	make_file(in("o"), "hello");
	CHECK("files.open.enoent", SC(__NR_open, in("nope"), O_RDONLY) == -ENOENT);
	CHECK("files.open.eexist", SC(__NR_open, in("o"), O_RDWR | O_CREAT | O_EXCL, 0644) == -EEXIST);
	CHECK("files.open.eisdir", SC(__NR_open, D, O_RDWR) == -EISDIR);
	CHECK("files.open.enotdir", SC(__NR_open, in("o/x"), O_RDONLY) == -ENOTDIR);
	CHECK("files.open.enotdir_flag", SC(__NR_open, in("o"), O_RDONLY | O_DIRECTORY) == -ENOTDIR);
	CHECK("files.open.enoent_empty", SC(__NR_open, "", O_RDONLY) == -ENOENT);
	fd = SC(__NR_open, in("o"), O_RDONLY);
	CHECK("files.open.rdonly", fd >= 0);
	CHECK("files.write.ebadf_rdonly", SC(__NR_write, fd, "x", 1) == -EBADF);
	SC(__NR_close, fd);
	fd = SC(__NR_open, in("o"), O_WRONLY);
	CHECK("files.read.ebadf_wronly", SC(__NR_read, fd, buf, 1) == -EBADF);
	SC(__NR_close, fd);
	fd = SC(__NR_open, in("o"), O_WRONLY | O_APPEND);
	CHECK("files.open.append", SC(__NR_write, fd, "!", 1) == 1 && file_sig(in("o")) != 0 &&
	      SC(__NR_lseek, fd, 0, SEEK_CUR) == 6);
	SC(__NR_close, fd);
	fd = SC(__NR_open, in("o"), O_RDWR | O_TRUNC);
	CHECK("files.open.trunc", fd >= 0 && SC(__NR_lseek, fd, 0, SEEK_END) == 0);
	SC(__NR_close, fd);
	make_file(in("o"), "hello");

	/* openat: relative to a directory fd, AT_FDCWD, and a non-directory fd */
	long dfd = SC(__NR_open, D, O_RDONLY | O_DIRECTORY);
	CHECK("files.open.directory", dfd >= 0);
	fd = SC(__NR_openat, dfd, "o", O_RDONLY);
	CHECK("files.openat.dirfd", fd >= 0 && SC(__NR_read, fd, buf, 5) == 5 && !memcmp(buf, "hello", 5));
	fd2 = SC(__NR_openat, fd, "o", O_RDONLY);
	CHECK("files.openat.enotdir", fd2 == -ENOTDIR);
	CHECK("files.openat.ebadf", SC(__NR_openat, 77, "o", O_RDONLY) == -EBADF);
	fd2 = SC(__NR_openat, AT_FDCWD, in("o"), O_RDONLY);
	CHECK("files.openat.fdcwd", fd2 >= 0);
	SC(__NR_close, fd2);
	CHECK("files.openat.absolute_ignores_dirfd", (fd2 = SC(__NR_openat, 77, in("o"), O_RDONLY)) >= 0);
	SC(__NR_close, fd2);

	/* dup, dup2: shared offset, lowest fd, EBADF */
	SC(__NR_lseek, fd, 1, SEEK_SET);
	fd2 = SC(__NR_dup, fd);
	CHECK("files.dup.result", fd2 >= 0 && fd2 != fd);
	CHECK("files.dup.shared_offset", SC(__NR_read, fd2, buf, 2) == 2 && cur(fd) == 3);
	CHECK("files.dup.ebadf", SC(__NR_dup, 99) == -EBADF);
	CHECK("files.dup2.result", SC(__NR_dup2, fd, 20) == 20 && cur(20) == 3);
	CHECK("files.dup2.same", SC(__NR_dup2, fd, fd) == fd);
	CHECK("files.dup2.ebadf", SC(__NR_dup2, 99, 21) == -EBADF && SC(__NR_close, 21) == -EBADF);
	CHECK("files.dup2.ebadf_range", SC(__NR_dup2, fd, -1) == -EBADF);
	SC(__NR_close, 20);
	SC(__NR_close, fd2);

	/* fcntl: F_GETFD/F_SETFD, F_GETFL/F_SETFL, F_DUPFD */
	CHECK("files.fcntl.getfd", SC(__NR_fcntl, fd, F_GETFD) == 0);
	CHECK("files.fcntl.setfd", SC(__NR_fcntl, fd, F_SETFD, FD_CLOEXEC) == 0 &&
	      SC(__NR_fcntl, fd, F_GETFD) == FD_CLOEXEC);
	CHECK("files.fcntl.getfl", (SC(__NR_fcntl, fd, F_GETFL) & O_ACCMODE) == O_RDONLY);
	CHECK("files.fcntl.setfl", SC(__NR_fcntl, fd, F_SETFL, O_APPEND) == 0 &&
	      (SC(__NR_fcntl, fd, F_GETFL) & O_APPEND));
	r = SC(__NR_fcntl, fd, F_DUPFD, 30);
	CHECK("files.fcntl.dupfd", r == 30 && SC(__NR_fcntl, 30, F_GETFD) == 0);
	SC(__NR_close, 30);
	CHECK("files.fcntl.ebadf", SC(__NR_fcntl, 99, F_GETFD) == -EBADF);
	CHECK("files.fcntl.einval", SC(__NR_fcntl, fd, 9999) == -EINVAL);

	/* pipe: data flows, ESPIPE on lseek, EOF after the writer closes */
	CHECK("files.pipe.result", SC(__NR_pipe, pfd) == 0 && pfd[0] >= 0 && pfd[1] >= 0);
	CHECK("files.pipe.flow", SC(__NR_write, pfd[1], "abc", 3) == 3 &&
	      SC(__NR_read, pfd[0], buf, 10) == 3 && !memcmp(buf, "abc", 3));
	CHECK("files.lseek.espipe", SC(__NR_lseek, pfd[0], 0, SEEK_SET) == -ESPIPE);
	CHECK("files.pread64.espipe", SC(__NR_pread64, pfd[0], buf, 1, 0, 0) == -ESPIPE);
	CHECK("files.pwrite64.espipe", SC(__NR_pwrite64, pfd[1], buf, 1, 0, 0) == -ESPIPE);
	SC(__NR_close, pfd[1]);
	CHECK("files.pipe.eof", SC(__NR_read, pfd[0], buf, 10) == 0);
	SC(__NR_close, pfd[0]);

	/* ioctl: tty basics on /dev/console; ENOTTY on a regular file */
	long tty = SC(__NR_open, "/dev/console", O_RDWR);
	unsigned char termios[64];
	unsigned short ws[4];
	CHECK("files.open.console", tty >= 0);
	memset(termios, 0xee, sizeof(termios));
	CHECK("files.ioctl.tcgets", SC(__NR_ioctl, tty, TCGETS, termios) == 0 && termios[40] == 0xee);
	CHECK("files.ioctl.tcsets_roundtrip", SC(__NR_ioctl, tty, TCSETS, termios) == 0);
	CHECK("files.ioctl.tiocgwinsz", SC(__NR_ioctl, tty, TIOCGWINSZ, ws) == 0 && ws[0] > 0 && ws[1] > 0);
	CHECK("files.ioctl.enotty_file", SC(__NR_ioctl, fd, TCGETS, termios) == -ENOTTY);
	CHECK("files.ioctl.ebadf", SC(__NR_ioctl, 99, TCGETS, termios) == -EBADF);

	/* ioctl: the generic requests sys_ioctl answers for any file.
	 * FIOCLEX/FIONCLEX are the fd's flag (F_GETFD; a dup has its own),
	 * FIONBIO the open file's (F_GETFL; shared by a dup). */
	int on = 1, off = 0;
	SC(__NR_fcntl, fd, F_SETFD, 0);
	long fd3 = SC(__NR_dup, fd);
	CHECK("files.ioctl.fioclex", SC(__NR_ioctl, fd, FIOCLEX) == 0 &&
	      SC(__NR_fcntl, fd, F_GETFD) == FD_CLOEXEC && SC(__NR_fcntl, fd3, F_GETFD) == 0);
	CHECK("files.ioctl.fioclex_twice", SC(__NR_ioctl, fd, FIOCLEX) == 0 &&
	      SC(__NR_fcntl, fd, F_GETFD) == FD_CLOEXEC);
	CHECK("files.ioctl.fionclex", SC(__NR_ioctl, fd, FIONCLEX) == 0 &&
	      SC(__NR_fcntl, fd, F_GETFD) == 0);
	CHECK("files.ioctl.fioclex_ebadf", SC(__NR_ioctl, 99, FIOCLEX) == -EBADF &&
	      SC(__NR_ioctl, 99, FIONCLEX) == -EBADF);
	long fl = SC(__NR_fcntl, fd, F_GETFL);
	CHECK("files.ioctl.fionbio_on", !(fl & O_NONBLOCK) && SC(__NR_ioctl, fd, FIONBIO, &on) == 0 &&
	      SC(__NR_fcntl, fd, F_GETFL) == (fl | O_NONBLOCK) &&
	      SC(__NR_fcntl, fd3, F_GETFL) == (fl | O_NONBLOCK));
	CHECK("files.ioctl.fionbio_off", SC(__NR_ioctl, fd3, FIONBIO, &off) == 0 &&
	      SC(__NR_fcntl, fd, F_GETFL) == fl);
	for (int b = 0; b < NBAD; b++) {
		SC(__NR_ioctl, fd, FIONBIO, &on);
		CKF(SC(__NR_ioctl, fd, FIONBIO, BADPTR[b]) == -EFAULT &&
		    SC(__NR_fcntl, fd, F_GETFL) == (fl | O_NONBLOCK),
		    "files.ioctl.fionbio_efault_%s", BADNAME[b]);
	}
	SC(__NR_ioctl, fd, FIONBIO, &off);
	SC(__NR_close, fd3);
	/* What O_NONBLOCK set by FIONBIO does: an empty pipe's read gives
	 * EAGAIN instead of sleeping; cleared again, a write makes it readable. */
	CHECK("files.ioctl.fionbio_pipe", SC(__NR_pipe, pfd) == 0 &&
	      SC(__NR_ioctl, pfd[0], FIONBIO, &on) == 0 &&
	      SC(__NR_read, pfd[0], buf, 10) == -EAGAIN &&
	      SC(__NR_ioctl, pfd[0], FIONBIO, &off) == 0 &&
	      SC(__NR_write, pfd[1], "z", 1) == 1 && SC(__NR_read, pfd[0], buf, 10) == 1);
	SC(__NR_close, pfd[0]);
	SC(__NR_close, pfd[1]);

	/* EFAULT: bad path / buffer pointers, nothing changed, no fd used up */
	low = lowest_fd();
	unsigned long dsig = dir_sig(D);
	for (int b = 0; b < NBAD; b++) {
		void *bp = BADPTR[b];
		CKF(SC(__NR_open, bp, O_RDONLY) == -EFAULT, "files.open.efault_%s", BADNAME[b]);
		CKF(SC(__NR_open, bp, O_RDWR | O_CREAT, 0644) == -EFAULT, "files.open.efault_creat_%s", BADNAME[b]);
		CKF(SC(__NR_openat, dfd, bp, O_RDONLY) == -EFAULT, "files.openat.efault_%s", BADNAME[b]);
		CKF(SC(__NR_pipe, bp) == -EFAULT, "files.pipe.efault_%s", BADNAME[b]);
		CKF(SC(__NR_ioctl, tty, TCGETS, bp) == -EFAULT, "files.ioctl.tcgets_efault_%s", BADNAME[b]);
		CKF(SC(__NR_ioctl, tty, TCSETS, bp) == -EFAULT, "files.ioctl.tcsets_efault_%s", BADNAME[b]);
		CKF(SC(__NR_ioctl, tty, TIOCGWINSZ, bp) == -EFAULT, "files.ioctl.tiocgwinsz_efault_%s", BADNAME[b]);
		CKF(lowest_fd() == low, "files.efault_no_fd_leak_%s", BADNAME[b]);
	}
	CHECK("files.open.efault_dir_unchanged", dir_sig(D) == dsig);
	SC(__NR_close, tty);
	SC(__NR_close, fd);
	SC(__NR_close, dfd);
	CHECK("files.close.no_leak", lowest_fd() == low0);
}

/* ---- stat64, lstat64, fstat64, fstatat64, statx ------------------------- */
static void test_stat(void)
{
	struct stat st, st2;
	unsigned char sx[256];
	long fd;

	make_file(in("s"), "1234567");
	SC(__NR_unlink, in("sl"));
	SC(__NR_symlink, "s", in("sl"));
	CHECK("files.stat64.regular", SC(__NR_stat64, in("s"), &st) == 0 && S_ISREG(st.st_mode) &&
	      st.st_size == 7 && st.st_nlink == 1);
	CHECK("files.stat64.follows", SC(__NR_stat64, in("sl"), &st2) == 0 && st2.st_ino == st.st_ino);
	CHECK("files.lstat64.link", SC(__NR_lstat64, in("sl"), &st2) == 0 && S_ISLNK(st2.st_mode) &&
	      st2.st_size == 1);
	CHECK("files.stat64.dir", SC(__NR_stat64, D, &st2) == 0 && S_ISDIR(st2.st_mode));
	CHECK("files.stat64.enoent", SC(__NR_stat64, in("nope"), &st2) == -ENOENT);
	CHECK("files.stat64.enotdir", SC(__NR_stat64, in("s/x"), &st2) == -ENOTDIR);
	fd = SC(__NR_open, in("s"), O_RDONLY);
	CHECK("files.fstat64.result", SC(__NR_fstat64, fd, &st2) == 0 && st2.st_ino == st.st_ino &&
	      st2.st_size == 7);
	CHECK("files.fstat64.ebadf", SC(__NR_fstat64, 99, &st2) == -EBADF);
	long dfd = SC(__NR_open, D, O_RDONLY | O_DIRECTORY);
	CHECK("files.fstatat64.dirfd", SC(__NR_fstatat64, dfd, "s", &st2, 0) == 0 &&
	      st2.st_ino == st.st_ino);
	CHECK("files.fstatat64.nofollow", SC(__NR_fstatat64, dfd, "sl", &st2, AT_SYMLINK_NOFOLLOW) == 0 &&
	      S_ISLNK(st2.st_mode));
	CHECK("files.fstatat64.einval_flags", SC(__NR_fstatat64, dfd, "s", &st2, 0x12345678) == -EINVAL);
	CHECK("files.fstatat64.ebadf", SC(__NR_fstatat64, 99, "s", &st2, 0) == -EBADF);
	/* statx: struct statx: stx_mask u32 @0, stx_mode u16 @28, stx_ino u64 @32, stx_size u64 @40 */
	memset(sx, 0, sizeof(sx));
	CHECK("files.statx.result", SC(__NR_statx, dfd, "s", 0, 0x7ff, sx) == 0 &&
	      *(unsigned long long *)(sx + 40) == 7 && *(unsigned long long *)(sx + 32) == st.st_ino &&
	      S_ISREG(*(unsigned short *)(sx + 28)));
	CHECK("files.statx.enoent", SC(__NR_statx, dfd, "nope", 0, 0x7ff, sx) == -ENOENT);
	for (int b = 0; b < NBAD; b++) {
		void *bp = BADPTR[b];
		CKF(SC(__NR_stat64, bp, &st2) == -EFAULT, "files.stat64.efault_path_%s", BADNAME[b]);
		CKF(SC(__NR_stat64, in("s"), bp) == -EFAULT, "files.stat64.efault_buf_%s", BADNAME[b]);
		CKF(SC(__NR_lstat64, bp, &st2) == -EFAULT, "files.lstat64.efault_path_%s", BADNAME[b]);
		CKF(SC(__NR_lstat64, in("sl"), bp) == -EFAULT, "files.lstat64.efault_buf_%s", BADNAME[b]);
		CKF(SC(__NR_fstat64, fd, bp) == -EFAULT, "files.fstat64.efault_%s", BADNAME[b]);
		CKF(SC(__NR_fstatat64, dfd, bp, &st2, 0) == -EFAULT, "files.fstatat64.efault_path_%s", BADNAME[b]);
		CKF(SC(__NR_fstatat64, dfd, "s", bp, 0) == -EFAULT, "files.fstatat64.efault_buf_%s", BADNAME[b]);
		CKF(SC(__NR_statx, dfd, bp, 0, 0x7ff, sx) == -EFAULT, "files.statx.efault_path_%s", BADNAME[b]);
		CKF(SC(__NR_statx, dfd, "s", 0, 0x7ff, bp) == -EFAULT, "files.statx.efault_buf_%s", BADNAME[b]);
	}
	SC(__NR_close, fd);
	SC(__NR_close, dfd);
}

/* ---- statfs (99), fstatfs (100), statfs64 (268), fstatfs64 (269) ------ */
static void test_statfs(void)
{
	struct statfs s32;
	struct statfs64 s, s2;
	static char block[4096];

	CHECK("files.statfs64.result", SC(__NR_statfs64, D, sizeof s, &s) == 0 &&
	      (s.f_type == 0xEF53 || s.f_type == 0x858458f6) && s.f_bsize >= 1024 &&
	      s.f_bfree <= s.f_blocks && s.f_bavail <= s.f_bfree && s.f_namelen == 255 &&
	      s.f_ffree <= s.f_files);
	CHECK("files.statfs.agrees", SC(__NR_statfs, D, &s32) == 0 && s32.f_type == s.f_type &&
	      s32.f_blocks == s.f_blocks && s32.f_files == s.f_files && s32.f_bsize == s.f_bsize);
	long fd = SC(__NR_open, D, O_RDONLY | O_DIRECTORY);
	CHECK("files.fstatfs64.same_fs", SC(__NR_fstatfs64, fd, sizeof s2, &s2) == 0 &&
	      s2.f_type == s.f_type && s2.f_blocks == s.f_blocks &&
	      s2.f_fsid.val[0] == s.f_fsid.val[0]);
	CHECK("files.fstatfs.result", SC(__NR_fstatfs, fd, &s32) == 0 && s32.f_type == s.f_type);
	SC(__NR_close, fd);
	CHECK("files.statfs64.einval_size", SC(__NR_statfs64, D, sizeof s - 4, &s2) == -EINVAL);
	CHECK("files.fstatfs64.ebadf", SC(__NR_fstatfs64, 99, sizeof s2, &s2) == -EBADF);
	CHECK("files.statfs64.enoent", SC(__NR_statfs64, in("nope"), sizeof s2, &s2) == -ENOENT);
	CHECK("files.statfs64.proc", SC(__NR_statfs64, "/proc", sizeof s2, &s2) == 0 &&
	      s2.f_type == 0x9fa0 && s2.f_blocks == 0);
	if (s.f_type == 0xEF53) {               /* ext2: 64 KiB on disk cost blocks */
		fd = SC(__NR_open, in("big"), O_CREAT | O_WRONLY | O_TRUNC, 0644);
		for (int i = 0; i < 16; i++)
			SC(__NR_write, fd, block, sizeof block);
		SC(__NR_fsync, fd);
		SC(__NR_close, fd);
		CHECK("files.statfs64.ext2_blocks_used", SC(__NR_statfs64, D, sizeof s2, &s2) == 0 &&
		      s2.f_bfree + 65536 / s.f_bsize <= s.f_bfree && s2.f_ffree == s.f_ffree - 1);
		SC(__NR_unlink, in("big"));
	}
	for (int b = 0; b < NBAD; b++) {
		CKF(SC(__NR_statfs64, BADPTR[b], sizeof s2, &s2) == -EFAULT,
		    "files.statfs64.efault_path_%s", BADNAME[b]);
		CKF(SC(__NR_statfs64, D, sizeof s2, BADPTR[b]) == -EFAULT,
		    "files.statfs64.efault_buf_%s", BADNAME[b]);
		CKF(SC(__NR_statfs, D, BADPTR[b]) == -EFAULT, "files.statfs.efault_buf_%s", BADNAME[b]);
		CKF(SC(__NR_fstatfs64, 0, sizeof s2, BADPTR[b]) == -EFAULT,
		    "files.fstatfs64.efault_buf_%s", BADNAME[b]);
	}
}

/* ---- utimensat (320) and utimensat_time64 (412) ----------------------- */
static void test_utimes(void)
{
	struct stat st;
	unsigned long t0 = (unsigned long)SC(__NR_time, 0);
	struct { long sec, nsec; } ts[2] = { { 1000000000, 0 }, { 1234567890, 5 } };
	struct { long long sec; long long nsec; } ts64[2] = { { 1111111111, 0 }, { 0, UTIME_OMIT } };

	make_file(in("u"), "x");
	CHECK("files.utimensat.times", SC(__NR_utimensat, AT_FDCWD, in("u"), ts, 0) == 0 &&
	      SC(__NR_stat64, in("u"), &st) == 0 && st.st_atime == 1000000000 &&
	      st.st_mtime == 1234567890 && st.st_ctime >= t0);
	CHECK("files.utimensat_time64.omit", SC(__NR_utimensat_time64, AT_FDCWD, in("u"), ts64, 0) == 0 &&
	      SC(__NR_stat64, in("u"), &st) == 0 && st.st_atime == 1111111111 &&
	      st.st_mtime == 1234567890);
	CHECK("files.utimensat.null_is_now", SC(__NR_utimensat, AT_FDCWD, in("u"), NULL, 0) == 0 &&
	      SC(__NR_stat64, in("u"), &st) == 0 && st.st_mtime >= t0 && st.st_atime >= t0);
	long fd = SC(__NR_open, in("u"), O_RDONLY);
	CHECK("files.utimensat.futimens", SC(__NR_utimensat, fd, NULL, ts, 0) == 0 &&
	      SC(__NR_fstat64, fd, &st) == 0 && st.st_mtime == 1234567890);
	SC(__NR_close, fd);
	int pfd[2];                             /* a pipe's inode has no inode_operations */
	CHECK("files.utimensat.futimens_pipe", SC(__NR_pipe, pfd) == 0 &&
	      SC(__NR_utimensat, pfd[0], NULL, ts, 0) == 0 &&
	      SC(__NR_fstat64, pfd[0], &st) == 0 && st.st_mtime == 1234567890);
	SC(__NR_close, pfd[0]);
	SC(__NR_close, pfd[1]);
	ts[0].nsec = 1000000000;
	CHECK("files.utimensat.einval_nsec", SC(__NR_utimensat, AT_FDCWD, in("u"), ts, 0) == -EINVAL);
	ts[0].nsec = 0;
	CHECK("files.utimensat.einval_flags", SC(__NR_utimensat, AT_FDCWD, in("u"), ts, 0x4) == -EINVAL);
	CHECK("files.utimensat.enoent", SC(__NR_utimensat, AT_FDCWD, in("nope"), ts, 0) == -ENOENT);
	CHECK("files.utimensat.ebadf", SC(__NR_utimensat, 99, NULL, ts, 0) == -EBADF);
	CHECK("files.utimensat.unchanged_after_errors", SC(__NR_stat64, in("u"), &st) == 0 &&
	      st.st_mtime == 1234567890);
	for (int b = 1; b < NBAD; b++) {        /* a NULL path is futimens */
		CKF(SC(__NR_utimensat, AT_FDCWD, BADPTR[b], ts, 0) == -EFAULT,
		    "files.utimensat.efault_path_%s", BADNAME[b]);
		CKF(SC(__NR_utimensat, AT_FDCWD, in("u"), BADPTR[b], 0) == -EFAULT,
		    "files.utimensat.efault_times_%s", BADNAME[b]);
	}
	SC(__NR_unlink, in("u"));
}

/* ---- getdents64, mkdir, rmdir, unlink, rename, link, symlink, readlink -- */
static int dir_has(const char *dir, const char *name)
{
	static char buf[2048];
	long fd = SC(__NR_open, dir, O_RDONLY | O_DIRECTORY), n;
	int found = 0;

	if (fd < 0)
		return -1;
	while ((n = SC(__NR_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n; off += *(unsigned short *)(buf + off + 16))
			if (!strcmp(buf + off + 19, name))
				found = 1;
	SC(__NR_close, fd);
	return found;
}

static void test_dirs(void)
{
	struct stat st;
	char buf[64];
	char dbuf[512];
	long fd, n;

	SC(__NR_mkdir, in("d"), 0755);
	CHECK("files.mkdir.exists", SC(__NR_stat64, in("d"), &st) == 0 && S_ISDIR(st.st_mode));
	CHECK("files.mkdir.eexist", SC(__NR_mkdir, in("d"), 0755) == -EEXIST);
	CHECK("files.mkdir.enoent", SC(__NR_mkdir, in("no/d"), 0755) == -ENOENT);
	make_file(in("d/f"), "x");
	CHECK("files.mkdir.enotdir", SC(__NR_mkdir, in("d/f/g"), 0755) == -ENOTDIR);
	CHECK("files.getdents64.sees", dir_has(in2("d"), "f") == 1 && dir_has(in2("d"), ".") == 1 &&
	      dir_has(in2("d"), "..") == 1);
	fd = SC(__NR_open, in("d"), O_RDONLY | O_DIRECTORY);
	CHECK("files.getdents64.einval_small", SC(__NR_getdents64, fd, dbuf, 8) == -EINVAL);
	CHECK("files.getdents64.ebadf", SC(__NR_getdents64, 99, dbuf, sizeof(dbuf)) == -EBADF);
	long ffd = SC(__NR_open, in("d/f"), O_RDONLY);
	CHECK("files.getdents64.enotdir", SC(__NR_getdents64, ffd, dbuf, sizeof(dbuf)) == -ENOTDIR);
	SC(__NR_close, ffd);
	for (int b = 0; b < NBAD; b++)
		CKF(SC(__NR_getdents64, fd, BADPTR[b], sizeof(dbuf)) == -EFAULT,
		    "files.getdents64.efault_%s", BADNAME[b]);
	/* nothing consumed by the failed calls: the first good call sees "." etc. */
	n = SC(__NR_getdents64, fd, dbuf, sizeof(dbuf));
	int nent = 0;
	for (long off = 0; off > -1 && off < n; off += *(unsigned short *)(dbuf + off + 16))
		nent++;
	CHECK("files.getdents64.efault_position_unchanged", n > 0 && nent == 3);
	CHECK("files.read.eisdir", SC(__NR_read, fd, buf, 4) == -EISDIR);
	SC(__NR_close, fd);

	CHECK("files.rmdir.enotempty", SC(__NR_rmdir, in("d"), 0) == -ENOTEMPTY);
	CHECK("files.rmdir.enotdir", SC(__NR_rmdir, in("d/f")) == -ENOTDIR);
	CHECK("files.rmdir.enoent", SC(__NR_rmdir, in("nope")) == -ENOENT);
	CHECK("files.unlink.eisdir", SC(__NR_unlink, in("d")) == -EISDIR || SC(__NR_unlink, in("d")) == -EPERM);
	CHECK("files.unlink.enoent", SC(__NR_unlink, in("d/nope")) == -ENOENT);

	/* link, symlink, readlink */
	CHECK("files.link.result", SC(__NR_link, in("d/f"), in2("d/f2")) == 0 &&
	      SC(__NR_stat64, in("d/f"), &st) == 0 && st.st_nlink == 2);
	CHECK("files.link.eexist", SC(__NR_link, in("d/f"), in2("d/f2")) == -EEXIST);
	CHECK("files.link.enoent", SC(__NR_link, in("d/nope"), in2("d/f3")) == -ENOENT);
	CHECK("files.link.eperm_dir", SC(__NR_link, in("d"), in2("dl")) == -EPERM);
	CHECK("files.unlink.result", SC(__NR_unlink, in("d/f2")) == 0 &&
	      SC(__NR_stat64, in("d/f"), &st) == 0 && st.st_nlink == 1 && dir_has(in2("d"), "f2") == 0);
	CHECK("files.symlink.result", SC(__NR_symlink, "f", in("d/sl")) == 0);
	CHECK("files.symlink.eexist", SC(__NR_symlink, "f", in("d/sl")) == -EEXIST);
	memset(buf, 'Q', sizeof(buf));
	CHECK("files.readlink.result", SC(__NR_readlink, in("d/sl"), buf, sizeof(buf)) == 1 &&
	      buf[0] == 'f' && buf[1] == 'Q');
	CHECK("files.readlink.truncates", SC(__NR_readlink, in("d/sl"), buf, 0) == -EINVAL);
	CHECK("files.readlink.einval_notlink", SC(__NR_readlink, in("d/f"), buf, sizeof(buf)) == -EINVAL);
	CHECK("files.readlink.enoent", SC(__NR_readlink, in("d/nope"), buf, sizeof(buf)) == -ENOENT);

	/* rename: file over file, into another dir, dir over non-empty dir */
	make_file(in("d/r1"), "one");
	make_file(in("d/r2"), "two");
	CHECK("files.rename.replace", SC(__NR_rename, in("d/r1"), in2("d/r2")) == 0 &&
	      dir_has(in2("d"), "r1") == 0 && file_sig(in("d/r2")) != (unsigned long)-ENOENT);
	fd = SC(__NR_open, in("d/r2"), O_RDONLY);
	CHECK("files.rename.contents", SC(__NR_read, fd, buf, 8) == 3 && !memcmp(buf, "one", 3));
	SC(__NR_close, fd);
	SC(__NR_mkdir, in("e"), 0755);
	CHECK("files.rename.across_dirs", SC(__NR_rename, in("d/r2"), in2("e/r")) == 0 &&
	      dir_has(in2("e"), "r") == 1 && dir_has(in2("d"), "r2") == 0);
	CHECK("files.rename.enoent", SC(__NR_rename, in("d/nope"), in2("d/x")) == -ENOENT);
	CHECK("files.rename.enotempty", SC(__NR_rename, in("d"), in2("e")) == -ENOTEMPTY ||
	      SC(__NR_rename, in("d"), in2("e")) == -EEXIST);
	CHECK("files.rename.eisdir", SC(__NR_rename, in("d/f"), in2("e")) == -EISDIR);
	CHECK("files.rename.enotdir", SC(__NR_rename, in("e"), in2("d/f")) == -ENOTDIR);
	CHECK("files.rename.einval_into_self", SC(__NR_rename, in("d"), in2("d/sub")) == -EINVAL);

	/* EFAULT for every path pointer, directories unchanged */
	unsigned long ds = dir_sig(in("d")), es = dir_sig(in2("e"));
	for (int b = 0; b < NBAD; b++) {
		void *bp = BADPTR[b];
		const char *bn = BADNAME[b];
		CKF(SC(__NR_mkdir, bp, 0755) == -EFAULT, "files.mkdir.efault_%s", bn);
		CKF(SC(__NR_rmdir, bp) == -EFAULT, "files.rmdir.efault_%s", bn);
		CKF(SC(__NR_unlink, bp) == -EFAULT, "files.unlink.efault_%s", bn);
		CKF(SC(__NR_rename, bp, in("d/x")) == -EFAULT, "files.rename.efault_old_%s", bn);
		CKF(SC(__NR_rename, in("d/f"), bp) == -EFAULT, "files.rename.efault_new_%s", bn);
		CKF(SC(__NR_link, bp, in("d/x")) == -EFAULT, "files.link.efault_old_%s", bn);
		CKF(SC(__NR_link, in("d/f"), bp) == -EFAULT, "files.link.efault_new_%s", bn);
		CKF(SC(__NR_symlink, bp, in("d/x")) == -EFAULT, "files.symlink.efault_target_%s", bn);
		CKF(SC(__NR_symlink, "f", bp) == -EFAULT, "files.symlink.efault_path_%s", bn);
		CKF(SC(__NR_readlink, bp, buf, sizeof(buf)) == -EFAULT, "files.readlink.efault_path_%s", bn);
		CKF(SC(__NR_readlink, in("d/sl"), bp, 10) == -EFAULT, "files.readlink.efault_buf_%s", bn);
	}
	CHECK("files.namei.efault_dirs_unchanged", dir_sig(in("d")) == ds && dir_sig(in2("e")) == es);

	/* cleanup: rmdir of empty dirs works */
	SC(__NR_unlink, in("d/f"));
	SC(__NR_unlink, in("d/sl"));
	SC(__NR_unlink, in("e/r"));
	CHECK("files.rmdir.result", SC(__NR_rmdir, in("d")) == 0 && SC(__NR_rmdir, in("e")) == 0 &&
	      dir_has(D, "d") == 0 && dir_has(D, "e") == 0);
}

/* ---- chdir, getcwd, truncate, ftruncate, fsync, fdatasync, sync --------- */
static void test_cwd_trunc(void)
{
	char cwd[256], small[1];
	struct stat st;
	long fd, r;

	r = SC(__NR_getcwd, cwd, sizeof(cwd));
	CHECK("files.getcwd.result", r > 0 && cwd[0] == '/' && (long)strlen(cwd) + 1 == r);
	CHECK("files.getcwd.erange", SC(__NR_getcwd, small, sizeof(small)) == -ERANGE);
	SC(__NR_mkdir, in("cw"), 0755);
	CHECK("files.chdir.result", SC(__NR_chdir, in("cw")) == 0);
	r = SC(__NR_getcwd, cwd, sizeof(cwd));
	CHECK("files.getcwd.after_chdir", r > 0 && !strcmp(cwd, in("cw")));
	CHECK("files.chdir.relative_open", make_file("rel", "r") == 0 && dir_has(in("cw"), "rel") == 1);
	CHECK("files.chdir.dotdot", SC(__NR_chdir, "..") == 0 && SC(__NR_getcwd, cwd, sizeof(cwd)) > 0 &&
	      !strcmp(cwd, D));
	CHECK("files.chdir.enoent", SC(__NR_chdir, in("nope")) == -ENOENT);
	make_file(in("tf"), "0123456789");
	CHECK("files.chdir.enotdir", SC(__NR_chdir, in("tf")) == -ENOTDIR);
	for (int b = 0; b < NBAD; b++) {
		memset(cwd, 0, sizeof(cwd));
		CKF(SC(__NR_chdir, BADPTR[b]) == -EFAULT && SC(__NR_getcwd, cwd, sizeof(cwd)) > 0 &&
		    !strcmp(cwd, D), "files.chdir.efault_%s", BADNAME[b]);
		CKF(SC(__NR_getcwd, BADPTR[b], 256) == -EFAULT, "files.getcwd.efault_%s", BADNAME[b]);
	}
	SC(__NR_unlink, in("cw/rel"));
	SC(__NR_rmdir, in("cw"));

	/* truncate / ftruncate: shrink, grow with zeros, errors */
	CHECK("files.truncate.shrink", SC(__NR_truncate, in("tf"), 4) == 0 &&
	      SC(__NR_stat64, in("tf"), &st) == 0 && st.st_size == 4);
	fd = SC(__NR_open, in("tf"), O_RDWR);
	CHECK("files.ftruncate.grow", SC(__NR_ftruncate, fd, 6000) == 0 &&
	      SC(__NR_fstat64, fd, &st) == 0 && st.st_size == 6000);
	CHECK("files.ftruncate.zeros", SC(__NR_pread64, fd, cwd, 8, 0, 0) == 8 &&
	      !memcmp(cwd, "0123\0\0\0\0", 8));
	CHECK("files.ftruncate64.result", SC(__NR_ftruncate64, fd, 5, 0) == 0 &&
	      SC(__NR_fstat64, fd, &st) == 0 && st.st_size == 5);
	CHECK("files.ftruncate.einval_neg", SC(__NR_ftruncate, fd, -1) == -EINVAL);
	CHECK("files.ftruncate.ebadf", SC(__NR_ftruncate, 99, 0) == -EBADF);
	CHECK("files.truncate.enoent", SC(__NR_truncate, in("nope"), 0) == -ENOENT);
	CHECK("files.truncate.eisdir", SC(__NR_truncate, D, 0) == -EISDIR);
	long rofd = SC(__NR_open, in("tf"), O_RDONLY);
	CHECK("files.ftruncate.einval_rdonly", SC(__NR_ftruncate, rofd, 0) == -EINVAL ||
	      SC(__NR_ftruncate, rofd, 0) == -EBADF);
	SC(__NR_close, rofd);
	for (int b = 0; b < NBAD; b++)
		CKF(SC(__NR_truncate, BADPTR[b], 0) == -EFAULT && SC(__NR_fstat64, fd, &st) == 0 &&
		    st.st_size == 5, "files.truncate.efault_%s", BADNAME[b]);
	CHECK("files.fsync.result", SC(__NR_write, fd, "w", 1) == 1 && SC(__NR_fsync, fd) == 0);
	CHECK("files.fdatasync.result", SC(__NR_fdatasync, fd) == 0);
	CHECK("files.fsync.ebadf", SC(__NR_fsync, 99) == -EBADF);
	CHECK("files.fdatasync.ebadf", SC(__NR_fdatasync, 99) == -EBADF);
	CHECK("files.sync.result", SC(__NR_sync) == 0);
	SC(__NR_close, fd);
	SC(__NR_unlink, in("tf"));
}

/* ---- mount / umount: a ramfs on a directory ----------------------------- */
static void test_mount(void)
{
	struct stat st, st2;

	SC(__NR_mkdir, in("mnt"), 0755);
	make_file(in("mnt/under"), "u");
	CHECK("files.mount.ramfs", SC(__NR_mount, "none", in("mnt"), "ramfs", 0, 0) == 0);
	CHECK("files.mount.covers", dir_has(in("mnt"), "under") == 0);
	CHECK("files.mount.usable", make_file(in("mnt/on_ramfs"), "r") == 0 &&
	      SC(__NR_stat64, in("mnt/on_ramfs"), &st) == 0 && SC(__NR_stat64, D, &st2) == 0 &&
	      st.st_dev != st2.st_dev);
	long fd = SC(__NR_open, in("mnt/on_ramfs"), O_RDONLY);
	CHECK("files.umount.ebusy", SC(__NR_umount2, in("mnt"), 0) == -EBUSY);
	SC(__NR_close, fd);
	CHECK("files.mount.enodev", SC(__NR_mount, "none", in("mnt"), "nosuchfs", 0, 0) == -ENODEV);
	CHECK("files.mount.enoent", SC(__NR_mount, "none", in("nope"), "ramfs", 0, 0) == -ENOENT);
	for (int b = 0; b < NBAD; b++) {
		void *bp = BADPTR[b];
		CKF(SC(__NR_mount, "none", bp, "ramfs", 0, 0) == -EFAULT, "files.mount.efault_target_%s", BADNAME[b]);
		if (b)  /* NULL fstype/source are legal in some Linux cases: skip NULL */
			CKF(SC(__NR_mount, "none", in("mnt"), bp, 0, 0) == -EFAULT,
			    "files.mount.efault_type_%s", BADNAME[b]);
		CKF(SC(__NR_umount2, bp, 0) == -EFAULT, "files.umount.efault_%s", BADNAME[b]);
	}
	CHECK("files.mount.efault_still_mounted", dir_has(in("mnt"), "on_ramfs") == 1);
	CHECK("files.umount.result", SC(__NR_umount2, in("mnt"), 0) == 0 &&
	      dir_has(in("mnt"), "under") == 1 && dir_has(in("mnt"), "on_ramfs") == 0);
	CHECK("files.umount.einval_notmount", SC(__NR_umount2, in("mnt"), 0) == -EINVAL);
	SC(__NR_unlink, in("mnt/under"));
	SC(__NR_rmdir, in("mnt"));
}

int main(int argc, char **argv)
{
	const char *base = argc > 1 ? argv[1] : "/tmp";
	long r;

	bad_init();
	snprintf(D, sizeof(D), "%s/ffs", base);
	SC(__NR_mkdir, D, 0755);
	r = SC(__NR_stat64, D, &(struct stat){ 0 });
	CHECK("files.setup", r == 0);
	test_rw();
	test_rwv(base);
	test_sendfile_same_file();
	test_fds();
	test_stat();
	test_utimes();
	test_statfs();
	test_dirs();
	test_cwd_trunc();
	test_mount();
	SC(__NR_unlink, in("rw"));
	SC(__NR_unlink, in("o"));
	SC(__NR_unlink, in("s"));
	SC(__NR_unlink, in("sl"));
	CHECK("files.cleanup", SC(__NR_rmdir, D) == 0);
	return check_summary();
}
