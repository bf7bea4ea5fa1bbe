/* write_path.c - conformance: the write path's edge cases (issue 22).
 * Writes from unreadable and half-readable buffers, zero-length and
 * O_APPEND writes, lseek against the largest file size, writes near it,
 * RLIMIT_FSIZE with SIGXFSZ.  Prints observations only (conform.h).
 * Fills: the file's old bytes are 'x' (78), the source buffer's 'S' (53).
 */
#include "conform.h"
#include <limits.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/uio.h>

static void *volatile bad_ptr = (void *)0x10;   /* an address nothing maps */
#define BAD bad_ptr

/* 1. A write from an unreadable buffer: no effect at all. */
static void unreadable(void)
{
	int fd = fresh("efault", 0, 0);
	ssize_t r = pwrite(fd, BAD, 100, 1 << 20);
	say("efault_pwrite_1MiB_empty ret=%s size=%lld", rv(r), fsize(fd));
	say("efault_pwrite_1MiB_empty read0 %s", bytes(fd, 0, 4096));
	say("efault_pwrite_1MiB_empty read1MiB %s", bytes(fd, 1 << 20, 100));
	r = pwrite(fd, BAD, 100, 0);
	say("efault_pwrite_0_empty ret=%s size=%lld", rv(r), fsize(fd));
	done(fd, "efault");

	fd = fresh("efault", 10, 0);
	r = pwrite(fd, BAD, 100, 5);
	say("efault_pwrite_5_of_10 ret=%s size=%lld %s", rv(r), fsize(fd), bytes(fd, 0, 200));
	lseek(fd, 3, SEEK_SET);
	r = write(fd, BAD, 100);
	say("efault_write_at_3 ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	r = write(fd, BAD, 0);
	say("efault_write_len0 ret=%s pos=%lld", rv(r), fpos(fd));
	r = write(fd, NULL, 0);
	say("null_write_len0 ret=%s pos=%lld", rv(r), fpos(fd));
	done(fd, "efault");
}

/* 2. Short writes: the source's second page is unmapped. */
/* A pwrite of len bytes at pos whose source starts `before` bytes below
 * the unmapped page after p's first page, into a file of fill bytes: what
 * it returned, the size and the first show bytes. */
static void short_pwrite(const char *key, const char *p, size_t fill, size_t before,
			 size_t len, off_t pos, size_t show)
{
	int fd = fresh("short", fill, 0);
	ssize_t r = pwrite(fd, p + 4096 - before, len, pos);
	say("%s ret=%s size=%lld %s", key, rv(r), fsize(fd), bytes(fd, 0, show));
	done(fd, "short");
}

static void short_writes(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p + 4096, 4096) < 0) {
		say("error mmap");
		return;
	}
	memset(p, 'S', 4096);

	short_pwrite("short_100_of_200_at_0_empty", p, 0, 100, 200, 0, 8192);
	short_pwrite("short_1000_of_3000_at_500_empty", p, 0, 1000, 3000, 500, 8192);
	short_pwrite("short_100_of_200_at_4000_of_8192", p, 8192, 100, 200, 4000, 8192);
	short_pwrite("short_100_of_200_at_10000_empty", p, 0, 100, 200, 10000, 12000);

	int fd = fresh("short", 0, 0);
	ssize_t r;
	lseek(fd, 7, SEEK_SET);
	r = write(fd, p + 4096 - 100, 200);
	say("short_write_at_7 ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	done(fd, "short");

	fd = fresh("short", 0, 0);
	struct iovec iov[3] = { { p, 50 }, { BAD, 100 }, { p, 50 } };
	r = writev(fd, iov, 3);
	say("writev_good50_bad100_good50 ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	struct iovec iov0[3] = { { BAD, 0 }, { p, 0 }, { p, 10 } };
	r = writev(fd, iov0, 3);
	say("writev_zero_zero_good10 ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	done(fd, "short");
	munmap(p, 4096);
}

/* 3. O_APPEND: zero-length writes, failing writes, pwrite. */
static void append(void)
{
	int fd = fresh("append", 10, 0);
	close(fd);
	fd = open(path("append"), O_WRONLY | O_APPEND);
	lseek(fd, 3, SEEK_SET);
	ssize_t r = write(fd, "abcde", 0);
	say("append_write_len0 ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	r = write(fd, BAD, 10);
	say("append_write_efault ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	struct iovec iov0 = { "abc", 0 };
	r = writev(fd, &iov0, 1);
	say("append_writev_len0 ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	r = write(fd, "abcde", 5);
	say("append_write_5 ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	lseek(fd, 2, SEEK_SET);
	r = pwrite(fd, "Z", 1, 0);
	say("append_pwrite_at_0 ret=%s pos=%lld size=%lld", rv(r), fpos(fd), fsize(fd));
	close(fd);
	fd = open(path("append"), O_RDONLY);
	say("append_bytes %s", bytes(fd, 0, 100));
	done(fd, "append");
}

/* 4. lseek against the largest file size, found by bisection; writes near it. */
static void maxbytes(void)
{
	int fd = fresh("maxbytes", 0, 0);
	long long lo = 0, hi = LLONG_MAX;
	while (lo < hi) {
		long long mid = lo + (hi - lo) / 2 + (hi - lo) % 2;   /* no overflow */
		if (lseek(fd, mid, SEEK_SET) == mid)
			lo = mid;
		else
			hi = mid - 1;
	}
	long long max = lo;
	/* Linux's ramfs is MAX_LFS_FILESIZE, which differs between i386 and
	 * x86_64 kernels (KNOWN-DIFFERENCES): keys "maxbytes_*" */
	say("maxbytes_lseek_largest=%lld", max);
	long long r = lseek(fd, 1LL << 62, SEEK_SET);
	say("maxbytes_lseek_2^62 ret=%s", rv(r));
	lseek(fd, 100, SEEK_SET);
	r = max < LLONG_MAX ? lseek(fd, max + 1, SEEK_SET) : -2;
	say("maxbytes_lseek_largest+1 ret=%s pos=%lld", r == -2 ? "none" : rv(r), fpos(fd));
	r = lseek(fd, max, SEEK_SET);
	say("lseek_largest ret=largest%+lld", r - max);
	r = lseek(fd, 1, SEEK_CUR);
	say("lseek_cur_plus_1_at_largest ret=%s pos=largest%+lld", rv(r), fpos(fd) - max);
	r = lseek(fd, -1, SEEK_SET);
	say("lseek_minus_1 ret=%s pos=largest%+lld", rv(r), fpos(fd) - max);
	r = lseek(fd, LLONG_MIN, SEEK_CUR);
	say("lseek_cur_llong_min ret=%s", rv(r));
	r = lseek(fd, 0, 3);
	say("lseek_whence_3_empty ret=%s", rv(r));

	r = pwrite(fd, "0123456789", 10, max - 5);
	say("maxbytes_pwrite_10_at_largest-5 ret=%s size=largest%+lld", rv(r), fsize(fd) - max);
	r = pwrite(fd, "0123456789", 1, max);
	say("maxbytes_pwrite_1_at_largest ret=%s", rv(r));
	r = pwrite(fd, "0123456789", 0, max);
	say("maxbytes_pwrite_0_at_largest ret=%s", rv(r));
	r = ftruncate(fd, max);
	say("maxbytes_ftruncate_largest ret=%s size=largest%+lld", rv(r), fsize(fd) - max);
	r = ftruncate(fd, max + 1 > 0 ? max + 1 : max);
	say("maxbytes_ftruncate_largest+1 ret=%s size=largest%+lld", rv(r), fsize(fd) - max);
	ftruncate(fd, 0);
	done(fd, "maxbytes");
}

/* 5. RLIMIT_FSIZE (1 KiB) and SIGXFSZ, in children. */
static volatile sig_atomic_t nxfsz;
static void on_xfsz(int s) { (void)s; nxfsz++; }

static void fsize_child(int how)   /* 0 default action, 1 ignored, 2 caught, 3 blocked */
{
	struct rlimit rl = { 1024, 1024 };
	if (how == 1)
		signal(SIGXFSZ, SIG_IGN);
	if (how == 2)
		signal(SIGXFSZ, on_xfsz);
	if (how == 3) {
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, SIGXFSZ);
		sigprocmask(SIG_BLOCK, &s, NULL);
	}
	int fd = fresh("fsize", 0, 0);
	long long r = setrlimit(RLIMIT_FSIZE, &rl);
	say("rlimit%d_setrlimit ret=%s", how, rv(r));
	r = write(fd, xs, 4096);
	say("rlimit%d_write_4096 ret=%s pos=%lld size=%lld", how, rv(r), fpos(fd), fsize(fd));
	if (how == 0)
		say("rlimit0_write_at_limit_next");
	r = write(fd, xs, 100);
	say("rlimit%d_write_at_limit ret=%s pos=%lld size=%lld caught=%d", how, rv(r),
	    fpos(fd), fsize(fd), (int)nxfsz);
	r = pwrite(fd, xs, 100, 1000);
	say("rlimit%d_pwrite_100_at_1000 ret=%s size=%lld", how, rv(r), fsize(fd));
	r = pwrite(fd, xs, 0, 5000);
	say("rlimit%d_pwrite_0_at_5000 ret=%s size=%lld caught=%d", how, rv(r), fsize(fd), (int)nxfsz);
	r = pwrite(fd, xs, 1, 1023);
	say("rlimit%d_pwrite_1_at_1023 ret=%s", how, rv(r));
	r = pwrite(fd, xs, 1, 1024);
	say("rlimit%d_pwrite_1_at_1024 ret=%s caught=%d", how, rv(r), (int)nxfsz);
	r = ftruncate(fd, 2048);
	say("rlimit%d_ftruncate_2048 ret=%s size=%lld caught=%d", how, rv(r), fsize(fd), (int)nxfsz);
	r = ftruncate(fd, 512);
	say("rlimit%d_ftruncate_512 ret=%s size=%lld", how, rv(r), fsize(fd));
	if (how == 3) {
		sigset_t s;
		sigpending(&s);
		say("rlimit3_pending_SIGXFSZ=%d", sigismember(&s, SIGXFSZ));
		signal(SIGXFSZ, SIG_IGN);
	}
	close(fd);
	exit(0);
}

static void rlimit_fsize(void)
{
	for (int how = 0; how < 4; how++) {
		pid_t pid = fork();
		if (pid == 0)
			fsize_child(how);
		int st = 0;
		waitpid(pid, &st, 0);
		int fd = open(path("fsize"), O_RDONLY);
		say("rlimit%d_child %s size_after=%lld", how, wstatus(st), fsize(fd));
		done(fd, "fsize");
	}
}

int main(int argc, char **argv)
{
	conform_start("write_path", argc, argv);
	unreadable();
	short_writes();
	append();
	maxbytes();
	rlimit_fsize();
	conform_end();
	return 0;
}
