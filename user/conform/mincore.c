/* mincore.c - conformance: mincore(2) (mm/mincore.c).  One byte per page,
 * bit 0 set for a page in memory: anonymous pages once touched (not
 * before, not after MADV_DONTNEED), all of a locked range, a touched
 * page made PROT_NONE, a file mapping's pages that are in the page cache
 * (the file just written; the page past the end of the file is not), a
 * shared anonymous page; a length that is not a page multiple (one byte
 * more, the next left alone); the errors (an unaligned start: EINVAL; a
 * hole in the range or a range past user space: ENOMEM, the bytes before
 * the hole written; a vec that cannot be written or is not user memory:
 * EFAULT; a zero length: 0 even unmapped); a file the caller neither owns
 * nor may write: every page reads 1 (Linux hides the page cache from
 * it).  Prints observations only (conform.h).
 */
#include "conform.h"
#include <sys/mman.h>

#define PG 4096

static unsigned char vec[64];

/* vec's first n bytes as text, each as its value: "1010" */
static const char *vtext(int n)
{
	static char b[80];
	for (int i = 0; i < n; i++)
		b[i] = vec[i] <= 9 ? '0' + vec[i] : '?';
	b[n] = 0;
	return b;
}

static long mc(void *addr, size_t len)
{
	memset(vec, 7, sizeof vec);
	return mincore(addr, len, vec);
}

static void anonymous(void)
{
	char *a = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long r = mc(a, 4 * PG);
	say("anon untouched %s vec %s", rv(r), vtext(5));
	a[0] = 1;
	a[2 * PG] = 1;
	r = mc(a, 4 * PG);
	say("anon touched 0,2 %s vec %s", rv(r), vtext(5));
	r = mc(a, PG + 1);
	say("anon len PG+1 %s vec %s", rv(r), vtext(3));
	r = mc(a, 0);
	say("anon len 0 %s vec %s", rv(r), vtext(1));
	madvise(a, 4 * PG, MADV_DONTNEED);
	r = mc(a, 4 * PG);
	say("anon after DONTNEED %s vec %s", rv(r), vtext(4));
	a[PG] = 1;
	mprotect(a, 4 * PG, PROT_NONE);
	r = mc(a, 4 * PG);
	say("anon PROT_NONE %s vec %s", rv(r), vtext(4));
	mprotect(a, 4 * PG, PROT_READ | PROT_WRITE);
	r = mlock(a, 4 * PG);
	say("mlock %s", rv(r));
	r = mc(a, 4 * PG);
	say("anon locked %s vec %s", rv(r), vtext(4));
	munlock(a, 4 * PG);
	/* Errors. */
	say("unaligned %s", rv(mc(a + 1, PG)));
	say("len 0 unaligned %s", rv(mc(a + 1, 0)));
	munmap(a + 2 * PG, PG);
	r = mc(a, 4 * PG);
	say("hole %s vec %s", rv(r), vtext(4));
	r = mc(a + 2 * PG, PG);
	say("unmapped %s vec %s", rv(r), vtext(1));
	say("unmapped len 0 %s", rv(mc(a + 2 * PG, 0)));
	say("past user space %s", rv(mc((void *)0xbffff000, 0x40000000)));
	unsigned char *ro = mmap(NULL, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("vec readonly %s", rv(mincore(a, PG, ro)));
	say("vec null %s", rv(mincore(a, PG, NULL)));
	say("vec kernel %s", rv(mincore(a, PG, (unsigned char *)0xc0000000)));
	say("unaligned vec readonly %s", rv(mincore(a + 1, PG, ro)));
	munmap(ro, PG);
	munmap(a, 4 * PG);

	char *s = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	s[PG] = 1;
	r = mc(s, 2 * PG);
	say("shared anon touched 1 %s vec %s", rv(r), vtext(2));
	mlock(s, PG);
	r = mc(s, 2 * PG);
	say("shared anon locked 0 %s vec %s", rv(r), vtext(2));
	munmap(s, 2 * PG);
	s = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	r = mc(s, 2 * PG);
	say("shared anon MAP_POPULATE %s vec %s", rv(r), vtext(2));
	munmap(s, 2 * PG);
	s = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	r = mlock2(s, 3 * PG, MLOCK_ONFAULT);
	s[2 * PG] = 1;
	long r2 = mc(s, 3 * PG);
	say("shared anon MLOCK_ONFAULT %s touched 2 %s vec %s", rv(r), rv(r2), vtext(3));
	munmap(s, 3 * PG);
}

static void other_user(int wfd)
{
	drop_to_user();
	int fd = open(path("mcfile"), O_RDONLY);
	char *p = mmap(NULL, 4 * PG, PROT_READ, MAP_SHARED, fd, 0);
	long r = mc(p, 4 * PG);
	report(wfd, "%s vec %s", rv(r), vtext(4));
}

/* A file of three pages, just written (in the page cache), mapped over
 * four pages: the fourth is past the end of the file. */
static void file(void)
{
	int fd = fresh("mcfile", 3 * PG, 0);
	char *p = mmap(NULL, 4 * PG, PROT_READ, MAP_SHARED, fd, 0);
	long r = mc(p, 4 * PG);
	say("file cached %s vec %s", rv(r), vtext(5));
	char *q = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	q[0] = 'y';
	r = mc(q, 4 * PG);
	say("file private written 0 %s vec %s", rv(r), vtext(4));
	munmap(q, 4 * PG);
	munmap(p, 4 * PG);
	close(fd);
	chmod(path("mcfile"), 0644);
	chmod(c_dir, 0755);

	/* Another user, who may not write the file: all 1. */
	char text[256];
	int st = child(other_user, text, sizeof text);
	say("other user %s: %s", wstatus(st), text);
	unlink(path("mcfile"));
}


int main(int argc, char **argv)
{
	conform_start("mincore", argc, argv);
	anonymous();
	file();
	conform_end();
	return 0;
}
