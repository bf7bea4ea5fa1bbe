/*
 * unistd.h - the POSIX system-call interface (wrappers in libc/syscalls.c).
 */
#ifndef _UNISTD_H
#define _UNISTD_H

#include <sys/types.h>

#define STDIN_FILENO  0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

#include <linux/fs.h>           /* SEEK_SET, SEEK_CUR, SEEK_END */

#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4

ssize_t read(int fd, void *buf, size_t count);
ssize_t write(int fd, const void *buf, size_t count);
ssize_t pread(int fd, void *buf, size_t count, off_t offset);
ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset);
ssize_t pread64(int fd, void *buf, size_t count, off_t offset);
ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset);
int     close(int fd);
off_t   lseek(int fd, off_t offset, int whence);
int     _llseek(int fd, unsigned long hi, unsigned long lo, loff_t *result, int whence);
int     dup(int fd);
int     dup2(int oldfd, int newfd);
int     pipe(int fds[2]);

int     unlink(const char *path);
int     rmdir(const char *path);
int     link(const char *oldpath, const char *newpath);
int     symlink(const char *target, const char *linkpath);
ssize_t readlink(const char *path, char *buf, size_t size);
int     chdir(const char *path);
char   *getcwd(char *buf, size_t size);
int     access(const char *path, int mode);
int     truncate(const char *path, off_t length);
int     ftruncate(int fd, off_t length);
int     fsync(int fd);
int     fdatasync(int fd);
void    sync(void);

int     brk(void *addr);
void   *sbrk(int increment);

uid_t   getuid(void);             /* real and effective user and group ids */
uid_t   geteuid(void);
gid_t   getgid(void);
gid_t   getegid(void);
int     setuid(uid_t uid);
int     setgid(gid_t gid);
int     getgroups(int size, gid_t list[]);
int     setgroups(int size, const gid_t *list);   /* glibc: <grp.h> */
int     chown(const char *path, uid_t owner, gid_t group);
int     lchown(const char *path, uid_t owner, gid_t group);

pid_t   getpid(void);
pid_t   getppid(void);
pid_t   fork(void);
int     execve(const char *path, char *const argv[], char *const envp[]);
int     execv(const char *path, char *const argv[]);
int     execvp(const char *file, char *const argv[]);
void    _exit(int status) __attribute__((noreturn));
int     setpgid(pid_t pid, pid_t pgid);
pid_t   getpgrp(void);
pid_t   setsid(void);
int     isatty(int fd);

unsigned int sleep(unsigned int seconds);
int          usleep(unsigned int usec);

/* getopt: the classic single-letter option parser. */
extern char *optarg;
extern int optind, opterr, optopt;
int getopt(int argc, char *const argv[], const char *optstring);

#endif
