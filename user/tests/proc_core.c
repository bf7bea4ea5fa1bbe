/*
 * proc_core.c - the process layer's core, checked from user space without
 * needing a console or a file system: every check's result is the EXIT
 * STATUS (0 = all passed, else the line number of the first failure, mod
 * 256, plus 1 so it is never 0), which the kernel test (kernel/proc_test.c,
 * test=proc) reads with wait4.  Covers: fork/wait status words, copy-on-
 * write (parent and child see their own writes), getpid/getppid, execve
 * with argv/envp/auxv, signal handlers with exact register restore,
 * blocked signals, SIGKILL, job control (SIGSTOP/SIGTSTP stop a child:
 * wait4 WUNTRACED reports it, it does not run, SIGCHLD comes; SIGCONT
 * resumes it and drops a pending stop; SIGKILL ends it stopped), faults
 * (NULL read, write to read-only memory,
 * stack overflow) ending the child with SIGSEGV, and a fork/exec/wait
 * stress whose free-frame count must come back to where it was.
 * Run with argv[1] = "child" it is the exec target.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FAIL() _exit((__LINE__ % 255) + 1)
#define T(c) do { if (!(c)) FAIL(); } while (0)

extern char **environ;
static long vdebug(long op)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(500), "b"(op), "c"(0) : "memory");
	return r;
}

static void my_pause(void)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(29) : "memory");
}

static int global_value = 1234;
static volatile int got;

static void on_usr1(int sig) { got = sig; }

/* Clobber registers in the handler: sigreturn must restore the caller's. */
static void on_usr2(int sig)
{
	got = sig;
	__asm__ volatile("movl $0x11111111, %%esi; movl $0x22222222, %%edi" ::: "esi", "edi");
}

static int child_status(pid_t pid)
{
	int st = -1;
	T(waitpid(pid, &st, 0) == pid);
	return st;
}

static volatile int chld_count;
static void on_chld(int sig) { (void)sig; chld_count++; }

/* Wait (at most ~2 s) until the shared counter moves past 'than'. */
static int counter_moves(volatile unsigned long *counter, unsigned long than)
{
	for (int i = 0; i < 200 && *counter <= than; i++)
		usleep(10000);
	return *counter > than;
}

/* Job control.  The child spins incrementing a counter in a MAP_SHARED
 * page: while it is stopped the counter must stand still. */
static void jobctl_checks(void)
{
	volatile unsigned long *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	T(shared != MAP_FAILED);
	volatile unsigned long *counter = &shared[0], *go = &shared[1];
	struct sigaction sa, old_chld;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_chld;
	sa.sa_flags = SA_RESTART;
	T(sigaction(SIGCHLD, &sa, &old_chld) == 0);
	int st;

	pid_t pid = fork();
	T(pid >= 0);
	if (pid == 0)
		for (;;)
			(*counter)++;
	T(counter_moves(counter, 0));

	/* SIGSTOP: reported once to WUNTRACED, with SIGCHLD; the child is frozen */
	chld_count = 0;
	T(kill(pid, SIGSTOP) == 0);
	st = 0;
	T(waitpid(pid, &st, WUNTRACED) == pid);
	T(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP && st == ((SIGSTOP << 8) | 0x7f));
	T(!WIFEXITED(st) && !WIFSIGNALED(st));
	T(chld_count >= 1);
	unsigned long frozen = *counter;
	usleep(100000);                          /* 10 ticks: it would have run */
	T(*counter == frozen);
	T(waitpid(pid, &st, WUNTRACED | WNOHANG) == 0);  /* reported already */
	T(waitpid(pid, &st, WNOHANG) == 0);              /* not reaped */

	/* SIGCONT: runs again; WCONTINUED reports it once */
	T(kill(pid, SIGCONT) == 0);
	st = 0;
	T(waitpid(pid, &st, WCONTINUED) == pid);
	T(WIFCONTINUED(st) && !WIFSTOPPED(st) && !WIFEXITED(st));
	T(waitpid(pid, &st, WCONTINUED | WNOHANG) == 0);
	T(counter_moves(counter, frozen));

	/* SIGTSTP's default action stops too; SIGKILL ends the stopped child */
	T(kill(pid, SIGTSTP) == 0);
	T(waitpid(pid, &st, WUNTRACED) == pid);
	T(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTSTP);
	T(kill(pid, SIGKILL) == 0);
	T(waitpid(pid, &st, WUNTRACED) == pid);
	T(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);

	/* SIGCONT discards a pending (here: blocked) stop signal */
	*counter = 0;
	*go = 0;
	pid = fork();
	T(pid >= 0);
	if (pid == 0) {
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGTSTP);
		sigprocmask(SIG_BLOCK, &set, NULL);
		*counter = 1;                    /* blocked: tell the parent */
		while (!*go)
			usleep(1000);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		_exit(7);                        /* a stop signal left would stop us first */
	}
	T(counter_moves(counter, 0));
	T(kill(pid, SIGTSTP) == 0);
	T(kill(pid, SIGCONT) == 0);
	*go = 1;
	st = 0;
	T(waitpid(pid, &st, WUNTRACED) == pid);
	T(WIFEXITED(st) && WEXITSTATUS(st) == 7);

	T(sigaction(SIGCHLD, &old_chld, NULL) == 0);
	T(munmap((void *)shared, 4096) == 0);
}

static int recurse(int n)
{
	volatile char big[4096];
	big[0] = (char)n;
	if (n < 0)                      /* never: keeps the compiler from */
		return 0;               /* calling this infinite recursion */
	return recurse(n + 1) + big[0];
}

static void fault_child(int how)
{
	pid_t pid = fork();
	T(pid >= 0);
	if (pid == 0) {
		if (how == 0)
			got = *(volatile int *)0;              /* NULL read */
		else if (how == 1)
			*(volatile char *)(void *)fault_child = 0; /* text is read-only */
		else
			recurse(1);                             /* past the stack limit */
		_exit(0);
	}
	int st = child_status(pid);
	T(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "child")) {
		/* exec target: argv, envp and the auxv arrived */
		T(argc == 3 && !strcmp(argv[2], "two"));
		T(getenv("PROCTEST") && !strcmp(getenv("PROCTEST"), "yes"));
		_exit(42);
	}

	/* identity */
	pid_t me = getpid();
	T(me > 0);

	/* fork + wait status */
	pid_t pid = fork();
	T(pid >= 0);
	if (pid == 0) {
		T(getppid() == me);
		_exit(7);
	}
	int st = child_status(pid);
	T(WIFEXITED(st) && WEXITSTATUS(st) == 7);
	T(waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD);

	/* copy-on-write: each side sees its own writes */
	int stackvar = 5;
	pid = fork();
	if (pid == 0) {
		global_value = 99;
		stackvar = 6;
		_exit(global_value == 99 && stackvar == 6 ? 0 : 1);
	}
	st = child_status(pid);
	T(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	T(global_value == 1234 && stackvar == 5);
	global_value = 4321;
	pid = fork();
	if (pid == 0)
		_exit(global_value == 4321 ? 0 : 1);
	st = child_status(pid);
	T(WEXITSTATUS(st) == 0);

	/* execve with arguments and environment */
	pid = fork();
	if (pid == 0) {
		char *av[] = { argv[0], "child", "two", NULL };
		char *ev[] = { "PROCTEST=yes", NULL };
		execve(argv[0], av, ev);
		_exit(99);
	}
	st = child_status(pid);
	T(WIFEXITED(st) && WEXITSTATUS(st) == 42);
	T(execve("/no/such/program", argv, environ) == -1 && errno == ENOENT);

	/* signal handler; registers restored exactly by sigreturn */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	T(sigaction(SIGUSR1, &sa, NULL) == 0);
	T(kill(me, SIGUSR1) == 0);
	T(got == SIGUSR1);
	sa.sa_handler = on_usr2;
	T(sigaction(SIGUSR2, &sa, NULL) == 0);
	got = 0;
	unsigned long esi = 0xabcdef01, edi = 0x12345678, eax;
	__asm__ volatile("int $0x80"
			 : "=a"(eax), "+S"(esi), "+D"(edi)
			 : "a"(37 /* kill */), "b"(me), "c"(SIGUSR2) : "memory");
	T(eax == 0 && got == SIGUSR2);
	T(esi == 0xabcdef01 && edi == 0x12345678);

	/* blocked: pending, delivered at unblock */
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	T(sigprocmask(SIG_BLOCK, &set, &old) == 0);
	got = 0;
	kill(me, SIGUSR1);
	T(got == 0);
	T(sigprocmask(SIG_SETMASK, &old, NULL) == 0);
	T(got == SIGUSR1);
	T(sigaction(SIGKILL, &sa, NULL) == -1 && errno == EINVAL);

	/* SIGKILL ends a child blocked in pause() */
	pid = fork();
	if (pid == 0) {
		for (;;)
			my_pause();
	}
	T(kill(pid, SIGKILL) == 0);
	st = child_status(pid);
	T(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	/* default action of SIGTERM terminates */
	pid = fork();
	if (pid == 0) {
		for (;;)
			my_pause();
	}
	kill(pid, SIGTERM);
	st = child_status(pid);
	T(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	T(kill(99999, SIGTERM) == -1 && errno == ESRCH);

	jobctl_checks();

	/* faults: the child dies of SIGSEGV, we go on */
	fault_child(0);
	fault_child(1);
	fault_child(2);

	/* stress: many fork/exit/wait, nothing leaked */
	for (int i = 0; i < 20; i++) {           /* warm the allocator's caches */
		pid = fork();
		if (pid == 0)
			_exit(i);
		child_status(pid);
	}
	long before = vdebug(1);
	T(before > 0);
	for (int i = 0; i < 300; i++) {
		pid = fork();
		T(pid > 0 || pid == 0);
		if (pid == 0)
			_exit(i & 0xff);
		st = child_status(pid);
		T(WIFEXITED(st) && WEXITSTATUS(st) == (i & 0xff));
	}
	for (int i = 0; i < 30; i++) {           /* fork + exec + wait */
		pid = fork();
		if (pid == 0) {
			char *av[] = { argv[0], "child", "two", NULL };
			char *ev[] = { "PROCTEST=yes", NULL };
			execve(argv[0], av, ev);
			_exit(99);
		}
		st = child_status(pid);
		T(WEXITSTATUS(st) == 42);
	}
	long after = vdebug(1);
	T(after == before);
	_exit(0);
}
