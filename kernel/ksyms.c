/* kernel/ksyms.c: the kernel's symbol table (.ksyms, built by
 * tools/mkksyms.sh at link time) and frame-pointer stack walking, for oops
 * reports, panic(), task dumps and the watchdogs' reports.  Interface:
 * include/ksyms.h. */
#include <kernel.h>
#include <string.h>
#include <ksyms.h>
#include <sched.h>                     /* THREAD_SIZE */
#include <asm/layout.h>
#include <asm/ptrace.h>
#include <asm/traps.h>                 /* trap_return_address */

extern const unsigned long ksyms_count;
extern const unsigned long ksyms_addrs[];
extern const char ksyms_names[];
extern char _text[], _etext[];
extern char boot_stack[], boot_stack_top[];

/* The name of entry i: skip i NUL-terminated strings (linear, but only oops
 * and test paths use it). */
static const char *ksym_name(unsigned long i)
{
    const char *p = ksyms_names;
    while (i--)
        p += strlen(p) + 1;
    return p;
}

const char *ksym_lookup(unsigned long addr, unsigned long *offset, unsigned long *size)
{
    unsigned long n = ksyms_count;
    if (n == 0 || addr < ksyms_addrs[0] || addr >= (unsigned long)_etext)
        return NULL;
    /* binary search: the last entry with ksyms_addrs[i] <= addr */
    unsigned long lo = 0, hi = n;
    while (hi - lo > 1) {
        unsigned long mid = lo + (hi - lo) / 2;
        if (ksyms_addrs[mid] <= addr)
            lo = mid;
        else
            hi = mid;
    }
    /* Aliases share an address (the linker's _text and the first function):
     * report one whose name does not start with '_' if there is one.  The
     * end is the next distinct address (or the end of the text). */
    unsigned long i = lo;
    while (i > 0 && ksyms_addrs[i - 1] == ksyms_addrs[lo])
        i--;
    for (unsigned long k = i; k <= lo; k++)
        if (ksym_name(k)[0] != '_') {
            i = k;
            break;
        }
    unsigned long end = (unsigned long)_etext, j = lo + 1;
    while (j < n && ksyms_addrs[j] == ksyms_addrs[lo])
        j++;
    if (j < n)
        end = ksyms_addrs[j];
    if (addr < (unsigned long)_text && end > (unsigned long)_text)
        end = (unsigned long)_text;    /* last boot-section symbol: stop at .text */
    if (addr >= end)
        return NULL;
    if (offset)
        *offset = addr - ksyms_addrs[lo];
    if (size)
        *size = end - ksyms_addrs[lo];
    return ksym_name(i);
}

unsigned long ksym_address(const char *name)
{
    const char *p = ksyms_names;
    for (unsigned long i = 0; i < ksyms_count; i++, p += strlen(p) + 1)
        if (!strcmp(p, name))
            return ksyms_addrs[i];
    return 0;
}

int ksym_snprint(char *buf, size_t size, unsigned long addr)
{
    unsigned long off, sz;
    const char *name = ksym_lookup(addr, &off, &sz);
    if (!name)
        return snprintf(buf, size, "0x%08lx", addr);
    return snprintf(buf, size, "%s+0x%lx/0x%lx", name, off, sz);
}

static bool kernel_text_address(unsigned long addr)
{
    return addr >= (unsigned long)_text && addr < (unsigned long)_etext;
}

static unsigned long leaf_return_address(struct pt_regs *regs);

/* The trap frame above a frame whose return address is into common_entry
 * (do_trap's, or the function do_trap tail-called): entry.S pushed the
 * registers, then their address as do_trap's argument, then called.  NULL
 * unless it lies in [lo, hi) and interrupted kernel code (from user mode
 * there are no more kernel frames). */
static struct pt_regs *trap_frame(const unsigned long *frame, unsigned long lo, unsigned long hi)
{
    struct pt_regs *regs = (struct pt_regs *)&frame[3];
    if ((unsigned long)frame[2] != (unsigned long)regs ||
        (unsigned long)&regs->flags + sizeof regs->flags > hi || (unsigned long)regs < lo)
        return NULL;
    if (user_mode(regs) || !kernel_text_address(regs->ip))
        return NULL;
    return regs;
}

int walk_stack_bounded(unsigned long bp, unsigned long lo, unsigned long hi,
                       unsigned long *out, int max)
{
    int n = 0;
    unsigned long prev = 0;
    while (n < max) {
        if (bp < KERNEL_BASE || (bp & 3) || bp < lo || bp > hi - 8 || bp <= prev)
            break;                     /* outside the stack, or not going up */
        const unsigned long *frame = (const unsigned long *)bp;
        unsigned long ret = frame[1];
        if (!kernel_text_address(ret))
            break;
        out[n++] = ret;
        prev = bp;
        bp = frame[0];
        if (ret != trap_return_address)
            continue;
        /* A trap from kernel code: its instruction (exact, not a return
         * address), the caller a frameless function would lose, then the
         * interrupted code's own frame chain. */
        struct pt_regs *regs = trap_frame(frame, lo, hi);
        if (!regs)
            break;
        unsigned long leaf = leaf_return_address(regs);
        if (n < max)
            out[n++] = regs->ip;
        if (leaf && n < max)
            out[n++] = leaf;
        prev = (unsigned long)regs;
        bp = regs->bp;
    }
    return n;
}

/* The kernel stack holding the current stack pointer: the boot stack, or a
 * THREAD_SIZE-aligned task stack (include/sched.h). */
static void current_stack_bounds(unsigned long *lo, unsigned long *hi)
{
    unsigned long sp = (unsigned long)__builtin_frame_address(0);
    if (sp >= (unsigned long)boot_stack && sp < (unsigned long)boot_stack_top) {
        *lo = (unsigned long)boot_stack;
        *hi = (unsigned long)boot_stack_top;
    } else {
        *lo = sp & ~(unsigned long)(THREAD_SIZE - 1);
        *hi = *lo + THREAD_SIZE;
    }
}

int walk_stack(unsigned long bp, unsigned long *out, int max)
{
    unsigned long lo, hi;
    current_stack_bounds(&lo, &hi);
    return walk_stack_bounded(bp, lo, hi, out, max);
}

int __attribute__((noinline)) save_stack_trace(unsigned long *out, int max)
{
    return walk_stack((unsigned long)__builtin_frame_address(0), out, max);
}

static void print_trace(const unsigned long *trace, int n)
{
    char sym[96];
    printk(KERN_EMERG "Call Trace:\n");
    for (int i = 0; i < n; i++) {
        /* A return address may point just past the end of its function
         * (a call to a noreturn function is the last instruction): name the
         * function containing the call, addr - 1, as Linux does. */
        unsigned long off, size;
        const char *name = ksym_lookup(trace[i] - 1, &off, &size);
        if (name)
            snprintf(sym, sizeof sym, "%s+0x%lx/0x%lx", name, off + 1, size);
        else
            snprintf(sym, sizeof sym, "0x%08lx", trace[i]);
        printk(KERN_EMERG "  [<%08lx>] %s\n", trace[i], sym);
    }
    if (n == STACK_TRACE_DEPTH)
        printk(KERN_EMERG "  ... (truncated)\n");
}

void show_trace(unsigned long bp)
{
    unsigned long trace[STACK_TRACE_DEPTH];
    print_trace(trace, walk_stack(bp, trace, STACK_TRACE_DEPTH));
}

void __attribute__((noinline)) dump_stack(void)
{
    show_trace((unsigned long)__builtin_frame_address(0));
}

/* Does the code just before ret call something: a direct call (e8 rel32)
 * of start, or an indirect call (ff /2: through a register, or a pointer
 * in memory, as a_ops->write_begin(...) compiles)? */
static bool returns_from_call(unsigned long ret, unsigned long start)
{
    if (!kernel_text_address(ret - 6) || !kernel_text_address(ret - 1))
        return false;
    const unsigned char *c = (const unsigned char *)ret;
    long rel;
    memcpy(&rel, c - 4, sizeof rel);
    if (c[-5] == 0xe8)
        return ret + rel == start;
    if (c[-2] == 0xff && (c[-1] & 0xf8) == 0xd0)            /* call *%reg */
        return true;
    if (c[-3] == 0xff && (c[-2] & 0xf8) == 0x50)            /* call *disp8(%reg) */
        return true;
    return c[-6] == 0xff && ((c[-5] & 0xf8) == 0x90 || c[-5] == 0x15);  /* disp32, abs */
}

/* The return address of an interrupted function that has no frame of its
 * own: interrupted before its "push %ebp; mov %esp,%ebp" is done, or a
 * leaf function that gcc gave no frame.  regs->bp is then still its
 * caller's frame, whose chain starts one caller too high, and the missing
 * return address is on the stack between the interrupted esp and that
 * frame: right at esp (or above the pushed ebp) in a prologue, else the
 * first word there that returns from a call of the function; 0 if none
 * (the function has its frame). */
static unsigned long leaf_return_address(struct pt_regs *regs)
{
    unsigned long off, start;
    if (!ksym_lookup(regs->ip, &off, NULL))
        return 0;
    start = regs->ip - off;
    unsigned long *sp = (unsigned long *)kernel_stack_pointer(regs);
    const unsigned char *f = (const unsigned char *)start;
    if (f[0] == 0x55 && off < 3) {                       /* push %ebp; mov %esp,%ebp */
        unsigned long ret = sp[off == 0 ? 0 : 1];
        return returns_from_call(ret, start) ? ret : 0;
    }
    for (int k = 0; k < 16 && (unsigned long)(sp + k) < regs->bp; k++)
        if (returns_from_call(sp[k], start))
            return sp[k];
    return 0;
}

void show_regs_call_trace(struct pt_regs *regs)
{
    unsigned long trace[STACK_TRACE_DEPTH];
    int n = 0;
    if (user_mode(regs)) {
        printk(KERN_EMERG "Call Trace:\n  <user mode: no kernel frames>\n");
        return;
    }
    unsigned long leaf = leaf_return_address(regs);
    if (leaf)
        trace[n++] = leaf;
    n += walk_stack(regs->bp, trace + n, STACK_TRACE_DEPTH - n);
    print_trace(trace, n);
}

void show_regs_trace(struct pt_regs *regs)
{
    char sym[96];
    ksym_snprint(sym, sizeof sym, regs->ip);
    printk(KERN_EMERG "EIP: %s\n", sym);
    show_regs_call_trace(regs);
}
