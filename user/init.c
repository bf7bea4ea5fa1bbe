/*
 * init.c - /sbin/init, the first user process (pid 1).
 *
 * The kernel starts it (or whatever init= names) with no open files. It:
 *   1. opens the console as fds 0, 1 and 2 if they are not open yet,
 *   2. prints a banner,
 *   3. runs /etc/rc through the shell, if that file exists,
 *   4. starts the shell, and starts it again whenever it exits,
 *   5. meanwhile reaps every orphan the kernel re-parents to it
 *      (a zombie whose parent died has nobody else to wait for it).
 *
 * For testing on a Linux host the paths can be overridden through the
 * environment (the kernel passes unknown "key=value" boot arguments to
 * init's environment, as Linux does):
 *
 *   INIT_CONSOLE=/dev/console   INIT_RC=/etc/rc   INIT_SHELL=/bin/sh
 *   INIT_ONCE=1   run the shell once and exit with its status (tests only:
 *                 a real pid 1 must never exit)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return (v && *v) ? v : fallback;
}

/* Make sure fds 0, 1, 2 exist, on the console if we can open it. */
static void open_console(const char *console)
{
	int fd;

	if (fcntl(0, F_GETFD) >= 0 && fcntl(1, F_GETFD) >= 0 && fcntl(2, F_GETFD) >= 0)
		return;     /* already set up (e.g. by the kernel, or a test) */
	fd = open(console, O_RDWR);
	if (fd < 0) {
		/* Nothing to print to; keep going, a shell on no tty is
		 * still better than a dead system. */
		return;
	}
	/* Fill whichever of 0, 1, 2 are missing with copies of fd. */
	for (int want = 0; want < 3; want++)
		if (fcntl(want, F_GETFD) < 0)
			dup2(fd, want);
	if (fd > 2)
		close(fd);
}

static const char *console;

/*
 * Start argv[0] with argv; returns the child's pid or -1.
 *
 * The child becomes a session leader (setsid) and opens the console
 * again, as getty does on Linux: a session leader's open of a terminal
 * makes it the session's controlling terminal, with the leader's process
 * group in the foreground. That is the group the tty sends SIGINT to on
 * Ctrl-C. If the console cannot be opened the child keeps init's fds.
 */
static pid_t spawn(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd;

		setsid();
		fd = open(console, O_RDWR);
		if (fd >= 0) {
			for (int i = 0; i < 3; i++)
				dup2(fd, i);
			if (fd > 2)
				close(fd);
		}
		signal(SIGINT, SIG_DFL);
		execv(argv[0], argv);
		fprintf(stderr, "init: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		fprintf(stderr, "init: fork: %s\n", strerror(errno));
	return pid;
}

/* Wait for pid, reaping any orphans that finish meanwhile. */
static int wait_for(pid_t pid)
{
	int ws;
	pid_t r;

	for (;;) {
		r = wait(&ws);
		if (r == pid)
			return ws;
		if (r < 0 && errno != EINTR)
			return -1;
		/* r is some orphan: it is reaped now, nothing more to do. */
	}
}

static void banner(void)
{
	struct utsname u;

	if (uname(&u) == 0)
		printf("\n%s %s (%s)\n", u.sysname, u.release, u.machine);
	printf("Welcome to Vellum. Type 'ls /bin' to see the programs; see /README.\n\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *rc = env_or("INIT_RC", "/etc/rc");
	const char *shell = env_or("INIT_SHELL", "/bin/sh");
	int once = getenv("INIT_ONCE") != NULL;
	struct stat st;

	(void)argc;
	(void)argv;
	console = env_or("INIT_CONSOLE", "/dev/console");
	open_console(console);
	signal(SIGINT, SIG_IGN);    /* Ctrl-C is for the shell's children */
	if (!getenv("PATH"))
		setenv("PATH", "/bin:/sbin:/usr/bin", 1);
	if (!getenv("HOME"))
		setenv("HOME", "/", 1);
	banner();

	if (stat(rc, &st) == 0) {
		char *rc_argv[] = { (char *)shell, (char *)rc, NULL };
		pid_t pid = spawn(rc_argv);

		if (pid > 0) {
			int ws = wait_for(pid);
			if (ws != 0)
				fprintf(stderr, "init: %s exited with status %d\n", rc,
					WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws));
		}
	}

	for (;;) {
		char *sh_argv[] = { (char *)shell, NULL };
		pid_t pid = spawn(sh_argv);
		int ws;

		if (pid < 0) {
			sleep(1);
			continue;
		}
		ws = wait_for(pid);
		if (once)
			return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
		printf("\ninit: shell exited, starting a new one\n");
		fflush(stdout);
		/* If the shell dies at once (missing, broken), don't spin. */
		if (ws != 0)
			sleep(1);
	}
}
