/* kernel/ksyms.c: the kernel's symbol table (.ksyms, built by
 * tools/mkksyms.sh at link time) and frame-pointer stack walking, for oops
 * reports, panic() and task dumps.  Interface: include/ksyms.h. */
#include <kernel.h>
#include <string.h>
#include <ksyms.h>
#include <sched.h>                     /* THREAD_SIZE */
#include <asm/layout.h>

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

void show_trace(unsigned long bp)
{
    unsigned long trace[STACK_TRACE_DEPTH];
    char sym[96];
    int n = walk_stack(bp, trace, STACK_TRACE_DEPTH);
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

void __attribute__((noinline)) dump_stack(void)
{
    show_trace((unsigned long)__builtin_frame_address(0));
}
