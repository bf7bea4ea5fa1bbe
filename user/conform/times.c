/* times.c - conformance: which calls change a file's and its directory's
 * access, modification and change times (issue 22).  Every case gets its
 * own directory tN holding a file tN/f; the objects a case observes have
 * their atime and mtime set old first (utimensat, 2001), the state is
 * recorded, then after a pause of over a second (the kernels' clocks may
 * count whole seconds) each case's one call runs and the program prints,
 * per object, whether each time changed (yes/no), never a time, except
 * those a case set explicitly.
 *
 * Reads and atime: Linux mounts with its default, relatime (the Linux
 * side mounts ramfs and ext2 without options): a read changes atime only
 * if atime is not after mtime or ctime, or is a day old or more.  The
 * cases set atime old (changes), in the future (does not), and in the
 * future but before mtime (changes).
 */
#include "conform.h"
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#define OLD 1000000000L                 /* 2001-09-09 */

struct obs {
	const char *label;
	char before[64], after[64];     /* the object's path before and after the call */
	int fd;                         /* >= 0: observe through fstat instead */
	struct stat s0;
};

struct tc {
	const char *key;
	char d[16], f[32];              /* the case's directory and file */
	int fd, nobs;
	struct obs o[3];
};

static const char *keys[] = {
	"write", "write_0", "pwrite", "read", "read_0", "read_at_eof", "pread",
	"read_noatime", "read_atime_future", "read_atime_future_mtime_later", "mmap",
	"getdents", "readlink", "stat", "open_rdonly", "open_creat_existing",
	"open_trunc", "open_trunc_empty", "creat_new", "ftruncate_grow",
	"ftruncate_same", "truncate_shrink", "truncate_same", "link", "unlink",
	"unlink_last", "rename", "rename_other_dir", "rename_over", "rename_to_itself",
	"rename_hardlinks", "rename_dir_other_parent", "mkdir", "rmdir", "symlink",
	"utime_null", "utime_now_now", "utime_omit_omit", "utime_now_omit",
	"utime_omit_now", "utime_explicit", "utime_explicit_nsec", "utime_explicit_omit",
	"futimens_null", "futimens_explicit", "utime_symlink_nofollow",
	"utime_symlink_follow",
};
#define NCASES (int)(sizeof keys / sizeof keys[0])
static struct tc cases[NCASES];

static void obs(struct tc *c, const char *label, const char *before, const char *after, int fd)
{
	struct obs *o = &c->o[c->nobs++];
	o->label = label;
	snprintf(o->before, sizeof o->before, "%s", before);
	snprintf(o->after, sizeof o->after, "%s", after ? after : before);
	o->fd = fd;
}

static int mkf(const char *p, size_t n)
{
	int fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, xs, n) != (ssize_t)n)
		say("error mkf %s", p);
	return fd;
}

static int utime2(const char *p, long as, long an, long ms, long mn, int flags)
{
	struct timespec t[2] = { { as, an }, { ms, mn } };
	return utimensat(AT_FDCWD, p, t, flags);
}

static int is(struct tc *c, const char *k) { return !strcmp(c->key, k); }

/* step 0: make the case's objects; 1: their times are old, adjust them;
 * 2: the call itself. */
static void step(struct tc *c, int s)
{
	char p[24], q[24], buf[64];
	const char *F = c->f, *D = c->d;
	snprintf(p, sizeof p, "%s/g", D);
	snprintf(q, sizeof q, "%s/sub", D);
	if (s == 0) {
		close(mkf(F, 10));
		obs(c, "file", F, NULL, -1);
		obs(c, "dir", D, NULL, -1);
	}
	if (is(c, "write") || is(c, "write_0") || is(c, "pwrite") || is(c, "ftruncate_grow") ||
	    is(c, "ftruncate_same") || is(c, "futimens_null") || is(c, "futimens_explicit")) {
		if (s == 0)
			c->fd = open(F, O_RDWR);
		else if (s == 2 && is(c, "write"))
			write(c->fd, xs, 10);
		else if (s == 2 && is(c, "write_0"))
			write(c->fd, xs, 0);
		else if (s == 2 && is(c, "pwrite"))
			pwrite(c->fd, xs, 10, 100);
		else if (s == 2 && is(c, "ftruncate_grow"))
			ftruncate(c->fd, 100);
		else if (s == 2 && is(c, "ftruncate_same"))
			ftruncate(c->fd, 10);
		else if (s == 2 && is(c, "futimens_null"))
			futimens(c->fd, NULL);
		else if (s == 2)
			futimens(c->fd, (struct timespec[2]){ { 1234567890, 0 }, { 987654321, 0 } });
	} else if (is(c, "read") || is(c, "read_0") || is(c, "read_at_eof") || is(c, "pread") ||
		   is(c, "read_noatime") || is(c, "read_atime_future") ||
		   is(c, "read_atime_future_mtime_later") || is(c, "mmap")) {
		if (s == 0)
			c->fd = open(F, O_RDONLY | (is(c, "read_noatime") ? O_NOATIME : 0));
		if (s == 1 && is(c, "read_atime_future"))
			utime2(F, time(NULL) + 10000, 0, OLD, 0, 0);
		if (s == 1 && is(c, "read_atime_future_mtime_later"))
			utime2(F, time(NULL) + 10000, 0, time(NULL) + 20000, 0, 0);
		if (s == 2 && is(c, "read_0"))
			read(c->fd, buf, 0);
		else if (s == 2 && is(c, "read_at_eof"))
			pread(c->fd, buf, 10, 10);
		else if (s == 2 && is(c, "pread"))
			pread(c->fd, buf, 5, 0);
		else if (s == 2 && is(c, "mmap"))
			mmap(NULL, 4096, PROT_READ, MAP_SHARED, c->fd, 0);
		else if (s == 2)
			read(c->fd, buf, 5);
	} else if (is(c, "getdents")) {
		if (s == 0)
			c->fd = open(D, O_RDONLY | O_DIRECTORY);
		if (s == 2)
			syscall(SYS_getdents64, c->fd, buf, sizeof buf);
	} else if (is(c, "readlink") || is(c, "utime_symlink_nofollow") || is(c, "utime_symlink_follow")) {
		if (s == 0) {
			symlink("f", p);
			obs(c, "symlink", p, NULL, -1);
		}
		if (s == 2 && is(c, "readlink"))
			readlink(p, buf, sizeof buf);
		else if (s == 2 && is(c, "utime_symlink_nofollow"))
			utime2(p, 1234567890, 0, 987654321, 0, AT_SYMLINK_NOFOLLOW);
		else if (s == 2)
			utimensat(AT_FDCWD, p, NULL, 0);
	} else if (is(c, "stat") && s == 2) {
		struct stat st;
		stat(F, &st);
	} else if (is(c, "open_rdonly") && s == 2) {
		c->fd = open(F, O_RDONLY);
	} else if (is(c, "open_creat_existing") && s == 2) {
		c->fd = open(F, O_RDWR | O_CREAT, 0644);
	} else if (is(c, "open_trunc") && s == 2) {
		c->fd = open(F, O_WRONLY | O_TRUNC);
	} else if (is(c, "open_trunc_empty")) {
		if (s == 0)
			truncate(F, 0);
		if (s == 2)
			c->fd = open(F, O_WRONLY | O_TRUNC);
	} else if (is(c, "creat_new") && s == 2) {
		c->fd = open(p, O_RDWR | O_CREAT, 0644);
	} else if (is(c, "truncate_shrink") && s == 2) {
		truncate(F, 5);
	} else if (is(c, "truncate_same") && s == 2) {
		truncate(F, 10);
	} else if (is(c, "link") && s == 2) {
		link(F, p);
	} else if (is(c, "unlink")) {
		if (s == 0)
			link(F, p);
		if (s == 2)
			unlink(p);
	} else if (is(c, "unlink_last")) {
		if (s == 0) {
			c->fd = open(F, O_RDONLY);
			c->nobs = 0;
			obs(c, "file", F, NULL, c->fd);
			obs(c, "dir", D, NULL, -1);
		}
		if (s == 2)
			unlink(F);
	} else if (is(c, "rename")) {
		if (s == 0)
			snprintf(c->o[0].after, sizeof c->o[0].after, "%s", p);
		if (s == 2)
			rename(F, p);
	} else if (is(c, "rename_other_dir")) {
		snprintf(buf, sizeof buf, "%s/f", q);
		if (s == 0) {
			mkdir(q, 0755);
			snprintf(c->o[0].after, sizeof c->o[0].after, "%s", buf);
			obs(c, "other_dir", q, NULL, -1);
		}
		if (s == 2)
			rename(F, buf);
	} else if (is(c, "rename_over")) {
		if (s == 0) {
			c->fd = mkf(p, 3);
			snprintf(c->o[0].after, sizeof c->o[0].after, "%s", p);
			obs(c, "replaced", p, NULL, c->fd);
		}
		if (s == 2)
			rename(F, p);
	} else if (is(c, "rename_to_itself") && s == 2) {
		rename(F, F);
	} else if (is(c, "rename_hardlinks")) {
		if (s == 0)
			link(F, p);
		if (s == 2)
			rename(F, p);
	} else if (is(c, "rename_dir_other_parent")) {
		/* tN/sub moves into tN/g: observe sub, tN and g */
		snprintf(buf, sizeof buf, "%s/sub", p);
		if (s == 0) {
			mkdir(q, 0755);
			mkdir(p, 0755);
			c->nobs = 0;
			obs(c, "moved", q, buf, -1);
			obs(c, "dir", D, NULL, -1);
			obs(c, "new_parent", p, NULL, -1);
		}
		if (s == 2)
			rename(q, buf);
	} else if (is(c, "mkdir") && s == 2) {
		mkdir(q, 0755);
	} else if (is(c, "rmdir")) {
		if (s == 0)
			mkdir(q, 0755);
		if (s == 2)
			rmdir(q);
	} else if (is(c, "symlink") && s == 2) {
		symlink("f", p);
	} else if (is(c, "utime_null") && s == 2) {
		utimensat(AT_FDCWD, F, NULL, 0);
	} else if (is(c, "utime_now_now") && s == 2) {
		utime2(F, 0, UTIME_NOW, 0, UTIME_NOW, 0);
	} else if (is(c, "utime_omit_omit") && s == 2) {
		utime2(F, 0, UTIME_OMIT, 0, UTIME_OMIT, 0);
	} else if (is(c, "utime_now_omit") && s == 2) {
		utime2(F, 0, UTIME_NOW, 0, UTIME_OMIT, 0);
	} else if (is(c, "utime_omit_now") && s == 2) {
		utime2(F, 0, UTIME_OMIT, 0, UTIME_NOW, 0);
	} else if (is(c, "utime_explicit") && s == 2) {
		utime2(F, 1234567890, 0, 987654321, 0, 0);
	} else if (is(c, "utime_explicit_nsec") && s == 2) {
		utime2(F, 1234567890, 123456789, 987654321, 999999999, 0);
	} else if (is(c, "utime_explicit_omit") && s == 2) {
		utime2(F, 0, UTIME_OMIT, 1111111111, 0, 0);
	}
}

static int get(struct obs *o, int after, struct stat *s)
{
	if (o->fd >= 0)
		return fstat(o->fd, s);
	return lstat(after ? o->after : o->before, s);
}

static const char *changed(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec != b->tv_sec || a->tv_nsec != b->tv_nsec ? "yes" : "no";
}

static void batch(void)
{
	for (int i = 0; i < NCASES; i++) {
		struct tc *c = &cases[i];
		c->key = keys[i];
		c->fd = -1;
		snprintf(c->d, sizeof c->d, "t%d", i);
		snprintf(c->f, sizeof c->f, "t%d/f", i);
		mkdir(c->d, 0755);
		step(c, 0);
	}
	for (int i = 0; i < NCASES; i++) {
		struct tc *c = &cases[i];
		for (int j = 0; j < c->nobs; j++)
			utime2(c->o[j].before, OLD, 0, OLD, 0, AT_SYMLINK_NOFOLLOW);
		step(c, 1);
		for (int j = 0; j < c->nobs; j++)
			if (get(&c->o[j], 0, &c->o[j].s0) < 0)
				say("error stat %s %s", c->key, c->o[j].label);
	}
	nanosleep(&(struct timespec){ 1, 100000000 }, NULL);
	for (int i = 0; i < NCASES; i++)
		step(&cases[i], 2);
	for (int i = 0; i < NCASES; i++) {
		struct tc *c = &cases[i];
		for (int j = 0; j < c->nobs; j++) {
			struct obs *o = &c->o[j];
			struct stat s;
			if (get(o, 1, &s) < 0) {
				say("%s %s stat=%s", c->key, o->label, rv(-1));
				continue;
			}
			say("%s %s atime=%s mtime=%s ctime=%s", c->key, o->label, changed(&o->s0.st_atim, &s.st_atim),
			    changed(&o->s0.st_mtim, &s.st_mtim), changed(&o->s0.st_ctim, &s.st_ctim));
			if (!strncmp(c->key, "utime_explicit", 14) || !strcmp(c->key, "futimens_explicit") ||
			    !strcmp(c->key, "utime_symlink_nofollow"))
				say("%s_values %s atime=%lld.%09ld mtime=%lld.%09ld", c->key, o->label,
				    (long long)s.st_atim.tv_sec, s.st_atim.tv_nsec,
				    (long long)s.st_mtim.tv_sec, s.st_mtim.tv_nsec);
		}
	}
	for (int i = 0; i < NCASES; i++) {
		struct tc *c = &cases[i];
		char cmd[64];
		if (c->fd >= 0)
			close(c->fd);
		snprintf(cmd, sizeof cmd, "%s/sub", c->d);
		if (!strcmp(c->key, "rename_dir_other_parent"))
			snprintf(cmd, sizeof cmd, "%s/g/sub", c->d);
		rmdir(cmd);
		snprintf(cmd, sizeof cmd, "%s/sub/f", c->d);
		unlink(cmd);
		snprintf(cmd, sizeof cmd, "%s/sub", c->d);
		rmdir(cmd);
		snprintf(cmd, sizeof cmd, "%s/g", c->d);
		unlink(cmd);
		rmdir(cmd);
		unlink(c->f);
		rmdir(c->d);
	}
}

/* utimensat's errors, and what it does before looking at the path */
static void errors(void)
{
	int fd = open("e", O_RDWR | O_CREAT, 0644);
	struct timespec t[2] = { { 0, 1000000000 }, { 0, 0 } };
	say("utime_nsec_1e9 ret=%s", rv(utimensat(AT_FDCWD, "e", t, 0)));
	t[0].tv_nsec = -1;
	say("utime_nsec_minus_1 ret=%s", rv(utimensat(AT_FDCWD, "e", t, 0)));
	t[0].tv_nsec = 0;
	say("utime_bad_flags ret=%s", rv(utimensat(AT_FDCWD, "e", t, 0x4000)));
	say("utime_missing ret=%s", rv(utimensat(AT_FDCWD, "nope", t, 0)));
	say("utime_empty ret=%s", rv(utimensat(AT_FDCWD, "", t, 0)));
	say("utime_file_slash ret=%s", rv(utimensat(AT_FDCWD, "e/", t, 0)));
	struct timespec omit[2] = { { 0, UTIME_OMIT }, { 0, UTIME_OMIT } };
	say("utime_omit_omit_missing ret=%s", rv(utimensat(AT_FDCWD, "nope", omit, 0)));
	say("utime_omit_omit_bad_flags ret=%s", rv(utimensat(AT_FDCWD, "e", omit, 0x4000)));
	say("futimens_bad_fd ret=%s", rv(futimens(99, NULL)));
	say("utimensat_null_path_cwd ret=%s", rv(syscall(SYS_utimensat, AT_FDCWD, NULL, NULL, 0)));
	say("utimensat_null_path_fd ret=%s", rv(syscall(SYS_utimensat, fd, NULL, NULL, 0)));
	say("utimensat_null_path_flags ret=%s",
	    rv(syscall(SYS_utimensat, fd, NULL, NULL, AT_SYMLINK_NOFOLLOW)));
	/* explicit times far from now: the largest 32-bit second, 0, before 1970 */
	long secs[] = { 0, 0x7fffffffL, -1 };
	for (int i = 0; i < 3; i++) {
		struct stat s;
		const char *r = rv(utime2("e", secs[i], 0, secs[i], 0, 0));
		stat("e", &s);
		say("utime_sec_%ld ret=%s atime=%lld mtime=%lld", secs[i], r, (long long)s.st_atim.tv_sec,
		    (long long)s.st_mtim.tv_sec);
	}
	close(fd);
	unlink("e");
}

int main(int argc, char **argv)
{
	conform_start("times", argc, argv);
	mkdir(path("t"), 0755);
	if (chdir(path("t")) < 0) {
		say("error chdir %s", rv(-1));
		return 1;
	}
	batch();
	errors();
	chdir(c_dir);
	rmdir(path("t"));
	conform_end();
	return 0;
}
