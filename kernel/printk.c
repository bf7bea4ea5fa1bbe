/* kernel/printk.c: formatted output.  vsnprintf (the formatter), the log
 * ring that dmesg reads, log levels, and the console list printk writes to.
 *
 * Levels: a format may begin with "<N>" (KERN_ERR etc.); messages whose level
 * is >= console_loglevel are kept in the ring but not shown.  Default level of
 * a message without a prefix is 4 (warning), as Linux's default_message_loglevel. */
#include <kernel.h>
#include <string.h>
#include <console.h>
#include <asm/irqflags.h>
#include <asm/spinlock.h>
#include <asm/io.h>
#include <smp.h>

int console_loglevel = 7;              /* show everything but debug */
volatile unsigned long printk_count;   /* messages so far (the hung_task watchdog) */
static struct console *consoles;

/* ---- the formatter -------------------------------------------------- */

struct outbuf { char *buf; size_t size, len; };

static void out(struct outbuf *o, char c)
{
    if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

static void out_num(struct outbuf *o, unsigned long long v, unsigned base, bool upper,
                    bool neg, int width, char pad, bool left)
{
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = digits[v % base];
        v /= base;
    } while (v);
    int len = n + neg;
    if (neg && pad == '0')
        out(o, '-');
    if (!left)
        for (; width > len; width--)
            out(o, pad);
    if (neg && pad != '0')
        out(o, '-');
    while (n)
        out(o, tmp[--n]);
    if (left)
        for (; width > len; width--)
            out(o, ' ');
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
    struct outbuf o = { buf, size, 0 };
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            out(&o, *fmt);
            continue;
        }
        bool left = false, alt = false;
        char pad = ' ';
        int width = 0, prec = -1, lng = 0;
        for (;; fmt++) {
            if (fmt[1] == '-') left = true;
            else if (fmt[1] == '0') pad = '0';
            else if (fmt[1] == '#') alt = true;
            else break;
        }
        fmt++;
        if (*fmt == '*') { width = va_arg(ap, int); fmt++; }
        while (*fmt >= '0' && *fmt <= '9')
            width = width * 10 + (*fmt++ - '0');
        if (*fmt == '.') {
            fmt++;
            prec = 0;
            if (*fmt == '*') { prec = va_arg(ap, int); fmt++; }
            while (*fmt >= '0' && *fmt <= '9')
                prec = prec * 10 + (*fmt++ - '0');
        }
        while (*fmt == 'l') { lng++; fmt++; }
        if (*fmt == 'z' || *fmt == 'h') fmt++;   /* size_t is long-sized here */
        unsigned long long u;
        long long s;
        switch (*fmt) {
        case 'd': case 'i':
            s = lng >= 2 ? va_arg(ap, long long) : lng ? va_arg(ap, long) : va_arg(ap, int);
            out_num(&o, s < 0 ? -(unsigned long long)s : (unsigned long long)s, 10,
                    false, s < 0, width, pad, left);
            break;
        case 'u': case 'x': case 'X': case 'o':
            u = lng >= 2 ? va_arg(ap, unsigned long long)
                : lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
            if (alt && *fmt != 'u') { out(&o, '0'); if (*fmt != 'o') out(&o, 'x'); }
            out_num(&o, u, *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16, *fmt == 'X',
                    false, width, pad, left);
            break;
        case 'p':
            if (fmt[1] == 'V') {       /* %pV: a struct va_format's message */
                fmt++;
                const struct va_format *vaf = va_arg(ap, const struct va_format *);
                va_list args;
                va_copy(args, *vaf->va);
                size_t at = o.len < size ? o.len : size;
                o.len += vsnprintf(buf + at, size - at, vaf->fmt, args);
                va_end(args);
                break;
            }
            out(&o, '0'); out(&o, 'x');
            out_num(&o, (unsigned long)va_arg(ap, void *), 16, false, false, 8, '0', false);
            break;
        case 'c':
            out(&o, (char)va_arg(ap, int));
            break;
        case 's': {
            const char *str = va_arg(ap, const char *);
            if (!str)
                str = "(null)";
            int len = prec >= 0 ? (int)strnlen(str, prec) : (int)strlen(str);
            if (!left) for (; width > len; width--) out(&o, ' ');
            for (int i = 0; i < len; i++) out(&o, str[i]);
            if (left) for (; width > len; width--) out(&o, ' ');
            break;
        }
        case '%':
            out(&o, '%');
            break;
        default:                       /* unknown: print it as it was */
            out(&o, '%');
            if (*fmt) out(&o, *fmt); else fmt--;
            break;
        }
    }
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n;
}

/* ---- the log ring (dmesg) and consoles ------------------------------- */

#define LOG_SIZE 16384
/* One lock for the ring and the consoles, logbuf_lock (Linux's name),
 * taken with interrupts off: any CPU may print, with or without the big
 * kernel lock (the scheduler's core, an AP coming up, an IPI's WARN).  A
 * raw ticket lock that the validator does not watch: the validator prints
 * through here.  Two ways out of a wait that would never end: this CPU
 * already holds it (a printk from inside a console's write, an oops in
 * one): go on without it; its holder is offline (smp_send_stop halted it
 * for a panic while it printed): take it over (Linux's zap_locks). */
static arch_spinlock_t logbuf_lock = __ARCH_SPIN_LOCK_UNLOCKED;
static volatile int logbuf_owner = -1;

static bool logbuf_lock_take(void)
{
    int me = smp_processor_id();
    if (logbuf_owner == me)
        return false;
    while (!arch_spin_trylock(&logbuf_lock)) {
        int owner = logbuf_owner;
        if (owner >= 0 && !cpu_online(owner)) {
            logbuf_lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
            continue;
        }
        cpu_relax();
    }
    logbuf_owner = me;
    return true;
}

static void logbuf_lock_give(void)
{
    logbuf_owner = -1;
    arch_spin_unlock(&logbuf_lock);
}

static char log_buf[LOG_SIZE];
static size_t log_head;                /* total bytes ever logged */

static void log_store(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        log_buf[(log_head + i) % LOG_SIZE] = s[i];
    log_head += n;
}

size_t log_read(char *buf, size_t size)
{
    unsigned long flags = local_irq_save();
    bool locked = logbuf_lock_take();
    size_t avail = log_head < LOG_SIZE ? log_head : LOG_SIZE;
    size_t start = log_head - avail, n = avail < size ? avail : size;
    for (size_t i = 0; i < n; i++)
        buf[i] = log_buf[(start + i) % LOG_SIZE];
    if (locked)
        logbuf_lock_give();
    local_irq_restore(flags);
    return n;
}

void register_console(struct console *con)
{
    con->next = consoles;
    consoles = con;
}

void unregister_console(struct console *con)
{
    unsigned long flags = local_irq_save();
    for (struct console **pp = &consoles; *pp; pp = &(*pp)->next)
        if (*pp == con) {
            *pp = con->next;
            con->next = NULL;
            break;
        }
    local_irq_restore(flags);
}

struct console *console_find(const char *name)
{
    for (struct console *c = consoles; c; c = c->next)
        if (!strcmp(c->name, name))
            return c;
    return NULL;
}

void console_write(const char *s, size_t n)
{
    for (struct console *c = consoles; c; c = c->next)
        c->write(c, s, n);
}

int vprintk(const char *fmt, va_list ap)
{
    char buf[512];
    int level = 4;
    if (fmt[0] == '<' && fmt[1] >= '0' && fmt[1] <= '7' && fmt[2] == '>') {
        level = fmt[1] - '0';
        fmt += 3;
    }
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    if (n >= (int)sizeof buf)
        n = sizeof buf - 1;
    unsigned long flags = local_irq_save();
    bool locked = logbuf_lock_take();
    log_store(buf, n);
    printk_count++;
    if (level < console_loglevel)
        console_write(buf, n);
    if (locked)
        logbuf_lock_give();
    local_irq_restore(flags);
    return n;
}

int printk(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vprintk(fmt, ap);
    va_end(ap);
    return n;
}
