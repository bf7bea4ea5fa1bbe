/*
 * sh.c - /bin/sh, Vellum's shell.
 *
 * Input goes through three stages:
 *
 *   "for f in a b; do echo $f | wc -c; done > out"
 *        |
 *        v  lex()      raw words and operators (quotes kept, nothing expanded)
 *   [for] [f] [in] [a] [b] ; [do] [echo] [$f] | [wc] [-c] ; [done] > [out]
 *        |
 *        v  parse()    a tree: lists of pipelines, pipelines of commands,
 *                      a command is simple (words) or compound (if/while/for)
 *   list
 *    `- pipeline: for(f; words a b; body: list
 *                                           `- pipeline: {echo $f} | {wc -c})
 *                 stdout -> out
 *        |
 *        v  run_list() walk the tree: expand the words of each simple command
 *                      just before it runs ($vars, $(...), $((...)), quotes,
 *                      field splitting), fork one child per command, connect
 *                      pipes, apply redirections, exec, wait for the last
 *
 * The grammar (a subset of POSIX sh; words in capitals are reserved words,
 * recognised only where a command starts):
 *
 *   list      := and_or ((';' | '&' | newline) and_or)*
 *   and_or    := pipeline (('&&' | '||') newline* pipeline)*
 *   pipeline  := ['!'] command ('|' newline* command)*
 *   command   := simple | compound redirection*
 *   compound  := IF list THEN list (ELIF list THEN list)* [ELSE list] FI
 *              | WHILE list DO list DONE  |  UNTIL list DO list DONE
 *              | FOR name [IN word*] (';' | newline) DO list DONE
 *   simple    := (word | redirection)+
 *   redirection := '<' word | '>' word | '>>' word | '2>' word | '2>>' word | '2>&1'
 *
 * Words: 'single' and "double" quotes, backslash escapes, $? $$ $! $# $0..$9
 * $@ $* $NAME ${NAME}, $(command) and $((arithmetic: + - * / % and
 * comparisons, parentheses, variable names)).  The results of unquoted
 * expansions are split into fields at spaces, tabs and newlines (a fixed
 * IFS), so `for f in $(ls)` loops over the names; "quoted" ones are not,
 * except "$@", which gives each argument as its own field.
 * Comments (#) run to the end of the line.  Builtins: cd pwd exit export
 * unset wait fg bg jobs test [ echo read shift break continue : true false
 * history.
 *
 * Variables: NAME=value sets a shell variable; `export NAME` (or export
 * NAME=value) puts it in the environment, so children see it.  A variable
 * that came in with the environment stays exported.
 *
 * Globbing: an unquoted * ? [...] typed in a word makes it the paths that
 * match (sorted; the word as written if none does): push_word().
 *
 * Not supported, on purpose (a comment where each would go): case,
 * functions, subshells ( ), { } groups, here-documents, NAME=value before
 * a command (only alone), IFS, globbing what an unquoted $var brings in,
 * `a && b &` backgrounds b only.
 *
 * Incomplete input (an open if/while/for, a trailing | or &&, an open
 * quote) is not an error at the prompt or in a script: the shell reads
 * another line (prompting "> " at a terminal) until the command is whole,
 * then runs it.
 *
 * At a terminal, lines are read with the line editor (lineedit.c: arrows,
 * history, Ctrl-R, Tab completion from complete.c, Ctrl-L...), which puts
 * the terminal in raw mode only while a line is typed; from a script, a
 * pipe or a file they are read as they are (read_line()).
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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lineedit.h"

#define MAXLINE   4096
#define MAXINPUT  65536 /* one complete command, all its lines */
#define MAXTOKENS 4096
#define MAXJOBS   32
#define MAXVARS   128

/* ---- shell state ---------------------------------------------------------- */

static int last_status;        /* $? */
static pid_t last_bg_pid;      /* $! */
static int interactive;        /* reading commands from a terminal */
static int editing;            /* ...with the line editor (lineedit.c) */
static int script_argc;        /* $# + 1 */
static char **script_argv;     /* $0, $1, ... */
static int loop_depth;         /* how many while/for loops we are inside */
static int breaking;           /* `break N`: loops still to leave */
static int continuing;         /* `continue`: skip the rest of the body */

/* Background and stopped pids not yet reaped, with their process group
 * (background: their own; stopped in the foreground: the shell's). */
static struct job { pid_t pid, pgid; int stopped; } jobs[MAXJOBS];
/* Background jobs reap_jobs() collected, with their wait status, until a
 * `wait PID` asks (POSIX: the status of a known job stays available even
 * if it ended before the wait; oldest entries are overwritten). */
static struct { pid_t pid; int ws; } reaped[MAXJOBS];
static int reaped_next;

/* ---- variables -------------------------------------------------------------
 * Shell variables live here; exported ones live in the environment
 * (environ, through setenv), which is where lookups go when the name is not
 * a shell variable.  Exporting a variable moves it to the environment. */

static struct var { char *name, *value; } vars[MAXVARS];

static struct var *var_find(const char *name)
{
	for (int i = 0; i < MAXVARS; i++)
		if (vars[i].name && strcmp(vars[i].name, name) == 0)
			return &vars[i];
	return NULL;
}

static const char *var_get(const char *name)
{
	struct var *v = var_find(name);

	return v ? v->value : getenv(name);
}

static void var_unset(const char *name)
{
	struct var *v = var_find(name);

	if (v) {
		free(v->name);
		free(v->value);
		v->name = v->value = NULL;
	}
	unsetenv(name);
}

static int var_set(const char *name, const char *value, int export)
{
	struct var *v = var_find(name);

	if (export || getenv(name)) {           /* exported: the environment */
		if (v)
			var_unset(name);
		return setenv(name, value, 1) < 0 ? 1 : 0;
	}
	for (int i = 0; !v && i < MAXVARS; i++)
		if (!vars[i].name)
			v = &vars[i];
	if (!v) {
		fprintf(stderr, "sh: too many variables\n");
		return 1;
	}
	if (!v->name)
		v->name = strdup(name);
	free(v->value);
	v->value = strdup(value);
	return 0;
}

static int is_name(const char *s, size_t n)
{
	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return 0;
	return 1;
}

/* Is word an assignment, NAME=value? */
static int is_assignment(const char *word)
{
	const char *eq = strchr(word, '=');

	return eq && is_name(word, eq - word);
}

/* NAME=value (export: into the environment); 0 or 1. */
static int assign(const char *word, int export)
{
	char name[64];
	const char *eq = strchr(word, '=');
	size_t n = eq ? (size_t)(eq - word) : strlen(word);

	if (!is_name(word, n) || n >= sizeof(name)) {
		fprintf(stderr, "sh: bad variable name: %s\n", word);
		return 1;
	}
	memcpy(name, word, n);
	name[n] = '\0';
	if (!eq) {                              /* export NAME */
		const char *val = var_get(name);
		return export && val ? var_set(name, val, 1) : 0;
	}
	return var_set(name, eq + 1, export);
}

/* ---- the arena: tokens and the parse tree of one complete command ---------
 * Everything parse() makes lives here and is dropped at once when the
 * command has run (arena_reset).  Expansions are malloc'ed and freed after
 * each simple command, because loops expand the same words again. */

static char arena[MAXINPUT * 4];
static size_t arena_used;

static void *arena_alloc(size_t n)
{
	void *p;

	n = (n + 7) & ~(size_t)7;
	if (arena_used + n > sizeof(arena)) {
		fprintf(stderr, "sh: command too long\n");
		return NULL;
	}
	p = arena + arena_used;
	memset(p, 0, n);
	arena_used += n;
	return p;
}

static char *arena_save(const char *s, size_t len)
{
	char *p = arena_alloc(len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

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
	T_NEWLINE,
	T_END,
};

struct token {
	enum tok_type type;
	char *text;             /* T_WORD: the word as written (quotes and all) */
};

/* What lex() and parse() answer besides a count. */
#define INCOMPLETE (-2)         /* needs more lines */
#define SYNTAX     (-1)         /* message printed */

/* Blanks between words: space, tab, and the other white space (\r, and
 * \f and \v, which must not become empty words). */
static int is_blank(char c)
{
	return c != '\n' && isspace((unsigned char)c);
}

/* Characters that end an unquoted word. */
static int is_special(char c)
{
	return c == '|' || c == '&' || c == ';' || c == '<' || c == '>' ||
	       c == '\n' || is_blank(c);
}

/*
 * Skip one quoted or parenthesised part of a word that starts at p (a
 * quote, or the '(' after a '$'); returns the character after it, or NULL
 * if the input ends first.  $( ... ) nests, and quotes inside it count.
 */
static const char *skip_quoted(const char *p)
{
	if (*p == '\'') {
		p = strchr(p + 1, '\'');
		return p ? p + 1 : NULL;
	}
	if (*p == '"') {
		p++;
		while (*p && *p != '"') {
			if (*p == '\\' && p[1])
				p += 2;
			else if (*p == '$' && p[1] == '(') {
				if (!(p = skip_quoted(p + 1)))
					return NULL;
			} else
				p++;
		}
		return *p ? p + 1 : NULL;
	}
	/* '(' of $( or $(( */
	for (int depth = 0; *p; ) {
		if (*p == '(') {
			depth++, p++;
		} else if (*p == ')') {
			p++;
			if (--depth == 0)
				return p;
		} else if (*p == '\'' || *p == '"') {
			if (!(p = skip_quoted(p)))
				return NULL;
		} else if (*p == '\\' && p[1]) {
			p += 2;
		} else {
			p++;
		}
	}
	return NULL;
}

/*
 * Split text into tokens. Words keep their raw text (quotes and all);
 * lex() only finds where each word ends, so that a quoted "a | b" stays
 * one word. Returns the number of tokens (the last is T_END), INCOMPLETE
 * if a quote or $( is still open, or SYNTAX.
 */
static int lex(const char *text, struct token *toks)
{
	const char *p = text;
	int n = 0;

	for (;;) {
		enum tok_type op = T_END;
		const char *start;

		while (is_blank(*p))
			p++;
		if (n == MAXTOKENS - 1) {
			fprintf(stderr, "sh: command too long\n");
			return SYNTAX;
		}
		if (*p == '#')                          /* a comment: to end of line */
			while (*p && *p != '\n')
				p++;
		if (*p == '\0')
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
		else if (*p == '\n')
			op = T_NEWLINE, p++;
		if (op != T_END) {
			toks[n].type = op;
			toks[n++].text = NULL;
			continue;
		}

		/* A word: runs of plain, quoted, escaped and $(...) parts. */
		start = p;
		while (*p && !is_special(*p)) {
			if (*p == '\'' || *p == '"' || (*p == '$' && p[1] == '(')) {
				if (!(p = skip_quoted(*p == '$' ? p + 1 : p)))
					return INCOMPLETE;
			} else if (*p == '\\' && p[1]) {
				p += 2;
			} else {
				p++;
			}
		}
		toks[n].type = T_WORD;
		toks[n].text = arena_save(start, p - start);
		if (!toks[n].text)
			return SYNTAX;
		n++;
	}
	toks[n].type = T_END;
	toks[n].text = NULL;
	return n + 1;
}

/* ---- stage 2: the parser --------------------------------------------------- */

/* Redirections of one command, as written (expanded when it runs). */
struct redirs {
	char *in;               /* < file */
	char *out;              /* > or >> file */
	int out_append;
	char *err;              /* 2> or 2>> file */
	int err_append;
	int err_to_out;         /* 2>&1 */
};

enum cmd_type { C_SIMPLE, C_IF, C_WHILE, C_UNTIL, C_FOR };
enum joiner { J_ALWAYS, J_IF_OK, J_IF_FAIL };   /* ; & newline,  &&,  || */

struct pipeline;

struct cmd {
	enum cmd_type type;
	struct redirs r;
	char **words;           /* C_SIMPLE: its words; C_FOR: the words after IN */
	int nwords;
	struct pipeline *cond;  /* C_IF, C_WHILE, C_UNTIL: the condition list */
	struct pipeline *body;  /* THEN part, or the loop's DO part */
	struct pipeline *else_part;     /* C_IF: ELSE list, or an ELIF as a C_IF */
	char *var;              /* C_FOR: the loop variable */
	int has_in;             /* C_FOR: IN was given (else loop over $1...) */
};

/* A list is a chain of pipelines; each says how it follows the previous. */
struct pipeline {
	struct cmd **cmds;
	int ncmds;
	int negate;             /* ! pipeline */
	int background;         /* ended with & */
	enum joiner join;
	struct pipeline *next;
};

static struct token *tok;       /* the tokens being parsed */
static int tpos;                /* the current one */
static int parse_err;           /* 0, SYNTAX or INCOMPLETE */

static const char *const reserved[] = {
	"if", "then", "elif", "else", "fi", "while", "until", "do", "done", "for", "in",
};
/* Words that end a list: what may follow a list inside a compound. */
static const char *const list_enders[] = { "then", "elif", "else", "fi", "do", "done" };

static int is_word(const struct token *t, const char *w)
{
	return t->type == T_WORD && strcmp(t->text, w) == 0;
}

static int is_list_ender(const struct token *t)
{
	for (size_t i = 0; i < sizeof(list_enders) / sizeof(list_enders[0]); i++)
		if (is_word(t, list_enders[i]))
			return 1;
	return 0;
}

static const char *tok_name(const struct token *t)
{
	static const char *const names[] = {
		"word", "|", "&", ";", "&&", "||", "<", ">", ">>", "2>", "2>>", "2>&1",
		"newline", "end of input",
	};
	return t->type == T_WORD ? t->text : names[t->type];
}

/* An error at the current token: at the end of input it only means the
 * command goes on on the next line. Returns NULL for the callers. */
static void *parse_error(void)
{
	if (parse_err)
		return NULL;
	if (tok[tpos].type == T_END) {
		parse_err = INCOMPLETE;
	} else {
		parse_err = SYNTAX;
		fprintf(stderr, "sh: syntax error near '%s'\n", tok_name(&tok[tpos]));
	}
	return NULL;
}

static void skip_newlines(void)
{
	while (tok[tpos].type == T_NEWLINE)
		tpos++;
}

/* Consume the reserved word w, or fail. */
static int expect(const char *w)
{
	if (is_word(&tok[tpos], w)) {
		tpos++;
		return 0;
	}
	parse_error();
	return -1;
}

static struct pipeline *parse_list(void);

/* A list that must not be empty (an IF's condition, a loop's body...). */
static struct pipeline *parse_nonempty_list(void)
{
	struct pipeline *l = parse_list();

	if (!l && !parse_err)
		parse_error();
	return l;
}

static int is_redirection(enum tok_type t)
{
	return t == T_IN || t == T_OUT || t == T_APPEND || t == T_ERR ||
	       t == T_ERR_APPEND || t == T_ERR_TO_OUT;
}

/* One redirection operator and its word, into r. */
static int parse_redirection(struct redirs *r)
{
	enum tok_type type = tok[tpos++].type;
	char *word;

	if (type == T_ERR_TO_OUT) {
		r->err_to_out = 1;
		r->err = NULL;
		return 0;
	}
	if (tok[tpos].type != T_WORD) {
		parse_err = SYNTAX;     /* "echo >" then newline: not incomplete */
		fprintf(stderr, "sh: syntax error near '%s'\n", tok_name(&tok[tpos]));
		return -1;
	}
	word = tok[tpos++].text;
	if (type == T_IN) {
		r->in = word;
	} else if (type == T_OUT || type == T_APPEND) {
		r->out = word;
		r->out_append = (type == T_APPEND);
	} else {
		r->err = word;
		r->err_append = (type == T_ERR_APPEND);
		r->err_to_out = 0;
	}
	return 0;
}

/* Words and redirections up to the next operator. */
static struct cmd *parse_simple(struct cmd *c)
{
	char *words[256];
	int n = 0;

	for (;;) {
		struct token *t = &tok[tpos];

		if (t->type == T_WORD) {
			if (n == 256) {
				fprintf(stderr, "sh: too many arguments\n");
				parse_err = SYNTAX;
				return NULL;
			}
			words[n++] = t->text;
			tpos++;
		} else if (is_redirection(t->type)) {
			if (parse_redirection(&c->r) < 0)
				return NULL;
		} else {
			break;
		}
	}
	if (n == 0 && !c->r.in && !c->r.out && !c->r.err && !c->r.err_to_out)
		return parse_error();
	c->type = C_SIMPLE;
	c->nwords = n;
	c->words = arena_alloc((n + 1) * sizeof(char *));
	if (!c->words)
		return NULL;
	memcpy(c->words, words, n * sizeof(char *));
	return c;
}

/* After IF or ELIF: cond THEN body [ELIF ... | ELSE list] FI */
static struct cmd *parse_if_rest(struct cmd *c)
{
	c->type = C_IF;
	if (!(c->cond = parse_nonempty_list()) || expect("then") < 0 ||
	    !(c->body = parse_nonempty_list()))
		return NULL;
	if (is_word(&tok[tpos], "elif")) {
		/* ELIF is an IF inside the ELSE part, sharing our FI */
		struct cmd *inner = arena_alloc(sizeof(*inner));
		struct pipeline *pl = arena_alloc(sizeof(*pl));

		if (!inner || !pl)
			return NULL;
		tpos++;
		if (!parse_if_rest(inner))
			return NULL;
		pl->cmds = arena_alloc(sizeof(struct cmd *));
		if (!pl->cmds)
			return NULL;
		pl->cmds[0] = inner;
		pl->ncmds = 1;
		c->else_part = pl;
		return c;
	}
	if (is_word(&tok[tpos], "else")) {
		tpos++;
		if (!(c->else_part = parse_nonempty_list()))
			return NULL;
	}
	return expect("fi") < 0 ? NULL : c;
}

/* WHILE/UNTIL cond DO body DONE */
static struct cmd *parse_while(struct cmd *c)
{
	c->type = is_word(&tok[tpos], "while") ? C_WHILE : C_UNTIL;
	tpos++;
	if (!(c->cond = parse_nonempty_list()) || expect("do") < 0 ||
	    !(c->body = parse_nonempty_list()) || expect("done") < 0)
		return NULL;
	return c;
}

/* FOR name [IN word...] ; DO body DONE */
static struct cmd *parse_for(struct cmd *c)
{
	char *words[256];
	int n = 0;

	c->type = C_FOR;
	tpos++;
	if (tok[tpos].type != T_WORD || !is_name(tok[tpos].text, strlen(tok[tpos].text)))
		return parse_error();
	c->var = tok[tpos++].text;
	skip_newlines();
	if (is_word(&tok[tpos], "in")) {
		tpos++;
		c->has_in = 1;
		while (tok[tpos].type == T_WORD && n < 256)
			words[n++] = tok[tpos++].text;
		if (tok[tpos].type != T_SEMI && tok[tpos].type != T_NEWLINE)
			return parse_error();
	}
	if (tok[tpos].type == T_SEMI)
		tpos++;
	skip_newlines();
	c->words = arena_alloc((n + 1) * sizeof(char *));
	if (!c->words)
		return NULL;
	memcpy(c->words, words, n * sizeof(char *));
	c->nwords = n;
	if (expect("do") < 0 || !(c->body = parse_nonempty_list()) || expect("done") < 0)
		return NULL;
	return c;
}

static struct cmd *parse_command(void)
{
	struct token *t = &tok[tpos];
	struct cmd *c = arena_alloc(sizeof(*c));

	if (!c) {
		parse_err = SYNTAX;
		return NULL;
	}
	if (is_word(t, "if")) {
		tpos++;
		c = parse_if_rest(c);
	} else if (is_word(t, "while") || is_word(t, "until")) {
		c = parse_while(c);
	} else if (is_word(t, "for")) {
		c = parse_for(c);
	} else {
		for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
			if (is_word(t, reserved[i]))
				return parse_error();   /* "then" where a command goes */
		return parse_simple(c);
	}
	/* A compound command may be followed by redirections: done > file */
	while (c && is_redirection(tok[tpos].type))
		if (parse_redirection(&c->r) < 0)
			return NULL;
	return c;
}

static struct pipeline *parse_pipeline(void)
{
	struct pipeline *pl = arena_alloc(sizeof(*pl));
	struct cmd *cmds[16];

	if (!pl) {
		parse_err = SYNTAX;
		return NULL;
	}
	if (is_word(&tok[tpos], "!")) {
		pl->negate = 1;
		tpos++;
	}
	for (;;) {
		if (pl->ncmds == 16) {
			fprintf(stderr, "sh: pipeline too long\n");
			parse_err = SYNTAX;
			return NULL;
		}
		if (!(cmds[pl->ncmds++] = parse_command()))
			return NULL;
		if (tok[tpos].type != T_PIPE)
			break;
		tpos++;
		skip_newlines();
	}
	pl->cmds = arena_alloc(pl->ncmds * sizeof(struct cmd *));
	if (!pl->cmds)
		return NULL;
	memcpy(pl->cmds, cmds, pl->ncmds * sizeof(struct cmd *));
	return pl;
}

/*
 * A list: and-or chains separated by ; & or newlines, up to the end of the
 * input or a reserved word that ends a list (then, do, fi...). Returns the
 * first pipeline, NULL for an empty list or an error (parse_err says).
 */
static struct pipeline *parse_list(void)
{
	struct pipeline *head = NULL, **tail = &head;
	enum joiner join = J_ALWAYS;

	for (;;) {
		struct pipeline *pl;

		skip_newlines();
		if (tok[tpos].type == T_END || is_list_ender(&tok[tpos]))
			break;
		if (!(pl = parse_pipeline()))
			return NULL;
		pl->join = join;
		*tail = pl;
		tail = &pl->next;

		join = J_ALWAYS;
		switch (tok[tpos].type) {
		case T_AND: case T_OR:
			join = tok[tpos].type == T_AND ? J_IF_OK : J_IF_FAIL;
			tpos++;
			skip_newlines();
			if (tok[tpos].type == T_END || is_list_ender(&tok[tpos]))
				return parse_error();
			continue;
		case T_AMP:
			pl->background = 1;
			/* fall through */
		case T_SEMI: case T_NEWLINE:
			tpos++;
			continue;
		default:
			break;
		}
		break;
	}
	return head;
}

/* The whole input: a list, then nothing. */
static struct pipeline *parse(struct token *toks)
{
	struct pipeline *l;

	tok = toks;
	tpos = 0;
	parse_err = 0;
	l = parse_list();
	if (!parse_err && tok[tpos].type != T_END)
		parse_error();          /* a stray "fi" or "done" */
	return parse_err ? NULL : l;
}

/* ---- expansion: from a word as written to the fields a command gets ------- */

/* A growing string. */
struct str {
	char *buf;
	size_t len, cap;
};

static void str_add(struct str *s, const char *p, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		char *nb;

		while (cap < s->len + n + 1)
			cap *= 2;
		nb = realloc(s->buf, cap);
		if (!nb) {
			fprintf(stderr, "sh: out of memory\n");
			exit(2);
		}
		s->buf = nb;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
}

/* The fields one or more words expand to (malloc'ed; fields_free). */
struct fields {
	char **v;               /* NULL-terminated */
	int n, cap;
};

static void fields_push(struct fields *f, struct str *s)
{
	if (f->n + 2 > f->cap) {
		f->cap = f->cap ? f->cap * 2 : 8;
		f->v = realloc(f->v, f->cap * sizeof(char *));
		if (!f->v) {
			fprintf(stderr, "sh: out of memory\n");
			exit(2);
		}
	}
	f->v[f->n++] = s->buf ? s->buf : strdup("");
	f->v[f->n] = NULL;
	s->buf = NULL;
	s->len = s->cap = 0;
}

static void fields_free(struct fields *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
	f->v = NULL;
	f->n = f->cap = 0;
}

static void run_text_and_exit(const char *text) __attribute__((noreturn));
static int subst_ran;           /* a $(...) ran while expanding this command */
static int status_of(int wstatus, pid_t pid);

/* $(text): run text in a child shell, answer its output without the
 * trailing newlines (malloc'ed). $? becomes the child's status. */
static char *command_subst(const char *text, size_t len)
{
	struct str out = { 0 };
	char buf[512];
	int fds[2], ws;
	ssize_t n;
	pid_t pid;

	if (pipe(fds) < 0) {
		fprintf(stderr, "sh: pipe: %s\n", strerror(errno));
		return strdup("");
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 1);
		close(fds[1]);
		run_text_and_exit(strndup(text, len));
	}
	close(fds[1]);
	str_add(&out, "", 0);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			str_add(&out, buf, n);
	close(fds[0]);
	if (pid > 0) {
		while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
			;
		last_status = status_of(ws, pid);
		subst_ran = 1;
	}
	while (out.len > 0 && out.buf[out.len - 1] == '\n')
		out.buf[--out.len] = '\0';
	return out.buf;
}

/* ---- $((arithmetic)): a recursive-descent evaluator over long ---------------
 *   expr := cmp (('&&' | '||') cmp)*     cmp := sum (('==' '!=' '<' '<=' '>' '>=') sum)?
 *   sum  := term (('+' | '-') term)*     term := unary (('*' | '/' | '%') unary)*
 *   unary := ('-' | '+' | '!') unary | '(' expr ')' | number | name        */

static const char *ap;          /* the arithmetic text being read */
static int arith_bad;

static void arith_space(void)
{
	while (isspace((unsigned char)*ap))
		ap++;
}

static long arith_expr(void);

static long arith_unary(void)
{
	long v = 0;

	arith_space();
	if (*ap == '-' || *ap == '+' || *ap == '!') {
		char op = *ap++;
		v = arith_unary();
		return op == '-' ? -v : op == '!' ? !v : v;
	}
	if (*ap == '(') {
		ap++;
		v = arith_expr();
		arith_space();
		if (*ap == ')')
			ap++;
		else
			arith_bad = 1;
		return v;
	}
	if (isdigit((unsigned char)*ap)) {
		char *end;
		v = strtol(ap, &end, 0);
		ap = end;
		return v;
	}
	if (isalpha((unsigned char)*ap) || *ap == '_') {
		char name[64];
		size_t n = 0;
		const char *val;

		while ((isalnum((unsigned char)*ap) || *ap == '_') && n < sizeof(name) - 1)
			name[n++] = *ap++;
		name[n] = '\0';
		val = var_get(name);
		return val ? strtol(val, NULL, 0) : 0;
	}
	arith_bad = 1;
	return 0;
}

static long arith_term(void)
{
	long v = arith_unary();

	for (;;) {
		char op;
		long r;

		arith_space();
		op = *ap;
		if (op != '*' && op != '/' && op != '%')
			return v;
		ap++;
		r = arith_unary();
		if (op == '*') {
			v *= r;
		} else if (r == 0) {
			fprintf(stderr, "sh: division by zero\n");
			arith_bad = 1;
			v = 0;
		} else {
			v = op == '/' ? v / r : v % r;
		}
	}
}

static long arith_sum(void)
{
	long v = arith_term();

	for (;;) {
		arith_space();
		if (*ap == '+')
			ap++, v += arith_term();
		else if (*ap == '-')
			ap++, v -= arith_term();
		else
			return v;
	}
}

static long arith_cmp(void)
{
	long v = arith_sum();

	arith_space();
	if (ap[0] == '=' && ap[1] == '=')
		return ap += 2, v == arith_sum();
	if (ap[0] == '!' && ap[1] == '=')
		return ap += 2, v != arith_sum();
	if (ap[0] == '<' && ap[1] == '=')
		return ap += 2, v <= arith_sum();
	if (ap[0] == '>' && ap[1] == '=')
		return ap += 2, v >= arith_sum();
	if (ap[0] == '<')
		return ap += 1, v < arith_sum();
	if (ap[0] == '>')
		return ap += 1, v > arith_sum();
	return v;
}

static long arith_expr(void)
{
	long v = arith_cmp();

	for (;;) {
		arith_space();
		if (ap[0] == '&' && ap[1] == '&') {
			long r;
			ap += 2;
			r = arith_cmp();
			v = v && r;
		} else if (ap[0] == '|' && ap[1] == '|') {
			long r;
			ap += 2;
			r = arith_cmp();
			v = v || r;
		} else {
			return v;
		}
	}
}

static void expand(const char *raw, struct fields *out, int split);

/* $((text)): the text is expanded first ($x inside), then evaluated. */
static char *arith_subst(const char *text, size_t len)
{
	struct fields f = { 0 };
	char num[24], *inner = strndup(text, len);
	long v;

	expand(inner, &f, 0);
	free(inner);
	ap = f.n ? f.v[0] : "";
	arith_bad = 0;
	v = arith_expr();
	arith_space();
	if (*ap || arith_bad) {
		fprintf(stderr, "sh: arithmetic syntax error: %s\n", f.n ? f.v[0] : "");
		v = 0;
	}
	fields_free(&f);
	snprintf(num, sizeof(num), "%ld", v);
	return strdup(num);
}

/*
 * The value of the $-expansion that starts at *pp (just after the '$'),
 * malloc'ed, or NULL for a '$' that starts nothing (kept literally).
 * Advances *pp past it.
 */
static char *dollar_value(const char **pp)
{
	const char *p = *pp;
	char name[64], num[16];
	size_t n = 0;

	if (*p == '(') {
		const char *end = skip_quoted(p);       /* lex() checked it closes */

		*pp = end;
		if (p[1] == '(' && end[-2] == ')')      /* $(( ... )) */
			return arith_subst(p + 2, end - p - 4);
		return command_subst(p + 1, end - p - 2);
	}
	if (*p == '?' || *p == '$' || *p == '!' || *p == '#') {
		int v = *p == '?' ? last_status : *p == '$' ? getpid() :
			*p == '!' ? last_bg_pid : (script_argc > 0 ? script_argc - 1 : 0);
		snprintf(num, sizeof(num), "%d", v);
		*pp = p + 1;
		return strdup(num);
	}
	if (isdigit((unsigned char)*p)) {
		*pp = p + 1;
		return strdup(*p - '0' < script_argc ? script_argv[*p - '0'] : "");
	}
	if (*p == '@' || *p == '*') {           /* unquoted, or $*: joined by blanks */
		struct str s = { 0 };

		str_add(&s, "", 0);
		for (int i = 1; i < script_argc; i++) {
			if (i > 1)
				str_add(&s, " ", 1);
			str_add(&s, script_argv[i], strlen(script_argv[i]));
		}
		*pp = p + 1;
		return s.buf;
	}
	if (*p == '{') {
		const char *end = strchr(p, '}');

		if (end && is_name(p + 1, end - p - 1) && (size_t)(end - p - 1) < sizeof(name)) {
			const char *val;

			memcpy(name, p + 1, end - p - 1);
			name[end - p - 1] = '\0';
			*pp = end + 1;
			val = var_get(name);
			return strdup(val ? val : "");
		}
		return NULL;
	}
	while ((isalnum((unsigned char)p[n]) || p[n] == '_') && n < sizeof(name) - 1) {
		name[n] = p[n];
		n++;
	}
	if (n == 0 || isdigit((unsigned char)p[0]))
		return NULL;
	name[n] = '\0';
	*pp = p + n;
	{
		const char *val = var_get(name);
		return strdup(val ? val : "");
	}
}

/* ---- pathname expansion (globbing) -----------------------------------------
 * A word of a command or of a for list with an unquoted *, ? or [...] typed
 * in it is a pattern: it becomes the paths that match, sorted (strcmp, the C
 * locale's order), or stays as written when nothing matches (POSIX).  * and
 * ? match any string and any one character but never a '/' nor the leading
 * '.' of a name; [abc], [a-z] and [!a-z] match one character of a set.
 * expand() builds the pattern beside the word: a quoted, escaped or
 * substituted character goes into it escaped with a backslash.
 * Simplifications: only characters typed in the word are special (POSIX
 * also globs what an unquoted $var brings); no [[:classes:]]; redirection
 * targets are never globbed (bash globs one that matches once).
 */

/* Add n characters to the word w, and to the pattern g as literals. */
static void add_quoted(struct str *w, struct str *g, const char *p, size_t n)
{
	str_add(w, p, n);
	for (size_t i = 0; i < n; i++) {
		if (strchr("*?[\\", p[i]))
			str_add(g, "\\", 1);
		str_add(g, p + i, 1);
	}
}

/* Does the name s match the pattern p (one path component)? */
static int glob_match(const char *p, const char *s)
{
	for (; *p; p++, s++) {
		if (*p == '*') {
			while (p[1] == '*')
				p++;
			for (;; s++) {
				if (glob_match(p + 1, s))
					return 1;
				if (!*s)
					return 0;
			}
		}
		if (*p == '[') {
			const char *q = p + 1, *end;
			int neg = 0, in = 0;

			if (*q == '!' || *q == '^')
				neg = 1, q++;
			end = q + (*q == ']');          /* a ] first is a member */
			while (*end && *end != ']')
				end++;
			if (*end) {
				if (!*s)
					return 0;
				for (const char *r = q; r < end; r++) {
					if (r + 2 < end && r[1] == '-') {
						if ((unsigned char)*s >= (unsigned char)r[0] &&
						    (unsigned char)*s <= (unsigned char)r[2])
							in = 1;
						r += 2;
					} else if (*r == *s) {
						in = 1;
					}
				}
				if (in == neg)
					return 0;
				p = end;
				continue;
			}
			/* no closing ]: a literal [ */
		} else if (*p == '?') {
			if (!*s)
				return 0;
			continue;
		} else if (*p == '\\' && p[1]) {
			p++;
		}
		if (*p != *s)
			return 0;
	}
	return !*s;
}

/* Does the component p[0..n) have an unescaped * ? or [ ? */
static int has_glob(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\\' && i + 1 < n)
			i++;
		else if (strchr("*?[", p[i]))
			return 1;
	}
	return 0;
}

/* Every existing path that is dir (a prefix: "" or ending in '/') followed
 * by what matches pat, component by component, pushed onto out. */
static void glob_walk(const char *dir, const char *pat, struct fields *out)
{
	const char *slash = strchr(pat, '/');
	size_t n = slash ? (size_t)(slash - pat) : strlen(pat);
	struct str path = { 0 };
	struct stat st;

	if (!has_glob(pat, n)) {        /* a fixed component: unescape it */
		str_add(&path, dir, strlen(dir));
		for (size_t i = 0; i < n; i++) {
			if (pat[i] == '\\' && i + 1 < n)
				i++;
			str_add(&path, pat + i, 1);
		}
		if (slash) {
			str_add(&path, "/", 1);
			glob_walk(path.buf, slash + 1, out);
			free(path.buf);
		} else if (lstat(path.buf ? path.buf : "", &st) == 0) {
			fields_push(out, &path);
		} else {
			free(path.buf);
		}
		return;
	}
	char *comp = malloc(n + 1);
	DIR *d = opendir(*dir ? dir : ".");
	struct dirent *e;

	memcpy(comp, pat, n);
	comp[n] = '\0';
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' && comp[0] != '.')
			continue;               /* a hidden name needs a typed dot */
		if (!glob_match(comp, e->d_name))
			continue;
		str_add(&path, dir, strlen(dir));
		str_add(&path, e->d_name, strlen(e->d_name));
		if (slash) {
			str_add(&path, "/", 1);
			glob_walk(path.buf, slash + 1, out);
			free(path.buf);
			path.buf = NULL;
			path.len = path.cap = 0;
		} else {
			fields_push(out, &path);
		}
	}
	if (d)
		closedir(d);
	free(comp);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Push the word w onto out, or, if it is a pattern (globby) that matches,
 * the sorted matches instead; then start a new word and pattern. */
static void push_word(struct fields *out, struct str *w, struct str *g, int *globby)
{
	struct fields m = { 0 };

	if (*globby && g->buf)
		glob_walk("", g->buf, &m);
	if (m.n) {
		qsort(m.v, m.n, sizeof(char *), str_cmp);
		for (int i = 0; i < m.n; i++) {
			struct str s = { m.v[i], strlen(m.v[i]), strlen(m.v[i]) + 1 };
			fields_push(out, &s);
		}
		free(m.v);
		free(w->buf);
		w->buf = NULL;
		w->len = w->cap = 0;
	} else {
		fields_push(out, w);
	}
	free(g->buf);
	g->buf = NULL;
	g->len = g->cap = 0;
	*globby = 0;
}

/*
 * Expand one word as written into fields, appended to out: quotes removed,
 * backslash escapes applied, $-expansions substituted.  With split, the
 * text of an unquoted expansion is split at blanks into separate fields,
 * a word that expands to nothing unquoted gives no field at all, and a
 * word with an unquoted * ? or [ becomes the paths it matches (globbing,
 * above).
 */
static void expand(const char *p, struct fields *out, int split)
{
	struct str w = { 0 };
	struct str g = { 0 };   /* the same word as a glob pattern */
	int have = 0;           /* a field exists even if empty ("" or '') */
	int globby = 0;         /* it has an unquoted * ? or [ */

	while (*p) {
		char *val;

		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');   /* lex() checked it exists */
			add_quoted(&w, &g, p + 1, end - p - 1);
			p = end + 1;
			have = 1;
		} else if (*p == '"') {
			have = 1;
			for (p++; *p && *p != '"'; ) {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$')) {
					add_quoted(&w, &g, p + 1, 1);
					p += 2;
				} else if (p[0] == '$' && p[1] == '@') {
					/* "$@": each argument its own field */
					for (int i = 1; i < script_argc; i++) {
						if (i > 1)
							push_word(out, &w, &g, &globby);
						add_quoted(&w, &g, script_argv[i], strlen(script_argv[i]));
					}
					if (script_argc <= 1)
						have = 0;       /* no arguments: no field */
					p += 2;
				} else if (*p == '$') {
					p++;
					if ((val = dollar_value(&p))) {
						add_quoted(&w, &g, val, strlen(val));
						free(val);
					} else {
						add_quoted(&w, &g, "$", 1);    /* a lone $: literal */
					}
				} else {
					add_quoted(&w, &g, p++, 1);
				}
			}
			if (*p == '"')
				p++;
		} else if (*p == '\\' && p[1]) {
			add_quoted(&w, &g, p + 1, 1);
			p += 2;
			have = 1;
		} else if (*p == '$') {
			p++;
			val = dollar_value(&p);
			if (!val) {
				add_quoted(&w, &g, "$", 1);
				have = 1;
				continue;
			}
			for (char *v = val; *v; v++) {
				if (split && (*v == ' ' || *v == '\t' || *v == '\n')) {
					if (w.len || have)
						push_word(out, &w, &g, &globby);
					have = 0;
				} else {
					add_quoted(&w, &g, v, 1);
				}
			}
			free(val);
		} else {
			if (split && strchr("*?[", *p))
				globby = 1;     /* typed, unquoted: a pattern */
			str_add(&g, p, 1);
			str_add(&w, p++, 1);
			have = 1;
		}
	}
	if (w.len || have || !split)
		push_word(out, &w, &g, &globby);
	free(g.buf);
}

/* Expand a redirection's target: one string, not split (malloc'ed). */
static char *expand_one(const char *raw)
{
	struct fields f = { 0 };
	char *s;

	if (!raw)
		return NULL;
	expand(raw, &f, 0);
	s = f.v[0];
	f.v[0] = NULL;
	f.n = 0;
	fields_free(&f);
	return s;
}
/* ---- stage 3: running ------------------------------------------------------ */

static int interrupted;         /* a foreground command died of SIGINT */


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

static int apply_redirections(const struct redirs *c)
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

		if (sig == SIGINT) {
			fputc('\n', stderr);
			interrupted = 1;        /* Ctrl-C ends loops too */
		}
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

static int builtin_export(int argc, char **argv)
{
	int st = 0;

	if (argc == 1) {
		for (char **e = environ; *e; e++)
			printf("export %s\n", *e);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		st |= assign(argv[i], 1);
	return st;
}

static int builtin_unset(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		var_unset(argv[i]);
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

/* echo [-n] args: also /bin/echo; built in, as in every shell, for speed.
 * A write that fails (a full disk, a /proc file refusing the value:
 * `echo 0 > /proc/irq/14/smp_affinity`) is reported and the status is 1,
 * as bash's "echo: write error: Invalid argument". */
static int builtin_echo(int argc, char **argv)
{
	int i = 1, newline = 1;

	clearerr(stdout);
	if (argc > 1 && strcmp(argv[1], "-n") == 0)
		newline = 0, i++;
	for (; i < argc; i++)
		printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	if (newline)
		putchar('\n');
	if (fflush(stdout) == EOF || ferror(stdout)) {
		int e = errno;
		clearerr(stdout);
		fprintf(stderr, "sh: echo: write error: %s\n", strerror(e));
		return 1;
	}
	return 0;
}

static int builtin_true(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int builtin_false(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 1;
}

/* read NAME...: one line from standard input, split at blanks; the last
 * NAME gets the rest of the line.  Reads a byte at a time, so that what
 * follows the line stays for the next reader (a pipe cannot be put back). */
static int builtin_read(int argc, char **argv)
{
	struct str line = { 0 };
	char c, *p;
	ssize_t n;
	int got = 0;

	str_add(&line, "", 0);
	while ((n = read(0, &c, 1)) == 1 || (n < 0 && errno == EINTR)) {
		if (n < 0)
			continue;
		got = 1;
		if (c == '\n')
			break;
		str_add(&line, &c, 1);
	}
	p = line.buf;
	for (int i = 1; i < argc; i++) {
		char *start, *end;

		while (*p == ' ' || *p == '\t')
			p++;
		start = p;
		if (i == argc - 1) {
			end = p + strlen(p);
			while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
				end--;
		} else {
			while (*p && *p != ' ' && *p != '\t')
				p++;
			end = p;
		}
		c = *end;
		*end = '\0';
		var_set(argv[i], start, 0);
		*end = c;
		p = end;
	}
	free(line.buf);
	return got ? 0 : 1;
}

/* history: the lines the line editor remembers (Up, Ctrl-R), numbered. */
static int builtin_history(int argc, char **argv)
{
	const char *line;

	(void)argc;
	(void)argv;
	for (int i = 0; (line = le_history_get(i)); i++)
		printf("%5d  %s\n", i + 1, line);
	return 0;
}

/* shift [n]: $2... become $1... */
static int builtin_shift(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	if (n < 0 || n > script_argc - 1) {
		fprintf(stderr, "sh: shift: can't shift that many\n");
		return 1;
	}
	for (int i = 1; i + n < script_argc; i++)
		script_argv[i] = script_argv[i + n];
	script_argc -= n;
	return 0;
}

/* break [n] / continue: leave (or restart) the innermost loop(s). */
static int builtin_break(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	if (loop_depth == 0)
		return 0;               /* POSIX: unspecified; bash ignores it too */
	if (n < 1)
		n = 1;
	breaking = n > loop_depth ? loop_depth : n;
	return 0;
}

static int builtin_continue(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (loop_depth > 0)
		continuing = 1;         /* continue N is not supported: always 1 */
	return 0;
}

/* ---- test and [ ------------------------------------------------------------
 * POSIX chooses by the number of arguments, which makes "test -n" (one
 * argument: is "-n" non-empty? yes) and "test ! = x" unambiguous.
 * Status 0 true, 1 false, 2 error.  -a and -o are not supported. */

static int test_number(const char *s, long *v)
{
	char *end;

	*v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0') {
		fprintf(stderr, "sh: test: %s: integer expression expected\n", s);
		return -1;
	}
	return 0;
}

/* -1 if op is not a unary operator. */
static int test_unary(const char *op, const char *arg)
{
	struct stat st;

	if (op[0] != '-' || op[1] == '\0' || op[2] != '\0')
		return -1;
	switch (op[1]) {
	case 'z': return arg[0] == '\0' ? 0 : 1;
	case 'n': return arg[0] != '\0' ? 0 : 1;
	case 'e': return stat(arg, &st) == 0 ? 0 : 1;
	case 'f': return stat(arg, &st) == 0 && S_ISREG(st.st_mode) ? 0 : 1;
	case 'd': return stat(arg, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : 1;
	case 'L': case 'h': return lstat(arg, &st) == 0 && S_ISLNK(st.st_mode) ? 0 : 1;
	case 's': return stat(arg, &st) == 0 && st.st_size > 0 ? 0 : 1;
	case 'r': return access(arg, R_OK) == 0 ? 0 : 1;
	case 'w': return access(arg, W_OK) == 0 ? 0 : 1;
	case 'x': return access(arg, X_OK) == 0 ? 0 : 1;
	}
	return -1;
}

/* -1 if op is not a binary operator, 2 on a bad number. */
static int test_binary(const char *a, const char *op, const char *b)
{
	static const char *const ops[] = { "-eq", "-ne", "-lt", "-le", "-gt", "-ge" };
	long x, y;
	int r;

	if (strcmp(op, "=") == 0 || strcmp(op, "==") == 0)
		return strcmp(a, b) == 0 ? 0 : 1;
	if (strcmp(op, "!=") == 0)
		return strcmp(a, b) != 0 ? 0 : 1;
	for (int i = 0; i < 6; i++) {
		if (strcmp(op, ops[i]) != 0)
			continue;
		if (test_number(a, &x) < 0 || test_number(b, &y) < 0)
			return 2;
		r = i == 0 ? x == y : i == 1 ? x != y : i == 2 ? x < y :
		    i == 3 ? x <= y : i == 4 ? x > y : x >= y;
		return r ? 0 : 1;
	}
	return -1;
}

static int test_eval(char **a, int n)
{
	int r;

	switch (n) {
	case 0:
		return 1;
	case 1:
		return a[0][0] != '\0' ? 0 : 1;
	case 2:
		if (strcmp(a[0], "!") == 0)
			return test_eval(a + 1, 1) == 0 ? 1 : 0;
		if ((r = test_unary(a[0], a[1])) >= 0)
			return r;
		fprintf(stderr, "sh: test: %s: unary operator expected\n", a[0]);
		return 2;
	case 3:
		if ((r = test_binary(a[0], a[1], a[2])) >= 0)
			return r;
		if (strcmp(a[0], "!") == 0)
			return (r = test_eval(a + 1, 2)) == 2 ? 2 : !r;
		fprintf(stderr, "sh: test: %s: binary operator expected\n", a[1]);
		return 2;
	case 4:
		if (strcmp(a[0], "!") == 0)
			return (r = test_eval(a + 1, 3)) == 2 ? 2 : !r;
		break;
	}
	fprintf(stderr, "sh: test: too many arguments\n");
	return 2;
}

static int builtin_test(int argc, char **argv)
{
	if (strcmp(argv[0], "[") == 0) {
		if (strcmp(argv[argc - 1], "]") != 0) {
			fprintf(stderr, "sh: [: missing ]\n");
			return 2;
		}
		argc--;
	}
	return test_eval(argv + 1, argc - 1);
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
	{ "echo", builtin_echo },
	{ "test", builtin_test },
	{ "[", builtin_test },
	{ "read", builtin_read },
	{ "shift", builtin_shift },
	{ "break", builtin_break },
	{ "continue", builtin_continue },
	{ ":", builtin_true },
	{ "true", builtin_true },
	{ "false", builtin_false },
	{ "history", builtin_history },
};

const char *sh_builtin_name(int i)
{
	return i >= 0 && (size_t)i < sizeof(builtins) / sizeof(builtins[0]) ?
	       builtins[i].name : NULL;
}

static const struct builtin *find_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(builtins[i].name, name) == 0)
			return &builtins[i];
	return NULL;
}

/* ---- running the tree ------------------------------------------------------ */

/* A simple command after expansion: what exec gets. */
struct xcmd {
	struct fields args;
	struct redirs r;        /* targets expanded (malloc'ed) */
};

static void expand_redirs(const struct redirs *raw, struct redirs *x)
{
	*x = *raw;
	x->in = expand_one(raw->in);
	x->out = expand_one(raw->out);
	x->err = expand_one(raw->err);
}

static void free_redirs(struct redirs *x)
{
	free(x->in);
	free(x->out);
	free(x->err);
}

static void expand_cmd(const struct cmd *c, struct xcmd *x)
{
	int leading = 1;        /* still in the NAME=value words before the command */

	memset(x, 0, sizeof(*x));
	for (int i = 0; i < c->nwords; i++) {
		/* x=$(cmd) keeps its blanks: assignments are not split */
		leading = leading && is_assignment(c->words[i]);
		expand(c->words[i], &x->args, !leading);
	}
	expand_redirs(&c->r, &x->r);
}

static void free_xcmd(struct xcmd *x)
{
	fields_free(&x->args);
	free_redirs(&x->r);
}

/* Is every word NAME=value? Then the command only sets variables. */
static int only_assignments(const struct xcmd *x)
{
	for (int i = 0; i < x->args.n; i++)
		if (!is_assignment(x->args.v[i]))
			return 0;
	return 1;
}

/* Run fn in the shell itself, with redirections r applied to the shell's
 * own fds for the duration (saved with dup and put back after). */
static int with_redirections(const struct redirs *r, int (*fn)(const void *), const void *arg)
{
	int saved[3], st;

	fflush(stdout);
	for (int fd = 0; fd < 3; fd++)
		saved[fd] = dup(fd);
	if (apply_redirections(r) < 0) {
		st = 1;
	} else {
		st = fn(arg);
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

static int call_builtin(const void *arg)
{
	const struct xcmd *x = arg;

	return find_builtin(x->args.v[0])->fn(x->args.n, x->args.v);
}

static int nothing(const void *arg)
{
	(void)arg;
	return 0;
}

static void run_list(struct pipeline *l);
static void run_compound(struct cmd *c);

/* In the child, after fork: the signals a command starts with. */
static void child_signals(int background)
{
	if (background) {
		setpgid(0, 0);              /* out of the terminal's foreground group */
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
	} else {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
	}
	signal(SIGTSTP, SIG_DFL);       /* the shell ignores it, the command must not */
}

/* In the child, after fork: become the simple command. Never returns. */
static void exec_child(struct xcmd *x, int background)
{
	const struct builtin *b;

	child_signals(background);
	if (apply_redirections(&x->r) < 0)
		_exit(1);
	if (x->args.n == 0 || only_assignments(x))
		_exit(0);
	b = find_builtin(x->args.v[0]);
	if (b) {
		int st = b->fn(x->args.n, x->args.v);
		fflush(NULL);
		_exit(st);
	}
	execvp(x->args.v[0], x->args.v);
	if (errno == ENOENT) {
		fprintf(stderr, "sh: %s: not found\n", x->args.v[0]);
		_exit(127);
	}
	fprintf(stderr, "sh: %s: %s\n", x->args.v[0], strerror(errno));
	_exit(126);
}

/* In the child, after fork: run a compound command. Never returns. */
static void compound_child(struct cmd *c, int background)
{
	struct redirs r;

	child_signals(background);     /* Ctrl-C ends the whole loop */
	interactive = 0;
	expand_redirs(&c->r, &r);
	if (apply_redirections(&r) < 0)
		_exit(1);
	run_compound(c);
	fflush(NULL);
	_exit(last_status);
}

static int run_compound_here(const void *arg)
{
	run_compound((struct cmd *)arg);
	return last_status;
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
	pid_t pids[16];
	int prev_read = -1, status = 0, n = 0;
	struct cmd *first = pl->cmds[0];

	/* A lone builtin, assignment or compound command runs in the shell:
	 * "cd" must change *our* directory, "exit" must end *us*, a loop's
	 * variables must stay set. */
	if (pl->ncmds == 1 && !pl->background) {
		if (first->type != C_SIMPLE) {
			struct redirs r;

			expand_redirs(&first->r, &r);
			status = with_redirections(&r, run_compound_here, first);
			free_redirs(&r);
			return status;
		}
		struct xcmd x;
		const struct builtin *b;

		subst_ran = 0;
		expand_cmd(first, &x);
		if (x.args.n == 0) {                    /* only redirections */
			status = with_redirections(&x.r, nothing, NULL);
			free_xcmd(&x);
			return status;
		}
		if (only_assignments(&x)) {
			/* POSIX: x=$(cmd) has the status of cmd */
			status = subst_ran ? last_status : 0;
			for (int i = 0; i < x.args.n; i++)
				status |= assign(x.args.v[i], 0);
			free_xcmd(&x);
			return status;
		}
		if ((b = find_builtin(x.args.v[0]))) {
			status = with_redirections(&x.r, call_builtin, &x);
			free_xcmd(&x);
			return status;
		}
		free_xcmd(&x);          /* run as any other command, below */
	}

	fflush(NULL);   /* children must not inherit unwritten output */
	for (int i = 0; i < pl->ncmds; i++) {
		int fds[2] = { -1, -1 };
		struct cmd *c = pl->cmds[i];
		struct xcmd x = { 0 };

		if (i < pl->ncmds - 1 && pipe(fds) < 0) {
			fprintf(stderr, "sh: pipe: %s\n", strerror(errno));
			status = 1;
			break;
		}
		/* Expand in the shell, before the fork: $(...) output, $? ... */
		if (c->type == C_SIMPLE)
			expand_cmd(c, &x);
		fflush(NULL);
		pids[n] = fork();
		if (pids[n] == 0) {
			if (prev_read >= 0) {
				dup2(prev_read, 0);
				close(prev_read);
			}
			if (fds[1] >= 0) {
				dup2(fds[1], 1);
				close(fds[1]);
				close(fds[0]);
			}
			if (c->type == C_SIMPLE)
				exec_child(&x, pl->background);
			compound_child(c, pl->background);
		}
		if (c->type == C_SIMPLE)
			free_xcmd(&x);
		if (pids[n] < 0) {
			fprintf(stderr, "sh: fork: %s\n", strerror(errno));
			status = 1;
		}
		/* The parent keeps only the read end, for the next command. */
		if (prev_read >= 0)
			close(prev_read);
		if (fds[1] >= 0)
			close(fds[1]);
		prev_read = fds[0];
		if (pids[n] < 0) {
			if (prev_read >= 0)
				close(prev_read);
			break;
		}
		n++;
	}

	if (pl->background) {
		for (int i = 0; i < n; i++) {
			setpgid(pids[i], pids[i]);  /* also in the parent: no race */
			job_add(pids[i], pids[i], 0);
		}
		if (n > 0) {
			last_bg_pid = pids[n - 1];
			if (interactive)
				fprintf(stderr, "[%d]\n", last_bg_pid);
		}
		return status;
	}

	for (int i = 0; i < n; i++) {
		int st = wait_foreground(pids[i], getpgrp());

		if (i == n - 1 && n == pl->ncmds)
			status = st;
	}
	return status;
}

/* Should the list (or loop) we are in stop now? */
static int stopping(void)
{
	return breaking || continuing || interrupted;
}

/* Run the list l: each pipeline, as its joiner says. Sets last_status. */
static void run_list(struct pipeline *l)
{
	for (struct pipeline *pl = l; pl && !stopping(); pl = pl->next) {
		int st;

		reap_jobs();
		if (pl->join == J_IF_OK && last_status != 0)
			continue;
		if (pl->join == J_IF_FAIL && last_status == 0)
			continue;
		st = run_pipeline(pl);
		last_status = pl->negate ? !st : st;
	}
}

/* After a loop body: 1 if the loop must end (break, Ctrl-C). */
static int loop_ends(void)
{
	continuing = 0;
	if (breaking) {
		breaking--;
		return 1;
	}
	return interrupted;
}

/* Run a loop's body, its status into *st: 1 if the loop must end. */
static int run_loop_body(struct cmd *c, int *st)
{
	run_list(c->body);
	*st = last_status;
	return loop_ends();
}

static void run_loop_for(struct cmd *c)
{
	struct fields items = { 0 };
	int st = 0;

	if (c->has_in) {
		for (int i = 0; i < c->nwords; i++)
			expand(c->words[i], &items, 1);
	} else {
		for (int i = 1; i < script_argc; i++) {
			struct str s = { 0 };
			str_add(&s, script_argv[i], strlen(script_argv[i]));
			fields_push(&items, &s);
		}
	}
	loop_depth++;
	for (int i = 0; i < items.n; i++) {
		if (var_set(c->var, items.v[i], 0)) {
			st = 1;
			break;
		}
		if (run_loop_body(c, &st))
			break;
	}
	loop_depth--;
	fields_free(&items);
	last_status = st;
}

static void run_loop_while(struct cmd *c)
{
	int st = 0;

	loop_depth++;
	for (;;) {
		run_list(c->cond);
		if (stopping()) {
			if (loop_ends())
				break;
			continue;
		}
		if ((last_status == 0) != (c->type == C_WHILE))
			break;
		if (run_loop_body(c, &st))
			break;
	}
	loop_depth--;
	last_status = st;
}

/* Run an if/while/until/for (its redirections are already in place). */
static void run_compound(struct cmd *c)
{
	switch (c->type) {
	case C_IF:
		run_list(c->cond);
		if (stopping())
			return;
		if (last_status == 0)
			run_list(c->body);
		else if (c->else_part)
			run_list(c->else_part);
		else
			last_status = 0;        /* no branch taken: status 0 */
		break;
	case C_WHILE: case C_UNTIL:
		run_loop_while(c);
		break;
	case C_FOR:
		run_loop_for(c);
		break;
	case C_SIMPLE:
		break;
	}
}

/* ---- reading input ----------------------------------------------------------- */

/*
 * Parse and run text (one or more lines).  INCOMPLETE if it is not a whole
 * command yet (the caller reads more and tries again), else 0.
 */
static int run_text(const char *text)
{
	static struct token toks[MAXTOKENS];
	struct pipeline *l;
	int ntok;

	arena_used = 0;
	ntok = lex(text, toks);
	if (ntok == INCOMPLETE)
		return INCOMPLETE;
	if (ntok < 0) {
		last_status = 2;
		return 0;
	}
	l = parse(toks);
	if (parse_err == INCOMPLETE)
		return INCOMPLETE;
	if (parse_err) {
		last_status = 2;
		return 0;
	}
	interrupted = breaking = continuing = 0;
	run_list(l);
	return 0;
}

/* sh -c text, and $(text) in the child: the text must be complete. */
static void run_text_and_exit(const char *text)
{
	interactive = 0;
	if (run_text(text) == INCOMPLETE) {
		fprintf(stderr, "sh: syntax error: unexpected end of input\n");
		last_status = 2;
	}
	fflush(NULL);
	_exit(last_status);
}

/* The prompt: "vellum:CWD$ ", or "> " when the command goes on. */
static const char *prompt_text(int more)
{
	static char text[300];
	char cwd[256];

	if (more)
		return "> ";
	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "?");
	snprintf(text, sizeof(text), "vellum:%s$ ", cwd);
	return text;
}

/* Got a line, the end of the input, or (line editor) Ctrl-C. */
enum { LINE_OK, LINE_EOF, LINE_INTERRUPTED };

/* Read one line (with its '\n', if it had one) from f into line: with the
 * line editor at a terminal, else as it is (fgets), prompting if
 * interactive; more: a command goes on ("> "). */
static int read_line(FILE *f, char *line, int size, int more)
{
	if (editing) {
		int n = le_readline(prompt_text(more), line, size);

		if (n == LE_INTERRUPT)
			return LINE_INTERRUPTED;
		if (n == LE_EOF)
			return LINE_EOF;
		le_history_add(line);
		return LINE_OK;
	}
	if (interactive)
		fputs(prompt_text(more), stderr);
	return fgets(line, size, f) ? LINE_OK : LINE_EOF;
}

/* Read and run commands from f until end of file; a command may take
 * several lines (an open loop, a trailing |, a backslash-newline). */
static void run_file(FILE *f)
{
	static char input[MAXINPUT];
	char line[MAXLINE];
	size_t len = 0;

	for (;;) {
		size_t n;
		int got = read_line(f, line, sizeof(line), len > 0);

		if (got == LINE_INTERRUPTED) {  /* Ctrl-C: the whole command goes */
			len = 0;
			last_status = 130;
			continue;
		}
		if (got == LINE_EOF) {
			if (interactive)
				fputc('\n', stderr);
			if (len > 0) {
				fprintf(stderr, "sh: syntax error: unexpected end of file\n");
				last_status = 2;
			}
			break;
		}
		n = strlen(line);
		if (n >= 2 && line[n - 2] == '\\' && line[n - 1] == '\n')
			n -= 2;                 /* backslash-newline: the line goes on */
		if (len + n + 1 >= sizeof(input)) {
			fprintf(stderr, "sh: command too long\n");
			len = 0;
			last_status = 2;
			continue;
		}
		memcpy(input + len, line, n);
		len += n;
		input[len] = '\0';
		if (n < strlen(line) || run_text(input) == INCOMPLETE)
			continue;
		len = 0;
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
		setenv("PATH", "/bin:/sbin:/usr/bin", 1);

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
		if (run_text(argv[2]) == INCOMPLETE) {
			fprintf(stderr, "sh: syntax error: unexpected end of input\n");
			last_status = 2;
		}
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
		editing = interactive && le_usable();
		run_file(stdin);
	}
	fflush(NULL);
	return last_status;
}
