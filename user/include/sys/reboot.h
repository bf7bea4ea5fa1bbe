/*
 * sys/reboot.h - reboot(2). The kernel checks two magic numbers so a
 * stray call cannot power the machine off; the wrapper passes them.
 */
#ifndef _SYS_REBOOT_H
#define _SYS_REBOOT_H

#include <linux/reboot.h>       /* LINUX_REBOOT_MAGIC1.., LINUX_REBOOT_CMD_.. */

#define RB_AUTOBOOT  LINUX_REBOOT_CMD_RESTART
#define RB_HALT_SYSTEM LINUX_REBOOT_CMD_HALT
#define RB_POWER_OFF LINUX_REBOOT_CMD_POWER_OFF

int reboot(int cmd);

#endif
