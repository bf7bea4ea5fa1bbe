/* include/asm/cmpxchg.h: atomic exchange (Linux's <asm/cmpxchg.h>), for
 * lock words (kernel/spinlock.c). */
#ifndef _ASM_CMPXCHG_H
#define _ASM_CMPXCHG_H

/* Store v in *p and return the old value, in one atomic step: xchg with a
 * memory operand is locked without a lock prefix. */
static inline unsigned int xchg(volatile unsigned int *p, unsigned int v)
{
    __asm__ volatile("xchgl %0, %1" : "+r"(v), "+m"(*p) :: "memory");
    return v;
}
#endif
