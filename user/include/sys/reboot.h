/*
 * sys/reboot.h - reboot(2). The kernel checks two magic numbers so a
 * stray call cannot power the machine off; the wrapper passes them.
 */
#ifndef _SYS_REBOOT_H
#define _SYS_REBOOT_H

#define LINUX_REBOOT_MAGIC1        0xfee1dead
#define LINUX_REBOOT_MAGIC2        672274793
#define LINUX_REBOOT_CMD_RESTART   0x01234567
#define LINUX_REBOOT_CMD_HALT      0xcdef0123
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedc

#define RB_AUTOBOOT  LINUX_REBOOT_CMD_RESTART
#define RB_HALT_SYSTEM LINUX_REBOOT_CMD_HALT
#define RB_POWER_OFF LINUX_REBOOT_CMD_POWER_OFF

int reboot(int cmd);

#endif
