/* kernel/oops_test.c: deliberate crashes on request, to see (and test) the
 * oops and panic reports.  Boot option oops=KIND, run as a late initcall:
 *
 *   oops=null    NULL pointer write in oops_null_deref()   -> page fault, CR2 0
 *   oops=write   write to a read-only kernel page in oops_write_ro() if the
 *                page tables have one (mm maps .rodata read-only), else a
 *                write to the never-mapped top 4 MiB       -> page fault
 *   oops=divide  division by zero in oops_divide()         -> divide error
 *   oops=panic   panic() from oops_panic()
 *   oops=bug     BUG_ON() in oops_bug()
 *   oops=nested  a console whose write faults: the oops report itself faults,
 *                and die() must notice the recursion and stop
 *
 * Every kind ends with "Kernel panic - not syncing" and QEMU exit status 7.
 * The functions are noinline/noipa so their names appear in the report. */
#include <kernel.h>
#include <string.h>
#include <init.h>
#include <cmdline.h>
#include <console.h>
#include <ksyms.h>
#include <asm/io.h>
#include <asm/layout.h>
#include <asm/traps.h>

static const unsigned long oops_ro_word = 0x600df00d;

void __noipa oops_null_deref(void)
{
    /* volatile pointer: gcc would otherwise see the NULL store, call it
     * undefined and emit ud2 (an "invalid opcode" oops) instead */
    volatile unsigned long *volatile p = NULL;
    *p = 0x2a;
}

/* Is va mapped read-only (present, R/W clear at either level)?  Walks the
 * two-level tables through the direct map.  -1: not present. */
static int page_is_readonly(unsigned long va)
{
    uint32_t *pgdir = phys_to_virt(read_cr3() & PAGE_MASK);
    uint32_t pde = pgdir[va >> 22];
    if (!(pde & 1))
        return -1;
    if (!(pde & 2))
        return 1;
    if (pde & 0x80)                    /* 4 MiB page */
        return 0;
    uint32_t *pt = phys_to_virt(pde & PAGE_MASK);
    uint32_t pte = pt[(va >> 12) & 1023];
    if (!(pte & 1))
        return -1;
    return !(pte & 2);
}

void __noipa oops_write_ro(volatile unsigned long *target)
{
    *target = 0xbad;
}

void __noipa oops_divide(unsigned long n)
{
    volatile unsigned long zero = 0;
    printk(KERN_INFO "oops: %lu / 0 = %lu\n", n, n / zero);
}

void __noipa oops_panic(void)
{
    panic("oops=panic requested on the command line");
}

void __noipa oops_bug(void)
{
    volatile int broken = 1;
    BUG_ON(broken);
}

static void faulty_console_write(struct console *con, const char *s, size_t n)
{
    oops_null_deref();
}
static struct console faulty_console = { .name = "faulty", .write = faulty_console_write };

static void oops_run(void)
{
    const char *kind = cmdline_get("oops");
    if (!kind)
        return;
    printk(KERN_NOTICE "oops: deliberate fault oops=%s\n", kind);
    if (!strcmp(kind, "null")) {
        if (page_is_readonly(0) >= 0) {
            /* The boot page directory still identity-maps 0-16 MiB (mm's
             * real tables do not): drop that 4 MiB so page 0 is unmapped. */
            uint32_t *pgdir = phys_to_virt(read_cr3() & PAGE_MASK);
            printk(KERN_NOTICE "oops: unmapping the boot identity map of 0-4 MiB\n");
            pgdir[0] = 0;
            write_cr3(read_cr3());
        }
        oops_null_deref();
    } else if (!strcmp(kind, "write")) {
        unsigned long ro = (unsigned long)&oops_ro_word;
        if (page_is_readonly(ro) == 1 && (read_cr0() & 0x10000)) {
            printk(KERN_NOTICE "oops: writing read-only .rodata at %#lx\n", ro);
            oops_write_ro((volatile unsigned long *)ro);
        } else {
            /* The boot page tables map the whole kernel writable (4 MiB
             * pages); a write to an unmapped kernel address is the nearest. */
            printk(KERN_NOTICE "oops: .rodata is writable here; writing unmapped %#lx\n",
                   0xFFC00000UL);
            oops_write_ro((volatile unsigned long *)0xFFC00000UL);
        }
    } else if (!strcmp(kind, "divide")) {
        oops_divide(42);
    } else if (!strcmp(kind, "panic")) {
        oops_panic();
    } else if (!strcmp(kind, "bug")) {
        oops_bug();
    } else if (!strcmp(kind, "nested")) {
        uint32_t *pgdir = phys_to_virt(read_cr3() & PAGE_MASK);
        pgdir[0] = 0;                  /* as for null: page 0 must be unmapped */
        write_cr3(read_cr3());
        register_console(&faulty_console);
        printk(KERN_NOTICE "oops: this line faults in the faulty console\n");
    } else {
        printk(KERN_ERR "oops: unknown kind '%s' (null, write, divide, panic, bug, nested)\n", kind);
        return;
    }
    panic("oops=%s did not crash", kind);
}
late_initcall(oops_run);
