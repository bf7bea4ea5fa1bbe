/* fs/char_dev.c: the character-device table and the memory devices
 * /dev/null (1,3) and /dev/zero (1,5).  Sits on the VFS's struct file:
 * device inodes carry i_fop = def_chr_fops, whose open hands the file to the
 * driver registered for the inode's major number (include/chrdev.h).
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <fs.h>
#include <uio.h>
#include <init.h>
#include <chrdev.h>
#include <fdtable.h>             /* fput: /dev/zero's mmap */
#include <mm.h>

static struct {
    const char *name;
    const struct file_operations *fops;
} chrdevs[MAX_CHRDEV];

int register_chrdev(unsigned int major, const char *name, const struct file_operations *fops)
{
    if (major == 0 || major >= MAX_CHRDEV || !fops)
        return -EINVAL;
    if (chrdevs[major].fops)
        return -EBUSY;
    chrdevs[major].name = name;
    chrdevs[major].fops = fops;
    return 0;
}

static int chrdev_open(struct inode *inode, struct file *file)
{
    unsigned major = MAJOR(inode->i_rdev);
    if (inode->i_rdev > 0xffff || major >= MAX_CHRDEV || !chrdevs[major].fops)
        return -ENXIO;                 /* a node for a device we do not have */
    file->f_op = chrdevs[major].fops;
    return file->f_op->open ? file->f_op->open(inode, file) : 0;
}

const struct file_operations def_chr_fops = { .open = chrdev_open };

/* A block device or a socket has no open here: Linux opens the one
 * through the block layer (Vellum's disks have no device files) and gives
 * -ENXIO for the other (no_open_fops). */
static int no_open(struct inode *inode, struct file *file) { return -ENXIO; }
static const struct file_operations no_open_fops = { .open = no_open };

void init_special_inode(struct inode *inode, unsigned int mode, dev_t rdev)
{
    inode->i_mode = mode;
    inode->i_rdev = S_ISCHR(mode) || S_ISBLK(mode) ? rdev : 0;
    if (S_ISCHR(mode))
        inode->i_fop = &def_chr_fops;
    else if (S_ISFIFO(mode))
        inode->i_fop = &pipefifo_fops;     /* fs/pipe.c */
    else
        inode->i_fop = &no_open_fops;
}

long long no_llseek(struct file *file, long long off, int whence) { return -ESPIPE; }

/* ---- /dev/null and /dev/zero ------------------------------------------- */

static ssize_t null_read(struct file *f, struct iov_iter *to, loff_t *pos) { return 0; }
static ssize_t null_write(struct file *f, struct iov_iter *from, loff_t *pos)
{
    size_t n = iov_iter_count(from);
    iov_iter_advance(from, n);         /* accepted and dropped, never touched */
    return n;
}

static ssize_t zero_read(struct file *f, struct iov_iter *to, loff_t *pos)
{
    static const char zeros[256];
    ssize_t done = 0;
    while (iov_iter_count(to)) {
        size_t want = min(iov_iter_count(to), sizeof zeros);
        size_t got = copy_to_iter(zeros, want, to);
        done += got;
        if (got < want)
            return done ? done : -EFAULT;
    }
    return done;
}

static loff_t mem_llseek(struct file *f, loff_t off, int whence) { return 0; }

static const struct file_operations null_fops = {
    .read_iter = null_read, .write_iter = null_write, .llseek = mem_llseek,
    .fop_flags = FOP_UNLOCKED_RW,      /* nothing shared */
};
/* mmap of /dev/zero: anonymous memory (Linux's mmap_zero).  A private
 * mapping is private anonymous memory, a shared one shared anonymous
 * memory (Linux: a shmem object, shmem_zero_setup); the VMA drops the file
 * (simplification: Linux's private mapping keeps /dev/zero as its file, so
 * /proc/PID/maps names it).  do_mmap already set VM_MAYWRITE by the open
 * mode: a shared mapping of a read-only /dev/zero cannot become writable. */
static int zero_mmap(struct file *file, struct vm_area_struct *vma)
{
    vma->vm_file = NULL;
    vma->vm_pgoff = 0;
    fput(file);                        /* do_mmap's reference for the VMA */
    return 0;
}

static const struct file_operations zero_fops = {
    .read_iter = zero_read, .write_iter = null_write, .llseek = mem_llseek, .mmap = zero_mmap,
    .fop_flags = FOP_UNLOCKED_RW,      /* nothing shared */
};

static int mem_open(struct inode *inode, struct file *file)
{
    switch (MINOR(inode->i_rdev)) {
    case 3: file->f_op = &null_fops; return 0;
    case 5: file->f_op = &zero_fops; return 0;
    default: return -ENXIO;
    }
}
static const struct file_operations mem_fops = { .open = mem_open };

static void chrdev_init(void)
{
    register_chrdev(MEM_MAJOR, "mem", &mem_fops);
}
fs_initcall(chrdev_init);
