/* fs/sys_internal.h: shared by the file system-call files (fs/sys_*.c). */
#ifndef _FS_SYS_INTERNAL_H
#define _FS_SYS_INTERNAL_H
#include <fs.h>

/* *at(): switch the cwd to the directory at dfd for a relative name. */
struct at_ctx { struct fs_struct *fs; struct path saved; };
int at_enter(int dfd, const char *name, struct at_ctx *c);
void at_leave(struct at_ctx *c);
/* Linux's user_path_at: the path a user-space name names, relative to dfd
 * (at_enter), looked up with flags (LOOKUP_FOLLOW or 0); the caller
 * path_put()s it.  0 or the error (-EFAULT, -ENOENT, -EBADF...). */
int user_path_at(int dfd, const char *upath, unsigned int flags, struct path *path);
#endif
