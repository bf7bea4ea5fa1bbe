/*
 * stdio.c - buffered streams (FILE) on top of read/write.
 *
 * A stream has one buffer, used in one direction at a time:
 *
 *   writing:  buf[0 .. wlen)      bytes waiting to be written
 *   reading:  buf[rpos .. rlen)   bytes read from the fd, not yet consumed
 *
 * Buffering modes: _IONBF writes through at once (stderr), _IOLBF flushes
 * at each '\n' (stdout on a terminal), _IOFBF flushes when full (files and
 * pipes). stdout's mode is chosen at its first use with isatty().
 * Every open stream is on a list so that exit() can flush them all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define F_READ    0x01   /* opened for reading */
#define F_WRITE   0x02   /* opened for writing */
#define F_EOF     0x04   /* read hit end of file */
#define F_ERR     0x08   /* an I/O error happened */
#define F_MALLOC  0x10   /* buf (and the FILE itself) came from malloc */
#define F_MODESET 0x20   /* buffering mode has been decided */

struct __file {
	int    fd;
	int    flags;
	int    mode;          /* _IOFBF, _IOLBF or _IONBF */
	char  *buf;
	size_t size;          /* capacity of buf */
	size_t wlen;          /* write side: bytes pending */
	size_t rpos, rlen;    /* read side: unread bytes are buf[rpos..rlen) */
	int    unget;         /* a character pushed back by ungetc, or EOF */
	struct __file *next;  /* list of all open streams */
};

static char stdin_buf[BUFSIZ], stdout_buf[BUFSIZ];

static FILE stdin_file  = { 0, F_READ, _IOLBF, stdin_buf, BUFSIZ, 0, 0, 0, EOF, NULL };
static FILE stdout_file = { 1, F_WRITE, _IOFBF, stdout_buf, BUFSIZ, 0, 0, 0, EOF, &stdin_file };
static FILE stderr_file = { 2, F_WRITE | F_MODESET, _IONBF, NULL, 0, 0, 0, 0, EOF, &stdout_file };

FILE *stdin  = &stdin_file;
FILE *stdout = &stdout_file;
FILE *stderr = &stderr_file;

static FILE *open_files = &stderr_file;

/* Decide stdout's buffering the first time it is used. */
static void pick_mode(FILE *f)
{
	if (!(f->flags & F_MODESET)) {
		f->mode = isatty(f->fd) ? _IOLBF : _IOFBF;
		f->flags |= F_MODESET;
	}
}

/* Write out everything pending; returns 0 or EOF. Retries short writes. */
static int flush_write(FILE *f)
{
	size_t done = 0;

	while (done < f->wlen) {
		ssize_t n = write(f->fd, f->buf + done, f->wlen - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			f->flags |= F_ERR;
			f->wlen = 0;
			return EOF;
		}
		done += n;
	}
	f->wlen = 0;
	return 0;
}

/* Give back read-ahead we did not consume, so the fd offset is exact. */
static void drop_read_buffer(FILE *f)
{
	if (f->rlen > f->rpos)
		lseek(f->fd, -(off_t)(f->rlen - f->rpos), SEEK_CUR);
	f->rpos = f->rlen = 0;
	f->unget = EOF;
}

int fflush(FILE *f)
{
	int ret = 0;

	if (f == NULL) {
		for (FILE *p = open_files; p; p = p->next)
			if (p->wlen && fflush(p) == EOF)
				ret = EOF;
		return ret;
	}
	if (f->wlen)
		return flush_write(f);
	if (f->rlen > f->rpos)
		drop_read_buffer(f);
	return 0;
}

static int mode_flags(const char *mode, int *oflags)
{
	int plus = strchr(mode, '+') != NULL;

	switch (mode[0]) {
	case 'r': *oflags = plus ? O_RDWR : O_RDONLY; break;
	case 'w': *oflags = (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC; break;
	case 'a': *oflags = (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_APPEND; break;
	default:  errno = EINVAL; return -1;
	}
	if (plus)
		return F_READ | F_WRITE;
	return mode[0] == 'r' ? F_READ : F_WRITE;
}

FILE *fdopen(int fd, const char *mode)
{
	int oflags, rw = mode_flags(mode, &oflags);
	FILE *f;

	if (rw < 0)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->buf = malloc(BUFSIZ);
	if (!f->buf) {
		free(f);
		return NULL;
	}
	f->fd = fd;
	f->flags = rw | F_MALLOC | F_MODESET;
	f->mode = _IOFBF;
	f->size = BUFSIZ;
	f->unget = EOF;
	f->next = open_files;
	open_files = f;
	return f;
}

FILE *fopen(const char *path, const char *mode)
{
	int oflags, fd;
	FILE *f;

	if (mode_flags(mode, &oflags) < 0)
		return NULL;
	fd = open(path, oflags, 0666);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f)
		close(fd);
	return f;
}

int fclose(FILE *f)
{
	int ret = fflush(f);

	if (close(f->fd) < 0)
		ret = EOF;
	for (FILE **pp = &open_files; *pp; pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	}
	if (f->flags & F_MALLOC) {
		free(f->buf);
		free(f);
	}
	return ret;
}

int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	fflush(f);
	if (buf && size) {
		if (f->flags & F_MALLOC)
			free(f->buf);
		f->flags &= ~F_MALLOC;
		f->buf = buf;
		f->size = size;
	}
	f->mode = mode;
	f->flags |= F_MODESET;
	return 0;
}

/* ---- writing ------------------------------------------------------------ */

int fputc(int c, FILE *f)
{
	unsigned char ch = (unsigned char)c;

	pick_mode(f);
	if (f->rlen > f->rpos)
		drop_read_buffer(f);
	if (f->mode == _IONBF || f->size == 0) {
		if (write(f->fd, &ch, 1) != 1) {
			f->flags |= F_ERR;
			return EOF;
		}
		return ch;
	}
	f->buf[f->wlen++] = ch;
	if (f->wlen == f->size || (f->mode == _IOLBF && ch == '\n'))
		if (flush_write(f) == EOF)
			return EOF;
	return ch;
}

int putc(int c, FILE *f)
{
	return fputc(c, f);
}

int putchar(int c)
{
	return fputc(c, stdout);
}

size_t fwrite(const void *buf, size_t size, size_t n, FILE *f)
{
	const unsigned char *p = buf;
	size_t total = size * n;

	pick_mode(f);
	if (f->mode == _IONBF || f->size == 0) {
		/* Unbuffered: one write call for the whole thing. */
		size_t done = 0;
		while (done < total) {
			ssize_t w = write(f->fd, p + done, total - done);
			if (w <= 0) {
				f->flags |= F_ERR;
				break;
			}
			done += w;
		}
		return size ? done / size : 0;
	}
	for (size_t i = 0; i < total; i++)
		if (fputc(p[i], f) == EOF)
			return size ? i / size : 0;
	return n;
}

int fputs(const char *s, FILE *f)
{
	size_t len = strlen(s);

	return fwrite(s, 1, len, f) == len ? 0 : EOF;
}

int puts(const char *s)
{
	if (fputs(s, stdout) == EOF || fputc('\n', stdout) == EOF)
		return EOF;
	return 0;
}

/* ---- reading ------------------------------------------------------------ */

/* Refill the read buffer; 0 on success, EOF at end of file or on error. */
static int fill(FILE *f)
{
	ssize_t n;

	if (f->wlen)
		flush_write(f);
	/* Interactive convention: show pending output before blocking on input. */
	if (f == stdin)
		fflush(stdout);
	do {
		n = read(f->fd, f->buf, f->size);
	} while (n < 0 && errno == EINTR);
	if (n <= 0) {
		f->flags |= (n == 0) ? F_EOF : F_ERR;
		return EOF;
	}
	f->rpos = 0;
	f->rlen = n;
	return 0;
}

int fgetc(FILE *f)
{
	if (f->unget != EOF) {
		int c = f->unget;
		f->unget = EOF;
		return c;
	}
	if (f->rpos == f->rlen && fill(f) == EOF)
		return EOF;
	return (unsigned char)f->buf[f->rpos++];
}

int getc(FILE *f)
{
	return fgetc(f);
}

int getchar(void)
{
	return fgetc(stdin);
}

int ungetc(int c, FILE *f)
{
	if (c == EOF)
		return EOF;
	f->unget = (unsigned char)c;
	f->flags &= ~F_EOF;
	return c;
}

/* Read up to size-1 characters, stopping after a newline. */
char *fgets(char *s, int size, FILE *f)
{
	int i = 0;

	while (i < size - 1) {
		int c = fgetc(f);
		if (c == EOF)
			break;
		s[i++] = (char)c;
		if (c == '\n')
			break;
	}
	if (i == 0)
		return NULL;
	s[i] = '\0';
	return s;
}

/*
 * getline: one whole line, however long, into *line (grown with realloc;
 * *cap is its size).  Returns the bytes read including the '\n', or -1 at
 * end of file or on error (errno then says which, as ferror does).  The
 * line is NUL-terminated; it may hold NUL bytes of its own.
 */
ssize_t getline(char **line, size_t *cap, FILE *f)
{
	size_t len = 0;
	int c;

	if (!line || !cap) {
		errno = EINVAL;
		return -1;
	}
	while ((c = fgetc(f)) != EOF) {
		if (len + 2 > *cap) {           /* room for c and the NUL */
			size_t ncap = *cap ? *cap * 2 : 128;
			char *n = realloc(*line, ncap);
			if (!n) {
				errno = ENOMEM;
				return -1;
			}
			*line = n;
			*cap = ncap;
		}
		(*line)[len++] = (char)c;
		if (c == '\n')
			break;
	}
	if (len == 0)
		return -1;
	(*line)[len] = '\0';
	return (ssize_t)len;
}

size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
	unsigned char *p = buf;
	size_t total = size * n, got = 0;

	while (got < total) {
		int c = fgetc(f);
		if (c == EOF)
			break;
		p[got++] = (unsigned char)c;
	}
	return size ? got / size : 0;
}

int feof(FILE *f)    { return (f->flags & F_EOF) != 0; }
int ferror(FILE *f)  { return (f->flags & F_ERR) != 0; }
void clearerr(FILE *f) { f->flags &= ~(F_EOF | F_ERR); }
int fileno(FILE *f)  { return f->fd; }

int fseek(FILE *f, long offset, int whence)
{
	if (f->wlen && flush_write(f) == EOF)
		return -1;
	if (whence == SEEK_CUR)
		offset -= (long)(f->rlen - f->rpos) + (f->unget != EOF);
	f->rpos = f->rlen = 0;
	f->unget = EOF;
	f->flags &= ~F_EOF;
	return lseek(f->fd, offset, whence) < 0 ? -1 : 0;
}

long ftell(FILE *f)
{
	off_t pos = lseek(f->fd, 0, SEEK_CUR);

	if (pos < 0)
		return -1;
	return (long)(pos - (f->rlen - f->rpos) - (f->unget != EOF) + f->wlen);
}

int remove(const char *path)
{
	if (unlink(path) == 0)
		return 0;
	if (errno == EISDIR)
		return rmdir(path);
	return -1;
}
