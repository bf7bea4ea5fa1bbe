/*
 * root_ro.c - init for the read-only root boot of tools/tests/rootmount.sh
 * (the kernel is booted with "root=hda ro init=/tests/root_ro").
 *
 * Checks that /proc/mounts shows the root read-only, that every call that
 * would change the ext2 root fails with -EROFS and leaves it as it was,
 * that reading still works, and that /tmp (a ramfs) is still writable.
 * Then syncs and powers off; the host compares the image's checksum with
 * the one it took before the boot (nothing may have been written).
 *
 * Prints "PASS ro.NAME" / "FAIL ro.NAME (...)" and "root_ro: done N".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "sc.h"

/* The root's line of /proc/mounts ("dev / type rw|ro 0 0"), or "". */
static void root_mount_line(char *line, size_t size)
{
	static char buf[1024];
	int fd = open("/proc/mounts", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	line[0] = '\0';
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (char *p = buf; *p; ) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *sp = memchr(p, ' ', len);
		if (sp && sp + 2 < p + len && sp[1] == '/' && sp[2] == ' ') {
			if (len >= size)
				len = size - 1;
			memcpy(line, p, len);
			line[len] = '\0';
			return;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
}

int main(void)
{
	char line[128], buf[64];
	struct stat before, after;

	root_mount_line(line, sizeof(line));
	CHECK("ro.proc_mounts_root_ro", strstr(line, " / ext2 ro ") != NULL);
	printf("root_ro: root line \"%s\"\n", line);

	/* Reading is fine. */
	CHECK("ro.stat_existing", stat("/etc/rc", &before) == 0 && before.st_size > 0);
	int fd = (int)SC(__NR_open, "/etc/rc", O_RDONLY);
	CHECK("ro.open_rdonly", fd >= 0);
	CHECK("ro.read", fd >= 0 && SC(__NR_read, fd, buf, sizeof(buf)) > 0);
	CHECK("ro.write_on_rdonly_fd_ebadf", fd >= 0 && SC(__NR_write, fd, "x", 1) == -EBADF);
	if (fd >= 0)
		SC(__NR_close, fd);

	/* Everything that would write: -EROFS, and nothing appears or goes. */
	CHECK("ro.open_wronly", SC(__NR_open, "/etc/rc", O_WRONLY) == -EROFS);
	CHECK("ro.open_rdwr", SC(__NR_open, "/etc/rc", O_RDWR) == -EROFS);
	CHECK("ro.open_trunc", SC(__NR_open, "/etc/rc", O_WRONLY | O_TRUNC) == -EROFS);
	CHECK("ro.creat", SC(__NR_open, "/newfile", O_CREAT | O_WRONLY, 0644) == -EROFS);
	CHECK("ro.creat_left_nothing", SC(__NR_stat64, "/newfile", &after) == -ENOENT);
	CHECK("ro.mkdir", SC(__NR_mkdir, "/newdir", 0755) == -EROFS);
	CHECK("ro.mkdir_left_nothing", SC(__NR_stat64, "/newdir", &after) == -ENOENT);
	CHECK("ro.mkdir_existing_eexist", SC(__NR_mkdir, "/etc", 0755) == -EEXIST);
	CHECK("ro.unlink", SC(__NR_unlink, "/etc/rc") == -EROFS);
	CHECK("ro.rmdir", SC(__NR_rmdir, "/mnt") == -EROFS);
	CHECK("ro.rename", SC(__NR_rename, "/etc/rc", "/etc/rc2") == -EROFS);
	CHECK("ro.link", SC(__NR_link, "/etc/rc", "/etc/rc3") == -EROFS);
	CHECK("ro.symlink", SC(__NR_symlink, "rc", "/etc/rc4") == -EROFS);
	CHECK("ro.truncate", SC(__NR_truncate, "/etc/rc", 0) == -EROFS);
	CHECK("ro.names_unchanged", stat("/etc/rc", &after) == 0 &&
	      after.st_ino == before.st_ino && after.st_size == before.st_size &&
	      after.st_nlink == before.st_nlink && after.st_mtime == before.st_mtime &&
	      SC(__NR_stat64, "/etc/rc2", &after) == -ENOENT &&
	      SC(__NR_stat64, "/etc/rc3", &after) == -ENOENT &&
	      SC(__NR_lstat64, "/etc/rc4", &after) == -ENOENT &&
	      SC(__NR_stat64, "/mnt", &after) == 0);

	/* The ramfs on /tmp is a mount of its own: writable. */
	fd = (int)SC(__NR_open, "/tmp/w", O_CREAT | O_RDWR, 0644);
	CHECK("ro.tmp_writable", fd >= 0 && SC(__NR_write, fd, "abc", 3) == 3 &&
	      stat("/tmp/w", &after) == 0 && after.st_size == 3);
	if (fd >= 0)
		SC(__NR_close, fd);

	printf("root_ro: done %d\n", check_failures);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return check_summary();
}
