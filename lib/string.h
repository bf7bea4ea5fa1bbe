/*
 * lib/string.h: the memory and string routines of lib/string.c.
 *
 * One implementation for both sides: lib/string.c is compiled into the
 * kernel and into the C library (user/libc), so a student reads memcpy or
 * strcmp once.  The kernel finds this header as <string.h> (-Ilib); the
 * userland's <string.h> (user/include/string.h) includes it and adds the
 * rest of the C library's string functions.  It includes only <stddef.h>
 * (the compiler's on the kernel side, user/include's on the user side).
 */
#ifndef _LIB_STRING_H
#define _LIB_STRING_H
#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *dst, const char *src);
size_t strlcpy(char *dst, const char *src, size_t size);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
unsigned long simple_strtoul(const char *s, char **end, unsigned base);
#endif
