/* rlimit_raise.c - conformance: raising hard resource limits (the LTP
 * execl01, mlock02, mlock202, mlockall02/03, setrlimit01 tests).  Root
 * (CAP_SYS_RESOURCE) lowers RLIMIT_MEMLOCK, RLIMIT_NPROC, RLIMIT_FSIZE and
 * RLIMIT_NOFILE and raises them back, sets RLIMIT_STACK's hard limit to
 * RLIM_INFINITY, through setrlimit and prlimit64; RLIMIT_NOFILE above
 * fs.nr_open (EPERM even for root); soft above hard (EINVAL); an ordinary
 * user raising a hard limit (EPERM), lowering one (0).  Prints
 * observations only (conform.h): values read back only for the limits
 * both kernels keep, and relative to the starting ones.
 */
#include "conform.h"
#include <sys/resource.h>
#include <sys/syscall.h>

static const char *lim(int res, rlim_t base_max)
{
	static char b[64];
	struct rlimit r;
	getrlimit(res, &r);
	snprintf(b, sizeof b, "cur=%s max=%s",
		 r.rlim_cur == RLIM_INFINITY ? "inf" : r.rlim_cur == base_max ? "orig" : "other",
		 r.rlim_max == RLIM_INFINITY ? "inf" : r.rlim_max == base_max ? "orig" : "other");
	if (r.rlim_cur < 100000 && r.rlim_cur != base_max)
		snprintf(b, sizeof b, "cur=%lu max=%s", (unsigned long)r.rlim_cur,
			 r.rlim_max == base_max ? "orig" : r.rlim_max == RLIM_INFINITY ? "inf" : "other");
	return b;
}

static void lower_raise(const char *name, int res, rlim_t low)
{
	struct rlimit orig, r;
	getrlimit(res, &orig);
	r.rlim_cur = r.rlim_max = low;
	say("%s lower %s %s", name, rv(setrlimit(res, &r)), lim(res, orig.rlim_max));
	say("%s raise_back %s %s", name, rv(setrlimit(res, &orig)), lim(res, orig.rlim_max));
	r.rlim_cur = r.rlim_max = low;
	setrlimit(res, &r);
	struct { unsigned long long cur, max; } n = { orig.rlim_cur, orig.rlim_max };
	if (orig.rlim_cur == RLIM_INFINITY)
		n.cur = ~0ULL;
	if (orig.rlim_max == RLIM_INFINITY)
		n.max = ~0ULL;
	say("%s prlimit64_raise_back %s %s", name, rv(syscall(SYS_prlimit64, 0, res, &n, NULL)),
	    lim(res, orig.rlim_max));
}

int main(int argc, char **argv)
{
	conform_start("rlimit_raise", argc, argv);
	lower_raise("memlock", RLIMIT_MEMLOCK, 4096);
	lower_raise("nproc", RLIMIT_NPROC, 50);
	lower_raise("fsize", RLIMIT_FSIZE, 1 << 20);
	lower_raise("nofile", RLIMIT_NOFILE, 64);
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };
	say("stack_inf %s", rv(setrlimit(RLIMIT_STACK, &r)));
	struct rlimit big = { 1048577, 1048577 };
	say("nofile_past_nr_open %s", rv(setrlimit(RLIMIT_NOFILE, &big)));
	struct rlimit inv = { 200, 100 };
	say("soft_above_hard %s", rv(setrlimit(RLIMIT_NOFILE, &inv)));
	struct rlimit ml = { 8192, 8192 };
	setrlimit(RLIMIT_MEMLOCK, &ml);
	pid_t c = fork();
	if (c == 0) {
		drop_to_user();
		struct rlimit up = { 8192, 16384 }, down = { 4096, 4096 };
		say("user_raise_hard %s", rv(setrlimit(RLIMIT_MEMLOCK, &up)));
		say("user_lower %s %s", rv(setrlimit(RLIMIT_MEMLOCK, &down)), lim(RLIMIT_MEMLOCK, 0));
		say("user_raise_soft_to_hard %s", rv(setrlimit(RLIMIT_MEMLOCK, &down)));
		struct rlimit again = { 8192, 8192 };
		say("user_raise_back %s", rv(setrlimit(RLIMIT_MEMLOCK, &again)));
		_exit(0);
	}
	int st;
	waitpid(c, &st, 0);
	conform_end();
	return 0;
}
