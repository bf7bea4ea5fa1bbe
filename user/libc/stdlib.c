/*
 * stdlib.c - number parsing, the environment, exit/atexit and qsort.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The core of strtol & co: skip spaces, take a sign, detect the base
 * ("0x" -> 16, "0" -> 8, else 10 when base is 0), accumulate digits.
 * *neg says whether a '-' was seen; the caller applies it and clamps.
 */
static unsigned long long parse_digits(const char *s, char **end, int base,
				       int *neg, int *overflow)
{
	const char *p = s;
	unsigned long long v = 0;
	int any = 0;

	*neg = 0;
	*overflow = 0;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		*neg = (*p++ == '-');
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    isxdigit((unsigned char)p[2])) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = (p[0] == '0') ? 8 : 10;
	}
	for (;; p++) {
		int d;

		if (isdigit((unsigned char)*p))
			d = *p - '0';
		else if (isalpha((unsigned char)*p))
			d = tolower((unsigned char)*p) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (v > (ULLONG_MAX - d) / base)
			*overflow = 1;
		v = v * base + d;
		any = 1;
	}
	if (end)
		*end = (char *)(any ? p : s);
	return v;
}

long long strtoll(const char *s, char **end, int base)
{
	int neg, ovf;
	unsigned long long v = parse_digits(s, end, base, &neg, &ovf);

	if (ovf || v > (unsigned long long)LLONG_MAX + neg) {
		errno = ERANGE;
		return neg ? LLONG_MIN : LLONG_MAX;
	}
	return neg ? -(long long)v : (long long)v;
}

unsigned long long strtoull(const char *s, char **end, int base)
{
	int neg, ovf;
	unsigned long long v = parse_digits(s, end, base, &neg, &ovf);

	if (ovf) {
		errno = ERANGE;
		return ULLONG_MAX;
	}
	return neg ? -v : v;
}

long strtol(const char *s, char **end, int base)
{
	long long v = strtoll(s, end, base);

	if (v > LONG_MAX) {
		errno = ERANGE;
		return LONG_MAX;
	}
	if (v < LONG_MIN) {
		errno = ERANGE;
		return LONG_MIN;
	}
	return (long)v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	int neg, ovf;
	unsigned long long v = parse_digits(s, end, base, &neg, &ovf);

	if (ovf || v > ULONG_MAX) {
		errno = ERANGE;
		return ULONG_MAX;
	}
	return neg ? -(unsigned long)v : (unsigned long)v;
}

int atoi(const char *s)
{
	return (int)strtol(s, NULL, 10);
}

long atol(const char *s)
{
	return strtol(s, NULL, 10);
}

int abs(int x)
{
	return x < 0 ? -x : x;
}

long labs(long x)
{
	return x < 0 ? -x : x;
}

/* ---- environment: environ is an array of "NAME=value" strings --------- */

static char **env_find(const char *name)
{
	size_t n = strlen(name);

	if (!environ)
		return NULL;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return e;
	return NULL;
}

char *getenv(const char *name)
{
	char **e = env_find(name);

	return e ? *e + strlen(name) + 1 : NULL;
}

/*
 * setenv builds a new "NAME=value" string. The first time, it also copies
 * environ into a malloc'ed array so it can grow; strings replaced later
 * are leaked on purpose (they may live on the initial stack).
 */
static int env_owned;

int setenv(const char *name, const char *value, int overwrite)
{
	char **e, *s;
	size_t n;

	if (!name || !*name || strchr(name, '=')) {
		errno = EINVAL;
		return -1;
	}
	e = env_find(name);
	if (e && !overwrite)
		return 0;
	s = malloc(strlen(name) + strlen(value) + 2);
	if (!s)
		return -1;
	strcpy(s, name);
	strcat(s, "=");
	strcat(s, value);
	if (e) {
		*e = s;
		return 0;
	}
	for (n = 0; environ && environ[n]; n++)
		;
	{
		char **grown = malloc((n + 2) * sizeof(char *));
		if (!grown)
			return -1;
		for (size_t i = 0; i < n; i++)
			grown[i] = environ[i];
		grown[n] = s;
		grown[n + 1] = NULL;
		if (env_owned)
			free(environ);
		environ = grown;
		env_owned = 1;
	}
	return 0;
}

int unsetenv(const char *name)
{
	char **e = env_find(name);

	if (e)
		for (; *e; e++)
			e[0] = e[1];
	return 0;
}

/* ---- exit --------------------------------------------------------------- */

#define ATEXIT_MAX 32
static void (*atexit_fns[ATEXIT_MAX])(void);
static int atexit_count;

int atexit(void (*fn)(void))
{
	if (atexit_count == ATEXIT_MAX)
		return -1;
	atexit_fns[atexit_count++] = fn;
	return 0;
}

/* Run atexit handlers (last registered first), flush stdio, leave. */
void exit(int status)
{
	while (atexit_count > 0)
		atexit_fns[--atexit_count]();
	fflush(NULL);
	_exit(status);
}

void abort(void)
{
	signal(SIGABRT, SIG_DFL);
	raise(SIGABRT);
	_exit(127);
}

/* ---- qsort: insertion sort for short runs, else quicksort ------------- */

static void swap_bytes(char *a, char *b, size_t size)
{
	while (size--) {
		char t = *a;
		*a++ = *b;
		*b++ = t;
	}
}

void qsort(void *base, size_t nmemb, size_t size,
	   int (*compar)(const void *, const void *))
{
	char *a = base;

	while (nmemb > 8) {
		/* Middle element as pivot, moved to the end (Lomuto partition). */
		char *last = a + (nmemb - 1) * size;
		size_t store = 0;

		swap_bytes(a + (nmemb / 2) * size, last, size);
		for (size_t i = 0; i < nmemb - 1; i++) {
			if (compar(a + i * size, last) < 0) {
				swap_bytes(a + i * size, a + store * size, size);
				store++;
			}
		}
		swap_bytes(a + store * size, last, size);
		/* Recurse on the smaller side, loop on the larger (bounded stack). */
		if (store < nmemb - store - 1) {
			qsort(a, store, size, compar);
			a += (store + 1) * size;
			nmemb -= store + 1;
		} else {
			qsort(a + (store + 1) * size, nmemb - store - 1, size, compar);
			nmemb = store;
		}
	}
	for (size_t i = 1; i < nmemb; i++)
		for (size_t j = i; j > 0 && compar(a + (j - 1) * size, a + j * size) > 0; j--)
			swap_bytes(a + (j - 1) * size, a + j * size, size);
}
