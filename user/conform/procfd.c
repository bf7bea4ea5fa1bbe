/* procfd.c - conformance: /proc/self/fd (issue 23).  The link of a file
 * opened by this program reads as the file's absolute name, with a mode
 * by the open's access mode; /dev/null's as /dev/null; a pipe's as
 * "pipe:[INODE]" with fstat's inode; an unlinked file's marked
 * "(deleted)"; a closed descriptor's link is gone (ENOENT, and not in the
 * listing); opening the link opens the file again (the same bytes, an
 * offset of its own).  Prints observations only (conform.h).
 */
#include "conform.h"
#include <dirent.h>
#include <limits.h>

static char link_text[PATH_MAX];

/* readlink of /proc/self/fd/FD into link_text; its result as text */
static const char *fdlink(int fd)
{
	char p[64];
	snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(p, link_text, sizeof link_text - 1);
	link_text[n > 0 ? n : 0] = 0;
	return n < 0 ? rv(n) : "ok";
}

/* the mode bits of the link itself (lstat) */
static unsigned link_mode(int fd)
{
	char p[64];
	struct stat st;
	snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
	return lstat(p, &st) ? 0xffff : (st.st_mode & 07777) | (S_ISLNK(st.st_mode) ? 0x10000 : 0);
}

static int listed(int fd)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int found = 0;
	while (d && (e = readdir(d)))
		if (atoi(e->d_name) == fd && e->d_name[0] >= '0' && e->d_name[0] <= '9')
			found = e->d_type == DT_LNK ? 1 : 2;
	if (d)
		closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	conform_start("procfd", argc, argv);
	char full[PATH_MAX];
	int fd = open(path("f"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "procfd bytes", 12);
	if (!realpath(path("f"), full))
		full[0] = 0;
	const char *r = fdlink(fd);
	say("file_rw %s is_path=%d mode=0x%x listed=%d", r, !strcmp(link_text, full), link_mode(fd),
	    listed(fd));
	int ro = open(path("f"), O_RDONLY);
	int wo = open(path("f"), O_WRONLY);
	say("modes ro=0x%x wo=0x%x", link_mode(ro), link_mode(wo));
	close(wo);

	char p[64], buf[32] = "";
	snprintf(p, sizeof p, "/proc/self/fd/%d", ro);
	int again = open(p, O_RDONLY);
	ssize_t n = again < 0 ? -1 : read(again, buf, 6);
	buf[n > 0 ? n : 0] = 0;
	say("reopen %s read=%s pos_ro=%lld pos_again=%lld", again < 0 ? rv(again) : "ok", buf,
	    (long long)lseek(ro, 0, SEEK_CUR), (long long)lseek(again, 0, SEEK_CUR));
	close(again);
	close(ro);
	r = fdlink(ro);
	say("closed %s listed=%d", r, listed(ro));

	int nul = open("/dev/null", O_WRONLY);
	r = fdlink(nul);
	say("dev_null %s %s", r, link_text);
	close(nul);

	int pf[2];
	pipe(pf);
	struct stat st;
	fstat(pf[0], &st);
	char want[64];
	snprintf(want, sizeof want, "pipe:[%lu]", (unsigned long)st.st_ino);
	r = fdlink(pf[0]);
	say("pipe %s is_pipe_ino=%d mode=0x%x", r, !strcmp(link_text, want), link_mode(pf[0]));
	close(pf[0]);
	close(pf[1]);

	unlink(path("f"));
	r = fdlink(fd);
	size_t len = strlen(link_text);
	say("unlinked %s marked_deleted=%d", r, len >= 9 && !strcmp(link_text + len - 9, "(deleted)"));
	close(fd);
	say("dir_mode 0%o", (unsigned)(stat("/proc/self/fd", &st) ? 0 : st.st_mode & 07777));
	conform_end();
	return 0;
}
