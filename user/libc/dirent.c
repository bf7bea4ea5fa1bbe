/*
 * dirent.c - opendir/readdir/closedir over getdents64.
 *
 * getdents64 fills a buffer with variable-length records (struct
 * linux_dirent64, the kernel's own definition in include/uapi/linux/
 * dirent.h), and d_reclen says where the next one starts. A DIR keeps such a buffer
 * and hands out one record at a time, refilling when it runs dry;
 * getdents64 returns 0 at the end of the directory.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct __dir {
	int fd;
	int pos;                 /* next record in buf */
	int len;                 /* bytes of records in buf */
	struct dirent entry;     /* what readdir returns */
	char buf[2048];
};

DIR *opendir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = malloc(sizeof(*d));
	if (!d) {
		close(fd);
		return NULL;
	}
	d->fd = fd;
	d->pos = d->len = 0;
	return d;
}

struct dirent *readdir(DIR *d)
{
	struct linux_dirent64 *rec;
	size_t namelen;

	if (d->pos >= d->len) {
		d->len = getdents64(d->fd, d->buf, sizeof(d->buf));
		d->pos = 0;
		if (d->len <= 0)
			return NULL;    /* end of directory (0) or error (-1) */
	}
	rec = (struct linux_dirent64 *)(d->buf + d->pos);
	d->pos += rec->d_reclen;

	d->entry.d_ino = rec->d_ino;
	d->entry.d_off = rec->d_off;
	d->entry.d_reclen = rec->d_reclen;
	d->entry.d_type = rec->d_type;
	namelen = strnlen(rec->d_name, sizeof(d->entry.d_name) - 1);
	memcpy(d->entry.d_name, rec->d_name, namelen);
	d->entry.d_name[namelen] = '\0';
	return &d->entry;
}

int closedir(DIR *d)
{
	int r = close(d->fd);

	free(d);
	return r;
}
