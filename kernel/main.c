/* kernel/main.c: kmain(), where C begins.  Brings up the serial console and
 * the command line, runs the initcalls level by level (include/init.h), then
 * goes on to user space.  The test kernel (make check, make bench: built with
 * -DCONFIG_KTEST) may instead run the kernel tests (test=) or the benchmarks
 * (bench=); the production kernel has neither. */
#include <kernel.h>
#include <smp_lock.h>
#include <string.h>
#include <console.h>
#include <cmdline.h>
#include <multiboot.h>
#include <init.h>
#include <proc.h>                      /* max_processes */
#include <asm/layout.h>
#include <asm/irqflags.h>
#include <asm/io.h>
#ifdef CONFIG_KTEST
#include <ktest.h>
#endif

struct multiboot_info *boot_info;
unsigned long boot_pgdir_va;           /* the boot page directory (entry.S) */
extern const struct initcall __start_initcalls[], __stop_initcalls[];

static void run_initcalls(void)
{
    bool irqs_on = false;
    for (const struct initcall *c = __start_initcalls; c < __stop_initcalls; c++) {
        if (c->level >= 4 && !irqs_on) {
            local_irq_enable();        /* the timer and the scheduler exist now */
            irqs_on = true;
        }
        printk(KERN_DEBUG "initcall %d: %s\n", c->level, c->name);
        c->fn();
    }
    if (!irqs_on)
        local_irq_enable();
}

/* kernel/user_init.c: start pid 1 (init) and become the idle loop. */
void rest_init(void);

void kmain(uint32_t magic, uint32_t mbi_phys, unsigned long pgdir_va)
{
    serial_init();
    boot_pgdir_va = pgdir_va;
    if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
        panic("not booted by a Multiboot loader (magic %#x)", magic);
    boot_info = phys_to_virt(mbi_phys);
    cmdline_init(boot_info->flags & MB_INFO_CMDLINE ?
                 (const char *)phys_to_virt(boot_info->cmdline) : "");
    const char *ll = cmdline_get("loglevel");
    if (ll && *ll)
        console_loglevel = simple_strtoul(ll, NULL, 10);

    printk(KERN_NOTICE "Vellum 0.1 (i386, higher half at %#x)\n", KERNEL_BASE);
    printk(KERN_INFO "command line: %s\n", saved_command_line);

    lock_kernel();                     /* kmain is kernel code: include/smp_lock.h */
    run_initcalls();
    max_processes = default_max_processes();   /* RAM is known: Linux's fork_init */

#ifdef CONFIG_KTEST
    ktest_boot();                      /* test=/bench=: kernel/test/ktest.c */
#endif
    rest_init();
    panic("rest_init returned");
}
