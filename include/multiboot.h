/* include/multiboot.h: the Multiboot v1 information structure that the boot
 * loader hands us in %ebx (physical address).  Only the fields we use. */
#ifndef _MULTIBOOT_H
#define _MULTIBOOT_H
#include <types.h>

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
#define MB_INFO_MEMORY    (1 << 0)
#define MB_INFO_CMDLINE   (1 << 2)
#define MB_INFO_MODS      (1 << 3)
#define MB_INFO_MEM_MAP   (1 << 6)

struct multiboot_info {
    uint32_t flags;
    uint32_t mem_lower, mem_upper;     /* KiB below 1 MiB, KiB above 1 MiB */
    uint32_t boot_device;
    uint32_t cmdline;                  /* physical address of a C string */
    uint32_t mods_count, mods_addr;
    uint32_t syms[4];
    uint32_t mmap_length, mmap_addr;   /* physical address of mmap entries */
    uint32_t drives_length, drives_addr;
    uint32_t config_table;
    uint32_t boot_loader_name;
} __attribute__((packed));

struct multiboot_mmap_entry {
    uint32_t size;                     /* of the rest of this entry */
    uint64_t addr, len;
    uint32_t type;                     /* 1 = available RAM */
} __attribute__((packed));

struct multiboot_module {
    uint32_t mod_start, mod_end, string, reserved;
} __attribute__((packed));

extern struct multiboot_info *boot_info;    /* virtual address, set by kmain */
#endif
