/*
 * t_proc.c - processes, signals, memory and time through our libc:
 * fork/wait status words, kill, sigaction with a handler that returns
 * through the restorer (rt_sigreturn), sigprocmask, brk, mmap/munmap/
 * mprotect, uname, clock_gettime and nanosleep.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

static volatile int got_signal;

static void on_usr1(int sig)
{
	got_signal = sig;
}

static volatile int info_signo, info_pid;

static void on_usr2_info(int sig, siginfo_t *info, void *ucontext)
{
	(void)ucontext;
	got_signal = sig;
	info_signo = info->si_signo;
	info_pid = info->si_pid;
}

int main(void)
{
	pid_t pid;
	int ws, fds[2];
	char buf[32];

	/* fork, exit status, and the child's view of itself. */
	pipe(fds);
	pid = fork();
	if (pid == 0) {
		char msg[32];
		int n = snprintf(msg, sizeof(msg), "%d %d", getpid(), getppid());
		write(fds[1], msg, n);
		_exit(42);
	}
	CHECK("proc.fork", pid > 0);
	close(fds[1]);
	{
		int n = read(fds[0], buf, sizeof(buf) - 1);
		char want[32];
		buf[n > 0 ? n : 0] = '\0';
		snprintf(want, sizeof(want), "%d %d", pid, getpid());
		CHECK_STR("proc.child_getpid_getppid", buf, want);
	}
	close(fds[0]);
	CHECK("proc.waitpid_exit_status", waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) &&
	      WEXITSTATUS(ws) == 42);
	errno = 0;
	CHECK("proc.wait_no_children_ECHILD", wait(&ws) == -1 && errno == ECHILD);

	/* A child killed by a signal. */
	pid = fork();
	if (pid == 0) {
		for (;;)
			sleep(1);       /* until killed */
	}
	CHECK("proc.kill", kill(pid, SIGKILL) == 0);
	CHECK("proc.wait_signaled", waitpid(pid, &ws, 0) == pid && WIFSIGNALED(ws) &&
	      WTERMSIG(ws) == SIGKILL);
	errno = 0;
	CHECK("proc.kill_no_such_ESRCH", kill(pid, 0) == -1 && errno == ESRCH);

	/* Handlers: the handler runs, returns through __restore_rt, and the
	 * interrupted code carries on with its registers intact. */
	{
		struct sigaction sa, old;
		volatile int before = 1234;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		CHECK("signal.sigaction", sigaction(SIGUSR1, &sa, NULL) == 0);
		CHECK("signal.sigaction_reads_back", sigaction(SIGUSR1, NULL, &old) == 0 &&
		      old.sa_handler == on_usr1 && (old.sa_flags & SA_RESTORER));
		raise(SIGUSR1);
		CHECK("signal.handler_ran", got_signal == SIGUSR1);
		CHECK("signal.returned_intact", before == 1234);
	}
	{
		sigset_t set, old;

		got_signal = 0;
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		CHECK("signal.sigprocmask_block", sigprocmask(SIG_BLOCK, &set, &old) == 0);
		raise(SIGUSR1);
		CHECK("signal.blocked_not_delivered", got_signal == 0);
		sigprocmask(SIG_SETMASK, &old, NULL);
		CHECK("signal.delivered_on_unblock", got_signal == SIGUSR1);
	}
	{
		struct sigaction sa;

		got_signal = 0;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_usr2_info;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGUSR2, &sa, NULL);
		raise(SIGUSR2);
		CHECK("signal.siginfo_handler_ran", got_signal == SIGUSR2);
		CHECK("signal.siginfo_fields", info_signo == SIGUSR2 && info_pid == getpid());
	}
	CHECK("signal.ignore", signal(SIGUSR2, SIG_IGN) != SIG_ERR && raise(SIGUSR2) == 0);
	errno = 0;
	CHECK("signal.bad_signal_EINVAL", signal(1000, SIG_IGN) == SIG_ERR && errno == EINVAL);

	/* Memory. */
	{
		char *b0 = sbrk(0), *p = sbrk(8192);
		CHECK("mem.sbrk_grows", p == b0 && sbrk(0) == b0 + 8192);
		memset(p, 0x5a, 8192);
		CHECK("mem.sbrk_usable", p[0] == 0x5a && p[8191] == 0x5a);
		sbrk(-8192);
	}
	{
		char *m = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		CHECK("mem.mmap_anonymous", m != MAP_FAILED && ((unsigned long)m & 4095) == 0);
		CHECK("mem.mmap_zeroed", m[0] == 0 && m[3 * 4096 - 1] == 0);
		m[5000] = 'x';
		CHECK("mem.mmap_writable", m[5000] == 'x');
		CHECK("mem.mprotect", mprotect(m, 4096, PROT_READ) == 0);
		CHECK("mem.munmap", munmap(m, 3 * 4096) == 0);
		errno = 0;
		CHECK("mem.mmap_bad_EINVAL", mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) ==
		      MAP_FAILED && errno == EINVAL);
	}

	/* System and time. */
	{
		struct utsname u;
		CHECK("sys.uname", uname(&u) == 0 && u.sysname[0] != '\0' && u.machine[0] != '\0');
	}
	{
		struct timespec a, b, d = { 0, 20 * 1000 * 1000 };
		struct timeval tv;
		long long ns;

		CHECK("time.clock_gettime", clock_gettime(CLOCK_MONOTONIC, &a) == 0);
		CHECK("time.nanosleep", nanosleep(&d, NULL) == 0);
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
		CHECK("time.slept_at_least_20ms", ns >= 20 * 1000 * 1000);
		CHECK("time.gettimeofday", gettimeofday(&tv, NULL) == 0 && tv.tv_sec > 0 &&
		      tv.tv_usec >= 0 && tv.tv_usec < 1000000);
	}
	CHECK("proc.getpgrp", getpgrp() > 0);
	return check_summary();
}
