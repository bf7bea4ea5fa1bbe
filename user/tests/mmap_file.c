/*
 * mmap_file.c - file mappings and the write-from-mmap scenarios of
 * docs/mmap.md, run on Vellum (tools/tests/mmap.sh boots mmap_init, which
 * runs this on the ext2 root and on a ramfs).
 *
 *   mmap_file DIR                 mapping basics, then the scenarios:
 *                                 write() from a MAP_SHARED / MAP_PRIVATE
 *                                 mapping of the same file's hole page (the
 *                                 xfstests generic/638 shape), the very page
 *                                 being written as the buffer, and two
 *                                 processes writing A from B and B from A
 *   mmap_file DIR legacy MODE     the old API: mounts a ramfs with
 *                                 -o legacy_aops on DIR/legacy and writes a
 *                                 page from a mapping of itself.  MODE is the
 *                                 kernel's legacy_write_mode: "naive" expects
 *                                 the self-deadlock to be DETECTED (-EDEADLK,
 *                                 lock_page's report counted), "2copy" the
 *                                 write to complete.
 *
 * Every check is on values: return codes, offsets, contents (pread), and
 * the counters of /proc/vellum/writepath.  On ext2 the files left behind
 * (DIR/m_*.dat) are checked again on the host with debugfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

#define PG 4096

static char path[256];
static char name[128];
static const char *dir;
static int is_ext2;                /* DIR is on the ext2 root (/st), not a ramfs */

/* One counter of /proc/vellum/writepath, or -1. */
static long ctr(const char *what)
{
	static char buf[2048];
	size_t len = strlen(what);
	int fd = open("/proc/vellum/writepath", O_RDONLY);
	ssize_t n;
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	for (char *p = buf; *p; ) {
		if (!strncmp(p, what, len) && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return -1;
}

static unsigned char pat(unsigned seed, unsigned long i)
{
	return (unsigned char)((i * 131 + seed * 7 + (i >> 8)) | 1);   /* never 0 */
}

static const char *in(const char *file)
{
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return path;
}

static const char *nm(const char *test)
{
	snprintf(name, sizeof(name), "mmap.%s.%s", test, is_ext2 ? "ext2" : "ramfs");
	return name;
}

/* Bytes [off, off+len) of fd equal to want (NULL: zeros)? */
static int file_is(int fd, off_t off, size_t len, const unsigned char *want)
{
	static unsigned char got[4 * PG];
	while (len) {
		size_t n = len < sizeof(got) ? len : sizeof(got);
		if (pread(fd, got, n, off) != (ssize_t)n)
			return 0;
		for (size_t k = 0; k < n; k++)
			if (got[k] != (want ? want[k] : 0))
				return 0;
		off += n;
		len -= n;
		if (want)
			want += n;
	}
	return 1;
}

/* Run fn in a child; its termination signal (0 if it exited). */
static int child_signal(void (*fn)(void *), void *arg)
{
	pid_t pid = fork();
	int st = 0;
	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

static void touch(void *p) { (void)*(volatile char *)p; }

/* ---- basics ----------------------------------------------------------- */

static void basics(void)
{
	unsigned char buf[3 * PG];
	int fd = open(in("m_basic.dat"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	for (int k = 0; k < 3 * PG; k++)
		buf[k] = pat(1, k);
	CHECK(nm("basic.create"), fd >= 0 && write(fd, buf, 3 * PG) == 3 * PG);

	long faults0 = ctr("file_faults"), around0 = ctr("file_fault_around");
	unsigned char *r = mmap(NULL, 3 * PG, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(nm("basic.map_shared_ro"), r != MAP_FAILED && !memcmp(r, buf, 3 * PG));
	/* one fault at least; the other pages by it or by fault-around (the
	 * three are in the page cache after write()) */
	CHECK(nm("basic.counted_faults"), ctr("file_faults") >= faults0 + 1 &&
	      ctr("file_faults") - faults0 + ctr("file_fault_around") - around0 >= 3);

	/* offset in pages: page 1 at the start of the mapping */
	unsigned char *o = mmap(NULL, PG, PROT_READ, MAP_PRIVATE, fd, PG);
	CHECK(nm("basic.offset"), o != MAP_FAILED && !memcmp(o, buf + PG, PG));

	/* MAP_SHARED write: visible to read() at once, dirty, then msync */
	unsigned char *w = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	long dirtied0 = ctr("shared_dirtied");
	CHECK(nm("basic.map_shared_rw"), w != MAP_FAILED);
	w[PG + 5] = 'S';
	buf[PG + 5] = 'S';
	CHECK(nm("basic.shared_write_seen_by_read"), file_is(fd, 0, 3 * PG, buf));
	CHECK(nm("basic.shared_write_dirtied"), ctr("shared_dirtied") == dirtied0 + 1);
	CHECK(nm("basic.shared_write_seen_by_ro_map"), r[PG + 5] == 'S');
	CHECK(nm("basic.msync"), msync(w, 3 * PG, MS_SYNC) == 0);
	/* ext2: writeback write-protected the PTE (page_mkclean), so the next
	 * write faults and dirties the page again.  ramfs writes nothing back:
	 * the PTE stays writable, the page stays dirty. */
	long mkclean = ctr("mkclean");
	w[PG + 6] = 'T';
	buf[PG + 6] = 'T';
	if (is_ext2)
		CHECK(nm("basic.write_after_clean_redirties"),
		      mkclean > 0 && ctr("shared_dirtied") == dirtied0 + 2);
	CHECK(nm("basic.second_write_seen"), file_is(fd, 0, 3 * PG, buf));
	CHECK(nm("basic.msync_bad"), msync(w + 1, PG, MS_SYNC) == -1 && errno == EINVAL);

	/* MAP_PRIVATE write: a copy; the file and other mappings do not see it */
	unsigned char *p = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	long cow0 = ctr("private_cow");
	CHECK(nm("basic.map_private"), p != MAP_FAILED && p[7] == buf[7]);
	p[7] = 'P';
	CHECK(nm("basic.private_write_cow"), ctr("private_cow") == cow0 + 1 && p[7] == 'P');
	CHECK(nm("basic.private_write_not_in_file"), file_is(fd, 0, 3 * PG, buf) && r[7] == buf[7]);

	/* beyond EOF: SIGBUS (the mapping is longer than the file) */
	unsigned char *big = mmap(NULL, 5 * PG, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(nm("basic.sigbus_beyond_eof"), big != MAP_FAILED && child_signal(touch, big + 4 * PG) == SIGBUS);
	CHECK(nm("basic.no_sigbus_inside"), child_signal(touch, big + 2 * PG) == 0);

	/* truncate while mapped: pages beyond the new EOF are unmapped */
	long unm0 = ctr("truncate_unmapped");
	CHECK(nm("basic.truncate"), ftruncate(fd, PG + 100) == 0);
	CHECK(nm("basic.truncate_unmapped"), ctr("truncate_unmapped") > unm0);
	CHECK(nm("basic.sigbus_after_truncate"), child_signal(touch, r + 2 * PG) == SIGBUS);
	CHECK(nm("basic.eof_page_zeroed"), r[PG + 99] == buf[PG + 99] && r[PG + 100] == 0 &&
	      r[2 * PG - 1] == 0);
	memset(buf + PG + 100, 0, 2 * PG - 100);

	CHECK(nm("basic.munmap"), munmap(r, 3 * PG) == 0 && munmap(o, PG) == 0 &&
	      munmap(w, 3 * PG) == 0 && munmap(p, 3 * PG) == 0 && munmap(big, 5 * PG) == 0);
	CHECK(nm("basic.contents_after_munmap"), file_is(fd, 0, PG + 100, buf));
	close(fd);

	/* permissions: a read-only file cannot be mapped shared-writable */
	fd = open(in("m_basic.dat"), O_RDONLY);
	void *x = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(nm("basic.eacces_shared_write_on_rdonly"), x == MAP_FAILED && errno == EACCES);
	x = mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(nm("basic.mprotect_eacces"), x != MAP_FAILED &&
	      mprotect(x, PG, PROT_READ | PROT_WRITE) == -1 && errno == EACCES);
	munmap(x, PG);
	x = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	CHECK(nm("basic.private_write_on_rdonly_ok"), x != MAP_FAILED);
	munmap(x, PG);
	close(fd);
	x = mmap(NULL, PG, PROT_READ, MAP_SHARED, 999, 0);
	CHECK(nm("basic.ebadf"), x == MAP_FAILED && errno == EBADF);
}

/* ---- write() from a mapping of the same file's hole page --------------- */

/*
 * The file: 4 pages, i_size 4 pages, page 1 = data, pages 0, 2, 3 holes
 * never read (not in the page cache, so not uptodate when first touched).
 *   a) pwrite(page 1 <- mapping of page 0): the atomic copy faults (page 0
 *      not mapped), copies 0 bytes, write_end commits 0, the page is
 *      unlocked, page 0 is faulted in (filemap_fault reads the hole), retry.
 *      Page 1 ends up zeros.
 *   b) write() at page 2 + 2000 from the mapping of page 2 + 0: source and
 *      destination in the same hole page.
 *   c) the very page, same offset: write(page 3 + 500 <- map + 3 PG + 500).
 */
static void same_file(int type, const char *tag)
{
	char t[64];
	unsigned char data[PG];
	snprintf(path, sizeof(path), "%s/m_%s.dat", dir, tag);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	for (int k = 0; k < PG; k++)
		data[k] = pat(2, k);
	snprintf(t, sizeof(t), "%s.setup", tag);
	CHECK(nm(t), fd >= 0 && ftruncate(fd, 4 * PG) == 0 && pwrite(fd, data, PG, PG) == PG);
	unsigned char *m = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, type, fd, 0);
	snprintf(t, sizeof(t), "%s.mmap", tag);
	CHECK(nm(t), m != MAP_FAILED);
	if (m == MAP_FAILED)
		return;

	long sc0 = ctr("short_copies"), re0 = ctr("retries"), rd0 = ctr("file_fault_reads");
	ssize_t n = pwrite(fd, m, PG, PG);                            /* a */
	snprintf(t, sizeof(t), "%s.hole_to_page1", tag);
	CHECK(nm(t), n == PG && file_is(fd, PG, PG, NULL) && file_is(fd, 0, PG, NULL));
	snprintf(t, sizeof(t), "%s.short_copy_and_retry", tag);
	CHECK(nm(t), ctr("short_copies") > sc0 && ctr("retries") > re0 && ctr("file_fault_reads") > rd0);

	snprintf(t, sizeof(t), "%s.same_page", tag);                 /* b */
	CHECK(nm(t), lseek(fd, 2 * PG + 2000, SEEK_SET) == 2 * PG + 2000 &&
	      write(fd, m + 2 * PG, 100) == 100 && lseek(fd, 0, SEEK_CUR) == 2 * PG + 2100 &&
	      file_is(fd, 2 * PG, PG, NULL));

	long sc1 = ctr("short_copies");
	snprintf(t, sizeof(t), "%s.same_page_same_offset", tag);     /* c */
	CHECK(nm(t), lseek(fd, 3 * PG + 500, SEEK_SET) == 3 * PG + 500 &&
	      write(fd, m + 3 * PG + 500, 200) == 200 && lseek(fd, 0, SEEK_CUR) == 3 * PG + 700 &&
	      file_is(fd, 3 * PG, PG, NULL));
	snprintf(t, sizeof(t), "%s.same_offset_retried", tag);
	CHECK(nm(t), ctr("short_copies") > sc1);

	/* the mapping shows what write() put there (MAP_PRIVATE: pages not yet
	 * copied still show the page cache) */
	snprintf(t, sizeof(t), "%s.map_sees_write", tag);
	CHECK(nm(t), m[PG] == 0 && m[PG + 4095] == 0);

	/* now write real data from the mapping: page 0 <- page 1 after a
	 * write() filled page 1 with data again (cached, uptodate source) */
	pwrite(fd, data, PG, PG);
	snprintf(t, sizeof(t), "%s.data_from_map", tag);
	CHECK(nm(t), pwrite(fd, m + PG, PG, 0) == PG && file_is(fd, 0, PG, data));
	struct stat st;
	snprintf(t, sizeof(t), "%s.size", tag);
	CHECK(nm(t), fstat(fd, &st) == 0 && st.st_size == 4 * PG);
	munmap(m, 4 * PG);
	close(fd);
}

/* ---- ABBA: two processes, A from a mapping of B and B from one of A ---- */

#define ROUNDS 24

/* Round r: dst page 2r+1 <- src page 2r (a hole for even r, data for odd r). */
static int abba_side(int dstfd, int srcfd)
{
	unsigned char *m = mmap(NULL, 2 * ROUNDS * PG, PROT_READ, MAP_SHARED, srcfd, 0);
	if (m == MAP_FAILED)
		return 1;
	for (int r = 0; r < ROUNDS; r++)
		if (pwrite(dstfd, m + 2 * r * PG, PG, (off_t)(2 * r + 1) * PG) != PG)
			return 2;
	return munmap(m, 2 * ROUNDS * PG) ? 3 : 0;
}

static void abba(void)
{
	int fa = open(in("m_abba_a.dat"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	int fb = open(in("m_abba_b.dat"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	unsigned char page[PG];
	int ok = fa >= 0 && fb >= 0 && ftruncate(fa, 2 * ROUNDS * PG) == 0 &&
		 ftruncate(fb, 2 * ROUNDS * PG) == 0;
	for (int r = 0; r < ROUNDS && ok; r++) {
		memset(page, 'a', PG);                       /* destinations: to be replaced */
		ok &= pwrite(fa, page, PG, (off_t)(2 * r + 1) * PG) == PG;
		memset(page, 'b', PG);
		ok &= pwrite(fb, page, PG, (off_t)(2 * r + 1) * PG) == PG;
		if (r & 1) {                                 /* odd rounds: data sources */
			for (int k = 0; k < PG; k++) page[k] = pat(10 + r, k);
			ok &= pwrite(fa, page, PG, (off_t)2 * r * PG) == PG;
			for (int k = 0; k < PG; k++) page[k] = pat(50 + r, k);
			ok &= pwrite(fb, page, PG, (off_t)2 * r * PG) == PG;
		}
	}
	CHECK(nm("abba.setup"), ok);
	long re0 = ctr("retries");
	pid_t pid = fork();
	if (pid == 0)
		_exit(abba_side(fa, fb));                    /* A <- B */
	int mine = abba_side(fb, fa);                        /* B <- A */
	int st = -1;
	CHECK(nm("abba.both_complete"), pid > 0 && waitpid(pid, &st, 0) == pid &&
	      WIFEXITED(st) && ((st >> 8) & 0xff) == 0 && mine == 0);
	ok = 1;
	for (int r = 0; r < ROUNDS; r++) {
		unsigned char wa[PG], wb[PG];
		for (int k = 0; k < PG; k++) {
			wa[k] = (r & 1) ? pat(50 + r, k) : 0;    /* A's odd page = B's even page */
			wb[k] = (r & 1) ? pat(10 + r, k) : 0;
		}
		ok &= file_is(fa, (off_t)(2 * r + 1) * PG, PG, wa);
		ok &= file_is(fb, (off_t)(2 * r + 1) * PG, PG, wb);
	}
	CHECK(nm("abba.contents"), ok);
	/* Each side's hole sources are not in the page cache, so every one of
	 * them faults and retries (ROUNDS / 2 per side); a data source may
	 * already be mapped by fault-around of an earlier fault. */
	CHECK(nm("abba.retried"), ctr("retries") >= re0 + ROUNDS);
	close(fa);
	close(fb);

	/* The exact ABBA of the old API: page k of C from page k of D and page
	 * k of D from page k of C at the same time, every page a hole that is
	 * not uptodate: the old path locks Ck and faults on Dk while the other
	 * locks Dk and faults on Ck.  Holes both ways: the result is zeros
	 * whatever the interleaving. */
	int fc = open(in("m_abba_c.dat"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	int fdd = open(in("m_abba_d.dat"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(nm("abba_same.setup"), fc >= 0 && fdd >= 0 && ftruncate(fc, ROUNDS * PG) == 0 &&
	      ftruncate(fdd, ROUNDS * PG) == 0);
	pid = fork();
	if (pid == 0) {
		unsigned char *m = mmap(NULL, ROUNDS * PG, PROT_READ, MAP_SHARED, fdd, 0);
		int bad = m == MAP_FAILED;
		for (int k = 0; k < ROUNDS && !bad; k++)
			bad = pwrite(fc, m + k * PG, PG, (off_t)k * PG) != PG;
		_exit(bad);
	}
	unsigned char *m = mmap(NULL, ROUNDS * PG, PROT_READ, MAP_SHARED, fc, 0);
	int bad = m == MAP_FAILED;
	for (int k = 0; k < ROUNDS && !bad; k++)
		bad = pwrite(fdd, m + k * PG, PG, (off_t)k * PG) != PG;
	st = -1;
	CHECK(nm("abba_same.both_complete"), pid > 0 && waitpid(pid, &st, 0) == pid &&
	      WIFEXITED(st) && ((st >> 8) & 0xff) == 0 && !bad);
	struct stat sc, sd;
	CHECK(nm("abba_same.contents"), file_is(fc, 0, ROUNDS * PG, NULL) &&
	      file_is(fdd, 0, ROUNDS * PG, NULL) && fstat(fc, &sc) == 0 && fstat(fdd, &sd) == 0 &&
	      sc.st_size == ROUNDS * PG && sd.st_size == ROUNDS * PG);
	if (m != MAP_FAILED)
		munmap(m, ROUNDS * PG);
	close(fc);
	close(fdd);
}

/* ---- the legacy API (prepare_write/commit_write) ------------------------ */

static void legacy(const char *mode)
{
	char mnt[200];
	snprintf(mnt, sizeof(mnt), "%s/legacy", dir);
	mkdir(mnt, 0755);
	CHECK("mmap.legacy.mount", mount("none", mnt, "ramfs", 0, "legacy_aops") == 0);
	snprintf(path, sizeof(path), "%s/f", mnt);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK("mmap.legacy.setup", fd >= 0 && ftruncate(fd, 2 * PG) == 0);
	unsigned char *m = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK("mmap.legacy.mmap", m != MAP_FAILED);
	if (m == MAP_FAILED)
		return;
	long sd0 = ctr("self_deadlocks"), fd0 = ctr("file_fault_deadlocks");
	long nv0 = ctr("legacy_naive");
	/* the very page being written, same offset, a hole not in the cache */
	ssize_t n = pwrite(fd, m + 100, 200, 100);
	int e = errno;
	if (!strcmp(mode, "naive")) {
		CHECK("mmap.legacy.naive_returns_edeadlk", n == -1 && e == EDEADLK);
		CHECK("mmap.legacy.naive_reported_self_deadlock",
		      ctr("self_deadlocks") == sd0 + 1 && ctr("file_fault_deadlocks") == fd0 + 1);
		CHECK("mmap.legacy.naive_path_taken", ctr("legacy_naive") > nv0);
	} else {
		CHECK("mmap.legacy.2copy_completes", n == 200 && file_is(fd, 0, 2 * PG, NULL));
		CHECK("mmap.legacy.2copy_no_deadlock", ctr("self_deadlocks") == sd0 &&
		      ctr("legacy_naive") == nv0);
	}
	/* either way the system goes on: a plain write, then one from a
	 * mapped (uptodate) page of the same file */
	unsigned char d[300];
	for (int k = 0; k < 300; k++)
		d[k] = pat(3, k);
	CHECK("mmap.legacy.plain_write_after", pwrite(fd, d, 300, PG) == 300 &&
	      file_is(fd, PG, 300, d));
	CHECK("mmap.legacy.write_from_uptodate_map", pwrite(fd, m + PG, 300, 1000) == 300 &&
	      file_is(fd, 1000, 300, d));
	munmap(m, 2 * PG);
	close(fd);
	CHECK("mmap.legacy.umount", umount(mnt) == 0);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: mmap_file DIR [legacy naive|2copy]\n");
		return 2;
	}
	dir = argv[1];
	is_ext2 = !strncmp(dir, "/st", 3);
	if (argc >= 4 && !strcmp(argv[2], "legacy")) {
		legacy(argv[3]);
		return check_summary();
	}
	basics();
	same_file(MAP_SHARED, "shared");
	same_file(MAP_PRIVATE, "private");
	abba();
	return check_summary();
}
