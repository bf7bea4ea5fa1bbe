/* include/do_mounts.h: the mounts the kernel makes and unmakes itself
 * (fs/do_mounts.c): the root filesystem at boot, power off, and the table
 * of mount-point names behind /proc/mounts. */
#ifndef _DO_MOUNTS_H
#define _DO_MOUNTS_H
struct vfsmount;

/* Boot (rest_init, before starting init): mount root= (default hda, type
 * rootfstype= or ext2; "ro" mounts it read-only) on "/", then devfs on /dev,
 * proc on /proc and ramfs on /tmp (creating the directories if missing).
 * If the root cannot be mounted: a clear message and a ramfs root instead,
 * so the kernel still reports what went wrong to a user. */
void prepare_namespace(void);
/* reboot(2) power off: sync everything, unmount what can be unmounted,
 * sync and mark read-only the root, then machine_power_off().  Process
 * context.  Never returns. */
void kernel_power_off(void) __attribute__((noreturn));
/* Mount and record the mount point's absolute name (for /proc/mounts);
 * do_mount's contract otherwise. */
int mount_recorded(const char *dev, const char *path, const char *type,
                   unsigned long flags, const char *data);
int umount_recorded(const char *path);
/* The recorded absolute mount-point name of m, or "?" (namespace_sem held). */
const char *mount_point_name(struct vfsmount *m);
#endif
