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
