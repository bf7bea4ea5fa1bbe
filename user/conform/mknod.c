/* mknod.c - conformance: mknod(2) and FIFOs (issue 23).  The node types
 * mknod makes (FIFO, character and block device, socket, regular file;
 * a directory and an unknown type refused), what stat says of each, which
 * ones open (a device with no driver or a socket: ENXIO), the device
 * check (an ordinary user gets EPERM, after the directory's own checks).
 * FIFOs: open's rules (a reader waits for a writer and a writer for a
 * reader; O_NONBLOCK lets a reader in and turns a lone writer away with
 * ENXIO; O_RDWR never waits), the bytes through it, end of file, EPIPE,
 * lseek, a signal ending a waiting open, the data gone with the last
 * close, an unlinked FIFO still working.  Prints observations only
 * (conform.h).
 */
#include "conform.h"
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* stat of name: "fifo 644 size=0 nlink=1", "chr 600 1,3", or the error */
static const char *kind(const char *name)
{
	static char b[80];
	struct stat st;
	if (lstat(path(name), &st) < 0)
		return rv(-1);
	const char *t = S_ISFIFO(st.st_mode) ? "fifo" : S_ISCHR(st.st_mode) ? "chr" :
			S_ISBLK(st.st_mode) ? "blk" : S_ISSOCK(st.st_mode) ? "sock" :
			S_ISREG(st.st_mode) ? "reg" : S_ISDIR(st.st_mode) ? "dir" : "other";
	int n = snprintf(b, sizeof b, "%s %o size=%lld nlink=%lu", t, st.st_mode & 07777,
			 (long long)st.st_size, (unsigned long)st.st_nlink);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		snprintf(b + n, sizeof b - n, " dev=%u,%u", major(st.st_rdev), minor(st.st_rdev));
	return b;
}

/* open(name, flags) and close: its result */
static const char *opens(const char *name, int flags)
{
	int fd = open(path(name), flags);
	const char *r = rv(fd);
	if (fd >= 0)
		close(fd);
	return r;
}

static void node_cases(void)
{
	int r;
	r = mkfifo(path("f"), 0666);
	{ const char *e = rv(r); say("mkfifo %s %s", e, kind("f")); }
	say("mkfifo_again %s", rv(mkfifo(path("f"), 0666)));
	r = mknod(path("f2"), S_IFIFO | 0600, 0);
	{ const char *e = rv(r); say("mknod_fifo %s %s", e, kind("f2")); }
	say("mknod_dir %s", rv(mknod(path("d"), S_IFDIR | 0755, 0)));
	say("mknod_bad_type %s", rv(mknod(path("bad"), 0170000 | 0644, 0)));
	r = mknod(path("r"), S_IFREG | 0640, 0);
	{ const char *e = rv(r); say("mknod_reg %s %s", e, kind("r")); }
	r = mknod(path("z"), 0640, 0);
	{ const char *e = rv(r); say("mknod_zero_type %s %s", e, kind("z")); }
	r = mknod(path("null"), S_IFCHR | 0666, makedev(1, 3));
	{ const char *e = rv(r); say("mknod_chr %s %s", e, kind("null")); }
	int fd = open(path("null"), O_RDWR);
	const char *o = rv(fd), *wr = rv(write(fd, "abc", 3));
	say("chr_open %s write=%s read=%s", o, wr, rv(read(fd, xs + 100, 10)));
	close(fd);
	r = mknod(path("big"), S_IFCHR | 0600, makedev(300, 70000));
	{ const char *e = rv(r); say("mknod_chr_big %s %s", e, kind("big")); }
	say("chr_big_open %s", opens("big", O_RDONLY));
	r = mknod(path("blk"), S_IFBLK | 0600, makedev(240, 1));
	{ const char *e = rv(r); say("mknod_blk %s %s", e, kind("blk")); }
	say("blk_open %s", opens("blk", O_RDONLY));
	r = mknod(path("s"), S_IFSOCK | 0755, 0);
	{ const char *e = rv(r); say("mknod_sock %s %s", e, kind("s")); }
	say("sock_open %s", opens("s", O_RDONLY));
	say("mknod_exists %s", rv(mknod(path("r"), S_IFIFO | 0600, 0)));
	say("mknod_no_dir %s", rv(mknod(path("nodir/x"), S_IFIFO | 0600, 0)));
	r = mknodat(AT_FDCWD, path("at"), S_IFIFO | 0600, 0);
	{ const char *e = rv(r); say("mknodat %s %s", e, kind("at")); }
	const char *names[] = { "f", "f2", "r", "z", "null", "big", "blk", "s", "at" };
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
		unlink(path(names[i]));
}

static void user_body(int w)
{
	drop_to_user();
	report(w, "chr_in_root_dir=%s ", rv(mknod(path("u"), S_IFCHR | 0600, makedev(1, 3))));
	report(w, "fifo_in_root_dir=%s ", rv(mkfifo(path("u"), 0600)));
	report(w, "chr_in_open_dir=%s ", rv(mknod(path("open/u"), S_IFCHR | 0600, makedev(1, 3))));
	report(w, "chr_existing=%s ", rv(mknod(path("open/f"), S_IFCHR | 0600, makedev(1, 3))));
	report(w, "fifo_in_open_dir=%s ", rv(mkfifo(path("open/u"), 0600)));
	report(w, "blk_in_open_dir=%s", rv(mknod(path("open/b"), S_IFBLK | 0600, makedev(240, 1))));
}

static void user_cases(void)
{
	char text[512];
	mkdir(path("open"), 0777);
	chmod(path("open"), 0777);
	mkfifo(path("open/f"), 0666);
	int st = child(user_body, text, sizeof text);
	say("as_user %s: %s %s", wstatus(st), text, kind("open/u"));
	unlink(path("open/u"));
	unlink(path("open/f"));
	rmdir(path("open"));
}

static void writer_body(int w)
{
	int fd = open(path("p"), O_WRONLY);     /* waits for the parent's reader */
	report(w, "open=%s ", fd < 0 ? rv(fd) : "ok");
	report(w, "write=%s", rv(write(fd, "hello", 5)));
	close(fd);
}

static void on_alarm(int sig) { (void)sig; }

/* poll(fd, POLLIN, no wait): the count and the events, as text */
static const char *polled(int fd)
{
	static char b[48];
	struct pollfd pf = { fd, POLLIN, 0 };
	int n = poll(&pf, 1, 0);
	snprintf(b, sizeof b, "%s revents=0x%x", rv(n), pf.revents);
	return b;
}

static void fifo_cases(void)
{
	char buf[64];
	mkfifo(path("p"), 0644);
	/* O_NONBLOCK: a reader opens alone, a lone writer is turned away */
	int r = open(path("p"), O_RDONLY | O_NONBLOCK);
	say("nonblock_reader %s read_no_writer=%s", r < 0 ? rv(r) : "ok", rv(read(r, buf, 10)));
	say("poll_no_writer_yet %s", polled(r));
	close(r);
	say("nonblock_lone_writer %s", opens("p", O_WRONLY | O_NONBLOCK));
	r = open(path("p"), O_RDONLY | O_NONBLOCK);
	int w = open(path("p"), O_WRONLY | O_NONBLOCK);
	say("nonblock_writer_with_reader %s", w < 0 ? rv(w) : "ok");
	say("write %s", rv(write(w, "abcdef", 6)));
	memset(buf, 0, sizeof buf);
	say("read %s %s", rv(read(r, buf, 4)), buf);
	say("read_rest %s", rv(read(r, buf, 4)));
	say("read_empty_with_writer %s", rv(read(r, buf, 4)));
	struct stat st;
	fstat(w, &st);
	say("fstat fifo=%d size=%lld", S_ISFIFO(st.st_mode), (long long)st.st_size);
	say("lseek %s", rv(lseek(r, 0, SEEK_SET)));
	say("pread %s", rv(pread(r, buf, 1, 0)));
	say("pipe_size %s", rv(fcntl(w, F_GETPIPE_SZ)));
	say("poll_writer_open_empty %s", polled(r));
	close(w);
	say("poll_writer_gone %s", polled(r));
	say("read_after_writer_closed %s", rv(read(r, buf, 4)));
	w = open(path("p"), O_WRONLY | O_NONBLOCK);
	say("poll_second_writer %s", polled(r));
	close(w);
	say("poll_second_writer_gone %s", polled(r));
	close(r);
	/* the blocking opens meet */
	char text[128];
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(path("p"), O_WRONLY);
		if (fd < 0)
			_exit(1);
		write(fd, "hello", 5);
		close(fd);
		_exit(0);
	}
	r = open(path("p"), O_RDONLY);          /* waits for the child's writer */
	memset(buf, 0, sizeof buf);
	ssize_t n = 0, k;
	while ((k = read(r, buf + n, sizeof buf - 1 - n)) > 0)
		n += k;
	int ws = 0;
	waitpid(pid, &ws, 0);
	say("blocking_reader %s got=%zd %s eof=%s child=%s", r < 0 ? rv(r) : "ok", n, buf,
	    rv(k), wstatus(ws));
	close(r);
	/* and the other way round: the child's writer waits for our reader */
	int st2;
	memset(text, 0, sizeof text);
	int rp[2];
	pipe(rp);
	pid = fork();
	if (pid == 0) {
		close(rp[0]);
		writer_body(rp[1]);
		_exit(0);
	}
	close(rp[1]);
	usleep(200000);                         /* the child is in its open */
	r = open(path("p"), O_RDONLY);
	memset(buf, 0, sizeof buf);
	n = read(r, buf, 5);
	waitpid(pid, &st2, 0);
	k = read(rp[0], text, sizeof text - 1);
	text[k > 0 ? k : 0] = 0;
	close(rp[0]);
	say("blocking_writer %s %s read=%zd %s", wstatus(st2), text, n, buf);
	close(r);
	/* O_RDWR: never waits; the bytes go with the last close */
	int rw = open(path("p"), O_RDWR | O_NONBLOCK);
	say("rdwr %s write=%s", rw < 0 ? rv(rw) : "ok", rv(write(rw, "zz", 2)));
	int rw2 = open(path("p"), O_RDWR | O_NONBLOCK | O_TRUNC);
	memset(buf, 0, sizeof buf);
	say("rdwr_second %s read=%s %s", rw2 < 0 ? rv(rw2) : "ok", rv(read(rw2, buf, 8)), buf);
	close(rw2);
	say("rdwr_write_again %s", rv(write(rw, "yy", 2)));
	close(rw);
	rw = open(path("p"), O_RDWR | O_NONBLOCK);
	say("rdwr_after_last_close read=%s", rv(read(rw, buf, 8)));
	close(rw);
	/* no reader left: EPIPE (SIGPIPE ignored) */
	signal(SIGPIPE, SIG_IGN);
	r = open(path("p"), O_RDONLY | O_NONBLOCK);
	w = open(path("p"), O_WRONLY | O_NONBLOCK);
	close(r);
	say("write_no_reader %s", rv(write(w, "x", 1)));
	close(w);
	signal(SIGPIPE, SIG_DFL);
	/* a signal ends a waiting open (a handler without SA_RESTART) */
	struct sigaction sa = { .sa_handler = on_alarm };
	sigaction(SIGALRM, &sa, NULL);
	alarm(1);
	say("open_interrupted %s", opens("p", O_RDONLY));
	alarm(0);
	say("nonblock_writer_after_interrupted %s", opens("p", O_WRONLY | O_NONBLOCK));
	/* unlinked while open: the pipe goes on */
	r = open(path("p"), O_RDONLY | O_NONBLOCK);
	w = open(path("p"), O_WRONLY | O_NONBLOCK);
	say("unlink %s", rv(unlink(path("p"))));
	const char *wq = rv(write(w, "q", 1));
	say("after_unlink write=%s read=%s", wq, rv(read(r, buf, 4)));
	close(w);
	close(r);
}

int main(int argc, char **argv)
{
	conform_start("mknod", argc, argv);
	node_cases();
	user_cases();
	fifo_cases();
	conform_end();
	return 0;
}
