/* kernel/tmp_kmalloc.c: TEMPORARY weak bump allocator so the block layer can
 * be tested before mm/ lands; mm's kmalloc/kfree override these. */
#include <kernel.h>
static char arena[1 << 20] __attribute__((aligned(16)));
static size_t used;
void *__attribute__((weak)) kmalloc(size_t n)
{
    n = ALIGN_UP(n, 16);
    if (used + n > sizeof arena) return NULL;
    void *p = arena + used; used += n; return p;
}
void __attribute__((weak)) kfree(const void *p) { (void)p; }
