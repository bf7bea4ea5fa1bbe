/*
 * ls - list directory contents.
 * usage: ls [-l] [-a] [-d] [path...]
 *   -l  long format: mode, links, owner, group, size, name (and "-> target"
 *       for links); owner and group by name from /etc/passwd and
 *       /etc/group, or as numbers when they have none
 *   -a  include names starting with '.'
 *   -d  list directories themselves, not their contents
 */
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int opt_long, opt_all, opt_dir;

/* A user's or group's name, or its number as text. */
static const char *user_name(uid_t uid)
{
	static char num[16];
	struct passwd *pw = getpwuid(uid);
	if (pw)
		return pw->pw_name;
	snprintf(num, sizeof num, "%u", uid);
	return num;
}

static const char *group_name(gid_t gid)
{
	static char num[16];
	struct group *gr = getgrgid(gid);
	if (gr)
		return gr->gr_name;
	snprintf(num, sizeof num, "%u", gid);
	return num;
}

/* Print one entry; path is where to stat it, name is what to show. */
static void show(const char *path, const char *name)
{
	struct stat st;
	char mode[11], target[256];
	ssize_t n;

	if (!opt_long) {
		printf("%s\n", name);
		return;
	}
	if (lstat(path, &st) < 0) {
		fprintf(stderr, "ls: %s: %s\n", path, strerror(errno));
		return;
	}
	strmode(st.st_mode, mode);
	printf("%s %3u %-8s ", mode, st.st_nlink, user_name(st.st_uid));
	printf("%-8s %8lld %s", group_name(st.st_gid), st.st_size, name);
	if (S_ISLNK(st.st_mode) && (n = readlink(path, target, sizeof(target) - 1)) >= 0) {
		target[n] = '\0';
		printf(" -> %s", target);
	}
	putchar('\n');
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* List a directory's entries, sorted by name. */
static int list_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL;
	int n = 0, cap = 0;

	if (!d) {
		fprintf(stderr, "ls: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && !opt_all)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			names = realloc(names, cap * sizeof(char *));
			if (!names) {
				fprintf(stderr, "ls: out of memory\n");
				exit(1);
			}
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(char *), by_name);
	for (int i = 0; i < n; i++) {
		char full[512];

		snprintf(full, sizeof(full), "%s/%s", path, names[i]);
		show(full, names[i]);
		free(names[i]);
	}
	free(names);
	return 0;
}

int main(int argc, char **argv)
{
	int opt, status = 0, many;

	while ((opt = getopt(argc, argv, "lad")) != -1) {
		switch (opt) {
		case 'l': opt_long = 1; break;
		case 'a': opt_all = 1; break;
		case 'd': opt_dir = 1; break;
		default:
			fprintf(stderr, "usage: ls [-l] [-a] [-d] [path...]\n");
			return 2;
		}
	}
	if (optind == argc)
		return list_dir(".") < 0;
	many = argc - optind > 1;
	for (int i = optind; i < argc; i++) {
		struct stat st;

		if (lstat(argv[i], &st) < 0) {
			fprintf(stderr, "ls: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		if (S_ISDIR(st.st_mode) && !opt_dir) {
			if (many)
				printf("%s:\n", argv[i]);
			status |= list_dir(argv[i]) < 0;
			if (many && i < argc - 1)
				putchar('\n');
		} else {
			show(argv[i], argv[i]);
		}
	}
	return status;
}
