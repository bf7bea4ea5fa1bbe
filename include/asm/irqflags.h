/* include/asm/irqflags.h: enabling, disabling and saving the interrupt flag. */
#ifndef _ASM_IRQFLAGS_H
#define _ASM_IRQFLAGS_H
static inline void local_irq_enable(void)  { __asm__ volatile("sti" ::: "memory"); }
static inline void local_irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }
static inline unsigned long local_irq_save(void)
{
    unsigned long f;
    __asm__ volatile("pushfl; popl %0; cli" : "=r"(f) :: "memory");
    return f;
}
static inline void local_irq_restore(unsigned long f)
{
    __asm__ volatile("pushl %0; popfl" :: "r"(f) : "memory", "cc");
}
/* Enable interrupts and halt until one arrives (Linux's safe_halt): sti
 * takes effect only after the next instruction, so no interrupt can slip in
 * between the two and leave hlt sleeping with the wake-up already done. */
static inline void safe_halt(void) { __asm__ volatile("sti; hlt" ::: "memory"); }
static inline int irqs_disabled(void)
{
    unsigned long f;
    __asm__ volatile("pushfl; popl %0" : "=r"(f));
    return !(f & 0x200);
}
#endif
