/* include/asm/segment.h: the GDT layout and segment selectors (kernel/x86/gdt.c).
 *
 * Vellum uses a flat memory model: every code/data segment has base 0 and a
 * 4 GiB limit, so segments only carry the privilege level.  The table:
 *
 *   index  selector  what
 *     0     0x00     null descriptor (required by the CPU)
 *     1     0x08     __KERNEL_CS   ring 0 code
 *     2     0x10     __KERNEL_DS   ring 0 data/stack
 *     3     0x1B     __USER_CS     ring 3 code   (0x18 | RPL 3)
 *     4     0x23     __USER_DS     ring 3 data   (0x20 | RPL 3)
 *     5     0x28     GDT_ENTRY_TSS the task state segment (esp0 for ring 3 -> 0)
 *    6-8    0x33..   TLS entries for set_thread_area (as Linux i386: glibc
 *                    asks for entry -1 and is given 6, then loads %gs = 0x33)
 *     9     0x48     GDT_ENTRY_DOUBLEFAULT_TSS: the double-fault task's TSS
 *                    (IDT vector 8 is a task gate to it; kernel/x86/doublefault.c)
 *    10     0x50     __KERNEL_PERCPU  ring 0 data whose base is this CPU's
 *                    per-CPU area; the kernel keeps it in %fs
 *                    (include/asm/percpu.h)
 *
 * Every CPU has a GDT of its own (Linux's per-CPU gdt_page): they differ in
 * the per-CPU segment's base, the TSS entry (each CPU has its own TSS: a TSS
 * is marked busy by ltr and cannot be loaded on two CPUs) and, once APs run
 * tasks, the TLS entries of the task each CPU runs.
 *
 * (Linux i386 numbers its entries differently: kernel CS is entry 12 there.
 * We keep the classic teaching layout; only the TLS entries 6-8 must match
 * Linux, because user programs hard-code nothing but the entry number the
 * kernel hands back.)
 */
#ifndef _ASM_SEGMENT_H
#define _ASM_SEGMENT_H

#define GDT_ENTRY_KERNEL_CS     1
#define GDT_ENTRY_KERNEL_DS     2
#define GDT_ENTRY_USER_CS       3
#define GDT_ENTRY_USER_DS       4
#define GDT_ENTRY_TSS           5
#define GDT_ENTRY_TLS_MIN       6
#define GDT_ENTRY_TLS_ENTRIES   3
#define GDT_ENTRY_TLS_MAX       (GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES - 1)
#define GDT_ENTRY_DOUBLEFAULT_TSS 9
#define GDT_ENTRY_PERCPU        10
#define GDT_ENTRIES             11

#define __KERNEL_CS   0x08
#define __KERNEL_DS   0x10
#define __USER_CS     0x1B
#define __USER_DS     0x23
#define __TSS_SEL     0x28
#define __DOUBLEFAULT_TSS_SEL 0x48
#define __KERNEL_PERCPU 0x50

#ifndef __ASSEMBLER__
#include <types.h>

/* One 8-byte segment descriptor, as the CPU reads it (two 32-bit words). */
struct desc_struct {
    uint32_t a, b;
};

/* Linux's struct user_desc (asm/ldt.h): what set_thread_area() passes in. */
struct user_desc {
    unsigned int  entry_number;        /* 6..8, or -1: "pick a free one" */
    unsigned int  base_addr;
    unsigned int  limit;
    unsigned int  seg_32bit:1;
    unsigned int  contents:2;          /* 0 data, 1 data expand-down, 2 code */
    unsigned int  read_exec_only:1;
    unsigned int  limit_in_pages:1;
    unsigned int  seg_not_present:1;
    unsigned int  useable:1;
};

/* The hardware task state segment.  Vellum uses it only for the ring 3 ->
 * ring 0 stack switch: on an interrupt or int $0x80 in user mode the CPU
 * loads ss0:sp0 from here before pushing the trap frame. */
struct x86_hw_tss {
    uint32_t prev_task;
    uint32_t sp0, ss0;                 /* the kernel stack for entry from ring 3 */
    uint32_t sp1, ss1, sp2, ss2;
    uint32_t cr3, ip, flags, ax, cx, dx, bx, sp, bp, si, di;
    uint32_t es, cs, ss, ds, fs, gs, ldt;
    uint16_t trace, io_bitmap_base;
} __attribute__((packed));

/* A GDT, one per CPU (Linux's struct gdt_page). */
struct gdt_page {
    struct desc_struct gdt[GDT_ENTRIES];
} __attribute__((aligned(8)));

/* What lgdt loads (Linux's struct desc_ptr). */
struct desc_ptr {
    uint16_t size;                     /* bytes - 1 */
    uint32_t address;
} __attribute__((packed));

/* kernel/x86/gdt.c: each CPU's GDT (include/asm/percpu.h) */
extern __attribute__((section(".data..percpu"))) struct gdt_page gdt_page;
/* The GDT boot/entry.S loads on the boot CPU, startup_32_smp on an AP
 * (do_boot_cpu points it at that AP's gdt_page first). */
extern struct desc_ptr early_gdt_descr;
void gdt_init(void);                   /* the boot CPU: its TSS, reload segments */
/* An AP's GDT and TSS (in its per-CPU area, which must be set up): the
 * boot CPU fills them before starting the AP (do_boot_cpu). */
void gdt_prepare_cpu(int cpu, unsigned long esp0);
/* The running AP: load its GDT, the segments (%fs = __KERNEL_PERCPU) and
 * its TSS (start_secondary). */
void gdt_load_cpu(int cpu);
/* The kernel stack top the CPU switches to on entry from user mode.  The
 * scheduler calls this on every switch to a task that has a user side
 * (Linux: update_task_stack / load_sp0).  Must point just above the task's
 * pt_regs area (the top of its kernel stack). */
void tss_set_kernel_stack(unsigned long esp0);
unsigned long tss_get_kernel_stack(void);
/* Build a TLS descriptor from a user_desc (set_thread_area).  Returns 0, or
 * -EINVAL for a descriptor a user may not have (code segment, not 32-bit...).
 * "Empty" user_descs (base 0, limit 0, read_exec_only, seg_not_present) give
 * a zero (unusable) descriptor, as Linux's LDT_empty(). */
int tls_fill_desc(struct desc_struct *out, const struct user_desc *u);
/* Copy a task's three TLS descriptors into GDT entries 6-8 (Linux load_TLS).
 * The context switch calls it; set_thread_area calls it for current. */
void load_TLS(const struct desc_struct tls[GDT_ENTRY_TLS_ENTRIES]);
/* Load a selector into a segment register (Linux's loadsegment):
 * loadsegment(fs, 0) puts the null selector in %fs. */
#define loadsegment(seg, value) \
    __asm__ volatile("movl %0, %%" #seg :: "r"((unsigned int)(value)) : "memory")
/* Set one GDT TLS entry (index GDT_ENTRY_TLS_MIN..MAX); 0 or -EINVAL. */
int gdt_set_tls(unsigned int entry, struct desc_struct d);
struct desc_struct gdt_get(unsigned int entry);
/* This CPU's TSS.  After a double fault it holds the registers of the
 * faulting context (the CPU saved them there when it switched to the
 * double-fault task); kernel/x86/doublefault.c reads them. */
const struct x86_hw_tss *main_tss(void);

/* kernel/x86/doublefault.c: the double-fault task's TSS (Linux: doublefault_tss)
 * and its set-up, called by gdt_init() before the GDT entry is made. */
extern struct x86_hw_tss doublefault_tss;
void doublefault_tss_init(void);
#endif
#endif
