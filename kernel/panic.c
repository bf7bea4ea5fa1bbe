/* kernel/panic.c: the kernel's last words.  panic() prints the message and
 * a backtrace of its caller, then (in the test kernel, under test= or oops=)
 * leaves QEMU with a failure status (7 = qemu_exit(3)); else, booted with
 * panic=N (Linux's option), powers the machine off after N seconds (at once
 * if N < 0: a host test's QEMU then ends instead of waiting for its
 * time-out; Vellum's reboot is a power-off, kernel/sys.c), or halts.  die()
 * (kernel/x86/traps.c) ends here too, through panic_halt().  Format: see
 * kernel/x86/traps.c. */
#include <kernel.h>
#include <console.h>
#include <cmdline.h>
#include <init.h>
#include <string.h>
#include <ksyms.h>
#include <timer.h>
#include <smp.h>
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/traps.h>

bool under_test(void)
{
#ifdef CONFIG_KTEST
    return cmdline_get("test") != NULL || cmdline_get("oops") != NULL;
#else
    return false;                      /* test= and oops= are the test kernel's */
#endif
}

static int panic_timeout;              /* panic=N: seconds; 0 halts */

static void panic_setup(void)
{
    const char *v = cmdline_get("panic");
    if (v && *v)
        panic_timeout = *v == '-' ? -1 : (int)simple_strtoul(v, NULL, 10);
}
core_initcall(panic_setup);

static volatile int panic_nest;

/* After the "Kernel panic" line: leave QEMU (under test), power off
 * (panic=N) or stop here. */
static void __attribute__((noreturn)) panic_end(void)
{
    if (under_test())
        qemu_exit(3);
    if (panic_timeout) {
        if (panic_timeout > 0) {
            printk(KERN_EMERG "Powering off in %d seconds..\n", panic_timeout);
            mdelay((unsigned long)panic_timeout * 1000);
        }
        machine_power_off();
    }
    printk(KERN_EMERG "---[ end Kernel panic - not syncing ]---\n");
    serial_flush();
    for (;;)
        hlt();
}

void panic_halt(const char *msg)
{
    local_irq_disable();
    printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
    panic_end();
}

/* BUG()/BUG_ON() (include/kernel.h): one BUG line, then panic's backtrace. */
void bug_at(const char *file, int line, const char *cond)
{
    local_irq_disable();
    printk(KERN_EMERG "kernel BUG at %s:%d!\n", file, line);
    if (cond)
        panic("BUG_ON(%s)", cond);
    panic("BUG()");
}

/* WARN_ON()/WARN() (include/kernel.h): report with a backtrace, and go on. */
void warn_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    smp_send_stop();                   /* the other CPUs stop here, not printing on */
    va_start(ap, fmt);
    struct va_format vaf = { fmt, &ap };
    printk(KERN_WARNING "WARNING: %pV at %s:%d\n", &vaf, file, line);
    va_end(ap);
    dump_stack();
}

void panic(const char *fmt, ...)
{
    va_list ap;
    local_irq_disable();
    if (panic_nest++) {
        /* panic while panicking (say the backtrace faulted): no more frills */
        if (panic_nest == 2)
            panic_halt("nested panic");
        for (;;)
            hlt();
    }
    smp_send_stop();                   /* the other CPUs stop here, not printing on */
    va_start(ap, fmt);
    struct va_format vaf = { fmt, &ap };
    printk(KERN_EMERG "Kernel panic - not syncing: %pV\n", &vaf);
    va_end(ap);
    show_trace((unsigned long)__builtin_frame_address(0));
    panic_end();
}
