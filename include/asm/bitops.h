/* include/asm/bitops.h: atomic bit operations on an unsigned long (Linux's
 * <asm/bitops.h>): lock-prefixed, so SMP-safe and safe against an interrupt
 * between the read and the write.  Page flags (<mm.h>) and address_space
 * flags use them. */
#ifndef _ASM_BITOPS_H
#define _ASM_BITOPS_H

static inline int test_bit(int nr, const volatile unsigned long *addr)
{ return (*addr >> nr) & 1; }
static inline void set_bit(int nr, volatile unsigned long *addr)
{ __asm__ volatile("lock btsl %1, %0" : "+m"(*addr) : "Ir"(nr) : "memory"); }
static inline void clear_bit(int nr, volatile unsigned long *addr)
{ __asm__ volatile("lock btrl %1, %0" : "+m"(*addr) : "Ir"(nr) : "memory"); }
/* Set (clear) the bit and return its old value. */
static inline int test_and_set_bit(int nr, volatile unsigned long *addr)
{
    unsigned char old;
    __asm__ volatile("lock btsl %2, %0; setc %1" : "+m"(*addr), "=q"(old) : "Ir"(nr) : "memory", "cc");
    return old;
}
static inline int test_and_clear_bit(int nr, volatile unsigned long *addr)
{
    unsigned char old;
    __asm__ volatile("lock btrl %2, %0; setc %1" : "+m"(*addr), "=q"(old) : "Ir"(nr) : "memory", "cc");
    return old;
}
#endif
