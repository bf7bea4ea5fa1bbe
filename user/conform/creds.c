/* creds.c - conformance: credentials, modes and owners (issue 23).  The
 * set*id families (setuid, setgid, setreuid, setregid, setresuid,
 * setresgid, setfsuid, setfsgid, setgroups, getgroups) as root and as an
 * ordinary user, their 16-bit forms, what fork inherits and what execve of
 * a set-user-ID or set-group-ID file makes of the ids; chmod, fchmod,
 * fchmodat, chown, lchown, fchown, fchownat and their rules (who may, the
 * S_ISUID/S_ISGID clearing), the owner and group of new files (umask, a
 * set-group-ID directory), st_mode/st_uid/st_gid after each change.
 * Permission checks (EACCES) are perms.c's.  Prints observations only
 * (conform.h); children report through a pipe.
 *
 * The ordinary user is uid 1000, gid 1000 (a child drops to it with
 * setgroups, setresgid, setresuid); other ids (2000, 3000, 70000) need no
 * name.  Run as root.
 */
#include "conform.h"
#include <sys/auxv.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>

static const char *self;               /* argv[0], copied as the set-ID program */

/* "mode=OCTAL uid=N gid=N" of NAME (lstat), or the error */
static const char *st(const char *name)
{
	static char ring[4][64];
	static int n;
	char *b = ring[n++ & 3];
	struct stat s;
	if (lstat(path(name), &s) < 0)
		snprintf(b, 64, "%s", rv(-1));
	else
		snprintf(b, 64, "mode=%o uid=%u gid=%u", (unsigned)s.st_mode & 07777,
			 (unsigned)s.st_uid, (unsigned)s.st_gid);
	return b;
}

/* The ids as text: "r e s fs / r e s fs / groups..." */
static const char *ids(void)
{
	static char b[256];
	uid_t r, e, s;
	gid_t gr, ge, gs;
	gid_t g[40];
	getresuid(&r, &e, &s);
	getresgid(&gr, &ge, &gs);
	int fsu = setfsuid(-1), fsg = setfsgid(-1);
	int n = getgroups(40, g);
	int o = snprintf(b, sizeof b, "%u %u %u %d / %u %u %u %d / groups", r, e, s, fsu,
			 gr, ge, gs, fsg);
	for (int i = 0; i < n; i++)
		o += snprintf(b + o, sizeof b - o, " %u", g[i]);
	return b;
}

/* "RESULT mode=.. uid=.. gid=..": a call's result, then NAME's stat after
 * it (the call is an argument, so it is made before after_ looks). */
#define AFTER(call, name) after_(rv(call), name)
static const char *after_(const char *r, const char *name)
{
	static char ring[4][128];
	static int n;
	char *b = ring[n++ & 3];
	snprintf(b, 128, "%s %s", r, st(name));
	return b;
}

/* "RESULT [ids]": a call's result, then the ids after it */
#define IDS(call) ids_after_(rv(call))
static const char *ids_after_(const char *r)
{
	static char b[320];
	snprintf(b, sizeof b, "%s [%s]", r, ids());
	return b;
}

static void make(const char *name, mode_t mode)
{
	int fd = open(path(name), O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0) {
		say("error create %s %s", name, rv(-1));
		exit(1);
	}
	close(fd);
}


static void run(const char *key, void (*fn)(int))
{
	char text[4096];
	int s = child(fn, text, sizeof text);
	say("%s %s: %s", key, wstatus(s), text);
}

/* ---- 1. ids as root ---------------------------------------------------------- */

static void root_ids(void)
{
	say("root ids %s", ids());
	say("getuid=%ld geteuid=%ld getgid=%ld getegid=%ld", (long)getuid(), (long)geteuid(),
	    (long)getgid(), (long)getegid());
	gid_t g[4] = { 3000, 100, 1000, 100 };
	say("setgroups4 %s", rv(setgroups(4, g)));
	say("getgroups0 %s", rv(getgroups(0, NULL)));
	say("getgroups1 %s", rv(getgroups(1, g)));
	say("getgroups_neg %s", rv(syscall(SYS_getgroups32, -1, g)));
	say("after %s", ids());
	say("setgroups_fault %s", rv(setgroups(2, (gid_t *)16)));
	say("setgroups0 %s", rv(setgroups(0, NULL)));
	say("after0 %s", ids());
	say("setuid_minus1 %s", rv(setuid(-1)));
	say("setgid_minus1 %s", rv(setgid(-1)));
	say("getresuid_fault %s", rv(syscall(SYS_getresuid32, (uid_t *)16, (uid_t *)16, (uid_t *)16)));
}

/* ---- 2. the set*id rules, each in its own child ----------------------------- */

static void c_setuid_root(int w)
{
	report(w, "setuid1000=%s", IDS(setuid(1000)));
	report(w, " setuid0=%s", rv(setuid(0)));
	report(w, " setgid0=%s", rv(setgid(0)));
	report(w, " setgroups=%s", rv(setgroups(0, NULL)));
	report(w, " setuid1000=%s", IDS(setuid(1000)));
}

static void c_seteuid_back(int w)
{
	report(w, "setreuid-1,1000=%s", IDS(setreuid(-1, 1000)));
	report(w, " setreuid-1,0=%s", IDS(setreuid(-1, 0)));
	report(w, " seteuid2000=%s", IDS(seteuid(2000)));
	report(w, " setreuid2000,-1=%s", rv(setreuid(2000, -1)));
	report(w, " setreuid1000,-1=%s", rv(setreuid(1000, -1)));
	report(w, " setuid0=%s", IDS(setuid(0)));
}

static void c_setresuid(int w)
{
	report(w, "setresuid1000,2000,0=%s", IDS(setresuid(1000, 2000, 0)));
	report(w, " setresuid-1,3000,-1=%s", rv(setresuid(-1, 3000, -1)));
	report(w, " setresuid2000,1000,1000=%s", IDS(setresuid(2000, 1000, 1000)));
	report(w, " setuid0=%s", rv(setuid(0)));
	report(w, " setresuid-1,-1,-1=%s", IDS(setresuid(-1, -1, -1)));
}

static void c_setuid_saved(int w)
{
	report(w, "setresuid1000,2000,0=%s", rv(setresuid(1000, 2000, 0)));
	report(w, " setuid0=%s", IDS(setuid(0)));
	report(w, " setuid5=%s", IDS(setuid(5)));
}

static void c_setfsuid(int w)
{
	report(w, "setfsuid1000=%d", setfsuid(1000));
	report(w, " query=%d", setfsuid(-1));
	int old = setfsgid(1000);
	report(w, " setfsgid1000=%d [%s]", old, ids());
	report(w, " setresuid1000=%s", IDS(setresuid(1000, 1000, 1000)));
	old = setfsuid(0);
	report(w, " setfsuid0=%d query=%d", old, setfsuid(-1));
	old = setfsuid(2000);
	report(w, " setfsuid2000=%d query=%d", old, setfsuid(-1));
}

static void c_gids(int w)
{
	report(w, "setregid1000,2000=%s", IDS(setregid(1000, 2000)));
	report(w, " setresgid3000,-1,-1=%s", IDS(setresgid(3000, -1, -1)));
	drop_to_user();
	report(w, " dropped [%s]", ids());
	report(w, " setgid2000=%s", rv(setgid(2000)));
	report(w, " setregid-1,1000=%s", rv(setregid(-1, 1000)));
	report(w, " setresgid-1,3000,-1=%s", rv(setresgid(-1, 3000, -1)));
	int old = setfsgid(3000);
	report(w, " setfsgid3000=%d query=%d", old, setfsgid(-1));
	report(w, " setgroups=%s", rv(setgroups(0, NULL)));
	report(w, " getgroups1=%s", rv(getgroups(1, (gid_t[1]){0})));
}

/* The old 16-bit calls, by number: 0xffff is -1 going in, an id above
 * 65535 is 65534 coming out. */
static void c_uid16(int w)
{
	report(w, "setuid16_ffff=%s", rv(syscall(SYS_setuid, 0xffff)));
	report(w, " setresuid16_ffff=%s", IDS(syscall(SYS_setresuid, 0xffff, 0xffff, 0xffff)));
	report(w, " setresgid32_70000=%s", rv(setresgid(70000, 70000, 70000)));
	report(w, " getgid16=%ld getgid32=%ld", syscall(SYS_getgid), syscall(SYS_getgid32));
	unsigned short r = 1, e = 1, s = 1;
	const char *ret = rv(syscall(SYS_getresgid, &r, &e, &s));
	report(w, " getresgid16=%s %u %u %u", ret, r, e, s);
	unsigned short g16[4] = { 5, 0xffff, 7, 0 };
	report(w, " setgroups16_ffff=%s", IDS(syscall(SYS_setgroups, 3, g16)));
	g16[1] = 3;
	report(w, " setgroups16=%s", IDS(syscall(SYS_setgroups, 3, g16)));
	gid_t g32[2] = { 9, (gid_t)-1 };
	report(w, " setgroups32_minus1=%s", rv(setgroups(2, g32)));
	memset(g16, 0, sizeof g16);
	ret = rv(syscall(SYS_getgroups, 4, g16));
	report(w, " getgroups16=%s %u %u %u", ret, g16[0], g16[1], g16[2]);
	report(w, " setreuid16=%s", IDS(syscall(SYS_setreuid, 0xffff, 1000)));
	report(w, " getuid16=%ld geteuid16=%ld", syscall(SYS_getuid), syscall(SYS_geteuid));
	report(w, " setfsuid16_ffff=%ld", syscall(SYS_setfsuid, 0xffff));
}

/* fork inherits every id */
static void c_fork(int w)
{
	gid_t g[2] = { 7, 8 };
	setgroups(2, g);
	setresgid(11, 12, 13);
	setresuid(1000, 1001, 1002);
	pid_t p = fork();
	if (p == 0) {
		report(w, "child [%s]", ids());
		_exit(0);
	}
	int s;
	waitpid(p, &s, 0);
	report(w, " parent [%s]", ids());
}

static void rule_cases(void)
{
	run("setuid_root", c_setuid_root);
	run("seteuid_back", c_seteuid_back);
	run("setresuid", c_setresuid);
	run("setuid_saved", c_setuid_saved);
	run("setfsuid", c_setfsuid);
	run("gids", c_gids);
	run("uid16", c_uid16);
	run("fork", c_fork);
}

/* ---- 3. execve of set-ID files ---------------------------------------------- */

/* Copy this program to NAME (its set-ID subject). */
static void copy_self(const char *name)
{
	static char buf[65536];
	int in = open(self, O_RDONLY), out = open(path(name), O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t n;
	if (in < 0 || out < 0) {
		say("error copy %s", rv(-1));
		exit(1);
	}
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, n) != n) {
			say("error copy write %s", rv(-1));
			exit(1);
		}
	close(in);
	close(out);
}

static const char *exec_name;
static void c_exec(int w)
{
	dup2(w, 1);
	drop_to_user();
	setresuid(1000, 1000, 1001);
	char *argv[] = { (char *)exec_name, "ids", NULL };
	execv(path(exec_name), argv);
	report(w, "execv %s", rv(-1));
}

static void exec_cases(void)
{
	static const struct { const char *key; mode_t mode; } c[] = {
		{ "plain", 0755 }, { "suid", 04755 }, { "sgid", 02755 }, { "sgid_nogx", 02745 },
		{ "both", 06755 },
	};
	copy_self("prog");
	say("chown_prog %s", rv(chown(path("prog"), 2000, 3000)));
	for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
		chmod(path("prog"), c[i].mode);
		exec_name = "prog";
		char key[32];
		snprintf(key, sizeof key, "exec_%s", c[i].key);
		say("%s %s", key, st("prog"));
		run(key, c_exec);
	}
	unlink(path("prog"));
}

/* ---- 4. chmod and chown as root ------------------------------------------------ */

static void root_modes(void)
{
	make("f", 0777);
	say("create0777_umask022 %s", st("f"));
	say("chmod04755 %s", AFTER(chmod(path("f"), 04755), "f"));
	say("chmod_type_bits %s", AFTER(chmod(path("f"), S_IFDIR | 0640), "f"));
	say("chmod07777 %s", AFTER(chmod(path("f"), 07777), "f"));
	say("chown_same %s", AFTER(chown(path("f"), -1, -1), "f"));
	chmod(path("f"), 06755);
	say("chown1000 %s", AFTER(chown(path("f"), 1000, 1000), "f"));
	chmod(path("f"), 06745);
	say("chown_sgid_nogx %s", AFTER(chown(path("f"), 1000, -1), "f"));
	say("chown70000 %s", AFTER(chown(path("f"), 70000, 70001), "f"));
	int fd = open(path("f"), O_RDONLY);
	say("fchmod %s", AFTER(fchmod(fd, 0600), "f"));
	say("fchown %s", AFTER(fchown(fd, 0, 0), "f"));
	say("fchmod_badfd %s", rv(fchmod(99, 0600)));
	say("fchown_badfd %s", rv(fchown(99, 0, 0)));
	say("fchownat_emptypath %s", AFTER(fchownat(fd, "", 5, 6, AT_EMPTY_PATH), "f"));
	say("fchownat_empty_noflag %s", rv(fchownat(fd, "", 5, 6, 0)));
	say("fchownat_badflag %s", rv(fchownat(AT_FDCWD, path("f"), 5, 6, 0x4)));
	close(fd);
	int dfd = open(c_dir, O_RDONLY | O_DIRECTORY);
	say("fchmodat %s", AFTER(syscall(SYS_fchmodat, dfd, "f", 0640), "f"));
	say("fchmodat_missing %s", rv(syscall(SYS_fchmodat, dfd, "nothere", 0640)));
	say("chmod_missing %s", rv(chmod(path("nothere"), 0640)));
	say("chown_missing %s", rv(chown(path("nothere"), 0, 0)));
	say("chmod_enotdir %s", rv(chmod(path("f/x"), 0640)));
	say("chmod_efault %s", rv(chmod((char *)16, 0640)));
	say("chown16_ffff %s", AFTER(syscall(SYS_chown, path("f"), 0xffff, 9), "f"));
	say("lchown16 %s", AFTER(syscall(SYS_lchown, path("f"), 8, 0xffff), "f"));
	say("fchown16 %s", rv(syscall(SYS_fchown, 99, 8, 8)));
	/* symlinks: chown follows, lchown and AT_SYMLINK_NOFOLLOW do not */
	symlink("f", path("l"));
	say("chown_link f=%s", AFTER(chown(path("l"), 21, 22), "f"));
	say("lchown_link l=%s", AFTER(lchown(path("l"), 23, 24), "l"));
	say("lchown_link f=%s", st("f"));
	say("fchownat_nofollow l=%s", AFTER(fchownat(dfd, "l", 25, 26, AT_SYMLINK_NOFOLLOW), "l"));
	say("fchownat_follow f=%s", AFTER(fchownat(dfd, "l", 27, 28, 0), "f"));
	close(dfd);
	unlink(path("l"));
	/* a directory keeps its set-ID bits across chown */
	mkdir(path("d"), 0755);
	say("mkdir_with_sgid_bits %s", rv(mkdir(path("d2"), 07777)));
	say("mkdir07777 %s", st("d2"));
	rmdir(path("d2"));
	say("chmod_dir06755 %s", AFTER(chmod(path("d"), 06755), "d"));
	say("chown_dir %s", AFTER(chown(path("d"), 1000, 1000), "d"));
	rmdir(path("d"));
	unlink(path("f"));
}

/* ---- 5. chmod and chown as an ordinary user ------------------------------------ */

static void c_user_modes(int w)
{
	drop_to_user();
	report(w, "chmod_own=%s", AFTER(chmod(path("u/mine"), 0600), "u/mine"));
	report(w, " chmod_roots=%s", rv(chmod(path("u/roots"), 0600)));
	report(w, " chown_own_uid=%s", rv(chown(path("u/mine"), 2000, -1)));
	report(w, " chown_own_same=%s", rv(chown(path("u/mine"), 1000, -1)));
	report(w, " chgrp_own_mine=%s", AFTER(chown(path("u/mine"), -1, 1000), "u/mine"));
	report(w, " chgrp_own_other=%s", rv(chown(path("u/mine"), -1, 2000)));
	report(w, " chgrp_roots=%s", rv(chown(path("u/roots"), -1, 1000)));
	report(w, " chmod_sgid_foreign_group=%s", AFTER(chmod(path("u/foreign"), 02755), "u/foreign"));
	report(w, " chmod_suid=%s", AFTER(chmod(path("u/mine"), 06755), "u/mine"));
	report(w, " chgrp_suid=%s", AFTER(chown(path("u/mine"), -1, 1000), "u/mine"));
	report(w, " chown_noop_roots_suid=%s", AFTER(chown(path("u/rootsuid"), -1, -1), "u/rootsuid"));
	report(w, " fchownat_empty_dir=%s", rv(fchownat(AT_FDCWD, "", -1, 1000, AT_EMPTY_PATH)));
	int fd = open(path("u/new"), O_WRONLY | O_CREAT, 06777);
	report(w, " create_06777=%s", AFTER(fd, "u/new"));
	close(fd);
	report(w, " mkdir=%s", AFTER(mkdir(path("u/newd"), 0777), "u/newd"));
	fd = open(path("g/new"), O_WRONLY | O_CREAT, 02777);
	report(w, " create_in_sgid_dir=%s", AFTER(fd, "g/new"));
	close(fd);
	report(w, " mkdir_in_sgid_dir=%s", AFTER(mkdir(path("g/newd"), 0777), "g/newd"));
	report(w, " chmod_link_target_roots=%s", rv(chmod(path("u/lroots"), 0644)));
	int p[2];
	struct stat s;
	pipe(p);
	fstat(p[0], &s);
	report(w, " pipe_owner mode=%o uid=%u gid=%u", (unsigned)s.st_mode & 07777,
	       (unsigned)s.st_uid, (unsigned)s.st_gid);
	report(w, " fchmod_pipe=%s", rv(fchmod(p[0], 0640)));
	fstat(p[1], &s);
	report(w, " pipe_mode_after=%o", (unsigned)s.st_mode & 07777);
	report(w, " fchown_pipe=%s", rv(fchown(p[0], 0, -1)));
}

static void user_modes(void)
{
	mkdir(path("u"), 0777);
	chmod(path("u"), 0777);
	make("u/mine", 0644);
	chown(path("u/mine"), 1000, 1000);
	make("u/roots", 0644);
	make("u/foreign", 0644);
	chown(path("u/foreign"), 1000, 3000);
	make("u/rootsuid", 0644);
	chmod(path("u/rootsuid"), 04755);
	symlink("roots", path("u/lroots"));
	mkdir(path("g"), 0777);
	chown(path("g"), 0, 3000);
	chmod(path("g"), 02777);
	say("sgid_dir %s", st("g"));
	run("user_modes", c_user_modes);
	say("root_sees mine=%s new=%s", st("u/mine"), st("u/new"));
	static const char *const names[] = { "u/mine", "u/roots", "u/foreign", "u/rootsuid",
					     "u/lroots", "u/new", "g/new" };
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
		unlink(path(names[i]));
	rmdir(path("u/newd"));
	rmdir(path("g/newd"));
	rmdir(path("u"));
	rmdir(path("g"));
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "ids")) {   /* the set-ID program's report */
		printf("%s auxv uid=%lu euid=%lu gid=%lu egid=%lu secure=%lu", ids(),
		       getauxval(AT_UID), getauxval(AT_EUID), getauxval(AT_GID),
		       getauxval(AT_EGID), getauxval(AT_SECURE));
		return 0;
	}
	self = argv[0];
	conform_start("creds", argc, argv);
	root_ids();
	rule_cases();
	exec_cases();
	root_modes();
	user_modes();
	conform_end();
	return 0;
}
