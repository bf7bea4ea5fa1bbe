/* kernel/x86/apic.h: the local APIC's registers and functions
 * (kernel/x86/apic.c), private to the arch layer (Linux's <asm/apicdef.h>
 * names). */
#ifndef _X86_APIC_H
#define _X86_APIC_H
#include <types.h>

#define APIC_ID       0x20             /* bits 31-24: this APIC's id */
#define APIC_LVR      0x30             /* bits 7-0: version (0x1X: integrated) */
#define APIC_TASKPRI  0x80
#define APIC_EOI      0xB0
#define APIC_SPIV     0xF0             /* spurious vector, bit 8: software enable */
#define   APIC_SPIV_APIC_ENABLED 0x100
#define APIC_ESR      0x280
#define APIC_ICR      0x300            /* interrupt command, low word: sends */
#define   APIC_ICR_BUSY      0x1000    /* delivery status: still sending */
#define   APIC_DM_NMI        0x400
#define   APIC_DM_INIT       0x500
#define   APIC_DM_STARTUP    0x600     /* vector = the start page (addr >> 12) */
#define   APIC_DM_EXTINT     0x700
#define   APIC_INT_ASSERT    0x4000
#define   APIC_INT_LEVELTRIG 0x8000
#define APIC_ICR2     0x310            /* bits 31-24: the destination APIC id */
#define APIC_LVTT     0x320
#define APIC_LVT0     0x350
#define APIC_LVT1     0x360
#define APIC_LVTERR   0x370
#define   APIC_LVT_MASKED    0x10000

#define SPURIOUS_APIC_VECTOR 0xFF      /* entry.S: spurious_interrupt */

bool lapic_map(uint32_t phys);         /* false: no local APIC (one CPU) */
uint32_t apic_read(unsigned reg);
void apic_write(unsigned reg, uint32_t v);
unsigned read_apic_id(void);
void setup_local_APIC(bool boot_cpu);
/* Send an IPI (icr: delivery mode and flags) to apicid; 0, or -1 if the
 * APIC never reported it sent. */
int apic_send_ipi(unsigned apicid, uint32_t icr);
extern unsigned long apic_spurious_count;
#endif
