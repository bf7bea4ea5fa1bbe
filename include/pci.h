/* include/pci.h: PCI configuration space, bus 0 only (kernel/drivers/pci.c).
 *
 *   pci_read_config32(bus, dev, fn, off)      the dword at off (rounded down to 4)
 *   pci_write_config16(bus, dev, fn, off, v)  the word at off (2-aligned)
 *   pci_find_class(class, prog_mask, &loc)    the first function on bus 0 whose
 *       class/subclass is class (e.g. 0x0101, IDE) and whose programming
 *       interface has every bit of prog_mask: 0 and *loc, or -1 if none
 * Offsets: Linux's names (include/uapi/linux/pci_regs.h). */
#ifndef VELLUM_PCI_H
#define VELLUM_PCI_H
#include <stdint.h>

#define PCI_VENDOR_ID          0x00    /* vendor (low 16), device (high 16) */
#define PCI_COMMAND            0x04    /* 16 bit */
#define   PCI_COMMAND_IO       0x01
#define   PCI_COMMAND_MASTER   0x04
#define PCI_CLASS_REVISION     0x08    /* class (31-24), subclass, prog-if (15-8), revision */
#define PCI_HEADER_TYPE_DWORD  0x0C    /* header type in bits 23-16; bit 23: multi-function */
#define PCI_BASE_ADDRESS_4     0x20
#define PCI_CLASS_STORAGE_IDE  0x0101

struct pci_loc { unsigned bus, dev, fn; };

uint32_t pci_read_config32(unsigned bus, unsigned dev, unsigned fn, unsigned off);
void pci_write_config16(unsigned bus, unsigned dev, unsigned fn, unsigned off, uint16_t v);
int pci_find_class(uint16_t class, uint8_t prog_mask, struct pci_loc *loc);
#endif
