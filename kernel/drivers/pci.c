/* kernel/drivers/pci.c: PCI configuration space through the legacy I/O
 * ports (configuration mechanism #1: address at 0xCF8, data at 0xCFC), and
 * a scan of bus 0 for a device of a given class.  Enough for the one PCI
 * device Vellum drives, the PIIX IDE controller's bus-master DMA
 * (kernel/drivers/ata.c).
 *
 * Simplified on purpose: no bus enumeration beyond bus 0, no bridges, no
 * resource assignment (the firmware, SeaBIOS or Bochs's BIOS, has assigned
 * the BARs), no struct pci_dev: Linux's drivers/pci does all of that.
 * Callers run at boot, one at a time, so the address/data port pair needs
 * no lock (an SMP kernel would take Linux's pci_lock around the pair).
 */
#include <kernel.h>
#include <asm/io.h>
#include <pci.h>

#define PCI_CONFIG_ADDRESS 0xCF8
#define PCI_CONFIG_DATA    0xCFC

static void pci_select(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
    outl(PCI_CONFIG_ADDRESS, 0x80000000u | bus << 16 | dev << 11 | fn << 8 | (off & 0xFC));
}

uint32_t pci_read_config32(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
    pci_select(bus, dev, fn, off);
    return inl(PCI_CONFIG_DATA);
}

void pci_write_config16(unsigned bus, unsigned dev, unsigned fn, unsigned off, uint16_t v)
{
    pci_select(bus, dev, fn, off);
    outw(PCI_CONFIG_DATA + (off & 2), v);
}

int pci_find_class(uint16_t class, uint8_t prog_mask, struct pci_loc *loc)
{
    for (unsigned dev = 0; dev < 32; dev++)
        for (unsigned fn = 0; fn < 8; fn++) {
            uint32_t id = pci_read_config32(0, dev, fn, PCI_VENDOR_ID);
            if ((id & 0xFFFF) == 0xFFFF) {
                if (fn == 0)
                    break;             /* no device here at all */
                continue;
            }
            uint32_t cls = pci_read_config32(0, dev, fn, PCI_CLASS_REVISION);
            if ((cls >> 16) == class && ((cls >> 8) & prog_mask) == prog_mask) {
                *loc = (struct pci_loc){ 0, dev, fn };
                return 0;
            }
            if (fn == 0 && !(pci_read_config32(0, dev, 0, PCI_HEADER_TYPE_DWORD) & 0x800000))
                break;                 /* not multi-function: functions 1-7 are absent */
        }
    return -1;
}
