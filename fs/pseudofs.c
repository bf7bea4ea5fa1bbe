/* fs/pseudofs.c: two tiny table-driven filesystems, "devfs" (mounted on
 * /dev: console, tty, null, zero) and "proc" (mounted on /proc: meminfo,
 * mounts, stat, uptime, loadavg, cmdline, version, schedstat, vellum/writepath,
 * vellum/pagecache, vellum/vmscan, irq/N/smp_affinity, sys/kernel/pid_max, sys/kernel/tainted,
 * sys/kernel/core_pattern, sys/fs/pipe-max-size, pipe-user-pages-soft,
 * lease-break-time; the sys/ files root may write are sysctls, each with
 * its store).  Sits on the VFS (inode
 * cache, struct file) like any filesystem; nothing is stored anywhere.
 *
 * Each filesystem is a static array of entries; an entry's inode number is
 * its index + 1 and its parent is another index.  A /proc file's contents
 * are generated when it is opened (a snapshot in file->private_data, the
 * way Linux's seq_file single_open works) and read from that buffer, so a
 * reader sees one consistent set of numbers.
 *
 * The fixed tables are all of devfs; proc's root also lists a directory
 * per process and "self", which fs/proc_base.c makes (proc_pid_lookup,
 * proc_pid_readdir) and whose files reuse the snapshot reader here.
 */
#include <kernel.h>
#include <smp.h>
#include <asm/processor.h>       /* show_cpuinfo */
#include <irq.h>                 /* show_interrupts */
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <mm.h>
#include <fs.h>
#include <uio.h>
#include <init.h>
#include <pagemap.h>
#include <swap.h>
#include <cmdline.h>
#include <vmstat.h>
#include <buffer_head.h>
#include <chrdev.h>
#include <tty.h>
#include <do_mounts.h>
#include <ktest.h>
#include <sched.h>
#include <proc.h>
#include <timer.h>
#include <spinlock.h>             /* show_lock_stat */
#include "internal.h"

struct pseudo_entry {
    const char *name;
    int parent;                        /* index of the directory holding it */
    mode_t mode;
    dev_t rdev;                        /* character devices */
    int (*show)(char *buf, size_t size);   /* regular files: the contents */
    /* A writable /proc file (a sysctl: mode 0644, root's): what a write
     * of the text buf (len bytes, NUL-terminated) at offset 0 does; 0 or
     * -errno.  NULL: read-only. */
    int (*store)(const char *buf, size_t len);
};

struct pseudo_fs {
    const struct pseudo_entry *e;
    int n;
    unsigned long magic;
    bool pids;                         /* proc: the root also has /proc/PID */
};

static const struct inode_operations pseudo_dir_iops;
static const struct file_operations pseudo_dir_fops, pseudo_file_fops;

static struct inode *pseudo_iget(struct super_block *sb, int idx)
{
    const struct pseudo_fs *fs = sb->s_fs_info;
    struct inode *inode = iget_locked(sb, idx + 1);
    if (!inode || !(inode->i_state & I_NEW))
        return inode;
    const struct pseudo_entry *e = &fs->e[idx];
    inode->i_mode = e->mode;
    inode->i_nlink = S_ISDIR(e->mode) ? 2 : 1;
    inode->i_mtime = inode->i_atime = inode->i_ctime = current_time();
    inode->i_private = (void *)e;
    if (S_ISDIR(e->mode)) {
        inode->i_op = &pseudo_dir_iops;
        inode->i_fop = &pseudo_dir_fops;
    } else if (S_ISCHR(e->mode)) {
        init_special_inode(inode, e->mode, e->rdev);
    } else {
        inode->i_fop = &pseudo_file_fops;
    }
    unlock_new_inode(inode);
    return inode;
}

static int entry_index(struct inode *inode)
{
    return (int)inode->i_ino - 1;
}

static int pseudo_lookup(struct inode *dir, const char *name, size_t len, struct inode **res)
{
    const struct pseudo_fs *fs = dir->i_sb->s_fs_info;
    int me = entry_index(dir), want = -1;
    if (len == 2 && !memcmp(name, "..", 2)) {
        want = fs->e[me].parent < 0 ? me : fs->e[me].parent;
    } else {
        for (int i = 1; i < fs->n && want < 0; i++)
            if (fs->e[i].parent == me && strlen(fs->e[i].name) == len &&
                !memcmp(fs->e[i].name, name, len))
                want = i;
    }
    if (want < 0 && fs->pids && me == 0)
        return proc_pid_lookup(dir, name, len, res);
    if (want < 0)
        return -ENOENT;
    *res = pseudo_iget(dir->i_sb, want);
    return *res ? 0 : -ENOMEM;
}

static unsigned dtype(mode_t m)
{
    return S_ISDIR(m) ? DT_DIR : S_ISCHR(m) ? DT_CHR : DT_REG;
}

/* Positions: 0 ".", 1 "..", then 2 + table index for each child; in proc's
 * root, the processes after the table (proc_pid_readdir). */
static int pseudo_iterate(struct file *file, struct dir_context *ctx)
{
    struct inode *dir = file->f_inode;
    const struct pseudo_fs *fs = dir->i_sb->s_fs_info;
    int me = entry_index(dir);
    int up = fs->e[me].parent < 0 ? me : fs->e[me].parent;
    if (!dir_emit_dots(ctx, dir->i_ino, up + 1))
        return 0;
    for (int i = ctx->pos - 2; i < fs->n; i++) {
        ctx->pos = i + 2;
        if (i == 0 || fs->e[i].parent != me)
            continue;
        if (ctx->actor(ctx, fs->e[i].name, strlen(fs->e[i].name), i + 2, i + 1,
                       dtype(fs->e[i].mode)))
            return 0;
    }
    if (ctx->pos < fs->n + 2)
        ctx->pos = fs->n + 2;
    if (fs->pids && me == 0)
        return proc_pid_readdir(ctx, fs->n + 2);
    return 0;
}

static const struct inode_operations pseudo_dir_iops = { .lookup = pseudo_lookup };
static const struct file_operations pseudo_dir_fops = { .iterate = pseudo_iterate };

static int pseudo_open(struct inode *inode, struct file *file)
{
    const struct pseudo_entry *e = inode->i_private;
    if ((file->f_mode & FMODE_WRITE) && !e->store)
        return -EACCES;
    struct snapshot *s = kmalloc(PAGE_SIZE, GFP_KERNEL);
    if (!s)
        return -ENOMEM;
    size_t room = PAGE_SIZE - sizeof *s;
    int n = e->show ? e->show(s->data, room) : 0;
    s->len = n < 0 ? 0 : min((size_t)n, room - 1);
    file->private_data = s;
    return 0;
}

int proc_snapshot_release(struct inode *inode, struct file *file)
{
    kfree(file->private_data);
    return 0;
}

ssize_t proc_snapshot_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
    struct snapshot *s = file->private_data;
    if (*pos >= (loff_t)s->len)
        return 0;
    size_t n = min((size_t)(s->len - *pos), iov_iter_count(to));
    size_t done = copy_to_iter(s->data + *pos, n, to);
    if (n && !done)
        return -EFAULT;
    *pos += done;
    return done;
}

/* A write to a sysctl file (Linux's proc_sys_write): the text is taken
 * whole from offset 0 (at most a page), handed to the entry's store, and
 * counted as written; a write at another offset changes nothing (Linux's
 * default sysctl_writes_strict for numbers).  The open snapshot is not
 * refreshed: a new open reads the new value. */
static ssize_t pseudo_write(struct file *file, struct iov_iter *from, loff_t *pos)
{
    const struct pseudo_entry *e = file->f_inode->i_private;
    size_t n = iov_iter_count(from);
    if (!e->store)
        return -EINVAL;
    if (*pos != 0 || !n)
        return n;
    if (n > PAGE_SIZE - 1)
        return -EINVAL;
    char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
    if (!buf)
        return -ENOMEM;
    if (copy_from_iter(buf, n, from) != n) {
        kfree(buf);
        return -EFAULT;
    }
    buf[n] = '\0';
    int err = e->store(buf, n);
    kfree(buf);
    if (err)
        return err;
    *pos += n;
    return n;
}

/* A sysctl integer as Linux's proc_dointvec reads one: blanks, an
 * optional sign, decimal digits, blanks (a newline); anything else is
 * -EINVAL, and so is a number outside an int's range (-SYSCTL_INT_MAX - 1
 * to SYSCTL_INT_MAX, do_proc_dointvec_conv's check). */
#define SYSCTL_INT_MAX 0x7fffffffL
int proc_parse_int(const char *buf, long *val)
{
    const char *p = buf;
    bool neg = false;
    unsigned long v = 0;               /* the magnitude */
    while (*p == ' ' || *p == '\t' || *p == '\n')
        p++;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    if (*p < '0' || *p > '9')
        return -EINVAL;
    while (*p >= '0' && *p <= '9') {
        unsigned long d = *p++ - '0';
        if (v > (SYSCTL_INT_MAX + 1UL - d) / 10)
            return -EINVAL;
        v = v * 10 + d;
    }
    while (*p == ' ' || *p == '\t' || *p == '\n')
        p++;
    if (*p || v > SYSCTL_INT_MAX + (unsigned long)neg)
        return -EINVAL;
    *val = neg ? -(long)(v - 1) - 1 : (long)v;
    return 0;
}

/* A number sysctl's write: one number (proc_parse_int) from min to max,
 * else -EINVAL. */
static int proc_parse_minmax(const char *buf, long min, long max, long *val)
{
    if (proc_parse_int(buf, val) || *val < min || *val > max)
        return -EINVAL;
    return 0;
}

/* Linux's proc_dointvec_minmax, for one int: *valp set to the number
 * written if it is from min to max, else -EINVAL and *valp unchanged. */
static int proc_dointvec_minmax(const char *buf, int *valp, long min, long max)
{
    long v;
    int err = proc_parse_minmax(buf, min, max, &v);
    if (!err)
        *valp = (int)v;
    return err;
}

/* Linux's proc_doulongvec_minmax: the same for one unsigned long. */
static int proc_doulongvec_minmax(const char *buf, unsigned long *valp, long min, long max)
{
    long v;
    int err = proc_parse_minmax(buf, min, max, &v);
    if (!err)
        *valp = (unsigned long)v;
    return err;
}

static const struct file_operations pseudo_file_fops = {
    .open = pseudo_open, .release = proc_snapshot_release, .read_iter = proc_snapshot_read,
    .write_iter = pseudo_write, .llseek = generic_file_llseek,
};

static int pseudo_fill_super(struct super_block *sb, const struct pseudo_fs *fs)
{
    sb->s_fs_info = (void *)fs;
    sb->s_magic = fs->magic;
    sb->s_blocksize = PAGE_SIZE;
    sb->s_blocksize_bits = PAGE_SHIFT;
    sb->s_maxbytes = 0x7fffffff;       /* lseek's limit (nothing is written) */
    sb->s_root = pseudo_iget(sb, 0);
    return sb->s_root ? 0 : -ENOMEM;
}

/* ---- devfs ------------------------------------------------------------- */

static const struct pseudo_entry dev_entries[] = {
    { "",        -1, S_IFDIR | 0755, 0, NULL, NULL },
    { "console",  0, S_IFCHR | 0600, MKDEV(TTY_MAJOR, 1), NULL, NULL },
    { "tty",      0, S_IFCHR | 0666, MKDEV(TTY_MAJOR, 0), NULL, NULL },
    { "null",     0, S_IFCHR | 0666, MKDEV(MEM_MAJOR, 3), NULL, NULL },
    { "zero",     0, S_IFCHR | 0666, MKDEV(MEM_MAJOR, 5), NULL, NULL },
};
static const struct pseudo_fs devfs = { dev_entries, ARRAY_SIZE(dev_entries), 0x1373, false };

static int devfs_fill_super(struct super_block *sb, const char *data, int silent)
{ return pseudo_fill_super(sb, &devfs); }
static struct file_system_type devfs_type = { .name = "devfs", .fill_super = devfs_fill_super };

/* ---- proc --------------------------------------------------------------- */

/* Linux's fields that apply (fs/proc/meminfo.c there), in its order and
 * format.  Cached is the page cache (every page on the LRU lists, the
 * unevictable ramfs ones too); Buffers the metadata buffer cache's data
 * (Linux: the block devices' page cache); Slab all of kmalloc's frames.
 * MemAvailable, as Linux's estimate: free pages above the low watermark
 * plus the page cache reclaim could free (evictable, not dirty). */
static int show_meminfo(char *buf, size_t size)
{
    unsigned long k = PAGE_SIZE / 1024, n = 0;
    unsigned long free = nr_free_pages(), active = global_page_state(NR_ACTIVE_FILE);
    unsigned long inactive = global_page_state(NR_INACTIVE_FILE);
    unsigned long dirty = global_page_state(NR_FILE_DIRTY);
    unsigned long avail = (free > low_free_pages ? free - low_free_pages : 0) +
                          (active + inactive > dirty ? active + inactive - dirty : 0);
    const struct { const char *name; unsigned long pages; } f[] = {
        { "MemTotal:", totalram_pages },
        { "MemFree:", free },
        { "MemAvailable:", avail },
        { "Buffers:", buffer_cache_stats.bytes / PAGE_SIZE },
        { "Cached:", global_file_pages() },
        { "Active:", active },
        { "Inactive:", inactive },
        { "Active(file):", active },
        { "Inactive(file):", inactive },
        { "Unevictable:", global_page_state(NR_UNEVICTABLE) },
        { "Dirty:", dirty },
        { "Writeback:", global_page_state(NR_WRITEBACK) },
        { "AnonPages:", global_page_state(NR_ANON_PAGES) },
        { "Mapped:", global_page_state(NR_FILE_MAPPED) },
        { "Slab:", global_page_state(NR_SLAB) },
    };
    for (unsigned i = 0; i < ARRAY_SIZE(f) && n < size; i++)
        n += snprintf(buf + n, size - n, "%-16s%8lu kB\n", f[i].name, f[i].pages * k);
    return (int)min(n, (unsigned long)size);
}

static int show_vmscan(char *buf, size_t size)
{
    return (int)vmscan_stats_show(buf, size);
}

/* Where the CPUs' time went (Linux's fs/proc/stat.c): the cpu line is
 * user nice system idle iowait irq softirq steal guest guest_nice, in
 * USER_HZ ticks (1/100 s; our HZ is 100), summed over the online CPUs,
 * then the same for each of them (cpu0, cpu1, ...); the boot time in
 * seconds since the epoch; the tasks running and blocked.  What top's CPU
 * line and ps's start times are made from. */
static int show_stat(char *buf, size_t size)
{
    struct cpu_times t;
    struct task_counts c;
    size_t n = 0;
    int cpu;
    cpu_times_total(&t);
    count_tasks(&c);
    n += snprintf(buf + n, size - n, "cpu  %lu 0 %lu %lu 0 0 0 0 0 0\n",
                  t.user * 100 / HZ, t.system * 100 / HZ, t.idle * 100 / HZ);
    for_each_online_cpu(cpu) {
        t = per_cpu(kernel_cpustat, cpu);
        n += snprintf(buf + n, n < size ? size - n : 0, "cpu%d %lu 0 %lu %lu 0 0 0 0 0 0\n", cpu,
                      t.user * 100 / HZ, t.system * 100 / HZ, t.idle * 100 / HZ);
    }
    n += snprintf(buf + n, n < size ? size - n : 0, "btime %lu\nprocs_running %lu\nprocs_blocked %lu\n",
                  (unsigned long)current_time() - jiffies / HZ, c.running, c.blocked);
    return min(n, size);
}

/* Seconds since boot and seconds the CPUs spent idle (summed, as Linux),
 * to 1/100 s. */
static int show_uptime(char *buf, size_t size)
{
    struct cpu_times t;
    cpu_times_total(&t);
    unsigned long up = jiffies, idle = t.idle;
    return snprintf(buf, size, "%lu.%02lu %lu.%02lu\n", up / HZ, up % HZ * 100 / HZ,
                    idle / HZ, idle % HZ * 100 / HZ);
}

/* The 1, 5 and 15 minute load averages (kernel/sched.c, calc_global_load),
 * tasks running or runnable / all tasks, the last pid handed out. */
static int show_loadavg(char *buf, size_t size)
{
    struct task_counts c;
    char avg[3][16];
    count_tasks(&c);
    for (int i = 0; i < 3; i++) {
        unsigned long a = avenrun[i] + FIXED_1 / 200;          /* round to 1/100 */
        snprintf(avg[i], sizeof avg[i], "%lu.%02lu", a >> FSHIFT,
                 ((a & (FIXED_1 - 1)) * 100) >> FSHIFT);
    }
    return snprintf(buf, size, "%s %s %s %lu/%lu %d\n", avg[0], avg[1], avg[2],
                    c.running, c.total, last_pid);
}

/* One line per mount, as Linux's /proc/mounts: device, mount point, type,
 * options (rw or ro, then the filesystem's show_options).  Mount points come
 * from the table fs/do_mounts.c keeps. */
static int show_mounts(char *buf, size_t size)
{
    struct vfsmount *m;
    size_t n = 0;
    mutex_lock(&namespace_sem);
    list_for_each_entry(m, &vfsmount_list, mnt_list) {
        if (n >= size)
            break;
        struct super_block *sb = m->mnt_sb;
        n += snprintf(buf + n, size - n, "%s %s %s %s", sb->s_id,
                      mount_point_name(m), sb->s_type->name,
                      (sb->s_flags & MS_RDONLY) ? "ro" : "rw");
        if (n < size && sb->s_op && sb->s_op->show_options)
            n += sb->s_op->show_options(sb, buf + n, size - n);
        if (n < size)
            n += snprintf(buf + n, size - n, " 0 0\n");
    }
    mutex_unlock(&namespace_sem);
    return min(n, size);
}

/* The write loop's counters and the page-fault counters beside them
 * (atomic_fixups proves a copy stopped at a fault with faults disabled):
 * one format, owned by kernel/x86/usercopy.c. */
static int show_writepath(char *buf, size_t size)
{
    return (int)write_path_stats_show(buf, size);
}

static int show_pagecache(char *buf, size_t size)
{
    struct pagecache_stats s = pagecache_stats;
    return snprintf(buf, size, "lookups %lu\nhits %lu\nmisses %lu\nreadpage_calls %lu\n"
                    "readahead_pages %lu\nwritepage_calls %lu\nlock_waits %lu\n",
                    s.lookups, s.hits, s.misses, s.readpage_calls, s.readahead_pages,
                    s.writepage_calls, s.lock_waits);
}

/* The kernel command line the boot loader gave, as Linux's /proc/cmdline:
 * the whole line and a newline. */
static int show_cmdline(char *buf, size_t size)
{
    return snprintf(buf, size, "%s\n", saved_command_line);
}

/* /proc/version: uname's release and version, in Linux's layout
 * ("Linux version RELEASE (BUILDER) VERSION"). */
static int show_version(char *buf, size_t size)
{
    return snprintf(buf, size, "Linux version %s (vellum) #1 Vellum teaching kernel\n",
                    system_utsname_release);
}

/* /proc/sys/kernel/pid_max: the pid numbers wrap below it (alloc_pid,
 * kernel/fork.c); root may set it from 301 (Linux's RESERVED_PIDS + 1) to
 * PID_MAX (i386 Linux's PID_MAX_LIMIT), -EINVAL outside. */
static int show_pid_max(char *buf, size_t size)
{
    return snprintf(buf, size, "%d\n", pid_max);
}

static int store_pid_max(const char *buf, size_t len)
{
    return proc_dointvec_minmax(buf, &pid_max, 301, PID_MAX);
}

/* /proc/sys/kernel/tainted: why the kernel is not to be trusted, Linux's
 * taint bits.  Vellum sets none itself (an oops panics, a WARN_ON goes on
 * untainted: simplification); root may add bits, as Linux, never clear
 * them. */
static unsigned long tainted_mask;

static int show_tainted(char *buf, size_t size)
{
    return snprintf(buf, size, "%lu\n", tainted_mask);
}

static int store_tainted(const char *buf, size_t len)
{
    long v;
    int err = proc_parse_minmax(buf, 0, SYSCTL_INT_MAX, &v);
    if (!err)
        tainted_mask |= (unsigned long)v;
    return err;
}

/* /proc/sys/kernel/core_pattern: where a core dump would go, "core" by
 * default, up to 127 characters (Linux's CORENAME_MAX_SIZE, longer text is
 * cut), a trailing newline dropped.  Kept and shown only: Vellum writes no
 * core dumps (as Linux without CONFIG_COREDUMP, which keeps the file;
 * docs/processes.md, "Out on purpose"). */
#define CORENAME_MAX_SIZE 128
static char core_pattern[CORENAME_MAX_SIZE] = "core";

static int show_core_pattern(char *buf, size_t size)
{
    return snprintf(buf, size, "%s\n", core_pattern);
}

static int store_core_pattern(const char *buf, size_t len)
{
    size_t n = strnlen(buf, CORENAME_MAX_SIZE - 1);
    memcpy(core_pattern, buf, n);
    core_pattern[n] = '\0';
    if (n && core_pattern[n - 1] == '\n')
        core_pattern[n - 1] = '\0';
    return 0;
}

static int show_pipe_max_size(char *buf, size_t size)
{
    return snprintf(buf, size, "%u\n", pipe_max_size);
}

/* /proc/sys/fs/pipe-max-size: the largest pipe an unprivileged task may
 * make or grow one to (fs/pipe.c); a value is rounded up as F_SETPIPE_SZ
 * rounds, as Linux's proc_dopipe_max_size. */
static int store_pipe_max_size(const char *buf, size_t len)
{
    long v;
    if (proc_parse_int(buf, &v))
        return -EINVAL;
    return pipe_set_max_size(v);
}

static int show_pipe_user_pages_soft(char *buf, size_t size)
{
    return snprintf(buf, size, "%lu\n", pipe_user_pages_soft);
}

/* pipe-user-pages-soft: Linux's per-user soft limit of pipe pages (told,
 * not enforced: fs/pipe.c). */
static int store_pipe_user_pages_soft(const char *buf, size_t len)
{
    return proc_doulongvec_minmax(buf, &pipe_user_pages_soft, 0, SYSCTL_INT_MAX);
}

static int show_lease_break_time(char *buf, size_t size)
{
    return snprintf(buf, size, "%d\n", lease_break_time);
}

/* lease-break-time: the seconds a lease holder has to give its lease up
 * (fs/locks.c); any int, as Linux's proc_dointvec. */
static int store_lease_break_time(const char *buf, size_t len)
{
    return proc_dointvec_minmax(buf, &lease_break_time, -SYSCTL_INT_MAX - 1, SYSCTL_INT_MAX);
}

/* /proc/irq/N/smp_affinity (kernel/x86/io_apic.c), one pair per line. */
#define IRQ_AFFINITY(n)                                                         \
    static int show_irq##n##_affinity(char *buf, size_t size)                   \
    { return show_irq_affinity(n, buf, size); }                                 \
    static int store_irq##n##_affinity(const char *buf, size_t len)             \
    { return store_irq_affinity(n, buf, len); }
IRQ_AFFINITY(0) IRQ_AFFINITY(1) IRQ_AFFINITY(2) IRQ_AFFINITY(3)
IRQ_AFFINITY(4) IRQ_AFFINITY(5) IRQ_AFFINITY(6) IRQ_AFFINITY(7)
IRQ_AFFINITY(8) IRQ_AFFINITY(9) IRQ_AFFINITY(10) IRQ_AFFINITY(11)
IRQ_AFFINITY(12) IRQ_AFFINITY(13) IRQ_AFFINITY(14) IRQ_AFFINITY(15)
#undef IRQ_AFFINITY
#define PROC_IRQ 24                    /* the index of "irq" below */
#define IRQ_DIR(n) { #n, PROC_IRQ, S_IFDIR | 0555, 0, NULL, NULL }
#define IRQ_FILE(n) { "smp_affinity", PROC_IRQ + 1 + n, S_IFREG | 0644, 0,         \
                      show_irq##n##_affinity, store_irq##n##_affinity }

static const struct pseudo_entry proc_entries[] = {
    { "",          -1, S_IFDIR | 0555, 0, NULL, NULL },
    { "meminfo",    0, S_IFREG | 0444, 0, show_meminfo, NULL },
    { "mounts",     0, S_IFREG | 0444, 0, show_mounts, NULL },
    { "vellum",     0, S_IFDIR | 0555, 0, NULL, NULL },
    { "writepath",  3, S_IFREG | 0444, 0, show_writepath, NULL },
    { "pagecache",  3, S_IFREG | 0444, 0, show_pagecache, NULL },
    { "vmscan",     3, S_IFREG | 0444, 0, show_vmscan, NULL },
    { "stat",       0, S_IFREG | 0444, 0, show_stat, NULL },
    { "uptime",     0, S_IFREG | 0444, 0, show_uptime, NULL },
    { "loadavg",    0, S_IFREG | 0444, 0, show_loadavg, NULL },
    { "cmdline",    0, S_IFREG | 0444, 0, show_cmdline, NULL },
    { "sys",        0, S_IFDIR | 0555, 0, NULL, NULL },                 /* 11 */
    { "kernel",    11, S_IFDIR | 0555, 0, NULL, NULL },                 /* 12 */
    { "pid_max",   12, S_IFREG | 0644, 0, show_pid_max, store_pid_max },
    { "tainted",   12, S_IFREG | 0644, 0, show_tainted, store_tainted },
    { "core_pattern", 12, S_IFREG | 0644, 0, show_core_pattern, store_core_pattern },
    { "fs",        11, S_IFDIR | 0555, 0, NULL, NULL },                 /* 16 */
    { "pipe-max-size", 16, S_IFREG | 0644, 0, show_pipe_max_size, store_pipe_max_size },
    { "pipe-user-pages-soft", 16, S_IFREG | 0644, 0, show_pipe_user_pages_soft, store_pipe_user_pages_soft },
    { "lease-break-time", 16, S_IFREG | 0644, 0, show_lease_break_time, store_lease_break_time },
    { "cpuinfo",    0, S_IFREG | 0444, 0, show_cpuinfo, NULL },       /* kernel/x86/cpu.c */
    { "interrupts", 0, S_IFREG | 0444, 0, show_interrupts, NULL },    /* kernel/x86/smp.c */
    { "version",    0, S_IFREG | 0444, 0, show_version, NULL },
    { "lock_stat",  0, S_IFREG | 0444, 0, show_lock_stat, NULL },     /* kernel/spinlock.c */
    { "irq",        0, S_IFDIR | 0555, 0, NULL, NULL },                 /* PROC_IRQ */
    IRQ_DIR(0), IRQ_DIR(1), IRQ_DIR(2), IRQ_DIR(3), IRQ_DIR(4), IRQ_DIR(5), IRQ_DIR(6),
    IRQ_DIR(7), IRQ_DIR(8), IRQ_DIR(9), IRQ_DIR(10), IRQ_DIR(11), IRQ_DIR(12), IRQ_DIR(13),
    IRQ_DIR(14), IRQ_DIR(15),
    IRQ_FILE(0), IRQ_FILE(1), IRQ_FILE(2), IRQ_FILE(3), IRQ_FILE(4), IRQ_FILE(5), IRQ_FILE(6),
    IRQ_FILE(7), IRQ_FILE(8), IRQ_FILE(9), IRQ_FILE(10), IRQ_FILE(11), IRQ_FILE(12),
    IRQ_FILE(13), IRQ_FILE(14), IRQ_FILE(15),
    { "schedstat",  0, S_IFREG | 0444, 0, show_schedstat, NULL },     /* kernel/sched.c */
};
static const struct pseudo_fs procfs = { proc_entries, ARRAY_SIZE(proc_entries), 0x9fa0, true };

static int proc_fill_super(struct super_block *sb, const char *data, int silent)
{ return pseudo_fill_super(sb, &procfs); }
static struct file_system_type proc_type = { .name = "proc", .fill_super = proc_fill_super };

static void pseudofs_init(void)
{
    BUG_ON(strcmp(proc_entries[PROC_IRQ].name, "irq"));   /* the table's hard-coded parent */
    register_filesystem(&devfs_type);
    register_filesystem(&proc_type);
}
fs_initcall(pseudofs_init);
