/* glibc_files.c - built on the host with gcc -m32 -static (glibc), run on
 * Vellum by tools/tests/glibc_files.sh (and runnable on Linux: same output).
 * Exercises the file calls glibc makes for ordinary programs: mkdir, open,
 * write, lseek (SEEK_SET/CUR/END, a hole), pread, stat/fstat/lstat (statx or
 * stat64 underneath), opendir/readdir (getdents64), rename, symlink/readlink,
 * unlink, rmdir.  Prints "glibc_files: PASS name" / "FAIL name" lines and
 * leaves /home/glibc/result for the host to read back with debugfs. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures;
static void check(int ok, const char *what)
{
	printf("glibc_files: %s %s\n", ok ? "PASS" : "FAIL", what);
	if (!ok) {
		printf("glibc_files:   (errno %d: %s)\n", errno, strerror(errno));
		failures++;
	}
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/home/glibc";
	char path[256], path2[256], buf[64];
	struct stat st;

	if (chdir("/") != 0 || (mkdir(dir, 0755) != 0 && errno != EEXIST) || chdir(dir) != 0) {
		perror(dir);
		return 2;
	}
	/* a file with a hole: "head" at 0, "tail" at 10000 */
	int fd = open("data", O_RDWR | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0, "open O_CREAT");
	check(write(fd, "head", 4) == 4, "write");
	check(lseek(fd, 10000, SEEK_SET) == 10000, "lseek SEEK_SET past the end");
	check(write(fd, "tail", 4) == 4, "write after the hole");
	check(lseek(fd, 0, SEEK_CUR) == 10004, "lseek SEEK_CUR");
	check(lseek(fd, -2, SEEK_END) == 10002, "lseek SEEK_END");
	check(read(fd, buf, 8) == 2 && memcmp(buf, "il", 2) == 0, "read at SEEK_END-2");
	check(pread(fd, buf, 4, 5000) == 4 && memcmp(buf, "\0\0\0\0", 4) == 0, "pread in the hole");
	check(fstat(fd, &st) == 0 && st.st_size == 10004 && S_ISREG(st.st_mode), "fstat size 10004");
	check(lseek(fd, -1, SEEK_SET) == -1 && errno == EINVAL, "lseek negative: EINVAL");
	close(fd);

	/* rename, symlink, stat vs lstat */
	fd = open("old", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check(fd >= 0 && write(fd, "renamed\n", 8) == 8, "write old");
	close(fd);
	check(rename("old", "new") == 0, "rename");
	check(stat("old", &st) == -1 && errno == ENOENT, "old is gone");
	check(stat("new", &st) == 0 && st.st_size == 8, "new has 8 bytes");
	check(symlink("new", "link") == 0, "symlink");
	ssize_t n = readlink("link", buf, sizeof buf);
	check(n == 3 && memcmp(buf, "new", 3) == 0, "readlink");
	check(lstat("link", &st) == 0 && S_ISLNK(st.st_mode), "lstat sees the link");
	check(stat("link", &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 8, "stat follows it");
	check(mkdir("sub", 0755) == 0 && rename("new", "sub/moved") == 0, "rename into a directory");

	/* readdir: exactly ., .., data, link, sub (order is the file system's) */
	DIR *d = opendir(".");
	check(d != NULL, "opendir");
	int seen = 0, count = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		count++;
		if (!strcmp(e->d_name, "data") && e->d_type == DT_REG) seen |= 1;
		if (!strcmp(e->d_name, "link") && e->d_type == DT_LNK) seen |= 2;
		if (!strcmp(e->d_name, "sub") && e->d_type == DT_DIR) seen |= 4;
		if (!strcmp(e->d_name, "new") || !strcmp(e->d_name, "old")) seen |= 8;
	}
	if (d)
		closedir(d);
	check(count == 5 && seen == 7, "readdir names and d_type");

	/* umask: open(O_CREAT) and mkdir clear its bits; umask returns the old one */
	umask(027);
	check(umask(027) == 027, "umask returns the old mask");
	fd = open("masked", O_WRONLY | O_CREAT, 0666);
	check(fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0640, "open 0666 under umask 027: 0640");
	close(fd);
	check(mkdir("maskdir", 0777) == 0 && stat("maskdir", &st) == 0 && (st.st_mode & 07777) == 0750,
	      "mkdir 0777 under umask 027: 0750");
	check(unlink("masked") == 0 && rmdir("maskdir") == 0, "clean up");
	umask(022);

	/* unlink and rmdir; a non-empty directory refuses */
	check(rmdir("sub") == -1 && errno == ENOTEMPTY, "rmdir non-empty: ENOTEMPTY");
	snprintf(path, sizeof path, "sub/moved");
	snprintf(path2, sizeof path2, "result");
	check(rename(path, path2) == 0, "rename back out");
	check(rmdir("sub") == 0, "rmdir");
	check(unlink("link") == 0 && lstat("link", &st) == -1, "unlink the link");

	fd = open("result", O_WRONLY | O_APPEND);
	check(fd >= 0 && write(fd, failures ? "FAIL\n" : "PASS\n", 5) == 5, "append the verdict");
	close(fd);
	printf("glibc_files: %d failures\n", failures);
	return failures != 0;
}
