/*
 * grp.h - the group database, /etc/group: one line per group,
 *     name:password:gid:member,member,...
 * (user/libc/pwd.c).  The returned struct is static: the next call
 * overwrites it.
 */
#ifndef _GRP_H
#define _GRP_H
#include <sys/types.h>

struct group {
	char  *gr_name;
	char  *gr_passwd;
	gid_t  gr_gid;
	char **gr_mem;                  /* the members' names, NULL-terminated */
};

struct group *getgrnam(const char *name);    /* NULL: no such group */
struct group *getgrgid(gid_t gid);
/* user's groups: group first, then every group that lists user as a
 * member.  Up to *ngroups go into groups; *ngroups becomes how many
 * there are; -1 if that is more than fitted, else that count. */
int getgrouplist(const char *user, gid_t group, gid_t *groups, int *ngroups);

#endif
