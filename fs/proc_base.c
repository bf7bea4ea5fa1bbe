/* fs/proc_base.c: the per-process part of /proc (Linux's fs/proc/base.c
 * and array.c): a directory per live task, and /proc/self.
 *
 *   /proc/PID/stat      one line, the 52 fields of Linux's proc(5) "stat"
 *                       (what ps and top parse; fields we do not keep are 0)
 *   /proc/PID/status    "Name: ... State: ... Pid: ... PPid: ... VmLck: ... VmRSS: ..."
 *   /proc/PID/cmdline   argv, NUL-separated, read from the process's own
 *                       stack (empty for a kernel thread)
 *   /proc/PID/maps      one line per VMA, as Linux's show_map_vma prints it
 *                       on i386: "start-end perms offset dev inode", then
 *                       the file's name, [heap] or [stack] (show_maps)
 *   /proc/PID/fd/N      a symbolic link per open descriptor, to its file's
 *                       name (file_path_name) or "pipe:[INODE]"; following
 *                       it reaches the open file's path itself, an
 *                       unlinked one too (a "magic link": get_path), as
 *                       Linux; a pipe's is -ENOENT (simplification: Linux's
 *                       reaches the pipe)
 *   /proc/PID/exe       the same kind of link to the program the process
 *                       runs (mm->exe_file; -ENOENT for a kernel thread)
 *   /proc/self          a symbolic link to the reader's own PID
 *
 * fs/pseudofs.c's proc root calls proc_pid_lookup and proc_pid_readdir for
 * the names its fixed table does not have.  Inode numbers encode the pid
 * and the file (PID_INO), so no inode points at a task: a file opened after
 * its task is gone is -ENOENT, and the text is a snapshot taken at open
 * (pseudofs's struct snapshot), as the fixed /proc files are.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <slab.h>
#include <sched.h>
#include <proc.h>
#include <mm.h>
#include <mutex.h>
#include <fs.h>
#include <fdtable.h>            /* fput */
#include "internal.h"

enum { PID_DIR, PID_STAT, PID_STATUS, PID_CMDLINE, PID_MAPS, PID_NFILES,
       PID_FD = PID_NFILES,            /* the fd directory, after the files */
       PID_EXE,                        /* the exe link, last */
       PROC_SELF = 7 };
#define PID_INO_BASE 0x10000UL                 /* above every fixed entry's number */
#define PID_INO(pid, kind) (PID_INO_BASE + (unsigned long)(pid) * 8 + (kind))
#define INO_PID(ino)  ((pid_t)(((ino) - PID_INO_BASE) / 8))
#define INO_KIND(ino) ((int)(((ino) - PID_INO_BASE) % 8))
/* /proc/PID/fd/N: numbers above every PID_INO (pids stay below PID_MAX_LIMIT) */
#define FD_INO_BASE  0x1000000UL
#define FD_INO(pid, fd) (FD_INO_BASE + (unsigned long)(pid) * NR_OPEN + (fd))
#define FD_INO_PID(ino) ((pid_t)(((ino) - FD_INO_BASE) / NR_OPEN))
#define FD_INO_FD(ino)  ((int)(((ino) - FD_INO_BASE) % NR_OPEN))

static const char *const pid_file_name[PID_EXE + 1] = {
    [PID_STAT] = "stat", [PID_STATUS] = "status", [PID_CMDLINE] = "cmdline",
    [PID_MAPS] = "maps", [PID_FD] = "fd", [PID_EXE] = "exe",
};

static const struct inode_operations proc_pid_dir_iops, proc_self_iops;
static const struct file_operations proc_pid_dir_fops, proc_pid_file_fops;
static const struct inode_operations proc_fd_dir_iops, proc_fd_link_iops, proc_exe_link_iops;
static const struct file_operations proc_fd_dir_fops;

static struct inode *proc_pid_iget(struct super_block *sb, pid_t pid, int kind)
{
    struct inode *inode = iget_locked(sb, PID_INO(pid, kind));
    if (!inode || !(inode->i_state & I_NEW))
        return inode;
    inode->i_mtime = inode->i_atime = inode->i_ctime = current_time();
    if (kind == PID_DIR) {
        inode->i_mode = S_IFDIR | 0555;
        inode->i_nlink = 2;
        inode->i_op = &proc_pid_dir_iops;
        inode->i_fop = &proc_pid_dir_fops;
    } else if (kind == PID_FD) {
        inode->i_mode = S_IFDIR | 0500;    /* as Linux's (its owner: the task's) */
        inode->i_nlink = 2;
        inode->i_op = &proc_fd_dir_iops;
        inode->i_fop = &proc_fd_dir_fops;
    } else if (kind == PID_EXE) {
        inode->i_mode = S_IFLNK | 0777;
        inode->i_nlink = 1;
        inode->i_op = &proc_exe_link_iops;
    } else if (kind == PROC_SELF) {
        inode->i_mode = S_IFLNK | 0777;
        inode->i_nlink = 1;
        inode->i_op = &proc_self_iops;
    } else {
        inode->i_mode = S_IFREG | 0444;
        inode->i_nlink = 1;
        inode->i_fop = &proc_pid_file_fops;
    }
    unlock_new_inode(inode);
    return inode;
}

/* "123" -> 123; -1 for anything that is not a plain decimal pid. */
static pid_t name_to_pid(const char *name, size_t len)
{
    pid_t pid = 0;
    if (len == 0 || len > 9 || name[0] == '0')
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (name[i] < '0' || name[i] > '9')
            return -1;
        pid = pid * 10 + (name[i] - '0');
    }
    return pid;
}

/* A task /proc should show: alive or a zombie not yet reaped. */
static bool pid_visible(pid_t pid)
{
    return pid > 0 && find_task_by_pid(pid) != NULL;
}

int proc_pid_lookup(struct inode *root, const char *name, size_t len, struct inode **res)
{
    if (len == 4 && !memcmp(name, "self", 4)) {
        *res = proc_pid_iget(root->i_sb, 0, PROC_SELF);
        return *res ? 0 : -ENOMEM;
    }
    pid_t pid = name_to_pid(name, len);
    if (!pid_visible(pid))
        return -ENOENT;
    *res = proc_pid_iget(root->i_sb, pid, PID_DIR);
    return *res ? 0 : -ENOMEM;
}

/* The smallest visible pid >= from, or 0.  Processes only, as Linux: a
 * thread's tid is not listed (its /proc/TID is still found by name). */
static pid_t next_pid(pid_t from)
{
    struct task_struct *t;
    pid_t best = 0;
    unsigned long flags = local_irq_save();
    list_for_each_entry(t, &task_list, tasks)
        if (t->pid >= from && t->pid > 0 && t->exit_state != EXIT_DEAD &&
            tg_leader(t) == t && (!best || t->pid < best))
            best = t->pid;
    local_irq_restore(flags);
    return best;
}

/* The root's entries after the fixed table: "self" at position base, then
 * one per task at base + 1 + pid (so a task that exits mid-listing moves
 * no one else). */
int proc_pid_readdir(struct dir_context *ctx, loff_t base)
{
    if (ctx->pos <= base) {
        ctx->pos = base;
        if (ctx->actor(ctx, "self", 4, base, PID_INO(0, PROC_SELF), DT_LNK))
            return 0;
        ctx->pos = base + 1;
    }
    for (pid_t pid; (pid = next_pid(ctx->pos - base - 1)) != 0; ) {
        char name[12];
        int n = snprintf(name, sizeof name, "%d", pid);
        ctx->pos = base + 1 + pid;
        if (ctx->actor(ctx, name, n, ctx->pos, PID_INO(pid, PID_DIR), DT_DIR))
            return 0;
        ctx->pos++;
    }
    return 0;
}

static int proc_self_readlink(struct inode *inode, char *buf, size_t size)
{
    char s[12];
    int n = snprintf(s, sizeof s, "%d", current->tgid);   /* the process, as Linux */
    if ((size_t)n > size)
        n = size;
    memcpy(buf, s, n);
    return n;
}

static const struct inode_operations proc_self_iops = { .readlink = proc_self_readlink };

/* ---- /proc/PID: the directory ------------------------------------------ */

static int proc_pid_dir_lookup(struct inode *dir, const char *name, size_t len, struct inode **res)
{
    pid_t pid = INO_PID(dir->i_ino);
    if (len == 2 && !memcmp(name, "..", 2)) {
        *res = igrab(dir->i_sb->s_root);
        return 0;
    }
    for (int k = PID_STAT; k <= PID_EXE; k++)
        if (strlen(pid_file_name[k]) == len && !memcmp(pid_file_name[k], name, len)) {
            if (!pid_visible(pid))
                return -ENOENT;
            *res = proc_pid_iget(dir->i_sb, pid, k);
            return *res ? 0 : -ENOMEM;
        }
    return -ENOENT;
}

/* Positions: 0 ".", 1 "..", then 2 + k - PID_STAT for each file and fd. */
static int proc_pid_dir_iterate(struct file *file, struct dir_context *ctx)
{
    struct inode *dir = file->f_inode;
    pid_t pid = INO_PID(dir->i_ino);
    if (!dir_emit_dots(ctx, dir->i_ino, dir->i_sb->s_root->i_ino))
        return 0;
    for (int k = PID_STAT + ctx->pos - 2; k <= PID_EXE; k++) {
        ctx->pos = 2 + k - PID_STAT;
        if (ctx->actor(ctx, pid_file_name[k], strlen(pid_file_name[k]), ctx->pos,
                       PID_INO(pid, k), k == PID_FD ? DT_DIR : k == PID_EXE ? DT_LNK : DT_REG))
            return 0;
    }
    ctx->pos = 2 + PID_EXE + 1 - PID_STAT;
    return 0;
}

static const struct inode_operations proc_pid_dir_iops = { .lookup = proc_pid_dir_lookup };
static const struct file_operations proc_pid_dir_fops = { .iterate = proc_pid_dir_iterate };

/* ---- /proc/PID/fd: a link per open descriptor ------------------------- */

/* The file behind pid's descriptor fd, referenced (fput it), or NULL.  The
 * task cannot go while interrupts are off (get_task_info's rule). */
static struct file *task_fget(pid_t pid, int fd)
{
    struct file *f = NULL;
    unsigned long flags = local_irq_save();
    struct task_struct *t = find_task_by_pid(pid);
    if (t && !t->exit_state && t->files && fd >= 0 && fd < NR_OPEN) {
        spin_lock(&t->files->file_lock);
        if ((f = t->files->fd[fd]))
            get_file(f);
        spin_unlock(&t->files->file_lock);
    }
    local_irq_restore(flags);
    return f;
}

/* The descriptor at or above from that pid has open, or -1. */
static int task_next_fd(pid_t pid, int from)
{
    int fd = -1;
    unsigned long flags = local_irq_save();
    struct task_struct *t = find_task_by_pid(pid);
    if (t && !t->exit_state && t->files) {
        spin_lock(&t->files->file_lock);
        for (int i = max(from, 0); i < NR_OPEN && fd < 0; i++)
            if (t->files->fd[i])
                fd = i;
        spin_unlock(&t->files->file_lock);
    }
    local_irq_restore(flags);
    return fd;
}

static struct inode *proc_fd_iget(struct super_block *sb, pid_t pid, int fd, struct file *f)
{
    struct inode *inode = iget_locked(sb, FD_INO(pid, fd));
    if (!inode || !(inode->i_state & I_NEW))
        return inode;
    inode->i_mtime = inode->i_atime = inode->i_ctime = current_time();
    /* lr-x, l-wx or lrwx for the owner, by the open mode, as Linux */
    inode->i_mode = S_IFLNK | (f->f_mode & FMODE_READ ? 0500 : 0) |
                    (f->f_mode & FMODE_WRITE ? 0300 : 0);
    inode->i_nlink = 1;
    inode->i_op = &proc_fd_link_iops;
    unlock_new_inode(inode);
    return inode;
}

/* "3" -> 3; -1 for anything that is not a descriptor's number. */
static int name_to_fd(const char *name, size_t len)
{
    pid_t n = (len == 1 && name[0] == '0') ? 0 : name_to_pid(name, len);
    return n >= 0 && n < NR_OPEN ? n : -1;
}

static int proc_fd_dir_lookup(struct inode *dir, const char *name, size_t len, struct inode **res)
{
    pid_t pid = INO_PID(dir->i_ino);
    if (len == 2 && !memcmp(name, "..", 2)) {
        *res = proc_pid_iget(dir->i_sb, pid, PID_DIR);
        return *res ? 0 : -ENOMEM;
    }
    struct file *f = task_fget(pid, name_to_fd(name, len));
    if (!f)
        return -ENOENT;
    *res = proc_fd_iget(dir->i_sb, pid, name_to_fd(name, len), f);
    fput(f);
    return *res ? 0 : -ENOMEM;
}

/* Positions: 0 ".", 1 "..", then 2 + fd for each open descriptor. */
static int proc_fd_dir_iterate(struct file *file, struct dir_context *ctx)
{
    struct inode *dir = file->f_inode;
    pid_t pid = INO_PID(dir->i_ino);
    if (!dir_emit_dots(ctx, dir->i_ino, PID_INO(pid, PID_DIR)))
        return 0;
    for (int fd; (fd = task_next_fd(pid, (int)ctx->pos - 2)) >= 0; ) {
        char name[12];
        int n = snprintf(name, sizeof name, "%d", fd);
        ctx->pos = 2 + fd;
        if (ctx->actor(ctx, name, n, ctx->pos, FD_INO(pid, fd), DT_LNK))
            return 0;
        ctx->pos++;
    }
    ctx->pos = 2 + NR_OPEN;
    return 0;
}

/* The program pid runs (mm->exe_file), referenced, or NULL.  As
 * task_fget: the task cannot go while interrupts are off. */
static struct file *task_exe_file(pid_t pid)
{
    struct file *f = NULL;
    unsigned long flags = local_irq_save();
    struct task_struct *t = find_task_by_pid(pid);
    if (t && !t->exit_state && t->mm && t->mm->exe_file)
        f = get_file(t->mm->exe_file);
    local_irq_restore(flags);
    return f;
}

/* A magic link's path: the open file's own (a pipe has none: -ENOENT). */
static int file_get_path(struct file *f, struct path *res)
{
    if (!f)
        return -ENOENT;
    int err = -ENOENT;
    if (f->f_path.mnt) {
        *res = f->f_path;
        path_get(res);
        err = 0;
    }
    fput(f);
    return err;
}

static int proc_fd_get_path(struct inode *inode, struct path *res)
{
    return file_get_path(task_fget(FD_INO_PID(inode->i_ino), FD_INO_FD(inode->i_ino)), res);
}

static int proc_exe_get_path(struct inode *inode, struct path *res)
{
    return file_get_path(task_exe_file(INO_PID(inode->i_ino)), res);
}

/* The link's text: the file's name, or "pipe:[INODE]" for a pipe (no
 * name), as Linux's; -ENOENT once the descriptor is closed. */
static int file_link_text(struct file *f, char *buf, size_t size)
{
    if (!f)
        return -ENOENT;
    char *name = kmalloc(PATH_MAX, GFP_KERNEL);
    int n = -ENOMEM;
    if (name) {
        n = file_path_name(f, name, PATH_MAX);
        if (n == -ENOENT && !f->f_path.mnt)
            n = snprintf(name, PATH_MAX, "pipe:[%lu]", f->f_inode->i_ino) + 1;
        if (n > 0) {
            n = min((size_t)n - 1, size);      /* readlink: no NUL */
            memcpy(buf, name, n);
        }
    }
    kfree(name);
    fput(f);
    return n;
}

static const struct inode_operations proc_fd_dir_iops = { .lookup = proc_fd_dir_lookup };
static const struct file_operations proc_fd_dir_fops = { .iterate = proc_fd_dir_iterate };
static int proc_fd_readlink(struct inode *inode, char *buf, size_t size)
{
    return file_link_text(task_fget(FD_INO_PID(inode->i_ino), FD_INO_FD(inode->i_ino)), buf, size);
}

static int proc_exe_readlink(struct inode *inode, char *buf, size_t size)
{
    return file_link_text(task_exe_file(INO_PID(inode->i_ino)), buf, size);
}

static const struct inode_operations proc_fd_link_iops = {
    .readlink = proc_fd_readlink, .get_path = proc_fd_get_path,
};
static const struct inode_operations proc_exe_link_iops = {
    .readlink = proc_exe_readlink, .get_path = proc_exe_get_path,
};

/* ---- /proc/PID/{stat,status,cmdline,maps}: the text -------------------- */

/* What a snapshot needs from the task, copied with interrupts off so the
 * task cannot exit halfway (the mm is referenced, for cmdline and sizes). */
struct task_info {
    pid_t pid, tgid, ppid, pgrp, session;
    int threads;                               /* tasks alive in its thread group */
    char state;
    char comm[TASK_COMM_LEN];
    unsigned long utime, stime, cutime, cstime;   /* ticks: its group's, its children's */
    unsigned long minflt, majflt, cminflt, cmajflt;
    int cpu;                           /* the CPU it runs or last ran on */
    unsigned long start_time;          /* ticks since boot when it was made */
    struct mm_struct *mm;                      /* referenced, or NULL */
};

static int get_task_info(pid_t pid, struct task_info *ti)
{
    unsigned long flags = local_irq_save();
    struct task_struct *t = find_task_by_pid(pid);
    if (t) {
        struct task_struct *leader = tg_leader(t);
        ti->pid = t->pid;
        ti->tgid = leader->pid;
        ti->threads = leader->group_live ? leader->group_live : 1;   /* a kthread, a zombie: 1 */
        ti->ppid = leader->parent ? leader->parent->pid : 0;
        ti->pgrp = t->pgrp;
        ti->session = t->session;
        ti->state = t->exit_state == EXIT_ZOMBIE ? 'Z' : task_state_char(t->state);
        memcpy(ti->comm, t->comm, TASK_COMM_LEN);
        ti->comm[TASK_COMM_LEN - 1] = '\0';
        ti->cpu = t->cpu;
        ti->start_time = t->start_time;
        struct rusage32 self, kids;    /* a process's group-wide figures (kernel/sys.c) */
        task_rusage(t, t->is_process ? RUSAGE_SELF : RUSAGE_THREAD, &self);
        task_rusage(t, RUSAGE_CHILDREN, &kids);
        ti->utime = self.utime_sec * HZ + self.utime_usec / (1000000 / HZ);
        ti->stime = self.stime_sec * HZ + self.stime_usec / (1000000 / HZ);
        ti->cutime = kids.utime_sec * HZ + kids.utime_usec / (1000000 / HZ);
        ti->cstime = kids.stime_sec * HZ + kids.stime_usec / (1000000 / HZ);
        ti->minflt = self.minflt, ti->majflt = self.majflt;
        ti->cminflt = kids.minflt, ti->cmajflt = kids.majflt;
        ti->mm = t->exit_state ? NULL : t->mm;
        if (ti->mm)
            ti->mm->mm_users++;                /* Linux's get_task_mm */
    }
    local_irq_restore(flags);
    return t ? 0 : -ENOENT;
}

static int show_stat(const struct task_info *ti, char *buf, size_t size)
{
    unsigned long vsize = ti->mm ? ti->mm->total_vm * PAGE_SIZE : 0;
    unsigned long rss = ti->mm ? ti->mm->rss : 0;
    unsigned long start_code = ti->mm ? ti->mm->start_code : 0;
    unsigned long end_code = ti->mm ? ti->mm->end_code : 0;
    unsigned long start_stack = ti->mm ? ti->mm->start_stack : 0;
    /* proc(5): pid (comm) state ppid pgrp session tty_nr tpgid flags
     * minflt cminflt majflt cmajflt utime stime cutime cstime priority nice
     * num_threads itrealvalue starttime vsize rss rsslim startcode endcode
     * startstack kstkesp kstkeip signal blocked sigignore sigcatch wchan
     * nswap cnswap exit_signal processor rt_priority policy
     * delayacct_blkio_ticks guest_time cguest_time start_data end_data
     * start_brk arg_start arg_end env_start env_end exit_code.  Ticks are
     * 1/100 s (USER_HZ = HZ here). */
    return snprintf(buf, size,
                    "%d (%s) %c %d %d %d 0 -1 0 %lu %lu %lu %lu %lu %lu %lu %lu 20 0 %d 0 %lu %lu %lu "
                    "4294967295 %lu %lu %lu 0 0 0 0 0 0 0 0 0 17 %d 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
                    ti->pid, ti->comm, ti->state, ti->ppid, ti->pgrp, ti->session,
                    ti->minflt, ti->cminflt, ti->majflt, ti->cmajflt,
                    ti->utime, ti->stime, ti->cutime, ti->cstime, ti->threads, ti->start_time,
                    vsize, rss, start_code, end_code, start_stack,
                    ti->cpu);
}

static const char *state_name(char s)
{
    switch (s) {
    case 'R': return "R (running)";
    case 'S': return "S (sleeping)";
    case 'D': return "D (disk sleep)";
    case 'T': return "T (stopped)";
    case 'Z': return "Z (zombie)";
    default:  return "X (dead)";
    }
}

static int show_status(const struct task_info *ti, char *buf, size_t size)
{
    int n = snprintf(buf, size,
                     "Name:\t%s\nState:\t%s\nTgid:\t%d\nPid:\t%d\nPPid:\t%d\n"
                     "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n",
                     ti->comm, state_name(ti->state), ti->tgid, ti->pid, ti->ppid);
    if (ti->mm && (size_t)n < size)
        n += snprintf(buf + n, size - n, "VmSize:\t%8lu kB\nVmLck:\t%8lu kB\nVmRSS:\t%8lu kB\n",
                      ti->mm->total_vm * (PAGE_SIZE / 1024),
                      ti->mm->locked_vm * (PAGE_SIZE / 1024), ti->mm->rss * (PAGE_SIZE / 1024));
    if ((size_t)n < size)
        n += snprintf(buf + n, size - n, "Threads:\t%d\n", ti->threads);
    return n;
}

/* argv as the process's stack holds it, [arg_start, arg_end): the strings
 * exec copied there, each with its NUL (Linux's proc_pid_cmdline_read). */
static int show_cmdline(const struct task_info *ti, char *buf, size_t size)
{
    if (!ti->mm || ti->mm->arg_end <= ti->mm->arg_start)
        return 0;
    int len = (int)min(ti->mm->arg_end - ti->mm->arg_start, (unsigned long)size - 1);
    mutex_lock(&ti->mm->mmap_sem);
    int n = access_remote_vm(ti->mm, ti->mm->arg_start, buf, len, 0);
    mutex_unlock(&ti->mm->mmap_sem);
    return n;
}

/* /proc/PID/maps (Linux's show_map_vma, with i386's widths): per VMA
 * "start-end rwxp offset major:minor inode ", then, for a file, its name
 * (file_path_name; fs/namei.c says how it is found), for anonymous memory
 * [heap] (the VMA meets [start_brk, brk]) or [stack] (it holds
 * start_stack), padded to column 49.  The offset and the inode of
 * anonymous memory are 0.  The VMAs are copied under mmap_sem and named
 * after it is let go: naming reads directories, and i_mutex comes before
 * mmap_sem in the lock order (mm/filemap.c).  Lines that do not fit in
 * size are left out, as a read of a short buffer would see them. */
#define MAPS_NAME_COLUMN 48            /* Linux: 25 + sizeof(void *) * 6 - 1 */
#define MAPS_SNAPSHOT_SIZE (4 * PAGE_SIZE)   /* about 100 lines with names */
struct map_line { unsigned long start, end, flags, pgoff; struct file *file; };

static int show_maps(const struct task_info *ti, char *buf, size_t size)
{
    struct mm_struct *mm = ti->mm;
    if (!mm)
        return 0;
    mutex_lock(&mm->mmap_sem);
    int count = mm->map_count, i = 0;
    struct map_line *ml = kmalloc(count * sizeof *ml + 1, GFP_KERNEL);
    struct vm_area_struct *v;
    if (ml)
        list_for_each_entry(v, &mm->mmap, vm_list) {
            ml[i] = (struct map_line){ v->vm_start, v->vm_end, v->vm_flags, v->vm_pgoff,
                                       v->vm_file ? get_file(v->vm_file) : NULL };
            i++;
        }
    unsigned long start_brk = mm->start_brk, brk = mm->brk, start_stack = mm->start_stack;
    mutex_unlock(&mm->mmap_sem);
    char *name = kmalloc(PATH_MAX, GFP_KERNEL);
    if (!ml || !name) {
        kfree(name);
        kfree(ml);
        return -ENOMEM;
    }
    size_t len = 0;
    for (i = 0; i < count; i++) {
        const struct map_line *m = &ml[i];
        struct kstat st = { 0 };
        if (m->file)
            generic_fillattr(m->file->f_inode, &st);
        char pre[96];
        int n = snprintf(pre, sizeof pre, "%08lx-%08lx %c%c%c%c %08lx %02x:%02x %lu ",
                         m->start, m->end, m->flags & VM_READ ? 'r' : '-',
                         m->flags & VM_WRITE ? 'w' : '-', m->flags & VM_EXEC ? 'x' : '-',
                         m->flags & VM_SHARED ? 's' : 'p',
                         m->file ? m->pgoff << PAGE_SHIFT : 0,
                         (unsigned)(st.dev >> 8) & 0xfff, (unsigned)st.dev & 0xff,
                         (unsigned long)st.ino);
        const char *label = NULL;
        if (m->file)
            label = file_path_name(m->file, name, PATH_MAX) > 0 ? name : NULL;
        else if (m->start <= brk && m->end >= start_brk)
            label = "[heap]";
        else if (m->start <= start_stack && m->end >= start_stack)
            label = "[stack]";
        int pad = !label ? 0 : n < MAPS_NAME_COLUMN ? MAPS_NAME_COLUMN - n + 1 : 1;
        size_t whole = n + pad + (label ? strlen(label) : 0) + 1;
        if (len + whole < size)             /* snprintf's NUL too */
            len += snprintf(buf + len, size - len, "%s%*s%s\n", pre, pad, "", label ? label : "");
        if (m->file)
            fput(m->file);
    }
    kfree(name);
    kfree(ml);
    return (int)len;
}

static int proc_pid_file_open(struct inode *inode, struct file *file)
{
    if (file->f_mode & FMODE_WRITE)
        return -EACCES;
    struct task_info ti;
    int err = get_task_info(INO_PID(inode->i_ino), &ti);
    if (err)
        return err;
    int kind = INO_KIND(inode->i_ino);
    size_t bytes = kind == PID_MAPS ? MAPS_SNAPSHOT_SIZE : PAGE_SIZE;
    struct snapshot *s = kmalloc(bytes, GFP_KERNEL);
    if (!s) {
        mmput(ti.mm);
        return -ENOMEM;
    }
    size_t room = bytes - sizeof *s;
    int n;
    switch (kind) {
    case PID_STAT:   n = show_stat(&ti, s->data, room); break;
    case PID_STATUS: n = show_status(&ti, s->data, room); break;
    case PID_MAPS:   n = show_maps(&ti, s->data, room); break;
    default:         n = show_cmdline(&ti, s->data, room); break;
    }
    mmput(ti.mm);
    s->len = n < 0 ? 0 : min((size_t)n, room - 1);     /* snprintf's truncation */
    file->private_data = s;
    return 0;
}

static const struct file_operations proc_pid_file_fops = {
    .open = proc_pid_file_open, .release = proc_snapshot_release,
    .read_iter = proc_snapshot_read, .llseek = generic_file_llseek,
};
