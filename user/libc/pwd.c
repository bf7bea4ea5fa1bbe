/*
 * pwd.c - reading /etc/passwd and /etc/group (pwd.h, grp.h): each lookup
 * reads the file from the start, line by line, and splits the matching
 * line at its colons in place.  Small files, few lookups: no caching.
 */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 7
#define MAX_MEMBERS 32

/* Split line at ':' into at most max fields (the newline dropped);
 * returns how many. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	line[strcspn(line, "\n")] = '\0';
	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == ':') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

/* The next line of f with exactly nf fields, split into fields[]; 0 at
 * the end.  Malformed lines are skipped. */
static int next_entry(FILE *f, char *line, int size, char **fields, int nf)
{
	while (fgets(line, size, f))
		if (split(line, fields, MAX_FIELDS) == nf)
			return 1;
	return 0;
}

static char pw_line[512];
static struct passwd pw;

/* The first /etc/passwd entry with that name (name != NULL) or uid. */
static struct passwd *find_pw(const char *name, uid_t uid)
{
	FILE *f = fopen("/etc/passwd", "r");
	char *v[MAX_FIELDS];
	struct passwd *found = NULL;

	if (!f)
		return NULL;
	while (!found && next_entry(f, pw_line, sizeof pw_line, v, 7)) {
		uid_t u = strtoul(v[2], NULL, 10);
		if (name ? strcmp(v[0], name) == 0 : u == uid) {
			pw = (struct passwd){ v[0], v[1], u, strtoul(v[3], NULL, 10), v[4], v[5], v[6] };
			found = &pw;
		}
	}
	fclose(f);
	return found;
}

struct passwd *getpwnam(const char *name) { return find_pw(name, 0); }
struct passwd *getpwuid(uid_t uid) { return find_pw(NULL, uid); }

static char gr_line[512];
static char *gr_members[MAX_MEMBERS + 1];
static struct group gr;

/* Fill gr from split fields; the member list is split at ','. */
static struct group *fill_gr(char **v)
{
	int n = 0;
	for (char *m = v[3]; *m && n < MAX_MEMBERS;) {
		gr_members[n++] = m;
		m += strcspn(m, ",");
		if (*m)
			*m++ = '\0';
	}
	gr_members[n] = NULL;
	gr = (struct group){ v[0], v[1], strtoul(v[2], NULL, 10), gr_members };
	return &gr;
}

static struct group *find_gr(const char *name, gid_t gid)
{
	FILE *f = fopen("/etc/group", "r");
	char *v[MAX_FIELDS];
	struct group *found = NULL;

	if (!f)
		return NULL;
	while (!found && next_entry(f, gr_line, sizeof gr_line, v, 4))
		if (name ? strcmp(v[0], name) == 0 : strtoul(v[2], NULL, 10) == gid)
			found = fill_gr(v);
	fclose(f);
	return found;
}

struct group *getgrnam(const char *name) { return find_gr(name, 0); }
struct group *getgrgid(gid_t gid) { return find_gr(NULL, gid); }

int getgrouplist(const char *user, gid_t group, gid_t *groups, int *ngroups)
{
	FILE *f = fopen("/etc/group", "r");
	char *v[MAX_FIELDS];
	int n = 0, max = *ngroups;

	if (n < max)
		groups[n] = group;
	n++;
	while (f && next_entry(f, gr_line, sizeof gr_line, v, 4)) {
		struct group *g = fill_gr(v);
		if (g->gr_gid == group)
			continue;
		for (char **m = g->gr_mem; *m; m++)
			if (strcmp(*m, user) == 0) {
				if (n < max)
					groups[n] = g->gr_gid;
				n++;
				break;
			}
	}
	if (f)
		fclose(f);
	*ngroups = n;
	return n > max ? -1 : n;
}
