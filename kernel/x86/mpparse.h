/* kernel/x86/mpparse.h: the CPUs and APICs the firmware's tables list (ACPI's
 * MADT, kernel/x86/acpi.c, or the MP table, kernel/x86/mpparse.c), for
 * kernel/x86/smpboot.c; private to the arch layer. */
#ifndef _X86_MPPARSE_H
#define _X86_MPPARSE_H
#include <types.h>
#include <asm/percpu.h>

#define MAX_IO_APICS 4

struct mp_info {
    int nr_cpus;                       /* enabled processors, at most NR_CPUS */
    struct {
        uint8_t apicid, apicver;
        uint32_t signature;            /* cpuid(1).eax, as the BIOS saw it (MP) */
    } cpu[NR_CPUS];                    /* cpu[0]: the boot processor (smpboot.c) */
    uint32_t lapic_addr;               /* the local APIC's physical address */
    int nr_ioapics;
    struct { uint8_t apicid; uint32_t addr; } ioapic[MAX_IO_APICS];
    int nr_buses, nr_irqs, nr_lints;   /* counted (the interrupt entries, below) */
    /* Where each ISA IRQ arrives at the first I/O APIC (io_apic.c): its pin
     * (the GSI) and the MP-table/MADT flags (bits 1-0 polarity, 3-2
     * trigger; 0: the bus's default, edge high for ISA).  Identity unless
     * an interrupt source override (MADT) or an I/O interrupt entry (MP
     * table) says otherwise: on QEMU and Bochs, IRQ 0 is pin 2. */
    struct { uint32_t gsi; uint16_t flags; } isa_irq[16];
};
#define MP_IRQPOL_MASK   0x3           /* 1: active high, 3: active low */
#define MP_IRQTRIG_MASK  0xC           /* 4: edge, 0xC: level */
#define MP_IRQTRIG_LEVEL 0xC
#define MP_IRQPOL_LOW    0x3
void mp_isa_irqs_identity(struct mp_info *info);
extern struct mp_info mp_info;

/* Find and read the MP tables; true if they name at least the boot CPU
 * (mpparse.c; cpu[0] is the one flagged the boot processor). */
bool mp_parse_config(void);
/* The same from ACPI's MADT (acpi.c; cpu[] in the MADT's order). */
bool acpi_parse_madt(void);
#endif
