/*
 * printf.c - formatted output: one formatter, many destinations.
 *
 * format() walks the format string and sends each character to a sink:
 * either a FILE (printf, fprintf) or a bounded buffer (snprintf). The
 * count it returns is the full length, even when a buffer truncated it,
 * as C99 requires.
 *
 * Supported: %d %i %u %x %X %o %c %s %p %%, flags '-' '0' '+' ' ' '#',
 * a width and a precision (numbers or '*'), length modifiers hh h l ll z.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * For a FILE, characters collect in a small local chunk (buf) that is
 * passed to fwrite whenever it fills: an unbuffered stderr then still gets
 * one write() per message rather than one per character.
 */
struct sink {
	FILE  *file;     /* if set, characters go to this stream ... */
	char  *buf;      /* ... else into buf, at most size-1 of them */
	size_t size;
	size_t len;      /* characters produced so far (maybe not all stored) */
	size_t used;     /* FILE sinks: characters waiting in buf */
};

static void sink_flush(struct sink *s)
{
	if (s->file && s->used) {
		fwrite(s->buf, 1, s->used, s->file);
		s->used = 0;
	}
}

static void emit(struct sink *s, char c)
{
	if (s->file) {
		s->buf[s->used++] = c;
		if (s->used == s->size)
			sink_flush(s);
	} else if (s->len + 1 < s->size) {
		s->buf[s->len] = c;
	}
	s->len++;
}

static void emit_n(struct sink *s, char c, int n)
{
	while (n-- > 0)
		emit(s, c);
}

struct spec {
	int left;        /* '-': pad on the right */
	int zero;        /* '0': pad with zeros */
	int plus;        /* '+': always a sign */
	int space;       /* ' ': a space where '+' would go */
	int alt;         /* '#': 0x / leading 0 */
	int width;
	int prec;        /* -1 if none */
};

/* Print one integer: value v (magnitude), negative flag, base, case. */
static void format_number(struct sink *s, const struct spec *sp,
			  unsigned long long v, int neg, int base, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];   /* 2^64 in octal is 22 digits */
	int n = 0, zeros = 0, pad;
	const char *prefix = "";

	/* Digits, least significant first. Precision 0 and value 0: none. */
	while (v) {
		tmp[n++] = digits[v % base];
		v /= base;
	}
	if (n == 0 && sp->prec != 0)
		tmp[n++] = '0';

	if (neg)
		prefix = "-";
	else if (sp->plus)
		prefix = "+";
	else if (sp->space)
		prefix = " ";
	if (sp->alt && base == 16 && n && !(n == 1 && tmp[0] == '0'))
		prefix = upper ? "0X" : "0x";
	if (sp->alt && base == 8 && tmp[n - 1] != '0')
		zeros = 1;

	if (sp->prec > n)
		zeros = sp->prec - n;
	pad = sp->width - (int)strlen(prefix) - zeros - n;

	/* The '0' flag pads with zeros between sign and digits, unless a
	 * precision was given or we left-justify. */
	if (sp->zero && !sp->left && sp->prec < 0) {
		zeros += pad > 0 ? pad : 0;
		pad = 0;
	}
	if (!sp->left)
		emit_n(s, ' ', pad);
	for (const char *p = prefix; *p; p++)
		emit(s, *p);
	emit_n(s, '0', zeros);
	while (n)
		emit(s, tmp[--n]);
	if (sp->left)
		emit_n(s, ' ', pad);
}

static void format_string(struct sink *s, const struct spec *sp, const char *str)
{
	int len;

	if (!str)
		str = "(null)";
	len = sp->prec >= 0 ? (int)strnlen(str, sp->prec) : (int)strlen(str);
	if (!sp->left)
		emit_n(s, ' ', sp->width - len);
	for (int i = 0; i < len; i++)
		emit(s, str[i]);
	if (sp->left)
		emit_n(s, ' ', sp->width - len);
}

static int format(struct sink *s, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		struct spec sp = { 0, 0, 0, 0, 0, 0, -1 };
		int lng = 0;        /* number of 'l's; -1 for h, -2 for hh */
		unsigned long long u;
		long long d;

		if (*fmt != '%') {
			emit(s, *fmt);
			continue;
		}
		fmt++;

		/* Flags. */
		for (;; fmt++) {
			if (*fmt == '-') sp.left = 1;
			else if (*fmt == '0') sp.zero = 1;
			else if (*fmt == '+') sp.plus = 1;
			else if (*fmt == ' ') sp.space = 1;
			else if (*fmt == '#') sp.alt = 1;
			else break;
		}
		/* Width. */
		if (*fmt == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = 1;
				sp.width = -sp.width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				sp.width = sp.width * 10 + (*fmt++ - '0');
		}
		/* Precision. */
		if (*fmt == '.') {
			fmt++;
			sp.prec = 0;
			if (*fmt == '*') {
				sp.prec = va_arg(ap, int);
				if (sp.prec < 0)
					sp.prec = -1;
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					sp.prec = sp.prec * 10 + (*fmt++ - '0');
			}
		}
		/* Length. */
		for (;; fmt++) {
			if (*fmt == 'l') lng++;
			else if (*fmt == 'h') lng = lng < 0 ? -2 : -1;
			else if (*fmt == 'z') lng = 1;   /* size_t is long-sized */
			else break;
		}

		switch (*fmt) {
		case 'd':
		case 'i':
			if (lng >= 2)
				d = va_arg(ap, long long);
			else if (lng == 1)
				d = va_arg(ap, long);
			else
				d = va_arg(ap, int);
			if (lng == -1)
				d = (short)d;
			else if (lng == -2)
				d = (signed char)d;
			u = d < 0 ? -(unsigned long long)d : (unsigned long long)d;
			format_number(s, &sp, u, d < 0, 10, 0);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (lng >= 2)
				u = va_arg(ap, unsigned long long);
			else if (lng == 1)
				u = va_arg(ap, unsigned long);
			else
				u = va_arg(ap, unsigned int);
			if (lng == -1)
				u = (unsigned short)u;
			else if (lng == -2)
				u = (unsigned char)u;
			format_number(s, &sp, u, 0,
				      *fmt == 'o' ? 8 : *fmt == 'u' ? 10 : 16, *fmt == 'X');
			break;
		case 'p':
			sp.alt = 1;
			format_number(s, &sp, (unsigned long)va_arg(ap, void *), 0, 16, 0);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			if (!sp.left)
				emit_n(s, ' ', sp.width - 1);
			emit(s, c);
			if (sp.left)
				emit_n(s, ' ', sp.width - 1);
			break;
		}
		case 's':
			format_string(s, &sp, va_arg(ap, const char *));
			break;
		case '%':
			emit(s, '%');
			break;
		case '\0':
			fmt--;          /* a lone '%' at the end: stop */
			break;
		default:
			/* Unknown conversion: print it as written. */
			emit(s, '%');
			emit(s, *fmt);
			break;
		}
	}
	return (int)s->len;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink s = { NULL, buf, size, 0, 0 };
	int n = format(&s, fmt, ap);

	if (size)
		buf[s.len < size ? s.len : size - 1] = '\0';
	return n;
}

/*
 * Each variadic printf below is its v-twin called with its own arguments:
 * va_call(last, call) runs call with ap = the arguments after last.
 */
#define va_call(last, call) ({					\
	va_list ap;						\
	va_start(ap, last);					\
	int n_ = call;						\
	va_end(ap);						\
	n_; })

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	return va_call(fmt, vsnprintf(buf, size, fmt, ap));
}

int sprintf(char *buf, const char *fmt, ...)
{
	return va_call(fmt, vsnprintf(buf, 0x7fffffff, fmt, ap));
}

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	char chunk[256];
	struct sink s = { f, chunk, sizeof(chunk), 0, 0 };
	int n = format(&s, fmt, ap);

	sink_flush(&s);
	return n;
}

int fprintf(FILE *f, const char *fmt, ...)
{
	return va_call(fmt, vfprintf(f, fmt, ap));
}

int vprintf(const char *fmt, va_list ap)
{
	return vfprintf(stdout, fmt, ap);
}

int printf(const char *fmt, ...)
{
	return va_call(fmt, vfprintf(stdout, fmt, ap));
}

/* dprintf formats into a stack buffer and writes it with one call. */
int dprintf(int fd, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	write(fd, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
	return n;
}
