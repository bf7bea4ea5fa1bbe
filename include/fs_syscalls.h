/* include/fs_syscalls.h: the file system calls (fs/sys_*.c, fs/pipe.c,
 * kernel/syslog.c), Linux i386 semantics.  Each returns a value >= 0 or a
 * negative errno; every user pointer goes through copy_from_user /
 * copy_to_user / strncpy_from_user, and a bad one gives -EFAULT with nothing
 * changed (no file contents, offsets, descriptors or directory entries).
 * The table in kernel/syscall.c (proc) lists them by __NR_* number. */
#ifndef _FS_SYSCALLS_H
#define _FS_SYSCALLS_H
#include <types.h>

struct iovec;
#include <linux/fcntl.h>               /* AT_FDCWD, AT_REMOVEDIR... */

/* fs/read_write.c */
long sys_read(unsigned int fd, char *buf, size_t count);
long sys_write(unsigned int fd, const char *buf, size_t count);
long sys_readv(unsigned int fd, const struct iovec *vec, unsigned long vlen);
long sys_writev(unsigned int fd, const struct iovec *vec, unsigned long vlen);
long sys_preadv(unsigned int fd, const struct iovec *vec, unsigned long vlen,
                unsigned long pos_lo, unsigned long pos_hi);
long sys_pwritev(unsigned int fd, const struct iovec *vec, unsigned long vlen,
                 unsigned long pos_lo, unsigned long pos_hi);
long sys_preadv2(unsigned int fd, const struct iovec *vec, unsigned long vlen,
                 unsigned long pos_lo, unsigned long pos_hi, int flags);
long sys_pwritev2(unsigned int fd, const struct iovec *vec, unsigned long vlen,
                  unsigned long pos_lo, unsigned long pos_hi, int flags);
long sys_pread64(unsigned int fd, char *buf, size_t count, unsigned long pos_lo, unsigned long pos_hi);
long sys_pwrite64(unsigned int fd, const char *buf, size_t count, unsigned long pos_lo, unsigned long pos_hi);
long sys_lseek(unsigned int fd, long offset, unsigned int whence);
long sys_llseek(unsigned int fd, unsigned long offset_high, unsigned long offset_low,
                loff_t *result, unsigned int whence);   /* __NR__llseek */
/* fs/sys_open.c */
long sys_open(const char *filename, int flags, mode_t mode);
long sys_openat(int dfd, const char *filename, int flags, mode_t mode);
long sys_creat(const char *filename, mode_t mode);
long sys_close(unsigned int fd);
long sys_dup(unsigned int fildes);
long sys_dup2(unsigned int oldfd, unsigned int newfd);
long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags);
long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg);
long sys_fcntl64(unsigned int fd, unsigned int cmd, unsigned long arg);
long sys_flock(unsigned int fd, unsigned int cmd);
long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg);
/* fs/sys_stat.c */
long sys_stat64(const char *filename, void *statbuf);
long sys_lstat64(const char *filename, void *statbuf);
long sys_fstat64(unsigned long fd, void *statbuf);
long sys_newstat(const char *filename, void *statbuf);      /* __NR_stat: struct stat */
long sys_newlstat(const char *filename, void *statbuf);     /* __NR_lstat */
long sys_newfstat(unsigned int fd, void *statbuf);          /* __NR_fstat */
long sys_fstatat64(int dfd, const char *filename, void *statbuf, int flag);
long sys_statx(int dfd, const char *filename, unsigned flags, unsigned int mask, void *buffer);
long sys_getdents64(unsigned int fd, void *dirent, unsigned int count);
long sys_access(const char *filename, int mode);
long sys_faccessat(int dfd, const char *filename, int mode);
long sys_faccessat2(int dfd, const char *filename, int mode, int flags);
/* fs/sys_namei.c */
long sys_mkdir(const char *pathname, mode_t mode);
long sys_mkdirat(int dfd, const char *pathname, mode_t mode);
long sys_mknod(const char *pathname, mode_t mode, unsigned dev);
long sys_mknodat(int dfd, const char *pathname, mode_t mode, unsigned dev);
long sys_rmdir(const char *pathname);
long sys_unlink(const char *pathname);
long sys_unlinkat(int dfd, const char *pathname, int flag);
long sys_rename(const char *oldname, const char *newname);
long sys_renameat(int olddfd, const char *oldname, int newdfd, const char *newname);
long sys_renameat2(int olddfd, const char *oldname, int newdfd, const char *newname,
                   unsigned int flags);
long sys_linkat(int olddfd, const char *oldname, int newdfd, const char *newname, int flags);
long sys_symlinkat(const char *oldname, int newdfd, const char *newname);
long sys_fgetxattr(int fd, const char *name, void *value, size_t size);
long sys_openat2(int dfd, const char *filename, const void *how, size_t size);
long sys_link(const char *oldname, const char *newname);
long sys_symlink(const char *oldname, const char *newname);
long sys_readlink(const char *path, char *buf, int bufsiz);
long sys_readlinkat(int dfd, const char *path, char *buf, int bufsiz);
long sys_chdir(const char *filename);
long sys_fchdir(unsigned int fd);
long sys_getcwd(char *buf, unsigned long size);
struct statfs;
struct statfs64;
long sys_statfs(const char *path, struct statfs *buf);
long sys_fstatfs(unsigned int fd, struct statfs *buf);
long sys_statfs64(const char *path, size_t sz, struct statfs64 *buf);
long sys_fstatfs64(unsigned int fd, size_t sz, struct statfs64 *buf);
long sys_utimensat(int dfd, const char *path, const void *utimes, int flags);
long sys_utimensat_time64(int dfd, const char *path, const void *utimes, int flags);
/* fs/attr.c: modes and owners (the 16-bit calls take old_uid_t arguments
 * in 32-bit registers) */
long sys_chmod(const char *filename, mode_t mode);
long sys_fchmod(unsigned int fd, mode_t mode);
long sys_fchmodat(int dfd, const char *filename, mode_t mode);
long sys_chown(const char *filename, uid_t user, gid_t group);
long sys_lchown(const char *filename, uid_t user, gid_t group);
long sys_fchown(unsigned int fd, uid_t user, gid_t group);
long sys_fchownat(int dfd, const char *filename, uid_t user, gid_t group, int flag);
long sys_chown16(const char *filename, unsigned long user, unsigned long group);
long sys_lchown16(const char *filename, unsigned long user, unsigned long group);
long sys_fchown16(unsigned int fd, unsigned long user, unsigned long group);
long sys_truncate(const char *path, long length);
long sys_ftruncate(unsigned int fd, unsigned long length);
long sys_truncate64(const char *path, unsigned long len_lo, unsigned long len_hi);
long sys_ftruncate64(unsigned int fd, unsigned long len_lo, unsigned long len_hi);
long sys_fallocate(int fd, int mode, unsigned long off_lo, unsigned long off_hi,
                   unsigned long len_lo, unsigned long len_hi);
long sys_fsync(unsigned int fd);
long sys_fdatasync(unsigned int fd);
long sys_sync(void);
long sys_mount(const char *dev_name, const char *dir_name, const char *type,
               unsigned long flags, const void *data);
long sys_umount2(const char *name, int flags);
/* fs/pipe.c */
long sys_pipe(int *fildes);
long sys_pipe2(int *fildes, int flags);
/* kernel/syslog.c */
long sys_syslog(int type, char *buf, int len);
/* fs/select.c */
struct pollfd;
long sys_poll(struct pollfd *ufds, unsigned int nfds, int timeout_ms);
struct sel_arg_struct;
long sys_select(int n, unsigned long *inp, unsigned long *outp, unsigned long *exp, void *tvp);
long sys_old_select(struct sel_arg_struct *arg);
long sys_pselect6(int n, unsigned long *inp, unsigned long *outp, unsigned long *exp,
                  void *tsp, const unsigned long *sig);
long sys_pselect6_time64(int n, unsigned long *inp, unsigned long *outp, unsigned long *exp,
                         void *tsp, const unsigned long *sig);
/* fs/read_write.c: sendfile */
long sys_sendfile(int out_fd, int in_fd, long *offset, size_t count);
long sys_sendfile64(int out_fd, int in_fd, loff_t *offset, size_t count);

/* Helpers for other system calls (exec's filename, ...). */
char *getname(const char *filename);     /* kmalloc'd copy or ERR_PTR: -EFAULT,
                                            -ENAMETOOLONG, -ENOENT (empty) */
void putname(char *name);
struct file;
long getdents64_kernel(struct file *f, void *kbuf, size_t size);   /* tests */
#endif
