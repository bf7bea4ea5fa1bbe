/* kernel/drivers/vga.c: the VGA text-mode console, 80x25 cells at physical 0xB8000
 * (reached through the direct map), registered as a printk console.
 *
 * Each cell is a 16-bit word: character in the low byte, attribute (colour)
 * in the high byte.  Handles newline, carriage return, tab (to the next
 * multiple of 8), backspace (moves left; erasing is the tty's echo of
 * "\b \b"), line wrap and scrolling, and keeps the blinking hardware cursor
 * (CRT controller registers 0x0E/0x0F) on the next cell.
 *
 * console= on the command line picks the consoles: serial, vga, or both
 * (the default). */
#include <kernel.h>
#include <string.h>
#include <init.h>
#include <ktest.h>
#include <cmdline.h>
#include <console.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/layout.h>

#define VGA_COLS 80
#define VGA_ROWS 25
#define VGA_ATTR 0x07                  /* light grey on black */
#define CRTC_INDEX 0x3D4
#define CRTC_DATA  0x3D5

static volatile uint16_t *const vga_buf = phys_to_virt(0xB8000);
static int vga_row, vga_col;

static inline uint16_t vga_cell(char c)
{
    return (uint16_t)(unsigned char)c | VGA_ATTR << 8;
}

static void vga_update_cursor(void)
{
    unsigned pos = vga_row * VGA_COLS + vga_col;
    outb(CRTC_INDEX, 0x0F);
    outb(CRTC_DATA, pos & 0xFF);
    outb(CRTC_INDEX, 0x0E);
    outb(CRTC_DATA, pos >> 8);
}

static void vga_scroll(void)
{
    for (int i = 0; i < (VGA_ROWS - 1) * VGA_COLS; i++)
        vga_buf[i] = vga_buf[i + VGA_COLS];
    for (int i = (VGA_ROWS - 1) * VGA_COLS; i < VGA_ROWS * VGA_COLS; i++)
        vga_buf[i] = vga_cell(' ');
    vga_row = VGA_ROWS - 1;
}

static void vga_putc(char c)
{
    switch (c) {
    case '\n':
        vga_col = 0;
        vga_row++;
        break;
    case '\r':
        vga_col = 0;
        break;
    case '\t':
        vga_col = (vga_col + 8) & ~7;
        break;
    case '\b':
        if (vga_col > 0)
            vga_col--;
        break;
    default:
        vga_buf[vga_row * VGA_COLS + vga_col] = vga_cell(c);
        vga_col++;
    }
    if (vga_col >= VGA_COLS) {
        vga_col = 0;
        vga_row++;
    }
    if (vga_row >= VGA_ROWS)
        vga_scroll();
}

void vga_write_string(const char *s, size_t n)
{
    unsigned long flags = local_irq_save();
    for (size_t i = 0; i < n; i++)
        vga_putc(s[i]);
    vga_update_cursor();
    local_irq_restore(flags);
}

static void vga_console_write(struct console *con, const char *s, size_t n)
{
    vga_write_string(s, n);
}

static struct console vga_console = { .name = "vga", .write = vga_console_write };

static void vga_clear(void)
{
    for (int i = 0; i < VGA_ROWS * VGA_COLS; i++)
        vga_buf[i] = vga_cell(' ');
    vga_row = vga_col = 0;
    vga_update_cursor();
}

/* Make the registered consoles match which: "serial", "vga" or "both"
 * (NULL or "": both; anything else: both, with a warning).  Returns the
 * choice applied.  Idempotent, so a test can switch back and forth: a
 * console already registered is not registered again. */
static const char *console_setup(const char *which)
{
    static struct console *serial;     /* kept so that "vga" can be undone */
    if (!serial)
        serial = console_find("serial");
    if (!which || !*which)
        which = "both";
    if (strcmp(which, "serial") && strcmp(which, "vga") && strcmp(which, "both")) {
        printk(KERN_WARNING "console=%s unknown (serial, vga, both): using both\n", which);
        which = "both";
    }
    bool want_vga = strcmp(which, "serial") != 0, want_serial = strcmp(which, "vga") != 0;
    if (want_vga && !console_find("vga")) {
        vga_clear();
        register_console(&vga_console);
    } else if (!want_vga && console_find("vga")) {
        unregister_console(&vga_console);
    }
    if (serial && want_serial && !console_find("serial"))
        register_console(serial);
    else if (serial && !want_serial && console_find("serial"))
        unregister_console(serial);
    return which;
}

void vga_init(void)
{
    printk(KERN_INFO "console: %s\n", console_setup(cmdline_get("console")));
}
arch_initcall(vga_init);

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
    KEXPECT_EQ(a0, 'a' | 0x0700);
    KEXPECT_EQ(b1, 'b' | 0x0700);
    KEXPECT_EQ(blank, ' ' | 0x0700);
    KEXPECT_EQ(d8, 'd' | 0x0700);      /* tab to 8, 'c', backspace, 'd' over it */
    KEXPECT_EQ(x, 'x' | 0x0700);
    KEXPECT_EQ(y, 'y' | 0x0700);
    KEXPECT_EQ(row, 1);
    KEXPECT_EQ(col, 2);
    KEXPECT_EQ(cur, 82);
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
    KEXPECT_EQ(top, ' ' | 0x0700);
    KEXPECT_EQ(moved0, 'A' | 0x0700);
    KEXPECT_EQ(moved79, ('A' + 79 % 26) | 0x0700);
    KEXPECT_EQ(z, 'z' | 0x0700);
    KEXPECT_EQ(after, ' ' | 0x0700);
    KEXPECT_EQ(row, VGA_ROWS - 1);
    KEXPECT_EQ(col, 1);
}

KTEST(console, vga_registered_by_default)
{
    const char *which = cmdline_get("console");
    bool want_vga = !which || strcmp(which, "serial");
    KEXPECT_EQ(console_find("vga") != NULL, want_vga);
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
    KEXPECT(!strcmp(w1, "serial") && s1 && !v1);
    KEXPECT(!strcmp(w2, "vga") && !s2 && v2);
    KEXPECT(!strcmp(w3, "both") && s3 && v3);
    KEXPECT(!strcmp(w4, "both") && s4 && v4);
    KEXPECT(!strcmp(w5, "both") && none && gone);
}
