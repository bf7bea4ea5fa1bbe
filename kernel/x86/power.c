/* kernel/x86/power.c: leaving the machine.  qemu_exit() for tests (QEMU's
 * isa-debug-exit device), machine_power_off() for QEMU (ACPI PM1a on the
 * PIIX4 at 0x604, and the older 0xB004) and Bochs (0xB004, then the
 * "Shutdown" string on port 0x8900).  Seen working: QEMU 7.2 stops at 0x604,
 * Bochs 2.7 at 0xB004 ("ACPI control: soft power off"); tools/tests/bochs.sh
 * checks the Bochs path.  Both drain the UART first so no output is lost. */
#include <kernel.h>
#include <console.h>
#include <asm/io.h>
#include <timer.h>
#include <asm/irqflags.h>

void qemu_exit(int code)
{
    serial_flush();
    outb(0xf4, code);                  /* QEMU exits with (code << 1) | 1 */
    machine_power_off();               /* not under QEMU with the device */
}

void machine_power_off(void)
{
    local_irq_disable();
    serial_flush();
    outw(0x604, 0x2000);               /* QEMU (i440fx/piix4 ACPI) */
    outw(0xB004, 0x2000);              /* Bochs, old QEMU */
    for (const char *s = "Shutdown"; *s; s++)
        outb(0x8900, *s);              /* Bochs APM shutdown port */
    /* The emulator acts on those writes a little later: give it time
     * before declaring failure, so the log does not lie. */
    mdelay(200);
    printk(KERN_EMERG "power off failed: halting\n");
    for (;;)
        hlt();
}
