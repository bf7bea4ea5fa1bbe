/* names.c - conformance: the name space (issue 22).  Hard links and link
 * counts, unlink of an open file, symlinks (readlink, lstat, ELOOP,
 * O_NOFOLLOW), rename's cases, directories (getdents64's d_type, ".",
 * "..", st_nlink, rmdir's cases including the cwd), the errno a bad path
 * gets and which check comes first, umask.  Times are in times.c.
 * Works in DIR/n (relative names: the program's cwd is DIR/n).  Prints
 * observations only (conform.h); directory listings are sorted.
 */
#include "conform.h"
#include <dirent.h>
#include <sys/statfs.h>
#include <sys/syscall.h>

/* A stat's kind as text. */
static const char *kind(mode_t m)
{
	return S_ISREG(m) ? "reg" : S_ISDIR(m) ? "dir" : S_ISLNK(m) ? "lnk" : "other";
}

/* stat (or lstat) of p as "ret=... kind nlink=N size=N" */
static const char *st(const char *p, int l)
{
	static char ring[4][96];
	static int n;
	char *b = ring[n++ & 3];
	struct stat s;
	int r = l ? lstat(p, &s) : stat(p, &s);
	if (r < 0)
		snprintf(b, 96, "ret=%s", rv(r));
	else
		snprintf(b, 96, "ret=0 %s nlink=%lu size=%lld", kind(s.st_mode),
			 (unsigned long)s.st_nlink, (long long)s.st_size);
	return b;
}

static unsigned long nlink(const char *p)
{
	struct stat s;
	return lstat(p, &s) < 0 ? 999 : (unsigned long)s.st_nlink;
}

static ino_t ino(const char *p)
{
	struct stat s;
	return lstat(p, &s) < 0 ? 0 : s.st_ino;
}

static void mkf(const char *p, const char *data)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, strlen(data)) != (ssize_t)strlen(data))
		say("error mkf %s", p);
	close(fd);
}

/* The contents of p (up to 64 bytes), or the open's error. */
static const char *cat(const char *p)
{
	static char b[80];
	int fd = open(p, O_RDONLY);
	if (fd < 0) {
		snprintf(b, sizeof b, "open=%s", rv(fd));
		return b;
	}
	ssize_t n = read(fd, b + 1, 64);
	close(fd);
	b[0] = '"';
	if (n < 0)
		n = 0;
	b[n + 1] = '"';
	b[n + 2] = 0;
	return b;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* getdents64 of p: "name:TYPE ..." sorted, or the error. */
static const char *ls(const char *p)
{
	static char out[1024];
	static char buf[4096];
	static char names[64][300];
	char *v[64];
	int n = 0;
	int fd = open(p, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		snprintf(out, sizeof out, "open=%s", rv(fd));
		return out;
	}
	for (;;) {
		long r = syscall(SYS_getdents64, fd, buf, sizeof buf);
		if (r < 0) {
			snprintf(out, sizeof out, "getdents64=%s", rv(r));
			close(fd);
			return out;
		}
		if (r == 0)
			break;
		for (long o = 0; o < r;) {
			struct dirent64 *d = (struct dirent64 *)(buf + o);
			const char *t = d->d_type == DT_REG ? "REG" : d->d_type == DT_DIR ? "DIR" :
					d->d_type == DT_LNK ? "LNK" : d->d_type == DT_UNKNOWN ? "UNKNOWN" : "OTHER";
			if (n < 64) {
				snprintf(names[n], sizeof names[n], "%s:%s", d->d_name, t);
				v[n] = names[n];
				n++;
			}
			o += d->d_reclen;
		}
	}
	close(fd);
	qsort(v, n, sizeof v[0], cmpstr);
	size_t o = snprintf(out, sizeof out, "n=%d", n);
	for (int i = 0; i < n && o < sizeof out - 1; i++)
		o += snprintf(out + o, sizeof out - o, " %s", v[i]);
	return out;
}

/* 1. Hard links: counts, errors, unlink of an open file. */
static void links(void)
{
	const char *r;
	mkf("f", "hello");
	mkdir("d", 0755);
	r = rv(link("f", "g"));
	say("link_new ret=%s nlink=%lu same_ino=%d", r, nlink("f"), ino("f") == ino("g"));
	r = rv(link("g", "h"));
	say("link_third ret=%s nlink=%lu", r, nlink("f"));
	r = rv(unlink("g"));
	say("unlink_one ret=%s nlink=%lu h=%s", r, nlink("f"), cat("h"));
	say("link_over_existing ret=%s", rv(link("f", "h")));
	say("link_to_itself ret=%s", rv(link("f", "f")));
	say("link_missing ret=%s", rv(link("nope", "x")));
	r = rv(link("d", "dl"));
	say("link_dir ret=%s nlink_dir=%lu", r, nlink("d"));
	say("link_into_missing_dir ret=%s", rv(link("f", "nope/x")));
	say("link_into_file ret=%s", rv(link("f", "f/x")));
	say("link_new_trailing_slash ret=%s", rv(link("f", "x/")));
	say("link_old_trailing_slash ret=%s", rv(link("f/", "x")));
	say("link_empty_old ret=%s", rv(link("", "x")));
	say("link_empty_new ret=%s", rv(link("f", "")));
	say("link_cross_fs ret=%s", rv(link("f", strcmp(c_fs, "ramfs") ? "/tmp/xdev" : "/xdev")));
	say("link_to_dot ret=%s", rv(link("f", "d/.")));
	unlink("h");
	r = rv(unlink("f"));
	say("unlink_last ret=%s f=%s", r, st("f", 1));

	/* Unlinked while open: still there through the fd; the space comes back at close. */
	struct statfs s0, s1, s2, s3;
	sync();
	statfs(".", &s0);
	int fd = open("open", O_RDWR | O_CREAT | O_TRUNC, 0644);
	for (int i = 0; i < 4; i++)
		write(fd, xs, sizeof xs);
	fsync(fd);
	statfs(".", &s1);
	r = rv(unlink("open"));
	say("open_unlink ret=%s stat=%s", r, st("open", 1));
	struct stat fs;
	fstat(fd, &fs);
	say("open_unlink fstat nlink=%lu size=%lld", (unsigned long)fs.st_nlink, (long long)fs.st_size);
	r = rv(pwrite(fd, "abc", 3, 65536));
	say("open_unlink pwrite ret=%s read %s", r, bytes(fd, 65530, 100));
	fstat(fd, &fs);
	say("open_unlink fstat_after_write nlink=%lu size=%lld", (unsigned long)fs.st_nlink, (long long)fs.st_size);
	statfs(".", &s2);
	say("open_unlink ls %s", ls("."));
	close(fd);
	sync();
	statfs(".", &s3);
	say("open_unlink bfree written_less=%s unlinked_open_less=%s closed_back=%s",
	    s1.f_bfree < s0.f_bfree ? "yes" : "no", s2.f_bfree < s0.f_bfree ? "yes" : "no",
	    s3.f_bfree == s0.f_bfree ? "yes" : "no");
	rmdir("d");
}

/* 2. Symlinks. */
static void symlinks(void)
{
	static char t[5000];
	char buf[5000];
	const char *r;
	mkf("f", "data");
	mkdir("d", 0755);
	mkf("d/in", "inside");
	say("symlink ret=%s", rv(symlink("f", "sl")));
	ssize_t n = readlink("sl", buf, sizeof buf);
	say("readlink ret=%s text=%.*s", rv(n), n > 0 ? (int)n : 0, buf);
	say("readlink_short ret=%s", rv(readlink("sl", buf, 0)));
	n = readlink("sl", buf, 1);
	say("readlink_1 ret=%s text=%.*s", rv(n), n > 0 ? (int)n : 0, buf);
	say("readlink_file ret=%s", rv(readlink("f", buf, sizeof buf)));
	say("readlink_missing ret=%s", rv(readlink("nope", buf, sizeof buf)));
	say("lstat_symlink %s", st("sl", 1));
	say("stat_symlink %s", st("sl", 0));
	say("open_symlink %s", cat("sl"));
	say("open_nofollow ret=%s", rv(open("sl", O_RDONLY | O_NOFOLLOW)));
	int fd = open("f", O_RDONLY | O_NOFOLLOW);
	say("open_nofollow_file ret=%s", rv(fd < 0 ? fd : 0));
	close(fd);
	say("open_creat_excl_symlink ret=%s", rv(open("sl", O_RDWR | O_CREAT | O_EXCL, 0644)));
	say("symlink_over_existing ret=%s", rv(symlink("x", "f")));
	say("symlink_empty_target ret=%s", rv(symlink("", "e")));
	say("symlink_trailing_slash_file ret=%s", rv(stat("sl/", &(struct stat){0})));
	say("symlink_dir ret=%s", rv(symlink("d", "sd")));
	say("stat_symlink_dir %s lstat %s slash %s", st("sd", 0), st("sd", 1), st("sd/", 1));
	say("through_symlink_dir %s", cat("sd/in"));
	say("ls_symlink_dir %s", ls("sd"));
	/* dangling: stat fails, lstat works, O_CREAT creates the target */
	say("symlink_dangling ret=%s", rv(symlink("target", "dang")));
	say("dangling stat=%s lstat=%s open=%s", st("dang", 0), st("dang", 1), cat("dang"));
	fd = open("dang", O_WRONLY | O_CREAT, 0644);
	r = rv(fd < 0 ? fd : 0);
	say("dangling_creat ret=%s target=%s", r, st("target", 1));
	close(fd);
	say("dangling_creat_excl ret=%s", rv(open("dang", O_WRONLY | O_CREAT | O_EXCL, 0644)));
	say("dangling_mkdir ret=%s", rv(mkdir("dang", 0755)));
	/* loops */
	symlink("loop2", "loop1");
	symlink("loop1", "loop2");
	symlink("self", "self");
	say("loop stat=%s lstat=%s open=%s", st("loop1", 0), st("loop1", 1), cat("loop1"));
	r = st("self", 0);
	say("loop_self stat=%s creat=%s", r, rv(open("self", O_RDWR | O_CREAT, 0644)));
	say("loop_middle stat=%s", st("loop1/x", 1));
	say("loop_nofollow ret=%s", rv(open("loop1", O_RDONLY | O_NOFOLLOW)));
	/* a chain: c0 -> c1 -> ... -> c40 -> f: 41 links from c0, 40 from c1 */
	for (int i = 0; i <= 40; i++) {
		char a[8], b[8];
		snprintf(a, sizeof a, "c%d", i);
		snprintf(b, sizeof b, "c%d", i + 1);
		symlink(i == 40 ? "f" : b, a);
	}
	say("chain_41 %s", st("c0", 0));
	say("chain_40 %s", st("c1", 0));
	for (int i = 0; i <= 40; i++) {
		char a[8];
		snprintf(a, sizeof a, "c%d", i);
		unlink(a);
	}
	/* long targets: ext2 keeps one under 60 bytes in the inode (st_blocks 0) */
	int lens[] = { 59, 60, 1023, 1024, 4095 };
	for (unsigned i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		memset(t, 'a', lens[i]);
		t[lens[i]] = 0;
		int ret = symlink(t, "long");
		r = rv(ret);
		struct stat s = { 0 };
		lstat("long", &s);
		n = readlink("long", buf, sizeof buf);
		say("symlink_len_%d ret=%s size=%lld blocks=%lld readlink=%s same=%d", lens[i], r,
		    ret ? 0LL : (long long)s.st_size, ret ? 0LL : (long long)s.st_blocks, rv(n),
		    n == lens[i] && !memcmp(buf, t, n));
		unlink("long");
	}
	memset(t, 'a', 4096);
	t[4096] = 0;
	say("symlink_len_4096 ret=%s", rv(symlink(t, "long")));
	say("ls %s", ls("."));
	r = rv(rename("sl", "sl2"));
	say("rename_symlink ret=%s new=%s f=%s", r, st("sl2", 1), st("f", 1));
	r = rv(unlink("sl2"));
	say("unlink_symlink ret=%s f=%s", r, st("f", 1));
	say("unlink_symlink_dir_slash ret=%s", rv(unlink("sd/")));
	say("rmdir_symlink_dir ret=%s", rv(rmdir("sd")));
	unlink("sd");
	unlink("dang"); unlink("target"); unlink("loop1"); unlink("loop2"); unlink("self");
	unlink("d/in"); rmdir("d"); unlink("f");
}

/* 3. rename. */
static void renames(void)
{
	mkf("a", "AAAA");
	mkf("b", "BB");
	int fd = open("b", O_RDONLY);
	const char *r = rv(rename("a", "b"));
	say("rename_over_file ret=%s a=%s b=%s", r, st("a", 1), cat("b"));
	struct stat s;
	fstat(fd, &s);
	say("rename_over_file old_target nlink=%lu %s", (unsigned long)s.st_nlink, bytes(fd, 0, 10));
	close(fd);
	mkf("a", "A2");
	link("b", "b2");
	r = rv(rename("a", "b"));
	say("rename_over_linked ret=%s b=%s b2=%s nlink_b2=%lu", r, cat("b"), cat("b2"),
	    nlink("b2"));
	r = rv(rename("b", "b"));
	say("rename_to_itself ret=%s b=%s", r, st("b", 1));
	link("b", "b3");
	r = rv(rename("b", "b3"));
	say("rename_hardlinks ret=%s b=%s b3=%s", r, st("b", 1), st("b3", 1));
	unlink("b3"); unlink("b2");
	mkf("f", "F");
	mkdir("d", 0755);
	mkdir("e", 0755);
	mkdir("full", 0755);
	mkf("full/x", "X");
	mkdir("d/sub", 0755);
	say("rename_file_over_dir ret=%s", rv(rename("f", "e")));
	say("rename_dir_over_file ret=%s", rv(rename("e", "f")));
	say("rename_dir_over_nonempty ret=%s", rv(rename("e", "full")));
	r = rv(rename("d/sub", "e"));
	say("rename_dir_over_empty ret=%s e=%s nlink_dot=%lu", r, st("e", 1), nlink("."));
	say("rename_dir_nlinks d=%lu e=%lu", nlink("d"), nlink("e"));
	mkdir("d/sub", 0755);
	say("rename_dir_into_own_sub ret=%s", rv(rename("d", "d/sub/x")));
	say("rename_dir_into_itself ret=%s", rv(rename("d", "d/x")));
	say("rename_parent_over_child ret=%s", rv(rename("d", "d/sub")));
	say("rename_child_over_parent ret=%s", rv(rename("d/sub", "d")));
	say("rename_dir_to_itself ret=%s", rv(rename("d", "d")));
	r = rv(rename("d/sub", "full/sub"));
	say("rename_dir_move ret=%s d=%lu full=%lu moved=%s", r, nlink("d"),
	    nlink("full"), st("full/sub/..", 1));
	say("rename_missing ret=%s", rv(rename("nope", "x")));
	say("rename_into_missing ret=%s", rv(rename("f", "nope/x")));
	say("rename_into_file ret=%s", rv(rename("f", "f/x")));
	say("rename_file_slash ret=%s", rv(rename("f/", "g")));
	say("rename_file_to_slash ret=%s", rv(rename("f", "g/")));
	say("rename_dir_slash ret=%s", rv(rename("e/", "e2/")));
	r = rv(rename("e2", "e/"));
	say("rename_dir_slash_back ret=%s e=%s", r, st("e", 1));
	say("rename_dot ret=%s", rv(rename(".", "x")));
	say("rename_dotdot ret=%s", rv(rename("d/..", "x")));
	say("rename_to_dot ret=%s", rv(rename("f", "d/.")));
	say("rename_dir_to_dot ret=%s", rv(rename("e", "d/.")));
	r = rv(rename("", "x"));
	say("rename_empty ret=%s %s", r, rv(rename("f", "")));
	say("rename_cross_fs ret=%s", rv(rename("f", strcmp(c_fs, "ramfs") ? "/tmp/xdev" : "/xdev")));
	say("rename_dir_cross_fs ret=%s", rv(rename("e", strcmp(c_fs, "ramfs") ? "/tmp/xdev" : "/xdev")));
	say("ls %s", ls("."));
	rmdir("full/sub"); unlink("full/x"); rmdir("full"); rmdir("e"); rmdir("d"); unlink("f");
}

/* 4. Directories: getdents64, st_nlink, rmdir. */
static void dirs(void)
{
	mkdir("d", 0755);
	struct stat s;
	stat("d", &s);
	say("mkdir nlink=%lu size=%lld ls %s", (unsigned long)s.st_nlink, (long long)s.st_size, ls("d"));
	mkf("d/file", "x");
	symlink("file", "d/link");
	for (int i = 1; i <= 3; i++) {
		char p[16];
		snprintf(p, sizeof p, "d/sub%d", i);
		mkdir(p, 0755);
		say("mkdir_sub%d nlink=%lu", i, nlink("d"));
	}
	stat("d", &s);
	say("dir_with_entries nlink=%lu size=%lld", (unsigned long)s.st_nlink, (long long)s.st_size);
	say("ls %s", ls("d"));
	say("ls_dot_dot_ino dot=%d dotdot=%d", ino("d/.") == ino("d"), ino("d/..") == ino("."));
	say("rmdir_nonempty ret=%s", rv(rmdir("d")));
	const char *r = rv(rmdir("d/sub3"));
	say("rmdir_sub ret=%s nlink=%lu", r, nlink("d"));
	say("rmdir_file ret=%s", rv(rmdir("d/file")));
	say("rmdir_symlink ret=%s", rv(rmdir("d/link")));
	say("rmdir_dot ret=%s", rv(rmdir("d/sub2/.")));
	say("rmdir_dotdot ret=%s", rv(rmdir("d/sub2/..")));
	say("rmdir_bare_dot ret=%s", rv(rmdir(".")));
	say("rmdir_missing ret=%s", rv(rmdir("d/nope")));
	say("rmdir_file_slash ret=%s", rv(rmdir("d/file/")));
	say("rmdir_slash ret=%s", rv(rmdir("d/sub2/")));
	say("rmdir_empty ret=%s", rv(rmdir("")));
	say("unlink_dir ret=%s", rv(unlink("d/sub1")));
	say("unlink_dir_slash ret=%s", rv(unlink("d/sub1/")));
	say("unlink_dot ret=%s", rv(unlink("d/.")));
	say("mkdir_existing ret=%s", rv(mkdir("d", 0755)));
	say("mkdir_existing_file ret=%s", rv(mkdir("d/file", 0755)));
	say("mkdir_existing_file_slash ret=%s", rv(mkdir("d/file/", 0755)));
	r = rv(mkdir("d/new/", 0755));
	say("mkdir_slash ret=%s %s", r, st("d/new", 1));
	r = rv(mkdir("d/.", 0755));
	say("mkdir_dot ret=%s %s", r, rv(mkdir("d/..", 0755)));
	say("mkdir_missing_parent ret=%s", rv(mkdir("d/nope/x", 0755)));
	say("mkdir_in_file ret=%s", rv(mkdir("d/file/x", 0755)));
	say("mkdir_empty ret=%s", rv(mkdir("", 0755)));
	/* DIR's parent: a mount point (/tmp, and ext2_4k's mount) or not empty */
	char parent[256];
	snprintf(parent, sizeof parent, "%s", c_dir);
	*strrchr(parent, '/') = 0;
	say("rmdir_parent_of_dir ret=%s", rv(rmdir(parent)));
	rmdir("d/new"); rmdir("d/sub1"); unlink("d/file"); unlink("d/link");

	/* The cwd removed: it stays, empty and dead. */
	int dfd = open("d", O_RDONLY | O_DIRECTORY);
	chdir("d");
	char buf[4096];
	say("rmdir_cwd ret=%s", rv(rmdir("../d")));
	r = rv(syscall(SYS_getcwd, buf, sizeof buf));
	say("cwd getcwd=%s stat=%s", r, st(".", 1));
	say("cwd ls %s", ls("."));
	r = rv(open("x", O_RDWR | O_CREAT, 0644));
	say("cwd creat=%s mkdir=%s", r, rv(mkdir("x", 0755)));
	say("cwd dotdot %s", st("..", 1));
	say("cwd fd_ls %s", rv(syscall(SYS_getdents64, dfd, buf, sizeof buf)));
	close(dfd);
	say("cwd chdir_dotdot ret=%s", rv(chdir("..")));
	say("cwd back same=%d", ino(".") == ino(path("n")));
	chdir(path("n"));
}

/* 5. Which error a bad path gets. */
static void errors(void)
{
	static char lc[300], lp[5000], lq[5000];
	const char *r, *r2, *r3;
	mkf("f", "x");
	mkdir("d", 0755);
	memset(lc, 'l', 256);
	lc[256] = 0;
	r = st(lc, 1);
	r2 = rv(open(lc, O_RDWR | O_CREAT, 0644));
	say("long_component stat=%s creat=%s mkdir=%s", r, r2, rv(mkdir(lc, 0755)));
	snprintf(lq, sizeof lq, "nope/%s", lc);
	r = st(lq, 1);
	say("long_after_missing stat=%s mkdir=%s", r, rv(mkdir(lq, 0755)));
	snprintf(lq, sizeof lq, "f/%s", lc);
	r = st(lq, 1);
	say("long_after_file stat=%s mkdir=%s", r, rv(mkdir(lq, 0755)));
	snprintf(lq, sizeof lq, "%s/x", lc);
	say("long_then_more stat=%s", st(lq, 1));
	lc[255] = 0;
	int fd = open(lc, O_RDWR | O_CREAT, 0644);
	r = rv(fd < 0 ? fd : 0);
	r2 = st(lc, 1);
	say("component_255 creat=%s stat=%s unlink=%s", r, r2, rv(unlink(lc)));
	close(fd);
	/* "./" repeated, then "f": 4095 bytes resolve, 4096 are too long */
	size_t k = 0;
	for (; k < 4094; k++)
		lp[k] = k % 2 ? '/' : '.';
	strcpy(lp + k, "f");
	say("path_4095 len=%zu stat=%s", strlen(lp), st(lp, 1));
	strcpy(lp + k, "/f");
	r = st(lp, 1);
	say("path_4096 len=%zu stat=%s mkdir=%s", strlen(lp), r, rv(mkdir(lp, 0755)));
	r = st("", 1);
	r2 = rv(open("", O_RDONLY));
	r3 = rv(open("", O_RDWR | O_CREAT, 0644));
	say("empty stat=%s open=%s creat=%s unlink=%s", r, r2, r3, rv(unlink("")));
	r = st("nope", 1);
	say("missing stat=%s open=%s", r, rv(open("nope", O_RDONLY)));
	r = st("nope/x", 1);
	say("missing_dir stat=%s creat=%s", r, rv(open("nope/x", O_RDWR | O_CREAT, 0644)));
	r = st("f/x", 1);
	r2 = rv(open("f/x", O_RDWR | O_CREAT, 0644));
	say("file_as_dir stat=%s creat=%s unlink=%s", r, r2, rv(unlink("f/x")));
	r = st("f/", 0);
	r2 = st("f/", 1);
	say("file_slash stat=%s lstat=%s open=%s", r, r2, rv(open("f/", O_RDONLY)));
	r = rv(open("f/", O_RDWR | O_CREAT, 0644));
	say("file_slash creat=%s unlink=%s", r, rv(unlink("f/")));
	r = rv(open("g/", O_RDWR | O_CREAT, 0644));
	say("new_slash creat=%s stat=%s", r, st("g", 1));
	say("file_dot stat=%s dotdot=%s", st("f/.", 1), st("f/..", 1));
	say("dir_slash stat=%s double=%s dot=%s", st("d/", 1), st("d//", 1), st("d/./..//d", 1));
	say("creat_excl_existing ret=%s", rv(open("f", O_RDWR | O_CREAT | O_EXCL, 0644)));
	say("creat_excl_missing_dir ret=%s", rv(open("nope/x", O_RDWR | O_CREAT | O_EXCL, 0644)));
	say("creat_excl_file_as_dir ret=%s", rv(open("f/x", O_RDWR | O_CREAT | O_EXCL, 0644)));
	say("creat_excl_dir ret=%s", rv(open("d", O_RDWR | O_CREAT | O_EXCL, 0644)));
	fd = open("f", O_RDONLY | O_EXCL);
	say("excl_without_creat ret=%s", rv(fd < 0 ? fd : 0));
	close(fd);
	r = rv(open("d", O_WRONLY));
	say("dir_wronly ret=%s rdwr=%s", r, rv(open("d", O_RDWR)));
	r = rv(open("d", O_RDWR | O_CREAT, 0644));
	say("dir_creat ret=%s creat_rdonly=%s", r, rv(open("d", O_RDONLY | O_CREAT, 0644)));
	say("dir_trunc_rdonly ret=%s", rv(open("d", O_RDONLY | O_TRUNC)));
	fd = open("d", O_RDONLY);
	say("dir_rdonly ret=%s", rv(fd < 0 ? fd : 0));
	close(fd);
	say("directory_on_file ret=%s", rv(open("f", O_RDONLY | O_DIRECTORY)));
	fd = open("d", O_RDONLY | O_DIRECTORY);
	say("directory_on_dir ret=%s", rv(fd < 0 ? fd : 0));
	close(fd);
	say("chdir_file ret=%s", rv(chdir("f")));
	say("truncate_dir ret=%s", rv(truncate("d", 0)));

	/* umask: the permission bits open and mkdir create with */
	unsigned masks[] = { 022, 027, 0, 0777 };
	for (unsigned i = 0; i < 4; i++) {
		umask(masks[i]);
		struct stat s1 = { 0 }, s2 = { 0 }, s3 = { 0 }, s4 = { 0 };
		fd = open("u", O_RDWR | O_CREAT, 0666);
		fstat(fd, &s1);
		close(fd);
		unlink("u");
		fd = open("u", O_RDWR | O_CREAT, 07777);
		fstat(fd, &s2);
		close(fd);
		unlink("u");
		mkdir("ud", 0777);
		stat("ud", &s3);
		rmdir("ud");
		mkdir("ud", 07777);
		stat("ud", &s4);
		rmdir("ud");
		say("umask_%03o creat_0666=%04o creat_07777=%04o mkdir_0777=%04o mkdir_07777=%04o", masks[i],
		    s1.st_mode & 07777, s2.st_mode & 07777, s3.st_mode & 07777, s4.st_mode & 07777);
	}
	umask(022);
	fd = open("f", O_RDWR | O_CREAT, 0600);
	struct stat s;
	fstat(fd, &s);
	say("creat_existing_keeps_mode mode=%04o", s.st_mode & 07777);
	close(fd);
	unlink("g"); unlink("f"); rmdir("d");
}

int main(int argc, char **argv)
{
	conform_start("names", argc, argv);
	mkdir(path("n"), 0755);
	if (chdir(path("n")) < 0) {
		say("error chdir %s", rv(-1));
		return 1;
	}
	links();
	symlinks();
	renames();
	dirs();
	errors();
	say("left %s", ls("."));
	chdir(c_dir);
	rmdir(path("n"));
	conform_end();
	return 0;
}
