/* kernel/x86/apic.h: the local APIC's registers, vectors and functions
 * (kernel/x86/apic.c), and the I/O APIC's entry point (io_apic.c), private
 * to the arch layer (Linux's <asm/apicdef.h> names). */
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
#define   APIC_DM_FIXED      0x000
#define   APIC_DM_NMI        0x400
#define   APIC_DM_INIT       0x500
#define   APIC_DM_STARTUP    0x600     /* vector = the start page (addr >> 12) */
#define   APIC_DM_EXTINT     0x700
#define   APIC_INT_ASSERT    0x4000
#define   APIC_INT_LEVELTRIG 0x8000
#define   APIC_DEST_ALLBUT   0xC0000   /* shorthand: every APIC but this one */
#define APIC_ICR2     0x310            /* bits 31-24: the destination APIC id */
#define APIC_LVTT     0x320
#define   APIC_LVT_TIMER_PERIODIC 0x20000
#define APIC_LVT0     0x350
#define APIC_LVT1     0x360
#define APIC_LVTERR   0x370
#define   APIC_LVT_MASKED    0x10000
#define APIC_TMICT    0x380            /* the timer's initial count */
#define APIC_TMCCT    0x390            /* its current count */
#define APIC_TDCR     0x3E0            /* its divider */
#define   APIC_TDR_DIV_16    0x3

/* The vectors the local APIC delivers (Linux 2.6.24's i386 numbers,
 * include/asm-x86/mach-default/irq_vectors.h); the ISA IRQs keep
 * 0x20-0x2F through the I/O APIC as through the 8259A.  A higher vector
 * has a higher priority.  entry.S has a stub for each, traps.c a gate, and
 * do_trap sends them, through do_interrupt (pic.c), to smp_apic_interrupt
 * (smp.c). */
#define LOCAL_TIMER_VECTOR     0xEF
#define CALL_FUNCTION_VECTOR   0xFB
#define RESCHEDULE_VECTOR      0xFC
#define INVALIDATE_TLB_VECTOR  0xFD
#define REBOOT_VECTOR          0xF8    /* smp_send_stop (Linux's x86-64 name) */

#define SPURIOUS_APIC_VECTOR 0xFF      /* counted, no EOI */

bool lapic_map(uint32_t phys);         /* false: no local APIC (one CPU) */
uint32_t apic_read(unsigned reg);
void apic_write(unsigned reg, uint32_t v);
unsigned read_apic_id(void);
void setup_local_APIC(bool boot_cpu);
/* Send an IPI (icr: delivery mode and flags) to apicid; 0, or -1 if the
 * APIC never reported it sent. */
int apic_send_ipi(unsigned apicid, uint32_t icr);
/* Send vector to one CPU, or to every CPU but this one (the ICR's
 * shorthand); wait (bounded) for the APIC to have sent it. */
int send_IPI_mask_one(int cpu, unsigned vector);
int send_IPI_allbutself(unsigned vector);
/* End of interrupt, to this CPU's local APIC (Linux's ack_APIC_irq). */
void ack_APIC_irq(void);

/* The local APIC timer (apic.c): calibrate_APIC_clock measures, on the boot
 * CPU, how far the timer counts in one tick of guest time (the PIT's
 * counter is the ruler); setup_APIC_timer starts this CPU's periodic timer
 * at HZ.  lapic_timer_ticks: 0 until calibrated (or no local APIC). */
void calibrate_APIC_clock(void);
void setup_APIC_timer(void);
extern unsigned long lapic_timer_ticks;    /* APIC timer counts per tick (divide by 16) */
bool lapic_present(void);
/* Mask LINT0 on this CPU: the I/O APIC took over from the 8259A's
 * virtual wire (io_apic.c). */
void lapic_mask_lint0(void);
/* io_apic.c: route the ISA IRQs through the I/O APIC; false (the 8259A
 * stays) if there is none, or noapic / nosmp is on the command line. */
bool setup_IO_APIC(void);
/* io_apic.c: spread the lines with handlers over the online CPUs, round
 * robin (smp_init, once the APs are up; nothing on the 8259A). */
void setup_ioapic_dest(void);
#endif
