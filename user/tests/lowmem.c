/*
 * lowmem.c - an init for the low-memory tests (tools/tests/lowmem.sh boots
 * init=/tests/lowmem in a small guest, QEMU -m 32).  The mode is read from
 * /etc/lowmem on the image (the host writes it):
 *
 *   bigfile MB   write /big, MB MiB of vpattern bytes (key "big"), close,
 *                read it back and compare every byte, power off.  The file
 *                is four times the guest's memory: it only gets through
 *                the page cache if reclaim gives pages back.
 *   mmap MB      a file of MB MiB, mapped MAP_SHARED and written page by
 *                page through the mapping (key "map"), msync, munmap; read
 *                back with read(), then through a new read-only mapping;
 *                power off.
 *   hog          a child takes anonymous memory (1 MiB at a time, every
 *                page written) until the OOM killer kills it; its wait
 *                status must be SIGKILL.  Then a file is written and read
 *                back, and free memory must come back.
 *   forkbomb     a process group forks as fast as it can, each process
 *                taking memory too, until the OOM killer has killed some;
 *                then the group is killed (SIGKILL) and reaped (it must go
 *                quickly), a file written and read back, memory back.
 *
 * Every check prints "lowmem: PASS name" or "lowmem: FAIL name (why)";
 * "lowmem: done" ends every mode, before the power off.  /proc/meminfo is
 * printed at the interesting moments (the host log shows reclaim at work).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "vpattern.h"

/* First offset in b[0..n) that is not the pattern, or -1. */
static long check(const unsigned char *b, unsigned n, unsigned seed, unsigned off)
{
	for (unsigned i = 0; i < n; i++)
		if (b[i] != vpattern_byte(seed, off + i))
			return (long)i;
	return -1;
}

static int failures;

static void pass(const char *name)
{
	printf("lowmem: PASS %s\n", name);
}

static void fail(const char *name, const char *fmt, long a, long b)
{
	printf("lowmem: FAIL %s (", name);
	printf(fmt, a, b);
	printf(")\n");
	failures++;
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char pbuf[4096];

/* The contents of a /proc file, or "" (memory may be too short to read it). */
static const char *slurp(const char *path)
{
	int fd = open(path, O_RDONLY);
	pbuf[0] = 0;
	if (fd < 0)
		return pbuf;
	ssize_t n = read(fd, pbuf, sizeof pbuf - 1);
	close(fd);
	pbuf[n > 0 ? n : 0] = 0;
	return pbuf;
}

/* A "Name: value" field of a /proc file (meminfo, vellum/vmscan). */
static long field(const char *path, const char *name)
{
	const char *s = slurp(path), *p = s;
	size_t len = strlen(name);
	while ((p = strstr(p, name))) {
		if ((p == s || p[-1] == '\n') && (p[len] == ':' || p[len] == ' '))
			return atol(p + len + 1);
		p += len;
	}
	return -1;
}

static void show_meminfo(const char *when)
{
	printf("lowmem: meminfo %s: MemFree %ld Cached %ld Dirty %ld Writeback %ld "
	       "Active(file) %ld Inactive(file) %ld AnonPages %ld Slab %ld kB\n", when,
	       field("/proc/meminfo", "MemFree"), field("/proc/meminfo", "Cached"),
	       field("/proc/meminfo", "Dirty"), field("/proc/meminfo", "Writeback"),
	       field("/proc/meminfo", "Active(file)"), field("/proc/meminfo", "Inactive(file)"),
	       field("/proc/meminfo", "AnonPages"), field("/proc/meminfo", "Slab"));
}

static void show_vmscan(void)
{
	printf("lowmem: vmscan: %s", slurp("/proc/vellum/vmscan"));
}

static unsigned char buf[65536];

/* Write len pattern bytes (key) to path; 0 or -1. */
static int put(const char *path, const char *key, unsigned len, int progress)
{
	unsigned seed = fnv1a32(key);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fail("open", "%s errno %ld", (long)path, errno);
		return -1;
	}
	for (unsigned off = 0; off < len; ) {
		unsigned n = len - off < sizeof buf ? len - off : sizeof buf;
		vpattern_fill(buf, seed, off, n);
		ssize_t w = write(fd, buf, n);
		if (w != (ssize_t)n) {
			printf("lowmem: FAIL write %s at %u: %ld (errno %d)\n", path, off, (long)w, errno);
			failures++;
			close(fd);
			return -1;
		}
		off += n;
		if (progress && !(off & ((16u << 20) - 1))) {
			printf("lowmem: wrote %u MiB\n", off >> 20);
			show_meminfo("writing");
		}
	}
	if (close(fd)) {
		fail("close", "%s errno %ld", (long)path, errno);
		return -1;
	}
	return 0;
}

/* Read path back and compare with the pattern; 0 or -1. */
static int verify(const char *path, const char *key, unsigned len)
{
	unsigned seed = fnv1a32(key);
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		fail("reopen", "errno %ld%ld", errno, 0);
		return -1;
	}
	for (unsigned off = 0; off < len; ) {
		unsigned n = len - off < sizeof buf ? len - off : sizeof buf;
		ssize_t r = read(fd, buf, n);
		if (r != (ssize_t)n) {
			printf("lowmem: FAIL read %s at %u: %ld (errno %d)\n", path, off, (long)r, errno);
			failures++;
			close(fd);
			return -1;
		}
		long bad = check(buf, n, seed, off);
		if (bad >= 0) {
			printf("lowmem: FAIL %s: byte %u is %#x, not %#x\n", path, off + (unsigned)bad,
			       buf[bad], vpattern_byte(seed, off + (unsigned)bad));
			failures++;
			close(fd);
			return -1;
		}
		off += n;
	}
	char c;
	if (read(fd, &c, 1) != 0) {
		fail("eof", "%s longer than %ld bytes", (long)path, (long)len);
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static unsigned arg_mb(const char *s, unsigned dflt)
{
	unsigned v = (unsigned)atoi(s);
	return v ? v : dflt;
}

static void mode_bigfile(unsigned mb)
{
	unsigned len = mb << 20;
	printf("lowmem: bigfile %u MiB, MemTotal %ld kB\n", mb, field("/proc/meminfo", "MemTotal"));
	show_meminfo("start");
	long t0 = now_ms();
	if (put("/big", "big", len, 1) == 0)
		pass("bigfile.write");
	printf("lowmem: written in %ld ms\n", now_ms() - t0);
	show_meminfo("written");
	t0 = now_ms();
	if (verify("/big", "big", len) == 0)
		pass("bigfile.read_back");
	printf("lowmem: read back in %ld ms\n", now_ms() - t0);
	show_meminfo("read back");
	show_vmscan();
	if (field("/proc/vellum/vmscan", "reclaimed") > 0)
		pass("bigfile.reclaimed");
	else
		fail("bigfile.reclaimed", "reclaimed %ld%ld", field("/proc/vellum/vmscan", "reclaimed"), 0);
}

static void mode_mmap(unsigned mb)
{
	unsigned len = mb << 20, seed = fnv1a32("map");
	printf("lowmem: mmap %u MiB, MemTotal %ld kB\n", mb, field("/proc/meminfo", "MemTotal"));
	int fd = open("/map", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, len)) {
		fail("mmap.create", "errno %ld%ld", errno, 0);
		return;
	}
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		fail("mmap.map", "errno %ld%ld", errno, 0);
		return;
	}
	long t0 = now_ms();
	for (unsigned off = 0; off < len; off += 4096) {
		vpattern_fill(p + off, seed, off, 4096);
		if (!((off + 4096) & ((16u << 20) - 1))) {
			printf("lowmem: stored %u MiB through the mapping\n", (off + 4096) >> 20);
			show_meminfo("storing");
		}
	}
	printf("lowmem: stored in %ld ms\n", now_ms() - t0);
	if (msync(p, len, MS_SYNC))
		fail("mmap.msync", "errno %ld%ld", errno, 0);
	else
		pass("mmap.msync");
	if (munmap(p, len))
		fail("mmap.munmap", "errno %ld%ld", errno, 0);
	close(fd);
	show_meminfo("unmapped");
	if (verify("/map", "map", len) == 0)
		pass("mmap.read_back");
	fd = open("/map", O_RDONLY);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (fd < 0 || p == MAP_FAILED) {
		fail("mmap.remap", "errno %ld%ld", errno, 0);
		return;
	}
	long bad = -1;
	for (unsigned off = 0; off < len && bad < 0; off += 4096) {
		bad = check(p + off, 4096, seed, off);
		if (bad >= 0)
			bad += off;
	}
	if (bad < 0)
		pass("mmap.read_back_mapped");
	else
		fail("mmap.read_back_mapped", "byte %ld wrong%ld", bad, 0);
	munmap(p, len);
	close(fd);
	show_meminfo("read back");
	show_vmscan();
	if (field("/proc/vellum/vmscan", "unmapped") > 0)
		pass("mmap.unmapped_by_reclaim");
	else
		fail("mmap.unmapped_by_reclaim", "unmapped %ld%ld",
		     field("/proc/vellum/vmscan", "unmapped"), 0);
}

/* After an OOM: the system still writes and reads a file, and free memory
 * comes back to what it was before (within slack kB: slab, caches). */
static void after_oom(const char *mode, long free0)
{
	char name[64];
	snprintf(name, sizeof name, "%s.file_after", mode);
	if (put("/after", "after", 4 << 20, 0) == 0 && verify("/after", "after", 4 << 20) == 0)
		pass(name);
	else
		fail(name, "see above%ld%ld", 0, 0);
	unlink("/after");
	sync();
	long free1 = -1;
	for (int i = 0; i < 50; i++) {     /* kswapd may still be settling: up to 5 s */
		free1 = field("/proc/meminfo", "MemFree");
		if (free1 >= free0 - 1024)
			break;
		usleep(100000);
	}
	snprintf(name, sizeof name, "%s.memory_back", mode);
	if (free1 >= free0 - 1024)
		pass(name);
	else
		fail(name, "MemFree %ld kB, %ld kB before", free1, free0);
	show_meminfo("after");
	show_vmscan();
}

static void hog(void)
{
	unsigned mb = 0;
	for (;;) {
		unsigned char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			printf("lowmem: hog: mmap failed at %u MiB (errno %d)\n", mb, errno);
			for (;;) sleep(100);
		}
		for (unsigned off = 0; off < (1u << 20); off += 4096)
			p[off] = (unsigned char)(off >> 12) | 1;
		if (!(++mb & 7))
			printf("lowmem: hog has %u MiB\n", mb);
	}
}

static void mode_hog(void)
{
	sync();
	long free0 = field("/proc/meminfo", "MemFree");
	long kills0 = field("/proc/vellum/vmscan", "oom_kills");
	show_meminfo("before the hog");
	pid_t pid = fork();
	if (pid == 0)
		hog();
	int st = 0;
	pid_t w = waitpid(pid, &st, 0);
	printf("lowmem: hog %d ended, status %#x\n", pid, st);
	if (w == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		pass("hog.killed_by_sigkill");
	else
		fail("hog.killed_by_sigkill", "wait status %#lx (waitpid %ld)", (long)st, (long)w);
	long kills = field("/proc/vellum/vmscan", "oom_kills");
	if (kills == kills0 + 1)
		pass("hog.one_oom_kill");
	else
		fail("hog.one_oom_kill", "oom_kills %ld, was %ld", kills, kills0);
	long victim = field("/proc/vellum/vmscan", "oom_victim");
	if (victim == pid)
		pass("hog.victim_is_the_hog");
	else
		fail("hog.victim_is_the_hog", "victim %ld, hog %ld", victim, (long)pid);
	after_oom("hog", free0);
}

/* Each member: take 256 KiB more, fork; forever.  fork failing (the
 * process limit, or no memory) only slows it down. */
static void bomb(void)
{
	for (;;) {
		unsigned char *p = mmap(NULL, 256 << 10, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED)
			for (unsigned off = 0; off < (256u << 10); off += 4096)
				p[off] = 1;
		if (fork() < 0)
			usleep(10000);
	}
}

static void mode_forkbomb(void)
{
	sync();
	long free0 = field("/proc/meminfo", "MemFree");
	long kills0 = field("/proc/vellum/vmscan", "oom_kills");
	show_meminfo("before the bomb");
	pid_t leader = fork();
	if (leader == 0) {
		setpgid(0, 0);
		bomb();
	}
	setpgid(leader, leader);
	long t0 = now_ms(), kills = kills0;
	while (now_ms() - t0 < 120000) {
		kills = field("/proc/vellum/vmscan", "oom_kills");
		if (kills >= kills0 + 3)
			break;
		usleep(200000);
		int st;
		while (waitpid(-1, &st, WNOHANG) > 0)
			;                      /* reap what the OOM killer killed */
	}
	printf("lowmem: %ld OOM kills in %ld ms\n", kills - kills0, now_ms() - t0);
	if (kills >= kills0 + 1)
		pass("forkbomb.oom_kills");
	else
		fail("forkbomb.oom_kills", "oom_kills %ld, was %ld", kills, kills0);
	long t1 = now_ms();
	kill(-leader, SIGKILL);
	int n = 0, st;
	pid_t w;
	while ((w = waitpid(-1, &st, 0)) > 0)
		n++;
	long took = now_ms() - t1;
	printf("lowmem: killed the group: %d reaped in %ld ms\n", n, took);
	if (took < 10000)
		pass("forkbomb.killed_promptly");
	else
		fail("forkbomb.killed_promptly", "%ld ms for %ld processes", took, (long)n);
	after_oom("forkbomb", free0);
}

int main(void)
{
	char mode[64] = "";
	int fd = open("/etc/lowmem", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, mode, sizeof mode - 1);
		close(fd);
		mode[n > 0 ? n : 0] = 0;
		char *nl = strchr(mode, '\n');
		if (nl)
			*nl = 0;
	}
	printf("lowmem: mode '%s'\n", mode);
	if (!strncmp(mode, "bigfile", 7))
		mode_bigfile(arg_mb(mode + 7, 128));
	else if (!strncmp(mode, "mmap", 4))
		mode_mmap(arg_mb(mode + 4, 64));
	else if (!strcmp(mode, "hog"))
		mode_hog();
	else if (!strcmp(mode, "forkbomb"))
		mode_forkbomb();
	else
		fail("mode", "unknown mode%ld%ld", 0, 0);
	printf("lowmem: done, %d failures\n", failures);
	fflush(stdout);
	reboot(RB_POWER_OFF);
	for (;;)
		sleep(100);
}
