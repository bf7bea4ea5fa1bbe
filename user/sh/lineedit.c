/*
 * lineedit.c - the shell's line editor: everything between the prompt and
 * Enter when standard input is a terminal (sh.c calls le_readline() then;
 * from a script, a pipe or /etc/rc it reads lines with fgets, unedited).
 *
 * It owns:
 *
 *   - the terminal's mode while a line is read.  The tty's own line
 *     editing (canonical mode: erase and kill only) is switched off with
 *     termios: no ICANON (every key comes at once), no ECHO (we draw), no
 *     ISIG (Ctrl-C and Ctrl-Z come as bytes, not signals).  The mode is
 *     put back before le_readline() returns, so every command the shell
 *     runs gets the usual cooked terminal, where Ctrl-C is SIGINT again.
 *   - the line being edited, a text and a cursor (struct line), and
 *     drawing it (refresh): after each key the text is drawn again after
 *     the prompt with two ANSI sequences, "move the cursor" and "erase to
 *     the end of the line", which a terminal on the serial port and
 *     Vellum's VGA console both obey;
 *   - reading keys: a byte, or the escape sequence an arrow, Home, End or
 *     Delete sends (read_key);
 *   - the history (Up and Down, Ctrl-R's search) and the cut text (Ctrl-K,
 *     Ctrl-U, Ctrl-W cut; Ctrl-Y pastes);
 *   - what Tab does with the candidates complete.c finds: fill in what
 *     they all share, and list them on a second Tab.
 *
 * The keys are Emacs's, as bash's defaults:
 *
 *   Left Right, Ctrl-B Ctrl-F          a character left, right
 *   Alt-B Alt-F, Ctrl-Left Ctrl-Right  a word left, right
 *   Home End, Ctrl-A Ctrl-E            to the start, the end of the line
 *   Backspace, Delete                  delete before, under the cursor
 *   Ctrl-D                             delete under the cursor; on an
 *                                      empty line: end of input (exit)
 *   Ctrl-K, Ctrl-U, Ctrl-W             cut to the end, to the start, the
 *                                      word before the cursor
 *   Ctrl-Y                             paste what was cut last
 *   Up Down, Ctrl-P Ctrl-N             older, newer line of the history
 *   Ctrl-R                             search the history as you type
 *   Tab                                complete a command name or a path
 *   Ctrl-L                             clear the screen, draw the line again
 *   Ctrl-C                             abandon the line
 *   Enter                              done: the shell runs it
 *
 * How the line is drawn: the prompt is printed once, and the text starts
 * where the prompt ended.  The editor remembers which column of the text
 * the cursor is on (line.cur) and moves from there, so it never needs to
 * know where the prompt began.  The text area runs to the terminal's right
 * edge (TIOCGWINSZ, 80 columns on Vellum); a longer line scrolls sideways,
 * half a width at a time: a window of it that holds the cursor is shown.
 * One byte is one column (no UTF-8).  Output is collected in a buffer and
 * written at once, just before the editor waits for the next key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include "lineedit.h"

#define HISTORY_MAX 200         /* lines the history keeps */
#define ESC_WAIT    5           /* tenths of a second: an escape sequence's bytes
                                   come together; an ESC alone is the Esc key */
#define LIST_ASK    100         /* more choices than this: ask before listing */

#define CTRL(c) ((c) & 0x1f)    /* CTRL('A') == 1, the byte Ctrl-A sends */

/* Keys that arrive as escape sequences (read_key); bytes are 0-255. */
enum {
	KEY_NONE = 256,         /* a sequence we do not know: ignored */
	KEY_ESC,                /* the Esc key alone: ignored */
	KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT,
	KEY_HOME, KEY_END, KEY_DELETE,
	KEY_WORD_LEFT, KEY_WORD_RIGHT,
};

/* ---- the terminal ---------------------------------------------------------- */

static struct termios cooked;   /* the mode to put back when the line is read */

int le_usable(void)
{
	struct termios t;

	return tcgetattr(0, &t) == 0 && isatty(2);
}

/* Raw mode: each key as it comes, no echo, Ctrl-C and Ctrl-Z as bytes. */
static int term_raw(void)
{
	struct termios raw;

	if (tcgetattr(0, &cooked) < 0)
		return -1;
	/* A program that died in raw mode (killed, crashed) leaves the
	 * terminal so; what the commands get back must be usable. */
	if (!(cooked.c_lflag & ICANON))
		cooked.c_lflag |= ICANON | ECHO | ECHOE | ECHOK | ISIG | IEXTEN;
	raw = cooked;
	raw.c_lflag &= ~(ICANON | ECHO | ISIG | IEXTEN);
	raw.c_cc[VMIN] = 1;     /* read() returns as soon as a byte is there... */
	raw.c_cc[VTIME] = 0;    /* ...and waits for it as long as it takes */
	return tcsetattr(0, TCSADRAIN, &raw);
}

static void term_cooked(void)
{
	tcsetattr(0, TCSADRAIN, &cooked);
}

/* How the next read() waits: tenths == 0, for one byte as long as it
 * takes (VMIN 1); else at most that many tenths of a second, then it
 * returns 0 (VMIN 0, VTIME tenths: the tty's timer does the waiting). */
static void term_wait(int tenths)
{
	struct termios t;

	if (tcgetattr(0, &t) < 0)
		return;
	t.c_cc[VMIN] = tenths ? 0 : 1;
	t.c_cc[VTIME] = tenths;
	tcsetattr(0, TCSANOW, &t);
}

static int term_columns(void)
{
	struct winsize ws;

	if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* ---- output: collected, written before each wait for a key -------------- */

static char out_buf[4096];
static int out_len;

static void out_flush(void)
{
	for (int done = 0; done < out_len; ) {
		ssize_t n = write(2, out_buf + done, out_len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += n;
	}
	out_len = 0;
}

static void out_add(const char *s, int n)
{
	while (n > 0) {
		int room = (int)sizeof(out_buf) - out_len;
		int k = n < room ? n : room;

		memcpy(out_buf + out_len, s, k);
		out_len += k;
		s += k;
		n -= k;
		if (out_len == (int)sizeof(out_buf))
			out_flush();
	}
}

static void out_str(const char *s)
{
	out_add(s, strlen(s));
}

/* ESC [ n D moves the cursor n columns left, ESC [ n C right.  (n = 0
 * would mean 1 to a terminal: no sequence at all then.) */
static void cursor_left(int n)
{
	char seq[16];

	if (n > 0) {
		snprintf(seq, sizeof(seq), "\x1b[%dD", n);
		out_str(seq);
	}
}

static void cursor_right(int n)
{
	char seq[16];

	if (n > 0) {
		snprintf(seq, sizeof(seq), "\x1b[%dC", n);
		out_str(seq);
	}
}

/* ---- keys ------------------------------------------------------------------ */

/* One byte from the terminal, or -1 if there is none: end of input, or a
 * wait set by term_wait() ran out.  Whatever is to be drawn goes out
 * first: the user sees the line before we wait for the next key. */
static int read_byte(void)
{
	unsigned char c;
	ssize_t n;

	out_flush();
	do
		n = read(0, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? c : -1;
}

/*
 * The next key: a byte, or KEY_* for the escape sequence of a key
 * (xterm's, which is also what Vellum's keyboard driver sends):
 *
 *   ESC [ A, B, C, D                 Up, Down, Right, Left
 *   ESC O A, B, C, D                 the same ("application" cursor mode)
 *   ESC [ H, ESC [ F, ESC O H, F     Home, End
 *   ESC [ 1 ~, 7 ~ / ESC [ 4 ~, 8 ~  Home / End (other terminals)
 *   ESC [ 3 ~                        Delete
 *   ESC [ 1 ; 5 C, D                 Ctrl-Right, Ctrl-Left
 *   ESC b, ESC f                     Alt-B, Alt-F
 *
 * A sequence is: ESC, '[' or 'O', numbers separated by ';', one final
 * character.  A key sends all of it at once; an ESC followed by nothing
 * within ESC_WAIT tenths of a second was the Esc key itself.
 */
static int read_key(void)
{
	int c = read_byte(), kind, final = -1, arg[2] = { 0, 0 }, nargs = 0;

	if (c != 0x1b)
		return c;
	term_wait(ESC_WAIT);
	kind = read_byte();
	if (kind == '[' || kind == 'O') {
		while ((final = read_byte()) >= 0) {
			if (final >= '0' && final <= '9') {
				if (nargs == 0)
					nargs = 1;
				if (nargs <= 2 && arg[nargs - 1] < 1000)
					arg[nargs - 1] = arg[nargs - 1] * 10 + final - '0';
			} else if (final == ';') {
				nargs = nargs ? nargs + 1 : 2;
			} else {
				break;
			}
		}
	}
	term_wait(0);

	if (kind < 0)
		return KEY_ESC;
	if (kind == 'b')
		return KEY_WORD_LEFT;
	if (kind == 'f')
		return KEY_WORD_RIGHT;
	if (kind != '[' && kind != 'O')
		return KEY_NONE;
	switch (final) {
	case 'A': return KEY_UP;
	case 'B': return KEY_DOWN;
	case 'C': return nargs == 2 && arg[1] == 5 ? KEY_WORD_RIGHT : KEY_RIGHT;
	case 'D': return nargs == 2 && arg[1] == 5 ? KEY_WORD_LEFT : KEY_LEFT;
	case 'H': return KEY_HOME;
	case 'F': return KEY_END;
	case '~':
		switch (arg[0]) {
		case 1: case 7: return KEY_HOME;
		case 4: case 8: return KEY_END;
		case 3: return KEY_DELETE;
		}
	}
	return KEY_NONE;
}

/* ---- the line being edited ------------------------------------------------- */

struct line {
	char *buf;              /* the text, NUL-terminated */
	int len;                /* its length */
	int max;                /* the most it may hold */
	int pos;                /* the cursor: before buf[pos] */
	const char *prompt;
	int cols;               /* the terminal's width */
	int width;              /* columns for the text, after the prompt */
	int off;                /* the first byte shown (a long line scrolls) */
	int cur;                /* the column of the text the cursor is on now */
};

/*
 * Draw the text again and put the cursor at pos: back to where the text
 * starts, the bytes that fit, erase what is left of an older, longer text
 * (ESC [ K), back to the cursor's column.
 */
static void refresh(struct line *l)
{
	int shown;

	/* Scroll so that the cursor shows, by half a width at a time (typing
	 * on then needs no redraw for a while). */
	if (l->len <= l->width)
		l->off = 0;
	else if (l->pos < l->off)
		l->off = l->pos > l->width / 2 ? l->pos - l->width / 2 : 0;
	else if (l->pos > l->off + l->width)
		l->off = l->pos - l->width / 2;
	shown = l->len - l->off;
	if (shown > l->width)
		shown = l->width;
	cursor_left(l->cur);
	out_add(l->buf + l->off, shown);
	out_str("\x1b[K");
	cursor_left(shown - (l->pos - l->off));
	l->cur = l->pos - l->off;
}

/* The cursor moved and the text did not: just move it on the screen,
 * unless the line must scroll to show it. */
static void place_cursor(struct line *l)
{
	int col = l->pos - l->off;

	if (col < 0 || col > l->width) {
		refresh(l);
		return;
	}
	if (col < l->cur)
		cursor_left(l->cur - col);
	else
		cursor_right(col - l->cur);
	l->cur = col;
}

/* The prompt and the line on a fresh screen line (after Ctrl-L, a list of
 * completions, a history search). */
static void redraw(struct line *l)
{
	out_str(l->prompt);
	l->cur = 0;
	refresh(l);
}

/* Insert n bytes at the cursor (as many as fit). */
static void insert(struct line *l, const char *s, int n)
{
	if (n > l->max - l->len)
		n = l->max - l->len;
	if (n <= 0)
		return;
	memmove(l->buf + l->pos + n, l->buf + l->pos, l->len - l->pos + 1);
	memcpy(l->buf + l->pos, s, n);
	l->len += n;
	l->pos += n;
}

/* Delete the bytes [from, to). */
static void delete(struct line *l, int from, int to)
{
	memmove(l->buf + from, l->buf + to, l->len - to + 1);
	l->len -= to - from;
	if (l->pos > to)
		l->pos -= to - from;
	else if (l->pos > from)
		l->pos = from;
}

/* Replace the whole text (a history line). */
static void set_text(struct line *l, const char *s)
{
	int n = strlen(s);

	if (n > l->max)
		n = l->max;
	memcpy(l->buf, s, n);
	l->buf[n] = '\0';
	l->len = l->pos = n;
}

/* ---- cut and paste ------------------------------------------------------------ */

static char *cut_text;          /* what Ctrl-K, Ctrl-U or Ctrl-W cut last */

static void cut(struct line *l, int from, int to)
{
	if (from >= to)
		return;
	free(cut_text);
	cut_text = strndup(l->buf + from, to - from);
	delete(l, from, to);
}

/* ---- words ------------------------------------------------------------------ */

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Where Ctrl-W's cut starts: back over blanks, then back over non-blanks
 * (bash's unix-word-rubout: "ls /bin/ec" loses "/bin/ec"). */
static int rubout_start(const struct line *l)
{
	int i = l->pos;

	while (i > 0 && is_blank(l->buf[i - 1]))
		i--;
	while (i > 0 && !is_blank(l->buf[i - 1]))
		i--;
	return i;
}

/* Alt-B / Alt-F: to the start of this or the previous word, to the end of
 * this or the next word (words of letters, digits and _). */
static int word_left(const struct line *l)
{
	int i = l->pos;

	while (i > 0 && !is_word_char(l->buf[i - 1]))
		i--;
	while (i > 0 && is_word_char(l->buf[i - 1]))
		i--;
	return i;
}

static int word_right(const struct line *l)
{
	int i = l->pos;

	while (i < l->len && !is_word_char(l->buf[i]))
		i++;
	while (i < l->len && is_word_char(l->buf[i]))
		i++;
	return i;
}

/* ---- history ------------------------------------------------------------------ */

static char *history[HISTORY_MAX];      /* oldest first */
static int history_len;

void le_history_add(const char *line)
{
	size_t n = strlen(line);
	size_t i;

	if (n > 0 && line[n - 1] == '\n')
		n--;
	for (i = 0; i < n && is_blank(line[i]); i++)
		;
	if (i == n)
		return;                                 /* blank */
	if (history_len > 0 && strlen(history[history_len - 1]) == n &&
	    strncmp(history[history_len - 1], line, n) == 0)
		return;                                 /* the same again */
	if (history_len == HISTORY_MAX) {               /* forget the oldest */
		free(history[0]);
		memmove(history, history + 1, (HISTORY_MAX - 1) * sizeof(history[0]));
		history_len--;
	}
	history[history_len++] = strndup(line, n);
}

const char *le_history_get(int i)
{
	return i >= 0 && i < history_len ? history[i] : NULL;
}

/*
 * Up and Down walk the history; *at is the entry shown, history_len
 * meaning the new line being typed.  That line is kept aside (*draft)
 * when we leave it, and comes back when Down returns to it.  Editing a
 * line brought back does not change the history: the edited line is added
 * as a new entry when it runs.
 */
static void history_move(struct line *l, int *at, char **draft, int step)
{
	int to = *at + step;

	if (to < 0 || to > history_len)
		return;
	if (*at == history_len) {
		free(*draft);
		*draft = strdup(l->buf);
	}
	*at = to;
	set_text(l, to == history_len ? (*draft ? *draft : "") : history[to]);
}

/*
 * Ctrl-R: search the history backwards for what is typed, as it is typed
 * (bash's reverse-i-search).  The prompt gives way to
 *
 *     (reverse-i-search)`cat': cat /etc/rc
 *
 * A character makes the search text longer (the match may stay), Ctrl-R
 * looks for an older match, Backspace shortens the text; Ctrl-G or Ctrl-C
 * gives up (the line is as it was).  Any other key takes the match into
 * the line, the cursor on the match, and then does what that key does
 * (Enter runs it, an arrow starts editing it): it is returned for the
 * caller to act on (0: nothing to do).
 */
static int search_history(struct line *l)
{
	char text[64];
	int tlen = 0, found = -1, where = 0, failed = 0, key;
	char *orig = strdup(l->buf);

	for (;;) {
		out_str("\r\x1b[K");
		out_str(failed ? "(failed reverse-i-search)`" : "(reverse-i-search)`");
		out_add(text, tlen);
		out_str("': ");
		if (found >= 0) {
			out_str(history[found]);
			cursor_left(strlen(history[found]) - where);
		}
		key = read_key();

		int from;                               /* where the search starts */
		if (key == CTRL('R') && tlen > 0) {
			from = found >= 0 ? found - 1 : history_len - 1;
		} else if ((key == 127 || key == CTRL('H')) && tlen > 0) {
			tlen--;
			from = history_len - 1;
		} else if (key >= ' ' && key < 127) {
			if (tlen < (int)sizeof(text) - 1)
				text[tlen++] = key;
			from = found >= 0 ? found : history_len - 1;
		} else if (key == CTRL('R') || key == 127 || key == CTRL('H')) {
			continue;                       /* nothing typed yet */
		} else {
			break;
		}
		text[tlen] = '\0';
		failed = 1;
		for (int i = from; i >= 0; i--) {
			char *p = strstr(history[i], text);

			if (p) {
				found = i;
				where = p - history[i];
				failed = 0;
				break;
			}
		}
	}
	if (key == CTRL('G') || key == CTRL('C') || found < 0) {
		set_text(l, orig);
		if (key == CTRL('G') || key == CTRL('C'))
			key = 0;
	} else {
		set_text(l, history[found]);
		l->pos = where;
	}
	free(orig);
	out_str("\r\x1b[K");
	l->off = 0;
	redraw(l);
	return key;
}

/* ---- Tab ---------------------------------------------------------------------- */

/* The part of a candidate a list shows: its last component ("/bin/echo"
 * shows "echo", "/etc/" shows "etc/"). */
static const char *shown_name(const char *c)
{
	size_t n = strlen(c);
	const char *p = c + n - (n > 0 && c[n - 1] == '/');

	while (p > c && p[-1] != '/')
		p--;
	return p;
}

/* The choices, in columns (down, then across, as ls), under the line;
 * then the prompt and the line again. */
static void list_choices(struct line *l, char **v, int n)
{
	int widest = 0, cols, rows;

	if (n > LIST_ASK) {
		char ask[64];
		int c;

		snprintf(ask, sizeof(ask), "\nDisplay all %d possibilities? (y or n)", n);
		out_str(ask);
		c = read_key();
		if (c != 'y' && c != 'Y') {
			out_str("\n");
			redraw(l);
			return;
		}
	}
	for (int i = 0; i < n; i++) {
		int w = strlen(shown_name(v[i]));
		if (w > widest)
			widest = w;
	}
	widest += 2;
	cols = l->cols / widest;
	if (cols < 1)
		cols = 1;
	rows = (n + cols - 1) / cols;
	out_str("\n");
	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < cols; c++) {
			int i = c * rows + r;
			const char *name;
			int w;

			if (i >= n)
				break;
			name = shown_name(v[i]);
			w = strlen(name);
			out_str(name);
			if (c < cols - 1 && i + rows < n)
				for (; w < widest; w++)
					out_str(" ");
		}
		out_str("\n");
	}
	redraw(l);
}

/*
 * Tab: complete the word before the cursor.  complete.c says what it may
 * become; we fill in as much as all the candidates share.  One candidate
 * is finished with a space (or its '/', to go on inside a directory).  If
 * that changes nothing and the key before was a Tab too, the choices are
 * listed (bash's way).  Returns 1 if the line changed.
 */
static int tab(struct line *l, int again)
{
	char **v;
	int start, n, common, changed = 0;

	n = complete(l->buf, l->pos, &start, &v);
	if (n == 0)
		return 0;
	common = strlen(v[0]);
	for (int i = 1; i < n; i++) {
		int k = 0;
		while (k < common && v[i][k] == v[0][k])
			k++;
		common = k;
	}
	if (common > l->pos - start) {
		insert(l, v[0] + (l->pos - start), common - (l->pos - start));
		changed = 1;
	}
	if (n == 1 && v[0][common - 1] != '/') {
		insert(l, " ", 1);
		changed = 1;
	}
	if (!changed && n > 1 && again)
		list_choices(l, v, n);
	complete_free(v, n);
	return changed;
}

/* ---- reading a line ------------------------------------------------------------ */

int le_readline(const char *prompt, char *buf, int size)
{
	struct line l = { .buf = buf, .max = size - 2, .prompt = prompt };
	int at = history_len;           /* the history entry shown */
	char *draft = NULL;             /* the new line, while Up shows old ones */
	int key = 0, last_was_tab = 0, ret;

	if (term_raw() < 0)
		return LE_EOF;
	l.cols = term_columns();
	l.width = l.cols - (int)strlen(prompt) % l.cols - 1;    /* the last column stays
								   free: no wrapping */
	if (l.width < 1)
		l.width = 1;
	buf[0] = '\0';
	out_str(prompt);
	for (;;) {
		int c = key ? key : read_key();
		int was_tab = last_was_tab, moved = 0;

		key = 0;
		last_was_tab = 0;
		switch (c) {
		case '\r': case '\n':
			l.pos = l.len;
			place_cursor(&l);
			out_str("\n");
			ret = l.len;
			goto done;
		case -1:                        /* the terminal is gone */
			out_str("\n");
			ret = LE_EOF;
			goto done;
		case CTRL('C'):
			l.pos = l.len;
			place_cursor(&l);
			out_str("^C\n");
			ret = LE_INTERRUPT;
			goto done;
		case CTRL('D'):
			if (l.len == 0) {
				ret = LE_EOF;
				goto done;
			}
			/* not empty: delete under the cursor, as Delete */
			/* fall through */
		case KEY_DELETE:
			if (l.pos < l.len)
				delete(&l, l.pos, l.pos + 1);
			break;
		case 127: case CTRL('H'):       /* Backspace sends one or the other */
			if (l.pos > 0)
				delete(&l, l.pos - 1, l.pos);
			break;
		case CTRL('A'): case KEY_HOME:
			l.pos = 0;
			moved = 1;
			break;
		case CTRL('E'): case KEY_END:
			l.pos = l.len;
			moved = 1;
			break;
		case CTRL('B'): case KEY_LEFT:
			if (l.pos > 0)
				l.pos--;
			moved = 1;
			break;
		case CTRL('F'): case KEY_RIGHT:
			if (l.pos < l.len)
				l.pos++;
			moved = 1;
			break;
		case KEY_WORD_LEFT:
			l.pos = word_left(&l);
			moved = 1;
			break;
		case KEY_WORD_RIGHT:
			l.pos = word_right(&l);
			moved = 1;
			break;
		case CTRL('K'):
			cut(&l, l.pos, l.len);
			break;
		case CTRL('U'):
			cut(&l, 0, l.pos);
			break;
		case CTRL('W'):
			cut(&l, rubout_start(&l), l.pos);
			break;
		case CTRL('Y'):
			if (cut_text)
				insert(&l, cut_text, strlen(cut_text));
			break;
		case CTRL('P'): case KEY_UP:
			history_move(&l, &at, &draft, -1);
			break;
		case CTRL('N'): case KEY_DOWN:
			history_move(&l, &at, &draft, +1);
			break;
		case CTRL('R'):
			key = search_history(&l);
			continue;
		case '\t':
			last_was_tab = 1;
			tab(&l, was_tab);
			break;
		case CTRL('L'):
			out_str("\x1b[H\x1b[2J");       /* cursor home, erase the screen */
			redraw(&l);
			continue;
		default: {
			char ch = c;
			int at_end = l.pos == l.len, old_len = l.len;

			if (c < ' ' || c == 127 || c >= KEY_NONE)
				continue;               /* a key we do not use */
			insert(&l, &ch, 1);
			if (l.len == old_len)
				continue;               /* the line is full */
			if (at_end && l.len - l.off <= l.width) {
				out_add(&ch, 1);        /* typed at the end, and it fits: */
				l.cur++;                /* just show it */
				continue;
			}
			break;
		}
		}
		if (moved)
			place_cursor(&l);
		else
			refresh(&l);
	}
done:
	out_flush();
	term_cooked();
	free(draft);
	if (ret >= 0) {
		buf[ret++] = '\n';
		buf[ret] = '\0';
	}
	return ret;
}
