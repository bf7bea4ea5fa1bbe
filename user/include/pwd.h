/*
 * pwd.h - the user database, /etc/passwd: one line per user,
 *     name:password:uid:gid:gecos:home:shell
 * (user/libc/pwd.c; the password field is not used: Vellum's su asks for
 * none).  The returned struct is static: the next call overwrites it.
 */
#ifndef _PWD_H
#define _PWD_H
#include <sys/types.h>

struct passwd {
	char  *pw_name;
	char  *pw_passwd;
	uid_t  pw_uid;
	gid_t  pw_gid;
	char  *pw_gecos;
	char  *pw_dir;
	char  *pw_shell;
};

struct passwd *getpwnam(const char *name);   /* NULL: no such user */
struct passwd *getpwuid(uid_t uid);

#endif
