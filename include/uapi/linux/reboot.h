/* include/uapi/linux/reboot.h: reboot(2)'s magic numbers and commands,
 * Linux values.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md):
 * kernel/sys.c checks them, user/include/sys/reboot.h offers them. */
#ifndef _UAPI_LINUX_REBOOT_H
#define _UAPI_LINUX_REBOOT_H

#define LINUX_REBOOT_MAGIC1        0xfee1dead
#define LINUX_REBOOT_MAGIC2        672274793   /* Linus's birthday; 2A..2C his daughters' */
#define LINUX_REBOOT_MAGIC2A       85072278
#define LINUX_REBOOT_MAGIC2B       369367448
#define LINUX_REBOOT_MAGIC2C       537993216

#define LINUX_REBOOT_CMD_RESTART   0x01234567
#define LINUX_REBOOT_CMD_HALT      0xCDEF0123
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321FEDC
#define LINUX_REBOOT_CMD_CAD_ON    0x89ABCDEF
#define LINUX_REBOOT_CMD_CAD_OFF   0x00000000

#endif
