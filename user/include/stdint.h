/*
 * stdint.h - fixed-width integer types for i386 (ILP32: int, long and
 * pointers are 32 bits, long long is 64 bits).
 */
#ifndef _STDINT_H
#define _STDINT_H

typedef signed char        int8_t;
typedef unsigned char      uint8_t;
typedef short              int16_t;
typedef unsigned short     uint16_t;
typedef int                int32_t;
typedef unsigned int       uint32_t;
typedef long long          int64_t;
typedef unsigned long long uint64_t;
typedef int                intptr_t;
typedef unsigned int       uintptr_t;

#define INT32_MAX  0x7fffffff
#define INT32_MIN  (-INT32_MAX - 1)
#define UINT32_MAX 0xffffffffU
#define INT64_MAX  0x7fffffffffffffffLL
#define UINT64_MAX 0xffffffffffffffffULL

#endif
