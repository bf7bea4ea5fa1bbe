/* mm/mmap.c: address spaces and their virtual memory areas.  Layer: mm,
 * above the user page tables (mm/memory.c), below the process layer (fork,
 * exec, exit) and the memory system calls (brk, mmap2, munmap, mprotect;
 * mremap's VMA half, copy_vma and vma_expand_to, for mm/mremap.c).
 *
 * An mm_struct owns a page directory and a sorted list of VMAs
 * (<mm_types.h>).  Mapping memory only creates or changes VMAs; the frames
 * come later, one page-fault at a time (do_page_fault -> resolve_user_fault
 * -> handle_mm_fault).
 * Unmapping drops the frames at once.
 *
 *   mmap(0x40000000, 3 pages)   munmap(middle page)       mprotect(last, R)
 *   [rw- rw- rw-]          ->   [rw-]     [rw-]      ->   [rw-]     [r--]
 *        one VMA                 split into two            flags changed
 *
 * File mappings: a VMA with vm_file holds a reference on the file and sits
 * on the file's mapping->i_mmap list (so that truncate and writeback can
 * find the PTEs that map the file's pages); its pages come from the page
 * cache through vm_ops->fault (filemap_fault, mm/filemap.c).
 *
 * Locking: the system calls here take mm->mmap_sem around the do_*
 * functions (the do_* functions expect it held, or an mm nobody else can
 * see yet: exec, tests): for writing where VMAs change (mmap, munmap,
 * mprotect, brk, mlock, fork's parent), for reading in msync, as Linux.
 * Lock order: i_mutex -> mmap_sem -> page lock (mm/filemap.c's header).
 * Readers run at once (two threads' faults): find_vma's cache is a benign
 * race, expand_stack grows under mm->page_table_lock.
 *
 * Limits: at most sysctl_max_map_count VMAs (vm.max_map_count, 65530).
 *
 * Simplifications: the VMA list is a sorted linked list walked linearly,
 * from mm->mmap_cache when it can (find_vma; Linux: a maple tree); munmap leaves emptied page tables in place until
 * the address space dies.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <err.h>
#include <mm.h>
#include <asm/mman.h>
#include <slab.h>
#include <sched.h>
#include <asm/pgtable.h>
#include <smp.h>
#include <asm/uaccess.h>
#include <fdtable.h>            /* fget/fput: file mappings */
#include <pagemap.h>            /* filemap_write_and_wait: msync */
#include "internal.h"           /* what mm/madvise.c and mm/mremap.c use of this file */

#define vma_pages(v)  (((v)->vm_end - (v)->vm_start) >> PAGE_SHIFT)
#define vma_first(mm) (list_empty(&(mm)->mmap) ? NULL : \
                       list_first_entry(&(mm)->mmap, struct vm_area_struct, vm_list))

static struct vm_area_struct *vma_next(struct mm_struct *mm, struct vm_area_struct *v)
{
    return v->vm_list.next == &mm->mmap ? NULL :
           list_entry(v->vm_list.next, struct vm_area_struct, vm_list);
}

static struct vm_area_struct *vma_prev(struct mm_struct *mm, struct vm_area_struct *v)
{
    return v->vm_list.prev == &mm->mmap ? NULL :
           list_entry(v->vm_list.prev, struct vm_area_struct, vm_list);
}

/* ---- lookup ----------------------------------------------------------- */

/* The first VMA that ends above addr.  mm->mmap_cache, the VMA found or
 * linked last (Linux 2.6's mmap_cache), answers the common cases without a
 * walk: addr inside it, or in the gap after it (a program that maps page
 * after page, as one that fills its address space up to max_map_count:
 * each mmap is then O(1), not O(VMAs)).  Otherwise the walk starts there
 * when addr lies above it.
 *
 * Called with mmap_sem held, often for READING only: two threads' faults
 * on two CPUs may look up and store the cache at once.  That is a benign
 * race of one word, as Linux 2.6's find_vma: each reads it once
 * (READ_ONCE: the test below and the walk use the same VMA) and stores
 * one aligned pointer; whichever store lands last, the cache holds a VMA
 * of this mm, valid while any mmap_sem is held (only writers unlink VMAs,
 * and they clear it: vma_remove).  A lost update costs a walk, nothing
 * more. */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
    struct vm_area_struct *v, *c;
    if (!mm)
        return NULL;
    c = READ_ONCE(mm->mmap_cache);
    if (c) {
        if (c->vm_end > addr) {
            struct vm_area_struct *prev = vma_prev(mm, c);
            if (!prev || prev->vm_end <= addr)
                return c;
        } else {
            for (v = vma_next(mm, c); v; v = vma_next(mm, v))
                if (v->vm_end > addr) {
                    WRITE_ONCE(mm->mmap_cache, v);
                    return v;
                }
            return NULL;
        }
    }
    list_for_each_entry(v, &mm->mmap, vm_list)
        if (v->vm_end > addr) {
            WRITE_ONCE(mm->mmap_cache, v);
            return v;
        }
    return NULL;
}

struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
                                             unsigned long end)
{
    struct vm_area_struct *v = find_vma(mm, start);
    return v && v->vm_start < end ? v : NULL;
}

/* ---- creating, splitting, merging -------------------------------------- */

static struct vm_area_struct *vma_alloc(struct mm_struct *mm, unsigned long start,
                                        unsigned long end, unsigned long flags)
{
    struct vm_area_struct *v = kzalloc(sizeof *v, GFP_KERNEL);
    if (!v)
        return NULL;
    v->vm_mm = mm;
    v->vm_start = start;
    v->vm_end = end;
    v->vm_flags = flags;
    INIT_LIST_HEAD(&v->vm_list);
    INIT_LIST_HEAD(&v->shared);
    return v;
}

/* A file VMA is on its file's mapping->i_mmap while linked (Linux's
 * vma_link_file / unlink_file_vma) and holds a reference on the file (its
 * creator takes it with get_file; vma_unlink_file drops it). */
static void vma_i_mmap(struct vm_area_struct *v, bool join)
{
    struct address_space *mapping = v->vm_file->f_mapping;
    unsigned long flags;
    spin_lock_irqsave(&mapping->i_mmap_lock, flags);
    if (join)
        list_add_tail(&v->shared, &mapping->i_mmap);
    else
        list_del_init(&v->shared);
    spin_unlock_irqrestore(&mapping->i_mmap_lock, flags);
}

static void vma_link_file(struct vm_area_struct *v)
{
    if (v->vm_file)
        vma_i_mmap(v, true);
}

static void vma_unlink_file(struct vm_area_struct *v)
{
    if (!v->vm_file)
        return;
    vma_i_mmap(v, false);
    fput(v->vm_file);
    v->vm_file = NULL;
}

/* Link v into mm's sorted list (v must not overlap anything). */
static void vma_link(struct mm_struct *mm, struct vm_area_struct *v)
{
    struct vm_area_struct *next = find_vma(mm, v->vm_start);
    list_add_tail(&v->vm_list, next ? &next->vm_list : &mm->mmap);
    mm->mmap_cache = v;
    mm->map_count++;
    mm->total_vm += vma_pages(v);
    if (v->vm_flags & VM_LOCKED)
        mm->locked_vm += vma_pages(v);
    vma_link_file(v);
}

/* Take v off mm's list and its file's, and free it (its range is gone, or
 * now another VMA's). */
static void vma_free(struct mm_struct *mm, struct vm_area_struct *v)
{
    vma_unlink_file(v);
    list_del(&v->vm_list);
    if (mm->mmap_cache == v)
        mm->mmap_cache = NULL;
    mm->map_count--;
    kfree(v);
}

/* Unlink and free v (its pages must already be zapped). */
static void vma_remove(struct mm_struct *mm, struct vm_area_struct *v)
{
    if (v->vm_ops && v->vm_ops->close)
        v->vm_ops->close(v);
    mm->total_vm -= vma_pages(v);
    if (v->vm_flags & VM_LOCKED)
        mm->locked_vm -= vma_pages(v);
    vma_free(mm, v);
}

/* A new VMA like v (flags, file with a reference of its own, ops) over
 * [start, end), mapping file page pgoff at start; not linked anywhere yet.
 * NULL when out of memory.  (split_vma, fork's dup_mm, mremap's copy_vma.) */
static struct vm_area_struct *vma_copy(struct mm_struct *mm, const struct vm_area_struct *v,
                                       unsigned long start, unsigned long end,
                                       unsigned long pgoff)
{
    struct vm_area_struct *n = vma_alloc(mm, start, end, v->vm_flags);
    if (!n)
        return NULL;
    n->vm_file = v->vm_file ? get_file(v->vm_file) : NULL;
    n->vm_ops = v->vm_ops;
    n->vm_pgoff = pgoff;
    return n;
}

/* vm.max_map_count (/proc/sys/vm/max_map_count): the most VMAs an address
 * space may have, Linux's DEFAULT_MAX_MAP_COUNT.  mmap refuses a new one
 * once the count is past it, a split (munmap or mprotect of a middle
 * part) once it is reached: -ENOMEM, as Linux. */
int sysctl_max_map_count = DEFAULT_MAX_MAP_COUNT;

/* Split v at addr (strictly inside it): v keeps [start, addr), the new VMA
 * (returned) gets [addr, end).  NULL when out of memory or at
 * max_map_count. */
static struct vm_area_struct *split_vma(struct mm_struct *mm, struct vm_area_struct *v,
                                        unsigned long addr)
{
    if (mm->map_count >= sysctl_max_map_count)
        return NULL;
    struct vm_area_struct *n = vma_copy(mm, v, addr, v->vm_end,
                                        v->vm_pgoff + ((addr - v->vm_start) >> PAGE_SHIFT));
    if (!n)
        return NULL;
    v->vm_end = addr;
    list_add(&n->vm_list, &v->vm_list);               /* right after v */
    mm->map_count++;
    vma_link_file(n);
    return n;
}

/* Can b be appended to a? */
static bool vma_can_merge(const struct vm_area_struct *a, const struct vm_area_struct *b)
{
    return a->vm_end == b->vm_start && a->vm_flags == b->vm_flags &&
           a->vm_file == b->vm_file && a->vm_ops == b->vm_ops &&
           (!a->vm_file || a->vm_pgoff + vma_pages(a) == b->vm_pgoff);
}

/* Merge v with its neighbours where possible; returns the VMA now covering
 * v's range. */
static struct vm_area_struct *vma_merge(struct mm_struct *mm, struct vm_area_struct *v)
{
    struct vm_area_struct *prev = vma_prev(mm, v), *next = vma_next(mm, v);
    if (next && vma_can_merge(v, next)) {
        v->vm_end = next->vm_end;
        vma_free(mm, next);
    }
    if (prev && vma_can_merge(prev, v)) {
        prev->vm_end = v->vm_end;
        vma_free(mm, v);
        v = prev;
    }
    return v;
}

/* mremap's new VMA (Linux's copy_vma): v's flags, file and ops over
 * [addr, addr + len), mapping file page pgoff at addr, linked (counted in
 * total_vm and locked_vm) and merged with its neighbours.  Shared
 * anonymous memory is not merged: each mapping of it is its own object
 * (Linux's shmem file; here the frames its PTEs share).  NULL when out of
 * memory.  The merge may free v (the new VMA took it over): look the old
 * range up again after. */
struct vm_area_struct *copy_vma(struct mm_struct *mm, struct vm_area_struct *v,
                                unsigned long addr, unsigned long len, unsigned long pgoff)
{
    struct vm_area_struct *n = vma_copy(mm, v, addr, addr + len, pgoff);
    if (!n)
        return NULL;
    vma_link(mm, n);
    return vma_shared_anon(n) ? n : vma_merge(mm, n);
}

/* mremap's growth in place: v now ends at end (the caller found
 * [v->vm_end, end) free), counted, and merged with the VMA after it if they
 * are compatible (Linux's vma_merge of the extension).  Returns the VMA
 * now covering v's range. */
struct vm_area_struct *vma_expand_to(struct mm_struct *mm, struct vm_area_struct *v,
                                     unsigned long end)
{
    unsigned long pages = (end - v->vm_end) >> PAGE_SHIFT;
    mm->total_vm += pages;
    if (v->vm_flags & VM_LOCKED)
        mm->locked_vm += pages;
    v->vm_end = end;
    return vma_shared_anon(v) ? v : vma_merge(mm, v);
}

/* ---- address spaces ---------------------------------------------------- */

/* An unlocked mmap_sem: one init site, so that every mm's lock is one
 * class for the lock validator (kernel/lockdep.c keys a class by the
 * init_rwsem that made it), forked or new. */
static void mm_init_mmap_sem(struct mm_struct *mm)
{
    mm->mmap_sem.name = "mmap_sem";
    init_rwsem(&mm->mmap_sem);
    mm->page_table_lock.name = "page_table_lock";
    spin_lock_init(&mm->page_table_lock);
}

struct mm_struct *mm_alloc(void)
{
    struct mm_struct *mm = kzalloc(sizeof *mm, GFP_KERNEL);
    if (!mm)
        return NULL;
    mm->pgd = (uint32_t *)pgd_alloc();
    if (!mm->pgd) {
        kfree(mm);
        return NULL;
    }
    INIT_LIST_HEAD(&mm->mmap);
    mm_init_mmap_sem(mm);
    mm->mm_users = 1;
    mm->mmap_base = TASK_UNMAPPED_BASE;
    mm->stack_rlimit = DEFAULT_STACK_RLIMIT;
    return mm;
}

/* Free everything: every VMA's frames, the VMAs, then the page directory
 * with its page tables. */
static void exit_mmap(struct mm_struct *mm)
{
    struct vm_area_struct *v, *tmp;
    list_for_each_entry_safe(v, tmp, &mm->mmap, vm_list) {
        zap_page_range(mm, v->vm_start, v->vm_end);
        vma_remove(mm, v);
    }
    /* No task runs mm any more (mm_users is 0), but CPUs may keep it in
     * lazy TLB mode, this one too (the exiting task's use_mm(NULL)): the
     * flush makes each leave it (leave_mm), so that the directory is
     * nobody's when it is freed, and nobody touches mm after (docs/smp.md:
     * this is the reference the lazy CPUs hold). */
    flush_tlb_mm(mm);
    WARN_ON(READ_ONCE(mm->cpu_vm_mask) & cpu_online_mask);   /* a stopped CPU keeps its bit */
    int cpu;
    for_each_online_cpu(cpu)          /* never free a directory a CPU has loaded */
        WARN_ON(per_cpu(cpu_loaded_pgd, cpu) == (pgd_t *)mm->pgd);
    pgd_free((pgd_t *)mm->pgd);
    mm->pgd = NULL;
}

void mmput(struct mm_struct *mm)
{
    if (!mm)
        return;
    BUG_ON(mm->mm_users <= 0);
    if (--mm->mm_users)
        return;
    exit_mmap(mm);
    if (mm->exe_file)
        fput(mm->exe_file);            /* its writers may come back */
    kfree(mm);
}

struct mm_struct *dup_mm(struct mm_struct *oldmm)
{
    struct mm_struct *mm = mm_alloc();
    if (!mm)
        return NULL;
    /* Everything but the directory, the list, the lock and the counts.
     * The parent's mmap_sem, for writing as Linux's dup_mmap, keeps its
     * VMAs and PTEs still while we copy (the COW copy write-protects the
     * parent's PTEs: no fault of another of its threads may run). */
    down_write(&oldmm->mmap_sem);
    uint32_t *pgd = mm->pgd;
    *mm = *oldmm;
    mm->pgd = pgd;
    mm_init_mmap_sem(mm);               /* unlocked: not the parent's held state */
    INIT_LIST_HEAD(&mm->mmap);
    mm->mmap_cache = NULL;
    mm->mm_users = 1;
    mm->cpu_vm_mask = 0;                /* no CPU has it loaded yet (not the parent's CPUs) */
    mm->map_count = 0;
    mm->total_vm = 0;
    mm->rss = 0;
    mm->locked_vm = 0;                  /* memory locks are not inherited (mlock(2)) */
    mm->def_flags = 0;
    if (mm->exe_file)
        get_file(mm->exe_file);        /* the child runs the same program */

    struct vm_area_struct *v;
    list_for_each_entry(v, &oldmm->mmap, vm_list) {
        if (v->vm_flags & VM_DONTCOPY)  /* madvise(MADV_DONTFORK): not in the child */
            continue;
        struct vm_area_struct *n = vma_copy(mm, v, v->vm_start, v->vm_end, v->vm_pgoff);
        if (!n)
            goto fail;
        n->vm_flags &= ~VM_LOCKED_MASK;
        list_add_tail(&n->vm_list, &mm->mmap);
        mm->map_count++;
        mm->total_vm += vma_pages(n);
        vma_link_file(n);
        /* MADV_WIPEONFORK: the child's copy starts with no pages (zeros) */
        if (!(v->vm_flags & VM_WIPEONFORK) && copy_page_range(mm, oldmm, v))
            goto fail;
    }
    up_write(&oldmm->mmap_sem);
    return mm;
fail:
    up_write(&oldmm->mmap_sem);
    mmput(mm);
    return NULL;
}

/* Linux 2.6.24's switch_mm (include/asm-x86/mmu_context_32.h): run next's
 * tasks on this CPU.  Out of the previous mm's mask, into next's (before
 * the CR3 load: a flush that reads next's mask after this sees us, and one
 * that read it before changed its PTE before our load), load next's
 * directory: unless next is the mm this CPU already has, kept lazily by
 * the kernel threads since (then no CR3 write; a lazy CPU that a flush made
 * leave_mm has active_mm NULL, so it loads).  prev and tsk: Linux's
 * arguments, unused (the CPU's own cpu_tlbstate says what is loaded).
 * Interrupts off. */
void switch_mm(struct mm_struct *prev, struct mm_struct *next, struct task_struct *tsk)
{
    int cpu = smp_processor_id();
    struct tlb_state *ts = this_cpu_ptr(&cpu_tlbstate);
    struct mm_struct *active = ts->active_mm;
    ts->state = TLBSTATE_OK;
    if (active == next) {
        BUG_ON(!test_bit(cpu, &next->cpu_vm_mask));
        return;
    }
    if (active)
        clear_bit(cpu, &active->cpu_vm_mask);   /* the last touch of it */
    ts->active_mm = next;
    set_bit(cpu, &next->cpu_vm_mask);
    switch_pgd((pgd_t *)next->pgd);
}

/* Linux's enter_lazy_tlb: a kernel thread (no mm of its own) follows on
 * this CPU; it keeps the directory loaded (no CR3 write), and the CPU stays
 * in the mm's mask, lazily: the next flush of that mm makes it leave
 * (leave_mm, kernel/x86/smp.c) rather than flush.  mm and tsk: Linux's
 * arguments, unused.  Interrupts off. */
void enter_lazy_tlb(struct mm_struct *mm, struct task_struct *tsk)
{
    struct tlb_state *ts = this_cpu_ptr(&cpu_tlbstate);
    if (ts->state == TLBSTATE_OK)
        ts->state = TLBSTATE_LAZY;
}

struct mm_struct *use_mm(struct mm_struct *mm)
{
    struct task_struct *t = current;
    struct mm_struct *old = t->mm;
    unsigned long flags = local_irq_save();
    t->mm = mm;
    if (mm)
        switch_mm(old, mm, t);
    else
        enter_lazy_tlb(old, t);        /* as a kernel thread: old stays loaded */
    local_irq_restore(flags);
    return old;
}

/* ---- mmap / munmap / mprotect ------------------------------------------- */

/* The highest address bottom-up mmap may use: the stack keeps its room to
 * grow (stack_rlimit below STACK_TOP, plus the guard gap). */
static unsigned long mmap_limit(struct mm_struct *mm)
{
    unsigned long room = mm->stack_rlimit + STACK_GUARD_GAP;
    return room < STACK_TOP - mm->mmap_base ? STACK_TOP - room : STACK_TOP;
}

/* A free range of len bytes: the hint if it is free, else the first gap
 * from mm->mmap_base up.  0 if there is none. */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long hint, unsigned long len)
{
    unsigned long limit = mmap_limit(mm);
    hint &= PAGE_MASK;
    if (hint && hint >= PAGE_SIZE && hint <= TASK_SIZE - len &&
        !find_vma_intersection(mm, hint, hint + len))
        return hint;
    unsigned long addr = mm->mmap_base;
    struct vm_area_struct *v;
    list_for_each_entry(v, &mm->mmap, vm_list) {
        if (v->vm_end <= addr)
            continue;
        if (addr + len <= v->vm_start)
            break;
        addr = v->vm_end;
    }
    return addr <= limit && len <= limit - addr ? addr : 0;
}

static unsigned long calc_vm_flags(unsigned long prot, unsigned long flags)
{
    unsigned long vmf = 0;
    if (prot & PROT_READ)
        vmf |= VM_READ;
    if (prot & PROT_WRITE)
        vmf |= VM_WRITE;
    if (prot & PROT_EXEC)
        vmf |= VM_EXEC;
    if ((flags & MAP_TYPE) == MAP_SHARED)
        vmf |= VM_SHARED;
    if (flags & MAP_GROWSDOWN)
        vmf |= VM_GROWSDOWN;
    return vmf;
}

/* Fault in every page of [start, end) of v now (MAP_POPULATE, shared
 * anonymous memory).  0 or -ENOMEM. */
int populate_range(struct vm_area_struct *v, unsigned long start, unsigned long end)
{
    for (unsigned long va = start; va < end; va += PAGE_SIZE)
        if (handle_mm_fault(v, va, (v->vm_flags & VM_WRITE) ? FAULT_FLAG_WRITE : 0))
            return -ENOMEM;
    return 0;
}

/* Shared anonymous memory is populated when it is mapped (do_mmap, below),
 * where Linux's shmem has a page only once it is touched; mincore
 * (mm/mincore.c) tells the touched ones by the accessed and dirty bits
 * the CPU sets in their PTEs.  A populate Linux makes too (MAP_POPULATE,
 * a lock) counts as a touch: the PTEs of [start, end) of v are marked
 * accessed.  No TLB flush: the bit is only read by mincore. */
static void mark_populated(struct vm_area_struct *v, unsigned long start, unsigned long end)
{
    if (!vma_shared_anon(v))
        return;
    for (unsigned long va = start; va < end; va += PAGE_SIZE) {
        pte_t *p = lookup_pte((pgd_t *)v->vm_mm->pgd, va);
        if (p && pte_has_page(*p))
            *p |= _PAGE_ACCESSED;
    }
}

long do_mmap(struct mm_struct *mm, struct file *file, unsigned long addr, unsigned long len,
             unsigned long prot, unsigned long flags, unsigned long pgoff)
{
    if (!mm)
        return -EINVAL;
    if (!len)
        return -EINVAL;
    if (len > TASK_SIZE)
        return -ENOMEM;
    len = PAGE_ALIGN(len);
    unsigned long type = flags & MAP_TYPE;
    if (flags & MAP_ANONYMOUS)
        file = NULL;
    else if (!file)
        return -EBADF;
    /* MAP_SHARED_VALIDATE: MAP_SHARED that refuses flags it does not know
     * (-EOPNOTSUPP: MAP_SYNC, anything new), where MAP_SHARED ignores
     * them; a file mapping only (anonymous memory: -EINVAL), as Linux. */
    if (type == MAP_SHARED_VALIDATE && file) {
        if (flags & ~LEGACY_MAP_MASK)
            return -EOPNOTSUPP;
        type = MAP_SHARED;
        flags = (flags & ~MAP_TYPE) | MAP_SHARED;
    }
    if (type != MAP_SHARED && type != MAP_PRIVATE)
        return -EINVAL;
    if (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC))
        return -EINVAL;
    if (mm->map_count > sysctl_max_map_count)
        return -ENOMEM;
    if (file) {
        /* Linux's checks: the file must be readable; a shared writable
         * mapping needs a file opened for writing (do_mprotect refuses to
         * add PROT_WRITE later).  pgoff + pages must not wrap. */
        if (!file->f_op || !file->f_op->mmap)
            return -ENODEV;
        if (!(file->f_mode & FMODE_READ))
            return -EACCES;
        if (type == MAP_SHARED && !(file->f_mode & FMODE_WRITE) && (prot & PROT_WRITE))
            return -EACCES;
        if (pgoff + (len >> PAGE_SHIFT) < pgoff)
            return -EOVERFLOW;
    }

    /* MAP_LOCKED and mlockall(MCL_FUTURE): as mlock, within RLIMIT_MEMLOCK */
    unsigned long vmf = calc_vm_flags(prot, flags) | mm->def_flags;
    /* A shared mapping may be made writable later (mprotect) only if
     * it could be now: anonymous, or its file open for writing. */
    if (type == MAP_SHARED && (!file || (file->f_mode & FMODE_WRITE)))
        vmf |= VM_MAYWRITE;
    if (flags & MAP_LOCKED) {
        if (!can_do_mlock())
            return -EPERM;
        vmf |= VM_LOCKED;
    }
    if ((vmf & VM_LOCKED) && !mlock_future_ok(mm, len))
        return -EAGAIN;

    if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
        if (addr & ~PAGE_MASK)
            return -EINVAL;
        if (addr > TASK_SIZE - len)
            return -ENOMEM;
        if (find_vma_intersection(mm, addr, addr + len)) {
            if (!(flags & MAP_FIXED))
                return -EEXIST;  /* MAP_FIXED_NOREPLACE */
            int err = do_munmap(mm, addr, len);
            if (err)
                return err;
        }
    } else {
        addr = get_unmapped_area(mm, addr, len);
        if (!addr)
            return -ENOMEM;
    }

    struct vm_area_struct *v = vma_alloc(mm, addr, addr + len, vmf);
    if (!v)
        return -ENOMEM;
    if (file) {
        v->vm_file = get_file(file);
        v->vm_pgoff = pgoff;
        int err = file->f_op->mmap(file, v);   /* sets vm_ops (generic_file_mmap) */
        if (err) {
            fput(v->vm_file);
            kfree(v);
            return err;
        }
        if (!v->vm_file)               /* the driver made it anonymous memory (/dev/zero) */
            file = NULL;
    }
    vma_link(mm, v);
    /* Shared anonymous memory is populated at once: fork then shares the
     * frames themselves (Linux backs it with a shmem file instead, so pages
     * faulted in after the fork are shared too).  A shared FILE mapping
     * needs no such thing: its pages are the page cache's, found again by
     * every fault. */
    bool populate = (!file && (vmf & VM_SHARED)) || (flags & MAP_POPULATE) ||
                    (vmf & (VM_LOCKED | VM_LOCKONFAULT)) == VM_LOCKED;
    if (!(vmf & VM_SHARED))
        v = vma_merge(mm, v);
    if (populate && populate_range(v, addr, addr + len) && !file) {
        do_munmap(mm, addr, len);
        return -ENOMEM;
    }
    if ((flags & MAP_POPULATE) || (vmf & (VM_LOCKED | VM_LOCKONFAULT)) == VM_LOCKED)
        mark_populated(v, addr, addr + len);
    return addr;
}

/* Does [start, start + *len) fit below TASK_SIZE once *len is rounded up
 * to whole pages (which it is, here)? */
static bool user_range_fits(unsigned long start, unsigned long *len)
{
    if (*len > TASK_SIZE)
        return false;
    *len = PAGE_ALIGN(*len);
    return start <= TASK_SIZE - *len;
}

int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
    if (!mm || (start & ~PAGE_MASK) || !len || !user_range_fits(start, &len))
        return -EINVAL;
    unsigned long end = start + len;

    struct vm_area_struct *v = find_vma(mm, start);
    while (v && v->vm_start < end) {
        if (v->vm_start < start) {                   /* keep the part below start */
            v = split_vma(mm, v, start);
            if (!v)
                return -ENOMEM;
            continue;
        }
        if (v->vm_end > end && !split_vma(mm, v, end))   /* keep the part above end */
            return -ENOMEM;
        struct vm_area_struct *next = vma_next(mm, v);
        zap_page_range(mm, v->vm_start, v->vm_end);
        vma_remove(mm, v);
        v = next;
    }
    return 0;
}

/* Where the mapped part of [start, end) that begins at start ends (start
 * itself if start is not mapped, end or past it if all is). */
static unsigned long mapped_prefix_end(struct mm_struct *mm, unsigned long start,
                                       unsigned long end)
{
    unsigned long covered = start;
    for (struct vm_area_struct *v = find_vma(mm, start); v && covered < end; v = vma_next(mm, v)) {
        if (v->vm_start > covered)
            break;
        covered = v->vm_end;
    }
    return covered;
}

/* Apply fn(v, arg) to each VMA of [start, end), split first so that it lies
 * inside the range, merged with its neighbours after (mprotect, mlock,
 * madvise).  0, -ENOMEM, or fn's error (the VMAs before keep their change). */
int change_vma_range(struct mm_struct *mm, unsigned long start, unsigned long end,
                            int (*fn)(struct vm_area_struct *v, unsigned long arg),
                            unsigned long arg)
{
    struct vm_area_struct *v = find_vma(mm, start);
    while (v && v->vm_start < end) {
        if (v->vm_start < start) {
            v = split_vma(mm, v, start);
            if (!v)
                return -ENOMEM;
            continue;
        }
        if (v->vm_end > end && !split_vma(mm, v, end))
            return -ENOMEM;
        int err = fn(v, arg);
        if (err)
            return err;
        v = vma_merge(mm, v);
        v = vma_next(mm, v);
    }
    return 0;
}

static int mprotect_vma(struct vm_area_struct *v, unsigned long access)
{
    if ((access & VM_WRITE) && (v->vm_flags & VM_SHARED) && !(v->vm_flags & VM_MAYWRITE))
        return -EACCES;            /* shared mapping of a file opened read-only
                                    * (/dev/zero's too) */
    unsigned long newflags = (v->vm_flags & ~VM_ACCESS_FLAGS) | access;
    change_protection(v, v->vm_start, v->vm_end, newflags);
    v->vm_flags = newflags;
    return 0;
}

int do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
                unsigned long prot)
{
    if (!mm || (start & ~PAGE_MASK))
        return -EINVAL;
    if (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC))
        return -EINVAL;
    if (!len)
        return 0;
    if (!user_range_fits(start, &len))
        return -ENOMEM;
    /* The whole range must be mapped; checked before changing anything
     * (Linux may change a prefix before it finds the hole). */
    if (mapped_prefix_end(mm, start, start + len) < start + len)
        return -ENOMEM;
    return change_vma_range(mm, start, start + len, mprotect_vma, calc_vm_flags(prot, 0));
}

/* ---- memory locks (Linux's mm/mlock.c) ------------------------------------
 *
 * mlock, mlock2, munlock, mlockall, munlockall and MAP_LOCKED give VMAs
 * VM_LOCKED (VM_LOCKONFAULT too for MLOCK_ONFAULT and MCL_ONFAULT), counted
 * in mm->locked_vm (/proc/PID/status VmLck), and fault their pages in now
 * (not for ONFAULT).  Vellum never swaps anonymous memory, and reclaim
 * takes only page-cache pages no PTE maps, so a locked page already stays;
 * what locking adds is the residency now, the accounting, and Linux's
 * errors: EPERM without RLIMIT_MEMLOCK (and not CAP_IPC_LOCK), ENOMEM past
 * it or over a hole, EAGAIN for MAP_LOCKED past it, EBUSY from
 * msync(MS_INVALIDATE).  Locks are not inherited by fork nor kept by exec.
 * A page that cannot be faulted in (past EOF) leaves the range locked and
 * makes mlock ENOMEM (mlockall and MAP_LOCKED go on without it), as Linux.
 */
static unsigned long memlock_limit_pages(void)
{
    unsigned long long lim = current->rlim_memlock[0];
    return lim >= (unsigned long long)TASK_SIZE ? ~0UL : (unsigned long)(lim >> PAGE_SHIFT);
}

bool can_do_mlock(void)
{
    return current->rlim_memlock[0] != 0 || capable(CAP_IPC_LOCK);
}

/* May len more bytes be locked (MAP_LOCKED, MCL_FUTURE's new mappings, a
 * locked mapping grown by mremap)? */
bool mlock_future_ok(struct mm_struct *mm, unsigned long len)
{
    return capable(CAP_IPC_LOCK) ||
           mm->locked_vm + (len >> PAGE_SHIFT) <= memlock_limit_pages();
}

/* Pages of [start, end) already locked (so not counted twice). */
static unsigned long locked_pages_in(struct mm_struct *mm, unsigned long start, unsigned long end)
{
    unsigned long n = 0;
    for (struct vm_area_struct *v = find_vma(mm, start); v && v->vm_start < end; v = vma_next(mm, v))
        if (v->vm_flags & VM_LOCKED)
            n += (min(end, v->vm_end) - max(start, v->vm_start)) >> PAGE_SHIFT;
    return n;
}

/* Set v's lock flags to lockflags (0: unlock), counted in locked_vm. */
int mlock_vma(struct vm_area_struct *v, unsigned long lockflags)
{
    struct mm_struct *mm = v->vm_mm;
    unsigned long old = v->vm_flags;
    if ((old & VM_LOCKED) && !(lockflags & VM_LOCKED))
        mm->locked_vm -= vma_pages(v);
    else if (!(old & VM_LOCKED) && (lockflags & VM_LOCKED))
        mm->locked_vm += vma_pages(v);
    v->vm_flags = (old & ~VM_LOCKED_MASK) | lockflags;
    return 0;
}

/* Fault in the locked pages of [start, end) (Linux's __mm_populate): not
 * those of VM_LOCKONFAULT or PROT_NONE VMAs, and a write fault only where
 * it breaks COW (a shared page is not dirtied for nothing).  A fault that
 * fails ends it, unless ignore_errors (mlockall): -EFAULT where an access
 * would signal (past the end of a file), -ENOMEM out of memory. */
int populate_locked(struct mm_struct *mm, unsigned long start, unsigned long end,
                    bool ignore_errors)
{
    for (struct vm_area_struct *v = find_vma(mm, start); v && v->vm_start < end; v = vma_next(mm, v)) {
        if ((v->vm_flags & (VM_LOCKED | VM_LOCKONFAULT)) != VM_LOCKED ||
            !(v->vm_flags & VM_ACCESS_FLAGS))
            continue;
        unsigned int flags = (v->vm_flags & (VM_WRITE | VM_SHARED)) == VM_WRITE ? FAULT_FLAG_WRITE : 0;
        unsigned long va;
        for (va = max(start, v->vm_start); va < min(end, v->vm_end); va += PAGE_SIZE) {
            int fault = handle_mm_fault(v, va, flags);
            if (fault && ignore_errors)
                break;                  /* on to the next VMA, as Linux */
            if (fault)
                return (fault & VM_FAULT_OOM) ? -ENOMEM : -EFAULT;
        }
        mark_populated(v, max(start, v->vm_start), va);
    }
    return 0;
}

static long do_mlock(unsigned long start, unsigned long len, unsigned long lockflags)
{
    struct mm_struct *mm = current->mm;
    if (!mm)
        return -EINVAL;
    if (lockflags && !can_do_mlock())
        return -EPERM;
    len = PAGE_ALIGN(len + (start & ~PAGE_MASK));
    start &= PAGE_MASK;
    unsigned long end = start + len;
    if (end < start)
        return -EINVAL;
    if (end == start)
        return 0;
    down_write(&mm->mmap_sem);
    long err = 0;
    if (lockflags && !capable(CAP_IPC_LOCK) &&
        mm->locked_vm + (len >> PAGE_SHIFT) - locked_pages_in(mm, start, end) >
        memlock_limit_pages())
        err = -ENOMEM;
    else {
        /* Linux's apply_vma_lock_flags: the mapped run from start changes,
         * then a hole after it is -ENOMEM (nothing at start: no change). */
        unsigned long mapped = min(mapped_prefix_end(mm, start, end), end);
        err = mapped > start ? change_vma_range(mm, start, mapped, mlock_vma, lockflags) : 0;
        if (!err && mapped < end)
            err = -ENOMEM;
        /* Then the pages: the range stays locked if one cannot come in
         * (mlock's POSIX errors: ENOMEM for it, EAGAIN out of memory). */
        if (!err && lockflags) {
            err = populate_locked(mm, start, end, false);
            err = err == -EFAULT ? -ENOMEM : err == -ENOMEM ? -EAGAIN : err;
        }
    }
    up_write(&mm->mmap_sem);
    return err;
}

long sys_mlock(unsigned long start, size_t len) { return do_mlock(start, len, VM_LOCKED); }
long sys_munlock(unsigned long start, size_t len) { return do_mlock(start, len, 0); }

long sys_mlock2(unsigned long start, size_t len, int flags)
{
    if (flags & ~MLOCK_ONFAULT)
        return -EINVAL;
    return do_mlock(start, len, VM_LOCKED | (flags & MLOCK_ONFAULT ? VM_LOCKONFAULT : 0));
}

/* MCL_FUTURE goes to def_flags (do_mmap adds them); MCL_CURRENT locks
 * every VMA now; 0 (munlockall) unlocks them all. */
static long do_mlockall(int flags)
{
    struct mm_struct *mm = current->mm;
    if (!mm)
        return -EINVAL;
    unsigned long lockflags = VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);
    down_write(&mm->mmap_sem);
    if ((flags & MCL_CURRENT) && !capable(CAP_IPC_LOCK) && mm->total_vm > memlock_limit_pages()) {
        up_write(&mm->mmap_sem);
        return -ENOMEM;
    }
    mm->def_flags = flags & MCL_FUTURE ? lockflags : 0;
    struct vm_area_struct *v;
    if (flags & MCL_CURRENT || !flags)
        list_for_each_entry(v, &mm->mmap, vm_list)
            mlock_vma(v, flags ? lockflags : 0);
    if (flags & MCL_CURRENT)
        populate_locked(mm, 0, TASK_SIZE, true);
    up_write(&mm->mmap_sem);
    return 0;
}

long sys_mlockall(int flags)
{
    if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) || flags == MCL_ONFAULT)
        return -EINVAL;
    if (!can_do_mlock())
        return -EPERM;
    return do_mlockall(flags);
}

long sys_munlockall(void) { return do_mlockall(0); }

/* ---- the stack ----------------------------------------------------------- */

int setup_stack_vma(struct mm_struct *mm, unsigned long top, unsigned long size)
{
    size = PAGE_ALIGN(size);
    if ((top & ~PAGE_MASK) || top > TASK_SIZE || !size || size > top ||
        size > mm->stack_rlimit || find_vma_intersection(mm, top - size, top))
        return -ENOMEM;
    struct vm_area_struct *v = vma_alloc(mm, top - size, top,
                                         VM_READ | VM_WRITE | VM_GROWSDOWN);
    if (!v)
        return -ENOMEM;
    vma_link(mm, v);
    mm->start_stack = top;
    return 0;
}

int expand_stack(struct vm_area_struct *vma, unsigned long addr)
{
    struct mm_struct *mm = vma->vm_mm;
    addr &= PAGE_MASK;
    if (!(vma->vm_flags & VM_GROWSDOWN))
        return -EFAULT;
    if (addr >= vma->vm_start)
        return 0;
    if (vma->vm_end - addr > mm->stack_rlimit)
        return -ENOMEM;                              /* RLIMIT_STACK */
    struct vm_area_struct *prev = vma_prev(mm, vma);
    if (prev && addr < prev->vm_end + STACK_GUARD_GAP)
        return -ENOMEM;                              /* would touch the VMA below */
    /* mmap_sem is held for reading: two threads may grow it at once. */
    spin_lock(&mm->page_table_lock);
    if (addr < vma->vm_start) {
        mm->total_vm += (vma->vm_start - addr) >> PAGE_SHIFT;
        vma->vm_start = addr;
    }
    spin_unlock(&mm->page_table_lock);
    page_fault_stack_grow++;
    return 0;
}

/* ---- system calls ---------------------------------------------------------- */

static long do_sys_brk(unsigned long brk)
{
    struct mm_struct *mm = current->mm;
    if (!mm)
        return -ENOMEM;
    if (brk < mm->start_brk)
        return mm->brk;                              /* query (brk(0)) or bad: unchanged */
    unsigned long newend = PAGE_ALIGN(brk), oldend = PAGE_ALIGN(mm->brk);
    if (newend < brk)                                /* wrapped */
        return mm->brk;
    if (newend < oldend) {                           /* shrink */
        if (do_munmap(mm, newend, oldend - newend))
            return mm->brk;
    } else if (newend > oldend) {                    /* grow: must not hit anything */
        if (newend > mmap_limit(mm) || find_vma_intersection(mm, oldend, newend + STACK_GUARD_GAP))
            return mm->brk;
        long r = do_mmap(mm, NULL, oldend, newend - oldend, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0);
        if (IS_ERR_VALUE(r))
            return mm->brk;
    }
    mm->brk = brk;
    return brk;
}

long sys_brk(unsigned long brk)
{
    struct mm_struct *mm = current->mm;
    if (!mm)
        return -ENOMEM;
    down_write(&mm->mmap_sem);
    long r = do_sys_brk(brk);
    up_write(&mm->mmap_sem);
    return r;
}

long sys_mmap2(unsigned long addr, unsigned long len, unsigned long prot,
               unsigned long flags, unsigned long fd, unsigned long pgoff)
{
    struct mm_struct *mm = current->mm;
    struct file *file = NULL;
    if (!mm)
        return -ENOMEM;
    if (!(flags & MAP_ANONYMOUS)) {
        file = fget(fd);
        if (!file)
            return -EBADF;
    }
    down_write(&mm->mmap_sem);
    long r = do_mmap(mm, file, addr, len, prot, flags, file ? pgoff : 0);
    up_write(&mm->mmap_sem);
    if (file)
        fput(file);                     /* the VMA holds its own reference */
    return r;
}

long sys_munmap(unsigned long addr, unsigned long len)
{
    struct mm_struct *mm = current->mm;
    if (!mm)
        return -EINVAL;
    down_write(&mm->mmap_sem);
    int r = do_munmap(mm, addr, len);
    up_write(&mm->mmap_sem);
    return r;
}

long sys_mprotect(unsigned long start, unsigned long len, unsigned long prot)
{
    struct mm_struct *mm = current->mm;
    if (!mm)
        return -EINVAL;
    down_write(&mm->mmap_sem);
    int r = do_mprotect(mm, start, len, prot);
    up_write(&mm->mmap_sem);
    return r;
}

/*
 * msync(2): write back the file pages of the shared mappings in
 * [start, start+len).  For each shared file VMA in the range: move the
 * PTEs' hardware dirty bits to their pages (msync_pte_range), then, for
 * MS_SYNC, fsync the file (vfs_fsync(file, 1): its dirty pages, waited
 * for, and the metadata that finds them: the inode, the indirect blocks,
 * the bitmaps), with mmap_sem DROPPED (writeback takes page locks and may
 * sleep long; Linux drops it too).  Writing the pages alone is not enough:
 * pages that fill holes get blocks at writeback, and a power cut after
 * msync would leave a file whose on-disk inode knows none of them.
 * Linux's msync is vfs_fsync_range(file, start, end, 1), an fdatasync of
 * the range; Vellum's fsync is of the whole file (and, for ext2, the whole
 * file system: generic_file_fsync), which is more than the range, never
 * less.  MS_ASYNC only marks the
 * pages dirty (the flusher writes them: Linux's behaviour since 2.6.19).
 * MS_INVALIDATE over a locked VMA is -EBUSY; otherwise it does nothing (our
 * mappings always show the page cache).  Errors: -EINVAL (unaligned start, unknown flags, both
 * MS_SYNC and MS_ASYNC), -ENOMEM (part of the range unmapped; the rest is
 * still synced), -EIO from writeback.
 */
long sys_msync(unsigned long start, unsigned long len, int flags)
{
    struct mm_struct *mm = current->mm;
    if (!mm || (start & ~PAGE_MASK) || (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC)) ||
        ((flags & MS_ASYNC) && (flags & MS_SYNC)))
        return -EINVAL;
    if (!user_range_fits(start, &len))
        return -ENOMEM;
    unsigned long end = start + len;
    int err = 0, unmapped = 0;

    down_read(&mm->mmap_sem);
    while (start < end) {
        struct vm_area_struct *v = find_vma(mm, start);
        if (!v)
            break;
        if (v->vm_start > start) {
            unmapped = 1;               /* a hole in the range */
            start = v->vm_start;
            continue;
        }
        if ((flags & MS_INVALIDATE) && (v->vm_flags & VM_LOCKED)) {
            err = -EBUSY;               /* locked pages cannot be invalidated */
            break;
        }
        unsigned long stop = min(end, v->vm_end);
        struct file *file = NULL;
        if ((v->vm_flags & VM_SHARED) && v->vm_file) {
            msync_pte_range(v, start, stop);
            file = get_file(v->vm_file);
        }
        start = stop;
        if (file && (flags & MS_SYNC)) {
            up_read(&mm->mmap_sem);    /* the VMA may change meanwhile */
            int e = vfs_fsync(file, 1);
            fput(file);
            if (e && !err)
                err = e;
            down_read(&mm->mmap_sem);
        } else if (file) {
            fput(file);
        }
    }
    if (start < end)
        unmapped = 1;
    up_read(&mm->mmap_sem);
    return err ? err : unmapped ? -ENOMEM : 0;
}
