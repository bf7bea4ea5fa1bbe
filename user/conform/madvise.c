/* madvise.c - conformance: madvise(2) (issue 23).  Every advice value
 * (the hints return 0 and change nothing a program can see), the argument
 * checks (unaligned start, an unknown advice, a zero length), a hole in
 * the range (ENOMEM, the mapped parts advised all the same), and what
 * each advice that does something leaves behind: MADV_DONTNEED's zeroed
 * anonymous page, its re-read private file page and its kept shared one;
 * MADV_FREE's page kept while there is no memory pressure; locked ranges
 * (EINVAL, but MADV_DONTNEED_LOCKED); MADV_REMOVE without hole punching
 * (EOPNOTSUPP) or write access (EACCES); MADV_DONTFORK's range missing in
 * a child, MADV_WIPEONFORK's zeroed in it; MADV_POPULATE_READ/WRITE's
 * errors (EINVAL without the access, EFAULT past the end of the file).
 * Prints observations only (conform.h): bytes read back, return values.
 */
#include "conform.h"
#include <setjmp.h>
#include <sys/mman.h>

#define PG 4096
#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#define MADV_POPULATE_WRITE 23
#endif

static char *anon(size_t pages, int prot)
{
	return mmap(NULL, pages * PG, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/* A file of two pages of 'A' and 'B', mapped with flags and prot. */
static char *file_map(int flags, int prot, int oflags, int *fdp)
{
	int fd = open(path("madv"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	char b[PG];
	memset(b, 'A', PG);
	write(fd, b, PG);
	memset(b, 'B', PG);
	write(fd, b, PG);
	close(fd);
	fd = open(path("madv"), oflags);
	char *p = mmap(NULL, 2 * PG, prot, flags, fd, 0);
	*fdp = fd;
	return p;
}

/* a byte as text: the character, or its value */
static const char *byte(char c)
{
	static char ring[4][8];
	static int n;
	char *b = ring[n++ & 3];
	if (c >= 'A' && c <= 'z')
		snprintf(b, 8, "%c", c);
	else
		snprintf(b, 8, "%d", c);
	return b;
}

static void advice_values(void)
{
	char *p = anon(2, PROT_READ | PROT_WRITE);
	/* 0..25, then values no kernel knows */
	for (int a = 0; a <= 25; a++) {
		if (a == MADV_DONTNEED || a == MADV_REMOVE || a == MADV_DONTNEED_LOCKED)
			continue;               /* each has its own case below */
		p[0] = 'v';
		const char *r = rv(madvise(p, 2 * PG, a));
		say("advice %d %s byte=%s", a, r, byte(p[0]));
		madvise(p, 2 * PG, MADV_DOFORK);
		madvise(p, 2 * PG, MADV_KEEPONFORK);
	}
	say("advice_26 %s", rv(madvise(p, PG, 26)));
	say("advice_99 %s", rv(madvise(p, PG, 99)));
	say("advice_minus1 %s", rv(madvise(p, PG, -1)));
	say("unaligned %s", rv(madvise(p + 1, PG, MADV_NORMAL)));
	say("unaligned_bad_advice %s", rv(madvise(p + 1, PG, 99)));
	say("zero_len %s", rv(madvise(p, 0, MADV_DONTNEED)));
	say("zero_len_unaligned %s", rv(madvise(p + 1, 0, MADV_NORMAL)));
	say("zero_len_bad_advice %s", rv(madvise(p, 0, 99)));
	p[0] = 'x';
	const char *r = rv(madvise(p, 1, MADV_DONTNEED));
	say("len_1_rounds_up %s byte=%s", r, byte(p[0]));
	munmap(p, 2 * PG);
	say("unmapped %s", rv(madvise(p, 2 * PG, MADV_NORMAL)));
	say("unmapped_dontneed %s", rv(madvise(p, 2 * PG, MADV_DONTNEED)));
}

static void dontneed(void)
{
	char *p = anon(3, PROT_READ | PROT_WRITE);
	memset(p, 'x', 3 * PG);
	const char *r = rv(madvise(p, 3 * PG, MADV_DONTNEED));
	say("dontneed_anon %s bytes=%s,%s,%s", r, byte(p[0]), byte(p[PG + 5]), byte(p[3 * PG - 1]));
	memset(p, 'y', 3 * PG);
	munmap(p + PG, PG);
	r = rv(madvise(p, 3 * PG, MADV_DONTNEED));
	say("dontneed_hole %s bytes=%s,%s", r, byte(p[0]), byte(p[2 * PG]));
	munmap(p, 3 * PG);

	int fd;
	p = file_map(MAP_PRIVATE, PROT_READ | PROT_WRITE, O_RDONLY, &fd);
	p[0] = 'z';
	p[PG] = 'z';
	r = rv(madvise(p, PG, MADV_DONTNEED));
	say("dontneed_private_file %s bytes=%s,%s", r, byte(p[0]), byte(p[PG]));
	munmap(p, 2 * PG);
	close(fd);

	p = file_map(MAP_SHARED, PROT_READ | PROT_WRITE, O_RDWR, &fd);
	p[0] = 's';
	r = rv(madvise(p, 2 * PG, MADV_DONTNEED));
	char c = 0;
	pread(fd, &c, 1, 0);
	say("dontneed_shared_file %s map=%s file=%s", r, byte(p[0]), byte(c));
	say("remove_shared_file %s", rv(madvise(p, PG, MADV_REMOVE)));
	munmap(p, 2 * PG);
	close(fd);
	p = file_map(MAP_SHARED, PROT_READ, O_RDONLY, &fd);
	say("remove_shared_readonly %s", rv(madvise(p, PG, MADV_REMOVE)));
	say("free_file %s", rv(madvise(p, PG, MADV_FREE)));
	say("wipeonfork_file %s", rv(madvise(p, PG, MADV_WIPEONFORK)));
	say("populate_write_readonly %s", rv(madvise(p, PG, MADV_POPULATE_WRITE)));
	say("populate_read_file %s", rv(madvise(p, 2 * PG, MADV_POPULATE_READ)));
	munmap(p, 2 * PG);
	p = mmap(NULL, 3 * PG, PROT_READ, MAP_SHARED, fd, 0);   /* one page past EOF */
	say("populate_read_past_eof %s", rv(madvise(p, 3 * PG, MADV_POPULATE_READ)));
	say("willneed_file %s", rv(madvise(p, 3 * PG, MADV_WILLNEED)));
	munmap(p, 3 * PG);
	close(fd);

	p = anon(2, PROT_READ | PROT_WRITE);
	say("remove_anon %s", rv(madvise(p, PG, MADV_REMOVE)));
	memset(p, 'f', 2 * PG);
	r = rv(madvise(p, 2 * PG, MADV_FREE));
	say("free_anon %s byte=%s", r, byte(p[0]));
	p[PG] = 'g';
	say("free_anon_written_after byte=%s", byte(p[PG]));
	r = rv(madvise(p, 2 * PG, MADV_POPULATE_WRITE));
	say("populate_write_anon %s bytes=%s,%s", r, byte(p[0]), byte(p[PG]));
	munmap(p, 2 * PG);
	p = anon(1, PROT_NONE);
	say("populate_read_prot_none %s", rv(madvise(p, PG, MADV_POPULATE_READ)));
	say("dontneed_prot_none %s", rv(madvise(p, PG, MADV_DONTNEED)));
	munmap(p, PG);
}

static void locked(void)
{
	char *p = anon(2, PROT_READ | PROT_WRITE);
	memset(p, 'l', 2 * PG);
	say("mlock %s", rv(mlock(p, 2 * PG)));
	say("locked_dontneed %s byte=%s", rv(madvise(p, PG, MADV_DONTNEED)), byte(p[0]));
	say("locked_free %s", rv(madvise(p, PG, MADV_FREE)));
	say("locked_cold %s", rv(madvise(p, PG, MADV_COLD)));
	say("locked_pageout %s", rv(madvise(p, PG, MADV_PAGEOUT)));
	say("locked_willneed %s", rv(madvise(p, PG, MADV_WILLNEED)));
	const char *r = rv(madvise(p, PG, MADV_DONTNEED_LOCKED));
	say("locked_dontneed_locked %s byte=%s,%s", r, byte(p[0]), byte(p[PG]));
	munmap(p, 2 * PG);
	p = anon(1, PROT_READ | PROT_WRITE);
	p[0] = 'u';
	r = rv(madvise(p, PG, MADV_DONTNEED_LOCKED));
	say("unlocked_dontneed_locked %s byte=%s", r, byte(p[0]));
	munmap(p, PG);
}

static char *fork_p;
static sigjmp_buf fork_jb;
static void on_segv(int s)
{
	(void)s;
	siglongjmp(fork_jb, 1);
}
static void fork_body(int w)
{
	signal(SIGSEGV, on_segv);
	if (sigsetjmp(fork_jb, 1))
		report(w, "child=SIGSEGV");
	else
		report(w, "child=%s", byte(fork_p[0]));
}

static void forks(void)
{
	char text[64];
	fork_p = anon(1, PROT_READ | PROT_WRITE);
	fork_p[0] = 'k';
	say("dontfork %s", rv(madvise(fork_p, PG, MADV_DONTFORK)));
	int st = child(fork_body, text, sizeof text);
	say("dontfork_child %s: %s parent=%s", wstatus(st), text, byte(fork_p[0]));
	say("dofork %s", rv(madvise(fork_p, PG, MADV_DOFORK)));
	st = child(fork_body, text, sizeof text);
	say("dofork_child %s: %s", wstatus(st), text);
	say("wipeonfork %s", rv(madvise(fork_p, PG, MADV_WIPEONFORK)));
	st = child(fork_body, text, sizeof text);
	say("wipeonfork_child %s: %s parent=%s", wstatus(st), text, byte(fork_p[0]));
	say("keeponfork %s", rv(madvise(fork_p, PG, MADV_KEEPONFORK)));
	st = child(fork_body, text, sizeof text);
	say("keeponfork_child %s: %s", wstatus(st), text);
	munmap(fork_p, PG);
	fork_p = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	fork_p[0] = 'h';
	say("wipeonfork_shared %s", rv(madvise(fork_p, PG, MADV_WIPEONFORK)));
	munmap(fork_p, PG);
}

int main(int argc, char **argv)
{
	conform_start("madvise", argc, argv);
	advice_values();
	dontneed();
	locked();
	forks();
	unlink(path("madv"));
	conform_end();
	return 0;
}
