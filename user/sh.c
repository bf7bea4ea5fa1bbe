/*
 * sh.c - /bin/sh, Vellum's shell.
 *
 * One line goes through three stages:
 *
 *   "ls -l | wc -l > out; echo $?"
 *        |
 *        v  lex()      words and operators, quotes removed, $vars expanded
 *   [ls] [-l] | [wc] [-l] > [out] ; [echo] [0]
 *        |
 *        v  parse()    a list of pipelines, each a list of commands
 *   pipeline 1: {ls -l} | {wc -l, stdout->out}      joined by ';'
 *   pipeline 2: {echo 0}
 *        |
 *        v  run_list() fork one child per command, connect pipes,
 *                      apply redirections, exec, wait for the last
 *
 * Supported: 'single' and "double" quotes, backslash escapes, $? $$ $!
 * $# $0..$9 $NAME ${NAME}, pipes, < > >> 2> 2>> 2>&1, & ; && ||,
 * comments, NAME=value, builtins (cd pwd exit export unset wait fg bg jobs).
 * Not supported, on purpose: word splitting after expansion ("$x" and $x
 * are the same), globbing, control flow (if/while), quotes across lines.
 *
 * Signals: the shell ignores SIGINT and SIGQUIT; each child resets them to
 * the default before exec, so Ctrl-C (sent by the tty to the foreground
 * process group, which the shell and its foreground children share)
 * kills the running command but not the shell. Background jobs get their
 * own process group and ignore SIGINT, so Ctrl-C does not reach them.
 *
 * Job control, cut down: the shell ignores SIGTSTP, so Ctrl-Z (SIGTSTP to
 * the foreground group) stops only the running command.  The shell waits
 * with WUNTRACED, prints "[pid] stopped", keeps the pid as a stopped job
 * and prompts again.  `fg [pid]` gives the job the terminal (tcsetpgrp, if
 * it has its own group), sends SIGCONT and waits; `bg [pid]` sends SIGCONT
 * only; `jobs` lists them.  A job is one pid (each command of a pipeline is
 * its own job), not a process group as in a full shell.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAXLINE   4096
#define MAXTOKENS 256
#define MAXARGS   64
#define MAXCMDS   16
#define MAXPIPES  32    /* pipelines in one line */
#define MAXJOBS   32

/* ---- shell state ---------------------------------------------------------- */

static int last_status;        /* $? */
static pid_t last_bg_pid;      /* $! */
static int interactive;        /* reading commands from a terminal */
static int script_argc;        /* $# + 1 */
static char **script_argv;     /* $0, $1, ... */

/* Background and stopped pids not yet reaped, with their process group
 * (background: their own; stopped in the foreground: the shell's). */
static struct job { pid_t pid, pgid; int stopped; } jobs[MAXJOBS];
/* Background jobs reap_jobs() collected, with their wait status, until a
 * `wait PID` asks (POSIX: the status of a known job stays available even
 * if it ended before the wait; oldest entries are overwritten). */
static struct { pid_t pid; int ws; } reaped[MAXJOBS];
static int reaped_next;

/* ---- stage 1: the lexer --------------------------------------------------- */

enum tok_type {
	T_WORD,
	T_PIPE,         /* |  */
	T_AMP,          /* &  */
	T_SEMI,         /* ;  */
	T_AND,          /* && */
	T_OR,           /* || */
	T_IN,           /* <  */
	T_OUT,          /* >  */
	T_APPEND,       /* >> */
	T_ERR,          /* 2> */
	T_ERR_APPEND,   /* 2>> */
	T_ERR_TO_OUT,   /* 2>&1 */
	T_END,
};

struct token {
	enum tok_type type;
	char *text;             /* T_WORD: the word, quotes removed */
};

/* Token texts live in a pool that is reset for every line. */
static char pool[MAXLINE * 4];
static size_t pool_used;

static char *pool_save(const char *s, size_t len)
{
	char *p;

	if (pool_used + len + 1 > sizeof(pool))
		return NULL;
	p = pool + pool_used;
	memcpy(p, s, len);
	p[len] = '\0';
	pool_used += len + 1;
	return p;
}

/* A growing word being assembled by the lexer. */
struct word {
	char buf[MAXLINE];
	size_t len;
};

static void word_add(struct word *w, const char *s, size_t n)
{
	if (w->len + n >= sizeof(w->buf))
		n = sizeof(w->buf) - 1 - w->len;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

/*
 * Expand the variable whose name starts at *pp (just after the '$') and
 * append its value to w. Advances *pp past the name. A '$' not followed
 * by a name is kept literally.
 */
static void expand_var(const char **pp, struct word *w)
{
	const char *p = *pp;
	char name[64], num[16];
	const char *val = NULL;
	size_t n = 0;

	if (*p == '?' || *p == '$' || *p == '!' || *p == '#' || isdigit((unsigned char)*p)) {
		if (*p == '?')
			snprintf(num, sizeof(num), "%d", last_status);
		else if (*p == '$')
			snprintf(num, sizeof(num), "%d", getpid());
		else if (*p == '!')
			snprintf(num, sizeof(num), "%d", last_bg_pid);
		else if (*p == '#')
			snprintf(num, sizeof(num), "%d", script_argc > 0 ? script_argc - 1 : 0);
		else
			num[0] = '\0';
		val = num;
		if (isdigit((unsigned char)*p))
			val = (*p - '0' < script_argc) ? script_argv[*p - '0'] : "";
		*pp = p + 1;
		word_add(w, val, strlen(val));
		return;
	}
	if (*p == '{') {
		const char *end = strchr(p, '}');
		if (end && (size_t)(end - p - 1) < sizeof(name)) {
			memcpy(name, p + 1, end - p - 1);
			name[end - p - 1] = '\0';
			*pp = end + 1;
			val = getenv(name);
			if (val)
				word_add(w, val, strlen(val));
			return;
		}
	}
	while ((isalnum((unsigned char)p[n]) || p[n] == '_') && n < sizeof(name) - 1) {
		name[n] = p[n];
		n++;
	}
	if (n == 0) {
		word_add(w, "$", 1);
		return;
	}
	name[n] = '\0';
	*pp = p + n;
	val = getenv(name);
	if (val)
		word_add(w, val, strlen(val));
}

/* Characters that end an unquoted word. */
static int is_special(char c)
{
	return c == '|' || c == '&' || c == ';' || c == '<' || c == '>' ||
	       isspace((unsigned char)c);
}

/*
 * Expand one raw word, as written on the line, into its final text:
 * remove quotes, apply backslash escapes, substitute $variables.
 * This runs just before its pipeline runs, so "false; echo $?" sees the
 * status of false. Returns a string in the pool, or NULL if out of room.
 */
static char *expand_word(const char *p)
{
	static struct word w;

	w.len = 0;
	while (*p) {
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');   /* lex() checked it exists */
			word_add(&w, p + 1, end - p - 1);
			p = end + 1;
		} else if (*p == '"') {
			p++;
			while (*p && *p != '"') {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$')) {
					word_add(&w, p + 1, 1);
					p += 2;
				} else if (*p == '$') {
					p++;
					expand_var(&p, &w);
				} else {
					word_add(&w, p++, 1);
				}
			}
			if (*p == '"')
				p++;
		} else if (*p == '\\' && p[1]) {
			word_add(&w, p + 1, 1);
			p += 2;
		} else if (*p == '$') {
			p++;
			expand_var(&p, &w);
		} else {
			word_add(&w, p++, 1);
		}
	}
	return pool_save(w.buf, w.len);
}

/*
 * Split line into tokens. Words keep their raw text (quotes and all);
 * lex() only finds where each word ends, so that a quoted "a | b" stays
 * one word. Returns the number of tokens (the last is T_END), or -1 after
 * printing an error.
 */
static int lex(const char *line, struct token *toks)
{
	const char *p = line;
	int n = 0;

	pool_used = 0;
	for (;;) {
		enum tok_type op = T_END;
		const char *start;

		while (isspace((unsigned char)*p))
			p++;
		if (n == MAXTOKENS - 1) {
			fprintf(stderr, "sh: line too long\n");
			return -1;
		}
		if (*p == '\0' || *p == '#')
			break;

		/* Operators, longest first. */
		if (p[0] == '2' && p[1] == '>' && p[2] == '&' && p[3] == '1')
			op = T_ERR_TO_OUT, p += 4;
		else if (p[0] == '2' && p[1] == '>' && p[2] == '>')
			op = T_ERR_APPEND, p += 3;
		else if (p[0] == '2' && p[1] == '>')
			op = T_ERR, p += 2;
		else if (p[0] == '&' && p[1] == '&')
			op = T_AND, p += 2;
		else if (p[0] == '|' && p[1] == '|')
			op = T_OR, p += 2;
		else if (p[0] == '>' && p[1] == '>')
			op = T_APPEND, p += 2;
		else if (*p == '|')
			op = T_PIPE, p++;
		else if (*p == '&')
			op = T_AMP, p++;
		else if (*p == ';')
			op = T_SEMI, p++;
		else if (*p == '<')
			op = T_IN, p++;
		else if (*p == '>')
			op = T_OUT, p++;
		if (op != T_END) {
			toks[n].type = op;
			toks[n++].text = NULL;
			continue;
		}

		/* A word: runs of plain, quoted and escaped characters. */
		start = p;
		while (*p && !is_special(*p)) {
			if (*p == '\'' || *p == '"') {
				char q = *p++;
				while (*p && *p != q) {
					if (q == '"' && *p == '\\' && p[1])
						p++;
					p++;
				}
				if (*p != q) {
					fprintf(stderr, "sh: unterminated %c\n", q);
					return -1;
				}
				p++;
			} else if (*p == '\\' && p[1]) {
				p += 2;
			} else {
				p++;
			}
		}
		toks[n].type = T_WORD;
		toks[n].text = pool_save(start, p - start);
		if (!toks[n].text) {
			fprintf(stderr, "sh: line too long\n");
			return -1;
		}
		n++;
	}
	toks[n].type = T_END;
	toks[n].text = NULL;
	return n + 1;
}

/* ---- stage 2: the parser --------------------------------------------------- */

struct cmd {
	char *argv[MAXARGS + 1];
	int argc;
	char *in;               /* < file */
	char *out;              /* > or >> file */
	int out_append;
	char *err;              /* 2> or 2>> file */
	int err_append;
	int err_to_out;         /* 2>&1 */
};

enum joiner { J_ALWAYS, J_IF_OK, J_IF_FAIL };   /* ; or &,  &&,  || */

struct pipeline {
	struct cmd cmds[MAXCMDS];
	int ncmds;
	int background;         /* ended with & */
	enum joiner join;       /* how it follows the previous pipeline */
};

static struct pipeline pipes[MAXPIPES];

static const char *tok_name(enum tok_type t)
{
	static const char *const names[] = {
		"word", "|", "&", ";", "&&", "||", "<", ">", ">>", "2>", "2>>", "2>&1", "newline",
	};
	return names[t];
}

static int syntax_error(enum tok_type t)
{
	fprintf(stderr, "sh: syntax error near '%s'\n", tok_name(t));
	return -1;
}

/* Build pipelines from tokens; returns how many, or -1 on a syntax error. */
static int parse(struct token *t, int ntok)
{
	int np = 0;
	struct pipeline *pl = NULL;
	struct cmd *c = NULL;
	enum joiner next_join = J_ALWAYS;

	for (int i = 0; i < ntok; i++) {
		enum tok_type type = t[i].type;

		if (type == T_END && pl == NULL)
			break;
		if (pl == NULL) {
			if (np == MAXPIPES) {
				fprintf(stderr, "sh: too many commands on one line\n");
				return -1;
			}
			pl = &pipes[np++];
			memset(pl, 0, sizeof(*pl));
			pl->join = next_join;
			c = &pl->cmds[pl->ncmds++];
		}
		switch (type) {
		case T_WORD:
			if (c->argc == MAXARGS) {
				fprintf(stderr, "sh: too many arguments\n");
				return -1;
			}
			c->argv[c->argc++] = t[i].text;
			break;
		case T_IN: case T_OUT: case T_APPEND: case T_ERR: case T_ERR_APPEND:
			if (t[i + 1].type != T_WORD)
				return syntax_error(t[i + 1].type);
			i++;
			if (type == T_IN) {
				c->in = t[i].text;
			} else if (type == T_OUT || type == T_APPEND) {
				c->out = t[i].text;
				c->out_append = (type == T_APPEND);
			} else {
				c->err = t[i].text;
				c->err_append = (type == T_ERR_APPEND);
				c->err_to_out = 0;
			}
			break;
		case T_ERR_TO_OUT:
			c->err_to_out = 1;
			c->err = NULL;
			break;
		case T_PIPE:
			if (c->argc == 0)
				return syntax_error(type);
			if (pl->ncmds == MAXCMDS) {
				fprintf(stderr, "sh: pipeline too long\n");
				return -1;
			}
			c = &pl->cmds[pl->ncmds++];
			break;
		case T_AMP: case T_SEMI: case T_AND: case T_OR: case T_END:
			if (c->argc == 0) {
				/* Empty: allowed only as the whole line, or after ; or &. */
				if (type == T_END && pl->ncmds == 1 && pl->join == J_ALWAYS) {
					np--;
					pl = NULL;
					break;
				}
				return syntax_error(type);
			}
			pl->background = (type == T_AMP);
			next_join = type == T_AND ? J_IF_OK : type == T_OR ? J_IF_FAIL : J_ALWAYS;
			pl = NULL;
			break;
		}
		if (type == T_END)
			break;
	}
	if (pl != NULL && next_join != J_ALWAYS)
		return syntax_error(T_END);
	return np;
}

/* ---- stage 3: running ------------------------------------------------------ */

/* Open path and move it onto fd; 0 or -1 (message printed). */
static int redirect(const char *path, int flags, int fd)
{
	int f = open(path, flags, 0666);

	if (f < 0) {
		fprintf(stderr, "sh: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (f != fd) {
		dup2(f, fd);
		close(f);
	}
	return 0;
}

static int apply_redirections(const struct cmd *c)
{
	if (c->in && redirect(c->in, O_RDONLY, 0) < 0)
		return -1;
	if (c->out && redirect(c->out, O_WRONLY | O_CREAT |
			       (c->out_append ? O_APPEND : O_TRUNC), 1) < 0)
		return -1;
	if (c->err && redirect(c->err, O_WRONLY | O_CREAT |
			       (c->err_append ? O_APPEND : O_TRUNC), 2) < 0)
		return -1;
	if (c->err_to_out)
		dup2(1, 2);
	return 0;
}

/* A status word from wait() as a shell exit status: 128+signal if killed. */
static int status_of(int wstatus, pid_t pid)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus)) {
		int sig = WTERMSIG(wstatus);
		const char *name = sig_name(sig);

		if (sig == SIGINT)
			fputc('\n', stderr);
		else if (sig != SIGPIPE)
			fprintf(stderr, "sh: pid %d killed by signal %d (SIG%s)\n",
				pid, sig, name ? name : "?");
		return 128 + sig;
	}
	return 1;
}

static struct job *job_find(pid_t pid)
{
	for (int i = 0; i < MAXJOBS; i++)
		if (jobs[i].pid && jobs[i].pid == pid)
			return &jobs[i];
	return NULL;
}

static void job_add(pid_t pid, pid_t pgid, int stopped)
{
	struct job *j = job_find(pid);

	for (int i = 0; !j && i < MAXJOBS; i++)
		if (jobs[i].pid == 0)
			j = &jobs[i];
	if (j) {
		j->pid = pid;
		j->pgid = pgid;
		j->stopped = stopped;
	}
}

/* Returns 1 if pid was a background job (and forgets it). */
static int job_remove(pid_t pid)
{
	for (int i = 0; i < MAXJOBS; i++) {
		if (jobs[i].pid == pid) {
			jobs[i].pid = 0;
			return 1;
		}
	}
	return 0;
}

/* Collect finished background jobs without blocking. */
static void reap_jobs(void)
{
	int ws;
	pid_t pid;

	while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
		if (!job_remove(pid))
			continue;
		reaped[reaped_next].pid = pid;
		reaped[reaped_next].ws = ws;
		reaped_next = (reaped_next + 1) % MAXJOBS;
		if (interactive)
			fprintf(stderr, "[%d] done, status %d\n", pid,
				WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws));
	}
}

/* ---- builtins: run inside the shell, since they change its state ---------- */

static int builtin_cd(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("HOME");

	if (argc > 2) {
		fprintf(stderr, "usage: cd [dir]\n");
		return 2;
	}
	if (!dir)
		dir = "/";
	if (chdir(dir) < 0) {
		fprintf(stderr, "sh: cd: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	return 0;
}

static int builtin_pwd(int argc, char **argv)
{
	char buf[512];

	(void)argc;
	(void)argv;
	if (!getcwd(buf, sizeof(buf))) {
		fprintf(stderr, "sh: pwd: %s\n", strerror(errno));
		return 1;
	}
	printf("%s\n", buf);
	return 0;
}

static int builtin_exit(int argc, char **argv)
{
	fflush(NULL);
	exit(argc > 1 ? atoi(argv[1]) : last_status);
}

/* NAME=value (or export NAME=value / export NAME): environment variables. */
static int set_var(const char *assign)
{
	char name[64];
	const char *eq = strchr(assign, '=');
	size_t n = eq ? (size_t)(eq - assign) : strlen(assign);

	if (n == 0 || n >= sizeof(name)) {
		fprintf(stderr, "sh: bad variable name: %s\n", assign);
		return 1;
	}
	memcpy(name, assign, n);
	name[n] = '\0';
	if (!eq)
		return 0;       /* "export NAME": every variable is exported here */
	return setenv(name, eq + 1, 1) < 0 ? 1 : 0;
}

static int builtin_export(int argc, char **argv)
{
	int st = 0;

	if (argc == 1) {
		for (char **e = environ; *e; e++)
			printf("export %s\n", *e);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		st |= set_var(argv[i]);
	return st;
}

static int builtin_unset(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		unsetenv(argv[i]);
	return 0;
}

/* wait [pid]: wait for one job, or for every child. */
static int builtin_wait(int argc, char **argv)
{
	int ws, st = 0;
	pid_t pid;

	if (argc > 1) {
		pid = atoi(argv[1]);
		for (int i = 0; pid > 0 && i < MAXJOBS; i++) {
			if (reaped[i].pid == pid) {    /* ended and reaped already */
				reaped[i].pid = 0;
				return status_of(reaped[i].ws, pid);
			}
		}
		if (waitpid(pid, &ws, 0) < 0) {
			fprintf(stderr, "sh: wait: %s: %s\n", argv[1], strerror(errno));
			return 127;
		}
		job_remove(pid);
		return status_of(ws, pid);
	}
	while ((pid = wait(&ws)) > 0 || (pid < 0 && errno == EINTR)) {
		if (pid > 0) {
			job_remove(pid);
			st = status_of(ws, pid);
		}
	}
	return st;
}

/* Wait for a foreground pid until it ends or stops (Ctrl-Z).  A stopped
 * pid becomes a stopped job of group pgid; its status is 128 + the signal,
 * as other shells. */
static int wait_foreground(pid_t pid, pid_t pgid)
{
	int ws = 0;
	pid_t r;

	do {
		r = waitpid(pid, &ws, WUNTRACED);
	} while (r < 0 && errno == EINTR);
	if (r != pid)
		return 127;
	if (WIFSTOPPED(ws)) {
		job_add(pid, pgid, 1);
		fprintf(stderr, "[%d] stopped\n", pid);
		return 128 + WSTOPSIG(ws);
	}
	job_remove(pid);
	return status_of(ws, pid);
}

/* The job `fg`/`bg` mean: the pid given (or %pid), else the last stopped
 * job in the table, else the last job. */
static struct job *job_arg(int argc, char **argv, const char *who)
{
	struct job *j = NULL;

	if (argc > 1) {
		j = job_find(atoi(argv[1][0] == '%' ? argv[1] + 1 : argv[1]));
	} else {
		for (int i = 0; i < MAXJOBS; i++)
			if (jobs[i].pid && (!j || (jobs[i].stopped && !j->stopped) ||
					    jobs[i].stopped == j->stopped))
				j = &jobs[i];
	}
	if (!j)
		fprintf(stderr, "sh: %s: %s: no such job\n", who, argc > 1 ? argv[1] : "current");
	return j;
}

/* fg [pid]: continue a job in the foreground and wait for it. */
static int builtin_fg(int argc, char **argv)
{
	struct job *j = job_arg(argc, argv, "fg");
	pid_t me = getpgrp(), pid, pgid;
	int st;

	if (!j)
		return 1;
	pid = j->pid;
	pgid = j->pgid;
	if (pgid != me && interactive)
		ioctl(0, TIOCSPGRP, &pgid);     /* tcsetpgrp: Ctrl-C/Ctrl-Z reach it */
	j->stopped = 0;
	if (kill(pid, SIGCONT) < 0) {
		fprintf(stderr, "sh: fg: %d: %s\n", pid, strerror(errno));
		job_remove(pid);
		st = 1;
	} else {
		st = wait_foreground(pid, pgid);
	}
	if (pgid != me && interactive)
		ioctl(0, TIOCSPGRP, &me);       /* the terminal back to the shell */
	return st;
}

/* bg [pid]: continue a stopped job in the background. */
static int builtin_bg(int argc, char **argv)
{
	struct job *j = job_arg(argc, argv, "bg");

	if (!j)
		return 1;
	if (kill(j->pid, SIGCONT) < 0) {
		fprintf(stderr, "sh: bg: %d: %s\n", j->pid, strerror(errno));
		return 1;
	}
	j->stopped = 0;
	fprintf(stderr, "[%d] continued\n", j->pid);
	return 0;
}

/* jobs: the background and stopped jobs. */
static int builtin_jobs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	reap_jobs();
	for (int i = 0; i < MAXJOBS; i++)
		if (jobs[i].pid)
			printf("[%d] %s\n", jobs[i].pid, jobs[i].stopped ? "stopped" : "running");
	return 0;
}

struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct builtin builtins[] = {
	{ "cd", builtin_cd },
	{ "pwd", builtin_pwd },
	{ "exit", builtin_exit },
	{ "export", builtin_export },
	{ "unset", builtin_unset },
	{ "wait", builtin_wait },
	{ "fg", builtin_fg },
	{ "bg", builtin_bg },
	{ "jobs", builtin_jobs },
};

static const struct builtin *find_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(builtins[i].name, name) == 0)
			return &builtins[i];
	return NULL;
}

/* Is every word NAME=value? Then the command only sets variables. */
static int only_assignments(const struct cmd *c)
{
	for (int i = 0; i < c->argc; i++) {
		const char *eq = strchr(c->argv[i], '=');
		if (!eq || eq == c->argv[i] || !(isalpha((unsigned char)c->argv[i][0]) ||
						  c->argv[i][0] == '_'))
			return 0;
	}
	return 1;
}

/*
 * Run a builtin in the shell itself, with its redirections applied to the
 * shell's own fds for the duration (saved with dup and put back after).
 */
static int run_builtin_here(const struct builtin *b, struct cmd *c)
{
	int saved[3], st;

	fflush(stdout);
	for (int fd = 0; fd < 3; fd++)
		saved[fd] = dup(fd);
	if (apply_redirections(c) < 0) {
		st = 1;
	} else {
		st = b->fn(c->argc, c->argv);
		fflush(stdout);
	}
	for (int fd = 0; fd < 3; fd++) {
		if (saved[fd] >= 0) {
			dup2(saved[fd], fd);
			close(saved[fd]);
		}
	}
	return st;
}

/* In the child, after fork: become the command. Never returns. */
static void exec_child(struct cmd *c, int background)
{
	const struct builtin *b;

	if (background) {
		setpgid(0, 0);              /* out of the terminal's foreground group */
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
	} else {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
	}
	signal(SIGTSTP, SIG_DFL);       /* the shell ignores it, the command must not */
	if (apply_redirections(c) < 0)
		_exit(1);
	b = find_builtin(c->argv[0]);
	if (b) {
		int st = b->fn(c->argc, c->argv);
		fflush(NULL);
		_exit(st);
	}
	if (only_assignments(c))
		_exit(0);
	c->argv[c->argc] = NULL;
	execvp(c->argv[0], c->argv);
	if (errno == ENOENT) {
		fprintf(stderr, "sh: %s: not found\n", c->argv[0]);
		_exit(127);
	}
	fprintf(stderr, "sh: %s: %s\n", c->argv[0], strerror(errno));
	_exit(126);
}

/*
 * Run one pipeline: cmd0 | cmd1 | ... | cmdN-1. Child i reads from the
 * pipe made for i-1 and writes to the pipe made for i:
 *
 *     cmd0 --pipe0--> cmd1 --pipe1--> cmd2
 *
 * Returns the exit status of the last command (0 for a background job).
 */
static int run_pipeline(struct pipeline *pl)
{
	pid_t pids[MAXCMDS];
	int prev_read = -1, status = 0;
	struct cmd *first = &pl->cmds[0];

	/* A lone builtin or assignment runs in the shell: "cd" must change
	 * *our* directory, "exit" must end *us*. */
	if (pl->ncmds == 1 && !pl->background) {
		const struct builtin *b = find_builtin(first->argv[0]);
		if (b)
			return run_builtin_here(b, first);
		if (only_assignments(first)) {
			for (int i = 0; i < first->argc; i++)
				set_var(first->argv[i]);
			return 0;
		}
	}

	fflush(NULL);   /* children must not inherit unwritten output */
	for (int i = 0; i < pl->ncmds; i++) {
		int fds[2] = { -1, -1 };

		if (i < pl->ncmds - 1 && pipe(fds) < 0) {
			fprintf(stderr, "sh: pipe: %s\n", strerror(errno));
			status = 1;
			pl->ncmds = i;
			break;
		}
		pids[i] = fork();
		if (pids[i] == 0) {
			if (prev_read >= 0) {
				dup2(prev_read, 0);
				close(prev_read);
			}
			if (fds[1] >= 0) {
				dup2(fds[1], 1);
				close(fds[1]);
				close(fds[0]);
			}
			exec_child(&pl->cmds[i], pl->background);
		}
		if (pids[i] < 0) {
			fprintf(stderr, "sh: fork: %s\n", strerror(errno));
			status = 1;
		}
		/* The parent keeps only the read end, for the next command. */
		if (prev_read >= 0)
			close(prev_read);
		if (fds[1] >= 0)
			close(fds[1]);
		prev_read = fds[0];
		if (pids[i] < 0) {
			if (prev_read >= 0)
				close(prev_read);
			pl->ncmds = i;
			break;
		}
	}

	if (pl->background) {
		for (int i = 0; i < pl->ncmds; i++) {
			setpgid(pids[i], pids[i]);  /* also in the parent: no race */
			job_add(pids[i], pids[i], 0);
		}
		if (pl->ncmds > 0) {
			last_bg_pid = pids[pl->ncmds - 1];
			if (interactive)
				fprintf(stderr, "[%d]\n", last_bg_pid);
		}
		return status;
	}

	for (int i = 0; i < pl->ncmds; i++) {
		int st = wait_foreground(pids[i], getpgrp());

		if (i == pl->ncmds - 1)
			status = st;
	}
	return status;
}

/* Expand every word of a pipeline in place; -1 if out of room. */
static int expand_pipeline(struct pipeline *pl)
{
	for (int i = 0; i < pl->ncmds; i++) {
		struct cmd *c = &pl->cmds[i];
		char **fields[] = { &c->in, &c->out, &c->err };

		for (int j = 0; j < c->argc; j++)
			if (!(c->argv[j] = expand_word(c->argv[j])))
				return -1;
		for (int j = 0; j < 3; j++)
			if (*fields[j] && !(*fields[j] = expand_word(*fields[j])))
				return -1;
	}
	return 0;
}

static void run_line(const char *line)
{
	static struct token toks[MAXTOKENS];
	int ntok, np;

	ntok = lex(line, toks);
	if (ntok < 0) {
		last_status = 2;
		return;
	}
	np = parse(toks, ntok);
	if (np < 0) {
		last_status = 2;
		return;
	}
	for (int i = 0; i < np; i++) {
		reap_jobs();
		if (pipes[i].join == J_IF_OK && last_status != 0)
			continue;
		if (pipes[i].join == J_IF_FAIL && last_status == 0)
			continue;
		if (expand_pipeline(&pipes[i]) < 0) {
			fprintf(stderr, "sh: line too long\n");
			last_status = 2;
			return;
		}
		last_status = run_pipeline(&pipes[i]);
	}
}

static void prompt(void)
{
	char cwd[256];

	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "?");
	fprintf(stderr, "vellum:%s$ ", cwd);
}

/* Read and run lines from f until end of file. */
static void run_file(FILE *f)
{
	static char line[MAXLINE];

	for (;;) {
		if (interactive)
			prompt();
		if (!fgets(line, sizeof(line), f)) {
			if (interactive)
				fputc('\n', stderr);
			break;
		}
		line[strcspn(line, "\n")] = '\0';
		run_line(line);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: sh [-c command [arg0 args...]] [script [args...]]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);       /* Ctrl-Z stops the command, not us */
	if (!getenv("PATH"))
		setenv("PATH", "/bin:/sbin", 1);

	if (argc > 1 && strcmp(argv[1], "-c") == 0) {
		if (argc < 3)
			usage();
		/* sh -c 'cmd' name a b: $0 = name, $1 = a ... */
		script_argc = argc - 3;
		script_argv = argv + 3;
		if (script_argc == 0) {
			script_argc = 1;
			script_argv = argv;
		}
		run_line(argv[2]);
	} else if (argc > 1 && argv[1][0] == '-') {
		usage();
	} else if (argc > 1) {
		FILE *f = fopen(argv[1], "r");

		if (!f) {
			fprintf(stderr, "sh: %s: %s\n", argv[1], strerror(errno));
			return 127;
		}
		fcntl(fileno(f), F_SETFD, FD_CLOEXEC);  /* not for our children */
		script_argc = argc - 1;
		script_argv = argv + 1;
		run_file(f);
		fclose(f);
	} else {
		script_argc = 1;
		script_argv = argv;
		interactive = isatty(0);
		run_file(stdin);
	}
	fflush(NULL);
	return last_status;
}
