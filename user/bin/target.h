/*
 * user/bin/target.h - the argument rule cp and mv share:
 *     cmd source target   |   cmd source... directory
 * The last argument is the target; with several sources it must be a
 * directory, and each source then goes to target/basename(source).
 * Header only (static functions): mk/user.mk makes every user/bin/NAME.c a
 * program of its own, so a shared .c file here would become one too.
 */
#ifndef _USER_BIN_TARGET_H
#define _USER_BIN_TARGET_H
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The last component of path ("a/b/c" -> "c"). */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * Check argv for cmd ("cp", "mv") and tell whether the target is a
 * directory (*to_dir).  Returns 0 if the sources can be handled, else the
 * exit status after printing why: 2 for a usage error, 1 if several sources
 * go to a target that is not a directory.
 */
static int check_target(const char *cmd, int argc, char **argv, int *to_dir)
{
	const char *target;
	struct stat st;

	if (argc < 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: %s source target | %s source... directory\n", cmd, cmd);
		return 2;
	}
	target = argv[argc - 1];
	*to_dir = stat(target, &st) == 0 && S_ISDIR(st.st_mode);
	if (argc > 3 && !*to_dir) {
		fprintf(stderr, "%s: %s: not a directory\n", cmd, target);
		return 1;
	}
	return 0;
}

/* Where source goes: target itself, or target/basename(source). */
static void target_path(char *dest, size_t size, const char *target, int to_dir,
			const char *source)
{
	if (to_dir)
		snprintf(dest, size, "%s/%s", target, base_name(source));
	else
		snprintf(dest, size, "%s", target);
}

#endif
