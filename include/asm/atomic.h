/* include/asm/atomic.h: atomic_t, an int that CPUs may change at once
 * (arch layer; Linux's <asm/atomic.h>).  Every read-modify-write is one
 * lock-prefixed instruction, so it is also safe against an interrupt on
 * this CPU; atomic_read and atomic_set are plain 32-bit loads and stores,
 * which x86 does atomically. */
#ifndef _ASM_ATOMIC_H
#define _ASM_ATOMIC_H

typedef struct { volatile int counter; } atomic_t;
#define ATOMIC_INIT(i) { (i) }

static inline int atomic_read(const atomic_t *v) { return v->counter; }
static inline void atomic_set(atomic_t *v, int i) { v->counter = i; }
static inline void atomic_add(int i, atomic_t *v)
{ __asm__ volatile("lock addl %1, %0" : "+m"(v->counter) : "ir"(i) : "memory", "cc"); }
static inline void atomic_sub(int i, atomic_t *v)
{ __asm__ volatile("lock subl %1, %0" : "+m"(v->counter) : "ir"(i) : "memory", "cc"); }
static inline void atomic_inc(atomic_t *v)
{ __asm__ volatile("lock incl %0" : "+m"(v->counter) :: "memory", "cc"); }
static inline void atomic_dec(atomic_t *v)
{ __asm__ volatile("lock decl %0" : "+m"(v->counter) :: "memory", "cc"); }
/* Decrement; true if the result is 0. */
static inline bool atomic_dec_and_test(atomic_t *v)
{
    unsigned char z;
    __asm__ volatile("lock decl %0; sete %1" : "+m"(v->counter), "=qm"(z) :: "memory", "cc");
    return z;
}
/* Add i and return the new value (lock xaddl returns the old). */
static inline int atomic_add_return(int i, atomic_t *v)
{
    int old = i;
    __asm__ volatile("lock xaddl %0, %1" : "+r"(old), "+m"(v->counter) :: "memory", "cc");
    return old + i;
}
#define atomic_inc_return(v) atomic_add_return(1, (v))
/* If *v == old, set it to new; return what *v was. */
static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
    int prev;
    __asm__ volatile("lock cmpxchgl %2, %1" : "=a"(prev), "+m"(v->counter)
                     : "r"(new), "0"(old) : "memory", "cc");
    return prev;
}
#endif
