/*
 * t_fileio.c - files, directories and descriptors through our libc:
 * write/read round trips, lseek, pread64/pwrite64 (64-bit offsets split
 * across two registers), readv/writev, ftruncate, fstat, dup2, pipe,
 * stdio streams, opendir/readdir, rename, link, symlink, unlink, errno.
 *
 * usage: t_fileio [dir]   (works in a fresh directory under dir, default /tmp)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "check.h"

static int has_entry(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, name) == 0)
			found = 1;
	closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	char dir[256], buf[8192], big[6000];
	struct stat st;
	int fd, fds[2];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/t_fileio.%d", argc > 1 ? argv[1] : "/tmp", getpid());
	CHECK("fileio.mkdir", mkdir(dir, 0755) == 0);
	CHECK("fileio.chdir", chdir(dir) == 0);
	CHECK("fileio.getcwd", getcwd(buf, sizeof(buf)) && strstr(buf, "t_fileio.") != NULL);

	/* Round trip across several pages. */
	for (int i = 0; i < (int)sizeof(big); i++)
		big[i] = (char)(i * 7 + 3);
	fd = open("data", O_CREAT | O_RDWR | O_TRUNC, 0644);
	CHECK("fileio.open_create", fd >= 0);
	CHECK("fileio.write", write(fd, big, sizeof(big)) == (ssize_t)sizeof(big));
	CHECK("fileio.lseek_set", lseek(fd, 0, SEEK_SET) == 0);
	memset(buf, 0, sizeof(buf));
	CHECK("fileio.read_all", read(fd, buf, sizeof(buf)) == (ssize_t)sizeof(big) &&
	      memcmp(buf, big, sizeof(big)) == 0);
	CHECK("fileio.read_eof", read(fd, buf, 10) == 0);
	CHECK("fileio.lseek_end", lseek(fd, 0, SEEK_END) == (off_t)sizeof(big));
	CHECK("fileio.lseek_cur", lseek(fd, -100, SEEK_CUR) == (off_t)sizeof(big) - 100);
	CHECK("fileio.fstat_size", fstat(fd, &st) == 0 && st.st_size == (off_t)sizeof(big) &&
	      S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0644 && st.st_nlink == 1);

	/* Positional I/O does not move the offset. */
	CHECK("fileio.pwrite64", pwrite64(fd, "PQ", 2, 4096) == 2);
	CHECK("fileio.pread64", pread64(fd, buf, 4, 4095) == 4 && buf[1] == 'P' && buf[2] == 'Q' &&
	      buf[0] == big[4095] && buf[3] == big[4098]);
	CHECK("fileio.pread_keeps_offset", lseek(fd, 0, SEEK_CUR) == (off_t)sizeof(big) - 100);
	/* Beyond 4 GiB: only right if both halves of the offset reach the kernel. */
	CHECK("fileio.pwrite64_above_4G", pwrite64(fd, "HI", 2, 0x100000010LL) == 2);
	CHECK("fileio.size_above_4G", fstat(fd, &st) == 0 && st.st_size == 0x100000012LL);
	CHECK("fileio.pread64_above_4G", pread64(fd, buf, 2, 0x100000010LL) == 2 &&
	      buf[0] == 'H' && buf[1] == 'I');
	CHECK("fileio.lseek_above_4G", lseek(fd, 0, SEEK_END) == 0x100000012LL);
	CHECK("fileio.ftruncate", ftruncate(fd, 100) == 0 && fstat(fd, &st) == 0 && st.st_size == 100);
	CHECK("fileio.close", close(fd) == 0);
	CHECK("fileio.truncate", truncate("data", 10) == 0 && stat("data", &st) == 0 && st.st_size == 10);

	/* Scatter/gather. */
	fd = open("vec", O_CREAT | O_RDWR | O_TRUNC, 0600);
	{
		struct iovec out[3] = { { "abc", 3 }, { "", 0 }, { "defgh", 5 } };
		char a[4] = "", b[5] = "";
		struct iovec in[2] = { { a, 3 }, { b, 5 } };

		CHECK("fileio.writev", writev(fd, out, 3) == 8);
		lseek(fd, 0, SEEK_SET);
		CHECK("fileio.readv", readv(fd, in, 2) == 8 && memcmp(a, "abc", 3) == 0 &&
		      memcmp(b, "defgh", 5) == 0);
	}
	close(fd);

	/* Descriptors. */
	fd = open("vec", O_RDONLY);
	CHECK("fileio.dup2", dup2(fd, 20) == 20 && read(20, buf, 3) == 3 && memcmp(buf, "abc", 3) == 0);
	CHECK("fileio.dup_shares_offset", read(fd, buf, 1) == 1 && buf[0] == 'd');
	close(20);
	close(fd);
	errno = 0;
	CHECK("fileio.close_bad_fd_EBADF", close(1000) == -1 && errno == EBADF);
	errno = 0;
	CHECK("fileio.open_missing_ENOENT", open("no/such/file", O_RDONLY) == -1 && errno == ENOENT);
	errno = 0;
	CHECK("fileio.open_excl_EEXIST", open("vec", O_CREAT | O_EXCL | O_WRONLY, 0600) == -1 &&
	      errno == EEXIST);
	CHECK("fileio.pipe", pipe(fds) == 0 && write(fds[1], "pipe!", 5) == 5 &&
	      read(fds[0], buf, 5) == 5 && memcmp(buf, "pipe!", 5) == 0);
	close(fds[1]);
	CHECK("fileio.pipe_eof", read(fds[0], buf, 5) == 0);
	close(fds[0]);

	/* stdio streams. */
	f = fopen("text", "w");
	CHECK("stdio.fopen_w", f != NULL);
	fprintf(f, "line %d\n", 1);
	fputs("line 2\n", f);
	fwrite("line 3\n", 1, 7, f);
	CHECK("stdio.fclose", fclose(f) == 0);
	f = fopen("text", "r");
	CHECK("stdio.fgets", fgets(buf, sizeof(buf), f) && strcmp(buf, "line 1\n") == 0);
	CHECK("stdio.fgetc", fgetc(f) == 'l');
	CHECK("stdio.fread", fread(buf, 1, 5, f) == 5 && memcmp(buf, "ine 2", 5) == 0);
	CHECK("stdio.ftell", ftell(f) == 13);
	CHECK("stdio.fseek", fseek(f, 14, SEEK_SET) == 0 && fgets(buf, sizeof(buf), f) &&
	      strcmp(buf, "line 3\n") == 0);
	CHECK("stdio.eof", fgetc(f) == EOF && feof(f));
	fclose(f);
	f = fopen("text", "a");
	fputs("line 4\n", f);
	fclose(f);
	CHECK("stdio.append", stat("text", &st) == 0 && st.st_size == 28);

	/* Names. */
	CHECK("fileio.rename", rename("text", "text2") == 0 && stat("text", &st) < 0 &&
	      stat("text2", &st) == 0);
	CHECK("fileio.link", link("text2", "hard") == 0 && stat("text2", &st) == 0 && st.st_nlink == 2);
	CHECK("fileio.symlink", symlink("text2", "soft") == 0);
	{
		ssize_t n = readlink("soft", buf, sizeof(buf));
		CHECK("fileio.readlink", n == 5 && memcmp(buf, "text2", 5) == 0);
	}
	CHECK("fileio.lstat_symlink", lstat("soft", &st) == 0 && S_ISLNK(st.st_mode));
	CHECK("fileio.stat_follows", stat("soft", &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 28);
	CHECK("fileio.mkdir_sub", mkdir("sub", 0700) == 0 && stat("sub", &st) == 0 && S_ISDIR(st.st_mode));
	CHECK("fileio.readdir", has_entry(".", "sub") && has_entry(".", "soft") && has_entry(".", "hard") &&
	      has_entry(".", ".") && !has_entry(".", "text"));
	errno = 0;
	CHECK("fileio.rmdir_nonempty_ENOTEMPTY", open("sub/x", O_CREAT | O_WRONLY, 0600) >= 0 &&
	      rmdir("sub") == -1 && errno == ENOTEMPTY);
	CHECK("fileio.unlink", unlink("sub/x") == 0 && open("sub/x", O_RDONLY) == -1 && errno == ENOENT);
	CHECK("fileio.rmdir", rmdir("sub") == 0);
	CHECK("fileio.fsync", (fd = open("hard", O_WRONLY)) >= 0 && fsync(fd) == 0 && fdatasync(fd) == 0);
	close(fd);
	sync();

	unlink("data");
	unlink("vec");
	unlink("text2");
	unlink("hard");
	unlink("soft");
	chdir("..");
	CHECK("fileio.cleanup", rmdir(dir) == 0);
	return check_summary();
}
