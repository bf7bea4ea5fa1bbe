/* threads.c - conformance: threads and futexes (issue 23).  Eight
 * pthreads contending on a mutex and two condition variables (a
 * producer/consumer handshake around a shared counter), getpid against
 * gettid, pthread_join's value, a new thread's alternate signal stack,
 * exit_group from a thread, a fatal signal in a thread, execve from a
 * thread, a robust mutex whose owner dies, wait() not seeing threads,
 * kill() reaching a process whose main thread blocks the signal, tgkill,
 * futex's EAGAIN and ETIMEDOUT (relative and absolute) and argument errors,
 * system() and posix_spawn (CLONE_VM | CLONE_VFORK), and a shared futex
 * between two processes over a MAP_SHARED page of a file in DIR and of
 * anonymous memory.  Prints observations only (conform.h); nothing
 * depends on timing.
 */
#include "conform.h"
#include <pthread.h>
#include <spawn.h>
#include <time.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <sys/mman.h>

#define NTHREADS 8
#define ROUNDS   500

static long futex(void *uaddr, int op, int val, const struct timespec *ts, int val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, NULL, val3);
}

/* ---- eight threads, a mutex, a condition variable --------------------------
 * Each worker, ROUNDS times: wait (cond) until the slot is full, take the
 * value from it, empty it, signal the producer, add the value to the total.
 * The producer (main) fills the slot NTHREADS * ROUNDS times with 1, 2, ...
 * The total must be the sum; each worker also counts its own takes. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t full = PTHREAD_COND_INITIALIZER, empty = PTHREAD_COND_INITIALIZER;
static long slot, total, takes[NTHREADS];
static int slot_full, stop;

static void *worker(void *arg)
{
	long id = (long)arg, mine = 0;
	for (;;) {
		pthread_mutex_lock(&lock);
		while (!slot_full && !stop)
			pthread_cond_wait(&full, &lock);
		if (!slot_full && stop) {
			pthread_mutex_unlock(&lock);
			break;
		}
		total += slot;
		slot_full = 0;
		mine++;
		pthread_cond_signal(&empty);
		pthread_mutex_unlock(&lock);
	}
	takes[id] = mine;
	return (void *)(id * 100);
}

static void contend(void)
{
	pthread_t t[NTHREADS];
	int created = 0;
	for (long i = 0; i < NTHREADS; i++)
		created += pthread_create(&t[i], NULL, worker, (void *)i) == 0;
	long n = (long)NTHREADS * ROUNDS;
	for (long v = 1; v <= n; v++) {
		pthread_mutex_lock(&lock);
		while (slot_full)
			pthread_cond_wait(&empty, &lock);
		slot = v;
		slot_full = 1;
		pthread_cond_signal(&full);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	while (slot_full)
		pthread_cond_wait(&empty, &lock);
	stop = 1;
	pthread_cond_broadcast(&full);
	pthread_mutex_unlock(&lock);
	long joined = 0, sum_takes = 0, values = 0;
	for (int i = 0; i < NTHREADS; i++) {
		void *ret;
		if (pthread_join(t[i], &ret) == 0)
			joined++;
		values += (long)ret;
		sum_takes += takes[i];
	}
	say("contend created=%d joined=%ld total=%ld expected=%ld takes=%ld join_values=%ld",
	    created, joined, total, n * (n + 1) / 2, sum_takes, values);
}

/* ---- identities ------------------------------------------------------------ */
static pid_t thr_pid, thr_tid;

static void *ids(void *arg)
{
	thr_pid = getpid();
	thr_tid = syscall(SYS_gettid);
	return arg;
}

static void identities(void)
{
	pthread_t t;
	pthread_create(&t, NULL, ids, NULL);
	pthread_join(t, NULL);
	pid_t tid = syscall(SYS_gettid);
	say("ids main_tid_is_pid=%d thread_pid_is_pid=%d thread_tid_differs=%d",
	    tid == getpid(), thr_pid == getpid(), thr_tid != getpid() && thr_tid > 0);
}

/* ---- a new thread has no alternate signal stack ------------------------------
 * (It shares the memory: the creator's would be used by both at once.) */
static int thr_ss_flags;

static void *altstack_of(void *arg)
{
	stack_t old;
	thr_ss_flags = sigaltstack(NULL, &old) ? -1 : old.ss_flags;
	return arg;
}

static void altstack_in_thread(void)
{
	static char alt[65536];
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0 }, old;
	int set = sigaltstack(&ss, NULL);
	pthread_t t;
	pthread_create(&t, NULL, altstack_of, NULL);
	pthread_join(t, NULL);
	sigaltstack(NULL, &old);
	say("altstack set=%d main_flags=%d thread_flags=%d", set, old.ss_flags, thr_ss_flags);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

/* ---- exit_group from a thread, a fatal signal in a thread ------------------ */
static void *exits_all(void *arg)
{
	(void)arg;
	exit(42);                      /* exit_group: the whole process, status 42 */
}

static void *sleeps(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static int *volatile bad_ptr = (int *)0x10;   /* an address nothing maps */

static void *segfaults(void *arg)
{
	*bad_ptr = 1;
	return arg;
}

static void group_ends(void (*fn)(void), const char *key)
{
	pid_t pid = fork();
	if (pid == 0) {
		fn();
		_exit(1);              /* not reached if the group ended */
	}
	int st = 0;
	pid_t w = waitpid(pid, &st, 0);
	say("%s waited_right=%d status=%s", key, w == pid, wstatus(st & ~0x80));
}

static void exit_from_thread(void)
{
	pthread_t a, b;
	pthread_create(&b, NULL, sleeps, NULL);
	pthread_create(&a, NULL, exits_all, NULL);
	for (;;)
		pause();
}

static void fault_in_thread(void)
{
	pthread_t a, b;
	pthread_create(&b, NULL, sleeps, NULL);
	pthread_create(&a, NULL, segfaults, NULL);
	for (;;)
		pause();
}

/* The main thread ends with pthread_exit; the other thread, last, exits 0
 * after a while: the process ends with it. */
static void *exits_later(void *arg)
{
	(void)arg;
	struct timespec ts = { 0, 100000000 };
	nanosleep(&ts, NULL);
	return NULL;
}

static void last_thread_ends_process(void)
{
	pthread_t a;
	pthread_create(&a, NULL, exits_later, NULL);
	pthread_exit(NULL);
}

/* kill() of a process whose main thread blocks SIGUSR1: a thread that does
 * not block it takes it (its handler records which). */
static volatile pid_t usr1_tid;
static void on_usr1(int sig)
{
	(void)sig;
	usr1_tid = syscall(SYS_gettid);
}

static volatile pid_t taker_tid;
static volatile int taker_go;
static void *taker(void *arg)
{
	(void)arg;
	taker_tid = syscall(SYS_gettid);
	while (!taker_go)
		sched_yield();
	return NULL;
}

static void process_signal(void)
{
	signal(SIGUSR1, on_usr1);
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_t t;
	pthread_create(&t, NULL, taker, NULL);   /* created with it unblocked */
	pthread_sigmask(SIG_BLOCK, &set, &old);  /* main blocks it now */
	while (!taker_tid)
		sched_yield();
	kill(getpid(), SIGUSR1);
	for (int i = 0; i < 1000 && !usr1_tid; i++)
		sched_yield();
	int by_taker = usr1_tid == taker_tid;
	/* tgkill: that thread, in that group only. */
	usr1_tid = 0;
	const char *r1 = rv(syscall(SYS_tgkill, getpid(), taker_tid, SIGUSR1));
	for (int i = 0; i < 1000 && !usr1_tid; i++)
		sched_yield();
	int tgkill_hit = usr1_tid == taker_tid;
	pid_t other = fork();          /* another thread group */
	if (other == 0) {
		for (;;)
			pause();
	}
	const char *r2 = rv(syscall(SYS_tgkill, other, taker_tid, 0));   /* not its group */
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);
	const char *r3 = rv(syscall(SYS_tgkill, getpid(), 0, 0));
	taker_go = 1;
	pthread_join(t, NULL);
	say("kill_process taken_by_unblocked_thread=%d", by_taker);
	say("tgkill ret=%s reached_that_thread=%d other_group=%s tid0=%s",
	    r1, tgkill_hit, r2, r3);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	signal(SIGUSR1, SIG_DFL);
}

/* ---- execve from a thread -------------------------------------------------
 * A child with three threads: one execs this program again ("exec-child
 * PID"), the others sleep.  The new image checks it kept the pid, is its
 * own only thread (gettid == getpid) and exits with what it found; the
 * sleepers must be gone, or the child would never end. */
static const char *self;
static char exec_pid[16];

static void *execs(void *arg)
{
	char *argv[] = { (char *)self, "exec-child", exec_pid, NULL };
	execv(self, argv);
	return arg;                    /* reached only if execv failed */
}

static void exec_from_thread(void)
{
	pthread_t a, b;
	snprintf(exec_pid, sizeof exec_pid, "%d", getpid());
	pthread_create(&b, NULL, sleeps, NULL);
	pthread_create(&a, NULL, execs, NULL);
	for (;;)
		pause();
}

static int exec_child(const char *pid)
{
	int bad = 0;
	if (getpid() != atoi(pid))
		bad |= 1;
	if (syscall(SYS_gettid) != getpid())
		bad |= 2;
	return bad ? 10 + bad : 5;
}

/* ---- a robust mutex whose owner dies ----------------------------------------
 * A thread locks it and ends without unlocking: the next lock returns
 * EOWNERDEAD (the kernel walked the dead thread's robust list), consistent
 * makes it usable again.  Then the same with main already waiting in the
 * lock when the owner dies: the kernel must wake it. */
static pthread_mutex_t robust;
static volatile int robust_locked;

static void *robust_owner(void *arg)
{
	pthread_mutex_lock(&robust);
	robust_locked = 1;
	if (arg) {
		struct timespec ts = { 0, 100000000 };
		nanosleep(&ts, NULL);  /* main is waiting in the lock by now */
	}
	return NULL;                   /* still holding it */
}

static void robust_mutex(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&robust, &a);
	for (long waiting = 0; waiting < 2; waiting++) {
		pthread_t t;
		robust_locked = 0;
		pthread_create(&t, NULL, robust_owner, (void *)waiting);
		if (!waiting)
			pthread_join(t, NULL);
		else
			while (!robust_locked)
				sched_yield();
		int r1 = pthread_mutex_lock(&robust);
		int r2 = r1 == EOWNERDEAD ? pthread_mutex_consistent(&robust) : -1;
		int r3 = pthread_mutex_unlock(&robust);
		int r4 = pthread_mutex_lock(&robust);
		pthread_mutex_unlock(&robust);
		if (waiting)
			pthread_join(t, NULL);
		say("robust_mutex waiting=%ld lock=%s consistent=%d unlock=%d relock=%d",
		    waiting, errname(r1), r2, r3, r4);
	}
}

/* ---- wait() does not see threads ------------------------------------------- */
static void wait_no_threads(void)
{
	pthread_t t;
	pthread_create(&t, NULL, exits_later, NULL);
	int st;
	pid_t w = waitpid(-1, &st, WNOHANG);
	say("wait_threads waitpid=%s", w < 0 ? rv(w) : "a_pid");
	pthread_join(t, NULL);
	w = waitpid(-1, &st, WNOHANG);
	say("wait_threads after_join waitpid=%s", w < 0 ? rv(w) : "a_pid");
}

/* ---- futex errors ----------------------------------------------------------- */
static void futex_errors(void)
{
	static int word = 5;
	struct timespec rel = { 0, 20000000 }, abs;
	say("futex wait_value_differs ret=%s", rv(futex(&word, FUTEX_WAIT_PRIVATE, 6, NULL, 0)));
	say("futex wait_relative_timeout ret=%s", rv(futex(&word, FUTEX_WAIT_PRIVATE, 5, &rel, 0)));
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_nsec += 20000000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	say("futex wait_bitset_abs_timeout ret=%s",
	    rv(futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 5, &abs, FUTEX_BITSET_MATCH_ANY)));
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_sec -= 1;
	say("futex wait_bitset_realtime_past ret=%s",
	    rv(futex(&word, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 5, &abs,
		     FUTEX_BITSET_MATCH_ANY)));
	say("futex wait_bitset_zero ret=%s",
	    rv(futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 5, NULL, 0)));
	struct timespec bad = { 0, 1000000000 };
	say("futex wait_bad_timespec ret=%s", rv(futex(&word, FUTEX_WAIT_PRIVATE, 5, &bad, 0)));
	say("futex wait_misaligned ret=%s",
	    rv(futex((char *)&word + 1, FUTEX_WAIT_PRIVATE, 5, NULL, 0)));
	say("futex wait_unmapped ret=%s", rv(futex((void *)0x10, FUTEX_WAIT_PRIVATE, 5, NULL, 0)));
	say("futex wake_nobody ret=%s", rv(futex(&word, FUTEX_WAKE_PRIVATE, 1, NULL, 0)));
	say("futex wait_realtime_flag ret=%s",
	    rv(futex(&word, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 5, &rel, 0)));
}

/* ---- system() and posix_spawn ---------------------------------------------- */
static void spawning(void)
{
	int st = system("exit 7");
	say("system status=%s", wstatus(st));
	pid_t pid;
	char *argv[] = { "sh", "-c", "exit 3", NULL };
	char *envp[] = { NULL };
	int err = posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, envp);
	st = 0;
	pid_t w = err ? -1 : waitpid(pid, &st, 0);
	say("posix_spawn err=%d waited_right=%d status=%s", err, w == pid, wstatus(st));
	char *bad[] = { "nothing", NULL };
	err = posix_spawn(&pid, "/nonexistent/x", NULL, NULL, bad, envp);
	say("posix_spawn_missing err=%s", errname(err));
}

/* ---- a shared futex between two processes: a MAP_SHARED page ------------
 * The child sleeps on the word (a shared key: no FUTEX_PRIVATE_FLAG) until
 * the parent stores 1 and wakes it; with private keys (mm, address) the
 * wake would find nobody and the child would be killed.  Over a page of a
 * file in DIR, and over shared anonymous memory. */
static void shared_futex_on(int *w, const char *key)
{
	w[10] = 0;
	w[11] = 0;
	pid_t pid = fork();
	if (pid == 0) {
		long r = 0;
		while (__atomic_load_n(&w[10], __ATOMIC_SEQ_CST) == 0) {
			__atomic_store_n(&w[11], 1, __ATOMIC_SEQ_CST);   /* about to wait */
			r = futex(&w[10], FUTEX_WAIT, 0, NULL, 0);
			if (r < 0 && errno != EAGAIN && errno != EINTR)
				_exit(10);
		}
		_exit(w[10] == 1 ? 0 : 11);
	}
	while (__atomic_load_n(&w[11], __ATOMIC_SEQ_CST) == 0)
		sched_yield();
	struct timespec ts = { 0, 50000000 };
	nanosleep(&ts, NULL);          /* let it sleep in the kernel */
	__atomic_store_n(&w[10], 1, __ATOMIC_SEQ_CST);
	long woken = 0;
	int st = 0;
	for (int i = 0; i < 100; i++) {
		long r = futex(&w[10], FUTEX_WAKE, 1, NULL, 0);
		if (r > 0)
			woken += r;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			say("%s woken_some=%d child=%s", key, woken > 0, wstatus(st));
			return;
		}
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	say("%s woken_some=%d child=%s (killed: not woken)", key, woken > 0, wstatus(st));
}

static void shared_futex(void)
{
	int fd = fresh("futexpage", 4096, 0);
	int *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (w == MAP_FAILED) {
		say("shared_futex mmap %s", rv(-1));
	} else {
		shared_futex_on(w, "shared_futex");
		munmap(w, 4096);
	}
	done(fd, "futexpage");
	w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w == MAP_FAILED) {
		say("shared_futex_anon mmap %s", rv(-1));
		return;
	}
	shared_futex_on(w, "shared_futex_anon");
	munmap(w, 4096);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "exec-child"))
		return exec_child(argv[2]);
	self = argv[0];
	conform_start("threads", argc, argv);
	contend();
	identities();
	altstack_in_thread();
	group_ends(exit_from_thread, "exit_group_from_thread");
	group_ends(fault_in_thread, "fault_in_thread");
	group_ends(last_thread_ends_process, "last_thread_exit");
	group_ends(exec_from_thread, "exec_from_thread");
	process_signal();
	robust_mutex();
	wait_no_threads();
	futex_errors();
	spawning();
	shared_futex();
	conform_end();
	return 0;
}
