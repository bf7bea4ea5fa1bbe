/*
 * dirent.h - reading directories (libc/dirent.c, over getdents64).
 */
#ifndef _DIRENT_H
#define _DIRENT_H

#include <sys/types.h>

#include <linux/dirent.h>       /* DT_REG.., and the raw records (struct linux_dirent64) */

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
