/* include/poll.h: poll(2)'s event bits and struct pollfd, Linux i386's
 * (asm-generic/poll.h).  fs/select.c implements the system call; files
 * answer through file_operations.poll (include/fs.h). */
#ifndef _POLL_H
#define _POLL_H

#define POLLIN     0x0001              /* data to read (or end of file) */
#define POLLPRI    0x0002
#define POLLOUT    0x0004              /* a write would not block */
#define POLLERR    0x0008              /* error (a pipe with no reader) */
#define POLLHUP    0x0010              /* hung up (a pipe with no writer) */
#define POLLNVAL   0x0020              /* fd not open */
#define POLLRDNORM 0x0040
#define POLLWRNORM 0x0100

/* What a file without a poll operation reports: regular files and
 * directories never block (Linux's DEFAULT_POLLMASK). */
#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

struct pollfd {
    int fd;
    short events;                      /* asked for */
    short revents;                     /* what happened (+ ERR/HUP/NVAL always) */
};

struct file;
/* The events of file now: its f_op->poll, or DEFAULT_POLLMASK (fs/select.c). */
unsigned int vfs_poll(struct file *file);
#endif
