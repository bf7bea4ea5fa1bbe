/* kernel/exec.c: execve of static ELF32 i386 programs (process layer).
 *
 * Sits on the VFS (filp_open/kernel_read: the program file), the
 * address-space layer (mm_alloc, do_mmap, do_mprotect, setup_stack_vma,
 * access_remote_vm, use_mm, mmput) and the file layer (close-on-exec).
 *
 * The steps, as Linux's do_execveat_common + load_elf_binary:
 *   1. copy the path, argv and envp strings into the kernel (the old
 *      address space is still there and may hold them);
 *   2. open the file, read and check the ELF header and program headers
 *      (ELF32, little-endian, i386, ET_EXEC: static programs only);
 *   3. build a NEW mm: every PT_LOAD segment an anonymous private mapping,
 *      filled from the file (the tail of the last page and the bss stay
 *      zero: demand-zero pages), then given the segment's protection; the
 *      heap starts after the highest segment; the stack VMA ends at
 *      STACK_TOP with argc/argv/envp/auxv laid out as Linux lays them out;
 *   4. in a thread group, kill the other threads and take the leader's
 *      pid (de_thread, kernel/exit.c); then the point of no return: switch
 *      current to the new mm and drop the old one (mm_release: a vfork
 *      parent wakes), reset signal handlers, TLS, FPU, close FD_CLOEXEC
 *      descriptors;
 *   5. set the user registers: eip = e_entry, esp = the new stack, the
 *      user segments, eflags with IF; every other register 0.
 * Failure before step 4 returns -errno with the caller untouched.
 *
 * Simplification: segments are copied in at exec time instead of being
 * mapped from the page cache as Linux maps them.
 *
 * The initial stack (higher addresses first):
 *
 *   STACK_TOP  ->  0 (4 bytes)
 *                  execfn string (AT_EXECFN)
 *                  envp strings, argv strings      (env_end .. arg_start)
 *                  "i686" (AT_PLATFORM), 16 random bytes (AT_RANDOM)
 *                  padding to 16 bytes
 *                  auxv pairs ... AT_NULL, 0
 *                  0, envp[envc-1] ... envp[0]
 *                  0, argv[argc-1] ... argv[0]
 *   esp        ->  argc                          (16-byte aligned)
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <sched.h>
#include <signal.h>
#include <slab.h>
#include <mm.h>
#include <asm/mman.h>
#include <fs.h>
#include <elf.h>
#include <proc.h>
#include <fdtable.h>
#include <syscalls.h>
#include <asm/uaccess.h>
#include <asm/segment.h>
#include <asm/irqflags.h>
#include <asm/fpu.h>

#define MAX_ARG_STRLEN  (PAGE_SIZE * 8)   /* one argument (Linux: 32 pages) */
#define MAX_ARG_BYTES   (128 * 1024)      /* all of argv + envp (Linux: 1/4 of the stack rlimit) */
#define MAX_ARGS        4096
#define STACK_INITIAL   (128 * 1024)      /* first stack VMA; grows on faults */
#define MAX_PHNUM       64

uint32_t get_random_u32(void);           /* kernel/sys.c */
void get_random_bytes(void *buf, size_t n);

/* ---- programs without a file system ------------------------------------ */

struct builtin_binary {
    const char *path;
    const void *image;
    size_t size;
};
static struct builtin_binary builtins[16];
static int nr_builtins;

void register_builtin_binary(const char *path, const void *image, size_t size)
{
    if (nr_builtins < (int)ARRAY_SIZE(builtins))
        builtins[nr_builtins++] = (struct builtin_binary){ path, image, size };
}

/* The program file: a VFS file, or a builtin image. */
struct exec_file {
    struct file *file;
    const uint8_t *image;
    size_t size;
};

/* May this inode be executed?  Only a regular file the caller may execute
 * (Linux's do_open_execat: inode_permission with MAY_EXEC, where root's
 * CAP_DAC_OVERRIDE still needs one x bit); a directory, a device, a FIFO:
 * -EACCES. */
static int may_exec(struct inode *inode)
{
    if (!S_ISREG(inode->i_mode))
        return -EACCES;
    return inode_permission(inode, MAY_EXEC);
}

static int exec_open(struct exec_file *ef, const char *path)
{
    memset(ef, 0, sizeof *ef);
    struct file *f = filp_open(path, O_RDONLY | O_LARGEFILE | __FMODE_EXEC, 0);   /* do_open_execat */
    if (!IS_ERR(f)) {
        int err = may_exec(f->f_inode);
        if (err) {
            filp_close(f);
            return err;
        }
        ef->file = f;
        return 0;
    }
    for (int i = 0; i < nr_builtins; i++)
        if (!strcmp(builtins[i].path, path)) {
            ef->image = builtins[i].image;
            ef->size = builtins[i].size;
            return 0;
        }
    return PTR_ERR(f);
}

/* Read exactly len bytes at off: 0 or -ENOEXEC/-EIO. */
static int exec_read(struct exec_file *ef, unsigned long off, void *buf, size_t len)
{
    if (ef->image) {
        if (off > ef->size || len > ef->size - off)
            return -ENOEXEC;
        memcpy(buf, ef->image + off, len);
        return 0;
    }
    loff_t pos = off;
    ssize_t n = kernel_read(ef->file, buf, len, &pos);
    if (n < 0)
        return n;
    return (size_t)n == len ? 0 : -ENOEXEC;
}

static void exec_close(struct exec_file *ef)
{
    if (ef->file)
        filp_close(ef->file);
}

/* ---- arguments ------------------------------------------------------------- */

/* argv and envp strings, copied into one kernel buffer, back to back. */
struct linux_binprm {
    char *buf;                         /* strings, each NUL-terminated */
    size_t used, cap;
    int argc, envc;
    size_t argbytes;                   /* bytes of the argv strings */
    const char *filename;              /* kernel copy of the path */
    Elf32_Ehdr eh;
    Elf32_Phdr ph[MAX_PHNUM];
    struct cred cred;                  /* the ids the new program runs with
                                          (exec_creds), installed at the
                                          point of no return */
};

static int bprm_add(struct linux_binprm *b, const char *s, bool user)
{
    long len;
    if (user) {
        len = strnlen_user(s, MAX_ARG_STRLEN);
        if (!len)
            return -EFAULT;
        if (len > MAX_ARG_STRLEN)
            return -E2BIG;
    } else {
        len = strlen(s) + 1;
    }
    if (b->used + len > b->cap)
        return -E2BIG;
    if (user) {
        if (strncpy_from_user(b->buf + b->used, s, len) != len - 1)
            return -EFAULT;
    } else {
        memcpy(b->buf + b->used, s, len);
    }
    b->used += len;
    return 0;
}

/* Copy a NULL-terminated array of strings (user or kernel). */
static int bprm_copy_strings(struct linux_binprm *b, const char *const *v, bool user, int *count)
{
    *count = 0;
    if (!v)
        return 0;
    for (;;) {
        const char *s;
        if (user) {
            if (get_user(s, v + *count))
                return -EFAULT;
        } else {
            s = v[*count];
        }
        if (!s)
            return 0;
        if (*count >= MAX_ARGS)
            return -E2BIG;
        int err = bprm_add(b, s, user);
        if (err)
            return err;
        (*count)++;
    }
}

/* ---- the ELF file -------------------------------------------------------- */

static int check_elf(struct linux_binprm *b, struct exec_file *ef)
{
    Elf32_Ehdr *eh = &b->eh;
    int err = exec_read(ef, 0, eh, sizeof *eh);
    if (err)
        return err == -ENOEXEC ? -ENOEXEC : err;
    if (memcmp(eh->e_ident, ELFMAG, 4) || eh->e_ident[EI_CLASS] != ELFCLASS32 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_386)
        return -ENOEXEC;
    if (eh->e_type != ET_EXEC) {
        printk(KERN_INFO "exec: %s: not a static executable (e_type %u): "
               "only ET_EXEC is supported\n", b->filename, eh->e_type);
        return -ENOEXEC;
    }
    if (eh->e_phentsize != sizeof(Elf32_Phdr) || !eh->e_phnum || eh->e_phnum > MAX_PHNUM)
        return -ENOEXEC;
    err = exec_read(ef, eh->e_phoff, b->ph, eh->e_phnum * sizeof(Elf32_Phdr));
    if (err)
        return err;
    for (int i = 0; i < eh->e_phnum; i++) {
        Elf32_Phdr *p = &b->ph[i];
        if (p->p_type == PT_INTERP) {
            printk(KERN_INFO "exec: %s: needs a dynamic loader: not supported\n", b->filename);
            return -ENOEXEC;
        }
        if (p->p_type != PT_LOAD)
            continue;
        if (p->p_filesz > p->p_memsz || p->p_vaddr >= TASK_SIZE ||
            p->p_memsz > TASK_SIZE - p->p_vaddr || p->p_vaddr + p->p_memsz > STACK_TOP - (8UL << 20) ||
            (p->p_offset & ~PAGE_MASK) != (p->p_vaddr & ~PAGE_MASK))
            return -ENOEXEC;
    }
    return 0;
}

static unsigned long prot_of(const Elf32_Phdr *p)
{
    return (p->p_flags & PF_R ? PROT_READ : 0) | (p->p_flags & PF_W ? PROT_WRITE : 0) |
           (p->p_flags & PF_X ? PROT_EXEC : 0);
}

/* Map and fill every PT_LOAD segment of the new mm.  Returns the address
 * of the program headers in memory (AT_PHDR) through *phdr_addr. */
static int load_segments(struct linux_binprm *b, struct exec_file *ef, struct mm_struct *mm,
                         unsigned long *phdr_addr)
{
    void *page = (void *)__get_free_page(GFP_KERNEL);
    unsigned long prev_end = 0, brk = 0;
    int err = 0;
    if (!page)
        return -ENOMEM;
    *phdr_addr = 0;
    mm->start_code = ~0UL;
    for (int i = 0; i < b->eh.e_phnum; i++) {
        Elf32_Phdr *p = &b->ph[i];
        if (p->p_type == PT_PHDR)
            *phdr_addr = p->p_vaddr;
        if (p->p_type != PT_LOAD || !p->p_memsz)
            continue;
        unsigned long start = p->p_vaddr & PAGE_MASK;
        unsigned long end = PAGE_ALIGN(p->p_vaddr + p->p_memsz);
        /* Two segments may share a page (text end, data start): map only
         * what is not mapped yet; the shared page gets both protections. */
        if (start < prev_end)
            start = prev_end;
        if (end > start) {
            long r = do_mmap(mm, NULL, start, end - start, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, 0);
            if (r < 0) {
                err = r;
                goto out;
            }
            prev_end = end;
        }
        /* Copy the file part in, a page at a time. */
        for (unsigned long done = 0; done < p->p_filesz; ) {
            unsigned long n = p->p_filesz - done;
            if (n > PAGE_SIZE)
                n = PAGE_SIZE;
            err = exec_read(ef, p->p_offset + done, page, n);
            if (err)
                goto out;
            if (access_remote_vm(mm, p->p_vaddr + done, page, n, 1) != (int)n) {
                err = -ENOMEM;
                goto out;
            }
            done += n;
        }
        if (!*phdr_addr && b->eh.e_phoff >= p->p_offset &&
            b->eh.e_phoff < p->p_offset + p->p_filesz)
            *phdr_addr = p->p_vaddr + (b->eh.e_phoff - p->p_offset);
        if (p->p_flags & PF_X) {
            if (p->p_vaddr < mm->start_code)
                mm->start_code = p->p_vaddr;
            if (p->p_vaddr + p->p_filesz > mm->end_code)
                mm->end_code = p->p_vaddr + p->p_filesz;
        } else if (p->p_flags & PF_W) {
            if (!mm->start_data || p->p_vaddr < mm->start_data)
                mm->start_data = p->p_vaddr;
            if (p->p_vaddr + p->p_filesz > mm->end_data)
                mm->end_data = p->p_vaddr + p->p_filesz;
        }
        if (end > brk)
            brk = end;
    }
    /* Final protections; a page shared by two segments gets the union. */
    unsigned long last_end = 0, last_prot = 0;
    for (int i = 0; i < b->eh.e_phnum; i++) {
        Elf32_Phdr *p = &b->ph[i];
        if (p->p_type != PT_LOAD || !p->p_memsz)
            continue;
        unsigned long start = p->p_vaddr & PAGE_MASK;
        unsigned long end = PAGE_ALIGN(p->p_vaddr + p->p_memsz);
        unsigned long prot = prot_of(p);
        err = do_mprotect(mm, start, end - start, prot);
        if (!err && start < last_end)
            err = do_mprotect(mm, start, PAGE_SIZE, prot | last_prot);
        if (err)
            goto out;
        last_end = end;
        last_prot = prot;
    }
    if (mm->start_code == ~0UL)
        mm->start_code = mm->end_code = 0;
    mm->start_brk = mm->brk = brk;
out:
    free_page((unsigned long)page);
    return err;
}

/* Lay out argc, argv, envp, auxv and the strings below STACK_TOP. */
static int setup_stack(struct linux_binprm *b, struct mm_struct *mm, unsigned long phdr_addr,
                       unsigned long *sp_out)
{
    size_t fnlen = strlen(b->filename) + 1;
    unsigned long p = STACK_TOP - 4;
    unsigned long execfn = p - fnlen;
    unsigned long strings = execfn - b->used;
    unsigned long platform = (strings - 5) & ~3UL;
    unsigned long random = platform - 16;
    unsigned long auxv[2 * 20];
    int na = 0;
#define AUX(t, v) do { auxv[na++] = (t); auxv[na++] = (v); } while (0)
    AUX(AT_HWCAP, 0x0183F3FF & 0);     /* no feature bits promised (glibc uses cpuid) */
    AUX(AT_PAGESZ, PAGE_SIZE);
    AUX(AT_CLKTCK, 100);
    AUX(AT_PHDR, phdr_addr);
    AUX(AT_PHENT, sizeof(Elf32_Phdr));
    AUX(AT_PHNUM, b->eh.e_phnum);
    AUX(AT_BASE, 0);
    AUX(AT_FLAGS, 0);
    AUX(AT_ENTRY, b->eh.e_entry);
    AUX(AT_UID, b->cred.uid);
    AUX(AT_EUID, b->cred.euid);
    AUX(AT_GID, b->cred.gid);
    AUX(AT_EGID, b->cred.egid);
    /* A set-ID exec (the new effective ids are not the real ones): the C
     * library then ignores LD_* and the like (Linux's bprm->secureexec). */
    AUX(AT_SECURE, b->cred.euid != b->cred.uid || b->cred.egid != b->cred.gid);
    AUX(AT_RANDOM, random);
    AUX(AT_EXECFN, execfn);
    AUX(AT_PLATFORM, platform);
    AUX(AT_NULL, 0);
#undef AUX
    size_t nptr = 1 + (b->argc + 1) + (b->envc + 1) + na;
    unsigned long sp = ((random & ~15UL) - nptr * 4) & ~15UL;
    size_t size = STACK_TOP - sp;
    if (size > STACK_INITIAL)
        return -E2BIG;
    uint8_t *img = kzalloc(size, GFP_KERNEL);
    if (!img)
        return -ENOMEM;
#define AT(addr) (img + ((addr) - sp))
    memcpy(AT(execfn), b->filename, fnlen);
    memcpy(AT(strings), b->buf, b->used);
    memcpy(AT(platform), "i686", 5);
    get_random_bytes(AT(random), 16);
    uint32_t *w = (uint32_t *)AT(sp);
    *w++ = b->argc;
    unsigned long s = strings;
    for (int i = 0; i < b->argc; i++) {
        *w++ = s;
        s += strlen(b->buf + (s - strings)) + 1;
    }
    *w++ = 0;
    for (int i = 0; i < b->envc; i++) {
        *w++ = s;
        s += strlen(b->buf + (s - strings)) + 1;
    }
    *w++ = 0;
    for (int i = 0; i < na; i++)
        *w++ = auxv[i];
#undef AT
    int err = setup_stack_vma(mm, STACK_TOP, STACK_INITIAL);
    if (!err && access_remote_vm(mm, sp, img, size, 1) != (int)size)
        err = -ENOMEM;
    kfree(img);
    mm->start_stack = sp;
    mm->arg_start = strings;
    mm->arg_end = mm->env_start = strings + b->argbytes;
    mm->env_end = strings + b->used;
    *sp_out = sp;
    return err;
}

static int do_execve_common(const char *filename, const char *const *argv,
                            const char *const *envp, bool user)
{
    struct task_struct *me = current;
    struct exec_file ef;
    struct mm_struct *mm = NULL;
    unsigned long phdr_addr, sp;
    int err;

    if (!me->is_process)
        return -EINVAL;
    struct linux_binprm *b = kzalloc(sizeof *b, GFP_KERNEL);
    if (!b)
        return -ENOMEM;
    b->cap = MAX_ARG_BYTES;
    b->buf = kmalloc(b->cap, GFP_KERNEL);
    char *fname = kmalloc(PAGE_SIZE, GFP_KERNEL);
    err = -ENOMEM;
    if (!b->buf || !fname)
        goto out_free;
    if (user) {
        long n = strncpy_from_user(fname, filename, PAGE_SIZE);
        err = n < 0 ? n : n >= PAGE_SIZE ? -ENAMETOOLONG : 0;
        if (err)
            goto out_free;
    } else {
        strlcpy(fname, filename, PAGE_SIZE);
    }
    if (!fname[0]) {
        err = -ENOENT;
        goto out_free;
    }
    b->filename = fname;
    err = bprm_copy_strings(b, argv, user, &b->argc);
    if (err)
        goto out_free;
    /* An empty argv (or NULL) gives the program argc 1 and argv[0] "", as
     * Linux since 5.18: too many programs take argv[0] on trust, and
     * argv[1] would then be the first environment string. */
    if (b->argc == 0) {
        err = bprm_add(b, "", false);
        if (err)
            goto out_free;
        b->argc = 1;
    }
    b->argbytes = b->used;
    err = bprm_copy_strings(b, envp, user, &b->envc);
    if (err)
        goto out_free;

    err = exec_open(&ef, fname);
    if (err)
        goto out_free;
    b->cred = me->cred;
    exec_creds(&b->cred, ef.file ? ef.file->f_inode : NULL);
    err = check_elf(b, &ef);
    if (err)
        goto out_close;
    err = -ENOMEM;
    mm = mm_alloc();
    if (!mm)
        goto out_close;
    err = load_segments(b, &ef, mm, &phdr_addr);
    if (!err)
        err = setup_stack(b, mm, phdr_addr, &sp);
    if (err)
        goto out_mm;
    err = de_thread();                 /* the other threads die: we are the process */
    if (err)
        goto out_mm;

    /* ---- point of no return ---- */
    me->cred = b->cred;                /* set-ID bits applied (include/cred.h) */
    me->did_exec = 1;                  /* setpgid from the parent: -EACCES now */
    /* A program that gained ids is not dumpable (Linux: suid_dumpable, 0
     * by default); the new mm is otherwise. */
    mm->not_dumpable = b->cred.euid != b->cred.uid || b->cred.egid != b->cred.gid;
    mm->exe_file = ef.file;            /* the new image keeps its file (and with it
                                          the deny-write, FMODE_EXEC) until mmput */
    ef.file = NULL;
    /* mm_release in the old address space: robust mutexes, clear_child_tid
     * (both user memory there), and a vfork parent wakes. */
    mm_release(me, me->mm);
    struct mm_struct *old = use_mm(mm);
    if (old)
        note_maxrss(me, old);          /* the old image's peak: ru_maxrss */
    mmput(old);
    const char *base = strrchr(fname, '/');
    strlcpy(me->comm, base ? base + 1 : fname, TASK_COMM_LEN);
    flush_signal_handlers(me);
    if (me->files)
        do_close_on_exec(me->files);
    unsigned long flags = local_irq_save();
    memset(me->tls_array, 0, sizeof me->tls_array);
    load_TLS(me->tls_array);
    /* The old program's %gs may still select a TLS entry we just emptied;
     * an interrupt would save that selector and fault popping it back
     * (restore_all).  Load a null selector now, as Linux's start_thread
     * does; the new program sets its own with set_thread_area.  (%fs is
     * the kernel's per-CPU segment here; the new program's is the frame's,
     * zeroed below.) */
    loadsegment(gs, 0);
    local_irq_restore(flags);
    fpu_flush_thread();

    struct pt_regs *regs = current_pt_regs();
    memset(regs, 0, sizeof *regs);
    regs->ip = b->eh.e_entry;
    regs->sp = sp;
    regs->cs = __USER_CS;
    regs->ss = regs->ds = regs->es = __USER_DS;
    regs->flags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
    regs->trapno = (unsigned long)-1;
    err = 0;
    goto out_free;

out_mm:
    mmput(mm);
out_close:
    exec_close(&ef);
out_free:
    if (b)
        kfree(b->buf);
    kfree(b);
    kfree(fname);
    return err;
}

int kernel_execve(const char *path, const char *const argv[], const char *const envp[])
{
    return do_execve_common(path, argv, envp, false);
}

long sys_execve(const char *filename, const char *const *argv, const char *const *envp)
{
    return do_execve_common(filename, argv, envp, true);
}
