/*
 * sc.h - raw system calls for the files_* tests (user/tests).
 *
 * The tests call the kernel directly (SC(nr, args...) -> the raw result,
 * -errno on failure) so that no libc wrapper touches a bad pointer first
 * or hides what the kernel returned.  Numbers are Linux i386's; the ones
 * our <sys/syscall.h> does not name yet are defined here.
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

#ifndef __NR_sendfile64
#define __NR_sendfile64     239
#endif
#ifndef __NR_truncate
#define __NR_truncate        92
#endif
#ifndef __NR_ftruncate
#define __NR_ftruncate       93
#endif
#ifndef __NR_ugetrlimit
#define __NR_ugetrlimit     191
#endif
#ifndef __NR_set_thread_area
#define __NR_set_thread_area 243
#endif
#ifndef __NR_set_tid_address
#define __NR_set_tid_address 258
#endif
#ifndef __NR_mkdirat
#define __NR_mkdirat        296
#endif
#ifndef __NR_fstatat64
#define __NR_fstatat64      300
#endif
#ifndef __NR_unlinkat
#define __NR_unlinkat       301
#endif
#ifndef __NR_renameat
#define __NR_renameat       302
#endif
#ifndef __NR_readlinkat
#define __NR_readlinkat     305
#endif
#ifndef __NR_dup3
#define __NR_dup3           330
#endif
#ifndef __NR_pipe2
#define __NR_pipe2          331
#endif
#ifndef __NR_prlimit64
#define __NR_prlimit64      340
#endif
#ifndef __NR_getrandom
#define __NR_getrandom      355
#endif
#ifndef __NR_statx
#define __NR_statx          383
#endif
#ifndef __NR_getuid32
#define __NR_getuid32       199
#endif

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
