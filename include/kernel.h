/* include/kernel.h: what every kernel file needs: printk and its log levels,
 * panic/BUG_ON, and small helper macros. */
#ifndef _KERNEL_H
#define _KERNEL_H
#include <types.h>

/* Log levels, as Linux spells them: a "<N>" prefix on the format. */
#define KERN_EMERG   "<0>"
#define KERN_ALERT   "<1>"
#define KERN_CRIT    "<2>"
#define KERN_ERR     "<3>"
#define KERN_WARNING "<4>"
#define KERN_NOTICE  "<5>"
#define KERN_INFO    "<6>"
#define KERN_DEBUG   "<7>"

int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a backtrace of the caller (kernel/ksyms.c). */
void dump_stack(void);
int vprintk(const char *fmt, va_list ap);
/* printk's %pV (Linux's): prints fmt with the arguments *va, so that a
 * function taking (fmt, ...) can put its caller's message inside its own
 * line without formatting it into a buffer first:
 *   struct va_format vaf = { fmt, &ap };  printk("x: %pV\n", &vaf); */
struct va_format {
    const char *fmt;
    va_list *va;
};
extern volatile unsigned long printk_count;   /* printk calls so far */
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
extern int console_loglevel;           /* messages with level < this are shown */
/* Copy the log ring (dmesg) into buf; returns bytes copied. */
size_t log_read(char *buf, size_t size);

void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* ---- the invariant policy -------------------------------------------
 * BUG_ON(cond): a broken contract, a state the code's own rules say cannot
 * happen (unlock_page of an unlocked page, write_end committing more than
 * was copied, a page added to the cache unlocked, an iov_iter advanced past
 * its count).  Going on would corrupt data, so it stops: one line
 * "kernel BUG at FILE:LINE!", the condition, a backtrace, then panic (under
 * test= and oops= QEMU exits with a failure status).  Linux kills the task
 * and may go on; Vellum's oopses all stop the machine (kernel/traps.c).
 * WARN_ON(cond): survivable oddity (a caller's misuse the kernel can undo,
 * a counter that should not be zero): "WARNING: cond at FILE:LINE" and a
 * backtrace, then go on; it returns cond, for if (WARN_ON(...)) recover.
 * Never printk-and-continue for either: the one-line report with file:line
 * and backtrace is what makes the bug findable.  Bad system-call arguments
 * are neither: they are -EINVAL/-EFAULT.  docs/boot-and-cpu.md ("BUG_ON and
 * WARN_ON") says the same. */
void bug_at(const char *file, int line, const char *cond) __attribute__((noreturn));
void warn_at(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define BUG() bug_at(__FILE__, __LINE__, NULL)
#define BUG_ON(cond) do { if (__builtin_expect(!!(cond), 0)) \
        bug_at(__FILE__, __LINE__, #cond); } while (0)
#define WARN_ON(cond) ({ int __w = !!(cond);                          \
        if (__builtin_expect(__w, 0)) {                                   \
            warn_at(__FILE__, __LINE__, "%s", #cond);                     \
        }                                                                 \
        __w; })
/* WARN(cond, fmt, ...): WARN_ON with a message saying what was wrong. */
#define WARN(cond, ...) ({ int __w = !!(cond);                        \
        if (__builtin_expect(__w, 0)) {                                   \
            warn_at(__FILE__, __LINE__, __VA_ARGS__);                     \
        }                                                                 \
        __w; })

#define ARRAY_SIZE(a)   (sizeof(a) / sizeof((a)[0]))
#define min(a, b)       ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b)       ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b)  min((t)(a), (t)(b))
#define max_t(t, a, b)  max((t)(a), (t)(b))
#define ALIGN_UP(x, a)  (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define container_of(ptr, type, member) \
        ((type *)((char *)(ptr) - offsetof(type, member)))
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __unused    __attribute__((unused))
/* A function the compiler treats as opaque: never inlined, and nothing is
 * inferred from its body (that it never returns, say), so that a rare slow
 * path is a tail jump from a hot one that then needs no stack frame
 * (kernel/spinlock.c).  gcc's noipa; clang infers less and has no noipa. */
#ifdef __clang__
#define __noipa     __attribute__((noinline))
#else
#define __noipa     __attribute__((noipa))
#endif
#define __packed    __attribute__((packed))
#define barrier()   __asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x)     (*(volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
/* Count an event in a statistics counter that code on several CPUs bumps
 * with no lock in common (a `lock add`: no increment lost).  Linux keeps
 * such counters per CPU and sums them when read (count_vm_event). */
#define stat_inc(counter) __atomic_add_fetch(&(counter), 1, __ATOMIC_RELAXED)

/* Power and test exits (kernel/x86/power.c). */
void machine_power_off(void) __attribute__((noreturn));
/* Under tests: leave QEMU through isa-debug-exit with status (code<<1)|1. */
void qemu_exit(int code) __attribute__((noreturn));

#endif
