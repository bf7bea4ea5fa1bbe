/* fs/files_test.c: kernel tests of the files layer on a ramfs root (suite
 * "files"): devfs and proc through the VFS, file times against the
 * system clock, the file system calls' checks on bad user pointers,
 * getdents64 and stat64 layouts, utimensat's answers before the path. */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <slab.h>
#include <mm.h>
#include <sched.h>
#include <fs.h>
#include <chrdev.h>
#include <fdtable.h>
#include <do_mounts.h>
#include <fs_syscalls.h>
#include <syscalls.h>
#include <proc.h>
#include <timer.h>
#include <ktest.h>
#include <smp.h>
#include <cmdline.h>
#include <asm/mman.h>
#include <asm/uaccess.h>
#include "internal.h"

#define KADDR ((void *)0xC0000000)     /* a kernel address: access_ok says no */

static void setup_tree(void)
{
    vfs_ensure_root();
    vfs_mkdir("/dev", 0755);
    vfs_mkdir("/proc", 0755);
    mount_recorded("none", "/dev", "devfs", 0, NULL);    /* -EBUSY the 2nd time */
    mount_recorded("none", "/proc", "proc", 0, NULL);
}

static char *find(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (!strncmp(hay, needle, n))
            return (char *)hay;
    return NULL;
}

static ssize_t slurp(const char *path, char *buf, size_t n)
{
    struct file *f = filp_open(path, O_RDONLY, 0);
    if (IS_ERR(f))
        return PTR_ERR(f);
    loff_t pos = 0;
    ssize_t r = kernel_read(f, buf, n - 1, &pos);
    buf[r > 0 ? r : 0] = 0;
    filp_close(f);
    return r;
}

KTEST(files, dev_nodes_work)
{
    setup_tree();
    struct kstat st;
    KT_ASSERT_EQ(vfs_stat("/dev/null", &st), 0);
    KT_EXPECT(S_ISCHR(st.mode));
    KT_EXPECT_EQ(st.rdev, MKDEV(1, 3));
    struct file *z = filp_open("/dev/zero", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(z));
    char buf[32];
    memset(buf, 'x', sizeof buf);
    loff_t pos = 0;
    KT_EXPECT_EQ(kernel_read(z, buf, sizeof buf, &pos), sizeof buf);
    KT_EXPECT(buf[0] == 0 && buf[31] == 0);
    KT_EXPECT_EQ(kernel_write(z, "abc", 3, &pos), 3);
    filp_close(z);
    struct file *n = filp_open("/dev/null", O_RDWR, 0);
    KT_ASSERT(!IS_ERR(n));
    pos = 0;
    KT_EXPECT_EQ(kernel_write(n, "abc", 3, &pos), 3);
    KT_EXPECT_EQ(kernel_read(n, buf, sizeof buf, &pos), 0);
    filp_close(n);
    KT_EXPECT(IS_ERR(filp_open("/dev/nothing", O_RDONLY, 0)));
}

KTEST(files, proc_files)
{
    setup_tree();
    char *buf = kmalloc(1024, GFP_KERNEL);
    KT_ASSERT(buf != NULL);
    KT_ASSERT(slurp("/proc/meminfo", buf, 1024) > 0);
    char *p = find(buf, "MemFree:");
    KT_ASSERT(p != NULL);
    p += 8;
    while (*p == ' ')
        p++;
    unsigned long kb = simple_strtoul(p, NULL, 10);
    unsigned long now = nr_free_pages() * 4;
    KT_EXPECT(kb <= now + 64 && kb + 64 >= now);     /* a few pages of slack for the buffers */
    KT_ASSERT(slurp("/proc/mounts", buf, 1024) > 0);
    KT_EXPECT(find(buf, "none /dev devfs rw") != NULL);
    KT_EXPECT(find(buf, "none /proc proc rw") != NULL);
    KT_ASSERT(slurp("/proc/vellum/writepath", buf, 1024) > 0);
    KT_EXPECT(strncmp(buf, "attempts ", 9) == 0);
    KT_EXPECT_EQ(simple_strtoul(buf + 9, NULL, 10), write_path_stats.attempts);
    KT_ASSERT(slurp("/proc/vellum/pagecache", buf, 1024) > 0);
    KT_EXPECT(find(buf, "lookups ") != NULL);
    KT_ASSERT(slurp("/proc/cmdline", buf, 1024) > 0);      /* the line and a newline */
    KT_EXPECT(strlen(buf) == strlen(saved_command_line) + 1);
    KT_EXPECT(strncmp(buf, saved_command_line, strlen(saved_command_line)) == 0);
    KT_EXPECT(find(buf, "test=") != NULL);                  /* this very boot's */
    KT_EXPECT(IS_ERR(filp_open("/proc/meminfo", O_WRONLY, 0)));
    kfree(buf);
}

/* /proc/stat, /proc/uptime and /proc/loadavg say what the scheduler keeps
 * (kernel/sched.c): between two reads of the cpu line, user + system +
 * idle grew by the ticks that passed (every tick is charged to one of them;
 * not since boot: a test may have replaced the tick hook for a while); the
 * uptime is jiffies in seconds; the load average has Linux's format, its
 * task counts count_tasks' and its last pid the allocator's. */
static unsigned long next_num(char **p)        /* skip blanks, read a decimal */
{
    while (**p == ' ')
        (*p)++;
    return simple_strtoul(*p, p, 10);
}

/* user + nice + system + idle of the cpu line */
static unsigned long cpu_line_sum(char *buf, unsigned long *nice)
{
    char *p = buf + 3;
    unsigned long user = next_num(&p);
    *nice = next_num(&p);
    unsigned long system = next_num(&p);
    return user + *nice + system + next_num(&p);
}

KTEST(files, proc_stat_uptime_loadavg)
{
    setup_tree();
    char *buf = kmalloc(1024, GFP_KERNEL);
    KT_ASSERT(buf != NULL);
    KT_ASSERT(slurp("/proc/stat", buf, 1024) > 0);
    unsigned long nice, j0 = jiffies, sum0 = cpu_line_sum(buf, &nice);
    msleep(50);                                 /* idle ticks */
    unsigned long j1 = jiffies;
    while (jiffies - j1 < 5)                    /* system ticks */
        barrier();
    KT_ASSERT(slurp("/proc/stat", buf, 1024) > 0);
    unsigned long j = jiffies, sum = cpu_line_sum(buf, &nice);
    KT_ASSERT(strncmp(buf, "cpu  ", 5) == 0);
    KT_EXPECT_EQ(nice, 0);
    /* every online CPU's ticks, each within a tick or two */
    unsigned long ncpu = num_online_cpus(), want = (j - j0) * ncpu;
    KT_EXPECT(sum - sum0 + 2 * ncpu >= want && sum - sum0 <= want + 2 * ncpu);
    for (unsigned long cpu = 0; cpu < ncpu; cpu++) {
        char line[8];
        snprintf(line, sizeof line, "\ncpu%lu ", cpu);
        KT_EXPECT(find(buf, line) != NULL);
    }
    char *p = find(buf, "\nbtime ");
    KT_ASSERT(p != NULL);
    unsigned long btime = simple_strtoul(p + 7, NULL, 10);
    KT_EXPECT(btime + j / HZ <= (unsigned long)current_time() + 1);
    KT_EXPECT(btime + j / HZ + 1 >= (unsigned long)current_time());
    KT_EXPECT(find(buf, "\nprocs_running ") != NULL);

    KT_ASSERT(slurp("/proc/uptime", buf, 1024) > 0);
    unsigned long up = simple_strtoul(buf, &p, 10);
    KT_EXPECT(*p == '.');
    KT_EXPECT(up <= jiffies / HZ && up + 1 >= jiffies / HZ);

    KT_ASSERT(slurp("/proc/loadavg", buf, 1024) > 0);
    p = buf;
    for (int i = 0; i < 3; i++) {                           /* N.NN x 3 */
        next_num(&p);
        KT_EXPECT(p[0] == '.' && p[1] >= '0' && p[1] <= '9' && p[2] >= '0' && p[2] <= '9');
        p += 3;
    }
    struct task_counts c;
    count_tasks(&c);
    unsigned long running = next_num(&p);
    KT_EXPECT(*p == '/');
    p++;
    unsigned long total = next_num(&p);
    KT_EXPECT(running >= (current != &init_task));          /* we are, unless pid 0 */
    KT_EXPECT_EQ(total, c.total);
    KT_EXPECT_EQ(next_num(&p), last_pid);
    KT_EXPECT(*p == '\n');
    kfree(buf);
}

/* File times and clock_gettime(CLOCK_REALTIME) read one clock (the RTC
 * read once at boot, kernel/sys.c): time(2), which reads CLOCK_REALTIME as
 * clock_gettime does, lies between two current_time()s a moment apart. */
KTEST(files, current_time_agrees_with_clock_realtime)
{
    time_t before = current_time();
    long now = sys_time(NULL);
    time_t after = current_time();
    KT_EXPECT(before <= now && now <= after);
    KT_EXPECT(after - before <= 1);
    KT_EXPECT(before >= 946684800);            /* 2000-01-01: the RTC was read */
}

/* Run with a descriptor table of our own. */
static struct files_struct *enter_table(void)
{
    struct files_struct *saved = current->files;
    current->files = files_alloc();
    return saved;
}
static void leave_table(struct files_struct *saved)
{
    put_files(current->files);
    current->files = saved;
}

static int install(const char *path, int flags)
{
    struct file *f = filp_open(path, flags, 0644);
    if (IS_ERR(f))
        return PTR_ERR(f);
    int fd = get_unused_fd_flags(0);
    fd_install(fd, f);
    return fd;
}

KTEST(files, bad_pointers_get_efault)
{
    setup_tree();
    struct files_struct *saved = enter_table();
    int fd = install("/dev/zero", O_RDWR);
    int dfd = install("/dev", O_RDONLY | O_DIRECTORY);
    KT_ASSERT(fd >= 0 && dfd >= 0);
    KT_EXPECT_EQ(sys_open(KADDR, O_RDONLY, 0), -EFAULT);
    KT_EXPECT_EQ(sys_open(NULL, O_RDONLY, 0), -EFAULT);
    KT_EXPECT_EQ(sys_read(fd, KADDR, 4), -EFAULT);
    KT_EXPECT_EQ(sys_write(fd, KADDR, 4), -EFAULT);
    KT_EXPECT_EQ(sys_readv(fd, KADDR, 1), -EFAULT);
    KT_EXPECT_EQ(sys_stat64(KADDR, KADDR), -EFAULT);
    KT_EXPECT_EQ(sys_mkdir(KADDR, 0755), -EFAULT);
    KT_EXPECT_EQ(sys_getcwd(KADDR, 100), -EFAULT);
    KT_EXPECT_EQ(sys_pipe(KADDR), -EFAULT);
    KT_EXPECT_EQ(files_open_count(current->files), 2);   /* pipe left no fds behind */
    struct file *d = fget(dfd);
    loff_t before = d->f_pos;
    KT_EXPECT_EQ(sys_getdents64(dfd, KADDR, 4096), -EFAULT);
    KT_EXPECT_EQ(d->f_pos, before);
    KT_EXPECT_EQ(sys_llseek(dfd, 0, 1, KADDR, SEEK_SET), -EFAULT);
    KT_EXPECT_EQ(d->f_pos, 1);          /* moved all the same, as Linux */
    d->f_pos = before;
    fput(d);
    KT_EXPECT_EQ(sys_read(99, KADDR, 4), -EBADF);
    KT_EXPECT_EQ(sys_close(99), -EBADF);
    KT_EXPECT_EQ(sys_dup2(fd, 7), 7);
    KT_EXPECT_EQ(sys_fcntl(7, 1 /* F_GETFD */, 0), 0);
    KT_EXPECT_EQ(sys_dup3(fd, 7, O_CLOEXEC), 7);
    KT_EXPECT_EQ(sys_fcntl(7, 1, 0), FD_CLOEXEC);
    KT_EXPECT_EQ(sys_dup3(fd, fd, 0), -EINVAL);
    KT_EXPECT_EQ(sys_dup(fd), 2);                        /* lowest free */
    leave_table(saved);
}

/* getdents64 through iterate_dir into a kernel buffer (the layout). */
struct dent { uint64_t ino; int64_t off; uint16_t reclen; uint8_t type; char name[]; } __attribute__((packed));

KTEST(files, getdents64_layout_via_iterate)
{
    setup_tree();
    struct files_struct *saved = enter_table();
    int dfd = install("/dev", O_RDONLY | O_DIRECTORY);
    KT_ASSERT(dfd >= 0);
    /* kernel buffer: call the worker the syscall uses, bypassing access_ok */
    struct file *d = fget(dfd);
    char names[128] = "";
    int count = 0;
    for (;;) {
        char buf[64];                  /* small: forces several calls */
        long n = getdents64_kernel(d, buf, sizeof buf);
        KT_ASSERT(n >= 0);
        if (n == 0)
            break;
        for (long off = 0; off < n; ) {
            struct dent *e = (struct dent *)(buf + off);
            KT_EXPECT_EQ(e->reclen % 8, 0);
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s,", e->name);
            if (!strcmp(e->name, "null"))
                KT_EXPECT_EQ(e->type, DT_CHR);
            off += e->reclen;
            count++;
        }
    }
    KT_EXPECT_EQ(count, 6);
    KT_EXPECT(strcmp(names, ".,..,console,tty,null,zero,") == 0);
    char tiny[8];
    d->f_pos = 0;
    KT_EXPECT_EQ(getdents64_kernel(d, tiny, sizeof tiny), -EINVAL);   /* nothing fits */
    fput(d);
    leave_table(saved);
}

/* utimensat: both times UTIME_OMIT is 0 before the flags or the path are
 * looked at (Linux: "we must not even check the path"); a NULL path is
 * futimens only with a descriptor, with AT_FDCWD a bad address. */
#define UT_UADDR 0x50000000UL
KTEST(files, utimensat_omit_omit_and_null_path)
{
    setup_tree();
    struct mm_struct *mm = mm_alloc();
    KT_ASSERT(mm);
    struct mm_struct *prev = use_mm(mm);
    KT_EXPECT_EQ(do_mmap(mm, NULL, UT_UADDR, PAGE_SIZE, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0), (long)UT_UADDR);
    struct { long sec, nsec; } ts[2] = { { 0, UTIME_OMIT }, { 0, UTIME_OMIT } };
    char *upath = (char *)UT_UADDR + sizeof ts;
    KT_EXPECT_EQ(copy_to_user((void *)UT_UADDR, ts, sizeof ts), 0UL);
    KT_EXPECT_EQ(copy_to_user(upath, "/nonexistent", 13), 0UL);
    KT_EXPECT_EQ(sys_utimensat(AT_FDCWD, upath, (void *)UT_UADDR, 0), 0);
    KT_EXPECT_EQ(sys_utimensat(AT_FDCWD, upath, (void *)UT_UADDR, 0x4000), 0);
    ts[1].nsec = UTIME_NOW;                                /* now the path counts */
    KT_EXPECT_EQ(copy_to_user((void *)UT_UADDR, ts, sizeof ts), 0UL);
    KT_EXPECT_EQ(sys_utimensat(AT_FDCWD, upath, (void *)UT_UADDR, 0), -ENOENT);
    KT_EXPECT_EQ(sys_utimensat(AT_FDCWD, NULL, NULL, 0), -EFAULT);
    KT_EXPECT_EQ(sys_utimensat(99, NULL, NULL, 0), -EBADF);
    KT_EXPECT_EQ(do_munmap(mm, UT_UADDR, PAGE_SIZE), 0);
    use_mm(prev);
    mmput(mm);
}

/* The sysctls: a number is read as Linux's proc_dointvec reads one, a
 * write of pid_max inside its range sets it and alloc_pid wraps below
 * it, outside is -EINVAL and changes nothing; core_pattern keeps a text
 * without its newline; tainted only gains bits. */
static long write_file(const char *name, const char *text)
{
    struct file *f = filp_open(name, O_WRONLY, 0);
    if (IS_ERR(f))
        return PTR_ERR(f);
    loff_t pos = 0;
    long n = kernel_write(f, text, strlen(text), &pos);
    filp_close(f);
    return n;
}

KTEST(files, proc_sysctls_written_and_honoured)
{
    static char buf[256];
    long v;
    setup_tree();
    KT_EXPECT_EQ(proc_parse_int(" 42\n", &v), 0);
    KT_EXPECT_EQ(v, 42);
    KT_EXPECT_EQ(proc_parse_int("-7", &v), 0);
    KT_EXPECT_EQ(v, -7);
    KT_EXPECT_EQ(proc_parse_int("4 2", &v), -EINVAL);
    KT_EXPECT_EQ(proc_parse_int("", &v), -EINVAL);
    KT_EXPECT_EQ(proc_parse_int("99999999999", &v), -EINVAL);
    KT_EXPECT_EQ(proc_parse_int("2147483647", &v), 0);      /* an int's range, as Linux */
    KT_EXPECT_EQ(v, 2147483647L);
    KT_EXPECT_EQ(proc_parse_int("2147483648", &v), -EINVAL);
    KT_EXPECT_EQ(proc_parse_int("2147483649", &v), -EINVAL);
    KT_EXPECT_EQ(proc_parse_int("-2147483648", &v), 0);
    KT_EXPECT_EQ(v, -2147483647L - 1);
    KT_EXPECT_EQ(proc_parse_int("-2147483649", &v), -EINVAL);
    int saved = pid_max;
    KT_EXPECT_EQ(write_file("/proc/sys/kernel/pid_max", "300"), -EINVAL);
    KT_EXPECT_EQ(pid_max, saved);
    KT_EXPECT_EQ(write_file("/proc/sys/kernel/pid_max", "400\n"), 4);
    KT_EXPECT_EQ(pid_max, 400);
    KT_ASSERT(slurp("/proc/sys/kernel/pid_max", buf, sizeof buf) > 0);
    KT_EXPECT(!strcmp(buf, "400\n"));
    for (int i = 0; i < 500; i++) {                  /* every pid handed out is below it */
        pid_t p = alloc_pid();
        KT_EXPECT(p > 0 && p < 400);
        if (p <= 0 || p >= 400)
            break;
    }
    pid_max = saved;
    KT_EXPECT_EQ(write_file("/proc/sys/kernel/core_pattern", "|/bin/x %p\n"), 11);
    KT_ASSERT(slurp("/proc/sys/kernel/core_pattern", buf, sizeof buf) > 0);
    KT_EXPECT(!strcmp(buf, "|/bin/x %p\n"));
    KT_EXPECT_EQ(write_file("/proc/sys/kernel/core_pattern", "core"), 4);
    KT_ASSERT(slurp("/proc/sys/kernel/tainted", buf, sizeof buf) > 0);
    KT_EXPECT(!strcmp(buf, "0\n"));
    KT_EXPECT(IS_ERR(filp_open("/proc/uptime", O_WRONLY, 0)));   /* not a sysctl */
}
