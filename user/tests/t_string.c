/*
 * t_string.c - string.h, ctype.h and the number parsers of stdlib.h.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	char buf[64], *end;
	int arr[1000], sorted = 1;
	unsigned int seed = 12345;

	CHECK("string.strlen", strlen("hello") == 5 && strlen("") == 0);
	CHECK("string.strcmp", strcmp("abc", "abd") < 0 && strcmp("b", "a") > 0 &&
	      strcmp("same", "same") == 0 && strcmp("ab", "abc") < 0);
	CHECK("string.strcmp_unsigned", strcmp("\xff", "a") > 0);
	CHECK("string.strncmp", strncmp("abcX", "abcY", 3) == 0 && strncmp("a", "b", 1) < 0);
	strcpy(buf, "foo");
	strcat(buf, "bar");
	CHECK_STR("string.strcpy_strcat", buf, "foobar");
	CHECK("string.strchr", strchr(buf, 'b') == buf + 3 && strchr(buf, 'z') == NULL &&
	      strchr(buf, '\0') == buf + 6);
	CHECK("string.strrchr", strrchr("a/b/c", '/') != NULL && strcmp(strrchr("a/b/c", '/'), "/c") == 0);
	CHECK("string.strstr", strstr("hello world", "o w") != NULL && strstr("abc", "d") == NULL);
	CHECK("string.strspn_strcspn", strspn("aabbc", "ab") == 4 && strcspn("abc:d", ":") == 3);

	memset(buf, 'x', 10);
	buf[10] = '\0';
	CHECK_STR("string.memset", buf, "xxxxxxxxxx");
	strcpy(buf, "0123456789");
	memmove(buf + 2, buf, 5);
	CHECK_STR("string.memmove_forward_overlap", buf, "0101234789");
	strcpy(buf, "0123456789");
	memmove(buf, buf + 2, 5);
	CHECK_STR("string.memmove_backward_overlap", buf, "2345656789");
	CHECK("string.memcmp", memcmp("ab\0c", "ab\0d", 4) < 0 && memcmp("x", "x", 1) == 0);
	CHECK("string.memchr", memchr("abc", 'c', 3) != NULL && memchr("abc", 'c', 2) == NULL);

	strcpy(buf, "  one two,,three ");
	{
		char *a = strtok(buf, " ,"), *b = strtok(NULL, " ,"), *c = strtok(NULL, " ,");
		CHECK("string.strtok", a && b && c && strcmp(a, "one") == 0 &&
		      strcmp(b, "two") == 0 && strcmp(c, "three") == 0 && strtok(NULL, " ,") == NULL);
	}
	{
		char *d = strdup("copy me");
		CHECK("string.strdup", d && strcmp(d, "copy me") == 0);
		free(d);
	}

	CHECK("ctype.classes", isdigit('7') && !isdigit('a') && isalpha('Q') && isspace('\t') &&
	      !isspace('x') && isxdigit('F') && isupper('A') && islower('a') && isprint(' '));
	CHECK("ctype.case", toupper('a') == 'A' && tolower('Z') == 'z' && toupper('1') == '1');

	CHECK("stdlib.atoi", atoi("  -42xyz") == -42 && atoi("0") == 0);
	CHECK("stdlib.strtol_base10", strtol("12345", &end, 10) == 12345 && *end == '\0');
	CHECK("stdlib.strtol_hex_auto", strtol("0x1f", &end, 0) == 31 && *end == '\0');
	CHECK("stdlib.strtol_octal_auto", strtol("017", NULL, 0) == 15);
	CHECK("stdlib.strtol_end", strtol("99 bottles", &end, 10) == 99 && strcmp(end, " bottles") == 0);
	CHECK("stdlib.strtol_no_digits", strtol("xyz", &end, 10) == 0 && strcmp(end, "xyz") == 0);
	errno = 0;
	CHECK("stdlib.strtol_overflow", strtol("99999999999", NULL, 10) == LONG_MAX && errno == ERANGE);
	CHECK("stdlib.strtoul_max", strtoul("4294967295", NULL, 10) == 4294967295UL);
	CHECK("stdlib.strtoull", strtoull("18446744073709551615", NULL, 10) == ULLONG_MAX);
	CHECK("stdlib.strtol_base2", strtol("-1011", NULL, 2) == -11);

	for (int i = 0; i < 1000; i++) {
		seed = seed * 1103515245 + 12345;
		arr[i] = (int)(seed >> 8) % 1000;
	}
	qsort(arr, 1000, sizeof(int), cmp_int);
	for (int i = 1; i < 1000; i++)
		if (arr[i - 1] > arr[i])
			sorted = 0;
	CHECK("stdlib.qsort_1000", sorted);

	CHECK("stdlib.getenv_missing", getenv("VELLUM_SURELY_UNSET_VAR") == NULL);
	setenv("VELLUM_T", "v1", 1);
	CHECK("stdlib.setenv_getenv", getenv("VELLUM_T") && strcmp(getenv("VELLUM_T"), "v1") == 0);
	setenv("VELLUM_T", "v2", 0);
	CHECK("stdlib.setenv_no_overwrite", strcmp(getenv("VELLUM_T"), "v1") == 0);
	unsetenv("VELLUM_T");
	CHECK("stdlib.unsetenv", getenv("VELLUM_T") == NULL);
	return check_summary();
}
