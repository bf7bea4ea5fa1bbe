/* rlimit_raise.c - conformance: raising hard resource limits (the LTP
 * execl01, mlock02, mlock202, mlockall02/03, setrlimit01 tests).  Root
 * (CAP_SYS_RESOURCE) lowers RLIMIT_MEMLOCK, RLIMIT_NPROC, RLIMIT_FSIZE and
 * RLIMIT_NOFILE and raises them back, sets RLIMIT_STACK's hard limit to
 * RLIM_INFINITY, through setrlimit and prlimit64; RLIMIT_NOFILE above
 * fs.nr_open (EPERM even for root); soft above hard (EINVAL); an ordinary
 * user raising a hard limit (EPERM), lowering one (0).  Prints
 * observations only (conform.h): limits read back as "low" or "orig"
 * (the kernels' defaults differ), each printed after its call.
 */
#include "conform.h"
#include <sys/resource.h>
#include <sys/syscall.h>

/* The limit now, relative to two pairs: "low" (both what lower set),
 * "orig" (both as at the start), or the values when below 100000. */
static const char *lim(int res, const struct rlimit *orig, rlim_t low)
{
	static char b[64];
	struct rlimit r;
	getrlimit(res, &r);
	if (r.rlim_cur == low && r.rlim_max == low)
		return "low";
	if (r.rlim_cur == orig->rlim_cur && r.rlim_max == orig->rlim_max)
		return "orig";
	snprintf(b, sizeof b, "cur=%lu max=%lu", (unsigned long)r.rlim_cur,
		 (unsigned long)r.rlim_max);
	return b;
}

/* Lower both limits to low, raise them back (setrlimit), lower again,
 * raise back with prlimit64; each result printed after the call. */
static void lower_raise(const char *name, int res, rlim_t low)
{
	struct rlimit orig, r = { low, low };
	getrlimit(res, &orig);
	long ret = setrlimit(res, &r);
	say("%s lower %s %s", name, rv(ret), lim(res, &orig, low));
	ret = setrlimit(res, &orig);
	say("%s raise_back %s %s", name, rv(ret), lim(res, &orig, low));
	setrlimit(res, &r);
	struct { unsigned long long cur, max; } n = { orig.rlim_cur, orig.rlim_max };
	if (orig.rlim_cur == RLIM_INFINITY)
		n.cur = ~0ULL;
	if (orig.rlim_max == RLIM_INFINITY)
		n.max = ~0ULL;
	ret = syscall(SYS_prlimit64, 0, res, &n, NULL);
	say("%s prlimit64_raise_back %s %s", name, rv(ret), lim(res, &orig, low));
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
		struct rlimit up = { 8192, 16384 }, down = { 4096, 4096 }, start = { 8192, 8192 };
		long ret = setrlimit(RLIMIT_MEMLOCK, &up);
		say("user_raise_hard %s", rv(ret));
		ret = setrlimit(RLIMIT_MEMLOCK, &down);
		say("user_lower %s %s", rv(ret), lim(RLIMIT_MEMLOCK, &start, 4096));
		ret = setrlimit(RLIMIT_MEMLOCK, &start);
		say("user_raise_back %s %s", rv(ret), lim(RLIMIT_MEMLOCK, &start, 4096));
		_exit(0);
	}
	int st;
	waitpid(c, &st, 0);
	conform_end();
	return 0;
}
