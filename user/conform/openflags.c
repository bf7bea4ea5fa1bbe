/* openflags.c - conformance: the newer open flags and name calls (issue
 * 23).  O_PATH (what its descriptor may and may not do, on a file without
 * read permission too, a symlink itself with O_NOFOLLOW, readlinkat of
 * it); O_TMPFILE (its checks, an unnamed file, linkat giving it a name
 * through /proc/self/fd or AT_EMPTY_PATH, never with O_EXCL); O_DIRECT
 * (accepted, F_GETFL, an aligned read); openat2 (struct open_how's checks,
 * RESOLVE_* flags); renameat2 (RENAME_NOREPLACE, RENAME_EXCHANGE across
 * two directories, the flag checks); linkat and symlinkat with two
 * directory descriptors; ETXTBSY (a running program opened for writing or
 * truncated, a file open for writing executed); a file created in a
 * set-group-ID directory; /proc/sys/fs/pipe-max-size written and honoured
 * by an unprivileged F_SETPIPE_SZ and a new pipe.  Prints observations
 * only (conform.h).
 */
#include "conform.h"
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <sys/file.h>

#ifndef O_PATH
#define O_PATH 010000000
#endif
#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#define RENAME_EXCHANGE 2
#define RENAME_WHITEOUT 4
#endif

struct open_how_v0 {
	unsigned long long flags, mode, resolve;
};

static long openat2(int dfd, const char *name, unsigned long long flags, unsigned long long mode,
		    unsigned long long resolve, size_t size)
{
	static char buf[64];
	memset(buf, 0, sizeof buf);
	struct open_how_v0 h = { flags, mode, resolve };
	memcpy(buf, &h, sizeof h);
	return syscall(437, dfd, name, buf, size);
}

static const char *fdres(long fd)
{
	if (fd < 0)
		return rv(fd);
	close(fd);
	return "ok";
}

static const char *content(const char *name)
{
	static char b[64];
	int fd = open(path(name), O_RDONLY);
	if (fd < 0)
		return rv(fd);
	ssize_t n = read(fd, b, sizeof b - 1);
	close(fd);
	b[n > 0 ? n : 0] = 0;
	return b;
}

static void o_path(void)
{
	int w = fresh("op", 10, 0);
	close(w);
	chmod(path("op"), 0);
	int fd = open(path("op"), O_PATH);
	say("o_path_open %s", fd < 0 ? rv(fd) : "ok");
	char c;
	say("o_path_read %s", rv(read(fd, &c, 1)));
	say("o_path_write %s", rv(write(fd, "x", 1)));
	say("o_path_fchmod %s", rv(fchmod(fd, 0644)));
	say("o_path_fchown %s", rv(fchown(fd, 0, 0)));
	int arg;
	say("o_path_ioctl %s", rv(ioctl(fd, FIONREAD, &arg)));
	void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	say("o_path_mmap %s", m == MAP_FAILED ? rv(-1) : "ok");
	say("o_path_lseek %s", rv(lseek(fd, 0, SEEK_SET)));
	say("o_path_fsync %s", rv(fsync(fd)));
	struct stat st;
	say("o_path_fstat %s size=%lld", rv(fstat(fd, &st)), (long long)st.st_size);
	say("o_path_getfl %o", fcntl(fd, F_GETFL) & ~0100000);
	say("o_path_setfl %s", rv(fcntl(fd, F_SETFL, O_NONBLOCK)));
	int d = dup(fd);
	say("o_path_dup_read %s", rv(read(d, &c, 1)));
	close(d);
	say("o_path_flock %s", rv(flock(fd, LOCK_SH)));
	close(fd);
	fd = open(path("op"), O_PATH | O_RDWR | O_TRUNC | O_CREAT, 0644);
	say("o_path_ignores_others %s size=%lld", fd < 0 ? rv(fd) : "ok", fsize(fd));
	close(fd);
	/* a directory as dirfd, fchdir */
	int dfd = open(c_dir, O_PATH | O_DIRECTORY);
	say("o_path_dirfd_fstatat %s", rv(fstatat(dfd, "op", &st, 0)));
	say("o_path_dirfd_openat %s", fdres(openat(dfd, "op", O_RDONLY)));
	say("o_path_getdents %s", rv(syscall(SYS_getdents64, dfd, (char[256]){ 0 }, 256)));
	close(dfd);
	/* the symlink itself */
	symlink("op", path("opl"));
	fd = open(path("opl"), O_PATH | O_NOFOLLOW);
	say("o_path_symlink %s", fd < 0 ? rv(fd) : "ok");
	say("o_path_symlink_fstat_islnk %d", fstat(fd, &st) == 0 && S_ISLNK(st.st_mode));
	char buf[64] = "";
	ssize_t n = readlinkat(fd, "", buf, sizeof buf);
	say("readlinkat_empty %s %.*s", rv(n), n > 0 ? (int)n : 0, buf);
	close(fd);
	fd = open(path("op"), O_PATH);
	say("readlinkat_empty_not_link %s", rv(readlinkat(fd, "", buf, sizeof buf)));
	close(fd);
	unlink(path("opl"));
	unlink(path("op"));
}

static void o_tmpfile(void)
{
	say("tmpfile_rdonly %s", fdres(open(c_dir, O_TMPFILE | O_RDONLY, 0600)));
	say("tmpfile_no_directory %s", fdres(open(c_dir, 020000000 | O_RDWR, 0600)));
	say("tmpfile_creat %s", fdres(open(c_dir, O_TMPFILE | O_CREAT | O_RDWR, 0600)));
	say("tmpfile_on_file %s", fdres(open("/proc/self/exe", O_TMPFILE | O_RDWR, 0600)));
	int fd = open(c_dir, O_TMPFILE | O_RDWR, 0640);
	say("tmpfile %s", fd < 0 ? rv(fd) : "ok");
	if (fd < 0)
		return;
	struct stat st;
	fstat(fd, &st);
	say("tmpfile_stat reg=%d mode=%o nlink=%d", S_ISREG(st.st_mode), st.st_mode & 07777,
	    (int)st.st_nlink);
	say("tmpfile_write %s", rv(write(fd, "hello", 5)));
	say("tmpfile_getfl %o", fcntl(fd, F_GETFL) & ~0100000);
	/* nothing new in the directory */
	int n = 0;
	FILE *ls = NULL;
	(void)ls;
	char pbuf[64];
	snprintf(pbuf, sizeof pbuf, "/proc/self/fd/%d", fd);
	say("link_via_proc %s", rv(linkat(AT_FDCWD, pbuf, AT_FDCWD, path("tmp1"), AT_SYMLINK_FOLLOW)));
	say("tmp1 %s", content("tmp1"));
	fstat(fd, &st);
	say("tmpfile_nlink_after_link %d", (int)st.st_nlink);
	say("link_again_empty_path %s", rv(linkat(fd, "", AT_FDCWD, path("tmp2"), AT_EMPTY_PATH)));
	say("tmp2 %s", content("tmp2"));
	close(fd);
	unlink(path("tmp1"));
	unlink(path("tmp2"));
	fd = open(c_dir, O_TMPFILE | O_RDWR | O_EXCL, 0600);
	say("tmpfile_excl %s", fd < 0 ? rv(fd) : "ok");
	snprintf(pbuf, sizeof pbuf, "/proc/self/fd/%d", fd);
	say("link_excl %s", rv(linkat(AT_FDCWD, pbuf, AT_FDCWD, path("tmp3"), AT_SYMLINK_FOLLOW)));
	close(fd);
	unlink(path("tmp3"));
	/* an unlinked ordinary file cannot be linked back */
	fd = fresh("gone", 3, 0);
	unlink(path("gone"));
	say("link_unlinked %s", rv(linkat(fd, "", AT_FDCWD, path("gone2"), AT_EMPTY_PATH)));
	close(fd);
	unlink(path("gone2"));
	(void)n;
}

static void o_direct(void)
{
	int fd = fresh("od", 8192, 0);
	close(fd);
	fd = open(path("od"), O_RDWR | O_DIRECT);
	say("o_direct_open %s", fd < 0 ? rv(fd) : "ok");
	if (fd < 0)
		return;
	say("o_direct_getfl %d", (fcntl(fd, F_GETFL) & O_DIRECT) != 0);
	void *buf = NULL;
	posix_memalign(&buf, 4096, 4096);
	say("o_direct_aligned_read %s", rv(pread(fd, buf, 4096, 4096)));
	say("o_direct_setfl_off %s", rv(fcntl(fd, F_SETFL, 0)));
	say("o_direct_getfl_off %d", (fcntl(fd, F_GETFL) & O_DIRECT) != 0);
	free(buf);
	done(fd, "od");
}

static void openat2_cases(void)
{
	mkdir(path("o2"), 0755);
	int dfd = open(path("o2"), O_DIRECTORY);
	close(open(path("o2/f"), O_CREAT | O_WRONLY, 0644));
	symlink("f", path("o2/ln"));
	symlink("../o2/f", path("o2/up"));
	symlink("/proc/version", path("o2/abs"));
	size_t sz = sizeof(struct open_how_v0);
	say("o2_plain %s", fdres(openat2(dfd, "f", O_RDONLY, 0, 0, sz)));
	say("o2_size_small %s", fdres(openat2(dfd, "f", O_RDONLY, 0, 0, sz - 1)));
	say("o2_size_zero %s", fdres(openat2(dfd, "f", O_RDONLY, 0, 0, 0)));
	say("o2_size_big_zeros %s", fdres(openat2(dfd, "f", O_RDONLY, 0, 0, sz + 8)));
	say("o2_size_page %s", fdres(openat2(dfd, "f", O_RDONLY, 0, 0, 8192)));
	say("o2_mode_without_creat %s", fdres(openat2(dfd, "f", O_RDONLY, 0600, 0, sz)));
	say("o2_bad_mode %s", fdres(openat2(dfd, "g", O_RDWR | O_CREAT, 0170000, 0, sz)));
	say("o2_bad_flags %s", fdres(openat2(dfd, "f", 1ULL << 40, 0, 0, sz)));
	say("o2_bad_resolve %s", fdres(openat2(dfd, "f", O_RDONLY, 0, 0x100, sz)));
	say("o2_beneath_in_root %s", fdres(openat2(dfd, "f", O_RDONLY, 0, 0x18, sz)));
	say("o2_creat %s", fdres(openat2(dfd, "g", O_RDWR | O_CREAT, 0600, 0, sz)));
	struct stat st;
	fstatat(dfd, "g", &st, 0);
	say("o2_creat_mode %o", st.st_mode & 07777);
	say("o2_no_symlinks_plain %s", fdres(openat2(dfd, "f", O_RDONLY, 0, 0x04, sz)));
	say("o2_no_symlinks_link %s", fdres(openat2(dfd, "ln", O_RDONLY, 0, 0x04, sz)));
	say("o2_no_symlinks_nofollow_path %s",
	    fdres(openat2(dfd, "ln", O_PATH | O_NOFOLLOW, 0, 0x04, sz)));
	say("o2_beneath_plain %s", fdres(openat2(dfd, "f", O_RDONLY, 0, 0x08, sz)));
	say("o2_beneath_dotdot %s", fdres(openat2(dfd, "../o2/f", O_RDONLY, 0, 0x08, sz)));
	say("o2_beneath_abs %s", fdres(openat2(dfd, "/proc/version", O_RDONLY, 0, 0x08, sz)));
	say("o2_beneath_rel_link %s", fdres(openat2(dfd, "ln", O_RDONLY, 0, 0x08, sz)));
	say("o2_beneath_abs_link %s", fdres(openat2(dfd, "abs", O_RDONLY, 0, 0x08, sz)));
	say("o2_in_root_abs %s", fdres(openat2(dfd, "/f", O_RDONLY, 0, 0x10, sz)));
	say("o2_in_root_dotdot %s", fdres(openat2(dfd, "../../f", O_RDONLY, 0, 0x10, sz)));
	say("o2_no_xdev_proc %s", fdres(openat2(dfd, "/proc/version", O_RDONLY, 0, 0x01, sz)));
	say("o2_no_xdev_plain %s", fdres(openat2(dfd, "f", O_RDONLY, 0, 0x01, sz)));
	say("o2_no_magiclinks %s", fdres(openat2(AT_FDCWD, "/proc/self/exe", O_RDONLY, 0, 0x02, sz)));
	say("o2_magiclink %s", fdres(openat2(AT_FDCWD, "/proc/self/exe", O_RDONLY, 0, 0, sz)));
	say("o2_bad_dfd %s", fdres(openat2(-5, "f", O_RDONLY, 0, 0, sz)));
	say("o2_efault %s", fdres(syscall(437, dfd, "f", (void *)16, sz)));
	close(dfd);
	unlink(path("o2/f"));
	unlink(path("o2/g"));
	unlink(path("o2/ln"));
	unlink(path("o2/up"));
	unlink(path("o2/abs"));
	rmdir(path("o2"));
}

static void rename_link_cases(void)
{
	mkdir(path("ra"), 0755);
	mkdir(path("rb"), 0755);
	int a = open(path("ra"), O_DIRECTORY), b = open(path("rb"), O_DIRECTORY);
	int fd = open(path("ra/x"), O_CREAT | O_WRONLY, 0644);
	write(fd, "XX", 2);
	close(fd);
	fd = open(path("rb/y"), O_CREAT | O_WRONLY, 0644);
	write(fd, "YY", 2);
	close(fd);
	say("noreplace_exists %s", rv(syscall(SYS_renameat2, a, "x", b, "y", RENAME_NOREPLACE)));
	say("exchange %s", rv(syscall(SYS_renameat2, a, "x", b, "y", RENAME_EXCHANGE)));
	say("after_exchange ra/x=%s", content("ra/x"));
	say("after_exchange rb/y=%s", content("rb/y"));
	say("exchange_missing %s", rv(syscall(SYS_renameat2, a, "x", b, "nope", RENAME_EXCHANGE)));
	say("noreplace_free %s", rv(syscall(SYS_renameat2, a, "x", b, "z", RENAME_NOREPLACE)));
	say("after_noreplace rb/z=%s ra/x=%s", content("rb/z"), content("ra/x"));
	say("noreplace_exchange %s",
	    rv(syscall(SYS_renameat2, b, "z", b, "y", RENAME_NOREPLACE | RENAME_EXCHANGE)));
	say("whiteout_exchange %s",
	    rv(syscall(SYS_renameat2, b, "z", b, "y", RENAME_WHITEOUT | RENAME_EXCHANGE)));
	say("bad_flags %s", rv(syscall(SYS_renameat2, b, "z", b, "y", 8)));
	/* a directory and a file exchanged */
	mkdir(path("ra/d"), 0755);
	say("exchange_dir_file %s", rv(syscall(SYS_renameat2, a, "d", b, "z", RENAME_EXCHANGE)));
	struct stat st;
	say("after_dir_exchange ra_d_isreg=%d rb_z_isdir=%d",
	    stat(path("ra/d"), &st) == 0 && S_ISREG(st.st_mode),
	    stat(path("rb/z"), &st) == 0 && S_ISDIR(st.st_mode));
	/* linkat and symlinkat with two directories */
	say("linkat_two_dirs %s", rv(linkat(a, "d", b, "l", 0)));
	say("linkat_bad_flags %s", rv(linkat(a, "d", b, "l2", 0x8000)));
	say("symlinkat %s", rv(symlinkat("../ra/d", b, "s")));
	char buf[64] = "";
	ssize_t n = readlinkat(b, "s", buf, sizeof buf);
	say("readlinkat %.*s", n > 0 ? (int)n : 0, buf);
	say("linkat_symlink_nofollow %s", rv(linkat(b, "s", a, "sl", 0)));
	say("sl_is_link %d", lstat(path("ra/sl"), &st) == 0 && S_ISLNK(st.st_mode));
	say("linkat_symlink_follow %s", rv(linkat(b, "s", a, "sf", AT_SYMLINK_FOLLOW)));
	say("sf_is_reg %d", lstat(path("ra/sf"), &st) == 0 && S_ISREG(st.st_mode));
	say("linkat_empty_without_flag %s", rv(linkat(a, "", b, "e", 0)));
	close(a);
	close(b);
	const char *names[] = { "ra/d", "ra/x", "ra/sl", "ra/sf", "rb/y", "rb/l", "rb/s", "rb/z" };
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
		if (unlink(path(names[i])) < 0)
			rmdir(path(names[i]));
	rmdir(path("ra"));
	rmdir(path("rb"));
}

/* ---- ETXTBSY ----------------------------------------------------------------- */

static void etxtbsy(void)
{
	/* a copy of this program, run as a sleeper */
	int in = open("/proc/self/exe", O_RDONLY), out = open(path("prog"), O_WRONLY | O_CREAT | O_TRUNC, 0755);
	char buf[8192];
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0)
		write(out, buf, n);
	close(in);
	int p[2];
	pipe(p);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 3);
		execl(path("prog"), "prog", "--sleeper", (char *)NULL);
		char e = (char)errno;
		write(3, &e, 1);
		_exit(1);
	}
	char r = 0;
	read(p[0], &r, 1);
	if (r == 'r')
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	say("execve_while_open_for_writing %s", r == 'r' ? "ran" : errname(r));
	close(out);
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 3);
		execl(path("prog"), "prog", "--sleeper", (char *)NULL);
		char e = (char)errno;
		write(3, &e, 1);
		_exit(1);
	}
	read(p[0], &r, 1);
	say("execve_after_close %s", r == 'r' ? "ran" : errname(r));
	say("open_wronly_running %s", fdres(open(path("prog"), O_WRONLY)));
	say("open_rdwr_running %s", fdres(open(path("prog"), O_RDWR)));
	say("open_rdonly_running %s", fdres(open(path("prog"), O_RDONLY)));
	say("creat_running %s", fdres(creat(path("prog"), 0755)));
	say("truncate_running %s", rv(truncate(path("prog"), 0)));
	say("unlink_running %s", rv(unlink(path("prog"))));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(p[0]);
	close(p[1]);
}

/* ---- set-group-ID directories ------------------------------------------------ */

static void setgid_dir(void)
{
	mkdir(path("sg"), 0777);
	chown(path("sg"), 1000, 1234);
	chmod(path("sg"), 02777);
	struct stat st;
	stat(path("sg"), &st);
	say("sg_dir mode=%o gid=%d", st.st_mode & 07777, (int)st.st_gid);
	pid_t pid = fork();
	if (pid == 0) {
		drop_to_user();
		umask(0);
		close(creat(path("sg/f"), 02755));
		mkdir(path("sg/d"), 0755);
		close(creat(path("own"), 02755));   /* group 1000, its own: kept */
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	stat(path("sg/f"), &st);
	say("sg_file mode=%o gid=%d", st.st_mode & 07777, (int)st.st_gid);
	stat(path("sg/d"), &st);
	say("sg_subdir mode=%o gid=%d", st.st_mode & 07777, (int)st.st_gid);
	stat(path("own"), &st);
	say("own_group_file mode=%o gid=%d", st.st_mode & 07777, (int)st.st_gid);
	umask(0);
	close(creat(path("sg/root"), 02755));
	umask(022);
	stat(path("sg/root"), &st);
	say("sg_root_file mode=%o gid=%d", st.st_mode & 07777, (int)st.st_gid);
	unlink(path("sg/f"));
	unlink(path("sg/root"));
	rmdir(path("sg/d"));
	rmdir(path("sg"));
	unlink(path("own"));
}

/* ---- pipe-max-size ------------------------------------------------------------ */

static int read_int(const char *file)
{
	FILE *f = fopen(file, "r");
	int v = -1;
	if (f) {
		fscanf(f, "%d", &v);
		fclose(f);
	}
	return v;
}

static const char *write_int(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY);
	if (fd < 0)
		return rv(fd);
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return rv(n);
}

static void pipe_max(int wfd)
{
	drop_to_user();
	int p[2];
	pipe(p);
	report(wfd, "new_pipe=%d ", fcntl(p[0], F_GETPIPE_SZ));
	report(wfd, "set_8192=%s ", rv(fcntl(p[0], F_SETPIPE_SZ, 8192)));
	report(wfd, "set_4096=%s ", rv(fcntl(p[0], F_SETPIPE_SZ, 4096)));
	report(wfd, "write_sysctl=%s", write_int("/proc/sys/fs/pipe-max-size", "65536"));
}

static void pipe_max_size(void)
{
	const char *f = "/proc/sys/fs/pipe-max-size";
	int old = read_int(f);
	say("pipe_max_size %d", old);
	say("pipe_user_pages_soft %d", read_int("/proc/sys/fs/pipe-user-pages-soft"));
	say("write_5000 %s", write_int(f, "5000\n"));
	say("read_back %d", read_int(f));
	say("write_negative %s", write_int(f, "-1"));
	say("write_junk %s", write_int(f, "abc"));
	say("write_4096 %s", write_int(f, "4096"));
	char text[256];
	int st = child(pipe_max, text, sizeof text);
	say("unprivileged %s %s", text, wstatus(st));
	int p[2];
	pipe(p);
	say("root_new_pipe %d", fcntl(p[0], F_GETPIPE_SZ));
	say("root_set_65536 %s", rv(fcntl(p[0], F_SETPIPE_SZ, 65536)));
	close(p[0]);
	close(p[1]);
	char b[16];
	snprintf(b, sizeof b, "%d", old);
	say("restore %s", write_int(f, b));
	say("restored %d", read_int(f) == old);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--sleeper")) {
		write(3, "r", 1);
		for (;;)
			pause();
	}
	conform_start("openflags", argc, argv);
	o_path();
	o_tmpfile();
	o_direct();
	openat2_cases();
	rename_link_cases();
	etxtbsy();
	setgid_dir();
	pipe_max_size();
	conform_end();
	return 0;
}
