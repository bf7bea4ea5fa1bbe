/* kernel/sys.c: small system calls of the process layer: identity (pids,
 * process groups, sessions), uname, reboot, rlimits, time and sleeping,
 * sysinfo, TLS (set_thread_area), getrandom and the vellum_debug call.
 * Sits on the scheduler (jiffies, schedule_timeout), kernel/x86/gdt.c (TLS),
 * kernel/x86/rtc.c (the wall clock at boot) and the user-copy routines
 * (<asm/uaccess.h>).
 *
 * User and group ids are kernel/cred.c's.
 *
 * Simplifications: the
 * wall clock is read from the CMOS RTC once at boot and advanced by
 * jiffies (no NTP, no settimeofday); rlimits other than RLIMIT_FSIZE,
 * RLIMIT_NOFILE, RLIMIT_NPROC, RLIMIT_CPU, RLIMIT_MEMLOCK and
 * RLIMIT_SIGPENDING are fixed values.
 */
#include <kernel.h>
#include <smp.h>
#include <string.h>
#include <errno.h>
#include <init.h>
#include <sched.h>
#include <fs.h>
#include <signal.h>
#include <linux/reboot.h>              /* LINUX_REBOOT_MAGIC1.., _CMD_.. */
#include <linux/sysinfo.h>
#include <timer.h>
#include <mm.h>
#include <slab.h>
#include <proc.h>
#include <cred.h>
#include <fdtable.h>                   /* NR_OPEN */
#include <do_mounts.h>          /* kernel_power_off: sync, unmount, power off */
#include <syscalls.h>
#include <asm/io.h>                     /* rdtsc */
#include <asm/irqflags.h>
#include <asm/segment.h>
#include <asm/uaccess.h>
#include <asm/unistd.h>

/* ---- identity ---------------------------------------------------------- */

/* getpid is the thread group's id, the leader's pid; gettid the task's
 * own pid (the leader's tid is the tgid), as Linux. */
long sys_getpid(void) { return current->tgid; }
long sys_gettid(void) { return current->pid; }
long sys_getppid(void)
{
    struct task_struct *parent = tg_leader(current)->parent;
    return parent ? parent->tgid : 0;
}
/* umask(2): sets the bits open(O_CREAT) and mkdir clear (applied in
 * fs/sys_open.c and fs/sys_namei.c, as Linux applies current_umask());
 * returns the old mask.  Nothing checks permissions yet, but the modes
 * that ls -l shows are Linux's (0644 files, 0755 directories). */
long sys_umask(int mask)
{
    struct fs_struct *fs = current->fs;
    if (!fs)
        return -EINVAL;                /* kernel threads share init_fs */
    unsigned int old = fs->umask;
    fs->umask = mask & 0777;
    return old;
}

/* Process groups and sessions are the process's: they are read from and
 * set on the thread group's leader (and set on every task of the group,
 * which kill_pgrp and pgrp_in_session look at). */
long sys_getpgid(pid_t pid)
{
    struct task_struct *t = pid ? find_task_by_pid(pid) : current;
    return t ? tg_leader(t)->pgrp : -ESRCH;
}

long sys_getpgrp(void) { return tg_leader(current)->pgrp; }

long sys_getsid(pid_t pid)
{
    struct task_struct *t = pid ? find_task_by_pid(pid) : current;
    return t ? tg_leader(t)->session : -ESRCH;
}

static void set_group_ids(struct task_struct *leader, pid_t pgrp, pid_t session)
{
    struct task_struct *t;
    unsigned long flags = local_irq_save();
    leader->pgrp = pgrp;
    leader->session = session;
    list_for_each_entry(t, &leader->thread_group, thread_group) {
        t->pgrp = pgrp;
        t->session = session;
    }
    local_irq_restore(flags);
}

/* prctl(2): the process name (Linux's PR_SET_NAME / PR_GET_NAME, the
 * 16-byte comm that oops reports print; busybox asks for it at start-up)
 * and the dumpable flag (PR_GET_DUMPABLE / PR_SET_DUMPABLE, 0 or 1: kept
 * in the mm, cleared by a set-ID exec and by a change of ids (kernel/cred.c
 * after_set_ids), as Linux; Linux without core dumps
 * keeps it too, for ptrace and /proc's ownership).  Every other option is
 * -EINVAL, as Linux answers an unknown one. */
#define PR_GET_DUMPABLE 3
#define PR_SET_DUMPABLE 4
#define PR_SET_NAME 15
#define PR_GET_NAME 16
long sys_prctl(int option, unsigned long arg2, unsigned long arg3,
               unsigned long arg4, unsigned long arg5)
{
    char name[TASK_COMM_LEN];
    long n;
    switch (option) {
    case PR_SET_NAME:
        n = strncpy_from_user(name, (const char __user *)arg2, sizeof name - 1);
        if (n < 0)
            return -EFAULT;
        name[n] = 0;                   /* longer names are cut, as Linux does */
        strlcpy(current->comm, name, sizeof current->comm);
        return 0;
    case PR_GET_NAME:
        strlcpy(name, current->comm, sizeof name);
        return copy_to_user((void __user *)arg2, name, sizeof name) ? -EFAULT : 0;
    case PR_GET_DUMPABLE:
        return current->mm ? !current->mm->not_dumpable : 0;
    case PR_SET_DUMPABLE:
        if (arg2 > 1 || !current->mm)
            return -EINVAL;
        current->mm->not_dumpable = !arg2;
        return 0;
    default:
        return -EINVAL;
    }
}

/* Is there a process in group pgrp inside session sid? */
static bool pgrp_in_session(pid_t pgrp, pid_t sid)
{
    struct task_struct *t;
    list_for_each_entry(t, &task_list, tasks)
        if (t->is_process && !t->exit_state && t->pgrp == pgrp && t->session == sid)
            return true;
    return false;
}

/* setpgid(pid, pgid), Linux's rules: pid is the caller or one of its
 * children in the same session (-EPERM) that has not exec'd (-EACCES); not
 * a session leader; pgid names a group in that session or is pid itself
 * (a new group). */
long sys_setpgid(pid_t pid, pid_t pgid)
{
    struct task_struct *me = tg_leader(current), *t;
    if (!pid)
        pid = me->pid;
    if (!pgid)
        pgid = pid;
    if (pgid < 0)
        return -EINVAL;
    t = find_task_by_pid(pid);
    if (t)
        t = tg_leader(t);
    if (!t || !t->is_process || (t != me && t->parent != me))
        return -ESRCH;
    if (t->session != me->session)
        return -EPERM;
    if (t != me && t->did_exec)
        return -EACCES;
    if (t->session == t->pid)
        return -EPERM;                 /* a session leader cannot move */
    if (pgid != pid && !pgrp_in_session(pgid, me->session))
        return -EPERM;
    set_group_ids(t, pgid, t->session);
    return 0;
}

long sys_setsid(void)
{
    struct task_struct *me = tg_leader(current), *t;
    /* Not allowed for a process group leader or if the pid names a group. */
    list_for_each_entry(t, &task_list, tasks)
        if (t->is_process && t->pgrp == me->pid)
            return -EPERM;
    set_group_ids(me, me->pid, me->pid);
    return me->session;
}

/* ---- uname --------------------------------------------------------------- */

struct new_utsname {
    char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

/* The release looks like a Linux version on purpose: static glibc refuses to
 * run on a kernel whose release compares lower than its minimum ("FATAL:
 * kernel too old").  The -vellum suffix says what it really is. */
char system_utsname_release[] = "6.1.0-vellum-0.1";

long sys_newuname(void *name)
{
    struct new_utsname u;
    memset(&u, 0, sizeof u);
    strcpy(u.sysname, "Linux");        /* the ABI we implement; programs test it */
    strcpy(u.nodename, "vellum");
    strcpy(u.release, system_utsname_release);
    strcpy(u.version, "#1 Vellum teaching kernel");
    strcpy(u.machine, "i686");
    strcpy(u.domainname, "(none)");
    return copy_to_user(name, &u, sizeof u) ? -EFAULT : 0;
}

/* ---- reboot ----------------------------------------------------------------- */

/* Both magic numbers (Linux accepts four second ones) or -EINVAL; then
 * CAD_ON/CAD_OFF (Ctrl-Alt-Del: no such key handling here) return 0, and
 * RESTART, HALT and POWER_OFF all call kernel_power_off(), which does not
 * return: sync, unmount, power off (a teaching VM has nothing to reset to;
 * Linux's RESTART would reset the machine).  Any other command: -EINVAL.
 * Simplification on purpose: no CAP_SYS_BOOT check (there is one user).
 * tools/tests/bootopts.sh checks all of this. */
long sys_reboot(int magic1, int magic2, unsigned int cmd, void *arg)
{
    if ((unsigned)magic1 != LINUX_REBOOT_MAGIC1 ||
        (magic2 != LINUX_REBOOT_MAGIC2 && magic2 != LINUX_REBOOT_MAGIC2A &&
         magic2 != LINUX_REBOOT_MAGIC2B && magic2 != LINUX_REBOOT_MAGIC2C))
        return -EINVAL;
    switch (cmd) {
    case LINUX_REBOOT_CMD_CAD_ON:
    case LINUX_REBOOT_CMD_CAD_OFF:
        return 0;
    case LINUX_REBOOT_CMD_RESTART:     /* no reset path here: power off instead */
    case LINUX_REBOOT_CMD_HALT:
    case LINUX_REBOOT_CMD_POWER_OFF:
        kernel_power_off();
    default:
        return -EINVAL;
    }
}

/* ---- rlimits --------------------------------------------------------------- */

#define RLIMIT_CPU     0
#define RLIMIT_FSIZE   1
#define RLIMIT_STACK   3
#define RLIMIT_NPROC   6
#define RLIMIT_NOFILE  7
#define RLIMIT_MEMLOCK 8
#define RLIMIT_SIGPENDING 11
#define RLIMIT_NLIMITS 16
#define RLIM_INFINITY  (~0UL)

/* The {soft, hard} pair of a limit Vellum keeps (include/sched.h says where
 * each is enforced), or NULL for one it does not: those read as fixed values
 * (rlimit_value) and lowering them is accepted and ignored (simplification). */
static unsigned long long *rlimit_pair(struct task_struct *t, unsigned int resource)
{
    switch (resource) {
    case RLIMIT_FSIZE:   return t->rlim_fsize;
    case RLIMIT_NPROC:   return t->rlim_nproc;
    case RLIMIT_CPU:     return tg_leader(t)->rlim_cpu;   /* per process, as Linux's signal_struct */
    case RLIMIT_MEMLOCK: return t->rlim_memlock;
    case RLIMIT_SIGPENDING: return tg_leader(t)->rlim_sigpending;
    case RLIMIT_NOFILE:  return t->rlim_nofile;
    default:             return NULL;
    }
}

static unsigned long long rlimit_value(struct task_struct *t, unsigned int resource, int hard)
{
    unsigned long long *pair = rlimit_pair(t, resource);
    if (pair)
        return pair[hard];
    return resource == RLIMIT_STACK ? 8ULL << 20 : RLIM64_INFINITY;
}

/* ugetrlimit (191) and the old getrlimit (76): 32-bit values.  ugetrlimit
 * gives RLIM_INFINITY for anything past 32 bits; the old call dates from
 * when RLIM_INFINITY was 0x7fffffff, and clamps every value to that
 * (Linux's sys_old_getrlimit). */
static long do_getrlimit32(unsigned int resource, void *rlim, unsigned long ceiling)
{
    if (resource >= RLIMIT_NLIMITS)
        return -EINVAL;
    unsigned long r[2];
    for (int h = 0; h < 2; h++) {
        unsigned long long v = rlimit_value(current, resource, h);
        r[h] = v > ceiling ? (ceiling == 0x7fffffffUL ? ceiling : RLIM_INFINITY)
                           : (unsigned long)v;
    }
    return copy_to_user(rlim, r, sizeof r) ? -EFAULT : 0;
}

long sys_getrlimit(unsigned int resource, void *rlim)
{
    return do_getrlimit32(resource, rlim, 0xFFFFFFFFUL);
}

long sys_old_getrlimit(unsigned int resource, void *rlim)
{
    return do_getrlimit32(resource, rlim, 0x7fffffffUL);
}

/* Reading works.  RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_NPROC, RLIMIT_CPU,
 * RLIMIT_MEMLOCK and RLIMIT_SIGPENDING are kept and enforced (include/sched.h); setting any other
 * limit is checked as below, then accepted and ignored (fixed limits:
 * simplification).  As Linux's do_prlimit: soft above hard is -EINVAL; a hard
 * RLIMIT_NOFILE above the table's size, NR_OPEN (Linux's fs.nr_open), is
 * -EPERM even for root; raising any hard limit needs CAP_SYS_RESOURCE (root
 * here), -EPERM otherwise. */
long sys_prlimit64(pid_t pid, unsigned int resource, const void *new_rlim, void *old_rlim)
{
    if (resource >= RLIMIT_NLIMITS)
        return -EINVAL;
    struct task_struct *t = pid ? find_task_by_pid(pid) : current;
    if (!t)
        return -ESRCH;
    unsigned long long v[2] = { rlimit_value(t, resource, 0), rlimit_value(t, resource, 1) };
    if (new_rlim) {
        unsigned long long n[2];
        if (copy_from_user(n, new_rlim, sizeof n))
            return -EFAULT;
        if (n[0] > n[1])
            return -EINVAL;
        if (resource == RLIMIT_NOFILE && n[1] > NR_OPEN)
            return -EPERM;
        if (n[1] > v[1] && !capable(CAP_SYS_RESOURCE))
            return -EPERM;
        unsigned long long *pair = rlimit_pair(t, resource);
        if (pair) {
            pair[0] = n[0];
            pair[1] = n[1];
        }
    }
    if (old_rlim && copy_to_user(old_rlim, v, sizeof v))
        return -EFAULT;
    return 0;
}

/* ---- threads' bookkeeping (futexes: kernel/futex.c) ----------------------- */

long sys_set_tid_address(int *tidptr)
{
    current->clear_child_tid = (unsigned long)tidptr;
    return current->pid;
}

/* The robust-futex list glibc registers for each thread: walked when the
 * thread exits or execs (exit_robust_list, kernel/futex.c). */
long sys_set_robust_list(void *head, size_t len)
{
    if (len != 12)                     /* sizeof(struct robust_list_head) on i386 */
        return -EINVAL;
    current->robust_list = (unsigned long)head;
    return 0;
}

long sys_get_robust_list(int pid, void *head_ptr, size_t *len_ptr)
{
    struct task_struct *t = pid ? find_task_by_pid(pid) : current;
    if (!t || !t->is_process)
        return -ESRCH;
    if (put_user((size_t)12, len_ptr))
        return -EFAULT;
    return put_user(t->robust_list, (unsigned long *)head_ptr) ? -EFAULT : 0;
}

/* ---- TLS: set_thread_area ------------------------------------------------- */

/* Fill t's TLS entry from the user_desc at u_info (Linux's
 * do_set_thread_area): set_thread_area for current, clone's CLONE_SETTLS
 * for the new thread (t not running yet).  entry_number -1 picks the first
 * free entry and writes it back, only if can_allocate (set_thread_area;
 * clone's descriptor must name its entry, -EINVAL otherwise, as Linux). */
int do_set_thread_area(struct task_struct *t, void *u_info, int can_allocate)
{
    struct user_desc u;
    struct desc_struct d;
    if (copy_from_user(&u, u_info, sizeof u))
        return -EFAULT;
    unsigned int idx = u.entry_number;
    if (idx == (unsigned int)-1 && can_allocate) {
        /* Pick the first free entry, as Linux; glibc asks this way. */
        for (idx = GDT_ENTRY_TLS_MIN; idx <= GDT_ENTRY_TLS_MAX; idx++) {
            struct desc_struct *e = &t->tls_array[idx - GDT_ENTRY_TLS_MIN];
            if (!e->a && !e->b)
                break;
        }
        if (idx > GDT_ENTRY_TLS_MAX)
            return -ESRCH;
        if (put_user(idx, (unsigned int *)u_info))
            return -EFAULT;
    }
    if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
        return -EINVAL;
    int err = tls_fill_desc(&d, &u);
    if (err)
        return err;
    unsigned long flags = local_irq_save();
    t->tls_array[idx - GDT_ENTRY_TLS_MIN] = d;
    if (t == current)
        load_TLS(t->tls_array);
    local_irq_restore(flags);
    return 0;
}

long sys_set_thread_area(void *u_info)
{
    return do_set_thread_area(current, u_info, 1);
}

long sys_get_thread_area(void *u_info)
{
    unsigned int idx;
    if (get_user(idx, (unsigned int *)u_info))
        return -EFAULT;
    if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
        return -EINVAL;
    struct desc_struct d = current->tls_array[idx - GDT_ENTRY_TLS_MIN];
    struct user_desc u;
    memset(&u, 0, sizeof u);
    u.entry_number = idx;
    u.base_addr = (d.a >> 16) | ((d.b & 0xFF) << 16) | (d.b & 0xFF000000);
    u.limit = (d.a & 0xFFFF) | (d.b & 0xF0000);
    u.seg_32bit = (d.b >> 22) & 1;
    u.contents = (d.b >> 10) & 3;
    u.read_exec_only = !((d.b >> 9) & 1);
    u.limit_in_pages = (d.b >> 23) & 1;
    u.seg_not_present = !((d.b >> 15) & 1);
    u.useable = (d.b >> 20) & 1;
    return copy_to_user(u_info, &u, sizeof u) ? -EFAULT : 0;
}

/* ---- time -------------------------------------------------------------------- */

#define CLOCK_REALTIME   0
#define CLOCK_MONOTONIC  1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID  3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME   7
#define NSEC_PER_SEC     1000000000L
#define NSEC_PER_TICK    (NSEC_PER_SEC / HZ)

/* The wall clock: the RTC read once at boot (kernel/x86/rtc.c), advanced
 * by jiffies.  boot_time is the one record of it: clock_gettime, time and
 * gettimeofday (ktime_get below) and the file times (current_time(),
 * through ktime_get_real_seconds) all add the uptime to it. */
unsigned long boot_time;               /* seconds since the epoch at jiffies 0 */

static void timekeeping_init(void)
{
    boot_time = (unsigned long)read_persistent_clock() - jiffies / HZ;
}
core_initcall(timekeeping_init);

struct timespec32 { long tv_sec; long tv_nsec; };
struct timespec64 { long long tv_sec; long long tv_nsec; };

static void ktime_get(int clockid, struct timespec32 *ts)
{
    unsigned long j = jiffies;
    ts->tv_sec = j / HZ;
    ts->tv_nsec = (j % HZ) * NSEC_PER_TICK;
    if (clockid == CLOCK_REALTIME || clockid == CLOCK_REALTIME_COARSE)
        ts->tv_sec += boot_time;
}

static bool clock_valid(int clockid)
{
    return clockid >= CLOCK_REALTIME && clockid <= CLOCK_BOOTTIME;
}

long sys_clock_gettime(int clockid, void *tp)
{
    struct timespec32 ts;
    if (!clock_valid(clockid))
        return -EINVAL;
    ktime_get(clockid, &ts);
    return copy_to_user(tp, &ts, sizeof ts) ? -EFAULT : 0;
}

long sys_clock_gettime64(int clockid, void *tp)
{
    struct timespec32 ts;
    if (!clock_valid(clockid))
        return -EINVAL;
    ktime_get(clockid, &ts);
    struct timespec64 t = { ts.tv_sec, ts.tv_nsec };
    return copy_to_user(tp, &t, sizeof t) ? -EFAULT : 0;
}

long sys_clock_getres(int clockid, void *tp)
{
    struct timespec32 ts = { 0, NSEC_PER_TICK };
    if (!clock_valid(clockid))
        return -EINVAL;
    if (tp && copy_to_user(tp, &ts, sizeof ts))
        return -EFAULT;
    return 0;
}

long sys_clock_getres_time64(int clockid, void *tp)
{
    struct timespec64 ts = { 0, NSEC_PER_TICK };
    if (!clock_valid(clockid))
        return -EINVAL;
    if (tp && copy_to_user(tp, &ts, sizeof ts))
        return -EFAULT;
    return 0;
}

long sys_gettimeofday(void *tv, void *tz)
{
    struct timespec32 ts;
    ktime_get(CLOCK_REALTIME, &ts);
    long v[2] = { ts.tv_sec, ts.tv_nsec / 1000 };
    if (tv && copy_to_user(tv, v, sizeof v))
        return -EFAULT;
    long z[2] = { 0, 0 };
    if (tz && copy_to_user(tz, z, sizeof z))
        return -EFAULT;
    return 0;
}

long sys_time(long *tloc)
{
    struct timespec32 ts;
    ktime_get(CLOCK_REALTIME, &ts);
    if (tloc && put_user(ts.tv_sec, tloc))
        return -EFAULT;
    return ts.tv_sec;
}

/* ---- what a process used: times(2), getrusage(2), wait4's rusage ----
 * Linux's kernel/sys.c getrusage.  A process's own figures are the sum of
 * its live threads' (simplification: Linux also keeps those of the
 * threads that exited, in signal_struct); its children's are what the
 * group leader added up as it reaped each (kernel/exit.c, reap_account),
 * the child's own and the child's children's. */

_Static_assert(sizeof(struct rusage32) == 72, "struct rusage is 72 bytes on i386");

/* One task's counts added to r (its ticks to *ut and *st). */
static void add_task_usage(struct rusage32 *r, unsigned long *ut, unsigned long *st,
                           const struct task_struct *t)
{
    *ut += t->utime, *st += t->stime;
    r->minflt += t->min_flt, r->majflt += t->maj_flt;
    r->nvcsw += t->nvcsw, r->nivcsw += t->nivcsw;
}

void task_rusage(struct task_struct *t, int who, struct rusage32 *r)
{
    struct task_struct *leader = tg_leader(t), *th;
    unsigned long ut = 0, st = 0;
    memset(r, 0, sizeof *r);
    if (who == RUSAGE_THREAD)
        add_task_usage(r, &ut, &st, t);
    if (who == RUSAGE_SELF || who == RUSAGE_BOTH) {
        add_task_usage(r, &ut, &st, leader);
        if (leader->thread_group.next)
            list_for_each_entry(th, &leader->thread_group, thread_group)
                add_task_usage(r, &ut, &st, th);
    }
    if (who != RUSAGE_CHILDREN) {      /* the peak of the mm, or of it at exit */
        unsigned long peak = leader->maxrss;
        if (t->mm && t->mm->hiwater_rss * (PAGE_SIZE / 1024) > peak)
            peak = t->mm->hiwater_rss * (PAGE_SIZE / 1024);
        r->maxrss = (long)peak;
    }
    if (who == RUSAGE_CHILDREN || who == RUSAGE_BOTH) {
        ut += leader->cutime, st += leader->cstime;
        r->minflt += leader->cmin_flt, r->majflt += leader->cmaj_flt;
        r->nvcsw += leader->cnvcsw, r->nivcsw += leader->cnivcsw;
        if ((long)leader->cmaxrss > r->maxrss)
            r->maxrss = (long)leader->cmaxrss;
    }
    r->utime_sec = ut / HZ, r->utime_usec = ut % HZ * (1000000 / HZ);
    r->stime_sec = st / HZ, r->stime_usec = st % HZ * (1000000 / HZ);
}

long sys_getrusage(int who, void *ru)
{
    struct rusage32 r;
    if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN && who != RUSAGE_THREAD)
        return -EINVAL;
    task_rusage(current, who, &r);
    return copy_to_user(ru, &r, sizeof r) ? -EFAULT : 0;
}

/* times(2): the process's user and system time, its waited-for children's,
 * in clock ticks (USER_HZ = HZ = 100); returns the ticks since boot. */
long sys_times(void *buf)
{
    struct rusage32 self, kids;
    task_rusage(current, RUSAGE_SELF, &self);
    task_rusage(current, RUSAGE_CHILDREN, &kids);
#define TICKS(sec, usec) ((sec) * HZ + (usec) / (1000000 / HZ))
    long t[4] = { TICKS(self.utime_sec, self.utime_usec), TICKS(self.stime_sec, self.stime_usec),
                  TICKS(kids.utime_sec, kids.utime_usec), TICKS(kids.stime_sec, kids.stime_usec) };
#undef TICKS
    if (buf && copy_to_user(buf, t, sizeof t))
        return -EFAULT;
    return (long)jiffies;
}

/* sysinfo(2): uptime, the load averages (kernel/sched.c), memory in pages
 * (mem_unit = PAGE_SIZE), the number of tasks; no swap, no high memory,
 * and no shared or buffer memory counted. */
_Static_assert(sizeof(struct sysinfo) == 64, "struct sysinfo is 64 bytes on i386");

long sys_sysinfo(struct sysinfo *buf)
{
    struct sysinfo si;
    struct task_counts c;
    memset(&si, 0, sizeof si);
    count_tasks(&c);
    si.uptime = (long)(jiffies / HZ);
    for (int i = 0; i < 3; i++)
        si.loads[i] = avenrun[i] << (SI_LOAD_SHIFT - FSHIFT);
    si.totalram = totalram_pages;
    si.freeram = nr_free_pages();
    si.procs = (unsigned short)c.total;
    si.mem_unit = PAGE_SIZE;
    return copy_to_user(buf, &si, sizeof si) ? -EFAULT : 0;
}

/* Sleep for ts; a signal ends it early with -EINTR and the time left. */
static long do_nanosleep(const struct timespec32 *ts, void *rem)
{
    if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= NSEC_PER_SEC)
        return -EINVAL;
    long ticks = ts->tv_sec * HZ + DIV_ROUND_UP((unsigned long)ts->tv_nsec, NSEC_PER_TICK);
    if (ts->tv_sec > MAX_SCHEDULE_TIMEOUT / HZ - 1)
        ticks = MAX_SCHEDULE_TIMEOUT - 1;
    if (ticks)
        ticks++;                       /* the current tick is partly over */
    while (ticks > 0) {
        if (signal_pending(current)) {
            if (rem) {
                struct timespec32 r = { ticks / HZ, (ticks % HZ) * NSEC_PER_TICK };
                if (copy_to_user(rem, &r, sizeof r))
                    return -EFAULT;
            }
            return -EINTR;
        }
        set_current_state(TASK_INTERRUPTIBLE);
        ticks = schedule_timeout(ticks);
    }
    set_current_state(TASK_RUNNING);
    return 0;
}

long sys_nanosleep(const void *req, void *rem)
{
    struct timespec32 ts;
    if (copy_from_user(&ts, req, sizeof ts))
        return -EFAULT;
    return do_nanosleep(&ts, rem);
}

#define TIMER_ABSTIME 1
long sys_clock_nanosleep(int clockid, int flags, const void *req, void *rem)
{
    struct timespec32 ts, now;
    if (!clock_valid(clockid))
        return -EINVAL;
    if (copy_from_user(&ts, req, sizeof ts))
        return -EFAULT;
    if (flags & TIMER_ABSTIME) {
        ktime_get(clockid, &now);
        long long ns = (long long)(ts.tv_sec - now.tv_sec) * NSEC_PER_SEC + ts.tv_nsec - now.tv_nsec;
        if (ns <= 0)
            return 0;
        ts.tv_sec = ns / NSEC_PER_SEC;
        ts.tv_nsec = ns % NSEC_PER_SEC;
        rem = NULL;
    }
    return do_nanosleep(&ts, rem);
}

long sys_sched_yield(void)
{
    yield();
    return 0;
}

/* sched_setaffinity(2), sched_getaffinity(2): a task's cpus_allowed
 * (kernel/sched.c), Linux 6.1's checks.  The user's mask is read and
 * written as CPUMASK_SIZE bytes (Linux's cpumask_size(): a kernel built for
 * up to 64 CPUs, as the x86_64 Linux the conformance programs compare with;
 * Vellum's NR_CPUS is smaller, the rest reads as offline CPUs).  pid 0:
 * the caller. */
#define CPUMASK_SIZE 8

static struct task_struct *affinity_task(pid_t pid)
{
    return pid ? find_task_by_pid(pid) : current;
}

long sys_sched_setaffinity(pid_t pid, unsigned int len, unsigned long *user_mask)
{
    unsigned long mask[CPUMASK_SIZE / sizeof(long)] = { 0 };
    if (copy_from_user(mask, user_mask, min(len, (unsigned int)CPUMASK_SIZE)))
        return -EFAULT;
    struct task_struct *t = pid >= 0 ? affinity_task(pid) : NULL;
    if (!t)
        return -ESRCH;
    /* Linux's check_same_owner, or CAP_SYS_NICE */
    const struct cred *me = &current->cred;
    if (me->euid != t->cred.euid && me->euid != t->cred.uid && !capable(CAP_SYS_NICE))
        return -EPERM;
    return set_cpus_allowed(t, mask[0]);
}

long sys_sched_getaffinity(pid_t pid, unsigned int len, unsigned long *user_mask)
{
    if (len * 8 < (unsigned int)num_online_cpus() || len % sizeof(long))
        return -EINVAL;
    struct task_struct *t = pid >= 0 ? affinity_task(pid) : NULL;
    if (!t)
        return -ESRCH;
    unsigned long mask[CPUMASK_SIZE / sizeof(long)] = { t->cpus_allowed & cpu_online_mask };
    unsigned int n = min(len, (unsigned int)CPUMASK_SIZE);
    if (copy_to_user(user_mask, mask, n))
        return -EFAULT;
    return n;
}

/* ---- getrandom ------------------------------------------------------------- */

/* Not cryptographic: an xorshift generator seeded from the TSC.  Enough
 * for AT_RANDOM (stack protector canaries) and for programs that want
 * seeds.  A teaching kernel says so instead of pretending. */
static uint64_t rng_state;

uint32_t get_random_u32(void)
{
    if (!rng_state)
        rng_state = rdtsc() | 1;
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

void get_random_bytes(void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n) {
        uint32_t r = get_random_u32();
        size_t k = n < 4 ? n : 4;
        memcpy(p, &r, k);
        p += k;
        n -= k;
    }
}

#define GRND_NONBLOCK 1
#define GRND_RANDOM   2
#define GRND_INSECURE 4

long sys_getrandom(void *buf, size_t count, unsigned int flags)
{
    uint8_t tmp[64];
    size_t done = 0;
    if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
        return -EINVAL;
    if (count > 0x1FFFFFF)
        count = 0x1FFFFFF;             /* Linux caps one call at 32 MiB - 1 */
    while (done < count) {
        size_t k = count - done < sizeof tmp ? count - done : sizeof tmp;
        get_random_bytes(tmp, k);
        if (copy_to_user((char *)buf + done, tmp, k))
            return done ? (long)done : -EFAULT;
        done += k;
    }
    return done;
}

/* ---- vellum_debug (number 500, not a Linux call) --------------------------- */

long sys_vellum_debug(unsigned long op, unsigned long arg)
{
    switch (op) {
    case VDBG_NR_FREE_PAGES:
        kmalloc_drain_cpu_caches();    /* objects parked per CPU keep slab pages */
        return nr_free_pages();
    case VDBG_NR_TASKS: {
        long n = 0;
        struct task_struct *t;
        unsigned long flags = local_irq_save();
        list_for_each_entry(t, &task_list, tasks)
            n++;
        local_irq_restore(flags);
        return n;
    }
    default:
        return -EINVAL;
    }
}
