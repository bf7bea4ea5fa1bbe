/* include/fdtable.h: the per-process file-descriptor table (fs/fdtable.c),
 * as Linux's <linux/fdtable.h> and <linux/file.h>.
 *
 *   task->files --> files_struct
 *                     fd[0] --> struct file --f_inode--> inode
 *                     fd[1] --/  (dup: two fds, one file, f_count 2)
 *                     fd[2] --> struct file ...
 *                     open_fds, close_on_exec: one bit per fd
 *
 * A descriptor is an index into fd[]; the struct file behind it holds the
 * offset and the open flags, so dup'ed descriptors (and a forked child's)
 * share the offset, while close-on-exec is a property of the descriptor.
 *
 * References: every fd[] slot holds one reference on its file (f_count).
 * fget() returns the file with a reference of its own, which the caller
 * drops with fput(); so a file closed by another thread of the same table
 * while a read() runs stays alive until the read ends.  The last fput()
 * calls the file's release and frees it.  read/write and readv/writev use
 * fdget() instead, which skips that reference when no other task shares the
 * table (below).
 *
 * Simplification on purpose: the table has a fixed size (NR_OPEN) instead
 * of Linux's growable fdtable, and one spinlock instead of RCU.
 */
#ifndef _FDTABLE_H
#define _FDTABLE_H
#include <kernel.h>
#include <spinlock.h>
#include <linux/fcntl.h>               /* FD_CLOEXEC: fcntl(F_GETFD/F_SETFD)'s flag */

struct file;
struct task_struct;

#define NR_OPEN       256              /* descriptors per process (EMFILE past it) */
#define FD_WORDS      (NR_OPEN / 32)

struct files_struct {
    int count;                         /* tasks using this table (CLONE_FILES) */
    spinlock_t file_lock;              /* fd[], the bitmaps, next_fd */
    int next_fd;                       /* no free fd below this one */
    uint32_t open_fds[FD_WORDS];       /* slot taken (also while reserved by
                                          get_unused_fd before fd_install) */
    uint32_t close_on_exec[FD_WORDS];  /* FD_CLOEXEC per descriptor */
    struct file *fd[NR_OPEN];          /* NULL while free or only reserved */
};

/* ---- the table itself ---------------------------------------------------
 * files_alloc()     an empty table, count 1; NULL on -ENOMEM
 * dup_files(old)    fork: a copy sharing every open file (get_file on each),
 *                   with the same close-on-exec bits; NULL on -ENOMEM
 * put_files(files)  drop a user; the last one closes every descriptor
 * do_close_on_exec(files)  exec: close every descriptor marked FD_CLOEXEC */
struct files_struct *files_alloc(void);
struct files_struct *dup_files(struct files_struct *old);
void put_files(struct files_struct *files);
void do_close_on_exec(struct files_struct *files);

/* ---- descriptors of current->files (the system-call layer) -------------
 * nofile_limit()    current's RLIMIT_NOFILE soft limit, at most NR_OPEN:
 *                   no descriptor at or past it is handed out
 * get_unused_fd_flags(flags)  reserve the lowest free descriptor (O_CLOEXEC
 *                   in flags sets its close-on-exec bit); -EMFILE if none
 *                   below nofile_limit(), -EBADF if the task has no table
 * put_unused_fd(fd) give back a reservation that was never installed
 * fd_install(fd, file)  publish file at a reserved fd; consumes the caller's
 *                   reference (the table now holds it)
 * fget(fd)          the file at fd with a new reference, or NULL (EBADF)
 * fput(file)        drop a reference; the last closes the file
 * close_fd(fd)      close(2): 0 or -EBADF
 * f_dupfd(from, file, flags)  lowest free fd >= from pointing at file
 *                   (takes its own reference); -EMFILE, or -EINVAL when
 *                   from >= nofile_limit()
 * do_dup2(oldfd, newfd, flags)  dup2/dup3: close newfd if open, then make it
 *                   refer to oldfd's file; returns newfd, or -EBADF (oldfd
 *                   not open, newfd >= nofile_limit())
 * set_close_on_exec(fd, on) / get_close_on_exec(fd) */
unsigned int nofile_limit(void);
int get_unused_fd_flags(unsigned int flags);
void put_unused_fd(unsigned int fd);
void fd_install(unsigned int fd, struct file *file);
struct file *fget(unsigned int fd);
struct file *fget_raw(unsigned int fd);     /* O_PATH descriptors too */
void fput(struct file *file);

/* fdget(fd) / fdput(f): the file at fd for the length of one system call
 * (Linux's struct fd).  A table that only this task uses (files->count == 1:
 * Vellum has no CLONE_FILES) cannot lose the fd while the call runs, so no
 * reference is taken and f.flags has no FDPUT_FPUT (Linux's "light" fdget);
 * a shared table gets fget's reference, and fdput drops it.  f.file is NULL
 * for a bad fd (EBADF). */
struct fd {
    struct file *file;
    unsigned flags;                    /* FDPUT_FPUT: fdput must fput */
};
#define FDPUT_FPUT 1
struct fd fdget(unsigned int fd);
static inline void fdput(struct fd f)
{
    if (f.flags & FDPUT_FPUT)
        fput(f.file);
}
int close_fd(unsigned int fd);
int f_dupfd(unsigned int from, struct file *file, unsigned int flags);
int do_dup2(unsigned int oldfd, unsigned int newfd, unsigned int flags);
void set_close_on_exec(unsigned int fd, int on);
int get_close_on_exec(unsigned int fd);

/* The same operations on an explicit table (tests; exec on another task). */
int __alloc_fd(struct files_struct *files, unsigned int start, unsigned int end,
               unsigned int flags);
void __fd_install(struct files_struct *files, unsigned int fd, struct file *file);
struct file *__fget(struct files_struct *files, unsigned int fd);
int __close_fd(struct files_struct *files, unsigned int fd);
int files_open_count(struct files_struct *files);   /* descriptors in use */
#endif
