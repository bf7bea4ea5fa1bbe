/*
 * t_printf.c - snprintf's conversions, flags, widths, precisions and
 * lengths, against the strings C99 (and glibc) produce.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include "check.h"

static char buf[256];
static const char *volatile null_string;   /* NULL, hidden from gcc's checks */

/* snprintf without the compilers' format checks, for arguments they
 * would (rightly, in normal code) object to. */
static void unchecked(char *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, 256, fmt, ap);
	va_end(ap);
}

#define FMT(name, want, ...) do {                         \
	snprintf(buf, sizeof(buf), __VA_ARGS__);          \
	CHECK_STR("printf." name, buf, want);             \
} while (0)

int main(void)
{
	int n;
	char small[8];

	FMT("d", "42", "%d", 42);
	FMT("d_negative", "-42", "%d", -42);
	FMT("i", "7", "%i", 7);
	FMT("d_int_min", "-2147483648", "%d", INT_MIN);
	FMT("u", "4294967295", "%u", 4294967295u);
	FMT("x", "deadbeef", "%x", 0xdeadbeefu);
	FMT("X", "DEADBEEF", "%X", 0xdeadbeefu);
	FMT("o", "755", "%o", 0755);
	FMT("c", "A", "%c", 'A');
	FMT("s", "hello", "%s", "hello");
	FMT("s_null", "(null)", "%s", null_string);
	FMT("percent", "100%", "%d%%", 100);
	FMT("p", "0x1234", "%p", (void *)0x1234);
	FMT("width", "   42", "%5d", 42);
	FMT("width_left", "42   |", "%-5d|", 42);
	FMT("zero_pad", "00042", "%05d", 42);
	FMT("zero_pad_negative", "-0042", "%05d", -42);
	FMT("precision_int", "00042", "%.5d", 42);
	FMT("precision_zero_value", "", "%.0d", 0);
	FMT("width_and_precision", "  007", "%5.3d", 7);
	FMT("precision_string", "hel", "%.3s", "hello");
	FMT("width_string", "   hi", "%5s", "hi");
	FMT("width_string_left", "hi   |", "%-5s|", "hi");
	FMT("star_width", "    9", "%*d", 5, 9);
	FMT("star_precision", "ab", "%.*s", 2, "abc");
	FMT("plus", "+5", "%+d", 5);
	FMT("space", " 5", "% d", 5);
	FMT("alt_hex", "0xff", "%#x", 255);
	FMT("alt_octal", "010", "%#o", 8);
	FMT("l", "-123456789", "%ld", -123456789L);
	FMT("lu", "4000000000", "%lu", 4000000000UL);
	FMT("ll", "1099511627776", "%lld", 1LL << 40);
	FMT("ll_min", "-9223372036854775808", "%lld", LLONG_MIN);
	FMT("llu_max", "18446744073709551615", "%llu", ULLONG_MAX);
	FMT("llx", "123456789abcdef0", "%llx", 0x123456789abcdef0ULL);
	/* hh and h convert an int argument to char / short. */
	unchecked(buf, "%hhd", 255);
	CHECK_STR("printf.hh", buf, "-1");
	unchecked(buf, "%hu", 0xffffffffu);
	CHECK_STR("printf.h", buf, "65535");
	FMT("zu", "12", "%zu", (size_t)12);
	FMT("mixed", "[a|  1|0x10|x ]", "[%s|%3d|%#x|%-2c]", "a", 1, 16, 'x');

	/* Truncation: the result is cut, NUL-terminated, the count is full. */
	n = snprintf(small, sizeof(small), "%s", "0123456789");
	CHECK_STR("printf.truncate_text", small, "0123456");
	CHECK("printf.truncate_count", n == 10);
	n = snprintf(NULL, 0, "%d", 12345);
	CHECK("printf.count_only", n == 5);

	/* printf to stdout returns the number of characters. */
	n = printf("%s", "");
	CHECK("printf.return_empty", n == 0);
	return check_summary();
}
