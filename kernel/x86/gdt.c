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
#include <ktest.h>
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

/* ---- tests ----------------------------------------------------------- */

static unsigned short read_seg(int which)
{
    unsigned short v = 0;
    switch (which) {
    case 0: __asm__ volatile("mov %%cs, %0" : "=r"(v)); break;
    case 1: __asm__ volatile("mov %%ds, %0" : "=r"(v)); break;
    case 2: __asm__ volatile("mov %%ss, %0" : "=r"(v)); break;
    case 3: __asm__ volatile("str %0" : "=r"(v)); break;
    }
    return v;
}

KTEST(traps, gdt_segments_loaded)
{
    KEXPECT_EQ(read_seg(0), __KERNEL_CS);
    KEXPECT_EQ(read_seg(1), __KERNEL_DS);
    KEXPECT_EQ(read_seg(2), __KERNEL_DS);
    KEXPECT_EQ(read_seg(3), __TSS_SEL);
    /* User code: DPL 3 (bits 13-14 of the high word), code type. */
    struct desc_struct uc = gdt_get(GDT_ENTRY_USER_CS);
    KEXPECT_EQ((uc.b >> 13) & 3, 3);
    KEXPECT_EQ((uc.b >> 8) & 0xFF, ACC_UCODE);
    /* The CPU marks the TSS busy (type 0xB) once loaded with ltr. */
    KEXPECT_EQ((gdt_get(GDT_ENTRY_TSS).b >> 8) & 0xF, 0xB);
}

KTEST(traps, tls_desc_and_gs_load)
{
    static uint32_t tls_word = 0x5a5aa5a5;
    struct user_desc u = { .entry_number = 6, .base_addr = (unsigned long)&tls_word,
                           .limit = 0xFFFFF, .seg_32bit = 1, .limit_in_pages = 1,
                           .useable = 1 };
    struct desc_struct d;
    KASSERT_EQ(tls_fill_desc(&d, &u), 0);
    KASSERT_EQ(gdt_set_tls(GDT_ENTRY_TLS_MIN, d), 0);
    KEXPECT_EQ(gdt_set_tls(2, d), -EINVAL);
    /* Load %gs with the TLS selector (entry 6, RPL 3 = 0x33) from ring 0 and
     * read through it: %gs:0 must be tls_word. */
    uint32_t got;
    unsigned long sel = (GDT_ENTRY_TLS_MIN << 3) | 3;
    unsigned long flags = local_irq_save();
    __asm__ volatile("movl %1, %%gs\n\tmovl %%gs:0, %0\n\t"
                     "xorl %1, %1\n\tmovl %1, %%gs" : "=r"(got), "+r"(sel) :: "memory");
    local_irq_restore(flags);
    KEXPECT_EQ(got, 0x5a5aa5a5);
    struct user_desc empty = { .read_exec_only = 1, .seg_not_present = 1 };
    KASSERT_EQ(tls_fill_desc(&d, &empty), 0);
    KEXPECT_EQ(d.a | d.b, 0);
    struct user_desc code = { .contents = 2, .seg_32bit = 1 };
    KEXPECT_EQ(tls_fill_desc(&d, &code), -EINVAL);
    gdt_set_tls(GDT_ENTRY_TLS_MIN, (struct desc_struct){ 0, 0 });
}
