/* include/asm/io.h: x86 port I/O and a few privileged instructions. */
#ifndef _ASM_IO_H
#define _ASM_IO_H
#include <types.h>
static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port) { uint8_t v; __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint16_t inw(uint16_t port) { uint16_t v; __asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint32_t inl(uint16_t port) { uint32_t v; __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline void insw(uint16_t port, void *buf, unsigned long n)
{ __asm__ volatile("rep insw" : "+D"(buf), "+c"(n) : "d"(port) : "memory"); }
static inline void outsw(uint16_t port, const void *buf, unsigned long n)
{ __asm__ volatile("rep outsw" : "+S"(buf), "+c"(n) : "d"(port)); }
static inline void io_wait(void) { outb(0x80, 0); }
static inline void cpu_relax(void) { __asm__ volatile("pause"); }
static inline void hlt(void) { __asm__ volatile("hlt"); }
static inline uint64_t rdtsc(void) { uint64_t v; __asm__ volatile("rdtsc" : "=A"(v)); return v; }
static inline unsigned long read_cr2(void) { unsigned long v; __asm__ volatile("mov %%cr2, %0" : "=r"(v)); return v; }
static inline unsigned long read_cr3(void) { unsigned long v; __asm__ volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static inline void write_cr3(unsigned long v) { __asm__ volatile("mov %0, %%cr3" :: "r"(v) : "memory"); }
static inline void invlpg(unsigned long va) { __asm__ volatile("invlpg (%0)" :: "r"(va) : "memory"); }
#endif
