/* tmpfs.c - conformance: a tmpfs mount (issue 23): its statfs type, the
 * root's mode and owner from the options (mode=, uid=, gid=; the default
 * 1777), the size options accepted, an unknown option refused, files, a
 * directory and a FIFO in it, the umount.  Vellum's tmpfs is its ramfs
 * under Linux's name (docs/vfs.md).  Prints observations only (conform.h).
 */
#include "conform.h"
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>

/* the mount point's root: "1777 0 0", or the error */
static const char *root(void)
{
	static char b[64];
	struct stat st;
	if (stat(path("t"), &st) < 0)
		return rv(-1);
	snprintf(b, sizeof b, "%o %u %u", st.st_mode & 07777, (unsigned)st.st_uid,
		 (unsigned)st.st_gid);
	return b;
}

static void mounted(const char *key, const char *opts)
{
	int r = mount("none", path("t"), "tmpfs", 0, opts);
	const char *e = rv(r);
	say("%s mount=%s root=%s", key, e, root());
	if (r == 0) {
		struct statfs sf;
		statfs(path("t"), &sf);
		say("%s statfs type=%#lx bsize=%ld namelen=%ld", key, (unsigned long)sf.f_type,
		    (long)sf.f_bsize, (long)sf.f_namelen);
		say("%s umount=%s", key, rv(umount(path("t"))));
	}
}

int main(int argc, char **argv)
{
	conform_start("tmpfs", argc, argv);
	mkdir(path("t"), 0755);
	mounted("default", NULL);
	mounted("mode", "mode=700");
	mounted("owner", "uid=1000,gid=1000,mode=0755");
	mounted("sizes", "size=1m,nr_inodes=100,nr_blocks=256");
	mounted("unknown", "colour=blue");
	mounted("unknown_after_good", "mode=700,bogus");

	/* files in it */
	say("mount %s", rv(mount("none", path("t"), "tmpfs", 0, "mode=755")));
	int fd = open(path("t/f"), O_RDWR | O_CREAT, 0644);
	say("create %s write=%s", fd < 0 ? rv(fd) : "ok", rv(write(fd, xs, 5000)));
	say("size %lld %s", fsize(fd), bytes(fd, 4990, 20));
	close(fd);
	say("mkdir %s", rv(mkdir(path("t/d"), 0700)));
	say("mkfifo %s", rv(mkfifo(path("t/d/p"), 0600)));
	fd = open(path("t/f"), O_RDONLY);
	say("umount_open %s", rv(umount(path("t"))));
	close(fd);
	say("umount %s", rv(umount(path("t"))));
	say("gone %s", rv(access(path("t/f"), F_OK)));
	rmdir(path("t"));
	conform_end();
	return 0;
}
