/* kernel/user_init.c: starting user space (process layer).  rest_init()
 * (called by kmain once every initcall ran) creates pid 1, which mounts
 * the root (the file layer's prepare_namespace), opens the console as
 * descriptors 0, 1, 2 and execs init= or the first of /sbin/init,
 * /etc/init, /bin/init, /bin/sh, as Linux's kernel_init().  pid 0 then
 * sleeps forever: the scheduler idles on whichever stack runs out of work.
 *
 * No init found: a clear message and a power off (Linux panics; halting a
 * teaching VM with the reason on the screen is kinder).
 */
#include <kernel.h>
#include <string.h>
#include <err.h>
#include <cmdline.h>
#include <sched.h>
#include <proc.h>
#include <fs.h>
#include <mm.h>                 /* totalram_pages */
#include <fdtable.h>
#include <do_mounts.h>          /* prepare_namespace, kernel_power_off */
#include <asm/irqflags.h>

struct fs_struct *copy_fs_struct(struct fs_struct *old);

/* pid 1's descriptors 0, 1, 2: /dev/console (Linux's console_on_rootfs). */
static void console_on_rootfs(void)
{
    struct task_struct *me = current;
    me->files = files_alloc();
    if (!me->files) {
        printk(KERN_ERR "init: no memory for a descriptor table\n");
        return;
    }
    struct file *f = filp_open("/dev/console", O_RDWR, 0);
    if (IS_ERR(f)) {
        printk(KERN_WARNING "init: cannot open /dev/console (error %ld): "
               "init runs without stdin/stdout/stderr\n", PTR_ERR(f));
        return;
    }
    for (unsigned fd = 0; fd < 3; fd++) {
        if (__alloc_fd(me->files, fd, NR_OPEN, 0) != (int)fd)
            break;
        __fd_install(me->files, fd, fd ? get_file(f) : f);
    }
}

static const char *const init_envp[] = {
    "HOME=/", "TERM=linux", "PATH=/sbin:/bin:/usr/bin:/tests", NULL
};

static int try_init(const char *path)
{
    const char *const argv[] = { path, NULL };
    int err = kernel_execve(path, argv, init_envp);
    if (err)
        printk(KERN_INFO "init: cannot run %s (error %d)\n", path, err);
    return err;
}

static int kernel_init(void *unused)
{
    prepare_namespace();                   /* mount root= (fs/do_mounts.c) */
    current->fs = copy_fs_struct(NULL);    /* its own root and cwd: "/" */
    console_on_rootfs();
    const char *init = cmdline_get("init");
    if (init && *init) {
        if (!try_init(init))
            return 0;
        printk(KERN_ERR "init: the init= program %s could not run; trying the defaults\n", init);
    }
    static const char *const defaults[] = { "/sbin/init", "/etc/init", "/bin/init", "/bin/sh" };
    for (unsigned i = 0; i < ARRAY_SIZE(defaults); i++)
        if (!try_init(defaults[i]))
            return 0;
    printk(KERN_EMERG "No working init found.  Try passing the init= option to the kernel "
           "(and check root=: is the root file system mounted?).\n");
    kernel_power_off();
}

/* nproc=N: at most N user processes, init included (so N >= 1).  Anything
 * that is not such a number keeps the default, with a warning: a limit of
 * 0 would leave no room for init itself. */
static int nproc_option(const char *v, int dflt)
{
    char *end;
    if (!v || !*v)
        return dflt;
    unsigned long n = simple_strtoul(v, &end, 10);
    if (*end || strlen(v) > 6 || n < 1 || n > 100000) {   /* 6 digits: no wrap */
        printk(KERN_WARNING "nproc=%s: not a number from 1 to 100000; using %d\n", v, dflt);
        return dflt;
    }
    return (int)n;
}

void rest_init(void)
{
    max_processes = nproc_option(cmdline_get("nproc"), max_processes);
    current->rlim_nproc[0] = current->rlim_nproc[1] = max_processes;   /* init inherits it */
    /* Linux's default RLIMIT_SIGPENDING (fork_init): half of max_threads,
     * the number of 8 KiB kernel stacks an eighth of the memory holds. */
    unsigned long max_threads = max(totalram_pages / (8 * 8192 / PAGE_SIZE), 20UL);
    current->rlim_sigpending[0] = current->rlim_sigpending[1] = max_threads / 2;
    struct task_struct *t = user_process_create(kernel_init, NULL, "init", 1);
    if (IS_ERR(t))
        panic("rest_init: cannot create init (%ld)", PTR_ERR(t));
    init_process = t;
    cpu_idle();
}
