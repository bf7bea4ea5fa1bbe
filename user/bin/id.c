/*
 * id - print the calling process's user and group ids, as coreutils' id:
 *     uid=1000(student) gid=1000(student) groups=1000(student),50(staff)
 * with euid= and egid= after gid= when they differ from the real ones.
 * Names come from /etc/passwd and /etc/group (pwd.h, grp.h); an id
 * without one prints as the number alone.  The groups are the effective
 * gid, then the supplementary groups (getgroups) other than it.
 * usage: id
 */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <unistd.h>

static void user(const char *key, uid_t uid)
{
	struct passwd *pw = getpwuid(uid);
	printf(pw ? "%s=%u(%s)" : "%s=%u", key, uid, pw ? pw->pw_name : "");
}

static void group(const char *fmt, gid_t gid)
{
	struct group *gr = getgrgid(gid);
	printf(fmt, gid);
	if (gr)
		printf("(%s)", gr->gr_name);
}

int main(int argc, char **argv)
{
	gid_t groups[64];
	int n;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: id\n");
		return 2;
	}
	n = getgroups(64, groups);
	user("uid", getuid());
	group(" gid=%u", getgid());
	if (geteuid() != getuid())
		user(" euid", geteuid());
	if (getegid() != getgid())
		group(" egid=%u", getegid());
	group(" groups=%u", getegid());
	for (int i = 0; i < n; i++)
		if (groups[i] != getegid())
			group(",%u", groups[i]);
	putchar('\n');
	return 0;
}
