/* mm/mmap_test.c: kernel tests of file mappings (test=mmapfile).  A test
 * builds an address space (mm_alloc + use_mm), maps a ramfs file with
 * do_mmap and touches the mapping through copy_to_user/copy_from_user, so
 * that the real page-fault handler (mmap_sem, filemap_fault) runs.  It then
 * checks the state: which struct page the PTE maps, its _count and
 * _mapcount, PG_dirty, the PTE's RW bit.  The user-space side of the same
 * features is user/tests/mmap_file.c (tools/tests/mmap.sh). */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <mm.h>
#include <asm/mman.h>
#include <sched.h>
#include <ktest.h>
#include <pagemap.h>
#include <asm/pgtable.h>
#include <asm/uaccess.h>
#include <pagemap.h>
#include <writeback.h>
#include <sched.h>
#include <mm.h>
#include <slab.h>
#include <timer.h>

#define UADDR 0x50000000UL

static struct mm_struct *prev_mm;
static char kbuf[2 * PAGE_SIZE];

/* A fresh ramfs file /mmt_NAME with `pages` pages of 'A', 'B', ... */
static struct file *mopen(const char *name, int pages)
{
    if (vfs_ensure_root())
        return NULL;
    vfs_unlink(name);
    struct file *f = filp_open(name, O_RDWR | O_CREAT | O_EXCL, 0644);
    if (IS_ERR(f))
        return NULL;
    for (int p = 0; p < pages; p++) {
        memset(kbuf, 'A' + p, PAGE_SIZE);
        loff_t pos = (loff_t)p * PAGE_SIZE;
        if (kernel_write(f, kbuf, PAGE_SIZE, &pos) != PAGE_SIZE)
            return NULL;
    }
    return f;
}

static void mclose(struct file *f, const char *name)
{
    filp_close(f);
    vfs_unlink(name);
}

static struct mm_struct *mm_begin(void)
{
    struct mm_struct *mm = mm_alloc();
    if (mm)
        prev_mm = use_mm(mm);
    return mm;
}

static void mm_end(struct mm_struct *mm)
{
    use_mm(prev_mm);
    mmput(mm);
}

static pte_t *upte(struct mm_struct *mm, unsigned long va)
{
    return lookup_pte((pgd_t *)mm->pgd, va);
}

KTEST(mmapfile, fault_maps_the_page_cache_page)
{
    struct file *f = mopen("/mmt_a", 2);
    KT_ASSERT(f);
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    struct page *cached = find_get_page(f->f_mapping, 1);
    KT_ASSERT(cached);
    int count0 = page_count(cached), map0 = page_mapcount(cached);

    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, 2 * PAGE_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, 0),
               (long)UADDR);
    char c = 0;
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)(UADDR + PAGE_SIZE + 7), 1), 0UL);
    KT_EXPECT_EQ(c, 'B');
    pte_t *ptep = upte(mm, UADDR + PAGE_SIZE);
    KT_ASSERT(ptep && pte_present(*ptep));
    KT_EXPECT(pfn_to_page(pte_pfn(*ptep)) == cached);          /* the same struct page */
    KT_EXPECT(!(*ptep & _PAGE_RW));                             /* read fault: read-only */
    KT_EXPECT_EQ(page_count(cached), count0 + 1);               /* the PTE's reference */
    KT_EXPECT_EQ(page_mapcount(cached), map0 + 1);
    KT_EXPECT_EQ(mm->rss, 1UL);

    KT_EXPECT_EQ(do_munmap(mm, UADDR, 2 * PAGE_SIZE), 0);
    KT_EXPECT_EQ(page_count(cached), count0);                   /* back to baseline */
    KT_EXPECT_EQ(page_mapcount(cached), map0);
    KT_EXPECT_EQ(mm->rss, 0UL);
    KT_EXPECT(list_empty(&f->f_mapping->i_mmap));               /* the VMA left i_mmap */
    put_page(cached);
    mm_end(mm);
    mclose(f, "/mmt_a");
}

KTEST(mmapfile, shared_write_dirties_and_clean_write_protects)
{
    struct file *f = mopen("/mmt_b", 1);
    KT_ASSERT(f);
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    struct page *page = find_get_page(f->f_mapping, 0);
    KT_ASSERT(page);
    ClearPageDirty(page);                   /* ramfs: nothing to write back */

    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, 0),
               (long)UADDR);
    KT_EXPECT_EQ(copy_to_user((void *)(UADDR + 3), "xyz", 3), 0UL);
    pte_t *ptep = upte(mm, UADDR);
    KT_ASSERT(ptep && pte_present(*ptep));
    KT_EXPECT(pfn_to_page(pte_pfn(*ptep)) == page);
    KT_EXPECT(*ptep & _PAGE_RW);
    KT_EXPECT(*ptep & _PAGE_DIRTY);                            /* the CPU's D bit */
    KT_EXPECT(PageDirty(page));                                /* set at fault time */
    KT_EXPECT(!memcmp((char *)page_address(page) + 3, "xyz", 3));

    /* What writeback does before writing: the PTE becomes read-only and clean */
    lock_page(page);
    KT_EXPECT_EQ(clear_page_dirty_for_io(page), 1);
    unlock_page(page);
    KT_EXPECT(!(*ptep & (_PAGE_RW | _PAGE_DIRTY)));
    KT_EXPECT(!PageDirty(page));
    /* ... so the next write faults and dirties the page again */
    unsigned long dirtied = filemap_fault_stats.shared_dirtied;
    KT_EXPECT_EQ(copy_to_user((void *)UADDR, "q", 1), 0UL);
    KT_EXPECT(PageDirty(page));
    KT_EXPECT_EQ(filemap_fault_stats.shared_dirtied, dirtied + 1);
    KT_EXPECT(*ptep & _PAGE_RW);

    KT_EXPECT_EQ(do_munmap(mm, UADDR, PAGE_SIZE), 0);
    KT_EXPECT_EQ(page_mapcount(page), 0);
    put_page(page);
    mm_end(mm);
    mclose(f, "/mmt_b");
}

KTEST(mmapfile, private_write_copies_and_truncate_unmaps)
{
    struct file *f = mopen("/mmt_c", 2);
    KT_ASSERT(f);
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    struct page *p0 = find_get_page(f->f_mapping, 0), *p1 = find_get_page(f->f_mapping, 1);
    KT_ASSERT(p0 && p1);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_FIXED, 0), (long)UADDR);
    KT_EXPECT_EQ(copy_to_user((void *)UADDR, "P", 1), 0UL);      /* page 0: COW */
    char c = 0;
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)(UADDR + PAGE_SIZE), 1), 0UL);  /* page 1: read */
    pte_t *pte0 = upte(mm, UADDR), *pte1 = upte(mm, UADDR + PAGE_SIZE);
    KT_ASSERT(pte0 && pte1);
    KT_EXPECT(pfn_to_page(pte_pfn(*pte0)) != p0);              /* an anonymous copy */
    KT_EXPECT_EQ(((char *)page_address(p0))[0], 'A');           /* the file is unchanged */
    KT_EXPECT(pfn_to_page(pte_pfn(*pte1)) == p1 && !(*pte1 & _PAGE_RW));
    KT_EXPECT_EQ(page_mapcount(p0), 0);
    KT_EXPECT_EQ(page_mapcount(p1), 1);

    /* truncate to one page: page 1 leaves the address space */
    KT_EXPECT_EQ(do_truncate(f->f_mapping->host, PAGE_SIZE), 0);
    KT_EXPECT(!pte_has_page(*pte1));
    KT_EXPECT_EQ(page_mapcount(p1), 0);
    KT_EXPECT(p1->mapping == NULL);                             /* gone from the cache */
    KT_EXPECT_EQ(page_count(p1), 1);                            /* only our reference left */
    /* the kernel touching it now gets the fault's failure (SIGBUS for a user) */
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)(UADDR + PAGE_SIZE), 1), 1UL);

    put_page(p0);
    put_page(p1);
    mm_end(mm);
    mclose(f, "/mmt_c");
}

/* Past EOF: the file has one page and 100 bytes, the mapping 4 pages.  Page
 * 1 (the EOF page) maps and shows zeros after byte 100; pages 2 and 3 lie
 * wholly past EOF, so filemap_fault refuses them and handle_mm_fault says
 * VM_FAULT_SIGBUS (a user access there gets SIGBUS; the kernel's copy fails). */
KTEST(mmapfile, fault_past_eof_is_sigbus)
{
    struct file *f = mopen("/mmt_d", 2);
    KT_ASSERT(f);
    KT_ASSERT_EQ(do_truncate(f->f_mapping->host, PAGE_SIZE + 100), 0);
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, 4 * PAGE_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, 0),
                 (long)UADDR);
    unsigned long sigbus0 = filemap_fault_stats.sigbus;
    char c[2] = { 1, 1 };
    KT_EXPECT_EQ(copy_from_user(c, (const void *)(UADDR + PAGE_SIZE + 99), 2), 0UL);
    KT_EXPECT(c[0] == 'B' && c[1] == 0);                        /* zeros past EOF */
    KT_EXPECT_EQ(filemap_fault_stats.sigbus, sigbus0);
    KT_EXPECT_EQ(copy_from_user(c, (const void *)(UADDR + 2 * PAGE_SIZE), 1), 1UL);
    KT_EXPECT_EQ(filemap_fault_stats.sigbus, sigbus0 + 1);
    struct vm_area_struct *vma = find_vma(mm, UADDR + 3 * PAGE_SIZE);
    KT_ASSERT(vma);
    KT_EXPECT_EQ(handle_mm_fault(vma, UADDR + 3 * PAGE_SIZE, 0), VM_FAULT_SIGBUS);
    KT_EXPECT_EQ(filemap_fault_stats.sigbus, sigbus0 + 2);
    pte_t *ptep = upte(mm, UADDR + 3 * PAGE_SIZE);
    KT_EXPECT(!ptep || !pte_has_page(*ptep));                  /* nothing mapped there */
    KT_EXPECT_EQ(mm->rss, 1UL);                                 /* only the EOF page */
    KT_EXPECT_EQ(do_munmap(mm, UADDR, 4 * PAGE_SIZE), 0);
    mm_end(mm);
    mclose(f, "/mmt_d");
}

/* msync on a ramfs file given a counting ->writepage (ramfs has none), so
 * that writeback happens and can be seen. */
static int msync_writepages;
static int count_writepage(struct page *page, struct writeback_control *wbc)
{
    msync_writepages++;
    SetPageWriteback(page);
    unlock_page(page);
    end_page_writeback(page);
    return 0;
}

/* A write through a MAP_SHARED mapping leaves the CPU's dirty bit in the PTE.
 * msync(MS_ASYNC) moves it to the page (PG_dirty) and clears it in the PTE;
 * msync(MS_SYNC) writes the page (one ->writepage) and write-protects the
 * PTE on the way (page_mkclean); a second MS_SYNC has nothing to write; the
 * next store faults and dirties the page again.  Bad arguments: -EINVAL;
 * a range with a hole: -ENOMEM. */
KTEST(mmapfile, msync_moves_dirty_bits_and_writes_back)
{
    static struct address_space_operations aops;
    struct file *f = mopen("/mmt_e", 1);
    KT_ASSERT(f);
    const struct address_space_operations *saved = f->f_mapping->a_ops;
    aops = *saved;
    aops.writepage = count_writepage;
    f->f_mapping->a_ops = &aops;
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    struct page *page = find_get_page(f->f_mapping, 0);
    KT_ASSERT(page);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, 0),
                 (long)UADDR);
    KT_EXPECT_EQ(copy_to_user((void *)UADDR, "m", 1), 0UL);
    pte_t *ptep = upte(mm, UADDR);
    KT_ASSERT(ptep && pte_present(*ptep) && (*ptep & _PAGE_DIRTY));

    ClearPageDirty(page);                          /* as if the fault had not dirtied it */
    KT_EXPECT_EQ(sys_msync(UADDR, PAGE_SIZE, MS_ASYNC), 0);
    KT_EXPECT(PageDirty(page));                    /* the PTE's D bit moved to the page */
    KT_EXPECT(!(*ptep & _PAGE_DIRTY));
    KT_EXPECT_EQ(msync_writepages, 0);             /* MS_ASYNC writes nothing itself */

    KT_EXPECT_EQ(sys_msync(UADDR, PAGE_SIZE, MS_SYNC), 0);
    KT_EXPECT_EQ(msync_writepages, 1);
    KT_EXPECT(!PageDirty(page));
    KT_EXPECT(!(*ptep & _PAGE_RW));                /* page_mkclean write-protected it */
    KT_EXPECT_EQ(sys_msync(UADDR, PAGE_SIZE, MS_SYNC), 0);
    KT_EXPECT_EQ(msync_writepages, 1);             /* nothing dirty: nothing written */
    KT_EXPECT_EQ(copy_to_user((void *)UADDR + 1, "n", 1), 0UL);
    KT_EXPECT(PageDirty(page) && (*ptep & _PAGE_RW));
    KT_EXPECT_EQ(sys_msync(UADDR, PAGE_SIZE, MS_SYNC), 0);
    KT_EXPECT_EQ(msync_writepages, 2);
    KT_EXPECT(!memcmp(page_address(page), "mnAA", 4));

    KT_EXPECT_EQ(sys_msync(UADDR + 1, PAGE_SIZE, MS_SYNC), -EINVAL);
    KT_EXPECT_EQ(sys_msync(UADDR, PAGE_SIZE, MS_SYNC | MS_ASYNC), -EINVAL);
    KT_EXPECT_EQ(sys_msync(UADDR, 2 * PAGE_SIZE, MS_SYNC), -ENOMEM);   /* page 2 unmapped */

    KT_EXPECT_EQ(do_munmap(mm, UADDR, PAGE_SIZE), 0);
    put_page(page);
    mm_end(mm);
    truncate_inode_pages(f->f_mapping, 0);         /* before the a_ops go back */
    f->f_mapping->a_ops = saved;
    mclose(f, "/mmt_e");
}
