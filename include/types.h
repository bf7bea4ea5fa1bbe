/* include/types.h: fixed-width integers and the kernel's basic types. */
#ifndef _TYPES_H
#define _TYPES_H
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>

typedef int32_t  ssize_t;
typedef int64_t  loff_t;
typedef int32_t  off_t;
typedef uint32_t phys_addr_t;
typedef int      pid_t;
typedef uint32_t mode_t;
typedef uint32_t dev_t;
typedef uint32_t ino_t;
typedef uint32_t uid_t;
typedef uint32_t gid_t;
typedef int32_t  time_t;

#endif
