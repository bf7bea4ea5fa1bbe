/* kernel/x86/mpparse.c: finding the CPUs (arch layer; Linux 2.6.24's
 * arch/x86/kernel/mpparse_32.c, in the small).
 *
 * Owns the reading of the Intel MultiProcessor Specification (1.4) tables
 * the BIOS leaves in memory: the MP floating pointer structure
 * (struct intel_mp_floating, "_MP_"), searched for on 16-byte boundaries in
 * the first KiB of the EBDA, the last KiB of base memory and the BIOS ROM
 * at 0xF0000-0xFFFFF, which points to the MP configuration table
 * (struct mp_config_table, "PCMP"): a header with the local APIC's physical
 * address, then entries: processors, buses, I/O APICs, I/O interrupt
 * assignments, local interrupt assignments.  It fills in mp_cpus[] (each
 * enabled processor's APIC id, version and cpuid signature, the boot CPU
 * first), mp_lapic_addr and mp_ioapics[]; the bus and interrupt entries are
 * counted and checked only (the I/O APIC is SMP step 2's).
 *
 * smpboot.c reads ACPI's MADT first (kernel/x86/acpi.c) and this table
 * only when there is no MADT, as Linux does: QEMU's SeaBIOS builds both,
 * but its MP table lists one processor per package (socket), and QEMU's
 * -smp N gives one socket of N cores by default, so the MP table alone
 * finds one CPU there (-smp N,sockets=N lists them all).  Bochs's BIOS
 * builds both too.  A machine with neither table (or an MP table that only
 * names a "default configuration", which Vellum does not model) boots on
 * one CPU. */
#include <kernel.h>
#include <string.h>
#include <smp.h>
#include <asm/layout.h>
#include "mpparse.h"

struct intel_mp_floating {
    char     mpf_signature[4];         /* "_MP_" */
    uint32_t mpf_physptr;              /* the configuration table, or 0 */
    uint8_t  mpf_length;               /* in 16-byte units: 1 */
    uint8_t  mpf_specification;        /* 1 (1.1) or 4 (1.4) */
    uint8_t  mpf_checksum;             /* the 16 bytes sum to 0 */
    uint8_t  mpf_feature1;             /* non-zero: a default configuration */
    uint8_t  mpf_feature2;             /* bit 7: the IMCR is present */
    uint8_t  mpf_feature3, mpf_feature4, mpf_feature5;
} __attribute__((packed));

struct mp_config_table {
    char     mpc_signature[4];         /* "PCMP" */
    uint16_t mpc_length;               /* the base table, header included */
    uint8_t  mpc_spec;
    uint8_t  mpc_checksum;             /* the base table sums to 0 */
    char     mpc_oem[8];
    char     mpc_productid[12];
    uint32_t mpc_oemptr;
    uint16_t mpc_oemsize;
    uint16_t mpc_oemcount;             /* entries that follow */
    uint32_t mpc_lapic;                /* the local APIC's physical address */
    uint16_t mpc_extlength;
    uint8_t  mpc_extchecksum;
    uint8_t  mpc_reserved;
} __attribute__((packed));

#define MP_PROCESSOR 0                 /* entry types, and their sizes */
#define MP_BUS       1
#define MP_IOAPIC    2
#define MP_INTSRC    3
#define MP_LINTSRC   4

struct mpc_config_processor {          /* 20 bytes */
    uint8_t  mpc_type;
    uint8_t  mpc_apicid;
    uint8_t  mpc_apicver;
    uint8_t  mpc_cpuflag;              /* CPU_ENABLED, CPU_BOOTPROCESSOR */
    uint32_t mpc_cpufeature;           /* cpuid(1).eax: family, model, stepping */
    uint32_t mpc_featureflag;          /* cpuid(1).edx */
    uint32_t mpc_reserved[2];
} __attribute__((packed));
#define CPU_ENABLED       1
#define CPU_BOOTPROCESSOR 2

struct mpc_config_ioapic {             /* 8 bytes */
    uint8_t  mpc_type;
    uint8_t  mpc_apicid;
    uint8_t  mpc_apicver;
    uint8_t  mpc_flags;                /* bit 0: usable */
    uint32_t mpc_apicaddr;
} __attribute__((packed));

struct mp_info mp_info;

void mp_isa_irqs_identity(struct mp_info *info)
{
    for (unsigned irq = 0; irq < 16; irq++)
        info->isa_irq[irq].gsi = irq, info->isa_irq[irq].flags = 0;
}

struct mpc_config_bus {                /* 8 bytes */
    uint8_t  mpc_type;
    uint8_t  mpc_busid;
    char     mpc_bustype[6];           /* "ISA   ", "PCI   " */
} __attribute__((packed));

struct mpc_config_intsrc {             /* 8 bytes */
    uint8_t  mpc_type;
    uint8_t  mpc_irqtype;              /* 0: a vectored interrupt (INT) */
    uint16_t mpc_irqflag;              /* polarity, trigger: MP_IRQPOL_*, MP_IRQTRIG_* */
    uint8_t  mpc_srcbus, mpc_srcbusirq;
    uint8_t  mpc_dstapic, mpc_dstirq;  /* the I/O APIC and its pin */
} __attribute__((packed));

static uint8_t mpf_checksum(const void *p, size_t len)
{
    const uint8_t *b = p;
    uint8_t sum = 0;
    while (len--)
        sum += *b++;
    return sum;
}

/* Linux's smp_scan_config: a valid floating pointer in [base, base+len). */
static const struct intel_mp_floating *smp_scan_config(unsigned long base, unsigned long len)
{
    for (unsigned long pa = base; pa + 16 <= base + len; pa += 16) {
        const struct intel_mp_floating *mpf = phys_to_virt(pa);
        if (!memcmp(mpf->mpf_signature, "_MP_", 4) && mpf->mpf_length == 1 &&
            !mpf_checksum(mpf, 16) &&
            (mpf->mpf_specification == 1 || mpf->mpf_specification == 4))
            return mpf;
    }
    return NULL;
}

/* Where the spec says to look, in its order. */
static const struct intel_mp_floating *mp_find_smp_config(void)
{
    const struct intel_mp_floating *mpf;
    unsigned long ebda = (unsigned long)*(const uint16_t *)phys_to_virt(0x40E) << 4;
    unsigned long base_kb = *(const uint16_t *)phys_to_virt(0x413);

    if (ebda >= 0x80000 && ebda < 0xA0000 && (mpf = smp_scan_config(ebda, 1024)))
        return mpf;
    if (base_kb >= 512 && base_kb <= 640 && (mpf = smp_scan_config(base_kb * 1024 - 1024, 1024)))
        return mpf;
    return smp_scan_config(0xF0000, 0x10000);
}

/* A processor entry: Linux's MP_processor_info (mp_register_lapic today). */
static void mp_register_lapic(const struct mpc_config_processor *m)
{
    if (!(m->mpc_cpuflag & CPU_ENABLED))
        return;
    if (mp_info.nr_cpus == NR_CPUS) {
        printk(KERN_WARNING "MP: CPU with APIC id %d ignored: NR_CPUS is %d\n",
               m->mpc_apicid, NR_CPUS);
        return;
    }
    /* The boot processor is CPU 0: it goes first, the rest keep their order. */
    int slot = mp_info.nr_cpus++;
    if (m->mpc_cpuflag & CPU_BOOTPROCESSOR) {
        memmove(&mp_info.cpu[1], &mp_info.cpu[0], slot * sizeof mp_info.cpu[0]);
        slot = 0;
    }
    mp_info.cpu[slot].apicid = m->mpc_apicid;
    mp_info.cpu[slot].apicver = m->mpc_apicver;
    mp_info.cpu[slot].signature = m->mpc_cpufeature;
    printk(KERN_INFO "MP: processor #%d version %#x%s\n", m->mpc_apicid, m->mpc_apicver,
           m->mpc_cpuflag & CPU_BOOTPROCESSOR ? " (boot processor)" : "");
}

/* Linux's smp_read_mpc: check the table, walk its entries.  0, or -1 for a
 * table we cannot trust (then one CPU). */
static int smp_read_mpc(const struct mp_config_table *mpc)
{
    if (memcmp(mpc->mpc_signature, "PCMP", 4) || mpc->mpc_length < sizeof *mpc ||
        mpf_checksum(mpc, mpc->mpc_length)) {
        printk(KERN_ERR "MP: bad configuration table signature, length or checksum\n");
        return -1;
    }
    mp_info.lapic_addr = mpc->mpc_lapic;
    mp_isa_irqs_identity(&mp_info);
    uint32_t isa_buses = 0;            /* bit n: bus n is ISA */
    const uint8_t *p = (const uint8_t *)(mpc + 1), *end = (const uint8_t *)mpc + mpc->mpc_length;
    for (unsigned i = 0; i < mpc->mpc_oemcount && p < end; i++) {
        size_t size = *p == MP_PROCESSOR ? sizeof(struct mpc_config_processor) : 8;
        if (*p > MP_LINTSRC || p + size > end) {
            printk(KERN_ERR "MP: configuration table entry %u: type %u, bad\n", i, *p);
            return -1;
        }
        switch (*p) {
        case MP_PROCESSOR:
            mp_register_lapic((const struct mpc_config_processor *)p);
            break;
        case MP_BUS: {
            const struct mpc_config_bus *b = (const void *)p;
            if (b->mpc_busid < 32 && !memcmp(b->mpc_bustype, "ISA", 3))
                isa_buses |= 1u << b->mpc_busid;
            mp_info.nr_buses++;
            break;
        }
        case MP_IOAPIC: {
            const struct mpc_config_ioapic *io = (const void *)p;
            if ((io->mpc_flags & 1) && mp_info.nr_ioapics < MAX_IO_APICS) {
                mp_info.ioapic[mp_info.nr_ioapics].apicid = io->mpc_apicid;
                mp_info.ioapic[mp_info.nr_ioapics].addr = io->mpc_apicaddr;
                mp_info.nr_ioapics++;
                printk(KERN_INFO "MP: I/O APIC #%d version %#x at %#x\n", io->mpc_apicid,
                       io->mpc_apicver, io->mpc_apicaddr);
            }
            break;
        }
        case MP_INTSRC: {
            /* An ISA IRQ's pin on the (first) I/O APIC: io_apic.c routes it. */
            const struct mpc_config_intsrc *in = (const void *)p;
            if (in->mpc_irqtype == 0 && in->mpc_srcbus < 32 &&
                (isa_buses & 1u << in->mpc_srcbus) && in->mpc_srcbusirq < 16 &&
                mp_info.nr_ioapics && in->mpc_dstapic == mp_info.ioapic[0].apicid) {
                mp_info.isa_irq[in->mpc_srcbusirq].gsi = in->mpc_dstirq;
                mp_info.isa_irq[in->mpc_srcbusirq].flags = in->mpc_irqflag;
            }
            mp_info.nr_irqs++;
            break;
        }
        case MP_LINTSRC:
            mp_info.nr_lints++;
            break;
        }
        p += size;
    }
    return 0;
}

bool mp_parse_config(void)
{
    const struct intel_mp_floating *mpf = mp_find_smp_config();
    if (!mpf) {
        printk(KERN_INFO "MP: no MP floating pointer: one CPU\n");
        return false;
    }
    printk(KERN_INFO "MP: Intel MultiProcessor Specification v1.%d at %#lx\n",
           mpf->mpf_specification, virt_to_phys(mpf));
    if (mpf->mpf_feature1 || !mpf->mpf_physptr) {
        /* Simplification: the spec's default configurations (two CPUs,
         * ids 0 and 1, no table) are not modelled. */
        printk(KERN_INFO "MP: default configuration %d not supported: one CPU\n",
               mpf->mpf_feature1);
        return false;
    }
    if (mpf->mpf_physptr >= LOWMEM_LIMIT - 0x10000) {
        printk(KERN_ERR "MP: configuration table at %#x is outside the direct map\n",
               mpf->mpf_physptr);
        return false;
    }
    if (smp_read_mpc(phys_to_virt(mpf->mpf_physptr)) || !mp_info.nr_cpus) {
        mp_info.nr_cpus = 0;
        return false;
    }
    printk(KERN_INFO "MP: %d processor(s), %d bus(es), %d I/O APIC(s), %d I/O and %d local "
           "interrupt entries, local APIC at %#x\n", mp_info.nr_cpus, mp_info.nr_buses,
           mp_info.nr_ioapics, mp_info.nr_irqs, mp_info.nr_lints, mp_info.lapic_addr);
    return true;
}
