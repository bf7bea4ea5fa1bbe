/*
 * sc.h - raw system calls for the files_* tests (user/tests).
 *
 * The tests call the kernel directly (SC(nr, args...) -> the raw result,
 * -errno on failure) so that no libc wrapper touches a bad pointer first
 * or hides what the kernel returned.  The numbers come from <sys/syscall.h>,
 * which is the kernel's own list (include/uapi/asm/unistd_32.h).
 *
 * BADPTR[]: the three bad pointers every pointer-taking call is given:
 * NULL, the first kernel address (0xC0000000) and a page that was mapped
 * and then unmapped (set up by bad_init()).
 */
#ifndef SC_H
#define SC_H

#include <sys/mman.h>
#include <sys/syscall.h>

#define SC_(nr, a, b, c, d, e, f, ...) \
	__syscall6((nr), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))
#define SC(...) SC_(__VA_ARGS__, 0, 0, 0, 0, 0, 0)

#define NBAD 3
static void *BADPTR[NBAD];
static const char *const BADNAME[NBAD] = { "null", "kernel", "unmapped" };

static inline void bad_init(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(p, 4096);
	BADPTR[0] = NULL;
	BADPTR[1] = (void *)0xC0000000UL;
	BADPTR[2] = p;
}

/* The lowest free fd: a call that failed must not have used one up. */
static inline int lowest_fd(void)
{
	int fd = (int)SC(__NR_dup, 0);

	if (fd >= 0)
		SC(__NR_close, fd);
	return fd;
}

#endif
