/*
 * syscalls.c - thin C wrappers around the Linux i386 system calls.
 *
 * Every wrapper does the same three things:
 *   1. cast its arguments to long (one register each),
 *   2. call __syscall6 (syscall.S) with the call's number,
 *   3. pass the raw result through sys_ret(), which turns -errno into
 *      errno + (-1), the POSIX convention.
 *
 * 64-bit file offsets do not fit in one register: on i386 Linux takes
 * them as two consecutive registers, low half first (pread64, pwrite64,
 * truncate64, ftruncate64), except _llseek which takes (high, low) and
 * writes the 64-bit result through a pointer.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Raw results in [-4095, -1] are errors; anything else is a value. */
static long sys_ret(long r)
{
	if ((unsigned long)r >= (unsigned long)-MAX_ERRNO) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

#define SC0(nr)                  __syscall6(nr, 0, 0, 0, 0, 0, 0)
#define SC1(nr, a)               __syscall6(nr, (long)(a), 0, 0, 0, 0, 0)
#define SC2(nr, a, b)            __syscall6(nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define SC3(nr, a, b, c)         __syscall6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define SC4(nr, a, b, c, d)      __syscall6(nr, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define SC5(nr, a, b, c, d, e)   __syscall6(nr, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

/* Split a 64-bit value into the two 32-bit registers i386 uses. */
#define LO32(x) ((long)(unsigned long)((unsigned long long)(x) & 0xffffffffu))
#define HI32(x) ((long)(unsigned long)((unsigned long long)(x) >> 32))

long syscall(long nr, ...)
{
	va_list ap;
	long a[6];

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return sys_ret(__syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]));
}

/* ---- file I/O ---------------------------------------------------------- */

ssize_t read(int fd, void *buf, size_t count)
{
	return sys_ret(SC3(__NR_read, fd, buf, count));
}

ssize_t write(int fd, const void *buf, size_t count)
{
	return sys_ret(SC3(__NR_write, fd, buf, count));
}

ssize_t readv(int fd, const struct iovec *iov, int iovcnt)
{
	return sys_ret(SC3(__NR_readv, fd, iov, iovcnt));
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt)
{
	return sys_ret(SC3(__NR_writev, fd, iov, iovcnt));
}

ssize_t preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset)
{
	return sys_ret(SC5(__NR_preadv, fd, iov, iovcnt, LO32(offset), HI32(offset)));
}

ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset)
{
	return sys_ret(SC5(__NR_pwritev, fd, iov, iovcnt, LO32(offset), HI32(offset)));
}

ssize_t preadv2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags)
{
	return sys_ret(__syscall6(__NR_preadv2, fd, (long)iov, iovcnt, LO32(offset), HI32(offset), flags));
}

ssize_t pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags)
{
	return sys_ret(__syscall6(__NR_pwritev2, fd, (long)iov, iovcnt, LO32(offset), HI32(offset), flags));
}

ssize_t pread64(int fd, void *buf, size_t count, off_t offset)
{
	return sys_ret(SC5(__NR_pread64, fd, buf, count, LO32(offset), HI32(offset)));
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset)
{
	return sys_ret(SC5(__NR_pwrite64, fd, buf, count, LO32(offset), HI32(offset)));
}

ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	return pread64(fd, buf, count, offset);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
	return pwrite64(fd, buf, count, offset);
}

/*
 * open, openat, fcntl and ioctl take one optional argument, hence their
 * "...": optional_arg(last, type), inside such a function, reads it (the
 * argument after `last`).
 */
#define optional_arg(last, type) ({				\
	va_list ap;						\
	va_start(ap, last);					\
	type arg_ = va_arg(ap, type);				\
	va_end(ap);						\
	arg_; })

/*
 * open's mode exists only with O_CREAT.  Like glibc we add O_LARGEFILE:
 * our off_t is 64-bit everywhere.
 */
int open(const char *path, int flags, ...)
{
	mode_t mode = flags & O_CREAT ? optional_arg(flags, mode_t) : 0;

	return sys_ret(SC3(__NR_open, path, flags | O_LARGEFILE, mode));
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = flags & O_CREAT ? optional_arg(flags, mode_t) : 0;

	return sys_ret(SC4(__NR_openat, dirfd, path, flags | O_LARGEFILE, mode));
}

int creat(const char *path, mode_t mode)
{
	return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

int close(int fd)
{
	return sys_ret(SC1(__NR_close, fd));
}

int _llseek(int fd, unsigned long hi, unsigned long lo, loff_t *result, int whence)
{
	return sys_ret(SC5(__NR__llseek, fd, hi, lo, result, whence));
}

/* lseek with a 64-bit offset goes through _llseek. */
off_t lseek(int fd, off_t offset, int whence)
{
	loff_t result;

	if (_llseek(fd, HI32(offset), LO32(offset), &result, whence) < 0)
		return -1;
	return result;
}

int dup(int fd)
{
	return sys_ret(SC1(__NR_dup, fd));
}

int dup2(int oldfd, int newfd)
{
	return sys_ret(SC2(__NR_dup2, oldfd, newfd));
}

int pipe(int fds[2])
{
	return sys_ret(SC1(__NR_pipe, fds));
}

int fcntl(int fd, int cmd, ...)
{
	return sys_ret(SC3(__NR_fcntl, fd, cmd, optional_arg(cmd, long)));
}

int ioctl(int fd, unsigned long request, ...)
{
	return sys_ret(SC3(__NR_ioctl, fd, request, optional_arg(request, long)));
}

int fsync(int fd)
{
	return sys_ret(SC1(__NR_fsync, fd));
}

int fdatasync(int fd)
{
	return sys_ret(SC1(__NR_fdatasync, fd));
}

void sync(void)
{
	SC0(__NR_sync);
}

int ftruncate(int fd, off_t length)
{
	return sys_ret(SC3(__NR_ftruncate64, fd, LO32(length), HI32(length)));
}

int truncate(const char *path, off_t length)
{
	return sys_ret(SC3(__NR_truncate64, path, LO32(length), HI32(length)));
}

int statfs(const char *path, struct statfs *buf)
{
	return sys_ret(SC2(__NR_statfs, path, buf));
}

int fstatfs(int fd, struct statfs *buf)
{
	return sys_ret(SC2(__NR_fstatfs, fd, buf));
}

int statfs64(const char *path, struct statfs64 *buf)
{
	return sys_ret(SC3(__NR_statfs64, path, sizeof *buf, buf));
}

int fstatfs64(int fd, struct statfs64 *buf)
{
	return sys_ret(SC3(__NR_fstatfs64, fd, sizeof *buf, buf));
}

/* utimensat(320): the classic 32-bit-time_t form, as our struct timespec. */
int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags)
{
	return sys_ret(SC4(__NR_utimensat, dirfd, path, times, flags));
}

int futimens(int fd, const struct timespec times[2])
{
	return utimensat(fd, NULL, times, 0);
}

int chmod(const char *path, mode_t mode)
{
	return sys_ret(SC2(__NR_chmod, path, mode));
}

int fchmod(int fd, mode_t mode)
{
	return sys_ret(SC2(__NR_fchmod, fd, mode));
}

/* The *32 calls: uid_t is 32 bits (the plain numbers are the 16-bit ones). */
int chown(const char *path, uid_t owner, gid_t group)
{
	return sys_ret(SC3(__NR_chown32, path, owner, group));
}

int lchown(const char *path, uid_t owner, gid_t group)
{
	return sys_ret(SC3(__NR_lchown32, path, owner, group));
}

/* ---- names in the file system ----------------------------------------- */

int stat(const char *path, struct stat *st)
{
	return sys_ret(SC2(__NR_stat64, path, st));
}

int lstat(const char *path, struct stat *st)
{
	return sys_ret(SC2(__NR_lstat64, path, st));
}

int fstat(int fd, struct stat *st)
{
	return sys_ret(SC2(__NR_fstat64, fd, st));
}

int getdents64(int fd, void *buf, unsigned int count)
{
	return sys_ret(SC3(__NR_getdents64, fd, buf, count));
}

int mkdir(const char *path, mode_t mode)
{
	return sys_ret(SC2(__NR_mkdir, path, mode));
}

int rmdir(const char *path)
{
	return sys_ret(SC1(__NR_rmdir, path));
}

int unlink(const char *path)
{
	return sys_ret(SC1(__NR_unlink, path));
}

int rename(const char *oldpath, const char *newpath)
{
	return sys_ret(SC2(__NR_rename, oldpath, newpath));
}

int link(const char *oldpath, const char *newpath)
{
	return sys_ret(SC2(__NR_link, oldpath, newpath));
}

int symlink(const char *target, const char *linkpath)
{
	return sys_ret(SC2(__NR_symlink, target, linkpath));
}

ssize_t readlink(const char *path, char *buf, size_t size)
{
	return sys_ret(SC3(__NR_readlink, path, buf, size));
}

int chdir(const char *path)
{
	return sys_ret(SC1(__NR_chdir, path));
}

/* The system call returns the length; the C function returns buf. */
char *getcwd(char *buf, size_t size)
{
	if (sys_ret(SC2(__NR_getcwd, buf, size)) < 0)
		return NULL;
	return buf;
}

/* ---- memory ------------------------------------------------------------ */

/*
 * brk(2) as the kernel has it never fails with -errno: it returns the new
 * break, or the old one when it could not move. Asking for 0 reads it.
 */
static unsigned long current_brk;

int brk(void *addr)
{
	unsigned long r = (unsigned long)SC1(__NR_brk, addr);

	current_brk = r;
	if (r < (unsigned long)addr) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void *sbrk(int increment)
{
	unsigned long old;

	if (current_brk == 0)
		current_brk = (unsigned long)SC1(__NR_brk, 0);
	old = current_brk;
	if (increment == 0)
		return (void *)old;
	if (brk((void *)(old + increment)) < 0)
		return (void *)-1;
	return (void *)old;
}

/* mmap2's offset is in 4096-byte pages. */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	if (offset & 4095) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	return (void *)sys_ret(__syscall6(__NR_mmap2, (long)addr, (long)len, prot,
					  flags, fd, (long)(offset >> 12)));
}

int munmap(void *addr, size_t len)
{
	return sys_ret(SC2(__NR_munmap, addr, len));
}

int mprotect(void *addr, size_t len, int prot)
{
	return sys_ret(SC3(__NR_mprotect, addr, len, prot));
}

int msync(void *addr, size_t len, int flags)
{
	return sys_ret(SC3(__NR_msync, addr, len, flags));
}

int cachestat(unsigned int fd, struct cachestat_range *range, struct cachestat *cstat,
	      unsigned int flags)
{
	return sys_ret(SC4(__NR_cachestat, fd, range, cstat, flags));
}

/* ---- processes --------------------------------------------------------- */

pid_t getpid(void)
{
	return SC0(__NR_getpid);
}

pid_t getppid(void)
{
	return SC0(__NR_getppid);
}

uid_t getuid(void)  { return SC0(__NR_getuid32); }
uid_t geteuid(void) { return SC0(__NR_geteuid32); }
gid_t getgid(void)  { return SC0(__NR_getgid32); }
gid_t getegid(void) { return SC0(__NR_getegid32); }

int setuid(uid_t uid)
{
	return sys_ret(SC1(__NR_setuid32, uid));
}

int setgid(gid_t gid)
{
	return sys_ret(SC1(__NR_setgid32, gid));
}

int getgroups(int size, gid_t list[])
{
	return sys_ret(SC2(__NR_getgroups32, size, list));
}

int setgroups(int size, const gid_t *list)
{
	return sys_ret(SC2(__NR_setgroups32, size, list));
}

pid_t fork(void)
{
	return sys_ret(SC0(__NR_fork));
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	return sys_ret(SC3(__NR_execve, path, argv, envp));
}

pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
	return sys_ret(SC4(__NR_wait4, pid, status, options, ru));
}

pid_t waitpid(pid_t pid, int *status, int options)
{
	return wait4(pid, status, options, NULL);
}

pid_t wait(int *status)
{
	return wait4(-1, status, 0, NULL);
}

/* exit_group ends every thread of the process (we only ever have one). */
void _exit(int status)
{
	for (;;)
		SC1(__NR_exit_group, status);
}

void _Exit(int status)
{
	_exit(status);
}

int kill(pid_t pid, int sig)
{
	return sys_ret(SC2(__NR_kill, pid, sig));
}

int setpgid(pid_t pid, pid_t pgid)
{
	return sys_ret(SC2(__NR_setpgid, pid, pgid));
}

pid_t getpgrp(void)
{
	return sys_ret(SC0(__NR_getpgrp));
}

pid_t setsid(void)
{
	return sys_ret(SC0(__NR_setsid));
}

/* The kernel-level sigaction: sigsetsize must be 8 (64 signals). */
int __rt_sigaction(int sig, const struct sigaction *act, struct sigaction *old);
int __rt_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	return sys_ret(SC4(__NR_rt_sigaction, sig, act, old, sizeof(sigset_t)));
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	return sys_ret(SC4(__NR_rt_sigprocmask, how, set, old, sizeof(sigset_t)));
}

/* ---- time -------------------------------------------------------------- */

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return sys_ret(SC2(__NR_nanosleep, req, rem));
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	return sys_ret(SC2(__NR_clock_gettime, clk, ts));
}

int gettimeofday(struct timeval *tv, struct timezone *tz)
{
	return sys_ret(SC2(__NR_gettimeofday, tv, tz));
}

/* ---- system ------------------------------------------------------------ */

int uname(struct utsname *buf)
{
	return sys_ret(SC1(__NR_uname, buf));
}

int reboot(int cmd)
{
	return sys_ret(SC4(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2, cmd, 0));
}

int mount(const char *source, const char *target, const char *fstype,
	  unsigned long flags, const void *data)
{
	return sys_ret(SC5(__NR_mount, source, target, fstype, flags, data));
}

int umount2(const char *target, int flags)
{
	return sys_ret(SC2(__NR_umount2, target, flags));
}

int umount(const char *target)
{
	return umount2(target, 0);
}

int klogctl(int type, char *buf, int len)
{
	return sys_ret(SC3(__NR_syslog, type, buf, len));
}
