/*
 * chown - change files' owner and group.
 * usage: chown OWNER[:GROUP] file...   or   chown :GROUP file...
 * OWNER and GROUP are names (/etc/passwd, /etc/group) or numbers.  Only
 * root may give a file away; its owner may change the group to one of its
 * own (the kernel's rules: fs/attr.c).  Follows symbolic links.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A user or group: its name in the database, else a decimal number.
 * Returns 0, or -1 if it is neither. */
static int parse_id(const char *s, int is_user, unsigned int *id)
{
	char *end;

	if (is_user && getpwnam(s)) {
		*id = getpwnam(s)->pw_uid;
		return 0;
	}
	if (!is_user && getgrnam(s)) {
		*id = getgrnam(s)->gr_gid;
		return 0;
	}
	*id = strtoul(s, &end, 10);
	return (*s && !*end) ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned int uid = -1, gid = -1;
	int status = 0;

	if (argc < 3 || !argv[1][0]) {
		fprintf(stderr, "usage: chown OWNER[:GROUP] file...\n");
		return 2;
	}
	char *owner = argv[1], *colon = strchr(owner, ':');
	if (colon)
		*colon = '\0';
	if (*owner && parse_id(owner, 1, &uid) < 0) {
		fprintf(stderr, "chown: invalid user: '%s'\n", owner);
		return 1;
	}
	if (colon && colon[1] && parse_id(colon + 1, 0, &gid) < 0) {
		fprintf(stderr, "chown: invalid group: '%s'\n", colon + 1);
		return 1;
	}
	for (int i = 2; i < argc; i++)
		if (chown(argv[i], uid, gid) < 0) {
			fprintf(stderr, "chown: %s: %s\n", argv[i], strerror(errno));
			status = 1;
		}
	return status;
}
