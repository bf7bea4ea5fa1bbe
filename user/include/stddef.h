/*
 * stddef.h - basic types every C file expects (Vellum user libc).
 * We compile with -nostdinc, so even the compiler's own headers are ours.
 */
#ifndef _STDDEF_H
#define _STDDEF_H

typedef unsigned int size_t;
typedef int ptrdiff_t;

#define NULL ((void *)0)
#define offsetof(type, member) __builtin_offsetof(type, member)

#endif
