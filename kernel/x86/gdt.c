/* kernel/x86/gdt.c: the Global Descriptor Tables and the TSSs (arch layer).
 *
 * Owns each CPU's GDT (a per-CPU gdt_page, include/asm/percpu.h): the flat
 * segments (kernel/user code and data), the per-CPU data segment that the
 * kernel keeps in %fs, the CPU's TSS whose esp0 is the kernel stack for
 * entries from ring 3, the three TLS entries that set_thread_area fills,
 * and the double-fault task's TSS entry (the TSS itself:
 * kernel/x86/doublefault.c).  Layout: include/asm/segment.h.
 * The boot CPU's GDT is filled in at compile time with what boot/entry.S
 * needs before kmain (the flat segments, the per-CPU segment at base 0:
 * early_gdt_descr); gdt_init() adds its TSS and runs first among the arch
 * initcalls (called by trap_init).  An AP's GDT is a copy made by
 * gdt_prepare_cpu() (kernel/x86/smpboot.c). */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <asm/segment.h>
#include <asm/irqflags.h>
#include <asm/percpu.h>

/* Access byte: P(7) DPL(6:5) S(4) type(3:0).  Flags nibble: G(3) D/B(2). */
#define ACC_KCODE  0x9A                /* present, ring 0, code, readable */
#define ACC_KDATA  0x92                /* present, ring 0, data, writable */
#define ACC_UCODE  0xFA                /* present, ring 3, code, readable */
#define ACC_UDATA  0xF2                /* present, ring 3, data, writable */
#define ACC_TSS    0x89                /* present, ring 0, 32-bit TSS (available) */
#define FLAGS_4K32 0xC                 /* 4 KiB granularity, 32-bit */

/* A descriptor as a constant initializer (Linux's GDT_ENTRY_INIT). */
#define GDT_ENTRY_INIT(access, flags, base, limit) {                          \
        .a = ((limit) & 0xFFFF) | ((base) & 0xFFFF) << 16,                    \
        .b = (((base) >> 16) & 0xFF) | ((access) & 0xFF) << 8 |               \
             (((limit) >> 16) & 0xF) << 16 | ((flags) & 0xF) << 20 |          \
             ((base) & 0xFF000000) }

DEFINE_PER_CPU(struct gdt_page, gdt_page) = { .gdt = {
    [GDT_ENTRY_KERNEL_CS] = GDT_ENTRY_INIT(ACC_KCODE, FLAGS_4K32, 0, 0xFFFFF),
    [GDT_ENTRY_KERNEL_DS] = GDT_ENTRY_INIT(ACC_KDATA, FLAGS_4K32, 0, 0xFFFFF),
    [GDT_ENTRY_USER_CS]   = GDT_ENTRY_INIT(ACC_UCODE, FLAGS_4K32, 0, 0xFFFFF),
    [GDT_ENTRY_USER_DS]   = GDT_ENTRY_INIT(ACC_UDATA, FLAGS_4K32, 0, 0xFFFFF),
    /* the boot CPU's per-CPU area is the section itself: base 0 */
    [GDT_ENTRY_PERCPU]    = GDT_ENTRY_INIT(ACC_KDATA, FLAGS_4K32, 0, 0xFFFFF),
} };
static DEFINE_PER_CPU(struct x86_hw_tss, cpu_tss) __attribute__((aligned(16)));
extern char boot_stack_top[];

/* What boot/entry.S (the boot CPU) and startup_32_smp (each AP, pointed at
 * that AP's GDT by do_boot_cpu) load with lgdt. */
struct desc_ptr early_gdt_descr = {
    sizeof(struct gdt_page) - 1, (uint32_t)(unsigned long)&gdt_page
};

/* This CPU's GDT. */
static struct desc_struct *this_gdt(void)
{
    return this_cpu_ptr(&gdt_page)->gdt;
}

static struct desc_struct make_desc(uint32_t base, uint32_t limit, unsigned access,
                                    unsigned flags)
{
    struct desc_struct d;
    d.a = (limit & 0xFFFF) | (base & 0xFFFF) << 16;
    d.b = ((base >> 16) & 0xFF) | (access & 0xFF) << 8 | ((limit >> 16) & 0xF) << 16 |
          (flags & 0xF) << 20 | (base & 0xFF000000);
    return d;
}

void tss_set_kernel_stack(unsigned long esp0)
{
    this_cpu_write(cpu_tss.sp0, esp0);
}

const struct x86_hw_tss *main_tss(void)
{
    return this_cpu_ptr(&cpu_tss);
}

unsigned long tss_get_kernel_stack(void)
{
    return this_cpu_read(cpu_tss.sp0);
}

struct desc_struct gdt_get(unsigned int entry)
{
    return entry < GDT_ENTRIES ? this_gdt()[entry] : (struct desc_struct){ 0, 0 };
}

int gdt_set_tls(unsigned int entry, struct desc_struct d)
{
    if (entry < GDT_ENTRY_TLS_MIN || entry > GDT_ENTRY_TLS_MAX)
        return -EINVAL;
    this_gdt()[entry] = d;             /* takes effect at the next segment load */
    return 0;
}

void load_TLS(const struct desc_struct tls[GDT_ENTRY_TLS_ENTRIES])
{
    struct desc_struct *gdt = this_gdt();
    for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
        gdt[GDT_ENTRY_TLS_MIN + i] = tls[i];
}

int tls_fill_desc(struct desc_struct *out, const struct user_desc *u)
{
    /* Linux's LDT_empty(): a request to clear the entry. */
    if (u->base_addr == 0 && u->limit == 0 && u->contents == 0 && u->read_exec_only == 1 &&
        u->seg_32bit == 0 && u->limit_in_pages == 0 && u->seg_not_present == 1 &&
        u->useable == 0) {
        out->a = out->b = 0;
        return 0;
    }
    /* Simplification: only 32-bit data segments (what glibc and musl ask for);
     * Linux also allows 16-bit and code segments. */
    if (u->contents != 0 || !u->seg_32bit)
        return -EINVAL;
    unsigned access = ACC_UDATA;       /* present, ring 3, data, writable */
    if (u->read_exec_only)
        access &= ~0x02u;              /* read-only */
    if (u->seg_not_present)
        access &= ~0x80u;
    unsigned flags = (u->limit_in_pages ? 0x8 : 0) | 0x4 | (u->useable ? 0x1 : 0);
    *out = make_desc(u->base_addr, u->limit, access, flags);
    return 0;
}

/* Load gdt, reload every segment register (%fs: this CPU's per-CPU
 * segment, %gs null until a task loads TLS) and the task register. */
static void load_gdt_and_tss(struct desc_struct *gdt)
{
    struct { uint16_t limit; uint32_t base; } __attribute__((packed)) gdtr =
        { sizeof(struct gdt_page) - 1, (uint32_t)(unsigned long)gdt };
    __asm__ volatile(
        "lgdt %0\n\t"
        "ljmp %1, $1f\n"               /* reload CS */
        "1:\tmovl %2, %%eax\n\t"
        "movl %%eax, %%ds\n\t"
        "movl %%eax, %%es\n\t"
        "movl %%eax, %%ss\n\t"
        "movl %3, %%eax\n\t"
        "movl %%eax, %%fs\n\t"
        "xorl %%eax, %%eax\n\t"
        "movl %%eax, %%gs\n\t"
        "movw %4, %%ax\n\t"
        "ltr %%ax"
        :: "m"(gdtr), "i"(__KERNEL_CS), "i"(__KERNEL_DS), "i"(__KERNEL_PERCPU), "i"(__TSS_SEL)
        : "eax", "memory");
}

/* Fill in cpu's TSS (kernel stack esp0) and its GDT entry. */
static void tss_prepare(int cpu, unsigned long esp0)
{
    struct x86_hw_tss *tss = &per_cpu(cpu_tss, cpu);
    memset(tss, 0, sizeof *tss);
    tss->ss0 = __KERNEL_DS;
    tss->sp0 = esp0;
    tss->io_bitmap_base = sizeof *tss;         /* no I/O bitmap: ring 3 gets no ports */
    per_cpu(gdt_page, cpu).gdt[GDT_ENTRY_TSS] =
        make_desc((uint32_t)(unsigned long)tss, sizeof *tss - 1, ACC_TSS, 0);
}

void gdt_init(void)
{
    struct desc_struct *gdt = per_cpu(gdt_page, 0).gdt;

    tss_prepare(0, (unsigned long)boot_stack_top);   /* until the scheduler sets one */
    for (int i = GDT_ENTRY_TLS_MIN; i <= GDT_ENTRY_TLS_MAX; i++)
        gdt[i] = (struct desc_struct){ 0, 0 };
    /* The double-fault task (kernel/x86/doublefault.c): never loaded with ltr,
     * only entered through the task gate at IDT vector 8. */
    doublefault_tss_init();
    gdt[GDT_ENTRY_DOUBLEFAULT_TSS] = make_desc((uint32_t)(unsigned long)&doublefault_tss,
                                               sizeof doublefault_tss - 1, ACC_TSS, 0);
    load_gdt_and_tss(gdt);
    printk(KERN_INFO "gdt: %d entries, TSS at %p (esp0 %#lx)\n", GDT_ENTRIES,
           (void *)main_tss(), tss_get_kernel_stack());
}

void gdt_prepare_cpu(int cpu, unsigned long esp0)
{
    struct desc_struct *gdt = per_cpu(gdt_page, cpu).gdt;

    /* The area is a copy of the boot CPU's: its GDT too, but for these. */
    gdt[GDT_ENTRY_PERCPU] = make_desc(__per_cpu_offset[cpu], 0xFFFFF, ACC_KDATA, FLAGS_4K32);
    for (int i = GDT_ENTRY_TLS_MIN; i <= GDT_ENTRY_TLS_MAX; i++)
        gdt[i] = (struct desc_struct){ 0, 0 };
    tss_prepare(cpu, esp0);
}

void gdt_load_cpu(int cpu)
{
    load_gdt_and_tss(per_cpu(gdt_page, cpu).gdt);
}
