/*
 * lineedit.h - the shell's line editor (lineedit.c) and its Tab completion
 * (complete.c), as the shell (sh.c) calls them.
 */
#ifndef LINEEDIT_H
#define LINEEDIT_H

/* What le_readline() answers instead of a length. */
#define LE_EOF       (-1)       /* Ctrl-D on an empty line, or the terminal is gone */
#define LE_INTERRUPT (-2)       /* Ctrl-C: the line was abandoned */

/* Can lines be edited here: are standard input (the keys) and standard
 * error (where the editor draws, as the prompt goes) both terminals? */
int le_usable(void);

/* Print prompt, then read one line from the terminal, with editing.  The
 * line, with a '\n' at its end, goes into buf (size bytes, NUL-terminated).
 * Returns its length (with the '\n'), LE_EOF or LE_INTERRUPT.  The
 * terminal is in raw mode only inside this call. */
int le_readline(const char *prompt, char *buf, int size);

/* The history (Up/Down, Ctrl-R), in memory, the last HISTORY_MAX lines.
 * le_history_add keeps line without its '\n', unless it is blank or the
 * same as the last one kept; le_history_get(i) is the i-th oldest kept, or
 * NULL past the newest. */
void le_history_add(const char *line);
const char *le_history_get(int i);

/* complete.c: what the word that ends at pos in line could become.  Sets
 * *start to where that word begins; returns how many candidates there
 * are, in *out: each a malloc'ed whole word (a directory ends in '/'),
 * sorted, no duplicates.  complete_free() frees them. */
int complete(const char *line, int pos, int *start, char ***out);
void complete_free(char **v, int n);

/* sh.c: the i-th builtin's name (for completing command names), or NULL
 * past the last. */
const char *sh_builtin_name(int i);

#endif
