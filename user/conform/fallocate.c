/* fallocate.c - conformance: fallocate(2) and posix_fallocate (issue 23).
 * Each mode bit and the combinations Linux refuses, negative and zero
 * offsets and lengths, a descriptor not open for writing, a pipe, a
 * directory, /dev/null, a range past the largest file size; then
 * posix_fallocate, which falls back to writing the blocks itself when the
 * file system has no fallocate: its result, the size and bytes after,
 * and that it keeps data already there.  Prints observations only.
 */
#include "conform.h"
#include <linux/falloc.h>
#include <sys/syscall.h>

static long fa(int fd, int mode, long long off, long long len)
{
	return fallocate(fd, mode, off, len);
}

int main(int argc, char **argv)
{
	conform_start("fallocate", argc, argv);
	int fd = open(path("f"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "keep", 4);
	static const int modes[] = { 0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE,
		FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, FALLOC_FL_NO_HIDE_STALE,
		FALLOC_FL_COLLAPSE_RANGE, FALLOC_FL_COLLAPSE_RANGE | FALLOC_FL_KEEP_SIZE,
		FALLOC_FL_ZERO_RANGE, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE,
		FALLOC_FL_ZERO_RANGE | FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		FALLOC_FL_INSERT_RANGE, FALLOC_FL_INSERT_RANGE | FALLOC_FL_KEEP_SIZE,
		FALLOC_FL_UNSHARE_RANGE, FALLOC_FL_UNSHARE_RANGE | FALLOC_FL_KEEP_SIZE,
		FALLOC_FL_UNSHARE_RANGE | FALLOC_FL_PUNCH_HOLE, 0x80, 0x100 };
	for (unsigned i = 0; i < sizeof modes / sizeof modes[0]; i++)
		say("mode 0x%x %s", modes[i], rv(fa(fd, modes[i], 0, 4096)));
	say("negative_offset %s", rv(fa(fd, 0, -1, 4096)));
	say("zero_len %s", rv(fa(fd, 0, 0, 0)));
	say("negative_len %s", rv(fa(fd, 0, 0, -1)));
	say("bad_mode_and_len %s", rv(fa(fd, 0x100, 0, 0)));
	say("past_max %s", rv(fa(fd, 0, 0x7fffffffffff0000LL, 0x20000)));
	say("bad_fd %s", rv(fa(999, 0, 0, 4096)));
	int ro = open(path("f"), O_RDONLY);
	say("read_only %s", rv(fa(ro, 0, 0, 4096)));
	close(ro);
	int p[2];
	pipe(p);
	say("pipe_write_end %s", rv(fa(p[1], 0, 0, 4096)));
	say("pipe_read_end %s", rv(fa(p[0], 0, 0, 4096)));
	close(p[0]);
	close(p[1]);
	int d = open(c_dir, O_RDONLY | O_DIRECTORY);
	say("directory %s", rv(fa(d, 0, 0, 4096)));
	close(d);
	int nul = open("/dev/null", O_WRONLY);
	say("dev_null %s", rv(fa(nul, 0, 0, 4096)));
	close(nul);

	close(fd);
	unlink(path("f"));
	/* a fresh file: the punched hole above (Linux's ext4 driver makes
	 * one on ext2 images) leaves it alone */
	fd = open(path("g"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "keep", 4);
	int r = posix_fallocate(fd, 2, 10000);
	char b[8] = "";
	pread(fd, b, 4, 0);
	unsigned char z = 1;
	pread(fd, &z, 1, 9000);
	say("posix_fallocate %d size=%lld kept=%s zero=%d", r, fsize(fd), b, z);
	say("posix_fallocate_inside %d size=%lld", posix_fallocate(fd, 0, 100), fsize(fd));
	say("posix_fallocate_bad %d", posix_fallocate(fd, -1, 100));
	close(fd);
	unlink(path("g"));
	conform_end();
	return 0;
}
