/* include/chrdev.h: character devices reached through device nodes
 * (fs/char_dev.c), as Linux's register_chrdev + def_chr_fops.
 *
 *   open("/dev/null") -> inode (S_IFCHR, i_rdev = MKDEV(1,3))
 *       -> i_fop = def_chr_fops -> chrdev_open(): look up major 1 in the
 *          table, replace file->f_op with the driver's, call its ->open
 *
 * Device numbers: MKDEV(major, minor) = major << 8 | minor (both < 256),
 * the old 16-bit encoding; for such numbers it is also what glibc's
 * major()/minor() decode from st_rdev.  A node mknod made with a bigger
 * number keeps it as Linux's 32-bit encoding (its st_rdev is Linux's) and
 * opens no device.
 *
 * Devices: 1,3 /dev/null  1,5 /dev/zero  (fs/char_dev.c);
 *          5,0 /dev/tty   5,1 /dev/console (kernel/drivers/tty.c).
 */
#ifndef _CHRDEV_H
#define _CHRDEV_H
#include <types.h>

struct file_operations;
struct inode;
struct file;

#define MKDEV(ma, mi) ((dev_t)(((ma) << 8) | (mi)))
#define MAJOR(dev)    ((unsigned)((dev) >> 8) & 0xff)
#define MINOR(dev)    ((unsigned)(dev) & 0xff)
#define MAX_CHRDEV    32

#define MEM_MAJOR 1

/* Register fops for every minor of major; 0, -EINVAL (major out of range),
 * -EBUSY (taken).  The fops' ->open may look at MINOR(inode->i_rdev). */
int register_chrdev(unsigned int major, const char *name, const struct file_operations *fops);
/* For filesystems making special inodes (mknod, or read from disk): set
 * i_mode, i_rdev (devices; 0 for the others) and i_fop: def_chr_fops for a
 * character device, pipefifo_fops for a FIFO, an open that fails with
 * -ENXIO for a block device or a socket. */
void init_special_inode(struct inode *inode, unsigned int mode, dev_t rdev);
extern const struct file_operations def_chr_fops;
extern const struct file_operations pipefifo_fops;     /* fs/pipe.c */
/* llseek for devices that cannot seek: -ESPIPE (tty, pipes). */
long long no_llseek(struct file *file, long long off, int whence);
#endif
