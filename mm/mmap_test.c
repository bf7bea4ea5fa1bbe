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
    struct page *cached0 = find_get_page(f->f_mapping, 0);
    KT_ASSERT(cached && cached0);
    int count0 = page_count(cached), map0 = page_mapcount(cached);
    int count00 = page_count(cached0);

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
    /* Page 0 is cached and ready too: fault-around mapped it (read-only). */
    pte_t *ptep0 = upte(mm, UADDR);
    KT_ASSERT(ptep0 && pte_present(*ptep0));
    KT_EXPECT(pfn_to_page(pte_pfn(*ptep0)) == cached0 && !(*ptep0 & _PAGE_RW));
    KT_EXPECT_EQ(page_count(cached0), count00 + 1);
    KT_EXPECT_EQ(mm->rss, 2UL);

    KT_EXPECT_EQ(do_munmap(mm, UADDR, 2 * PAGE_SIZE), 0);
    KT_EXPECT_EQ(page_count(cached), count0);                   /* back to baseline */
    KT_EXPECT_EQ(page_mapcount(cached), map0);
    KT_EXPECT_EQ(page_count(cached0), count00);
    KT_EXPECT_EQ(mm->rss, 0UL);
    KT_EXPECT(list_empty(&f->f_mapping->i_mmap));               /* the VMA left i_mmap */
    put_page(cached);
    put_page(cached0);
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
    KT_EXPECT_EQ(do_truncate(f->f_mapping->host, PAGE_SIZE, ATTR_MTIME | ATTR_CTIME), 0);
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
    KT_ASSERT_EQ(do_truncate(f->f_mapping->host, PAGE_SIZE + 100, ATTR_MTIME | ATTR_CTIME), 0);
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
    KT_EXPECT_EQ(mm->rss, 2UL);             /* the EOF page, page 0 by fault-around */
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
    set_page_writeback(page);
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

/* msync(MS_SYNC) is an fsync of the file (Linux: vfs_fsync_range(file, ..,
 * 1)), not a write of its pages alone: pages that fill holes get their
 * blocks at writeback, and only the fsync writes the inode and indirect
 * blocks that point at them.  Seen through a counting ->fsync: MS_SYNC
 * calls it once per shared file VMA, with datasync 1, after the pages'
 * dirty bits moved; MS_ASYNC and private mappings never. */
static int msync_fsyncs, msync_fsync_datasync, msync_fsync_saw_dirty;
static struct page *msync_fsync_page;
static int count_fsync(struct file *file, int datasync)
{
    msync_fsyncs++;
    msync_fsync_datasync = datasync;
    msync_fsync_saw_dirty = PageDirty(msync_fsync_page);
    return 0;
}

KTEST(mmapfile, msync_sync_is_fsync)
{
    static struct file_operations fops;
    struct file *f = mopen("/mmt_s", 1);
    KT_ASSERT(f);
    const struct file_operations *saved = f->f_op;
    fops = *saved;
    fops.fsync = count_fsync;
    f->f_op = &fops;
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    struct page *page = find_get_page(f->f_mapping, 0);
    KT_ASSERT(page);
    msync_fsync_page = page;
    msync_fsyncs = 0;
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, 0),
                 (long)UADDR);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR + PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_FIXED, 0), (long)(UADDR + PAGE_SIZE));
    KT_EXPECT_EQ(copy_to_user((void *)UADDR, "m", 1), 0UL);
    KT_EXPECT_EQ(copy_to_user((void *)UADDR + PAGE_SIZE, "p", 1), 0UL);
    ClearPageDirty(page);                          /* only the PTE's D bit says it */

    KT_EXPECT_EQ(sys_msync(UADDR, 2 * PAGE_SIZE, MS_ASYNC), 0);
    KT_EXPECT_EQ(msync_fsyncs, 0);
    KT_EXPECT_EQ(sys_msync(UADDR + PAGE_SIZE, PAGE_SIZE, MS_SYNC), 0);
    KT_EXPECT_EQ(msync_fsyncs, 0);                 /* private: nothing of the file's */
    ClearPageDirty(page);
    KT_EXPECT_EQ(copy_to_user((void *)UADDR, "n", 1), 0UL);
    KT_EXPECT_EQ(sys_msync(UADDR, 2 * PAGE_SIZE, MS_SYNC), 0);
    KT_EXPECT_EQ(msync_fsyncs, 1);
    KT_EXPECT_EQ(msync_fsync_datasync, 1);
    KT_EXPECT_EQ(msync_fsync_saw_dirty, 1);        /* the D bit reached the page first */

    KT_EXPECT_EQ(do_munmap(mm, UADDR, 2 * PAGE_SIZE), 0);
    put_page(page);
    mm_end(mm);
    f->f_op = saved;
    mclose(f, "/mmt_s");
}

/* A store through a shared mapping is a write: the fault that dirties the
 * page sets mtime and ctime (Linux: fault_dirty_shared_page's
 * file_update_time).  A store to a page already dirty and writable does not
 * fault and changes nothing; after writeback write-protected the page
 * (clear_page_dirty_for_io), the next store faults and updates them again.
 * A private store never touches the file. */
KTEST(mmapfile, shared_store_updates_mtime)
{
    struct file *f = mopen("/mmt_t", 2);
    KT_ASSERT(f);
    struct inode *inode = f->f_mapping->host;
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, 0),
                 (long)UADDR);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR + 2 * PAGE_SIZE, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_FIXED, 0), (long)(UADDR + 2 * PAGE_SIZE));
    char c;
    inode->i_mtime = inode->i_ctime = 1000;
    KT_EXPECT_EQ(copy_from_user(&c, (void *)UADDR, 1), 0UL);          /* a read fault */
    KT_EXPECT_EQ(inode->i_mtime, 1000);
    KT_EXPECT_EQ(copy_to_user((void *)UADDR, "w", 1), 0UL);           /* do_wp_page */
    KT_EXPECT(inode->i_mtime > 1000 && inode->i_ctime > 1000);
    inode->i_mtime = inode->i_ctime = 1000;
    KT_EXPECT_EQ(copy_to_user((void *)UADDR + PAGE_SIZE, "w", 1), 0UL); /* do_fault, write */
    KT_EXPECT(inode->i_mtime > 1000 && inode->i_ctime > 1000);
    inode->i_mtime = inode->i_ctime = 1000;
    KT_EXPECT_EQ(copy_to_user((void *)UADDR + 1, "x", 1), 0UL);       /* no fault */
    KT_EXPECT_EQ(inode->i_mtime, 1000);
    struct page *page = find_get_page(f->f_mapping, 0);
    KT_ASSERT(page);
    lock_page(page);
    clear_page_dirty_for_io(page);                 /* writeback: write-protected */
    unlock_page(page);
    KT_EXPECT_EQ(copy_to_user((void *)UADDR + 2, "y", 1), 0UL);
    KT_EXPECT(inode->i_mtime > 1000 && inode->i_ctime > 1000);
    inode->i_mtime = inode->i_ctime = 1000;
    KT_EXPECT_EQ(copy_to_user((void *)UADDR + 2 * PAGE_SIZE, "p", 1), 0UL);
    KT_EXPECT_EQ(copy_to_user((void *)UADDR + 3 * PAGE_SIZE, "p", 1), 0UL);
    KT_EXPECT_EQ(inode->i_mtime, 1000);
    KT_EXPECT_EQ(inode->i_ctime, 1000);

    KT_EXPECT_EQ(do_munmap(mm, UADDR, 4 * PAGE_SIZE), 0);
    put_page(page);
    mm_end(mm);
    mclose(f, "/mmt_t");
}

/* Bytes a shared mapping stored past EOF in the last page are not the
 * file's: when the file grows over them (truncate up, or a write that
 * starts past the end) they read as zeros (POSIX; pagecache_isize_extended).
 * Also: a ramfs file's st_blocks counts its cached pages (simple_getattr). */
KTEST(mmapfile, grow_zeroes_what_a_mapping_stored_past_eof)
{
    struct file *f = mopen("/mmt_g", 1);
    KT_ASSERT(f);
    struct inode *inode = f->f_mapping->host;
    struct kstat st;
    KT_EXPECT_EQ(vfs_fstat(f, &st), 0);
    KT_EXPECT_EQ(st.blocks, 8UL);                  /* one page of 512-byte sectors */
    KT_EXPECT_EQ(do_truncate(inode, 100, ATTR_MTIME | ATTR_CTIME), 0);
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, 0),
                 (long)UADDR);
    char buf[8];
    KT_EXPECT_EQ(copy_to_user((void *)(UADDR + 100), "SSSS", 4), 0UL);
    KT_EXPECT_EQ(copy_to_user((void *)(UADDR + PAGE_SIZE - 1), "S", 1), 0UL);
    KT_EXPECT_EQ(do_truncate(inode, 2 * PAGE_SIZE, ATTR_MTIME | ATTR_CTIME), 0);     /* grow */
    loff_t pos = 98;
    KT_EXPECT_EQ(kernel_read(f, buf, 8, &pos), 8);
    KT_EXPECT(!memcmp(buf, "AA\0\0\0\0\0\0", 8));
    KT_EXPECT_EQ(copy_from_user(buf, (void *)(UADDR + PAGE_SIZE - 1), 1), 0UL);
    KT_EXPECT_EQ(buf[0], 0);

    /* a write at 3000 of a 100-byte file: 100..2999 zeros, not the store */
    KT_EXPECT_EQ(do_truncate(inode, 100, ATTR_MTIME | ATTR_CTIME), 0);
    KT_EXPECT_EQ(copy_to_user((void *)(UADDR + 200), "SSSS", 4), 0UL);
    KT_EXPECT_EQ(copy_to_user((void *)(UADDR + 3500), "SSSS", 4), 0UL);
    pos = 3000;
    KT_EXPECT_EQ(kernel_write(f, "w", 1, &pos), 1);
    pos = 200;
    KT_EXPECT_EQ(kernel_read(f, buf, 4, &pos), 4);
    KT_EXPECT(!memcmp(buf, "\0\0\0\0", 4));
    KT_EXPECT_EQ(inode->i_size, 3001);

    KT_EXPECT_EQ(do_munmap(mm, UADDR, PAGE_SIZE), 0);
    mm_end(mm);
    mclose(f, "/mmt_g");
}

/* ---- fault-around (mm/memory.c do_fault_around, filemap_map_pages) ------ */

/* PTEs present in [va, va + pages) */
static int count_ptes(struct mm_struct *mm, unsigned long va, int pages)
{
    int n = 0;
    for (int i = 0; i < pages; i++) {
        pte_t *p = upte(mm, va + i * PAGE_SIZE);
        n += p && pte_present(*p);
    }
    return n;
}

/* Does the PTE at va map the cache page index of mapping, read-only? */
static bool maps_cache_page_ro(struct mm_struct *mm, unsigned long va,
                               struct address_space *mapping, unsigned long index)
{
    pte_t *p = upte(mm, va);
    struct page *page = find_get_page(mapping, index);
    bool ok = p && pte_present(*p) && !(*p & _PAGE_RW) && page &&
              pfn_to_page(pte_pfn(*p)) == page && page_mapcount(page) >= 1;
    if (page)
        put_page(page);
    return ok;
}

/* A 40-page cached file: one read fault maps its whole 16-page block. */
KTEST(mmapfile, fault_around_maps_cached_neighbours)
{
    struct file *f = mopen("/mmt_f", 40);
    KT_ASSERT(f);
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, 40 * PAGE_SIZE, PROT_READ, MAP_SHARED | MAP_FIXED, 0),
                 (long)UADDR);
    unsigned long faults0 = filemap_fault_stats.faults, around0 = filemap_fault_stats.fault_around;
    char c = 0;
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)(UADDR + 5 * PAGE_SIZE + 3), 1), 0UL);
    KT_EXPECT_EQ(c, 'A' + 5);
    KT_EXPECT_EQ(filemap_fault_stats.faults, faults0 + 1);
    KT_EXPECT_EQ(filemap_fault_stats.fault_around, around0 + 15);
    KT_EXPECT_EQ(count_ptes(mm, UADDR, 16), 16);
    KT_EXPECT_EQ(count_ptes(mm, UADDR + 16 * PAGE_SIZE, 24), 0);
    KT_EXPECT_EQ(mm->rss, 16UL);
    bool ok = true;
    for (int i = 0; i < 16; i++)
        ok &= maps_cache_page_ro(mm, UADDR + i * PAGE_SIZE, f->f_mapping, i);
    KT_EXPECT(ok);

    /* The next blocks: one fault each; the last is cut by the VMA's end. */
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)(UADDR + 20 * PAGE_SIZE), 1), 0UL);
    KT_EXPECT_EQ(count_ptes(mm, UADDR + 16 * PAGE_SIZE, 16), 16);
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)(UADDR + 39 * PAGE_SIZE), 1), 0UL);
    KT_EXPECT_EQ(count_ptes(mm, UADDR, 40), 40);
    KT_EXPECT_EQ(count_ptes(mm, UADDR + 40 * PAGE_SIZE, 8), 0);
    KT_EXPECT_EQ(filemap_fault_stats.faults, faults0 + 3);
    KT_EXPECT_EQ(filemap_fault_stats.fault_around, around0 + 37);
    KT_EXPECT_EQ(mm->rss, 40UL);
    /* every page reads right, and with no fault more */
    ok = true;
    for (int i = 0; i < 40; i++) {
        ok &= copy_from_user(&c, (const void *)(UADDR + i * PAGE_SIZE + 100), 1) == 0;
        ok &= c == 'A' + i;
    }
    KT_EXPECT(ok);
    KT_EXPECT_EQ(filemap_fault_stats.faults, faults0 + 3);

    struct page *p30 = find_get_page(f->f_mapping, 30);
    KT_ASSERT(p30);
    int count30 = page_count(p30);
    KT_EXPECT_EQ(do_munmap(mm, UADDR, 40 * PAGE_SIZE), 0);
    KT_EXPECT_EQ(page_count(p30), count30 - 1);                 /* the PTE's reference */
    KT_EXPECT_EQ(page_mapcount(p30), 0);
    KT_EXPECT_EQ(mm->rss, 0UL);
    put_page(p30);
    mm_end(mm);
    mclose(f, "/mmt_f");
}

/* Another task holds a page locked (as a reader or reclaim would) until
 * told to let it go: the test's own task must not fault while holding a
 * page lock (page lock -> mmap_sem, against the LOCK ORDER: the lock
 * validator would rightly see it). */
static struct page *locker_page;
static volatile int locker_state;               /* 1: locked, 2: unlock it, 3: done */

static int page_locker_fn(void *arg)
{
    lock_page(locker_page);
    locker_state = 1;
    while (locker_state != 2)
        msleep(1);
    unlock_page(locker_page);
    locker_state = 3;
    while (!kthread_should_stop())
        msleep(1);
    return 0;
}

/* Not outside the VMA, not beyond EOF, not a locked page, not one that is
 * not uptodate: those are left for a fault of their own. */
KTEST(mmapfile, fault_around_stops_at_vma_eof_and_unready_pages)
{
    struct file *f = mopen("/mmt_g", 20);
    KT_ASSERT(f);
    struct address_space *mapping = f->f_mapping;
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    /* file pages 2..11 at UADDR + 3 pages: inside one aligned block */
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR + 3 * PAGE_SIZE, 10 * PAGE_SIZE, PROT_READ,
                         MAP_SHARED | MAP_FIXED, 2), (long)(UADDR + 3 * PAGE_SIZE));
    char c = 0;
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)(UADDR + 5 * PAGE_SIZE), 1), 0UL);
    KT_EXPECT_EQ(c, 'A' + 4);
    KT_EXPECT_EQ(count_ptes(mm, UADDR, 16), 10);
    KT_EXPECT(maps_cache_page_ro(mm, UADDR + 3 * PAGE_SIZE, mapping, 2));
    KT_EXPECT(maps_cache_page_ro(mm, UADDR + 12 * PAGE_SIZE, mapping, 11));
    KT_EXPECT_EQ(count_ptes(mm, UADDR, 3), 0);                  /* before the VMA */
    KT_EXPECT_EQ(count_ptes(mm, UADDR + 13 * PAGE_SIZE, 3), 0); /* after it */
    KT_EXPECT_EQ(mm->rss, 10UL);
    KT_EXPECT_EQ(do_munmap(mm, UADDR + 3 * PAGE_SIZE, 10 * PAGE_SIZE), 0);

    /* EOF in page 6 (pages 7.. gone); page 2 locked, page 3 not uptodate */
    KT_ASSERT_EQ(do_truncate(mapping->host, 6 * PAGE_SIZE + 100, ATTR_MTIME | ATTR_CTIME), 0);
    struct page *p2 = find_get_page(mapping, 2), *p3 = find_get_page(mapping, 3);
    KT_ASSERT(p2 && p3);
    locker_page = p2;
    locker_state = 0;
    struct task_struct *locker = kthread_run(page_locker_fn, NULL, "page_locker");
    KT_ASSERT(!IS_ERR(locker));
    while (locker_state != 1)
        msleep(1);                              /* page 2 locked, by another task */
    ClearPageUptodate(p3);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, 16 * PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_FIXED, 0),
                 (long)UADDR);
    unsigned long around0 = filemap_fault_stats.fault_around;
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)UADDR, 1), 0UL);
    KT_EXPECT_EQ(filemap_fault_stats.fault_around, around0 + 4);     /* 1, 4, 5, 6 */
    KT_EXPECT_EQ(count_ptes(mm, UADDR, 16), 5);
    KT_EXPECT(maps_cache_page_ro(mm, UADDR + 6 * PAGE_SIZE, mapping, 6));  /* the EOF page */
    KT_EXPECT_EQ(count_ptes(mm, UADDR + 2 * PAGE_SIZE, 2), 0);
    KT_EXPECT_EQ(count_ptes(mm, UADDR + 7 * PAGE_SIZE, 9), 0);
    KT_EXPECT_EQ(mm->rss, 5UL);
    SetPageUptodate(p3);
    locker_state = 2;
    while (locker_state != 3)
        msleep(1);
    kthread_stop(locker);
    /* now page 2 faults itself and page 3 comes with it */
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)(UADDR + 2 * PAGE_SIZE), 1), 0UL);
    KT_EXPECT_EQ(c, 'A' + 2);
    KT_EXPECT(maps_cache_page_ro(mm, UADDR + 3 * PAGE_SIZE, mapping, 3));
    KT_EXPECT_EQ(count_ptes(mm, UADDR, 16), 7);
    /* beyond EOF is still SIGBUS, fault-around or not */
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)(UADDR + 7 * PAGE_SIZE), 1), 1UL);
    KT_EXPECT_EQ(count_ptes(mm, UADDR, 16), 7);
    put_page(p2);
    put_page(p3);
    KT_EXPECT_EQ(do_munmap(mm, UADDR, 16 * PAGE_SIZE), 0);
    mm_end(mm);
    mclose(f, "/mmt_g");
}

/* Pages mapped by fault-around are read-only in a shared writable mapping:
 * the first write to one faults and dirties exactly that page; writeback's
 * page_mkclean finds its PTE.  In a private mapping the write copies. */
KTEST(mmapfile, fault_around_keeps_dirty_tracking)
{
    struct file *f = mopen("/mmt_h", 8);
    KT_ASSERT(f);
    struct address_space *mapping = f->f_mapping;
    struct page *pg[8];
    for (int i = 0; i < 8; i++) {
        pg[i] = find_get_page(mapping, i);
        KT_ASSERT(pg[i]);
        ClearPageDirty(pg[i]);              /* ramfs: nothing to write back */
    }
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, 8 * PAGE_SIZE, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_FIXED, 0), (long)UADDR);
    unsigned long dirtied0 = filemap_fault_stats.shared_dirtied;
    char c = 0;
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)UADDR, 1), 0UL);
    KT_EXPECT_EQ(count_ptes(mm, UADDR, 8), 8);
    bool ok = true;
    for (int i = 0; i < 8; i++)
        ok &= maps_cache_page_ro(mm, UADDR + i * PAGE_SIZE, mapping, i) && !PageDirty(pg[i]);
    KT_EXPECT(ok);
    KT_EXPECT_EQ(filemap_fault_stats.shared_dirtied, dirtied0);

    KT_EXPECT_EQ(copy_to_user((void *)(UADDR + 3 * PAGE_SIZE + 9), "w", 1), 0UL);
    pte_t *p3 = upte(mm, UADDR + 3 * PAGE_SIZE);
    KT_EXPECT((*p3 & _PAGE_RW) && (*p3 & _PAGE_DIRTY));
    KT_EXPECT(PageDirty(pg[3]));
    KT_EXPECT_EQ(filemap_fault_stats.shared_dirtied, dirtied0 + 1);
    KT_EXPECT_EQ(((char *)page_address(pg[3]))[9], 'w');
    ok = true;
    for (int i = 0; i < 8; i++)
        if (i != 3)
            ok &= !PageDirty(pg[i]) && !(*upte(mm, UADDR + i * PAGE_SIZE) & _PAGE_RW);
    KT_EXPECT(ok);
    lock_page(pg[3]);
    KT_EXPECT_EQ(clear_page_dirty_for_io(pg[3]), 1);
    unlock_page(pg[3]);
    KT_EXPECT(!(*p3 & (_PAGE_RW | _PAGE_DIRTY)));               /* page_mkclean found it */

    /* private: fault-around maps the cache pages, a write copies one */
    unsigned long cow0 = filemap_fault_stats.private_cow;
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR + 16 * PAGE_SIZE, 8 * PAGE_SIZE, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_FIXED, 0), (long)(UADDR + 16 * PAGE_SIZE));
    KT_EXPECT_EQ(copy_from_user(&c, (const void *)(UADDR + 16 * PAGE_SIZE), 1), 0UL);
    KT_EXPECT_EQ(count_ptes(mm, UADDR + 16 * PAGE_SIZE, 8), 8);
    KT_EXPECT(maps_cache_page_ro(mm, UADDR + 21 * PAGE_SIZE, mapping, 5));
    KT_EXPECT_EQ(copy_to_user((void *)(UADDR + 21 * PAGE_SIZE), "P", 1), 0UL);
    pte_t *p5 = upte(mm, UADDR + 21 * PAGE_SIZE);
    KT_EXPECT(pfn_to_page(pte_pfn(*p5)) != pg[5] && (*p5 & _PAGE_RW));
    KT_EXPECT_EQ(filemap_fault_stats.private_cow, cow0 + 1);
    KT_EXPECT_EQ(((char *)page_address(pg[5]))[0], 'A' + 5);   /* the file is unchanged */
    KT_EXPECT(!PageDirty(pg[5]));

    KT_EXPECT_EQ(do_munmap(mm, UADDR, 24 * PAGE_SIZE), 0);
    for (int i = 0; i < 8; i++) {
        KT_EXPECT_EQ(page_mapcount(pg[i]), 0);
        put_page(pg[i]);
    }
    mm_end(mm);
    mclose(f, "/mmt_h");
}

/* find_vma through mmap_cache gives what a walk from the head gives, for
 * addresses below, inside, between and above VMAs, whatever the cache
 * holds; and vm.max_map_count: mmap refuses a VMA once the count is past
 * it, a split once it is reached (-ENOMEM), a whole unmap still works. */
static struct vm_area_struct *find_vma_walk(struct mm_struct *mm, unsigned long addr)
{
    struct vm_area_struct *v;
    list_for_each_entry(v, &mm->mmap, vm_list)
        if (v->vm_end > addr)
            return v;
    return NULL;
}

KTEST(mmapfile, find_vma_cache_and_max_map_count)
{
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    down_write(&mm->mmap_sem);
    for (int i = 0; i < 8; i++)                      /* one page every four */
        KT_ASSERT_EQ(do_mmap(mm, NULL, UADDR + i * 4 * PAGE_SIZE, PAGE_SIZE, PROT_READ,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0),
                     (long)(UADDR + i * 4 * PAGE_SIZE));
    KT_ASSERT_EQ(mm->map_count, 8);
    unsigned long probes[] = { 0, UADDR - 1, UADDR, UADDR + PAGE_SIZE, UADDR + 9 * PAGE_SIZE,
                               UADDR + 28 * PAGE_SIZE, UADDR + 29 * PAGE_SIZE, TASK_SIZE - 1 };
    for (unsigned c = 0; c < ARRAY_SIZE(probes); c++)
        for (unsigned i = 0; i < ARRAY_SIZE(probes); i++) {
            find_vma(mm, probes[c]);                 /* whatever the cache now holds */
            KT_EXPECT(find_vma(mm, probes[i]) == find_vma_walk(mm, probes[i]));
        }
    int saved = sysctl_max_map_count;
    sysctl_max_map_count = mm->map_count;            /* at the limit */
    KT_EXPECT_EQ(do_munmap(mm, UADDR, PAGE_SIZE), 0);  /* whole: no split */
    KT_EXPECT_EQ(do_mmap(mm, NULL, UADDR, 3 * PAGE_SIZE, PROT_READ,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, 0), (long)UADDR);
    KT_EXPECT_EQ(mm->map_count, 8);                 /* at the limit again */
    KT_EXPECT_EQ(do_munmap(mm, UADDR + PAGE_SIZE, PAGE_SIZE), -ENOMEM);   /* a split */
    KT_EXPECT_EQ(do_mprotect(mm, UADDR + PAGE_SIZE, PAGE_SIZE, PROT_NONE), -ENOMEM);
    sysctl_max_map_count = mm->map_count - 1;        /* past it */
    KT_EXPECT_EQ(do_mmap(mm, NULL, 0, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, 0),
                 -ENOMEM);
    sysctl_max_map_count = saved;
    KT_EXPECT_EQ(do_munmap(mm, UADDR + PAGE_SIZE, PAGE_SIZE), 0);
    /* MAP_SHARED_VALIDATE: anonymous memory -EINVAL */
    KT_EXPECT_EQ(do_mmap(mm, NULL, 0, PAGE_SIZE, PROT_READ,
                         MAP_SHARED_VALIDATE | MAP_ANONYMOUS, 0), -EINVAL);
    up_write(&mm->mmap_sem);
    mm_end(mm);
}

/* MAP_SHARED_VALIDATE of a file: the flags MAP_SHARED knows work, any
 * other is -EOPNOTSUPP (MAP_SHARED alone ignores it); a shared mapping of
 * a file opened read-only cannot be made writable (VM_MAYWRITE). */
KTEST(mmapfile, shared_validate_and_maywrite)
{
    struct file *f = mopen("/mmt_validate", 1);
    KT_ASSERT(f);
    struct mm_struct *mm = mm_begin();
    KT_ASSERT(mm);
    down_write(&mm->mmap_sem);
    KT_EXPECT_EQ(do_mmap(mm, f, UADDR, PAGE_SIZE, PROT_READ,
                         MAP_SHARED_VALIDATE | MAP_FIXED | MAP_POPULATE, 0), (long)UADDR);
    struct vm_area_struct *v = find_vma(mm, UADDR);
    KT_EXPECT(v && (v->vm_flags & VM_SHARED) && (v->vm_flags & VM_MAYWRITE));
    KT_EXPECT_EQ(do_mmap(mm, f, 0, PAGE_SIZE, PROT_READ, MAP_SHARED_VALIDATE | 0x400, 0),
                 -EOPNOTSUPP);
    KT_EXPECT_EQ(do_mmap(mm, f, 0, PAGE_SIZE, PROT_READ, MAP_SHARED_VALIDATE | MAP_SYNC, 0),
                 -EOPNOTSUPP);
    long a = do_mmap(mm, f, 0, PAGE_SIZE, PROT_READ, MAP_SHARED | 0x400, 0);
    KT_EXPECT(a > 0);
    v->vm_flags &= ~VM_MAYWRITE;                    /* as if f were open read-only */
    KT_EXPECT_EQ(do_mprotect(mm, UADDR, PAGE_SIZE, PROT_READ | PROT_WRITE), -EACCES);
    KT_EXPECT_EQ(do_mprotect(mm, (unsigned long)a, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
    up_write(&mm->mmap_sem);
    mm_end(mm);
    mclose(f, "/mmt_validate");
}
