/* maps.c - conformance: /proc/self/maps (issue 23).  For mappings this
 * program makes (found by address): the line's permissions, offset,
 * device, inode and name, as fields; an anonymous mapping, one split in
 * three by mprotect, a private and a shared mapping of a file at an
 * offset (device and inode against stat, the name against DIR/NAME, in a
 * subdirectory too), a file unlinked while mapped ("(deleted)" at the
 * end); [heap] after the break moves, [stack] around a local variable,
 * the column the names start in (Linux's i386 and x86_64 kernels differ:
 * only "past the inode" is printed), and pthread_getattr_np, which glibc
 * answers from this file.  Prints observations only (conform.h).
 */
#include "conform.h"
#include <pthread.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>

#define PG 4096

/* The line of /proc/self/maps whose range holds addr, split: range
 * (start-end), perms, offset, dev, inode, name ("" if none).  0 if found. */
struct mline { unsigned long start, end; char perms[8], off[16], dev[16], name[512]; unsigned long ino; int name_col; };

static int find_line(const void *addr, struct mline *m)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	int found = -1;
	while (f && fgets(line, sizeof line, f)) {
		int used = 0;
		memset(m, 0, sizeof *m);
		if (sscanf(line, "%lx-%lx %7s %15s %15s %lu %n", &m->start, &m->end, m->perms, m->off,
			   m->dev, &m->ino, &used) < 6)
			continue;
		if ((unsigned long)addr < m->start || (unsigned long)addr >= m->end)
			continue;
		char *nl = strchr(line + used, '\n');
		if (nl)
			*nl = 0;
		snprintf(m->name, sizeof m->name, "%s", line + used);
		m->name_col = m->name[0] ? used : 0;
		found = 0;
		break;
	}
	if (f)
		fclose(f);
	return found;
}

/* a mapping's line as observations: size in pages, perms, offset, and
 * the rest as asked */
static void show(const char *key, const void *addr, int want_file, const char *want_name)
{
	struct mline m;
	if (find_line(addr, &m)) {
		say("%s no line", key);
		return;
	}
	char name[600] = "";
	if (want_file) {
		struct stat st;
		int ok = want_name && stat(want_name, &st) == 0;
		char dev[16];
		snprintf(dev, sizeof dev, "%02x:%02x", ok ? major(st.st_dev) : 0, ok ? minor(st.st_dev) : 0);
		snprintf(name, sizeof name, " dev_is_st_dev=%d ino_is_st_ino=%d name_is_path=%d",
			 ok && !strcmp(dev, m.dev), ok && m.ino == st.st_ino,
			 !strcmp(m.name, want_name));
	} else {
		snprintf(name, sizeof name, " dev=%s ino=%lu name=%s", m.dev, m.ino,
			 m.name[0] ? m.name : "-");
	}
	say("%s pages=%lu perms=%s off=%s%s name_past_inode=%d", key, (m.end - m.start) / PG,
	    m.perms, m.off, name, !m.name[0] || m.name_col > 0);
}

static void *thread_fn(void *arg) { return arg; }

int main(int argc, char **argv)
{
	conform_start("maps", argc, argv);
	char *a = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	show("anon", a, 0, NULL);
	mprotect(a + PG, PG, PROT_READ);
	show("split_first", a, 0, NULL);
	show("split_middle", a + PG, 0, NULL);
	show("split_last", a + 2 * PG, 0, NULL);
	mprotect(a + PG, PG, PROT_READ | PROT_WRITE);
	show("merged", a, 0, NULL);
	munmap(a, 3 * PG);

	char file[512], sub[512], full[512];
	snprintf(file, sizeof file, "%s/mapped", c_dir);
	mkdir(path("sub"), 0755);
	snprintf(sub, sizeof sub, "%s/sub/deeper", c_dir);
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	char b[PG];
	memset(b, 'm', sizeof b);
	for (int i = 0; i < 3; i++)
		write(fd, b, sizeof b);
	/* the name printed is the absolute one: DIR may be relative */
	if (!realpath(file, full))
		snprintf(full, sizeof full, "%s", file);
	char *p = mmap(NULL, 2 * PG, PROT_READ, MAP_PRIVATE, fd, PG);
	show("file_private", p, 1, full);
	munmap(p, 2 * PG);
	p = mmap(NULL, PG, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_SHARED, fd, 2 * PG);
	show("file_shared", p, 1, full);
	munmap(p, PG);
	close(fd);

	fd = open(sub, O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, b, sizeof b);
	char fullsub[512];
	if (!realpath(sub, fullsub))
		snprintf(fullsub, sizeof fullsub, "%s", sub);
	p = mmap(NULL, PG, PROT_READ, MAP_SHARED, fd, 0);
	show("file_in_subdir", p, 1, fullsub);
	unlink(sub);
	struct mline m;
	find_line(p, &m);
	size_t n = strlen(m.name);
	/* Linux: "DIR/sub/deeper (deleted)"; Vellum, which searches for names,
	 * "(deleted)" alone (fs/namei.c): the mark is compared */
	say("unlinked_marked_deleted %d", n >= 9 && !strcmp(m.name + n - 9, "(deleted)"));
	munmap(p, PG);
	close(fd);
	rmdir(path("sub"));
	unlink(file);

	char *brk0 = sbrk(0);
	sbrk(3 * PG);
	find_line(brk0, &m);
	say("heap name=%s", m.name[0] ? m.name : "-");
	int local = 0;
	find_line(&local, &m);
	say("stack name=%s perms=%s", m.name[0] ? m.name : "-", m.perms);

	pthread_attr_t at;
	void *stk = NULL;
	size_t sz = 0;
	int r = pthread_getattr_np(pthread_self(), &at);
	if (r == 0)
		pthread_attr_getstack(&at, &stk, &sz);
	say("getattr_np %d stack_holds_local=%d", r,
	    r == 0 && (char *)&local >= (char *)stk && (char *)&local < (char *)stk + sz);
	pthread_t t;
	r = pthread_create(&t, NULL, thread_fn, NULL);
	if (r == 0)
		pthread_join(t, NULL);
	say("thread %d", r);
	conform_end();
	return 0;
}
