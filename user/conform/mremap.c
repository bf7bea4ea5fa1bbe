/* mremap.c - conformance: mremap(2).  The argument checks in Linux's
 * order (unknown flags, FIXED without MAYMOVE, DONTUNMAP without MAYMOVE
 * or with a new size, an unaligned address, a zero new length, no mapping
 * at the address, new_addr unaligned, too high or overlapping, old_len 0
 * on a private mapping, a range past its mapping's end, no room without
 * MAYMOVE, RLIMIT_MEMLOCK); shrinking (over other mappings too), growing
 * in place (into a free gap, merging with the next mapping), growing by a
 * move, MREMAP_FIXED (over a mapping, shrinking, growing), MREMAP_DONTUNMAP
 * (private and shared, anonymous and file: what the old range reads
 * after), old_len 0 duplicating a shared mapping; the bytes after every
 * move (private anonymous memory, a private file mapping's copied and
 * uncopied pages, a shared file mapping and the file, shared anonymous
 * memory and a child, pages shared copy-on-write with a child, PROT_NONE
 * pages, the zero page), a truncate reaching moved file mappings;
 * /proc/self/maps's lines after each (pages, permissions, offset); VmLck
 * for locked mappings; glibc's realloc of an mmap-backed block.  Prints
 * observations only (conform.h): where a mapping went is "old",
 * "new_addr" or "moved", never an address.
 */
#include "conform.h"
#include <setjmp.h>
#include <sys/mman.h>
#include <sys/resource.h>

#define PG 4096
#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif
#define MOVE MREMAP_MAYMOVE
#define FIXED (MREMAP_MAYMOVE | MREMAP_FIXED)
#define DONTUNMAP (MREMAP_MAYMOVE | MREMAP_DONTUNMAP)
#define RW (PROT_READ | PROT_WRITE)

static char *anon(size_t pages, int prot)
{
	return mmap(NULL, pages * PG, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/* pages of anonymous memory at a fixed place */
static char *anon_at(char *at, size_t pages, int prot)
{
	return mmap(at, pages * PG, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

/* A place of pages with PROT_NONE guard pages around it (never merged
 * with read-write memory), itself PROT_NONE, or, with free, a gap: the
 * tests' neighbours are these, the same on both kernels, whose mmap
 * layouts differ (Linux's top-down, Vellum's bottom-up).  release() unmaps
 * it with its guards. */
static char *reserve(size_t pages, int free)
{
	char *g = anon(pages + 2, PROT_NONE) + PG;
	if (free)
		munmap(g, pages * PG);
	return g;
}

static void release(char *g, size_t pages)
{
	munmap(g - PG, (pages + 2) * PG);
}

/* mremap's result: "old" (addr), "new_addr" (the one asked for), "moved",
 * or "-1 ENAME" */
static const char *where(void *r, void *old, void *target)
{
	static char ring[4][40];
	static int n;
	char *b = ring[n++ & 3];
	if (r == MAP_FAILED)
		snprintf(b, 40, "%s", rv(-1));
	else
		snprintf(b, 40, "%s", r == old ? "old" : r == target ? "new_addr" : "moved");
	return b;
}

/* Reads of mapped memory that may fault: the signal's name instead */
static sigjmp_buf jb;
static volatile int caught;
static void on_fault(int sig)
{
	caught = sig;
	siglongjmp(jb, 1);
}

/* Each page's bytes: the byte if the page is all that byte ('0' for zeros,
 * "mix" if not), or the signal a read of it gets; comma separated. */
static const char *pages(const char *p, int n)
{
	static char ring[4][256];
	static int k;
	char *b = ring[k++ & 3];
	size_t o = 0;
	b[0] = 0;
	for (int i = 0; i < n && o < 200; i++) {
		const char *pg = p + (size_t)i * PG;
		char one[16];
		if (sigsetjmp(jb, 1)) {
			snprintf(one, sizeof one, "%s", signame(caught));
		} else {
			char c = pg[0];
			int same = 1;
			for (int j = 1; j < PG; j++)
				same &= pg[j] == c;
			if (!same)
				snprintf(one, sizeof one, "mix");
			else if (c == 0)
				snprintf(one, sizeof one, "0");
			else
				snprintf(one, sizeof one, "%c", c);
		}
		o += snprintf(b + o, 256 - o, "%s%s", i ? "," : "", one);
	}
	return b;
}

/* Fill each page i of p with the i-th byte of s */
static void fill(char *p, const char *s)
{
	for (int i = 0; s[i]; i++)
		memset(p + (size_t)i * PG, s[i], PG);
}

/* The line of /proc/self/maps holding addr, as observations: its size in
 * pages and whether it starts at addr (with full: for mappings placed
 * between known neighbours), permissions, offset; "mapped=0" if no line
 * holds it. */
static const char *maps(const void *addr, int full)
{
	static char ring[4][128];
	static int n;
	char *b = ring[n++ & 3];
	FILE *f = fopen("/proc/self/maps", "r");
	char l[1024];
	snprintf(b, 128, "mapped=0");
	while (f && fgets(l, sizeof l, f)) {
		unsigned long s, e;
		char perms[8], off[16];
		if (sscanf(l, "%lx-%lx %7s %15s", &s, &e, perms, off) < 4)
			continue;
		if ((unsigned long)addr < s || (unsigned long)addr >= e)
			continue;
		if (full)
			snprintf(b, 128, "pages=%lu%s perms=%s off=%s", (e - s) / PG,
				 (unsigned long)addr == s ? "" : " (starts_before)", perms, off);
		else
			snprintf(b, 128, "perms=%s off=%s", perms, off);
		break;
	}
	if (f)
		fclose(f);
	return b;
}
#define line(a) maps(a, 1)
#define lineq(a) maps(a, 0)

/* A file NAME of as many pages as s has bytes, page i all s[i], open
 * O_RDWR. */
static int pfile(const char *name, const char *s)
{
	int fd = fresh(name, 0, 0);
	char b[PG];
	for (int i = 0; s[i]; i++) {
		memset(b, s[i], PG);
		pwrite(fd, b, PG, (off_t)i * PG);
	}
	return fd;
}

/* The file's pages as pages() shows memory */
static const char *fpages(int fd, int n)
{
	static char b[256];
	size_t o = 0;
	b[0] = 0;
	for (int i = 0; i < n && o < 200; i++) {
		char pg[PG];
		ssize_t got = pread(fd, pg, PG, (off_t)i * PG);
		int same = got == PG;
		for (int j = 1; same && j < PG; j++)
			same = pg[j] == pg[0];
		o += snprintf(b + o, sizeof b - o, "%s%c", i ? "," : "",
			      got <= 0 ? '-' : !same ? '?' : pg[0] ? pg[0] : '0');
	}
	return b;
}

static void errors(void)
{
	char *g = reserve(8, 0);
	char *p = anon_at(g, 2, RW);
	fill(p, "ab");
	char *hole = g + 3 * PG;
	munmap(hole, PG);
	say("flags_unknown %s", where(mremap(p, PG, PG, 8), p, 0));
	say("flags_unknown_unaligned %s", where(mremap(p + 1, PG, 0, 8), p, 0));
	say("fixed_without_maymove %s", where(mremap(p, PG, PG, MREMAP_FIXED, hole), p, hole));
	say("dontunmap_without_maymove %s",
	    where(mremap(p, PG, PG, MREMAP_DONTUNMAP, hole), p, hole));
	say("dontunmap_resize %s", where(mremap(p, PG, 2 * PG, DONTUNMAP, hole), p, hole));
	say("unaligned %s", where(mremap(p + 1, PG, PG, 0), p, 0));
	say("unaligned_unmapped %s", where(mremap(hole + 1, PG, PG, 0), hole, 0));
	say("new_len_0 %s", where(mremap(p, PG, 0, 0), p, 0));
	say("new_len_0_unmapped %s", where(mremap(hole, PG, 0, 0), hole, 0));
	say("new_len_1_rounds_up %s", where(mremap(p, PG, 1, 0), p, 0));
	say("unmapped %s", where(mremap(hole, PG, PG, 0), hole, 0));
	say("unmapped_grow %s", where(mremap(hole, PG, 2 * PG, MOVE), hole, 0));
	say("unmapped_fixed_unaligned_new %s", where(mremap(hole, PG, PG, FIXED, hole + 1), hole, 0));
	say("fixed_unaligned_new %s", where(mremap(p, PG, PG, FIXED, hole + 1), p, 0));
	say("fixed_new_too_high %s", where(mremap(p, PG, 2 * PG, FIXED, (void *)0xfffff000UL), p, 0));
	say("fixed_overlap_after %s", where(mremap(p, 2 * PG, 2 * PG, FIXED, p + PG), p, 0));
	say("fixed_overlap_before %s", where(mremap(p + PG, PG, 2 * PG, FIXED, p), p, 0));
	say("fixed_same_place %s", where(mremap(p, PG, PG, FIXED, p), p, 0));
	say("dontunmap_unaligned_hint %s", where(mremap(p, PG, PG, DONTUNMAP, hole + 1), p, 0));
	say("dontunmap_overlapping_hint %s", where(mremap(p, 2 * PG, 2 * PG, DONTUNMAP, p + PG), p, 0));
	say("old_len_0_private %s", where(mremap(p, 0, PG, MOVE), p, 0));
	say("old_len_0_private_no_move %s", where(mremap(p, 0, PG, 0), p, 0));
	say("past_vma_end %s", where(mremap(p, 3 * PG, 4 * PG, MOVE), p, 0));
	say("past_vma_end_from_middle %s", where(mremap(p + PG, 2 * PG, 3 * PG, MOVE), p, 0));
	/* FIXED unmaps new_addr before it finds the range too long */
	char *t = g + 5 * PG;
	anon_at(t, 1, RW);
	memset(t, 't', PG);
	const char *r = where(mremap(p, 3 * PG, 4 * PG, FIXED, t), p, t);
	say("fixed_past_vma_end %s target %s", r, line(t));
	say("after_errors %s %s", line(p), pages(p, 2));
	release(g, 8);
}

static void shrink(void)
{
	char *g = reserve(4, 0);
	char *p = anon_at(g, 4, RW);
	fill(p, "abcd");
	const char *r = where(mremap(p, 4 * PG, 2 * PG, 0), p, 0);
	say("shrink %s %s %s tail=%s", r, line(p), pages(p, 2), line(p + 2 * PG));
	r = where(mremap(p, 2 * PG, 2 * PG, 0), p, 0);
	say("same_len %s %s", r, line(p));
	r = where(mremap(p, 2 * PG, PG + 1, 0), p, 0);
	say("shrink_unaligned_len %s %s", r, line(p));
	r = where(mremap(p, 2 * PG, PG, MOVE), p, 0);
	say("shrink_maymove %s %s %s", r, line(p), pages(p, 1));
	r = where(mremap(p, 0xfffff000UL, PG, 0), p, 0);
	say("shrink_past_task_size %s %s", r, line(p));
	release(g, 4);
	/* old_len over more than its mapping: the tail is unmapped, whatever
	 * is there */
	g = reserve(3, 0);
	anon_at(g, 1, RW);
	memset(g, 'q', PG);
	r = where(mremap(g, 3 * PG, PG, 0), g, 0);
	say("shrink_over_others %s %s next=%s", r, line(g), line(g + PG));
	release(g, 3);
	/* a locked mapping gives its pages back */
	long base = vmlck();
	p = mmap(NULL, 3 * PG, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	long l1 = vmlck() - base;
	r = where(mremap(p, 3 * PG, PG, 0), p, 0);
	say("shrink_locked %s lck_before=%+ld lck_after=%+ld", r, l1, vmlck() - base);
	munmap(p, PG);
}

static void grow(void)
{
	/* in place, into a free gap: the new part reads zeros */
	char *g = reserve(6, 1);
	char *p = anon_at(g, 2, RW);
	fill(p, "ab");
	const char *r = where(mremap(p, 2 * PG, 4 * PG, 0), p, 0);
	say("grow_in_place %s %s %s", r, line(p), pages(p, 4));
	r = where(mremap(p + 3 * PG, PG, 2 * PG, 0), p + 3 * PG, 0);
	say("grow_tail_in_place %s %s", r, line(p));
	r = where(mremap(p, 5 * PG, 7 * PG, 0), p, 0);
	say("grow_into_guard %s %s", r, line(p));
	release(g, 6);

	/* in place up to the next mapping of the same kind: one line */
	g = reserve(6, 0);
	p = anon_at(g, 6, RW);
	fill(p, "abcdef");
	munmap(p + 2 * PG, 2 * PG);
	r = where(mremap(p, 2 * PG, 4 * PG, 0), p, 0);
	say("grow_to_next %s %s %s", r, line(p), pages(p, 6));
	release(g, 6);

	/* no room (a PROT_NONE neighbour): ENOMEM, or a move with MAYMOVE */
	g = reserve(4, 0);
	p = anon_at(g, 2, RW);
	fill(p, "gh");
	r = where(mremap(p, 2 * PG, 3 * PG, 0), p, 0);
	say("grow_no_room %s %s", r, line(p));
	r = where(mremap(p, PG, 3 * PG, 0), p, 0);
	say("grow_not_to_end_no_move %s", r);
	char *n = mremap(p, 2 * PG, 3 * PG, MOVE);
	r = where(n, p, 0);
	say("grow_move %s %s %s old=%s neighbour=%s", r, lineq(n), pages(n, 3), line(p),
	    line(g + 2 * PG));
	munmap(n, 3 * PG);
	release(g, 4);

	/* a range that does not reach its mapping's end moves */
	g = reserve(3, 0);
	p = anon_at(g, 3, RW);
	fill(p, "ijk");
	n = mremap(p, PG, 2 * PG, MOVE);
	r = where(n, p, 0);
	say("grow_middle_move %s %s %s old_first=%s old_rest=%s %s", r, lineq(n), pages(n, 2),
	    line(p), line(p + PG), pages(p + PG, 2));
	munmap(n, 2 * PG);
	release(g, 3);

	/* the zero page; PROT_NONE pages */
	g = reserve(2, 0);
	p = anon_at(g, 2, PROT_READ);
	volatile char c = p[0];
	(void)c;
	n = mremap(p, 2 * PG, 4 * PG, MOVE);
	r = where(n, p, 0);
	say("grow_read_only_zero_page %s %s %s", r, lineq(n), pages(n, 4));
	munmap(n, 4 * PG);
	release(g, 2);
	p = anon(2, RW);
	fill(p, "lm");
	mprotect(p, 2 * PG, PROT_NONE);
	g = reserve(5, 0);
	n = mremap(p, 2 * PG, 3 * PG, FIXED, g + PG);
	r = where(n, p, g + PG);
	say("move_prot_none %s read=%s", r, pages(n, 1));
	mprotect(n, 3 * PG, RW);
	say("move_prot_none_after_mprotect %s %s", line(n), pages(n, 3));
	release(g, 5);
}

/* Pages shared copy-on-write with a child: the parent's move and writes
 * leave the child's view alone, and the child's writes the parent's. */
static void cow(void)
{
	char *g = reserve(2, 0);
	char *p = anon_at(g, 2, RW);
	fill(p, "no");
	int go[2], back[2];
	pipe(go);
	pipe(back);
	pid_t pid = fork();
	if (pid == 0) {
		char x;
		read(go[0], &x, 1);
		char out[64];
		snprintf(out, sizeof out, "%s", pages(p, 2));
		memset(p + PG, 'c', PG);
		write(back[1], out, strlen(out) + 1);
		_exit(0);
	}
	char *n = mremap(p, 2 * PG, 3 * PG, MOVE);
	const char *r = where(n, p, 0);
	memset(n, 'P', PG);
	write(go[1], "g", 1);
	char text[64] = "";
	read(back[0], text, sizeof text - 1);
	int st;
	waitpid(pid, &st, 0);
	say("cow_move %s parent=%s child=%s %s", r, pages(n, 3), text, wstatus(st));
	munmap(n, 3 * PG);
	release(g, 2);
	close(go[0]);
	close(go[1]);
	close(back[0]);
	close(back[1]);
}

static void fixed(void)
{
	char *g = reserve(10, 0);
	char *p = anon(2, RW);
	fill(p, "pq");
	char *n = mremap(p, 2 * PG, 2 * PG, FIXED, g + 2 * PG);
	const char *r = where(n, p, g + 2 * PG);
	say("fixed %s %s %s old=%s before=%s after=%s", r, line(n), pages(n, 2), line(p),
	    line(g), line(g + 4 * PG));
	/* over a mapping with bytes of its own, growing */
	char *t = anon_at(g + 5 * PG, 1, RW);
	memset(t, 'Z', PG);
	char *m = mremap(n, 2 * PG, 3 * PG, FIXED, g + 5 * PG);
	r = where(m, n, g + 5 * PG);
	say("fixed_over_mapping_grow %s %s %s old=%s", r, line(m), pages(m, 3), line(n));
	/* shrinking on the way */
	n = mremap(m, 3 * PG, PG, FIXED, g);
	r = where(n, m, g);
	say("fixed_shrink %s %s %s old=%s old_tail=%s", r, line(n), pages(n, 1), line(m),
	    line(m + 2 * PG));
	/* right next to itself */
	m = mremap(n, PG, PG, FIXED, g + PG);
	r = where(m, n, g + PG);
	say("fixed_adjacent %s %s %s old=%s", r, line(m), pages(m, 1), line(n));
	release(g, 10);
}

/* file mappings: private (copied and uncopied pages), shared */
static void files(void)
{
	int fd = pfile("f", "abcdef");
	char *g = reserve(4, 0);
	char *p = mmap(g, 2 * PG, RW, MAP_PRIVATE | MAP_FIXED, fd, 0);
	memset(p, 'P', PG);                     /* a private copy of page 0 */
	const char *r = where(mremap(p, 2 * PG, 3 * PG, 0), p, 0);
	say("private_file_no_room %s", r);
	char *n = mremap(p, 2 * PG, 3 * PG, MOVE);
	r = where(n, p, 0);
	say("private_file_grow_move %s %s %s file=%s", r, lineq(n), pages(n, 3), fpages(fd, 6));
	munmap(n, 3 * PG);
	release(g, 4);
	/* in place: the file's next pages */
	g = reserve(6, 1);
	p = mmap(g, 2 * PG, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, PG);
	r = where(mremap(p, 2 * PG, 4 * PG, 0), p, 0);
	say("private_file_grow_in_place %s %s %s", r, line(p), pages(p, 4));
	/* past the end of the file */
	r = where(mremap(p, 4 * PG, 6 * PG, 0), p, 0);
	say("private_file_grow_past_eof %s %s %s", r, line(p), pages(p, 6));
	/* the middle of it, moved: the offset goes with it */
	n = mremap(p + PG, PG, 2 * PG, MOVE);
	r = where(n, p + PG, 0);
	say("private_file_middle_move %s %s %s first=%s rest=%s", r, lineq(n), pages(n, 2),
	    line(p), line(p + 2 * PG));
	munmap(n, 2 * PG);
	release(g, 6);

	/* shared: the moved mapping and the file still share the pages */
	g = reserve(4, 0);
	p = mmap(g, 2 * PG, RW, MAP_SHARED | MAP_FIXED, fd, PG);
	memset(p, 'S', PG);
	n = mremap(p, 2 * PG, 3 * PG, MOVE);
	r = where(n, p, 0);
	memset(n + 2 * PG, 'T', PG);
	say("shared_file_grow_move %s %s %s old=%s file=%s", r, lineq(n), pages(n, 3), line(p),
	    fpages(fd, 6));
	char u[PG];
	memset(u, 'U', PG);
	pwrite(fd, u, PG, 2 * PG);
	say("shared_file_after_pwrite %s", pages(n, 3));
	release(g, 4);
	/* moved again, to a fixed place, then shrunk */
	g = reserve(5, 0);
	p = mremap(n, 3 * PG, 3 * PG, FIXED, g + PG);
	r = where(p, n, g + PG);
	say("shared_file_fixed %s %s %s", r, line(p), pages(p, 3));
	r = where(mremap(p, 3 * PG, PG, 0), p, 0);
	say("shared_file_shrink %s %s %s", r, line(p), pages(p, 1));
	release(g, 5);
	/* old_len 0: a second mapping of the same pages */
	p = mmap(NULL, 2 * PG, RW, MAP_SHARED, fd, 0);
	n = mremap(p, 0, 2 * PG, MOVE);
	r = where(n, p, 0);
	if (n != MAP_FAILED)
		memset(n + PG, 'D', PG);
	say("shared_file_duplicate %s %s %s old=%s %s", r, lineq(n), pages(n, 2), lineq(p),
	    pages(p, 2));
	r = where(mremap(p, 0, 2 * PG, 0), p, 0);
	say("shared_file_duplicate_no_move %s", r);
	munmap(p, 2 * PG);
	if (n != MAP_FAILED)
		munmap(n, 2 * PG);
	say("file_end %s", fpages(fd, 6));
	/* moved mappings are still the file's: a truncate reaches them */
	g = reserve(6, 0);
	p = mmap(NULL, 3 * PG, RW, MAP_SHARED, fd, 0);
	n = mremap(p, 3 * PG, 3 * PG, FIXED, g);
	char *q = mmap(NULL, 3 * PG, RW, MAP_PRIVATE, fd, 0);
	memset(q + PG, 'Q', PG);                /* a private copy */
	char *m = mremap(q, 3 * PG, 3 * PG, FIXED, g + 3 * PG);
	r = where(m, q, g + 3 * PG);
	ftruncate(fd, PG);
	say("truncated_after_move %s shared=%s private=%s", r, pages(n, 3), pages(m, 3));
	release(g, 6);
	done(fd, "f");
}

/* shared anonymous memory: the pages stay shared with a child */
static void shared_anon(void)
{
	char *p = mmap(NULL, 2 * PG, RW, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	fill(p, "rs");
	char *g = reserve(2, 0);
	char *n = mremap(p, 2 * PG, 2 * PG, FIXED, g);
	const char *r = where(n, p, g);
	say("shared_anon_fixed %s %s %s old=%s", r, line(n), pages(n, 2), line(p));
	pid_t pid = fork();
	if (pid == 0) {
		memset(n, 'C', PG);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	say("shared_anon_child_write %s %s", wstatus(st), pages(n, 2));
	/* old_len 0: the same pages at a second place */
	char *d = mremap(n, 0, 2 * PG, MOVE);
	r = where(d, n, 0);
	if (d != MAP_FAILED)
		memset(d + PG, 'E', PG);
	say("shared_anon_duplicate %s %s old=%s", r, d == MAP_FAILED ? "-" : pages(d, 2),
	    pages(n, 2));
	if (d != MAP_FAILED)
		munmap(d, 2 * PG);
	release(g, 2);
	/* grown: past the size the mapping was made with */
	g = reserve(3, 1);
	p = mmap(g, PG, RW, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	memset(p, 'G', PG);
	r = where(mremap(p, PG, 2 * PG, 0), p, 0);
	say("shared_anon_grow %s %s %s", r, line(p), pages(p, 2));
	release(g, 3);
}

/* MREMAP_DONTUNMAP: the old range stays mapped, its pages gone */
static void dontunmap(void)
{
	char *p = anon(2, RW);
	fill(p, "vw");
	char *n = mremap(p, 2 * PG, 2 * PG, DONTUNMAP, NULL);
	const char *r = where(n, p, 0);
	say("dontunmap_anon %s new=%s %s old=%s %s", r, lineq(n), pages(n, 2), lineq(p),
	    pages(p, 2));
	memset(p, 'x', PG);
	say("dontunmap_anon_old_written old=%s new=%s", pages(p, 1), pages(n, 1));
	munmap(n, 2 * PG);
	/* a part of a mapping, to a fixed place */
	char *g = reserve(3, 0);
	fill(p, "yz");
	n = mremap(p + PG, PG, PG, DONTUNMAP | MREMAP_FIXED, g + PG);
	r = where(n, p + PG, g + PG);
	say("dontunmap_fixed_part %s new=%s %s old=%s %s", r, line(n), pages(n, 1), lineq(p),
	    pages(p, 2));
	release(g, 3);
	munmap(p, 2 * PG);
	/* a hint that is free is taken */
	char *h = reserve(1, 0);
	p = anon_at(h, 1, RW);
	memset(p, 'h', PG);
	g = reserve(2, 1);
	n = mremap(p, PG, PG, DONTUNMAP, g);
	r = where(n, p, g);
	say("dontunmap_free_hint %s %s", r, pages(n, 1));
	release(h, 1);
	release(g, 2);

	int fd = pfile("d", "abc");
	p = mmap(NULL, 2 * PG, RW, MAP_PRIVATE, fd, 0);
	memset(p, 'P', PG);
	n = mremap(p, 2 * PG, 2 * PG, DONTUNMAP, NULL);
	r = where(n, p, 0);
	say("dontunmap_private_file %s new=%s %s old=%s %s", r, lineq(n), pages(n, 2), lineq(p),
	    pages(p, 2));
	munmap(n, 2 * PG);
	munmap(p, 2 * PG);
	p = mmap(NULL, 2 * PG, RW, MAP_SHARED, fd, PG);
	memset(p, 'S', PG);
	n = mremap(p, 2 * PG, 2 * PG, DONTUNMAP, NULL);
	r = where(n, p, 0);
	say("dontunmap_shared_file %s new=%s %s old=%s %s", r, lineq(n), pages(n, 2), lineq(p),
	    pages(p, 2));
	memset(p + PG, 'O', PG);
	say("dontunmap_shared_file_old_written new=%s file=%s", pages(n, 2), fpages(fd, 3));
	munmap(n, 2 * PG);
	munmap(p, 2 * PG);
	done(fd, "d");

	p = mmap(NULL, 2 * PG, RW, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	fill(p, "jk");
	n = mremap(p, 2 * PG, 2 * PG, DONTUNMAP, NULL);
	r = where(n, p, 0);
	say("dontunmap_shared_anon %s new=%s old=%s", r, pages(n, 2), pages(p, 2));
	memset(p, 'J', PG);
	say("dontunmap_shared_anon_old_written new=%s", pages(n, 1));
	munmap(n, 2 * PG);
	munmap(p, 2 * PG);

	/* locked: the new place is locked, the old one not; VmLck unchanged */
	long base = vmlck();
	p = mmap(NULL, 2 * PG, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	long l1 = vmlck() - base;
	n = mremap(p, 2 * PG, 2 * PG, DONTUNMAP, NULL);
	r = where(n, p, 0);
	long l2 = vmlck() - base;
	munmap(p, 2 * PG);
	long l3 = vmlck() - base;
	munmap(n, 2 * PG);
	say("dontunmap_locked %s lck_mapped=%+ld lck_after=%+ld lck_old_unmapped=%+ld "
	    "lck_new_unmapped=%+ld", r, l1, l2, l3, vmlck() - base);
}

/* Locked mappings: grown in place or moved, the new pages are locked and
 * resident */
static void locked(void)
{
	long base = vmlck();
	char *g = reserve(6, 1);
	char *p = mmap(g, 2 * PG, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_LOCKED, -1, 0);
	long l1 = vmlck() - base;
	const char *r = where(mremap(p, 2 * PG, 4 * PG, 0), p, 0);
	say("locked_grow_in_place %s lck_before=%+ld lck_after=%+ld %s", r, l1, vmlck() - base,
	    line(p));
	anon_at(p + 4 * PG, 1, PROT_NONE);
	char *n = mremap(p, 4 * PG, 5 * PG, MOVE);
	r = where(n, p, 0);
	say("locked_grow_move %s lck=%+ld %s", r, vmlck() - base, lineq(n));
	munmap(n, 5 * PG);
	release(g, 6);
	say("locked_unmapped lck=%+ld", vmlck() - base);
}

static void user_body(int w)
{
	drop_to_user();
	struct rlimit rl = { 2 * PG, 2 * PG };
	report(w, "setrlimit=%s ", rv(setrlimit(RLIMIT_MEMLOCK, &rl)));
	char *g = reserve(6, 1);
	char *p = mmap(g, PG, RW, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_LOCKED, -1, 0);
	report(w, "map_locked=%s ", p == MAP_FAILED ? rv(-1) : "ok");
	report(w, "grow_past_limit=%s ", where(mremap(p, PG, 3 * PG, MOVE), p, 0));
	report(w, "grow_to_limit=%s ", where(mremap(p, PG, 2 * PG, 0), p, 0));
	report(w, "same_len=%s ", where(mremap(p, 2 * PG, 2 * PG, 0), p, 0));
	char *n = mremap(p, 2 * PG, 2 * PG, FIXED, g + 3 * PG);
	report(w, "move_at_limit=%s ", where(n, p, g + 3 * PG));
	report(w, "shrink=%s ", where(mremap(n, 2 * PG, PG, 0), n, 0));
	munmap(n, PG);
	release(g, 6);
	/* the check comes after the shorter and unaligned ones */
	report(w, "grow_old_place_unmapped=%s", where(mremap(p, PG, 9 * PG, MOVE), p, 0));
}

/* glibc's realloc of a block it got from mmap (past M_MMAP_THRESHOLD,
 * 128 KiB) is an mremap(MREMAP_MAYMOVE) of its pages (mremap_chunk): the
 * bytes stay, and the block is one mapping of the new size. */
static void glibc_realloc(void)
{
	size_t old = 200 * 1024, new = 600 * 1024;
	unsigned char *b = malloc(old);
	for (size_t i = 0; i < old; i++)
		b[i] = (unsigned char)(i * 7 + 3);
	unsigned char *c = realloc(b, new);
	int same = c != NULL;
	for (size_t i = 0; same && i < old; i++)
		same = c[i] == (unsigned char)(i * 7 + 3);
	memset(c + old, 'n', new - old);
	unsigned long s = 0, e = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	char l[1024];
	while (f && fgets(l, sizeof l, f))
		if (sscanf(l, "%lx-%lx", &s, &e) == 2 && (unsigned long)c >= s && (unsigned long)c < e)
			break;
	if (f)
		fclose(f);
	say("realloc_mmapped bytes_kept=%d one_mapping_holds_it=%d", same,
	    e >= (unsigned long)c + new);
	free(c);
}

int main(int argc, char **argv)
{
	conform_start("mremap", argc, argv);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fault;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	errors();
	shrink();
	grow();
	cow();
	fixed();
	files();
	shared_anon();
	dontunmap();
	locked();
	char text[512];
	int st = child(user_body, text, sizeof text);
	say("as_user %s: %s", wstatus(st), text);
	glibc_realloc();
	conform_end();
	return 0;
}
