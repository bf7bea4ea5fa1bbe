/*
 * dirent.h - reading directories (libc/dirent.c, over getdents64).
 */
#ifndef _DIRENT_H
#define _DIRENT_H

#include <sys/types.h>

#define DT_UNKNOWN 0
#define DT_FIFO    1
#define DT_CHR     2
#define DT_DIR     4
#define DT_BLK     6
#define DT_REG     8
#define DT_LNK    10
#define DT_SOCK   12

/* What readdir returns: a copy of one record, name NUL-terminated. */
struct dirent {
	ino_t         d_ino;
	off_t         d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char          d_name[256];
};

typedef struct __dir DIR;

DIR           *opendir(const char *path);
struct dirent *readdir(DIR *dir);
int            closedir(DIR *dir);

/* The raw system call: fills buf with struct linux_dirent64 records. */
int getdents64(int fd, void *buf, unsigned int count);

#endif
