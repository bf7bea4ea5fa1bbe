/* mm/oom_kill_test.c: the ktests of oom_kill.c (test=oom); built into the
 * test kernel only.  Includes oom_kill.c to reach its static functions. */
#include "oom_kill.c"
#include <ktest.h>
#include <asm/mman.h>
#include <asm/uaccess.h>

#define OOM_UADDR 0x50000000UL

/* An address space with one private anonymous mapping of `pages` pages,
 * each touched once: read (the zero page is mapped) or written. */
static struct mm_struct *oom_mm(unsigned long pages, bool write)
{
    struct mm_struct *mm = mm_alloc();
    if (!mm)
        return NULL;
    struct mm_struct *prev = use_mm(mm);
    long a = do_mmap(mm, NULL, OOM_UADDR, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0);
    for (unsigned long i = 0; a == (long)OOM_UADDR && i < pages; i++) {
        char c = 1;
        void *u = (void *)(OOM_UADDR + i * PAGE_SIZE);
        if (write ? copy_to_user(u, &c, 1) : copy_from_user(&c, u, 1))
            break;
    }
    use_mm(prev);
    return mm;
}

/* A process that only read a large private mapping maps the zero page
 * everywhere: it holds no memory, so its badness is 0 and one that wrote a
 * little memory of its own is worse (Linux's get_mm_rss leaves the zero
 * page out).  mm->rss still counts the zero-page PTEs (mm/memory.c). */
KTEST(oom, zero_page_mappings_are_not_badness)
{
    struct mm_struct *reader = oom_mm(512, false), *writer = oom_mm(16, true);
    KT_ASSERT(reader && writer);
    KT_EXPECT_EQ(reader->rss, 512UL);              /* the bookkeeping as before */
    KT_EXPECT_EQ(oom_badness(reader), 0UL);
    KT_EXPECT_EQ(writer->rss, 16UL);
    KT_EXPECT_EQ(oom_badness(writer), 16UL);
    KT_EXPECT(oom_badness(writer) > oom_badness(reader));
    /* the reader writes one page: that one frame is its own */
    struct mm_struct *prev = use_mm(reader);
    char c = 2;
    KT_EXPECT_EQ(copy_to_user((void *)(OOM_UADDR + 7 * PAGE_SIZE), &c, 1), 0UL);
    use_mm(prev);
    KT_EXPECT_EQ(reader->rss, 512UL);
    KT_EXPECT_EQ(oom_badness(reader), 1UL);
    mmput(reader);
    mmput(writer);
}
