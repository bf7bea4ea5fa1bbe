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
 *   /proc/PID/smaps     maps, each VMA's line followed by its sizes (Rss,
 *                       Pss, Locked...), as Linux's show_smap
 *   /proc/PID/pagemap   a 64-bit word per virtual page (present, frame),
 *                       read at any offset, as Linux's pagemap_read
 *   /proc/PID/task/TID  a directory per thread of the group (/proc/TID)
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
#include <uio.h>
#include <cred.h>               /* capable */
#include <asm/pgtable.h>
#include "internal.h"

enum { PID_DIR, PID_STAT, PID_STATUS, PID_CMDLINE, PID_MAPS, PID_SMAPS, PID_PAGEMAP,
       PID_NFILES,
       PID_FD = PID_NFILES,            /* the fd directory, after the files */
       PID_TASK,                       /* the task directory, after it */
       PID_EXE,                        /* the exe link, last */
       PROC_SELF = 15 };
#define PID_KINDS 16
#define PID_INO_BASE 0x10000UL                 /* above every fixed entry's number */
#define PID_INO(pid, kind) (PID_INO_BASE + (unsigned long)(pid) * PID_KINDS + (kind))
#define INO_PID(ino)  ((pid_t)(((ino) - PID_INO_BASE) / PID_KINDS))
#define INO_KIND(ino) ((int)(((ino) - PID_INO_BASE) % PID_KINDS))
/* /proc/PID/fd/N: numbers above every PID_INO (pids stay below PID_MAX_LIMIT) */
#define FD_INO_BASE  0x1000000UL
#define FD_INO(pid, fd) (FD_INO_BASE + (unsigned long)(pid) * NR_OPEN + (fd))
#define FD_INO_PID(ino) ((pid_t)(((ino) - FD_INO_BASE) / NR_OPEN))
#define FD_INO_FD(ino)  ((int)(((ino) - FD_INO_BASE) % NR_OPEN))

static const char *const pid_file_name[PID_EXE + 1] = {
    [PID_STAT] = "stat", [PID_STATUS] = "status", [PID_CMDLINE] = "cmdline",
    [PID_MAPS] = "maps", [PID_SMAPS] = "smaps", [PID_PAGEMAP] = "pagemap",
    [PID_FD] = "fd", [PID_TASK] = "task", [PID_EXE] = "exe",
};

static const struct inode_operations proc_pid_dir_iops, proc_self_iops;
static const struct file_operations proc_pid_dir_fops, proc_pid_file_fops;
static const struct inode_operations proc_task_dir_iops;
static const struct file_operations proc_task_dir_fops, proc_pagemap_fops;
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
    } else if (kind == PID_TASK) {
        inode->i_mode = S_IFDIR | 0555;
        inode->i_nlink = 2;
        inode->i_op = &proc_task_dir_iops;
        inode->i_fop = &proc_task_dir_fops;
    } else if (kind == PID_PAGEMAP) {
        inode->i_mode = S_IFREG | 0444;    /* Linux: 0400, owned by the task; the
                                              owner check is in proc_pagemap_open */
        inode->i_nlink = 1;
        inode->i_fop = &proc_pagemap_fops;
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
        if (ctx->actor(ctx, pid_file_name[k], strlen(pid_file_name[k]), ctx->pos, PID_INO(pid, k),
                       k == PID_FD || k == PID_TASK ? DT_DIR : k == PID_EXE ? DT_LNK : DT_REG))
            return 0;
    }
    ctx->pos = 2 + PID_EXE + 1 - PID_STAT;
    return 0;
}

static const struct inode_operations proc_pid_dir_iops = { .lookup = proc_pid_dir_lookup };
static const struct file_operations proc_pid_dir_fops = { .iterate = proc_pid_dir_iterate };

/* ---- /proc/PID/task: a directory per thread of the group --------------- */

/* The smallest tid >= from of a live task in pid's thread group (its
 * leader even as a zombie, as Linux lists it), or -1. */
static pid_t next_tid(pid_t pid, pid_t from)
{
    pid_t best = 0;
    unsigned long flags = local_irq_save();
    struct task_struct *t = find_task_by_pid(pid);
    if (t) {
        struct task_struct *leader = tg_leader(t), *m = leader;
        do {
            if (m->pid >= from && m->exit_state != EXIT_DEAD &&
                (m == leader || !m->exit_state) && (!best || m->pid < best))
                best = m->pid;
            if (!leader->thread_group.next)
                break;
            m = list_entry(m->thread_group.next, struct task_struct, thread_group);
        } while (m != leader);
    }
    local_irq_restore(flags);
    return best ? best : -1;
}

/* Is tid a thread of pid's group? */
static bool tid_in_group(pid_t pid, pid_t tid)
{
    unsigned long flags = local_irq_save();
    struct task_struct *t = find_task_by_pid(pid), *u = find_task_by_pid(tid);
    bool yes = t && u && tg_leader(t) == tg_leader(u);
    local_irq_restore(flags);
    return yes;
}

/* /proc/PID/task/TID is /proc/TID itself, the same directory and files
 * (simplification: Linux makes a directory of its own, whose ".." is the
 * task directory; here ".." from it is /proc). */
static int proc_task_dir_lookup(struct inode *dir, const char *name, size_t len,
                                struct inode **res)
{
    pid_t pid = INO_PID(dir->i_ino);
    if (len == 2 && !memcmp(name, "..", 2)) {
        *res = proc_pid_iget(dir->i_sb, pid, PID_DIR);
        return *res ? 0 : -ENOMEM;
    }
    pid_t tid = name_to_pid(name, len);
    if (tid <= 0 || !tid_in_group(pid, tid))
        return -ENOENT;
    *res = proc_pid_iget(dir->i_sb, tid, PID_DIR);
    return *res ? 0 : -ENOMEM;
}

/* The walk /proc/PID/task and /proc/PID/fd share: positions 0 ".", 1
 * "..", then 2 + n, named "n", for each n that next(pid, from) gives (the
 * smallest at or above from, -1 when none is left), of inode ino(pid, n)
 * and type type.  true when it listed the last, false when the actor was
 * full.  (Linux writes the loop twice, in proc_task_readdir and
 * proc_readfd_common.) */
static bool proc_readdir_numbers(struct file *file, struct dir_context *ctx,
                                 int (*next)(pid_t pid, int from),
                                 unsigned long (*ino)(pid_t pid, int n), unsigned char type)
{
    struct inode *dir = file->f_inode;
    pid_t pid = INO_PID(dir->i_ino);
    if (!dir_emit_dots(ctx, dir->i_ino, PID_INO(pid, PID_DIR)))
        return false;
    for (int n; (n = next(pid, (int)ctx->pos - 2)) >= 0; ) {
        char name[12];
        int len = snprintf(name, sizeof name, "%d", n);
        ctx->pos = 2 + n;
        if (ctx->actor(ctx, name, len, ctx->pos, ino(pid, n), type))
            return false;
        ctx->pos++;
    }
    return true;
}

static unsigned long task_dir_ino(pid_t pid, pid_t tid)
{
    return PID_INO(tid, PID_DIR);
}

/* Positions: 0 ".", 1 "..", then 2 + tid for each thread. */
static int proc_task_readdir(struct file *file, struct dir_context *ctx)
{
    proc_readdir_numbers(file, ctx, next_tid, task_dir_ino, DT_DIR);
    return 0;
}

static const struct inode_operations proc_task_dir_iops = { .lookup = proc_task_dir_lookup };
static const struct file_operations proc_task_dir_fops = { .iterate = proc_task_readdir };

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

static unsigned long fd_ino(pid_t pid, int fd)
{
    return FD_INO(pid, fd);
}

/* Positions: 0 ".", 1 "..", then 2 + fd for each open descriptor; at the
 * end, past every descriptor. */
static int proc_readfd(struct file *file, struct dir_context *ctx)
{
    if (proc_readdir_numbers(file, ctx, task_next_fd, fd_ino, DT_LNK))
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
static const struct file_operations proc_fd_dir_fops = { .iterate = proc_readfd };
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
    uid_t euid;                                /* its /proc files' owner (Linux's
                                                  task_dump_owner): euid, or 0 */
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
        /* the owner of its /proc files: root once it is not dumpable */
        ti->euid = t->mm && t->mm->not_dumpable ? 0 : t->cred.euid;
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
    down_read(&ti->mm->mmap_sem);
    int n = access_remote_vm(ti->mm, ti->mm->arg_start, buf, len, 0);
    up_read(&ti->mm->mmap_sem);
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
#define SMAPS_SNAPSHOT_SIZE (16 * PAGE_SIZE) /* about 60 VMAs' blocks */

/* /proc/PID/smaps's counts for one VMA (Linux's struct mem_size_stats), in
 * bytes; pss in bytes << PSS_SHIFT, each page's share of the mappers. */
#define PSS_SHIFT 12
struct mem_size_stats {
    unsigned long resident, shared_clean, shared_dirty, private_clean, private_dirty;
    unsigned long referenced, anonymous;
    unsigned long long pss, pss_dirty;
};

struct map_line {
    unsigned long start, end, flags, pgoff;
    struct file *file;
    struct mem_size_stats mss;         /* smaps only */
};

/* Walk v's PTEs (mmap_sem held): what smaps_pte_entry counts.  A page
 * mapped once is private, more than once shared; dirty if the PTE or the
 * page says so; anonymous if no file's page cache holds it and the VMA is
 * private (Vellum's shared anonymous memory is Linux's shmem: not
 * "Anonymous" there either).  PROT_NONE PTEs keep their frame: resident.
 * The zero page (a read fault's) is not counted, as Linux's. */
static void smaps_account(struct mm_struct *mm, struct vm_area_struct *v,
                          struct mem_size_stats *mss)
{
    memset(mss, 0, sizeof *mss);
    for (unsigned long a = v->vm_start; a < v->vm_end; a += PAGE_SIZE) {
        pte_t *pte = lookup_pte((pgd_t *)mm->pgd, a);
        if (!pte || !pte_has_page(*pte) || is_zero_pfn(pte_pfn(*pte)))
            continue;                  /* the zero page is nobody's (vm_normal_page) */
        struct page *page = pfn_to_page(pte_pfn(*pte));
        int mapcount = page_mapcount(page);
        bool anon = !page->mapping && !(v->vm_flags & VM_SHARED);
        /* An anonymous page has nowhere to be written back: dirty from its
         * first fault (Linux's do_anonymous_page makes the PTE dirty). */
        bool dirty = (*pte & _PAGE_DIRTY) || PageDirty(page) || anon;
        mss->resident += PAGE_SIZE;
        if (*pte & _PAGE_ACCESSED)
            mss->referenced += PAGE_SIZE;
        if (anon)
            mss->anonymous += PAGE_SIZE;
        unsigned long long pss = ((unsigned long long)PAGE_SIZE << PSS_SHIFT) /
                                 (mapcount > 0 ? mapcount : 1);
        mss->pss += pss;
        if (dirty)
            mss->pss_dirty += pss;
        if (mapcount >= 2) {
            if (dirty)
                mss->shared_dirty += PAGE_SIZE;
            else
                mss->shared_clean += PAGE_SIZE;
        } else if (dirty) {
            mss->private_dirty += PAGE_SIZE;
        } else {
            mss->private_clean += PAGE_SIZE;
        }
    }
}

/* The lines after a VMA's maps line in smaps (Linux 6.1's __show_smap and
 * show_smap_vma_flags): each name padded to 16 columns, the value to 8, in
 * kB.  Huge pages, swap and KSM do not exist here: 0.  VmFlags names the
 * flags Vellum's VMAs have, in Linux's order. */
static int show_smap_block(const struct map_line *m, char *buf, size_t size)
{
    const struct mem_size_stats *ms = &m->mss;
    unsigned long locked = m->flags & VM_LOCKED ? (unsigned long)(ms->pss >> PSS_SHIFT) : 0;
    const struct { const char *name; unsigned long bytes; } f[] = {
        { "Size:", m->end - m->start },
        { "KernelPageSize:", PAGE_SIZE },
        { "MMUPageSize:", PAGE_SIZE },
        { "Rss:", ms->resident },
        { "Pss:", (unsigned long)(ms->pss >> PSS_SHIFT) },
        { "Pss_Dirty:", (unsigned long)(ms->pss_dirty >> PSS_SHIFT) },
        { "Shared_Clean:", ms->shared_clean },
        { "Shared_Dirty:", ms->shared_dirty },
        { "Private_Clean:", ms->private_clean },
        { "Private_Dirty:", ms->private_dirty },
        { "Referenced:", ms->referenced },
        { "Anonymous:", ms->anonymous },
        { "LazyFree:", 0 },
        { "AnonHugePages:", 0 },
        { "ShmemPmdMapped:", 0 },
        { "FilePmdMapped:", 0 },
        { "Shared_Hugetlb:", 0 },
        { "Private_Hugetlb:", 0 },
        { "Swap:", 0 },
        { "SwapPss:", 0 },
        { "Locked:", locked },
    };
    size_t n = 0;
    for (unsigned i = 0; i < ARRAY_SIZE(f) && n < size; i++)
        n += snprintf(buf + n, size - n, "%-16s%8lu kB\n", f[i].name, f[i].bytes / 1024);
    if (n < size)
        n += snprintf(buf + n, size - n, "THPeligible:    0\nVmFlags:");
    const struct { unsigned long flag; const char *name; } vf[] = {
        { VM_READ, "rd" }, { VM_WRITE, "wr" }, { VM_EXEC, "ex" }, { VM_SHARED, "sh" },
        { VM_GROWSDOWN, "gd" }, { VM_LOCKED, "lo" }, { VM_DONTCOPY, "dc" },
        { VM_WIPEONFORK, "wf" }, { VM_DONTDUMP, "dd" },
    };
    for (unsigned i = 0; i < ARRAY_SIZE(vf) && n < size; i++)
        if (m->flags & vf[i].flag)
            n += snprintf(buf + n, size - n, " %s", vf[i].name);
    if (n < size)
        n += snprintf(buf + n, size - n, " \n");
    return (int)min(n, size);
}

static int show_maps(const struct task_info *ti, char *buf, size_t size, bool smaps)
{
    struct mm_struct *mm = ti->mm;
    if (!mm)
        return 0;
    down_read(&mm->mmap_sem);
    int count = mm->map_count, i = 0;
    struct map_line *ml = kmalloc(count * sizeof *ml + 1, GFP_KERNEL);
    struct vm_area_struct *v;
    if (ml)
        list_for_each_entry(v, &mm->mmap, vm_list) {
            ml[i] = (struct map_line){ v->vm_start, v->vm_end, v->vm_flags, v->vm_pgoff,
                                       v->vm_file ? get_file(v->vm_file) : NULL, { 0 } };
            if (smaps)
                smaps_account(mm, v, &ml[i].mss);
            i++;
        }
    unsigned long start_brk = mm->start_brk, brk = mm->brk, start_stack = mm->start_stack;
    up_read(&mm->mmap_sem);
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
        if (len + whole < size) {           /* snprintf's NUL too */
            len += snprintf(buf + len, size - len, "%s%*s%s\n", pre, pad, "", label ? label : "");
            if (smaps) {
                size_t before = len;
                len += show_smap_block(m, buf + len, size - len);
                if (len >= size - 1)
                    len = before;      /* a block that does not fit: left out whole */
            }
        }
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
    size_t bytes = kind == PID_MAPS ? MAPS_SNAPSHOT_SIZE :
                   kind == PID_SMAPS ? SMAPS_SNAPSHOT_SIZE : PAGE_SIZE;
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
    case PID_MAPS:   n = show_maps(&ti, s->data, room, false); break;
    case PID_SMAPS:  n = show_maps(&ti, s->data, room, true); break;
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

/* ---- /proc/PID/pagemap: a 64-bit word per virtual page ------------------ */

/* Linux's fs/proc/task_mmu.c pagemap: the word of the page at virtual
 * address A is at offset A / PAGE_SIZE * 8.  Bit 63: present (a PROT_NONE
 * page that keeps its frame too); bit 61: a file page or shared memory;
 * bit 56: mapped by this PTE only; bits 0-54: the frame number, for a
 * reader with CAP_SYS_ADMIN (0 for others, as Linux since 4.2).  Offsets
 * and counts must be multiples of 8 (-EINVAL); past TASK_SIZE is the end.
 * Simplification: bit 55 (soft-dirty) is never set (Linux with
 * CONFIG_MEM_SOFT_DIRTY sets it on pages and holes written since the last
 * clear_refs), nor 62 (swapped: Vellum does not swap anonymous memory).
 *
 * The words are made in a kernel buffer under the mm's mmap_sem and copied
 * out after it is let go: the reader's own buffer may fault, and the fault
 * takes its mmap_sem (a reader of /proc/self/pagemap would deadlock). */
#define PM_PRESENT      (1ULL << 63)
#define PM_FILE         (1ULL << 61)
#define PM_MMAP_EXCL    (1ULL << 56)
#define PM_PFRAME_MASK  ((1ULL << 55) - 1)
#define PM_CHUNK        512            /* words per pass: one page's worth */

static int proc_pagemap_open(struct inode *inode, struct file *file)
{
    if (file->f_mode & FMODE_WRITE)
        return -EACCES;
    struct task_info ti;
    int err = get_task_info(INO_PID(inode->i_ino), &ti);
    if (err)
        return err;
    /* Linux's file is 0400 and owned by the task's euid (root's once the
     * task is not dumpable: it changed ids): its owner (or root,
     * CAP_DAC_OVERRIDE) may read it, nobody else. */
    if (ti.euid != current_fsuid() && !capable(CAP_DAC_OVERRIDE)) {
        mmput(ti.mm);
        return -EACCES;
    }
    file->private_data = ti.mm;        /* its reference, dropped at release */
    return 0;
}

static int proc_pagemap_release(struct inode *inode, struct file *file)
{
    mmput(file->private_data);
    return 0;
}

static uint64_t pagemap_word(struct mm_struct *mm, unsigned long addr, bool show_pfn)
{
    struct vm_area_struct *v = find_vma(mm, addr);
    if (!v || v->vm_start > addr)
        return 0;
    pte_t *pte = lookup_pte((pgd_t *)mm->pgd, addr);
    if (!pte || !pte_has_page(*pte))
        return 0;
    struct page *page = pfn_to_page(pte_pfn(*pte));
    uint64_t w = PM_PRESENT;
    if (show_pfn)
        w |= pte_pfn(*pte) & PM_PFRAME_MASK;
    if (is_zero_pfn(pte_pfn(*pte)))
        return w;                      /* present, nobody's: no flags (vm_normal_page) */
    if (page->mapping || (v->vm_flags & VM_SHARED))
        w |= PM_FILE;
    if (page_mapcount(page) == 1)
        w |= PM_MMAP_EXCL;
    return w;
}

static ssize_t proc_pagemap_read(struct file *file, struct iov_iter *to, loff_t *pos)
{
    struct mm_struct *mm = file->private_data;
    size_t count = iov_iter_count(to);
    if (*pos % 8 || count % 8)
        return -EINVAL;
    if (!mm)
        return 0;                      /* a kernel thread, or gone: nothing */
    uint64_t *words = kmalloc(PM_CHUNK * sizeof *words, GFP_KERNEL);
    if (!words)
        return -ENOMEM;
    bool show_pfn = capable(CAP_SYS_ADMIN);
    size_t done = 0;
    while (done < count) {
        unsigned long long vpn = (unsigned long long)*pos / 8;
        if (vpn >= TASK_SIZE / PAGE_SIZE)
            break;
        size_t n = min((size_t)PM_CHUNK, (count - done) / 8);
        if (n > TASK_SIZE / PAGE_SIZE - vpn)
            n = TASK_SIZE / PAGE_SIZE - vpn;
        down_read(&mm->mmap_sem);
        for (size_t i = 0; i < n; i++)
            words[i] = pagemap_word(mm, (unsigned long)(vpn + i) * PAGE_SIZE, show_pfn);
        up_read(&mm->mmap_sem);
        size_t got = copy_to_iter(words, n * 8, to);
        done += got;
        *pos += got;
        if (got < n * 8) {
            if (!done)
                done = (size_t)-EFAULT;
            break;
        }
    }
    kfree(words);
    return (ssize_t)done;
}

static const struct file_operations proc_pagemap_fops = {
    .open = proc_pagemap_open, .release = proc_pagemap_release,
    .read_iter = proc_pagemap_read, .llseek = generic_file_llseek,
};
