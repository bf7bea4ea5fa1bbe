/* kernel/x86/gdt.c: the Global Descriptor Table and the TSS (arch layer).
 *
 * Owns the flat segments (kernel/user code and data), the single TSS whose
 * esp0 is the kernel stack for entries from ring 3, and the three TLS
 * entries that set_thread_area fills, and the double-fault task's TSS entry
 * (the TSS itself: kernel/x86/doublefault.c).  Layout: include/asm/segment.h.
 * gdt_init() runs first among the arch initcalls (called by trap_init). */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <asm/segment.h>
#include <asm/irqflags.h>

/* Access byte: P(7) DPL(6:5) S(4) type(3:0).  Flags nibble: G(3) D/B(2). */
#define ACC_KCODE  0x9A                /* present, ring 0, code, readable */
#define ACC_KDATA  0x92                /* present, ring 0, data, writable */
#define ACC_UCODE  0xFA                /* present, ring 3, code, readable */
#define ACC_UDATA  0xF2                /* present, ring 3, data, writable */
#define ACC_TSS    0x89                /* present, ring 0, 32-bit TSS (available) */
#define FLAGS_4K32 0xC                 /* 4 KiB granularity, 32-bit */

static struct desc_struct gdt[GDT_ENTRIES] __attribute__((aligned(8)));
static struct x86_hw_tss tss __attribute__((aligned(16)));
extern char boot_stack_top[];

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
    tss.sp0 = esp0;
}

const struct x86_hw_tss *main_tss(void)
{
    return &tss;
}

unsigned long tss_get_kernel_stack(void)
{
    return tss.sp0;
}

struct desc_struct gdt_get(unsigned int entry)
{
    return entry < GDT_ENTRIES ? gdt[entry] : (struct desc_struct){ 0, 0 };
}

int gdt_set_tls(unsigned int entry, struct desc_struct d)
{
    if (entry < GDT_ENTRY_TLS_MIN || entry > GDT_ENTRY_TLS_MAX)
        return -EINVAL;
    gdt[entry] = d;                    /* takes effect at the next segment load */
    return 0;
}

void load_TLS(const struct desc_struct tls[GDT_ENTRY_TLS_ENTRIES])
{
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

void gdt_init(void)
{
    gdt[0] = (struct desc_struct){ 0, 0 };
    gdt[GDT_ENTRY_KERNEL_CS] = make_desc(0, 0xFFFFF, ACC_KCODE, FLAGS_4K32);
    gdt[GDT_ENTRY_KERNEL_DS] = make_desc(0, 0xFFFFF, ACC_KDATA, FLAGS_4K32);
    gdt[GDT_ENTRY_USER_CS]   = make_desc(0, 0xFFFFF, ACC_UCODE, FLAGS_4K32);
    gdt[GDT_ENTRY_USER_DS]   = make_desc(0, 0xFFFFF, ACC_UDATA, FLAGS_4K32);

    memset(&tss, 0, sizeof tss);
    tss.ss0 = __KERNEL_DS;
    tss.sp0 = (unsigned long)boot_stack_top;   /* until the scheduler sets one */
    tss.io_bitmap_base = sizeof tss;           /* no I/O bitmap: ring 3 gets no ports */
    gdt[GDT_ENTRY_TSS] = make_desc((uint32_t)(unsigned long)&tss, sizeof tss - 1, ACC_TSS, 0);
    for (int i = GDT_ENTRY_TLS_MIN; i <= GDT_ENTRY_TLS_MAX; i++)
        gdt[i] = (struct desc_struct){ 0, 0 };
    /* The double-fault task (kernel/x86/doublefault.c): never loaded with ltr,
     * only entered through the task gate at IDT vector 8. */
    doublefault_tss_init();
    gdt[GDT_ENTRY_DOUBLEFAULT_TSS] = make_desc((uint32_t)(unsigned long)&doublefault_tss,
                                               sizeof doublefault_tss - 1, ACC_TSS, 0);

    struct { uint16_t limit; uint32_t base; } __attribute__((packed)) gdtr =
        { sizeof gdt - 1, (uint32_t)(unsigned long)gdt };
    __asm__ volatile(
        "lgdt %0\n\t"
        "ljmp %1, $1f\n"               /* reload CS */
        "1:\tmovl %2, %%eax\n\t"
        "movl %%eax, %%ds\n\t"
        "movl %%eax, %%es\n\t"
        "movl %%eax, %%ss\n\t"
        "xorl %%eax, %%eax\n\t"        /* fs, gs: null until a task loads TLS */
        "movl %%eax, %%fs\n\t"
        "movl %%eax, %%gs\n\t"
        "movw %3, %%ax\n\t"
        "ltr %%ax"
        :: "m"(gdtr), "i"(__KERNEL_CS), "i"(__KERNEL_DS), "i"(__TSS_SEL) : "eax", "memory");
    printk(KERN_INFO "gdt: %d entries, TSS at %p (esp0 %#lx)\n", GDT_ENTRIES, (void *)&tss,
           (unsigned long)tss.sp0);
}
