/* fs/sys_internal.h: shared by the file system-call files (fs/sys_*.c). */
#ifndef _FS_SYS_INTERNAL_H
#define _FS_SYS_INTERNAL_H
#include <fs.h>

/* *at(): switch the cwd to the directory at dfd for a relative name. */
struct at_ctx { struct fs_struct *fs; struct path saved; };
int at_enter(int dfd, const char *name, struct at_ctx *c);
void at_leave(struct at_ctx *c);
#endif
