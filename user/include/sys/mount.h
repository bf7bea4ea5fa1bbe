/* sys/mount.h - mount(2) and umount2(2). */
#ifndef _SYS_MOUNT_H
#define _SYS_MOUNT_H

#define MS_RDONLY 1
#define MNT_FORCE  1
#define MNT_DETACH 2

int mount(const char *source, const char *target, const char *fstype,
          unsigned long flags, const void *data);
int umount(const char *target);
int umount2(const char *target, int flags);

#endif
