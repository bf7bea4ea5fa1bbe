/* fs/internal.h: declarations shared by the VFS files (fs/ files) and their
 * tests, but not by filesystems nor by mm/ (which sees only public headers:
 * <fs.h>, <pagemap.h>, <writeback.h>).  Like Linux's fs/internal.h: nothing here is an interface
 * for ext2 or ramfs; those live in include/fs.h and include/pagemap.h.
 */
#ifndef _FS_INTERNAL_H
#define _FS_INTERNAL_H
#include <kernel.h>
#include <fs.h>
#include <pagemap.h>
#include <sched.h>
#include <writeback.h>
#include <mm.h>
#include <slab.h>
#include <timer.h>

/* ---- mounts (fs/namespace.c) ------------------------------------------ */
extern struct vfsmount *root_mnt;          /* NULL until "/" is mounted */
extern struct list_head vfsmount_list;     /* every mount */
extern struct mutex namespace_sem;         /* the mount table */
struct vfsmount *mntget(struct vfsmount *mnt);
void mntput(struct vfsmount *mnt);
/* The mount whose mountpoint is (mnt, inode), or NULL.  Caller holds namespace_sem
 * or accepts a racy answer (mounts change only under it). */
struct vfsmount *lookup_mnt(struct vfsmount *mnt, struct inode *inode);
void path_get(struct path *p);
void get_fs_root(struct path *root);       /* current task's root, referenced */
void get_fs_pwd(struct path *pwd);         /* current task's cwd, referenced */
extern struct fs_struct init_fs;            /* shared by tasks with fs == NULL */
/* Tests and benchmarks: vfs_ensure_root, mkdir dir (may exist), mount dev there. */
int vfs_mount_at(const char *dev, const char *dir, const char *fstype);

/* ---- superblocks (fs/super.c) ----------------------------------------- */
extern struct list_head super_blocks;
extern struct mutex sb_list_lock;
struct super_block *alloc_super(struct file_system_type *type);
void destroy_super(struct super_block *sb);
struct file_system_type *get_fs_type(const char *name);

/* ---- inodes (fs/inode.c) ---------------------------------------------- */
void evict_inodes(struct super_block *sb); /* unmount: evict every unused inode */
int inodes_in_use(struct super_block *sb); /* inodes with i_count > 0 */
extern spinlock_t inode_wb_lock;           /* sb->s_dirty lists, I_DIRTY* bits */

/* ---- path walking (fs/namei.c) ---------------------------------------- */
/* Resolve all but the last component of name, a relative name from *start
 * (NULL: the cwd): parent referenced (a directory), *last and *len point
 * into the kmalloc'd copy returned in *buf (caller kfree's it).  A path with
 * no last component ("/", "a/..") gives *len == 0; "." and ".." are
 * returned as such and the caller decides.  A last component longer than
 * NAME_MAX is -ENAMETOOLONG, once the parent is found. */
int path_parent(const struct path *start, const char *name, struct path *parent,
                const char **last, size_t *len, char **buf, int *trailing_slash);
/* The target of the symlink at *link, as a NUL-terminated kmalloc'd copy
 * (caller kfree's it), or ERR_PTR; an empty one is -ENOENT.  Reading it to
 * follow it touches the link's atime, as Linux. */
char *vfs_get_link(const struct path *link);
int is_dots_name(const char *name, size_t len);   /* "." or ".." */
int vfs_lookup_one(struct inode *dir, const char *name, size_t len, struct inode **res);

/* ---- writeback (fs/fs-writeback.c, mm/page-writeback.c) -------------- */
void sync_inodes_sb(struct super_block *sb);
/* fs/pipe.c: make a pipe's two files (files[0] reads, files[1] writes). */
int create_pipe_files(struct file **files, int flags);
/* fs/pipe.c: fcntl(F_GETPIPE_SZ or F_SETPIPE_SZ) on file: the capacity,
 * got or set, or -EBADF if it is not a pipe. */
long pipe_fcntl(struct file *file, unsigned int cmd, unsigned long arg);
/* fs/pipe.c: the most an unprivileged F_SETPIPE_SZ may ask for, and the
 * most a new pipe of an unprivileged task gets (/proc/sys/fs/pipe-max-size);
 * pipe_set_max_size is its write (0, -EINVAL).  pipe_user_pages_soft:
 * /proc/sys/fs/pipe-user-pages-soft, told only. */
extern unsigned int pipe_max_size;
extern unsigned long pipe_user_pages_soft;
int pipe_set_max_size(long val);
/* fs/locks.c: /proc/sys/fs/lease-break-time, in seconds */
extern int lease_break_time;

/* fs/pseudofs.c: a /proc file's text, generated at open into one page
 * (file->private_data), read from there, freed at release. */
struct snapshot { size_t len; char data[]; };
int proc_snapshot_release(struct inode *inode, struct file *file);
ssize_t proc_snapshot_read(struct file *file, struct iov_iter *to, loff_t *pos);
int proc_parse_int(const char *buf, long *val);   /* a sysctl number (fs/pseudofs.c) */
/* fs/proc_base.c: /proc/PID and /proc/self, below proc's root */
int proc_pid_lookup(struct inode *root, const char *name, size_t len, struct inode **res);
int proc_pid_readdir(struct dir_context *ctx, loff_t base);

#endif
