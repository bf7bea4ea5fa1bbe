/* locks.c - conformance: advisory file locks (issue 23).  POSIX record
 * locks through fcntl (F_GETLK, F_SETLK, F_SETLKW; glibc's 64-bit forms,
 * and the 32-bit struct flock's EOVERFLOW through the raw call): what
 * another process sees and may take, a lock changed, split and merged by
 * its owner, l_whence and a negative l_len, bad arguments, the access
 * mode a lock needs, the close of any descriptor releasing them, fork not
 * inheriting them, F_SETLKW waiting, failing with EDEADLK and with EINTR.
 * BSD locks through flock: shared and exclusive between open file
 * descriptions, LOCK_NB, a conversion that is not atomic, dup and fork
 * sharing one lock, close releasing it, bad arguments, and flock and fcntl
 * locks not seeing each other.  Prints observations only (conform.h); a
 * lock's holder is printed as "parent" or "child", never as a pid.
 */
#include "conform.h"
#include <sys/file.h>
#include <sys/syscall.h>
#include <sys/time.h>

static pid_t parent_pid, child_pid;
static int cfd;                        /* the file, open O_RDWR in the parent */

static const char *who(pid_t pid)
{
	return pid == parent_pid ? "parent" : pid == child_pid ? "child" : "other";
}

static const char *tname(int t)
{
	return t == F_RDLCK ? "R" : t == F_WRLCK ? "W" : t == F_UNLCK ? "U" : "?";
}

/* fcntl(fd, cmd) with a struct flock of these fields: its result */
static const char *lk(int fd, int cmd, int type, int whence, long long start, long long len)
{
	struct flock fl = { .l_type = type, .l_whence = whence, .l_start = start, .l_len = len };
	return rv(fcntl(fd, cmd, &fl));
}

/* F_GETLK of [start, start+len): "U" or "W 0+100 parent", or the error */
static const char *getlk(int fd, int type, long long start, long long len)
{
	static char ring[4][64];
	static int n;
	char *b = ring[n++ & 3];
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
	if (fcntl(fd, F_GETLK, &fl) < 0)
		snprintf(b, 64, "%s", rv(-1));
	else if (fl.l_type == F_UNLCK)
		snprintf(b, 64, "U");
	else
		snprintf(b, 64, "%s %lld+%lld %s whence=%d", tname(fl.l_type), (long long)fl.l_start,
			 (long long)fl.l_len, who(fl.l_pid), fl.l_whence);
	return b;
}

/* ---- what another process sees ------------------------------------------ */

static int seen_w;                     /* the child's report pipe */
static void (*seen_fn)(void);
static void seen_body(int w)
{
	seen_w = w;
	child_pid = getpid();
	seen_fn();
}

/* run fn in a child (it inherits cfd), print its report as KEY */
static void in_child(const char *key, void (*fn)(void))
{
	char text[2048];
	seen_fn = fn;
	int st = child(seen_body, text, sizeof text);
	child_pid = c_last_child;
	say("%s %s:%s", key, wstatus(st), text);
}

#define SEE(key, what) report(seen_w, " %s=%s", key, what)

static void c_basic(void)
{
	SEE("getlk_w_50_10", getlk(cfd, F_WRLCK, 50, 10));
	SEE("getlk_r_50_10", getlk(cfd, F_RDLCK, 50, 10));
	SEE("setlk_r_50_10", lk(cfd, F_SETLK, F_RDLCK, SEEK_SET, 50, 10));
	SEE("setlk_w_100_100", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 100, 100));
	SEE("getlk_w_after", getlk(cfd, F_WRLCK, 0, 0));
}

static void c_read_shared(void)
{
	SEE("getlk_r", getlk(cfd, F_RDLCK, 0, 100));
	SEE("getlk_w", getlk(cfd, F_WRLCK, 0, 100));
	SEE("setlk_r_0_10", lk(cfd, F_SETLK, F_RDLCK, SEEK_SET, 0, 10));
	SEE("setlk_w_0_10", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 0, 10));
}

static void c_split(void)
{
	SEE("getlk_all", getlk(cfd, F_WRLCK, 0, 0));
	SEE("getlk_100_100", getlk(cfd, F_WRLCK, 100, 100));
	SEE("getlk_150_eof", getlk(cfd, F_WRLCK, 150, 0));
	SEE("getlk_r_150_eof", getlk(cfd, F_RDLCK, 150, 0));
}

static void c_merge(void)
{
	SEE("getlk_350_100", getlk(cfd, F_WRLCK, 350, 100));
	SEE("getlk_500_10", getlk(cfd, F_WRLCK, 500, 10));
	SEE("getlk_all", getlk(cfd, F_WRLCK, 0, 0));
}

static void c_all(void)
{
	SEE("getlk_all", getlk(cfd, F_WRLCK, 0, 0));
}

static void c_whence(void)
{
	SEE("getlk_350_60", getlk(cfd, F_WRLCK, 350, 60));
	SEE("getlk_1500_eof", getlk(cfd, F_WRLCK, 1500, 0));
	SEE("getlk_0_60", getlk(cfd, F_WRLCK, 0, 60));
}

/* the child's own lock, then what the parent sees after it exits */
static void c_lock_and_exit(void)
{
	SEE("setlk_w_0_10", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 0, 10));
	SEE("getlk_own", getlk(cfd, F_WRLCK, 0, 10));
}

static void posix_cases(void)
{
	say("getlk_unlocked %s", getlk(cfd, F_WRLCK, 0, 0));
	say("setlk_w_0_100 %s", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 0, 100));
	say("getlk_own_lock %s", getlk(cfd, F_WRLCK, 0, 0));
	in_child("other_process", c_basic);
	in_child("fork_does_not_inherit", c_all);

	say("convert_to_r %s", lk(cfd, F_SETLK, F_RDLCK, SEEK_SET, 0, 100));
	in_child("read_shared", c_read_shared);

	say("unlock_all %s", lk(cfd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0));
	say("setlk_w_0_300 %s", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 0, 300));
	say("unlock_middle %s", lk(cfd, F_SETLK, F_UNLCK, SEEK_SET, 100, 100));
	in_child("split", c_split);
	say("r_in_middle_of_w %s", lk(cfd, F_SETLK, F_RDLCK, SEEK_SET, 40, 20));
	in_child("split_by_type", c_split);

	say("unlock_all %s", lk(cfd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0));
	say("setlk_r_300_100 %s", lk(cfd, F_SETLK, F_RDLCK, SEEK_SET, 300, 100));
	say("setlk_r_400_100 %s", lk(cfd, F_SETLK, F_RDLCK, SEEK_SET, 400, 100));
	say("setlk_r_600_100 %s", lk(cfd, F_SETLK, F_RDLCK, SEEK_SET, 600, 100));
	say("setlk_r_450_200 %s", lk(cfd, F_SETLK, F_RDLCK, SEEK_SET, 450, 200));
	in_child("merge", c_merge);

	int d = dup(cfd);
	say("close_a_dup %s", rv(close(d)));
	in_child("after_close_of_dup", c_all);

	lseek(cfd, 500, SEEK_SET);
	say("seek_cur_minus_100 %s", lk(cfd, F_SETLK, F_WRLCK, SEEK_CUR, -100, 50));
	say("seek_end_minus_10 %s", lk(cfd, F_SETLK, F_WRLCK, SEEK_END, -10, 0));
	say("negative_len %s", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 100, -50));
	in_child("whence", c_whence);
	say("unlock_all %s", lk(cfd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0));

	say("start_before_0 %s", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, -1, 10));
	say("negative_len_before_0 %s", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 10, -20));
	say("bad_whence %s", lk(cfd, F_SETLK, F_WRLCK, 3, 0, 10));
	say("bad_type %s", lk(cfd, F_SETLK, 7, SEEK_SET, 0, 10));
	say("getlk_type_unlck %s", lk(cfd, F_GETLK, F_UNLCK, SEEK_SET, 0, 10));
	say("getlk_bad_address %s", rv(fcntl(cfd, F_GETLK, (void *)16)));
	say("setlk_bad_fd %s", lk(99, F_SETLK, F_WRLCK, SEEK_SET, 0, 10));

	int ro = open(path("lk"), O_RDONLY), wo = open(path("lk"), O_WRONLY);
	say("w_on_rdonly %s", lk(ro, F_SETLK, F_WRLCK, SEEK_SET, 0, 10));
	say("r_on_rdonly %s", lk(ro, F_SETLK, F_RDLCK, SEEK_SET, 0, 10));
	say("r_on_wronly %s", lk(wo, F_SETLK, F_RDLCK, SEEK_SET, 0, 10));
	say("w_on_wronly %s", lk(wo, F_SETLK, F_WRLCK, SEEK_SET, 20, 10));
	say("getlk_w_on_rdonly %s", getlk(ro, F_WRLCK, 0, 10));
	say("unlock_on_rdonly %s", lk(ro, F_SETLK, F_UNLCK, SEEK_SET, 0, 0));
	close(ro);
	close(wo);

	in_child("child_lock", c_lock_and_exit);
	say("after_child_exit %s", getlk(cfd, F_WRLCK, 0, 0));
}

/* The 32-bit struct flock (fcntl64 with F_GETLK = 5, as a program built
 * without large files calls it): a lock past 2 GiB cannot be shown. */
struct flock32 {
	short l_type, l_whence;
	int l_start, l_len, l_pid;
};

static void c_flock32(void)
{
	struct flock32 fl = { F_WRLCK, SEEK_SET, 0, 0, 0 };
	SEE("getlk32_whole", rv(syscall(SYS_fcntl64, cfd, 5, &fl)));
	struct flock32 f2 = { F_WRLCK, SEEK_SET, 0, 100, 0 };
	SEE("getlk32_first_100", rv(syscall(SYS_fcntl64, cfd, 5, &f2)));
	report(seen_w, " type=%s", tname(f2.l_type));
}

static void big_cases(void)
{
	say("setlk_w_3g %s", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 3LL << 30, 100));
	in_child("flock32", c_flock32);
	say("unlock_all %s", lk(cfd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0));
}

/* ---- F_SETLKW ---------------------------------------------------------------- */

static void on_alarm(int sig)
{
	(void)sig;
}

static void wait_cases(void)
{
	int go[2], done[2];
	char c;
	/* 1. waits until the child unlocks: the child's byte is there after */
	pipe(go);
	pid_t pid = fork();
	if (pid == 0) {
		lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 0, 10);
		write(go[1], "x", 1);
		usleep(300000);
		pwrite(cfd, "C", 1, 5);
		lk(cfd, F_SETLK, F_UNLCK, SEEK_SET, 0, 10);
		usleep(300000);
		_exit(0);
	}
	child_pid = pid;
	read(go[0], &c, 1);
	const char *r = lk(cfd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 10);
	char b = 0;
	pread(cfd, &b, 1, 5);
	say("setlkw_waits %s byte_after=%c", r, b);
	int st;
	waitpid(pid, &st, 0);
	say("unlock_all %s", lk(cfd, F_SETLK, F_UNLCK, SEEK_SET, 0, 0));
	close(go[0]);
	close(go[1]);

	/* 2. a cycle: the child waits for the parent, the parent then for it */
	pipe(go);
	pipe(done);
	say("setlk_w_0_10 %s", lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 0, 10));
	pid = fork();
	if (pid == 0) {
		lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 10, 10);
		write(go[1], "x", 1);
		const char *cr = lk(cfd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 10);
		dprintf(done[1], "%s", cr);
		_exit(0);
	}
	child_pid = pid;
	read(go[0], &c, 1);
	usleep(300000);                /* the child is asleep in F_SETLKW */
	say("deadlock %s", lk(cfd, F_SETLKW, F_WRLCK, SEEK_SET, 10, 10));
	say("getlk_child_10 %s", getlk(cfd, F_WRLCK, 10, 10));
	say("unlock_0_10 %s", lk(cfd, F_SETLK, F_UNLCK, SEEK_SET, 0, 10));
	char text[64] = "";
	close(done[1]);
	read(done[0], text, sizeof text - 1);
	waitpid(pid, &st, 0);
	say("child_setlkw %s %s", text, wstatus(st));
	close(done[0]);
	close(go[0]);
	close(go[1]);

	/* 3. a signal ends the wait: EINTR (no SA_RESTART) */
	pipe(go);
	pid = fork();
	if (pid == 0) {
		lk(cfd, F_SETLK, F_WRLCK, SEEK_SET, 0, 10);
		write(go[1], "x", 1);
		pause();
		_exit(0);
	}
	child_pid = pid;
	read(go[0], &c, 1);
	struct sigaction sa = { .sa_handler = on_alarm };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { .it_value = { 0, 200000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	say("setlkw_signal %s", lk(cfd, F_SETLKW, F_WRLCK, SEEK_SET, 0, 10));
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	say("after_holder_killed %s", getlk(cfd, F_WRLCK, 0, 0));
	close(go[0]);
	close(go[1]);
}

/* ---- flock ------------------------------------------------------------------- */

static void c_flock_unlock_shared(void)
{
	SEE("flock_un_inherited", rv(flock(cfd, LOCK_UN)));
}

static void flock_cases(void)
{
	int f1 = open(path("lk"), O_RDWR), f2 = open(path("lk"), O_RDWR);
	int f3 = open(path("lk"), O_RDONLY);
	say("flock_ex %s", rv(flock(f1, LOCK_EX)));
	say("flock_ex_again %s", rv(flock(f1, LOCK_EX | LOCK_NB)));
	say("other_ex_nb %s", rv(flock(f2, LOCK_EX | LOCK_NB)));
	say("other_sh_nb %s", rv(flock(f2, LOCK_SH | LOCK_NB)));
	int d = dup(f1);
	say("dup_sh %s", rv(flock(d, LOCK_SH)));
	say("other_sh_nb_now %s", rv(flock(f2, LOCK_SH | LOCK_NB)));
	say("convert_ex_nb %s", rv(flock(f1, LOCK_EX | LOCK_NB)));
	say("third_ex_nb %s", rv(flock(f3, LOCK_EX | LOCK_NB)));
	say("other_un %s", rv(flock(f2, LOCK_UN)));
	say("third_ex_nb_after %s", rv(flock(f3, LOCK_EX | LOCK_NB)));
	say("close_third %s", rv(close(f3)));
	say("other_ex_nb_after_close %s", rv(flock(f2, LOCK_EX | LOCK_NB)));
	/* fork: the child's descriptor is the same open file: its LOCK_UN
	 * is the parent's lock going */
	cfd = f2;
	in_child("fork_shares", c_flock_unlock_shared);
	say("ex_nb_after_child_un %s", rv(flock(f1, LOCK_EX | LOCK_NB)));
	/* flock and fcntl locks do not see each other: f1 holds LOCK_EX */
	cfd = f2;
	in_child("posix_beside_flock", c_lock_and_exit);
	say("posix_w_beside_flock %s", lk(f2, F_SETLK, F_WRLCK, SEEK_SET, 0, 0));
	say("unlock_posix %s", lk(f2, F_SETLK, F_UNLCK, SEEK_SET, 0, 0));
	say("flock_zero %s", rv(flock(f1, 0)));
	say("flock_sh_ex %s", rv(flock(f1, LOCK_SH | LOCK_EX)));
	say("flock_un_nb %s", rv(flock(f1, LOCK_UN | LOCK_NB)));
	say("flock_un_unlocked %s", rv(flock(f2, LOCK_UN)));
	say("flock_bad_fd %s", rv(flock(99, LOCK_SH)));
	close(d);
	close(f1);
	close(f2);
}

int main(int argc, char **argv)
{
	conform_start("locks", argc, argv);
	parent_pid = getpid();
	cfd = fresh("lk", 1000, 0);
	posix_cases();
	big_cases();
	wait_cases();
	int keep = cfd;
	flock_cases();
	done(keep, "lk");
	conform_end();
	return 0;
}
