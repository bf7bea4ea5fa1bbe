/* mlock.c - conformance: memory locks (issue 23).  mlock, mlock2, munlock,
 * mlockall and munlockall: what VmLck (/proc/self/status) counts after
 * each, unaligned and empty ranges, a hole (ENOMEM), bad flags (EINVAL),
 * MCL_FUTURE locking later mappings, MAP_LOCKED, locks not inherited by
 * fork, msync(MS_INVALIDATE) on locked pages (EBUSY), munmap giving the
 * count back, a file mapping past the end of its file (mlock: ENOMEM, the
 * range locked all the same; mlockall goes on); an ordinary user under
 * RLIMIT_MEMLOCK (the default, 0: EPERM, one page: ENOMEM past it,
 * mlockall, MCL_FUTURE's mmap: EAGAIN).
 * Prints observations only (conform.h): VmLck as a difference in kB.
 */
#include "conform.h"
#include <sys/mman.h>
#include <sys/resource.h>

static long base;                      /* VmLck before each case */
static const char *lck(void)
{
	static char b[32];
	snprintf(b, sizeof b, "lck=%+ld", vmlck() - base);
	return b;
}

static char *map(size_t pages, int flags)
{
	char *p = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags,
		       -1, 0);
	return p;
}

static void root_cases(void)
{
	base = vmlck();
	say("vmlck_start %ld", base);
	char *p = map(4, 0);
	const char *r = rv(mlock(p, 4096));
	say("mlock_page %s %s", r, lck());
	r = rv(mlock(p + 100, 10));
	say("mlock_same_page_unaligned %s %s", r, lck());
	r = rv(mlock(p + 4095, 2));
	say("mlock_across_two %s %s", r, lck());
	r = rv(mlock(p, 0));
	say("mlock_zero %s %s", r, lck());
	r = rv(munlock(p, 4096 * 4));
	say("munlock_all4 %s %s", r, lck());
	r = rv(mlock2(p, 4096, 0));
	say("mlock2 %s %s", r, lck());
	r = rv(mlock2(p + 4096, 4096, MLOCK_ONFAULT));
	say("mlock2_onfault %s %s", r, lck());
	say("mlock2_bad_flags %s", rv(mlock2(p, 4096, 2)));
	r = rv(msync(p, 4096, MS_INVALIDATE));
	say("msync_invalidate_locked %s", r);
	say("msync_invalidate_unlocked %s", rv(msync(p + 8192, 4096, MS_INVALIDATE)));
	say("msync_sync_locked %s", rv(msync(p, 4096, MS_SYNC)));
	r = rv(munmap(p, 4096 * 4));
	say("munmap_locked %s %s", r, lck());
	char *q = map(2, 0);
	munmap(q + 4096, 4096);                 /* a hole after q's first page */
	r = rv(mlock(q, 8192));
	say("mlock_hole %s %s", r, lck());
	munmap(q, 4096);
	say("mlockall_zero %s", rv(mlockall(0)));
	say("mlockall_onfault_alone %s", rv(mlockall(MCL_ONFAULT)));
	say("mlockall_bad %s", rv(mlockall(8)));
	r = rv(mlockall(MCL_FUTURE));
	say("mlockall_future %s %s", r, lck());
	q = map(2, 0);
	say("mmap_after_future %s", lck());
	r = rv(munlockall());
	say("munlockall %s %s", r, lck());
	munmap(q, 8192);
	q = map(3, MAP_LOCKED);
	say("map_locked %s %s", q == MAP_FAILED ? rv(-1) : "ok", lck());
	munmap(q, 3 * 4096);
	say("after_munmap %s", lck());
	/* a file mapping one page longer than the file */
	int fd = open(path("m"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "x", 1);
	q = mmap(NULL, 2 * 4096, PROT_READ, MAP_SHARED, fd, 0);
	r = rv(mlock(q, 2 * 4096));
	say("mlock_past_eof %s %s", r, lck());
	r = rv(munlock(q, 2 * 4096));
	say("munlock_past_eof %s %s", r, lck());
	r = rv(mlock(q, 4096));
	say("mlock_before_eof %s %s", r, lck());
	munlock(q, 4096);
	r = rv(mlockall(MCL_CURRENT));
	say("mlockall_past_eof %s", r);
	munlockall();
	munmap(q, 2 * 4096);
	close(fd);
	unlink(path("m"));
}

static void fork_body(int w)
{
	report(w, "child_vmlck=%ld", vmlck());
}

static void fork_case(void)
{
	char *p = map(2, 0);
	mlock(p, 8192);
	char text[128];
	int st = child(fork_body, text, sizeof text);
	say("fork %s: %s parent=%s", wstatus(st), text, lck());
	munlock(p, 8192);
	munmap(p, 8192);
}

static void user_body(int w)
{
	drop_to_user();
	struct rlimit rl;
	getrlimit(RLIMIT_MEMLOCK, &rl);
	report(w, "default=%llu,%llu ", (unsigned long long)rl.rlim_cur,
	       (unsigned long long)rl.rlim_max);
	char *p = map(4, 0);
	report(w, "mlock_page=%s ", rv(mlock(p, 4096)));
	munlock(p, 4096);
	rl.rlim_cur = 4096;
	report(w, "set_one_page=%s ", rv(setrlimit(RLIMIT_MEMLOCK, &rl)));
	report(w, "mlock_two=%s ", rv(mlock(p, 8192)));
	report(w, "mlock_one=%s ", rv(mlock(p, 4096)));
	report(w, "mlock_one_again=%s ", rv(mlock(p, 4096)));
	report(w, "mlock_next=%s ", rv(mlock(p + 4096, 4096)));
	munlock(p, 4096);
	report(w, "mlockall_current=%s ", rv(mlockall(MCL_CURRENT)));
	report(w, "mlockall_future=%s ", rv(mlockall(MCL_FUTURE)));
	char *q = map(2, 0);
	report(w, "mmap_future_past_limit=%s ", q == MAP_FAILED ? rv(-1) : "ok");
	munlockall();
	q = map(2, MAP_LOCKED);
	report(w, "map_locked_past_limit=%s ", q == MAP_FAILED ? rv(-1) : "ok");
	rl.rlim_cur = 0;
	report(w, "set_zero=%s ", rv(setrlimit(RLIMIT_MEMLOCK, &rl)));
	report(w, "mlock_zero_limit=%s ", rv(mlock(p, 4096)));
	report(w, "mlockall_zero_limit=%s ", rv(mlockall(MCL_CURRENT)));
	report(w, "munlock_zero_limit=%s ", rv(munlock(p, 4096)));
	q = map(1, MAP_LOCKED);
	report(w, "map_locked_zero_limit=%s", q == MAP_FAILED ? rv(-1) : "ok");
}

int main(int argc, char **argv)
{
	conform_start("mlock", argc, argv);
	root_cases();
	fork_case();
	char text[512];
	int st = child(user_body, text, sizeof text);
	say("as_user %s: %s", wstatus(st), text);
	conform_end();
	return 0;
}
