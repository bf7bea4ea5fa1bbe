/* mmap_file.c - conformance: file mappings at and past end-of-file, and what
 * a store through a mapping does to the file (issue 22).  Reads past EOF in
 * the last page, SIGBUS beyond it, stores past EOF then a longer file,
 * MAP_PRIVATE and MAP_SHARED after truncate, mtime/ctime after a store
 * (as changed yes/no against a fixed old time), msync of pages that fill
 * holes (st_blocks).  Prints observations only (conform.h).
 * Fills: the file's bytes are 'x' (78), stores 'S' (53), private stores 'P' (50).
 */
#include "conform.h"
#include <setjmp.h>
#include <sys/mman.h>
#include <time.h>

#define PG 4096

/* mem(p, len): memory's bytes as runs, like bytes() ("HHxN ..."). */
static const char *mem(const volatile unsigned char *p, size_t len)
{
	static char out[512];
	size_t o = 0;
	out[0] = 0;
	for (size_t i = 0; i < len && o < sizeof out - 24;) {
		size_t j = i;
		while (j < len && p[j] == p[i])
			j++;
		o += snprintf(out + o, sizeof out - o, "%s%02xx%zu", o ? " " : "", p[i], j - i);
		i = j;
	}
	return out;
}

static unsigned char *map(int fd, size_t len, int prot, int flags, off_t off, const char *key)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);
	if (p == MAP_FAILED) {
		say("%s mmap ret=%s", key, rv(-1));
		return NULL;
	}
	return p;
}

/* touch(key, p, write): read (or store 'S' at) *p in a child; print how it ended. */
static void touch(const char *key, volatile unsigned char *p, int write)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (write)
			*p = 'S';
		else
			(void)*p;
		exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	say("%s %s %s", key, write ? "store" : "load", wstatus(st));
}

/* 1. Reading past EOF within the last page: zeros; beyond it: SIGBUS. */
static void past_eof(void)
{
	int fd = fresh("past", 100, 0);
	unsigned char *p = map(fd, 3 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, 0, "past_eof");
	if (!p)
		return;
	say("past_eof_100_page0 %s", mem(p, PG));
	touch("past_eof_100_page1", p + PG, 0);
	touch("past_eof_100_page1", p + PG, 1);
	touch("past_eof_100_page2_end", p + 3 * PG - 1, 0);
	touch("past_eof_100_page0_last_byte", p + PG - 1, 1);
	say("past_eof_100_after_child_store size=%lld %s", fsize(fd), bytes(fd, 0, PG));
	munmap(p, 3 * PG);

	p = map(fd, PG, PROT_READ, MAP_SHARED, 2 * PG, "past_eof_offset_8192");
	if (p) {
		say("past_eof_offset_8192 mmap ok");
		touch("past_eof_offset_8192_page0", p, 0);
		munmap(p, PG);
	}
	done(fd, "past");

	fd = fresh("past", 0, 0);
	p = map(fd, PG, PROT_READ | PROT_WRITE, MAP_SHARED, 0, "past_eof_empty");
	if (p) {
		say("past_eof_empty mmap ok");
		touch("past_eof_empty_page0", p, 0);
		touch("past_eof_empty_page0", p, 1);
		say("past_eof_empty_after size=%lld", fsize(fd));
		munmap(p, PG);
	}
	done(fd, "past");

	fd = fresh("past", 100, 0);
	p = map(fd, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, "past_eof_private");
	if (p) {
		say("past_eof_private_page0 %s", mem(p, PG));
		p[200] = 'P';
		say("past_eof_private_store200 %s size=%lld %s", mem(p, PG), fsize(fd), bytes(fd, 0, PG));
		touch("past_eof_private_page1", p + PG, 0);
		touch("past_eof_private_page1", p + PG, 1);
		munmap(p, 2 * PG);
	}
	done(fd, "past");
}

/* 2. Stores past EOF in the last page, then the file made longer. */
static void store_past_eof(void)
{
	for (int how = 0; how < 4; how++) {
		/* how 0: ftruncate longer at once; 1: msync(MS_SYNC) first;
		 * 2: munmap first; 3: pwrite past the page instead of ftruncate */
		static const char *name[] = { "ftruncate", "msync_ftruncate",
					      "munmap_ftruncate", "pwrite_8192" };
		char key[64];
		snprintf(key, sizeof key, "store_past_eof_%s", name[how]);
		int fd = fresh("spe", 100, 0);
		unsigned char *p = map(fd, PG, PROT_READ | PROT_WRITE, MAP_SHARED, 0, key);
		if (!p)
			return;
		memset(p + 100, 'S', 100);
		say("%s stored size=%lld read100 %s", key, fsize(fd), bytes(fd, 100, 100));
		if (how == 1)
			say("%s msync ret=%s", key, rv(msync(p, PG, MS_SYNC)));
		if (how == 2)
			munmap(p, PG);
		long long r = how == 3 ? pwrite(fd, "z", 1, 2 * PG) : ftruncate(fd, 2 * PG);
		say("grown_%s ret=%s size=%lld file %s", key, rv(r), fsize(fd), bytes(fd, 0, 2 * PG));
		if (how != 2) {
			say("grown_%s map %s", key, mem(p, PG));
			munmap(p, PG);
		}
		done(fd, "spe");
	}
}

/* 3. Truncate under MAP_PRIVATE and MAP_SHARED mappings. */
static void after_truncate(void)
{
	int fd = fresh("trunc", 2 * PG, 0);
	unsigned char *pa = map(fd, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, "private_trunc");
	unsigned char *pb = map(fd, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, "private_trunc");
	unsigned char *sh = map(fd, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, 0, "shared_trunc");
	if (!pa || !pb || !sh)
		return;
	/* pa: both pages copied (stores); pb: both read only */
	pa[0] = 'P';
	pa[PG + 10] = 'P';
	say("private_trunc_before cow0 %s", mem(pa, 16));
	say("private_trunc_before read1 %s", mem(pb + PG, 16));
	long long r = ftruncate(fd, 100);
	say("private_trunc_ftruncate_100 ret=%s size=%lld", rv(r), fsize(fd));
	say("private_trunc_cow_page0 %s", mem(pa, PG));
	say("private_trunc_read_page0 %s", mem(pb, PG));
	say("shared_trunc_page0 %s", mem(sh, PG));
	touch("private_trunc_cow_page1", pa + PG, 0);
	touch("private_trunc_read_page1", pb + PG, 0);
	touch("private_trunc_read_page1", pb + PG, 1);
	touch("shared_trunc_page1", sh + PG, 0);
	/* stores past the new EOF in page 0 */
	pb[200] = 'P';
	sh[300] = 'S';
	say("private_trunc_store200 %s", mem(pb, PG));
	say("shared_trunc_store300 file size=%lld %s", fsize(fd), bytes(fd, 0, PG));
	r = ftruncate(fd, 2 * PG);
	say("grown_trunc_store300_8192 ret=%s size=%lld file %s", rv(r), fsize(fd), bytes(fd, 0, 2 * PG));
	say("trunc_grow private_cow %s", mem(pa, 2 * PG));
	say("trunc_grow private_read %s", mem(pb, 2 * PG));
	say("grown_trunc_store300_8192 shared %s", mem(sh, 2 * PG));
	munmap(pa, 2 * PG);
	munmap(pb, 2 * PG);
	munmap(sh, 2 * PG);
	done(fd, "trunc");
}

/* 4. mtime and ctime after stores through a mapping.  The times are set to
 * a fixed old value (mtime) and the test sleeps past a second (ctime), so
 * "changed yes/no" does not depend on the clock's granularity. */
struct tstate { struct timespec m, c; };

static void tget(int fd, struct tstate *t)
{
	struct stat st;
	fstat(fd, &st);
	t->m = st.st_mtim;
	t->c = st.st_ctim;
}

static int tdiff(struct timespec a, struct timespec b)
{
	return a.tv_sec != b.tv_sec || a.tv_nsec != b.tv_nsec;
}

/* Set the file's times old, wait past a second; the state to compare with. */
static void tsetold(int fd, struct tstate *t)
{
	struct timespec old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	futimens(fd, old);
	struct timespec d = { 1, 100000000 };
	nanosleep(&d, NULL);
	tget(fd, t);
}

static void tsay(const char *key, int fd, struct tstate *t0)
{
	struct tstate t;
	tget(fd, &t);
	say("%s mtime_changed=%s ctime_changed=%s", key, tdiff(t.m, t0->m) ? "yes" : "no",
	    tdiff(t.c, t0->c) ? "yes" : "no");
}

static void times(void)
{
	struct tstate t0;
	int fd = fresh("times", 2 * PG, 0);
	unsigned char *p = map(fd, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, 0, "times");
	if (!p)
		return;
	tsetold(fd, &t0);
	(void)*(volatile unsigned char *)p;
	tsay("times_after_load", fd, &t0);
	p[0] = 'S';
	tsay("times_after_store", fd, &t0);
	say("times msync ret=%s", rv(msync(p, 2 * PG, MS_SYNC)));
	tsay("times_after_store_msync", fd, &t0);

	/* the page was written back: a second store faults again */
	tsetold(fd, &t0);
	p[1] = 'S';
	tsay("times_store_after_msync", fd, &t0);

	/* the page is dirty and writable: a third store does not fault */
	tsetold(fd, &t0);
	p[2] = 'S';
	tsay("times_store_dirty_page", fd, &t0);
	say("times msync2 ret=%s", rv(msync(p, 2 * PG, MS_SYNC)));
	tsay("times_store_dirty_page_msync", fd, &t0);

	/* a store, then munmap (no msync) */
	tsetold(fd, &t0);
	p[PG] = 'S';
	munmap(p, 2 * PG);
	tsay("times_store_munmap", fd, &t0);
	say("times_bytes %s", bytes(fd, 0, 2 * PG));

	/* MAP_PRIVATE stores do not touch the file */
	p = map(fd, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, 0, "times_private");
	if (p) {
		tsetold(fd, &t0);
		p[0] = 'P';
		p[PG] = 'P';
		tsay("times_private_store", fd, &t0);
		msync(p, 2 * PG, MS_SYNC);
		munmap(p, 2 * PG);
		tsay("times_private_store_munmap", fd, &t0);
	}
	done(fd, "times");
}

/* 5. msync of pages that fill holes: the blocks are the file's. */
static void holes(void)
{
	int fd = fresh("holes", 0, 0);
	long long r = ftruncate(fd, 16 * PG);
	struct stat st;
	fstat(fd, &st);
	say("holes_ftruncate_64KiB ret=%s size=%lld blocks=%lld", rv(r), fsize(fd), (long long)st.st_blocks);
	unsigned char *p = map(fd, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, 0, "holes");
	if (!p)
		return;
	for (int i = 0; i < 16; i++)
		memset(p + i * PG, 'S', PG);
	say("holes msync ret=%s", rv(msync(p, 16 * PG, MS_SYNC)));
	fstat(fd, &st);
	say("holes_after_msync size=%lld blocks=%lld", fsize(fd), (long long)st.st_blocks);
	long long d = lseek(fd, 0, SEEK_DATA), h = lseek(fd, 0, SEEK_HOLE);
	say("holes_after_msync seek_data=%s seek_hole=%s", rv(d), rv(h));
	munmap(p, 16 * PG);
	say("holes_bytes %s", bytes(fd, 0, 16 * PG));
	done(fd, "holes");
}

int main(int argc, char **argv)
{
	conform_start("mmap_file", argc, argv);
	past_eof();
	store_past_eof();
	after_truncate();
	times();
	holes();
	conform_end();
	return 0;
}
