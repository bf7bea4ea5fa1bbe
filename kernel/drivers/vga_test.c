/* kernel/drivers/vga_test.c: the ktests of vga.c (test=console); built into
 * the test kernel only (make check), never into the production kernel. The
 * tests reach vga.c's static functions and data, so this file includes it: in
 * the test kernel the two are one object (Makefile). */
#include "vga.c"
#include <ktest.h>

/* ---- tests: write into the real video memory, read it back ------------ */

static uint16_t saved_screen[VGA_ROWS * VGA_COLS];

static void save_screen(int *r, int *c)
{
    for (int i = 0; i < VGA_ROWS * VGA_COLS; i++)
        saved_screen[i] = vga_buf[i];
    *r = vga_row;
    *c = vga_col;
}

static void restore_screen(int r, int c)
{
    for (int i = 0; i < VGA_ROWS * VGA_COLS; i++)
        vga_buf[i] = saved_screen[i];
    vga_row = r;
    vga_col = c;
    vga_update_cursor();
}

static unsigned read_hw_cursor(void)
{
    outb(CRTC_INDEX, 0x0F);
    unsigned lo = inb(CRTC_DATA);
    outb(CRTC_INDEX, 0x0E);
    return lo | inb(CRTC_DATA) << 8;
}

/* No printk between save and restore: it would write to the screen too.
 * Results go to locals, assertions come after the restore. */
KTEST(console, vga_writes_cells_and_cursor)
{
    int r, c;
    unsigned long flags = local_irq_save();
    save_screen(&r, &c);
    vga_clear();
    vga_write_string("ab\tc\bd\r\nxy", 10);
    uint16_t a0 = vga_buf[0], b1 = vga_buf[1], d8 = vga_buf[8], x = vga_buf[80], y = vga_buf[81];
    uint16_t blank = vga_buf[2];
    unsigned cur = read_hw_cursor();
    int row = vga_row, col = vga_col;
    restore_screen(r, c);
    local_irq_restore(flags);
    KT_EXPECT_EQ(a0, 'a' | 0x0700);
    KT_EXPECT_EQ(b1, 'b' | 0x0700);
    KT_EXPECT_EQ(blank, ' ' | 0x0700);
    KT_EXPECT_EQ(d8, 'd' | 0x0700);      /* tab to 8, 'c', backspace, 'd' over it */
    KT_EXPECT_EQ(x, 'x' | 0x0700);
    KT_EXPECT_EQ(y, 'y' | 0x0700);
    KT_EXPECT_EQ(row, 1);
    KT_EXPECT_EQ(col, 2);
    KT_EXPECT_EQ(cur, 82);
}

KTEST(console, vga_wraps_and_scrolls)
{
    int r, c;
    char line[VGA_COLS + 1];
    unsigned long flags = local_irq_save();
    save_screen(&r, &c);
    vga_clear();
    vga_write_string("top", 3);
    vga_row = VGA_ROWS - 1;
    vga_col = 0;
    for (int i = 0; i < VGA_COLS; i++)
        line[i] = 'A' + i % 26;
    vga_write_string(line, VGA_COLS);  /* fills the last row, wraps: scroll */
    vga_write_string("z", 1);
    uint16_t top = vga_buf[0];         /* "top" scrolled away */
    uint16_t moved0 = vga_buf[(VGA_ROWS - 2) * VGA_COLS];
    uint16_t moved79 = vga_buf[(VGA_ROWS - 2) * VGA_COLS + 79];
    uint16_t z = vga_buf[(VGA_ROWS - 1) * VGA_COLS];
    uint16_t after = vga_buf[(VGA_ROWS - 1) * VGA_COLS + 1];
    int row = vga_row, col = vga_col;
    restore_screen(r, c);
    local_irq_restore(flags);
    KT_EXPECT_EQ(top, ' ' | 0x0700);
    KT_EXPECT_EQ(moved0, 'A' | 0x0700);
    KT_EXPECT_EQ(moved79, ('A' + 79 % 26) | 0x0700);
    KT_EXPECT_EQ(z, 'z' | 0x0700);
    KT_EXPECT_EQ(after, ' ' | 0x0700);
    KT_EXPECT_EQ(row, VGA_ROWS - 1);
    KT_EXPECT_EQ(col, 1);
}

static void vga_puts(const char *s)
{
    vga_write_string(s, strlen(s));
}

/* The ANSI sequences a line editor and `clear` send: cursor moves, erase
 * to the end of the line, cursor position, clear screen; a colour is
 * dropped, not drawn. */
KTEST(console, vga_ansi_sequences)
{
    int r, c;
    unsigned long flags = local_irq_save();
    save_screen(&r, &c);
    vga_clear();
    vga_puts("abcdef\x1b[3D");                 /* cursor back to 'd' */
    int col_d = vga_col;
    vga_puts("\x1b[K" "X");                    /* erase "def", write X */
    uint16_t x3 = vga_buf[3], e4 = vga_buf[4], c2 = vga_buf[2];
    vga_puts("\x1b[3;5H" "\x1b[31m" "Y");      /* row 3 col 5 (1-based), red */
    uint16_t y = vga_buf[2 * VGA_COLS + 4], after_y = vga_buf[2 * VGA_COLS + 5];
    vga_puts("\x1b[A\x1b[2C");                 /* up one, right two */
    int row_up = vga_row, col_right = vga_col;
    vga_puts("\x1b[99;99H");                   /* clamped to the last cell */
    int row_max = vga_row, col_max = vga_col;
    vga_puts("\x1b[H\x1b[2J");                 /* what `clear` sends */
    uint16_t a0 = vga_buf[0], y_after = vga_buf[2 * VGA_COLS + 4];
    int row0 = vga_row, col0 = vga_col;
    restore_screen(r, c);
    local_irq_restore(flags);
    KT_EXPECT_EQ(col_d, 3);
    KT_EXPECT_EQ(c2, 'c' | 0x0700);
    KT_EXPECT_EQ(x3, 'X' | 0x0700);
    KT_EXPECT_EQ(e4, ' ' | 0x0700);
    KT_EXPECT_EQ(y, 'Y' | 0x0700);
    KT_EXPECT_EQ(after_y, ' ' | 0x0700);         /* "[31m" was not drawn */
    KT_EXPECT_EQ(row_up, 1);
    KT_EXPECT_EQ(col_right, 7);
    KT_EXPECT_EQ(row_max, VGA_ROWS - 1);
    KT_EXPECT_EQ(col_max, VGA_COLS - 1);
    KT_EXPECT_EQ(a0, ' ' | 0x0700);
    KT_EXPECT_EQ(y_after, ' ' | 0x0700);
    KT_EXPECT_EQ(row0, 0);
    KT_EXPECT_EQ(col0, 0);
}

KTEST(console, vga_registered_by_default)
{
    const char *which = cmdline_get("console");
    bool want_vga = !which || strcmp(which, "serial");
    KT_EXPECT_EQ(console_find("vga") != NULL, want_vga);
}

/* console=: each choice leaves exactly its consoles registered; an unknown
 * word means both.  No printk while serial is off (results to locals). */
KTEST(console, console_option_picks_consoles)
{
    int r, c;
    const char *boot = cmdline_get("console");
    unsigned long flags = local_irq_save();
    save_screen(&r, &c);
    const char *w1 = console_setup("serial");
    bool s1 = console_find("serial"), v1 = console_find("vga");
    const char *w2 = console_setup("vga");
    bool s2 = console_find("serial"), v2 = console_find("vga");
    const char *w3 = console_setup("both");
    bool s3 = console_find("serial"), v3 = console_find("vga");
    const char *w4 = console_setup("teletype");     /* warns (on both) */
    bool s4 = console_find("serial"), v4 = console_find("vga");
    /* Again: registering a console twice would make the list a loop
     * (this test would then hang, a FAIL), and one unregister would not
     * remove it. */
    const char *w5 = console_setup("both");
    bool none = console_find("nosuch") == NULL;
    unregister_console(console_find("vga"));
    bool gone = console_find("vga") == NULL;
    console_setup(boot);                            /* as the boot left it */
    restore_screen(r, c);
    local_irq_restore(flags);
    KT_EXPECT(!strcmp(w1, "serial") && s1 && !v1);
    KT_EXPECT(!strcmp(w2, "vga") && !s2 && v2);
    KT_EXPECT(!strcmp(w3, "both") && s3 && v3);
    KT_EXPECT(!strcmp(w4, "both") && s4 && v4);
    KT_EXPECT(!strcmp(w5, "both") && none && gone);
}
