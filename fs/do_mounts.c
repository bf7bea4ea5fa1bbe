/* fs/do_mounts.c: mounting the root filesystem at boot (root=, rootfstype=,
 * rootflags=, ro), the kernel's own mounts on /dev, /proc and /tmp, mount(2) and
 * umount2(2), and the unmount at power off.  Sits on the VFS's do_mount/
 * do_umount (fs/namespace.c), as Linux's init/do_mounts.c does.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <slab.h>
#include <sched.h>
#include <cmdline.h>
#include <fs.h>
#include <do_mounts.h>
#include <fs_syscalls.h>
#include "internal.h"
#include <asm/uaccess.h>
#include <signal.h>

/* Mount-point names, one per mount the kernel or mount(2) made. */
struct mount_name {
    struct vfsmount *mnt;
    char *path;
    struct list_head list;
};
static LIST_HEAD(mount_names);

const char *mount_point_name(struct vfsmount *m)
{
    struct mount_name *n;
    list_for_each_entry(n, &mount_names, list)
        if (n->mnt == m)
            return n->path;
    return "?";
}

/* An absolute name for path: relative ones are put after the cwd. */
static char *absolute(const char *path)
{
    char *abs = kmalloc(PATH_MAX, GFP_KERNEL);
    if (!abs)
        return NULL;
    if (path[0] == '/') {
        strlcpy(abs, path, PATH_MAX);
    } else {
        int n = vfs_getcwd(abs, PATH_MAX);
        if (n < 0) {
            kfree(abs);
            return NULL;
        }
        size_t len = strlen(abs);
        snprintf(abs + len, PATH_MAX - len, "%s%s", len > 1 ? "/" : "", path);
    }
    return abs;
}

int mount_recorded(const char *dev, const char *path, const char *type,
                   unsigned long flags, const char *data)
{
    char *abs = absolute(path);
    struct mount_name *n = kmalloc(sizeof *n, GFP_KERNEL);
    if (!abs || !n) {
        kfree(abs);
        kfree(n);
        return -ENOMEM;
    }
    int err = do_mount(dev, path, type, flags, data);
    if (err) {
        kfree(abs);
        kfree(n);
        return err;
    }
    mutex_lock(&namespace_sem);        /* the new mount is the last one */
    n->mnt = list_entry(vfsmount_list.prev, struct vfsmount, mnt_list);
    n->path = abs;
    list_add_tail(&n->list, &mount_names);
    mutex_unlock(&namespace_sem);
    return 0;
}

int umount_recorded(const char *path)
{
    struct path p;
    int err = kern_path(path, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &p);
    if (err)
        return err;
    struct vfsmount *mnt = p.mnt;
    path_put(&p);
    err = do_umount(path);
    if (err)
        return err;
    mutex_lock(&namespace_sem);
    struct mount_name *n, *tmp;
    list_for_each_entry_safe(n, tmp, &mount_names, list)
        if (n->mnt == mnt) {
            list_del(&n->list);
            kfree(n->path);
            kfree(n);
        }
    mutex_unlock(&namespace_sem);
    return 0;
}

static void mount_at(const char *dir, const char *type)
{
    int err = vfs_mkdir(dir, 0755);
    if (err && err != -EEXIST)
        printk(KERN_WARNING "VFS: cannot create %s (error %d): %s not mounted\n", dir, err, type);
    else if ((err = mount_recorded("none", dir, type, 0, NULL)))
        printk(KERN_WARNING "VFS: cannot mount %s on %s (error %d)\n", type, dir, err);
}

void prepare_namespace(void)
{
    const char *root = cmdline_get("root");
    const char *type = cmdline_get("rootfstype");
    unsigned long flags = cmdline_get("ro") ? MS_RDONLY : 0;
    /* rootflags=: the root's mount options, the data mount(2) would pass
     * (Linux's root_mount_data: "rootflags=errors=remount-ro,commit=1") */
    const char *rootflags = cmdline_get("rootflags");
    if (rootflags && !*rootflags)
        rootflags = NULL;
    if (!root || !*root)
        root = "hda";
    if (!strncmp(root, "/dev/", 5))
        root += 5;
    if (!type || !*type)
        type = "ext2";

    int err = mount_recorded(root, "/", type, flags, rootflags);
    if (err) {
        printk(KERN_EMERG "VFS: Cannot mount root fs \"%s\" (%s): error %d\n", root, type, err);
        printk(KERN_EMERG "VFS: check root= (e.g. root=hda), rootfstype= and rootflags=; "
               "attach the disk image as the first IDE disk.  Using an empty ramfs root.\n");
        err = mount_recorded("none", "/", "ramfs", 0, NULL);
        if (err) {
            printk(KERN_EMERG "VFS: no root at all (ramfs error %d)\n", err);
            return;
        }
    } else {
        /* The type actually mounted, as Linux's mount_block_root prints
         * s_type->name: ext2 asked for on a disk with a journal is ext3
         * (fs/ext2/super.c), and the line says so. */
        printk(KERN_NOTICE "VFS: Mounted root (%s filesystem)%s on device %s.\n",
               root_mnt->mnt_sb->s_type->name, flags & MS_RDONLY ? " readonly" : "", root);
    }
    mount_at("/dev", "devfs");
    mount_at("/proc", "proc");
    mount_at("/tmp", "ramfs");
}

/* Unmount every mount but the root, the most recent first (children before
 * parents); then the root is synced and marked read-only, as Linux's
 * emergency remount does. */
/* Linux's emergency remount read-only: the filesystem writes what is left
 * and marks itself clean (ext2: EXT2_VALID_FS) before the power goes. */
static void remount_ro(struct super_block *sb)
{
    int ro = MS_RDONLY;
    if (sb->s_op && sb->s_op->remount_fs && !(sb->s_flags & MS_RDONLY))
        sb->s_op->remount_fs(sb, &ro, NULL);
    sb->s_flags |= MS_RDONLY;
}

void kernel_power_off(void)
{
    emergency_sync();
    for (;;) {
        char path[PATH_MAX > 256 ? 256 : PATH_MAX];
        struct mount_name *n;
        int found = 0, on_disk = 0;
        struct super_block *msb = NULL;
        mutex_lock(&namespace_sem);
        list_for_each_entry(n, &mount_names, list)     /* the last non-root one */
            if (n->mnt != root_mnt) {
                strlcpy(path, n->path, sizeof path);
                on_disk = n->mnt->mnt_sb->s_bdev != NULL;
                msb = n->mnt->mnt_sb;
                found = 1;
            }
        mutex_unlock(&namespace_sem);
        if (!found)
            break;
        int err = umount_recorded(path);
        if (err) {
            /* Busy is normal for /dev (the shell holds the console open);
             * an in-memory filesystem has nothing to lose and is passed
             * over in silence, so only a disk that stays mounted deserves
             * a warning (it was synced above). */
            if (on_disk) {
                printk(KERN_WARNING "power off: umount %s: error %d (left mounted, synced, "
                       "read-only)\n", path, err);
                remount_ro(msb);
            }
            mutex_lock(&namespace_sem);       /* forget it so the loop ends */
            list_for_each_entry(n, &mount_names, list)
                if (!strcmp(n->path, path)) {
                    list_del(&n->list);
                    break;
                }
            mutex_unlock(&namespace_sem);
        }
    }
    if (root_mnt) {
        struct super_block *sb = root_mnt->mnt_sb;
        sync_filesystem(sb);
        remount_ro(sb);
        printk(KERN_NOTICE "power off: root (%s) synced and read-only\n", sb->s_id);
    }
    machine_power_off();
    for (;;)
        ;
}

/* ---- mount(2), umount2(2) ------------------------------------------------ */

#define MNT_FORCE  1
#define MNT_DETACH 2

static char *copy_str(const char *u, long max)
{
    if (!u)
        return NULL;
    char *k = kmalloc(max, GFP_KERNEL);
    if (!k)
        return ERR_PTR(-ENOMEM);
    long n = strncpy_from_user(k, u, max);
    if (n < 0 || n == max) {
        kfree(k);
        return ERR_PTR(n < 0 ? -EFAULT : -ENAMETOOLONG);
    }
    return k;
}

long sys_mount(const char *dev_name, const char *dir_name, const char *type,
               unsigned long flags, const void *data)
{
    char *dir = getname(dir_name);
    if (IS_ERR(dir))
        return PTR_ERR(dir);
    char *dev = copy_str(dev_name, PATH_MAX);
    char *fstype = copy_str(type, 64);
    char *opts = copy_str(data, PAGE_SIZE);   /* options: a string for our filesystems */
    long err = 0;
    if (IS_ERR(dev)) err = PTR_ERR(dev);
    else if (IS_ERR(fstype)) err = PTR_ERR(fstype);
    else if (IS_ERR(opts)) err = PTR_ERR(opts);
    else if (!fstype) err = -EINVAL;          /* remount/bind/move: not modelled */
    if (!err) {
        const char *d = dev;
        if (d && !strncmp(d, "/dev/", 5))
            d += 5;
        err = mount_recorded(d ? d : "none", dir, fstype, flags & MS_RDONLY, opts);
    }
    if (!IS_ERR(dev)) kfree(dev);
    if (!IS_ERR(fstype)) kfree(fstype);
    if (!IS_ERR(opts)) kfree(opts);
    putname(dir);
    return err;
}

long sys_umount2(const char *name, int flags)
{
    if (flags & ~(MNT_FORCE | MNT_DETACH))
        return -EINVAL;
    char *dir = getname(name);
    if (IS_ERR(dir))
        return PTR_ERR(dir);
    long err = umount_recorded(dir);
    putname(dir);
    return err;
}

