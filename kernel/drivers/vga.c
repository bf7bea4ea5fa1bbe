/* kernel/drivers/vga.c: the VGA text-mode console, 80x25 cells at physical 0xB8000
 * (reached through the direct map), registered as a printk console.
 *
 * Each cell is a 16-bit word: character in the low byte, attribute (colour)
 * in the high byte.  Handles newline, carriage return, tab (to the next
 * multiple of 8), backspace (moves left; erasing is the tty's echo of
 * "\b \b"), line wrap and scrolling, and keeps the blinking hardware cursor
 * (CRT controller registers 0x0E/0x0F) on the next cell.
 *
 * It also obeys the few ANSI (ECMA-48) control sequences a line editor and
 * `clear` send, as Linux's VT console (drivers/tty/vt/vt.c) does, so the
 * VGA window shows what a terminal on the serial port shows:
 *
 *     ESC [ n A / B / C / D   cursor up / down / right / left n (default 1)
 *     ESC [ r ; c H  (or f)   cursor to row r, column c (1-based; default 1;1)
 *     ESC [ n J               erase: 0 cursor to end of screen, 1 start of
 *                             screen to cursor, 2 (or 3) the whole screen
 *     ESC [ n K               erase: 0 cursor to end of line, 1 start of line
 *                             to cursor, 2 the whole line
 *
 * Any other sequence (colours "ESC [ 31 m", "ESC [ ? 25 l", ESC then one
 * character) is read and dropped rather than drawn.  vga_putc() runs the
 * state machine (struct ansi below).
 *
 * console= on the command line picks the consoles: serial, vga, or both
 * (the default). */
#include <kernel.h>
#include <string.h>
#include <init.h>
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

/* Erase the cells [from, to) of the screen (indices row * VGA_COLS + col). */
static void vga_erase(int from, int to)
{
    for (int i = from; i < to; i++)
        vga_buf[i] = vga_cell(' ');
}

/* Where we are in an escape sequence: after ESC, or inside ESC [ with the
 * numbers read so far (two are all the sequences above use). */
static struct ansi {
    enum { ANSI_NONE, ANSI_ESC, ANSI_CSI } state;
    int param[2];
    int nparam;                        /* parameters started (0: none given) */
} ansi;

/* The parameter i, or def if it was not given (or given as 0). */
static int ansi_arg(int i, int def)
{
    return i < ansi.nparam && ansi.param[i] > 0 ? ansi.param[i] : def;
}

/* The final character of ESC [ ...: do what it says. */
static void ansi_csi(char final)
{
    int here = vga_row * VGA_COLS + vga_col;
    switch (final) {
    case 'A': vga_row -= ansi_arg(0, 1); break;
    case 'B': vga_row += ansi_arg(0, 1); break;
    case 'C': vga_col += ansi_arg(0, 1); break;
    case 'D': vga_col -= ansi_arg(0, 1); break;
    case 'H': case 'f':
        vga_row = ansi_arg(0, 1) - 1;
        vga_col = ansi_arg(1, 1) - 1;
        break;
    case 'J':
        if (ansi_arg(0, 0) == 0)
            vga_erase(here, VGA_ROWS * VGA_COLS);
        else if (ansi_arg(0, 0) == 1)
            vga_erase(0, here + 1);
        else
            vga_erase(0, VGA_ROWS * VGA_COLS);
        break;
    case 'K':
        if (ansi_arg(0, 0) == 0)
            vga_erase(here, (vga_row + 1) * VGA_COLS);
        else if (ansi_arg(0, 0) == 1)
            vga_erase(vga_row * VGA_COLS, here + 1);
        else
            vga_erase(vga_row * VGA_COLS, (vga_row + 1) * VGA_COLS);
        break;
    }
    /* the cursor stays on the screen, whatever the numbers said */
    vga_row = vga_row < 0 ? 0 : vga_row >= VGA_ROWS ? VGA_ROWS - 1 : vga_row;
    vga_col = vga_col < 0 ? 0 : vga_col >= VGA_COLS ? VGA_COLS - 1 : vga_col;
}

/* Feed one character to the escape-sequence reader.  Returns 1 if it was
 * part of a sequence (nothing to draw), 0 for an ordinary character. */
static int ansi_feed(char c)
{
    switch (ansi.state) {
    case ANSI_NONE:
        if (c != 0x1b)
            return 0;
        ansi.state = ANSI_ESC;
        return 1;
    case ANSI_ESC:                     /* ESC [ starts a sequence; ESC x is dropped */
        if (c == '[') {
            ansi.state = ANSI_CSI;
            ansi.nparam = 0;
            ansi.param[0] = ansi.param[1] = 0;
        } else {
            ansi.state = ANSI_NONE;
        }
        return 1;
    case ANSI_CSI:
        if (c >= '0' && c <= '9') {
            if (ansi.nparam == 0)
                ansi.nparam = 1;
            if (ansi.nparam <= 2 && ansi.param[ansi.nparam - 1] < 1000)
                ansi.param[ansi.nparam - 1] = ansi.param[ansi.nparam - 1] * 10 + (c - '0');
        } else if (c == ';') {
            ansi.nparam = ansi.nparam ? ansi.nparam + 1 : 2;   /* ";5" is "0;5" */
        } else if (c >= 0x40 && c <= 0x7e) {                  /* the final byte */
            ansi.state = ANSI_NONE;
            ansi_csi(c);
        }                              /* '?' and other middle bytes: skipped */
        return 1;
    }
    return 0;
}

static void vga_putc(char c)
{
    if (ansi_feed(c))
        return;
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
    vga_erase(0, VGA_ROWS * VGA_COLS);
    vga_row = vga_col = 0;
    ansi.state = ANSI_NONE;
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
