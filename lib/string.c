/* lib/string.c: memory and string routines for a freestanding kernel.
 * Plain C, written to be read; memcpy/memset use rep movs/stos. */
#include <string.h>

/* The bulk as `rep movsl`, the last n % 4 bytes as `rep movsb`: a quarter
 * of the iterations of a byte copy (Linux i386's __memcpy does the same). */
void *memcpy(void *dst, const void *src, size_t n)
{
    void *d = dst;
    size_t words = n / 4, tail = n % 4;
    __asm__ volatile("rep movsl" : "+D"(d), "+S"(src), "+c"(words) :: "memory");
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(tail) :: "memory");
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d == s || n == 0)
        return dst;
    if (d < s || d >= s + n)
        return memcpy(dst, src, n);
    while (n--)                         /* overlapping, copy backwards */
        d[n] = s[n];
    return dst;
}

/* `rep stosl` of the byte repeated four times, then `rep stosb` for the
 * tail (Linux i386's __memset); zeroing a page is 1024 iterations. */
void *memset(void *dst, int c, size_t n)
{
    void *d = dst;
    size_t words = n / 4, tail = n % 4;
    unsigned int v = (unsigned char)c * 0x01010101u;
    __asm__ volatile("rep stosl" : "+D"(d), "+c"(words) : "a"(v) : "memory");
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(tail) : "a"(v) : "memory");
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

size_t strnlen(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b)
            return (unsigned char)*a - (unsigned char)*b;
        if (!*a)
            break;
    }
    return 0;
}

char *strcpy(char *dst, const char *src)
{
    char *d = dst;
    while ((*d++ = *src++))
        ;
    return dst;
}

/* Copy at most size-1 bytes and always terminate; returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size)
{
    size_t len = strlen(src);
    if (size) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return len;
}

char *strchr(const char *s, int c)
{
    for (; *s; s++)
        if (*s == (char)c)
            return (char *)s;
    return c ? NULL : (char *)s;
}

char *strrchr(const char *s, int c)
{
    const char *last = NULL;
    do {
        if (*s == (char)c)
            last = s;
    } while (*s++);
    return (char *)last;
}

unsigned long simple_strtoul(const char *s, char **end, unsigned base)
{
    unsigned long v = 0;
    if (base == 0) {
        base = 10;
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
            base = 16, s += 2;
        else if (s[0] == '0' && s[1])
            base = 8, s++;
    } else if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
    }
    for (;; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9') d = *s - '0';
        else if (*s >= 'a' && *s <= 'z') d = *s - 'a' + 10;
        else if (*s >= 'A' && *s <= 'Z') d = *s - 'A' + 10;
        else break;
        if (d >= base)
            break;
        v = v * base + d;
    }
    if (end)
        *end = (char *)s;
    return v;
}
