/* limits.h - sizes of the integer types on i386, and path limits. */
#ifndef _LIMITS_H
#define _LIMITS_H

#define CHAR_BIT   8
#define SCHAR_MAX  127
#define SCHAR_MIN  (-128)
#define UCHAR_MAX  255
#define CHAR_MAX   SCHAR_MAX
#define CHAR_MIN   SCHAR_MIN
#define SHRT_MAX   32767
#define SHRT_MIN   (-32768)
#define USHRT_MAX  65535
#define INT_MAX    0x7fffffff
#define INT_MIN    (-INT_MAX - 1)
#define UINT_MAX   0xffffffffU
#define LONG_MAX   0x7fffffffL
#define LONG_MIN   (-LONG_MAX - 1L)
#define ULONG_MAX  0xffffffffUL
#define LLONG_MAX  0x7fffffffffffffffLL
#define LLONG_MIN  (-LLONG_MAX - 1LL)
#define ULLONG_MAX 0xffffffffffffffffULL

#define PATH_MAX   4096
#define NAME_MAX   255

#endif
