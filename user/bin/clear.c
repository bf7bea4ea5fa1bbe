/*
 * clear - clear the terminal's screen.
 * usage: clear
 *
 * Writes two ANSI (ECMA-48) control sequences: ESC [ H, the cursor to the
 * top left corner, then ESC [ 2 J, erase the whole screen.  A terminal on
 * the serial port obeys them, and so does Vellum's VGA console
 * (kernel/drivers/vga.c).  The shell's Ctrl-L sends the same.  Unlike
 * Linux's clear (ncurses, which looks the sequences up in terminfo by
 * $TERM), it does not also erase the terminal's scrollback (ESC [ 3 J):
 * what scrolled away can still be scrolled back to.
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: clear\n");
		return 2;
	}
	fputs("\x1b[H\x1b[2J", stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}
