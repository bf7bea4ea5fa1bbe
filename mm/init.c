/* mm/init.c: mm_init(), the memory layer's boot sequence (an mm_initcall,
 * level 2: after the CPU tables, before timers and the scheduler).
 *
 *   memory_scan()      Multiboot memory map -> max_pfn       (page_alloc.c)
 *   paging_init()      swapper_pg_dir: direct map, no identity map (paging.c)
 *   page_alloc_init()  mem_map[], reservations, buddy free lists (page_alloc.c)
 *   kmalloc_init()     size classes                           (kmalloc.c)
 *
 * Paging comes before mem_map so that mem_map may live anywhere in lowmem,
 * not only in the 16 MiB the boot page directory maps.
 */
#include <kernel.h>
#include <init.h>
#include <mm.h>
#include <slab.h>
#include <asm/pgtable.h>

static void mm_init(void)
{
    memory_scan();
    paging_init(max_pfn);
    page_alloc_init();
    kmalloc_init();
    printk(KERN_INFO "Memory: %luK/%luK available (%luK kernel image, %luK reserved)\n",
           nr_free_pages() << (PAGE_SHIFT - 10), max_pfn << (PAGE_SHIFT - 10),
           kernel_image_bytes >> 10,
           (max_pfn - totalram_pages) << (PAGE_SHIFT - 10));
}
mm_initcall(mm_init);
