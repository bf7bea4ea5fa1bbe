/* include/uapi/linux/wait.h: wait4(2)/waitpid(2)'s options, Linux values.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md):
 * kernel/exit.c implements them, user/include/sys/wait.h offers them. */
#ifndef _UAPI_LINUX_WAIT_H
#define _UAPI_LINUX_WAIT_H

#define WNOHANG    0x00000001          /* do not sleep: 0 if no child changed state */
#define WUNTRACED  0x00000002          /* also report children that stopped */
#define WCONTINUED 0x00000008          /* also report children SIGCONT resumed */
#define __WALL     0x40000000          /* any child (no threads here: ignored) */

#endif
