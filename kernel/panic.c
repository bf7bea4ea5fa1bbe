/* kernel/panic.c: the kernel's last words.  panic() prints the message,
 * then (under tests) leaves QEMU with a failure status, else halts. */
#include <kernel.h>
#include <console.h>
#include <asm/io.h>
#include <asm/irqflags.h>

void panic(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    local_irq_disable();
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
    qemu_exit(3);
}
