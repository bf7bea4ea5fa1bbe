/* include/uapi/linux/wait.h: wait4(2)/waitpid(2)/waitid(2)'s options and
 * waitid's idtypes, Linux values.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md):
 * kernel/exit.c implements them, user/include/sys/wait.h offers them. */
#ifndef _UAPI_LINUX_WAIT_H
#define _UAPI_LINUX_WAIT_H

#define WNOHANG    0x00000001          /* do not sleep: 0 if no child changed state */
#define WUNTRACED  0x00000002          /* also report children that stopped */
#define WCONTINUED 0x00000008          /* also report children SIGCONT resumed */
#define WSTOPPED   WUNTRACED           /* waitid's name for it */
#define WEXITED    0x00000004          /* waitid: report children that ended */
#define WNOWAIT    0x01000000          /* waitid: report, leave the child waitable */
#define __WNOTHREAD 0x20000000         /* only our own children (ignored: they are the group's) */
#define __WALL     0x40000000          /* any child (no threads here: ignored) */
#define __WCLONE   0x80000000          /* "clone" children (ignored, accepted as Linux) */

/* waitid's idtype */
#define P_ALL      0                   /* any child */
#define P_PID      1                   /* the child whose pid is id */
#define P_PGID     2                   /* any child in process group id */

#endif
