/*
 * errno.c - the errno variable, and strerror/perror's message table.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int errno;

static const char *const messages[] = {
	[0]       = "Success",
	[EPERM]   = "Operation not permitted",
	[ENOENT]  = "No such file or directory",
	[ESRCH]   = "No such process",
	[EINTR]   = "Interrupted system call",
	[EIO]     = "Input/output error",
	[ENXIO]   = "No such device or address",
	[E2BIG]   = "Argument list too long",
	[ENOEXEC] = "Exec format error",
	[EBADF]   = "Bad file descriptor",
	[ECHILD]  = "No child processes",
	[EAGAIN]  = "Resource temporarily unavailable",
	[ENOMEM]  = "Cannot allocate memory",
	[EACCES]  = "Permission denied",
	[EFAULT]  = "Bad address",
	[ENOTBLK] = "Block device required",
	[EBUSY]   = "Device or resource busy",
	[EEXIST]  = "File exists",
	[EXDEV]   = "Invalid cross-device link",
	[ENODEV]  = "No such device",
	[ENOTDIR] = "Not a directory",
	[EISDIR]  = "Is a directory",
	[EINVAL]  = "Invalid argument",
	[ENFILE]  = "Too many open files in system",
	[EMFILE]  = "Too many open files",
	[ENOTTY]  = "Inappropriate ioctl for device",
	[ETXTBSY] = "Text file busy",
	[EFBIG]   = "File too large",
	[ENOSPC]  = "No space left on device",
	[ESPIPE]  = "Illegal seek",
	[EROFS]   = "Read-only file system",
	[EMLINK]  = "Too many links",
	[EPIPE]   = "Broken pipe",
	[EDOM]    = "Numerical argument out of domain",
	[ERANGE]  = "Numerical result out of range",
	[EDEADLK] = "Resource deadlock avoided",
	[ENAMETOOLONG] = "File name too long",
	[ENOLCK]  = "No locks available",
	[ENOSYS]  = "Function not implemented",
	[ENOTEMPTY] = "Directory not empty",
	[ELOOP]   = "Too many levels of symbolic links",
	[EOVERFLOW] = "Value too large for defined data type",
	[EOPNOTSUPP] = "Operation not supported",
};

char *strerror(int errnum)
{
	static char unknown[32];

	if (errnum >= 0 && errnum < (int)(sizeof(messages) / sizeof(messages[0])) &&
	    messages[errnum])
		return (char *)messages[errnum];
	snprintf(unknown, sizeof(unknown), "Unknown error %d", errnum);
	return unknown;
}

void perror(const char *msg)
{
	const char *text = strerror(errno);

	if (msg && *msg)
		fprintf(stderr, "%s: %s\n", msg, text);
	else
		fprintf(stderr, "%s\n", text);
}
