/*
 * string.c - the C library's string functions beyond the core set.
 * memcpy, memset, strlen, strcmp, strchr and the rest of lib/string.h are
 * the kernel's lib/string.c, built into libc too (mk/user.mk); these are
 * written plainly (byte at a time): clarity over speed.
 */
#include <stdlib.h>
#include <string.h>

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

/* Copies at most n bytes and pads with NULs; no terminator if src is long. */
char *strncpy(char *dst, const char *src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = '\0';
	return dst;
}

char *strcat(char *dst, const char *src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

char *strncat(char *dst, const char *src, size_t n)
{
	char *d = dst + strlen(dst);

	while (n-- && *src)
		*d++ = *src++;
	*d = '\0';
	return dst;
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return n == 0 ? (char *)hay : NULL;
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

char *strpbrk(const char *s, const char *accept)
{
	s += strcspn(s, accept);
	return *s ? (char *)s : NULL;
}

/* Split s at any of delim; pass NULL to continue with the same string. */
char *strtok(char *s, const char *delim)
{
	static char *next;
	char *tok;

	if (s == NULL)
		s = next;
	if (s == NULL)
		return NULL;
	s += strspn(s, delim);
	if (*s == '\0') {
		next = NULL;
		return NULL;
	}
	tok = s;
	s += strcspn(s, delim);
	if (*s) {
		*s = '\0';
		next = s + 1;
	} else {
		next = NULL;
	}
	return tok;
}

char *strdup(const char *s)
{
	return strndup(s, strlen(s));
}

char *strndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = malloc(len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}
