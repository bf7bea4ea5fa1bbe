/* include/err.h: returning an errno inside a pointer, as Linux's <linux/err.h>.
 * Pointers in the top 4095 bytes of the address space are errors. */
#ifndef _ERR_H
#define _ERR_H
#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) ((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline int IS_ERR(const void *ptr) { return IS_ERR_VALUE(ptr); }
static inline int IS_ERR_OR_NULL(const void *ptr) { return !ptr || IS_ERR_VALUE(ptr); }
#endif
