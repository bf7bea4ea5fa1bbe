/* kernel/x86/acpi.c: the ACPI tables SMP needs (arch layer; Linux's
 * arch/x86/kernel/acpi/boot.c acpi_parse_madt, in the small).
 *
 * Owns finding the RSDP ("RSD PTR ", on a 16-byte boundary in the first
 * KiB of the EBDA or in the BIOS area 0xE0000-0xFFFFF), following it to the
 * RSDT (a list of 32-bit table addresses) and reading the MADT, the table
 * whose signature is "APIC": the local APIC's address, then one entry per
 * processor's local APIC (type 0: enabled or not) and per I/O APIC
 * (type 1); other entries (interrupt overrides, NMI sources) are counted.
 * It fills struct mp_info (kernel/x86/mpparse.h) as the MP table does.
 * Every table is checked (signature, length, checksum) before it is read;
 * a bad one means "no MADT", reported, and the caller tries the MP table.
 * Simplification: ACPI 1.0's RSDT only (QEMU and Bochs have one); the
 * XSDT's 64-bit pointers are not followed. */
#include <kernel.h>
#include <string.h>
#include <smp.h>
#include <asm/layout.h>
#include "mpparse.h"

struct acpi_table_header {             /* every table but the RSDP */
    char     signature[4];
    uint32_t length;                   /* header included */
    uint8_t  revision, checksum;       /* the whole table sums to 0 */
    char     oem_id[6], oem_table_id[8];
    uint32_t oem_revision, asl_compiler_id, asl_compiler_revision;
} __attribute__((packed));

struct acpi_table_rsdp {
    char     signature[8];             /* "RSD PTR " */
    uint8_t  checksum;                 /* its first 20 bytes sum to 0 */
    char     oem_id[6];
    uint8_t  revision;
    uint32_t rsdt_physical_address;
} __attribute__((packed));

struct acpi_table_madt {
    struct acpi_table_header header;   /* "APIC" */
    uint32_t address;                  /* the local APIC's physical address */
    uint32_t flags;                    /* bit 0: there are 8259A PICs too */
} __attribute__((packed));

#define ACPI_MADT_TYPE_LOCAL_APIC 0    /* u8 processor id, u8 apic id, u32 flags */
#define ACPI_MADT_TYPE_IO_APIC    1    /* u8 id, u8 0, u32 address, u32 gsi base */
#define ACPI_MADT_TYPE_INTERRUPT_OVERRIDE 2 /* u8 bus (0: ISA), u8 irq, u32 gsi, u16 flags */
#define ACPI_MADT_ENABLED         1

static uint8_t acpi_checksum(const void *p, size_t len)
{
    const uint8_t *b = p;
    uint8_t sum = 0;
    while (len--)
        sum += *b++;
    return sum;
}

static const struct acpi_table_rsdp *scan_rsdp(unsigned long base, unsigned long len)
{
    for (unsigned long pa = base; pa + sizeof(struct acpi_table_rsdp) <= base + len; pa += 16) {
        const struct acpi_table_rsdp *r = phys_to_virt(pa);
        if (!memcmp(r->signature, "RSD PTR ", 8) && !acpi_checksum(r, 20))
            return r;
    }
    return NULL;
}

/* A table at physical pa we may read: in the direct map, sane length, sum 0. */
static const struct acpi_table_header *acpi_map_table(uint32_t pa, const char *sig)
{
    if (pa < 0x1000 || pa >= LOWMEM_LIMIT - 0x10000)
        return NULL;
    const struct acpi_table_header *h = phys_to_virt(pa);
    if (memcmp(h->signature, sig, 4) || h->length < sizeof *h || h->length > 0x10000 ||
        acpi_checksum(h, h->length))
        return NULL;
    return h;
}

/* Read the MADT into mp_info; true if it names at least one enabled CPU.
 * mp_info.cpu[] is in the MADT's order: smpboot.c puts the boot CPU first. */
bool acpi_parse_madt(void)
{
    unsigned long ebda = (unsigned long)*(const uint16_t *)phys_to_virt(0x40E) << 4;
    const struct acpi_table_rsdp *rsdp = NULL;
    if (ebda >= 0x80000 && ebda < 0xA0000)
        rsdp = scan_rsdp(ebda, 1024);
    if (!rsdp)
        rsdp = scan_rsdp(0xE0000, 0x20000);
    if (!rsdp) {
        printk(KERN_INFO "ACPI: no RSDP\n");
        return false;
    }
    const struct acpi_table_header *rsdt = acpi_map_table(rsdp->rsdt_physical_address, "RSDT");
    if (!rsdt) {
        printk(KERN_ERR "ACPI: RSDT at %#x: bad signature, length or checksum\n",
               rsdp->rsdt_physical_address);
        return false;
    }
    const struct acpi_table_madt *madt = NULL;
    const uint32_t *ptr = (const uint32_t *)(rsdt + 1);
    for (size_t i = 0; i < (rsdt->length - sizeof *rsdt) / 4 && !madt; i++)
        madt = (const struct acpi_table_madt *)acpi_map_table(ptr[i], "APIC");
    if (!madt) {
        printk(KERN_INFO "ACPI: no MADT\n");
        return false;
    }
    printk(KERN_INFO "ACPI: MADT at %#lx, local APIC at %#x\n", virt_to_phys(madt),
           madt->address);

    struct mp_info info = { .lapic_addr = madt->address };
    mp_isa_irqs_identity(&info);
    const uint8_t *p = (const uint8_t *)(madt + 1);
    const uint8_t *end = (const uint8_t *)madt + madt->header.length;
    while (p + 2 <= end) {
        if (p[1] < 2 || p + p[1] > end) {
            printk(KERN_ERR "ACPI: MADT entry at offset %ld: bad length %u\n",
                   (long)(p - (const uint8_t *)madt), p[1]);
            return false;
        }
        if (p[0] == ACPI_MADT_TYPE_LOCAL_APIC && p[1] >= 8) {
            uint32_t flags;
            memcpy(&flags, p + 4, 4);
            if (!(flags & ACPI_MADT_ENABLED)) {
                /* a CPU that may be hot-plugged later: not ours */
            } else if (info.nr_cpus == NR_CPUS) {
                printk(KERN_WARNING "ACPI: CPU with APIC id %u ignored: NR_CPUS is %d\n",
                       p[3], NR_CPUS);
            } else {
                info.cpu[info.nr_cpus++].apicid = p[3];
                printk(KERN_INFO "ACPI: LAPIC (acpi_id[%#04x] lapic_id[%#04x] enabled)\n",
                       p[2], p[3]);
            }
        } else if (p[0] == ACPI_MADT_TYPE_IO_APIC && p[1] >= 12) {
            if (info.nr_ioapics < MAX_IO_APICS) {
                info.ioapic[info.nr_ioapics].apicid = p[2];
                memcpy(&info.ioapic[info.nr_ioapics].addr, p + 4, 4);
                printk(KERN_INFO "ACPI: IOAPIC (id[%#04x] address[%#x])\n", p[2],
                       info.ioapic[info.nr_ioapics].addr);
                info.nr_ioapics++;
            }
        } else if (p[0] == ACPI_MADT_TYPE_INTERRUPT_OVERRIDE && p[1] >= 10) {
            /* An ISA IRQ that is not on the pin of its number (io_apic.c). */
            uint32_t gsi;
            uint16_t flags;
            memcpy(&gsi, p + 4, 4);
            memcpy(&flags, p + 8, 2);
            if (p[2] == 0 && p[3] < 16) {
                info.isa_irq[p[3]].gsi = gsi;
                info.isa_irq[p[3]].flags = flags;
            }
            info.nr_irqs++;
        } else {
            info.nr_irqs++;            /* NMI sources and the rest: counted */
        }
        p += p[1];
    }
    if (!info.nr_cpus)
        return false;
    mp_info = info;
    printk(KERN_INFO "ACPI: %d processor(s), %d I/O APIC(s), %d other MADT entries\n",
           info.nr_cpus, info.nr_ioapics, info.nr_irqs);
    return true;
}
