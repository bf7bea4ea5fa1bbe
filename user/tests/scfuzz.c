/*
 * scfuzz.c - the system-call fuzzer, an init (tools/tests/scfuzz.sh boots
 * root=hda init=/tests/scfuzz).  /etc/scfuzz holds "SEED CHILDREN CALLS
 * FIRST" and /etc/scfuzz.calls the system-call numbers to draw from (the
 * host takes them from kernel/syscall.c's table, less the ones that would
 * end the test itself: see scfuzz.sh).
 *
 * Child C (FIRST <= C < FIRST + CHILDREN), forked four at a time, makes
 * CALLS system calls drawn by a generator seeded with (SEED, C), each
 * argument one of: NULL, a kernel address (0xC0000000 up), an unmapped
 * page, a huge or negative number, a small number, a valid buffer of
 * random bytes (or its last bytes, before an unmapped page), a valid path,
 * a descriptor.  Its world is its own: a new process group, /dev/null on
 * 0, 1 and 2, the working directory /tmp/scf/cC (a ramfs), paths that
 * stay inside it (random names have no '/' or '.'), kill(2) aimed at
 * itself only.  Every 10 ms the parent sends it SIGUSR1, which it catches
 * (without SA_RESTART), so that a call that sleeps (pause, poll, futex, a
 * read of its own empty pipe) returns EINTR and the calls go on; a
 * (rt_)sigreturn, which restores a frame of garbage, comes only as the
 * last call.  A child that is not done after 10 s is sent SIGKILL and
 * must be gone within KILL_MS (1000 ms): else "scfuzz: FAIL slow kill".
 * (A child takes well under a second of guest time, but a guest waiting on
 * its disk waits in host time: on a loaded host a deadline of 3 s could
 * kill a child in one campaign and not in the other, and the campaigns
 * then do different work; one loaded make check saw B 8 kB below A, which
 * runs without kills have not shown since.)
 * The parent prints "scfuzz: child C start" / "... end STATUS" (the host
 * pins a kernel report on the children running then) and removes the
 * child's directory when it is reaped.
 *
 * Free memory: the whole campaign runs once to fill the caches it can
 * fill (inodes, dentries of /tmp, page cache of the program), then the
 * memory that is free or only caching (MemFree + Cached + Buffers of
 * /proc/meminfo: page reclaim can give cache pages back, so MemFree alone
 * moves with what the caches hold) is read (A), the campaign runs again
 * with the same seeds, and it is read again (B): "scfuzz: memfree A B".
 * The host requires B == A: whatever the second run takes and neither
 * gives back nor keeps as a cache is a leak.
 * Then a file is written, fsync'd and read back: "scfuzz: file ok".
 * Last "scfuzz: done", sync, power off.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PARALLEL 4
#define DEADLINE_MS 10000
#define KILL_MS 1000

static unsigned calls[512], ncalls;
static volatile unsigned *made;         /* MAP_SHARED: calls made, per slot */
static unsigned long long total_made;
static unsigned long long rng;

static unsigned rnd(void)
{
	unsigned long long z = (rng += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (unsigned)(z ^ (z >> 31));
}
static unsigned below(unsigned n) { return n ? rnd() % n : 0; }

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* ---- the child ---- */
#define ARENA 65536
static char *arena;             /* ARENA bytes, then an unmapped page: a copy
				 * that runs off it faults (EFAULT), it does not
				 * overwrite the child's own variables */
static char *edge;              /* a page whose next page is unmapped */
static void *unmapped;
static pid_t self;
static char *play;              /* PLAY bytes the memory calls may wreck */
#define PLAY (256 * 1024)

/* The memory calls (munmap, mprotect, mremap, msync, madvise, mmap2 with
 * MAP_FIXED) may not touch the child's own memory (text, data, stack, the
 * arena): a range in [0x08000000, 0xC0000000) outside the playground is
 * moved into it.  NULL with a small length, kernel addresses, and ranges
 * that wrap past 4 GiB stay as drawn. */
static void keep_off(long *addr, long len)
{
	unsigned long a = (unsigned long)*addr, l = (unsigned long)len;
	unsigned long end = a + l < a ? 0xFFFFFFFFUL : a + l;
	if (a >= 0xC0000000UL || end <= 0x08000000UL)
		return;
	if (a >= (unsigned long)play && end <= (unsigned long)play + PLAY)
		return;
	*addr = (long)(play + (below(PLAY / 4096) << 12));
}
static const char *const paths[] = {
	"a", "b", "d", "d/e", "d/f", "l", ".", "fifo", "d/../a", "",
};

static long arg(void)
{
	switch (below(12)) {
	case 0: return 0;
	case 1: {
		static const unsigned long k[] = { 0xC0000000UL, 0xC0100000UL, 0xC0001000UL,
						   0xFFFFF000UL, 0xFFFFFFFFUL, 0xE0000000UL };
		return (long)(k[below(6)] + (below(2) ? below(4096) : 0));
	}
	case 2: return (long)unmapped + (below(2) ? below(4096) : 0);
	case 3: {
		static const unsigned long h[] = { 0x7FFFFFFFUL, 0x80000000UL, 0xFFFFFFFFUL,
						   1UL << 30, 0x7FFFF000UL, 1UL << 20 };
		return (long)h[below(6)];
	}
	case 4: {
		static const long n[] = { -1, -2, -4095, -4096, -100, -0x7fffffff };
		return n[below(6)];
	}
	case 5: return below(64);
	case 6: return (long)(arena + below(ARENA));
	case 7: return (long)(edge + 4096 - 1 - below(64));
	case 8: return (long)paths[below(sizeof paths / sizeof paths[0])];
	case 9: return below(12);                               /* a descriptor */
	case 10: return (long)arena;
	default: return (long)rnd();
	}
}

static void poked(int sig) { (void)sig; }
/* Signals a child survives (caught, ignored by default, or invalid). */
static const long harmless[] = { 0, SIGUSR1, SIGCHLD, SIGURG, SIGWINCH, 65, 1000, -1 };

static void child(unsigned long long seed, unsigned c, unsigned n, int slot)
{
	char dir[32];
	rng = seed * 0x2545F4914F6CDD1Dull ^ ((unsigned long long)c << 32 | c);
	self = getpid();
	setpgid(0, 0);
	int nul = open("/dev/null", O_RDWR);
	dup2(nul, 0);
	dup2(nul, 1);
	dup2(nul, 2);
	if (nul > 2)
		close(nul);
	snprintf(dir, sizeof dir, "/tmp/scf/c%u", c);
	mkdir(dir, 0755);
	if (chdir(dir) < 0)
		_exit(100);
	mkdir("d", 0755);
	/* Some descriptors to aim at: a file, a directory, a pipe. */
	open("a", O_RDWR | O_CREAT, 0644);
	open("d", O_RDONLY);
	int p[2];
	pipe(p);
	edge = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (edge == MAP_FAILED)
		_exit(101);
	munmap(edge + 4096, 4096);
	unmapped = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(unmapped, 4096);
	arena = mmap(NULL, ARENA + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED)
		_exit(103);
	munmap(arena + ARENA, 4096);
	play = mmap(NULL, PLAY, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (play == MAP_FAILED)
		_exit(102);
	for (unsigned i = 0; i < ARENA; i++) {
		char ch = (char)rnd();
		arena[i] = ch == '/' || ch == '.' ? 'x' : ch;   /* names stay in dir */
	}
	for (unsigned i = 0; i < 4096; i++)
		edge[i] = 'y';
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = poked;          /* no SA_RESTART: a blocked call returns EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	for (unsigned i = 0; i < n; i++) {
		unsigned nr = below(10) ? calls[below(ncalls)] : below(400);
		if (i + 1 == n && below(2))
			nr = below(2) ? 119 : 173;
		long a[6];
		for (int k = 0; k < 6; k++)
			a[k] = arg();
		/* Linux's i386 numbers: our <sys/syscall.h> names only what
		 * Vellum implements, and a number drawn at random may be any. */
		if ((nr == 119 || nr == 173) && i + 1 < n)
			continue;               /* (rt_)sigreturn: a garbage frame ends the
						 * child, so only as its last call */
		switch (nr) {
		case 91: case 125: case 144: case 219:  /* munmap mprotect msync madvise */
			keep_off(&a[0], a[1]);
			break;
		case 163:                       /* mremap: old range, new address */
			keep_off(&a[0], a[1]);
			if (a[3] & 2)               /* MREMAP_FIXED */
				keep_off(&a[4], a[2]);
			break;
		case 192:                       /* mmap2 */
			if (a[3] & 0x100010)        /* MAP_FIXED, MAP_FIXED_NOREPLACE */
				keep_off(&a[0], a[1]);
			break;
		case 37: case 238:              /* kill, tkill: at itself only */
			a[0] = below(2) ? self : (below(2) ? 0 : 0x7fffffff);
			if (below(4))           /* mostly a signal it survives */
				a[1] = harmless[below(sizeof harmless / sizeof harmless[0])];
			break;
		case 270: case 178: case 335:   /* tgkill, rt_(tg)sigqueueinfo */
			a[0] = self;
			a[1] = self;
			if (nr == 270 && below(4))
				a[2] = harmless[below(sizeof harmless / sizeof harmless[0])];
			break;
		case 1: case 252:               /* exit, exit_group: the calls go on */
		case 2: case 190: case 120: case 435:   /* fork, vfork, clone, clone3 */
		case 11: case 358:              /* execve, execveat */
		case 88:                        /* reboot */
		case 21: case 22: case 52:      /* mount, umount, umount2: shared */
		case 103:                       /* syslog: could silence the console */
		case 101: case 110:             /* ioperm, iopl: QEMU's exit port */
		case 97:                        /* setpriority: could aim at init */
		case 26: case 87: case 115:     /* ptrace, swapon, swapoff */
			continue;
		}
		made[slot] = i + 1;
		made[PARALLEL + slot] = nr;     /* the last call: in the end line */
		__syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	_exit(0);
}

/* ---- the parent ---- */
/* Remove the directory NAME (in the working directory) and all below it,
 * by chdir, so that no path grows with the depth a child built. */
static char names[64][260];     /* rm_tree's, 16 KiB of bss */
static void rm_tree(const char *arg)
{
	char name[260];                 /* arg may point into names[], which this call reuses */
	strcpy(name, arg);
	if (chdir(name) < 0) {
		if (errno != ENOENT)
			printf("scfuzz: FAIL chdir %s: %d\n", name, errno);
		return;
	}
	int n;
	do {                            /* in batches: the directory changes under us */
		DIR *d = opendir(".");
		if (!d)
			break;
		n = 0;
		struct dirent *e;
		while (n < 64 && (e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				strcpy(names[n++], e->d_name);
		closedir(d);
		for (int i = 0; i < n; i++) {
			struct stat st;
			if (lstat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) {
				rm_tree(names[i]);      /* reuses names[]: read again */
				break;
			}
			if (unlink(names[i]) < 0) {
				printf("scfuzz: FAIL unlink %s: %d\n", names[i], errno);
				n = 0;
			}
		}
	} while (n);
	if (chdir("..") < 0 || (rmdir(name) < 0 && errno != ENOENT))
		printf("scfuzz: FAIL rmdir %s: %d\n", name, errno);
}

static struct { pid_t pid; unsigned c; long start, killed; } run[PARALLEL];
static unsigned total_killed, slow_kills;
static long slowest;

static void reap(int i, int status)
{
	char dir[32];
	printf("scfuzz: child %u end %#x after %u calls, the last %u\n", run[i].c, status,
	       made[i], made[PARALLEL + i]);
	total_made += made[i] <= 100000 ? made[i] : 0;
	if (run[i].killed) {
		long ms = now_ms() - run[i].killed;
		if (ms > slowest)
			slowest = ms;
		if (ms > KILL_MS) {
			printf("scfuzz: FAIL slow kill child %u: %ld ms from SIGKILL to reaped\n",
			       run[i].c, ms);
			slow_kills++;
		}
	}
	snprintf(dir, sizeof dir, "c%u", run[i].c);
	rm_tree(dir);                   /* the parent's working directory: /tmp/scf */
	run[i].pid = 0;
}

static void campaign(unsigned long long seed, unsigned first, unsigned nchildren, unsigned n)
{
	unsigned next = first, active = 0;
	while (next < first + nchildren || active) {
		for (int i = 0; i < PARALLEL && next < first + nchildren; i++) {
			if (run[i].pid)
				continue;
			printf("scfuzz: child %u start\n", next);
			made[i] = 0;
			pid_t pid = fork();
			if (pid == 0)
				child(seed, next, n, i);
			if (pid < 0) {
				printf("scfuzz: FAIL fork: %d\n", errno);
				next = first + nchildren;
				break;
			}
			run[i].pid = pid;
			run[i].c = next++;
			run[i].start = now_ms();
			run[i].killed = 0;
			active++;
		}
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);
		if (pid > 0) {
			for (int i = 0; i < PARALLEL; i++)
				if (run[i].pid == pid) {
					reap(i, status);
					active--;
				}
			continue;
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		long t = now_ms();
		for (int i = 0; i < PARALLEL; i++)
			if (run[i].pid && !run[i].killed && t - run[i].start > 50)
				kill(run[i].pid, SIGUSR1);      /* EINTR for a call that sleeps */
		for (int i = 0; i < PARALLEL; i++)
			if (run[i].pid && !run[i].killed && t - run[i].start > DEADLINE_MS) {
				kill(run[i].pid, SIGKILL);
				run[i].killed = now_ms();
				total_killed++;
			}
	}
}

static long meminfo_field(const char *b, const char *name)
{
	const char *p = strstr(b, name);
	return p ? atol(p + strlen(name)) : -1;
}

/* MemFree + Cached + Buffers, in kB (see the top of the file).  First
 * vellum_debug(VDBG_NR_FREE_PAGES) (500, 1), which gives kmalloc's per-CPU
 * arrays back to their slab pages: objects parked on whichever CPUs the
 * campaign ran on would keep pages, a few more or fewer each time. */
static long memfree_kb(void)
{
	char b[1024];
	syscall(500, 1, 0);
	int fd = open("/proc/meminfo", O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, b, sizeof b - 1);
	close(fd);
	if (n <= 0)
		return -1;
	b[n] = 0;
	long f = meminfo_field(b, "MemFree:"), c = meminfo_field(b, "Cached:");
	long bu = meminfo_field(b, "Buffers:");
	return f < 0 || c < 0 || bu < 0 ? -1 : f + c + bu;
}

static int file_check(void)
{
	static char w[65536], r[65536];
	for (unsigned i = 0; i < sizeof w; i++)
		w[i] = (char)(i * 13 + 5);
	int fd = open("/scfuzz.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	int ok = write(fd, w, sizeof w) == (ssize_t)sizeof w && fsync(fd) == 0 &&
		 pread(fd, r, sizeof r, 0) == (ssize_t)sizeof r && !memcmp(w, r, sizeof w);
	close(fd);
	return ok ? 0 : -1;
}

static unsigned long long read_num(char **p)
{
	while (**p == ' ' || **p == '\n')
		(*p)++;
	unsigned long long v = strtoull(*p, p, 0);
	return v;
}

int main(void)
{
	static char b[4096];
	unsigned long long seed = 1;
	unsigned nchildren = 0, n = 0, first = 0;
	int fd = open("/etc/scfuzz", O_RDONLY);
	ssize_t r = fd >= 0 ? read(fd, b, sizeof b - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (r > 0) {
		b[r] = 0;
		char *p = b;
		seed = read_num(&p);
		nchildren = read_num(&p);
		n = read_num(&p);
		first = read_num(&p);
	}
	fd = open("/etc/scfuzz.calls", O_RDONLY);
	r = fd >= 0 ? read(fd, b, sizeof b - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (r > 0) {
		b[r] = 0;
		for (char *p = b; *p && ncalls < 512; ) {
			unsigned long long v = read_num(&p);
			if (p == b || !v)
				break;
			calls[ncalls++] = v;
		}
	}
	if (!nchildren || !ncalls)
		printf("scfuzz: FAIL no /etc/scfuzz or /etc/scfuzz.calls\n");
	made = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (made == MAP_FAILED) {
		printf("scfuzz: FAIL mmap shared: %d\n", errno);
		made = (unsigned *)b;
	}
	mkdir("/tmp/scf", 0755);
	if (chdir("/tmp/scf") < 0)
		printf("scfuzz: FAIL chdir /tmp/scf: %d\n", errno);
	printf("scfuzz: seed %llu children %u..%u calls %u from %u numbers\n", seed, first,
	       first + nchildren - 1, n, ncalls);
	memset(names, 0, sizeof names);                /* fault in the parent's bss now */
	made[0] = 0;                                   /* and the shared page */
	sync();
	long z = memfree_kb();
	campaign(seed, first, nchildren, n);           /* the caches fill */
	sync();
	long a = memfree_kb();
	campaign(seed, first, nchildren, n);           /* the same again */
	sync();
	long bb = memfree_kb();
	printf("scfuzz: calls made %llu\n", total_made);
	printf("scfuzz: killed %u slow %u slowest %ld ms\n", total_killed, slow_kills, slowest);
	printf("scfuzz: memfree %ld %ld (before both: %ld)\n", a, bb, z);
	printf(file_check() ? "scfuzz: FAIL file\n" : "scfuzz: file ok\n");
	printf("scfuzz: done\n");
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
