/* glibc_signal.c - built on the host with gcc -m32 -static (glibc), booted
 * as init by tools/tests/sigfpu.sh: the FPU state in signal frames and
 * sigaltstack(2) (kernel/signal.c).  A forked child runs the checks and
 * prints "PASS sig.NAME" / "FAIL sig.NAME (why)" lines; init prints
 * "sigfpu: done N" (N = failures) and powers off.
 *
 * Glibc, not our libc: ours is built with -mno-80387, glibc's code uses
 * the x87 freely, and its sigaction gives non-SA_SIGINFO handlers the old
 * sigreturn restorer, so both frame kinds are exercised.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fenv.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31)
#endif
#define KMINSIGSTKSZ 2048              /* i386 MINSIGSTKSZ (glibc's may be sysconf()) */

static int nfail;

static void check(int ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#include <stdarg.h>
static void check(int ok, const char *name, const char *fmt, ...)
{
	if (ok) {
		printf("PASS sig.%s\n", name);
	} else {
		char why[200];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, sizeof why, fmt, ap);
		va_end(ap);
		printf("FAIL sig.%s (%s)\n", name, why);
		nfail++;
	}
	fflush(stdout);
}

/* ---- 1. registers exact across a handler that uses the FPU -------------- */

static volatile int h_ran;
static volatile unsigned h_cw, h_mxcsr, h_ok, h_frame_ok;

/* The handler: what it finds (a clean FPU: cw 0x37f, MXCSR 0x1f80), then
 * floating point of its own with a full x87 stack and other modes. */
static void fpu_work(void)
{
	unsigned short cw;
	unsigned mx;
	__asm__ volatile("fnstcw %0; stmxcsr %1" : "=m"(cw), "=m"(mx));
	h_cw = cw;
	h_mxcsr = mx;
	volatile double x = 2.0;
	double r = sqrt(x) * sqrt(x) + sin(x) * sin(x) + cos(x) * cos(x);
	h_ok = fabs(r - 3.0) < 1e-12;
	/* Fill all 8 x87 registers (overflows if main's 4 were still there),
	 * change rounding and precision, trash every xmm register. */
	unsigned short cw2 = 0x0c7f;       /* round toward zero, 24-bit */
	unsigned mx2 = 0x7f80 | 0x8000;    /* round toward zero, flush to zero */
	static const float junk[4] = { -1.5f, 7.25f, 1e30f, -0.0f };
	__asm__ volatile("fldcw %0\n\t"
			 "fld1; fldpi; fldz; fld1; fldpi; fldz; fld1; fldpi\n\t"
			 "ldmxcsr %1\n\t"
			 "movups %2, %%xmm0; movaps %%xmm0, %%xmm1; movaps %%xmm0, %%xmm2\n\t"
			 "movaps %%xmm0, %%xmm3; movaps %%xmm0, %%xmm4; movaps %%xmm0, %%xmm5\n\t"
			 "movaps %%xmm0, %%xmm6; movaps %%xmm0, %%xmm7"
			 :: "m"(cw2), "m"(mx2), "m"(junk)
			 : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
			   "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)");
}

static void on_usr1(int sig)
{
	(void)sig;
	fpu_work();
	h_ran++;
}

static void on_usr2_info(int sig, siginfo_t *si, void *ucv)
{
	(void)sig; (void)si;
	ucontext_t *uc = ucv;
	unsigned char *fp = (unsigned char *)uc->uc_mcontext.fpregs;
	uint16_t magic = 0xdead;
	uint32_t mxcsr = 0;
	if (fp) {
		memcpy(&magic, fp + 110, 2);
		memcpy(&mxcsr, fp + 112 + 24, 4);
	}
	/* the frame holds main's state: magic 0 (fxsave follows), 16-aligned,
	 * main's MXCSR (round down, set below) */
	h_frame_ok = fp && magic == 0 && ((uintptr_t)(fp + 112) & 15) == 0 &&
		     mxcsr == 0x3f80;
	fpu_work();
	h_ran++;
}

struct fpu_snap {
	unsigned char st[4][16];           /* fstpt writes 10 bytes each */
	unsigned char xmm[8][16];
	unsigned short cw;
	unsigned mxcsr;
};

/* Load known x87/SSE registers, kill(getpid(), sig) from inside the same
 * asm (the handler runs on the way out of that int $0x80), store them. */
static void fpu_around_signal(int sig, struct fpu_snap *out)
{
	static const unsigned char pat[8][16] __attribute__((aligned(16))) = {
		"0123456789abcde", "fedcba987654321", "ABCDEFGHIJKLMNO", "onmlkjihgfedcba",
		"xmm4-xmm4-xmm4-", "xmm5xmm5xmm5xmm", "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		"seven-7-seven-7" };
	unsigned short cw = 0x077f;        /* round down, 64-bit precision */
	unsigned mx = 0x3f80;              /* round down */
	static const long double v3 = 1.0L / 3.0L;
	long pid = getpid();
	long ret = SYS_kill;
	__asm__ volatile("fldcw %[cw]\n\t"
			 "ldmxcsr %[mx]\n\t"
			 "movaps 0(%[pat]), %%xmm0; movaps 16(%[pat]), %%xmm1\n\t"
			 "movaps 32(%[pat]), %%xmm2; movaps 48(%[pat]), %%xmm3\n\t"
			 "movaps 64(%[pat]), %%xmm4; movaps 80(%[pat]), %%xmm5\n\t"
			 "movaps 96(%[pat]), %%xmm6; movaps 112(%[pat]), %%xmm7\n\t"
			 "fldt %[v3]; fldpi; fldl2e; fld1; fdiv %%st(1), %%st\n\t" /* st0 = 1/log2(e) (rounded down) */
			 "push %%ebx\n\t"
			 "mov %[pid], %%ebx\n\t"
			 "int $0x80\n\t"
			 "pop %%ebx\n\t"
			 "fstpt 0(%[st]); fstpt 16(%[st]); fstpt 32(%[st]); fstpt 48(%[st])\n\t"
			 "movups %%xmm0, 0(%[x]); movups %%xmm1, 16(%[x])\n\t"
			 "movups %%xmm2, 32(%[x]); movups %%xmm3, 48(%[x])\n\t"
			 "movups %%xmm4, 64(%[x]); movups %%xmm5, 80(%[x])\n\t"
			 "movups %%xmm6, 96(%[x]); movups %%xmm7, 112(%[x])\n\t"
			 "fnstcw %[ocw]; stmxcsr %[omx]"
			 : "+a"(ret), [ocw] "=m"(out->cw), [omx] "=m"(out->mxcsr)
			 : "c"((long)sig), [pid] "r"(pid),
			   [cw] "m"(cw), [mx] "m"(mx), [pat] "r"(pat), [v3] "m"(v3),
			   [st] "r"(out->st), [x] "r"(out->xmm)
			 : "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7");
	(void)ret;
	/* back to the ABI's modes for the rest of the program */
	unsigned short dcw = 0x037f;
	unsigned dmx = 0x1f80;
	__asm__ volatile("fldcw %0; ldmxcsr %1" :: "m"(dcw), "m"(dmx));
}

static void test_fpu_exact(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_sigaction = on_usr2_info;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR2, &sa, NULL);

	struct fpu_snap ref, got;
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);     /* reference: no handler runs */
	memset(&ref, 0, sizeof ref);
	fpu_around_signal(SIGUSR1, &ref);
	sigprocmask(SIG_SETMASK, &old, NULL);   /* (it runs here, harmlessly) */

	const char *names[2] = { "fpu_exact_sigreturn", "fpu_exact_rt_sigreturn" };
	for (int k = 0; k < 2; k++) {
		memset(&got, 0, sizeof got);
		h_ran = 0;
		h_cw = h_mxcsr = h_ok = 0;
		fpu_around_signal(k ? SIGUSR2 : SIGUSR1, &got);
		int same = !memcmp(ref.st, got.st, sizeof ref.st) &&
			   !memcmp(ref.xmm, got.xmm, sizeof ref.xmm) &&
			   ref.cw == got.cw && ref.mxcsr == got.mxcsr;
		long double r0 = 0, g0 = 0, r3 = 0, g3 = 0;
		memcpy(&r0, ref.st[0], 10); memcpy(&g0, got.st[0], 10);
		memcpy(&r3, ref.st[3], 10); memcpy(&g3, got.st[3], 10);
		check(h_ran == 1 && same, names[k],
		      "handler ran %d, st0 %Lg/%Lg st3 %Lg/%Lg cw %#x/%#x mxcsr %#x/%#x xmm %s",
		      h_ran, r0, g0, r3, g3, ref.cw, got.cw,
		      ref.mxcsr, got.mxcsr, memcmp(ref.xmm, got.xmm, sizeof ref.xmm) ? "differ" : "same");
		check(h_cw == 0x37f && h_mxcsr == 0x1f80 && h_ok,
		      k ? "handler_clean_fpu_rt" : "handler_clean_fpu",
		      "handler saw cw %#x mxcsr %#x, its own math %s", h_cw, h_mxcsr,
		      h_ok ? "ok" : "wrong");
	}
	check(h_frame_ok, "fpstate_in_frame", "uc_mcontext.fpregs magic/alignment/mxcsr wrong");
	long double third;
	memcpy(&third, ref.st[3], 10);
	check(ref.cw == 0x077f && ref.mxcsr == 0x3f80 && third == 1.0L / 3.0L &&
	      !memcmp(ref.xmm[2], "ABCDEFGHIJKLMNO", 16), "fpu_reference_sane",
	      "cw %#x mxcsr %#x st3 %Lg", ref.cw, ref.mxcsr, third);
}

/* ---- 2. a long computation interrupted by signals from another process --- */

static volatile int loop_sigs;
static void on_usr1_loop(int sig)
{
	(void)sig;
	fesetround(FE_UPWARD);             /* glibc saves nothing for us */
	volatile double a = 0.1;
	for (int i = 0; i < 50; i++)
		a = a * 1.0000001 + sqrt(a);
	loop_sigs++;
}

#define LOOP_N 400000
static long double sum_x87(void)
{
	long double s = 0;
	for (int i = 1; i <= LOOP_N; i++)
		s += 1.0L / ((long double)i * i);
	return s;
}

__attribute__((target("sse2,fpmath=sse"))) static double sum_sse(void)
{
	double s = 0;
	for (int i = 1; i <= LOOP_N; i++)
		s += 1.0 / ((double)i * i + 0.5);
	return s;
}

static void test_fpu_loop(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1_loop;
	sigaction(SIGUSR1, &sa, NULL);
	long double ref87 = sum_x87();
	double refsse = sum_sse();
	pid_t parent = getpid();
	pid_t c = fork();
	if (c == 0) {
		for (int i = 0; i < 3000; i++) {
			if (kill(parent, SIGUSR1))
				_exit(0);
			sched_yield();
		}
		_exit(0);
	}
	int bad = 0, rounds = 0;
	while (rounds < 200 && (loop_sigs < 20 || rounds < 3)) {
		long double a = sum_x87();
		double b = sum_sse();
		if (memcmp(&a, &ref87, 10) || memcmp(&b, &refsse, 8))
			bad++;
		rounds++;
	}
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	check(!bad && loop_sigs >= 5, "fpu_loop_exact",
	      "%d of %d rounds differ, %d signals handled", bad, rounds, loop_sigs);
	fesetround(FE_TONEAREST);
}

/* ---- 3. a corrupted frame: SIGSEGV, not a kernel fault ------------------- */

static void on_usr1_corrupt_mxcsr(int sig, siginfo_t *si, void *ucv)
{
	(void)sig; (void)si;
	unsigned char *fp = (unsigned char *)((ucontext_t *)ucv)->uc_mcontext.fpregs;
	uint32_t bad = 0xffff0000;         /* reserved MXCSR bits */
	memcpy(fp + 112 + 24, &bad, 4);
}

static void on_usr1_corrupt_ptr(int sig, siginfo_t *si, void *ucv)
{
	(void)sig; (void)si;
	((ucontext_t *)ucv)->uc_mcontext.fpregs = (void *)0x10;
}

static void test_corrupt(void (*h)(int, siginfo_t *, void *), const char *name)
{
	pid_t c = fork();
	if (c == 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = h;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGUSR1, &sa, NULL);
		raise(SIGUSR1);
		_exit(7);                  /* must not get here */
	}
	int st = 0;
	waitpid(c, &st, 0);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, name, "status %#x", st);
}

/* ---- 4. sigaltstack ------------------------------------------------------- */

static volatile int depth;
static char *alt_base;
static size_t alt_size;

static void on_segv_alt(int sig)
{
	(void)sig;
	char here;
	stack_t o;
	int on = &here > alt_base && &here <= alt_base + alt_size;
	int q = sigaltstack(NULL, &o);
	/* changing it while on it: EPERM */
	stack_t n = { .ss_sp = alt_base, .ss_size = alt_size, .ss_flags = 0 };
	int e = sigaltstack(&n, NULL) == -1 ? errno : 0;
	_exit(on && q == 0 && o.ss_flags == SS_ONSTACK && e == EPERM ? 42 : 10 + on + 2 * (e == EPERM));
}

static int recurse(int n)
{
	volatile char pad[256];
	pad[0] = (char)n;
	depth++;
	return recurse(n + 1) + pad[0];
}

static void overflow_child(size_t size, int onstack)
{
	struct rlimit rl = { 1 << 20, 1 << 20 };     /* 1 MiB: a quicker overflow */
	setrlimit(RLIMIT_STACK, &rl);
	alt_size = size;
	alt_base = malloc(size);
	stack_t ss = { .ss_sp = alt_base, .ss_size = size, .ss_flags = 0 };
	if (sigaltstack(&ss, NULL))
		_exit(3);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_segv_alt;
	sa.sa_flags = onstack ? SA_ONSTACK : 0;
	sigaction(SIGSEGV, &sa, NULL);
	recurse(0);
	_exit(4);
}

static int run_child(void (*fn)(size_t, int), size_t a, int b)
{
	pid_t c = fork();
	if (c == 0)
		fn(a, b);
	int st = -1;
	waitpid(c, &st, 0);
	return st;
}

static volatile int alt_h_on, alt_h_flags;
static void on_usr1_alt(int sig)
{
	(void)sig;
	char here;
	stack_t o;
	sigaltstack(NULL, &o);
	alt_h_on = &here > alt_base && &here <= alt_base + alt_size;
	alt_h_flags = o.ss_flags;
}

static void on_usr1_alt_info(int sig, siginfo_t *si, void *uc)
{
	(void)si; (void)uc;
	on_usr1_alt(sig);
}

static void test_sigaltstack(void)
{
	stack_t o, n;
	int st;

	/* none at first */
	memset(&o, 0x55, sizeof o);
	check(sigaltstack(NULL, &o) == 0 && o.ss_flags == SS_DISABLE && o.ss_size == 0,
	      "altstack_initially_disabled", "flags %#x size %zu", o.ss_flags, o.ss_size);
	/* errors */
	char *buf = malloc(65536);
	n = (stack_t){ .ss_sp = buf, .ss_size = 1000, .ss_flags = 0 };
	errno = 0;
	check(sigaltstack(&n, NULL) == -1 && errno == ENOMEM, "altstack_enomem",
	      "size 1000: errno %d", errno);
	n.ss_size = KMINSIGSTKSZ - 1;
	errno = 0;
	check(sigaltstack(&n, NULL) == -1 && errno == ENOMEM, "altstack_enomem_min_minus_1",
	      "errno %d", errno);
	errno = 0;
	check(syscall(SYS_sigaltstack, (void *)16, NULL) == -1 && errno == EFAULT,
	      "altstack_efault_ss", "errno %d", errno);
	errno = 0;
	check(syscall(SYS_sigaltstack, NULL, (void *)16) == -1 && errno == EFAULT,
	      "altstack_efault_oss", "errno %d", errno);
	n = (stack_t){ .ss_sp = buf, .ss_size = 65536, .ss_flags = 5 };
	errno = 0;
	check(sigaltstack(&n, NULL) == -1 && errno == EINVAL, "altstack_einval_flags",
	      "errno %d", errno);
	check(sigaltstack(NULL, &o) == 0 && o.ss_flags == SS_DISABLE, "altstack_errors_change_nothing",
	      "flags %#x", o.ss_flags);

	/* set, read back, a handler runs on it, and it stays */
	n = (stack_t){ .ss_sp = buf, .ss_size = 65536, .ss_flags = 0 };
	check(sigaltstack(&n, NULL) == 0 && sigaltstack(NULL, &o) == 0 && o.ss_sp == buf &&
	      o.ss_size == 65536 && o.ss_flags == 0, "altstack_set_get",
	      "sp %p size %zu flags %#x", o.ss_sp, o.ss_size, o.ss_flags);
	alt_base = buf;
	alt_size = 65536;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1_alt;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &sa, NULL);
	alt_h_on = 0;
	raise(SIGUSR1);
	check(alt_h_on && alt_h_flags == SS_ONSTACK, "altstack_handler_runs_on_it",
	      "on %d flags %#x", alt_h_on, alt_h_flags);
	sa.sa_flags = 0;                   /* without SA_ONSTACK: the normal stack */
	sigaction(SIGUSR1, &sa, NULL);
	alt_h_on = 1;
	raise(SIGUSR1);
	check(!alt_h_on && alt_h_flags == 0, "altstack_not_without_sa_onstack",
	      "on %d flags %#x", alt_h_on, alt_h_flags);
	/* SS_AUTODISARM: gone while the handler runs, back after rt_sigreturn */
	n.ss_flags = SS_AUTODISARM;
	sigaltstack(&n, NULL);
	sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
	sa.sa_sigaction = on_usr1_alt_info;
	sigaction(SIGUSR1, &sa, NULL);
	alt_h_on = 0;
	raise(SIGUSR1);
	check(alt_h_on && alt_h_flags == SS_DISABLE && sigaltstack(NULL, &o) == 0 &&
	      o.ss_sp == buf && o.ss_flags == (int)SS_AUTODISARM, "altstack_autodisarm",
	      "on %d flags in handler %#x after %#x", alt_h_on, alt_h_flags, o.ss_flags);
	/* KMINSIGSTKSZ exactly: accepted, and a frame (FPU area included) fits */
	n = (stack_t){ .ss_sp = buf, .ss_size = KMINSIGSTKSZ, .ss_flags = 0 };
	alt_size = KMINSIGSTKSZ;
	alt_h_on = 0;
	check(sigaltstack(&n, NULL) == 0 && raise(SIGUSR1) == 0 && alt_h_on,
	      "altstack_minsigstksz_fits", "on %d", alt_h_on);
	/* disable */
	n.ss_flags = SS_DISABLE;
	check(sigaltstack(&n, NULL) == 0 && sigaltstack(NULL, &o) == 0 &&
	      o.ss_flags == SS_DISABLE && o.ss_size == 0, "altstack_disable",
	      "flags %#x", o.ss_flags);
	signal(SIGUSR1, SIG_DFL);

	/* stack overflow caught on the alternate stack; without SA_ONSTACK the
	 * frame cannot be built and SIGSEGV kills */
	st = run_child(overflow_child, 65536, 1);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 42, "overflow_caught_on_altstack",
	      "status %#x", st);
	st = run_child(overflow_child, 65536, 0);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "overflow_without_onstack_kills",
	      "status %#x", st);
}

static int run_tests(void)
{
	test_fpu_exact();
	test_fpu_loop();
	test_corrupt(on_usr1_corrupt_mxcsr, "corrupt_mxcsr_segv");
	test_corrupt(on_usr1_corrupt_ptr, "corrupt_fpstate_ptr_segv");
	test_sigaltstack();
	return nfail;
}

int main(void)
{
	if (getpid() != 1)
		return run_tests();
	pid_t c = fork();
	if (c == 0)
		_exit(run_tests());
	int st = -1;
	while (waitpid(c, &st, 0) < 0 && errno == EINTR)
		;
	printf("sigfpu: done %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 100 + st);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
