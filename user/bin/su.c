/*
 * su - run a shell as another user.
 * usage: su [USER|UID]        (root when no user is named)
 * The user is looked up in /etc/passwd (by name, then by number); its
 * groups are its own and every group of /etc/group that lists it.  su sets
 * them, then the gid, then the uid (in that order: once the uid is not
 * root's, nothing else may change), sets HOME, USER, LOGNAME and SHELL, and
 * runs the user's shell.  The current directory stays.
 *
 * No password is asked: Vellum is a teaching kernel.  /bin/su is
 * set-user-ID root in the image (tools/mkrootfs.sh), so anyone may become
 * anyone; exit the shell to come back.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *who = argc > 1 ? argv[1] : "root";
	struct passwd *pw;
	gid_t groups[32];
	int n = 32;

	if (argc > 2 || who[0] == '-') {
		fprintf(stderr, "usage: su [USER|UID]\n");
		return 2;
	}
	pw = getpwnam(who);
	if (!pw) {
		char *end;
		unsigned long uid = strtoul(who, &end, 10);
		pw = (*who && !*end) ? getpwuid(uid) : NULL;
	}
	if (!pw) {
		fprintf(stderr, "su: user %s does not exist\n", who);
		return 1;
	}
	char name[64], home[256], shell[256];     /* the next lookup overwrites *pw */
	snprintf(name, sizeof name, "%s", pw->pw_name);
	snprintf(home, sizeof home, "%s", pw->pw_dir);
	snprintf(shell, sizeof shell, "%s", pw->pw_shell[0] ? pw->pw_shell : "/bin/sh");
	uid_t uid = pw->pw_uid;
	gid_t gid = pw->pw_gid;
	if (getgrouplist(name, gid, groups, &n) < 0)
		n = 32;                            /* more than fit: the first 32 */
	if (setgroups(n, groups) < 0 || setgid(gid) < 0 || setuid(uid) < 0) {
		fprintf(stderr, "su: %s\n", strerror(errno));
		return 1;
	}
	setenv("HOME", home, 1);
	setenv("USER", name, 1);
	setenv("LOGNAME", name, 1);
	setenv("SHELL", shell, 1);
	char *args[] = { "sh", NULL };
	execv(shell, args);
	fprintf(stderr, "su: %s: %s\n", shell, strerror(errno));
	return 127;
}
