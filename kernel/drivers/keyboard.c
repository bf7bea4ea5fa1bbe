/* kernel/drivers/keyboard.c: the PS/2 keyboard on IRQ 1 (device layer).
 *
 * The i8042 controller hands us one byte per interrupt at port 0x60, in
 * scan code set 1 (the controller translates the keyboard's set 2 by
 * default): a make code when a key goes down, the same code | 0x80 when it
 * comes up, and an 0xE0 prefix for the extra keys (arrows, right Ctrl...).
 * kbd_translate() turns that stream into what a terminal would send, and
 * the interrupt handler passes it to console_input().
 *
 * Keys: letters, digits, punctuation with Shift; Caps Lock (letters only);
 * Ctrl+letter gives the control character (^C = 3); Enter sends '\r' and
 * Backspace 0x7f (DEL), as a terminal does (the tty maps them later: ICRNL,
 * VERASE); arrows send ESC [ A/B/C/D, Home ESC [ H, End ESC [ F and Delete
 * ESC [ 3 ~ (what xterm sends; the shell's line editor reads them).  Alt,
 * function keys, Insert, Page Up/Down, keypad: ignored
 * (simplification: US layout only, no keymaps, no LEDs). */
#include <kernel.h>
#include <string.h>
#include <init.h>
#include <irq.h>
#include <console.h>
#include <timer.h>
#include <asm/io.h>
#include <asm/irqflags.h>

#define KBD_DATA   0x60
#define KBD_STATUS 0x64
#define KBD_STAT_OBF 0x01              /* output buffer full: a byte to read */
#define KBD_STAT_IBF 0x02              /* input buffer full: controller busy */

#define SC_LCTRL   0x1D
#define SC_LSHIFT  0x2A
#define SC_RSHIFT  0x36
#define SC_LALT    0x38
#define SC_CAPS    0x3A

struct kbd_state {
    bool shift_l, shift_r, ctrl, alt, caps, e0;
};

/* Scan code set 1, make codes 0x00-0x39: unshifted and shifted. */
static const char keymap[0x3A] = {
    0, 27, '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=', 0x7f, '\t',
    'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']', '\r', 0, 'a', 's',
    'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`', 0, '\\', 'z', 'x', 'c', 'v',
    'b', 'n', 'm', ',', '.', '/', 0, '*', 0, ' ',
};
static const char keymap_shift[0x3A] = {
    0, 27, '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+', 0x7f, '\t',
    'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}', '\r', 0, 'A', 'S',
    'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~', 0, '|', 'Z', 'X', 'C', 'V',
    'B', 'N', 'M', '<', '>', '?', 0, '*', 0, ' ',
};

/* Feed one scan-code byte; the characters it produces (0-4) go to out[].
 * Returns how many. */
static int kbd_translate(struct kbd_state *st, uint8_t sc, char out[4])
{
    if (sc == 0xE0) {
        st->e0 = true;
        return 0;
    }
    bool release = sc & 0x80, ext = st->e0;
    uint8_t code = sc & 0x7F;
    st->e0 = false;

    if (ext) {
        if (code == SC_LCTRL)          /* right Ctrl */
            st->ctrl = !release;
        else if (code == SC_LALT)      /* right Alt (AltGr) */
            st->alt = !release;
        if (release)
            return 0;
        switch (code) {
        case 0x48: memcpy(out, "\x1b[A", 3); return 3;   /* up */
        case 0x50: memcpy(out, "\x1b[B", 3); return 3;   /* down */
        case 0x4D: memcpy(out, "\x1b[C", 3); return 3;   /* right */
        case 0x4B: memcpy(out, "\x1b[D", 3); return 3;   /* left */
        case 0x47: memcpy(out, "\x1b[H", 3); return 3;   /* Home */
        case 0x4F: memcpy(out, "\x1b[F", 3); return 3;   /* End */
        case 0x53: memcpy(out, "\x1b[3~", 4); return 4;  /* Delete */
        case 0x1C: out[0] = '\r'; return 1;              /* keypad Enter */
        case 0x35: out[0] = '/'; return 1;               /* keypad / */
        }
        return 0;                      /* fake shifts (E0 2A), Page Up, ...: ignored */
    }
    switch (code) {
    case SC_LSHIFT: st->shift_l = !release; return 0;
    case SC_RSHIFT: st->shift_r = !release; return 0;
    case SC_LCTRL:  st->ctrl = !release;    return 0;
    case SC_LALT:   st->alt = !release;     return 0;
    case SC_CAPS:
        if (!release)
            st->caps = !st->caps;
        return 0;
    }
    if (release || code >= sizeof keymap || !keymap[code])
        return 0;
    bool shift = st->shift_l || st->shift_r;
    char c = shift ? keymap_shift[code] : keymap[code];
    if (st->caps && keymap[code] >= 'a' && keymap[code] <= 'z')
        c = shift ? keymap[code] : keymap_shift[code];
    if (st->ctrl) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
            c &= 0x1F;                 /* ^A = 1 ... ^Z = 26 */
        else if (c == ' ' || c == '@')
            c = 0;
        else if (c == '[' || c == '\\' || c == ']')
            c = c & 0x1F;              /* ESC, FS, GS */
    }
    out[0] = c;
    return 1;
}

static struct kbd_state kbd;
static unsigned long kbd_bytes;              /* scan-code bytes received */

static void kbd_interrupt(struct pt_regs *regs, void *data)
{
    char out[4];
    while (inb(KBD_STATUS) & KBD_STAT_OBF) {
        uint8_t sc = inb(KBD_DATA);
        kbd_bytes++;
        int n = kbd_translate(&kbd, sc, out);
        for (int i = 0; i < n; i++)
            console_input(out[i]);
    }
}

static void keyboard_init(void)
{
    for (int i = 0; i < 32 && (inb(KBD_STATUS) & KBD_STAT_OBF); i++)
        inb(KBD_DATA);                 /* stale bytes from the BIOS */
    if (request_irq(1, kbd_interrupt, NULL))
        printk(KERN_ERR "keyboard: cannot get IRQ 1\n");
    else
        printk(KERN_INFO "keyboard: PS/2 on IRQ 1\n");
}
device_initcall(keyboard_init);
