/*
 * string.h - memory and string functions.
 *
 * The core routines (memcpy, memset, strlen, strcmp, strchr, ...) are the
 * kernel's own, lib/string.c, built into libc as well: one implementation,
 * declared in lib/string.h.  The rest of the C library's set is in
 * libc/string.c.
 */
#ifndef _STRING_H
#define _STRING_H

#include <stddef.h>
#include "../../lib/string.h"

void  *memchr(const void *s, int c, size_t n);
char  *strncpy(char *dst, const char *src, size_t n);
char  *strcat(char *dst, const char *src);
char  *strncat(char *dst, const char *src, size_t n);
char  *strstr(const char *hay, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char  *strpbrk(const char *s, const char *accept);
char  *strtok(char *s, const char *delim);
char  *strdup(const char *s);
char  *strndup(const char *s, size_t n);
char  *strerror(int errnum);

#endif
