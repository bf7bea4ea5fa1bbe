/* include/proc.h: the process layer's kernel interface (kernel/fork.c,
 * exit.c, exec.c, sys.c), for the other layers and the tests.
 * Everything here runs in process context unless noted. */
#ifndef _PROC_H
#define _PROC_H
#include <sched.h>
#include <asm/ptrace.h>
#include <linux/wait.h>                /* WNOHANG, WUNTRACED, WCONTINUED */

/* The user registers saved at the top of t's kernel stack by the entry
 * from ring 3 (every system call and user trap starts there). */
static inline struct pt_regs *task_pt_regs(struct task_struct *t)
{
    return (struct pt_regs *)((char *)t->stack + THREAD_SIZE) - 1;
}
#define current_pt_regs() task_pt_regs(current)

#define PID_MAX        32768           /* i386 Linux's PID_MAX_LIMIT: pids stay below */
/* Pids wrap below pid_max (/proc/sys/kernel/pid_max, root may set it from
 * 301 to PID_MAX; kernel/fork.c alloc_pid). */
extern int pid_max;
/* fork/clone beyond max_processes tasks: -EAGAIN.  The default is Linux's
 * threads-max (set_max_threads): as many tasks as have their kernel
 * stacks fit in an eighth of RAM, at least MIN_MAX_PROCESSES; the boot
 * option nproc=N overrides it (kernel/user_init.c). */
#define MIN_MAX_PROCESSES 20           /* Linux's MIN_THREADS */
int default_max_processes(void);
extern int max_processes;
extern int nr_processes;               /* live user processes (zombies included) */
extern struct task_struct *init_process; /* pid 1: adopts orphans */

/* The task with this pid, or NULL.  Interrupts off or not: never sleeps. */
struct task_struct *find_task_by_pid(pid_t pid);
/* A free pid (never 0 or 1: 1 is init's), or -EAGAIN. */
pid_t alloc_pid(void);
extern pid_t last_pid;                 /* the pid alloc_pid handed out last */

/* fork.c: create a process running fn(arg) in kernel mode on a fresh stack
 * whose pt_regs area is zeroed; when fn returns 0 the task enters user mode
 * with those pt_regs (what kernel_execve filled).  Used for pid 1 and for
 * tests.  pid 0 means "allocate one".  Returns the task (already runnable)
 * or an ERR_PTR. */
struct task_struct *user_process_create(int (*fn)(void *), void *arg, const char *name,
                                        pid_t pid);
/* exec.c: replace current's user image with the ELF at path (kernel
 * strings).  0 (the pt_regs now enter the new program) or -errno with the
 * old image intact (unless -EFAULT/-ENOMEM struck after the point of no
 * return, in which case the task is killed with SIGSEGV, as Linux). */
int kernel_execve(const char *path, const char *const argv[], const char *const envp[]);
/* exec.c: programs found without a file system (tests, before the root is
 * mounted): a name -> ELF image table, consulted when the VFS has no such
 * file.  register_builtin_binary("/bin/x", start, size). */
void register_builtin_binary(const char *path, const void *image, size_t size);

/* fork.c: drop a task's mm, files and fs references (exit, failed fork). */
void release_task_resources(struct task_struct *t);
/* fork.c: fork/vfork/clone (flags: Linux's CLONE_*; the comment above it). */
long do_fork(unsigned long clone_flags, unsigned long newsp, struct pt_regs *regs,
             int *parent_tid, unsigned long tls, int *child_tid);
/* fork.c: t is done with mm (exit, exec): wake a vfork parent, clear and
 * FUTEX_WAKE clear_child_tid (Linux's mm_release). */
struct mm_struct;
void mm_release(struct task_struct *t, struct mm_struct *mm);
/* sys.c: t's TLS entry from a user_desc (set_thread_area, CLONE_SETTLS). */
int do_set_thread_area(struct task_struct *t, void *u_info, int can_allocate);

/* exit.c */
void do_group_exit(int status) __attribute__((noreturn));   /* status: wait word */
/* exec in a thread group: the other tasks die, current becomes the leader
 * with its pid (Linux's de_thread).  0 or -EAGAIN. */
int de_thread(void);
/* status: kernel ptr; ru (kernel ptr, may be NULL): the reaped child's
 * struct rusage, its own use and its children's. */
struct rusage32;
long kernel_wait4(pid_t pid, int *status, int options, struct rusage32 *ru);
/* An mm leaving t (exit, exec): its peak resident set is kept as the
 * process's ru_maxrss. */
struct mm_struct;
void note_maxrss(struct task_struct *t, struct mm_struct *mm);
/* sys.c */
extern char system_utsname_release[];
/* What a task used (getrusage): the i386 struct rusage, two timevals and
 * 14 longs.  who: RUSAGE_SELF (its thread group), RUSAGE_THREAD,
 * RUSAGE_CHILDREN (its waited-for children and theirs), RUSAGE_BOTH
 * (the last two together: what wait4 reports of a child). */
struct rusage32 {
    long utime_sec, utime_usec, stime_sec, stime_usec;
    long maxrss, ixrss, idrss, isrss, minflt, majflt, nswap, inblock, oublock,
         msgsnd, msgrcv, nsignals, nvcsw, nivcsw;
};
#define RUSAGE_SELF     0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD   1
#define RUSAGE_BOTH     (-2)
void task_rusage(struct task_struct *t, int who, struct rusage32 *r);
#endif
