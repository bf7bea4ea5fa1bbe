/*
 * complete.c - what Tab completes a word to.  The line editor
 * (lineedit.c) asks complete() for the candidates, and decides what to do
 * with them (fill in what they share, list them).
 *
 * The word is the one the cursor is at the end of: it starts after the
 * last blank or operator character (| & ; < > ( )) before the cursor.
 * Quotes and backslashes are not understood here (a simplification): a
 * name with a blank in it is offered unquoted.
 *
 * Where the word stands decides what it can become:
 *
 *   - a command name: the first word of the line, or the first after
 *     | & ; ( (so also && and ||) or after the reserved words that a
 *     command follows (if then else elif while until do !), if it has no
 *     '/': a builtin, or a program in one of the $PATH directories (a file
 *     with an execute bit);
 *   - anything else, or a word with a '/' in it: a path.  The directory is
 *     the word up to its last '/' ("." if it has none); the names in it that
 *     begin with the rest are the candidates, each as the whole word
 *     ("/bin/ech" -> "/bin/echo"), a directory's with a '/' at the end so
 *     that the next Tab goes on inside it.  Names that begin with '.' only
 *     if the rest does too, as for globbing.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lineedit.h"

/* The candidates found so far: a growing array of malloc'ed strings. */
struct found {
	char **v;
	int n, cap;
};

/* Add the candidate a + b + suffix (a is alen bytes). */
static void add(struct found *f, const char *a, size_t alen, const char *b, const char *suffix)
{
	size_t blen = strlen(b), slen = strlen(suffix);
	char *s = malloc(alen + blen + slen + 1);

	if (!s)
		return;
	if (f->n == f->cap) {
		int cap = f->cap ? f->cap * 2 : 16;
		char **v = realloc(f->v, cap * sizeof(char *));

		if (!v) {
			free(s);
			return;
		}
		f->v = v;
		f->cap = cap;
	}
	memcpy(s, a, alen);
	memcpy(s + alen, b, blen);
	memcpy(s + alen + blen, suffix, slen + 1);
	f->v[f->n++] = s;
}

/* Characters that end a word: blanks and the shell's operators. */
static int ends_word(char c)
{
	return c != '\0' && strchr(" \t|&;<>()", c) != NULL;
}

/* Does the word that starts at start stand where a command name goes? */
static int command_position(const char *line, int start)
{
	static const char *const before_command[] = {
		"if", "then", "else", "elif", "while", "until", "do", "!",
	};
	int i = start, end;

	while (i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t'))
		i--;
	if (i == 0 || strchr("|&;(", line[i - 1]))
		return 1;
	/* the word before: a reserved word, itself where a command goes? */
	end = i;
	while (i > 0 && !ends_word(line[i - 1]))
		i--;
	for (size_t k = 0; k < sizeof(before_command) / sizeof(before_command[0]); k++)
		if (strlen(before_command[k]) == (size_t)(end - i) &&
		    strncmp(line + i, before_command[k], end - i) == 0)
			return command_position(line, i);
	return 0;
}

/* Builtins and the programs of $PATH whose names begin with word[0..n). */
static void commands(struct found *f, const char *word, size_t n)
{
	const char *name, *path = getenv("PATH");

	for (int i = 0; (name = sh_builtin_name(i)); i++)
		if (strncmp(name, word, n) == 0)
			add(f, "", 0, name, "");
	if (!path)
		path = "/bin:/sbin:/usr/bin";           /* execvp's default */
	while (*path) {
		size_t dlen = strcspn(path, ":");
		char dir[256], full[512];
		struct dirent *e;
		struct stat st;
		DIR *d;

		if (dlen < sizeof(dir)) {
			memcpy(dir, path, dlen);
			dir[dlen] = '\0';
			if ((d = opendir(dlen ? dir : "."))) {
				while ((e = readdir(d))) {
					if (strncmp(e->d_name, word, n) != 0 ||
					    (e->d_name[0] == '.' && word[0] != '.'))
						continue;
					snprintf(full, sizeof(full), "%s/%s", dlen ? dir : ".", e->d_name);
					if (stat(full, &st) == 0 && S_ISREG(st.st_mode) &&
					    (st.st_mode & 0111))
						add(f, "", 0, e->d_name, "");
				}
				closedir(d);
			}
		}
		path += dlen;
		if (*path == ':')
			path++;
	}
}

/* The paths that begin with word[0..n): the entries of its directory. */
static void paths(struct found *f, const char *word, size_t n)
{
	size_t dlen = n;                /* the directory part: up to the last '/' */
	const char *base;
	size_t blen;
	char dir[512], full[1024];
	struct dirent *e;
	struct stat st;
	DIR *d;

	while (dlen > 0 && word[dlen - 1] != '/')
		dlen--;
	base = word + dlen;
	blen = n - dlen;
	if (dlen >= sizeof(dir))
		return;
	memcpy(dir, word, dlen);
	dir[dlen] = '\0';
	if (!(d = opendir(dlen ? dir : ".")))
		return;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (strncmp(e->d_name, base, blen) != 0 ||
		    (e->d_name[0] == '.' && (blen == 0 || base[0] != '.')))
			continue;
		snprintf(full, sizeof(full), "%s%s", dlen ? dir : "./", e->d_name);
		add(f, word, dlen, e->d_name,
		    stat(full, &st) == 0 && S_ISDIR(st.st_mode) ? "/" : "");
	}
	closedir(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int complete(const char *line, int pos, int *start, char ***out)
{
	struct found f = { 0 };
	int s = pos, kept = 0;

	while (s > 0 && !ends_word(line[s - 1]))
		s--;
	*start = s;
	if (command_position(line, s) && !memchr(line + s, '/', pos - s))
		commands(&f, line + s, pos - s);
	else
		paths(&f, line + s, pos - s);

	/* sorted, each once (a builtin may also be a program: echo) */
	if (f.n > 1)
		qsort(f.v, f.n, sizeof(char *), by_name);
	for (int i = 0; i < f.n; i++) {
		if (kept > 0 && strcmp(f.v[kept - 1], f.v[i]) == 0)
			free(f.v[i]);
		else
			f.v[kept++] = f.v[i];
	}
	*out = f.v;
	return kept;
}

void complete_free(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
