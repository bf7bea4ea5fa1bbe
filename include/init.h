/* include/init.h: initcalls.  A subsystem registers its init function at a
 * level; kmain runs the levels in order, and within a level in link order
 * (the order of the object list, i.e. file names).  Linux's scheme, fewer levels.
 *
 *   1 arch_initcall    CPU tables: GDT/TSS, IDT, PIC
 *   2 mm_initcall      page frames, paging, kmalloc (boot_info is valid)
 *   3 core_initcall    timer, scheduler, kernel threads
 *   4 subsys_initcall  block layer, page cache, VFS core
 *   5 fs_initcall      filesystem types
 *   6 device_initcall  drivers: VGA, keyboard, ATA
 *   7 late_initcall    mounting root, deliberate-oops boot option, ...
 *
 * Interrupts are enabled between levels 3 and 4 (after the timer exists).
 */
#ifndef _INIT_H
#define _INIT_H
typedef void (*initcall_t)(void);
struct initcall { initcall_t fn; int level; const char *name; };
#define __define_initcall(fn, lvl) \
    static const struct initcall __initcall_##fn##lvl \
    __attribute__((used, section(".initcall" #lvl), aligned(4))) = { fn, lvl, #fn }
#define arch_initcall(fn)   __define_initcall(fn, 1)
#define mm_initcall(fn)     __define_initcall(fn, 2)
#define core_initcall(fn)   __define_initcall(fn, 3)
#define subsys_initcall(fn) __define_initcall(fn, 4)
#define fs_initcall(fn)     __define_initcall(fn, 5)
#define device_initcall(fn) __define_initcall(fn, 6)
#define late_initcall(fn)   __define_initcall(fn, 7)
#endif
