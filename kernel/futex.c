/* kernel/futex.c: futexes (process layer), as Linux 2.6's kernel/futex.c.
 * Owns the futex hash (its buckets and their locks), the futex keys, and
 * the futex/futex_time64 system calls: FUTEX_WAIT, FUTEX_WAKE and their
 * _BITSET forms, FUTEX_REQUEUE and FUTEX_CMP_REQUEUE; FUTEX_PRIVATE_FLAG
 * and FUTEX_CLOCK_REALTIME; and the walk
 * of a dying thread's robust list (exit_robust_list).  Sits on the address-space layer (find_vma
 * under mmap_sem, the uaccess routines) and the scheduler.
 *
 * A futex is a 32-bit word in user memory.  User space does the fast path
 * (an atomic on the word) and calls the kernel only to sleep until the word
 * changes (FUTEX_WAIT: "sleep if *uaddr is still val") or to wake sleepers
 * (FUTEX_WAKE: "wake up to nr").  The kernel keeps no state per futex: a
 * sleeper is a futex_q on the hash bucket of its key.
 *
 * The key says which word, so that two mappings of the same word meet:
 *
 *   private (FUTEX_PRIVATE_FLAG, or a private mapping):  (mm, address)
 *   a MAP_SHARED file mapping:     (inode, page index, offset | 1)
 *   MAP_SHARED anonymous memory:   (physical frame, 0, offset | 2)
 *
 * as Linux 2.6.24's get_futex_key (the low bits of the offset tell the
 * kinds apart); Linux keys shared anonymous memory by its shmem inode,
 * which Vellum does not have: the frame names it as well (it is populated
 * at mmap time and never moves).  A file key holds a reference to its
 * inode while in use.
 *
 * The compare-and-block is atomic with respect to a wake: futex_wait takes
 * the bucket lock, reads the user word with page faults disabled, and
 * queues itself before the lock is dropped; a waker that changed the word
 * and takes the lock after that finds the waiter queued.  If the read
 * faults (the page is not present), the lock is dropped, the word faulted
 * in with an ordinary get_user and the whole step retried: the same
 * pattern as the write path's copy under the page lock
 * (generic_perform_write in mm/filemap.c: copy atomically, on a fault let
 * go, fault in, retry), for the same reason: no fault may be handled (it
 * may sleep on the disk) with a spinlock held.
 *
 * Locks: futex_hash_bucket.lock (one per bucket, spinlock) is a leaf: only
 * the run queue (wake_up_process) is touched under it; see the LOCK ORDER
 * comment in mm/filemap.c.  A requeue holds two buckets' locks, the one at
 * the lower address first (double_lock_hb; the second is spin_lock_nested,
 * subclass 1, for the validator).  The key lookup takes mm->mmap_sem and drops it
 * before any bucket lock is taken.
 */
#include <kernel.h>
#include <string.h>
#include <init.h>
#include <errno.h>
#include <list.h>
#include <spinlock.h>
#include <sched.h>
#include <signal.h>
#include <mm.h>
#include <mm_types.h>
#include <fs.h>
#include <mutex.h>
#include <timer.h>
#include <futex.h>
#include <syscalls.h>
#include <asm/uaccess.h>
#include <asm/pgtable.h>

/* Which word: see the file comment. */
struct futex_key {
    void *ptr;                         /* mm (private) or inode (shared) */
    unsigned long word;                /* the address (private) or page index (shared) */
    unsigned long offset;              /* 0 (private) or offset in the page | 1 (shared) */
};

/* One sleeper, on its stack, queued on its key's bucket. */
struct futex_q {
    struct list_head list;             /* on hb->chain; empty once woken */
    struct task_struct *task;
    struct futex_key key;
    uint32_t bitset;                   /* FUTEX_WAIT_BITSET's mask; ~0 for FUTEX_WAIT */
    struct futex_hash_bucket *hb;      /* the bucket it is on: a requeue moves it
                                          (changed under both buckets' locks) */
};

struct futex_hash_bucket {
    spinlock_t lock;                   /* chain, and every futex_q on it */
    struct list_head chain;
};

#define FUTEX_HASHBITS 6
static struct futex_hash_bucket futex_queues[1 << FUTEX_HASHBITS];

static void futex_init(void)
{
    for (int i = 0; i < (1 << FUTEX_HASHBITS); i++) {
        spin_lock_init(&futex_queues[i].lock);
        futex_queues[i].lock.name = "futex_hash_bucket";
        INIT_LIST_HEAD(&futex_queues[i].chain);
    }
}
core_initcall(futex_init);

static struct futex_hash_bucket *hash_futex(const struct futex_key *key)
{
    unsigned long h = (unsigned long)key->ptr ^ (key->word * 0x9e370001UL) ^ key->offset;
    h ^= h >> 16;
    h ^= h >> FUTEX_HASHBITS;
    return &futex_queues[h & ((1 << FUTEX_HASHBITS) - 1)];
}

static bool match_futex(const struct futex_key *a, const struct futex_key *b)
{
    return a->ptr == b->ptr && a->word == b->word && a->offset == b->offset;
}

/* The key of the word at uaddr in current's address space (Linux's
 * get_futex_key).  -EINVAL if misaligned, -EFAULT if not mapped.  A shared
 * key holds an inode reference: put_futex_key drops it. */
static int get_futex_key(uint32_t *uaddr, int private, struct futex_key *key)
{
    unsigned long address = (unsigned long)uaddr;
    struct mm_struct *mm = current->mm;
    if (address % sizeof(uint32_t))
        return -EINVAL;
    if (!access_ok(uaddr, sizeof(uint32_t)) || !mm)
        return -EFAULT;
    key->ptr = mm;
    key->word = address;
    key->offset = 0;
    if (private)
        return 0;
    /* A shared key needs the page (Linux's get_user_pages_fast): an
     * address with no mapping, a PROT_NONE one, a file page past the end
     * of the file is -EFAULT.  A private key is the address alone, as
     * Linux's: no check. */
    if (fault_in_readable(uaddr, sizeof(uint32_t)))
        return -EFAULT;
    for (;;) {
        down_read(&mm->mmap_sem);
        struct vm_area_struct *vma = find_vma(mm, address);
        if (!vma || vma->vm_start > address) {
            up_read(&mm->mmap_sem);
            return -EFAULT;
        }
        if (!(vma->vm_flags & VM_SHARED)) {
            up_read(&mm->mmap_sem);
            return 0;                  /* private mapping: (mm, address) */
        }
        if (vma->vm_file) {
            struct inode *inode = igrab(vma->vm_file->f_inode);
            if (inode) {
                key->ptr = inode;
                key->word = vma->vm_pgoff + ((address - vma->vm_start) >> PAGE_SHIFT);
                key->offset = (address & ~PAGE_MASK) | 1;
            }
            up_read(&mm->mmap_sem);
            return 0;
        }
        /* Shared anonymous memory: its frame, which every process mapping
         * it maps (mm/mmap.c populates it at mmap time and never moves it). */
        pte_t *pte = lookup_pte((pgd_t *)mm->pgd, address);
        if (pte && pte_present(*pte)) {
            key->ptr = (void *)pte_phys(*pte);
            key->word = 0;
            key->offset = (address & ~PAGE_MASK) | 2;
            up_read(&mm->mmap_sem);
            return 0;
        }
        up_read(&mm->mmap_sem);
        if (fault_in_readable(uaddr, sizeof(uint32_t)))   /* not present: fault */
            return -EFAULT;                                 /* it in, look again */
    }
}

static void put_futex_key(struct futex_key *key)
{
    if (key->offset & 1)
        iput(key->ptr);
}

/* Read the futex word with page faults disabled: under a bucket lock,
 * where no fault may be handled.  0, or -EFAULT if it is not present
 * (or not mapped at all: the caller's get_user outside the lock tells). */
static int get_futex_value_locked(uint32_t *dest, uint32_t *uaddr)
{
    pagefault_disable();
    int ret = get_user(*dest, uaddr);
    pagefault_enable();
    return ret;
}

/* Take the word's bucket lock with the word's current value read under it
 * (Linux's futex_wait_setup loop).  On a fault the lock is let go, the
 * page faulted in, and the read retried.  0 with hb->lock held, or -EFAULT
 * with no lock held. */
static int lock_and_read(struct futex_hash_bucket *hb, uint32_t *uaddr, uint32_t *uval)
{
    for (;;) {
        spin_lock(&hb->lock);
        if (!get_futex_value_locked(uval, uaddr))
            return 0;
        spin_unlock(&hb->lock);
        if (get_user(*uval, uaddr))    /* may sleep: fault it in */
            return -EFAULT;
    }
}

/* Sleep while *uaddr == val, until woken by a FUTEX_WAKE whose bitset
 * meets ours, a signal, or the deadline (absolute jiffies; 0: none).
 * 0 when woken, -EAGAIN if the word differed, -ETIMEDOUT,
 * -ERESTARTSYS on a signal (-EINTR with a deadline: a restart would begin
 * the wait again, where Linux restarts with the time left; simplification). */
static int futex_wait(uint32_t *uaddr, int private, uint32_t val, unsigned long deadline,
                      uint32_t bitset)
{
    struct futex_q q;
    uint32_t uval;
    int ret;

    if (!bitset)
        return -EINVAL;
    ret = get_futex_key(uaddr, private, &q.key);
    if (ret)
        return ret;
    INIT_LIST_HEAD(&q.list);
    q.task = current;
    q.bitset = bitset;
    struct futex_hash_bucket *hb = hash_futex(&q.key);
    ret = lock_and_read(hb, uaddr, &uval);
    if (ret)
        goto out;
    if (uval != val) {
        spin_unlock(&hb->lock);
        ret = -EAGAIN;
        goto out;
    }
    q.hb = hb;
    list_add_tail(&q.list, &hb->chain);
    set_current_state(TASK_INTERRUPTIBLE);
    spin_unlock(&hb->lock);

    for (;;) {
        if (list_empty(&q.list))       /* READ_ONCE: the waker empties it */
            break;
        if (signal_pending(current))
            break;
        if (deadline && (long)(jiffies - deadline) >= 0)
            break;
        if (deadline)
            schedule_timeout((long)(deadline - jiffies));
        else
            schedule();
        set_current_state(TASK_INTERRUPTIBLE);
    }
    set_current_state(TASK_RUNNING);
    /* Unqueue (Linux's unqueue_me): a wake that came first wins over the
     * signal or the deadline.  A requeue may have moved us to another
     * bucket meanwhile: lock the one q.hb names, and look again once the
     * lock is held. */
    for (;;) {
        hb = READ_ONCE(q.hb);
        spin_lock(&hb->lock);
        if (hb == READ_ONCE(q.hb))
            break;
        spin_unlock(&hb->lock);
    }
    if (list_empty(&q.list)) {
        ret = 0;
    } else {
        list_del_init(&q.list);
        if (signal_pending(current))
            ret = deadline ? -EINTR : -ERESTARTSYS;
        else
            ret = -ETIMEDOUT;
    }
    spin_unlock(&hb->lock);
out:
    put_futex_key(&q.key);
    return ret;
}

/* Wake one sleeper: off the chain first (its futex_wait sees an empty
 * list and returns 0).  hb->lock held: the sleeper cannot return from
 * futex_wait, whose unqueue takes that lock, before we let go. */
static void wake_futex(struct futex_q *q)
{
    struct task_struct *t = q->task;
    list_del_init(&q->list);
    wake_up_process(t);
}

/* Wake up to nr sleepers on uaddr whose bitset meets ours; how many. */
static int futex_wake(uint32_t *uaddr, int private, int nr, uint32_t bitset)
{
    struct futex_key key;
    struct futex_q *q, *n;
    int ret, woken = 0;

    if (!bitset)
        return -EINVAL;
    ret = get_futex_key(uaddr, private, &key);
    if (ret)
        return ret;
    struct futex_hash_bucket *hb = hash_futex(&key);
    spin_lock(&hb->lock);
    list_for_each_entry_safe(q, n, &hb->chain, list) {
        if (woken >= nr)
            break;
        if (match_futex(&q->key, &key) && (q->bitset & bitset)) {
            wake_futex(q);
            woken++;
        }
    }
    spin_unlock(&hb->lock);
    put_futex_key(&key);
    return woken;
}

/* Both buckets' locks, the lower address first; one lock if they are the
 * same bucket (Linux's double_lock_hb). */
static void double_lock_hb(struct futex_hash_bucket *hb1, struct futex_hash_bucket *hb2)
{
    if (hb1 > hb2) {
        struct futex_hash_bucket *t = hb1;
        hb1 = hb2;
        hb2 = t;
    }
    spin_lock(&hb1->lock);
    if (hb1 != hb2)
        spin_lock_nested(&hb2->lock, 1);
}

static void double_unlock_hb(struct futex_hash_bucket *hb1, struct futex_hash_bucket *hb2)
{
    spin_unlock(&hb1->lock);
    if (hb1 != hb2)
        spin_unlock(&hb2->lock);
}

/* FUTEX_REQUEUE, FUTEX_CMP_REQUEUE (Linux's futex_requeue, not the PI
 * form): wake up to nr_wake sleepers on uaddr1 and move up to nr_requeue
 * of the others to uaddr2's queue, where a wake of uaddr2 finds them.
 * CMP_REQUEUE first compares *uaddr1 with val3 under both locks: -EAGAIN
 * if it changed (so a waker and a requeuer cannot miss each other).
 * Returns how many were woken or moved.
 *
 * A moved sleeper's key is now key2; the reference a file key holds (its
 * inode) moves with it: one more on key2's inode and one less on key1's
 * for each, taken after the locks are let go (iput may sleep) while our
 * own references keep both inodes alive. */
static int futex_requeue(uint32_t *uaddr1, int private, uint32_t *uaddr2, int nr_wake,
                         int nr_requeue, const uint32_t *cmpval)
{
    struct futex_key key1, key2;
    struct futex_q *q, *n;
    int ret, woken = 0, moved = 0;

    if (nr_wake < 0 || nr_requeue < 0)
        return -EINVAL;
    ret = get_futex_key(uaddr1, private, &key1);
    if (ret)
        return ret;
    ret = get_futex_key(uaddr2, private, &key2);
    if (ret) {
        put_futex_key(&key1);
        return ret;
    }
    struct futex_hash_bucket *hb1 = hash_futex(&key1), *hb2 = hash_futex(&key2);
    for (;;) {
        double_lock_hb(hb1, hb2);
        if (!cmpval)
            break;
        uint32_t cur;
        if (!get_futex_value_locked(&cur, uaddr1)) {
            if (cur != *cmpval) {
                double_unlock_hb(hb1, hb2);
                ret = -EAGAIN;
                goto out;
            }
            break;
        }
        double_unlock_hb(hb1, hb2);    /* not present: fault it in, retry */
        if (get_user(cur, uaddr1)) {
            ret = -EFAULT;
            goto out;
        }
    }
    list_for_each_entry_safe(q, n, &hb1->chain, list) {
        if (!match_futex(&q->key, &key1))
            continue;
        if (woken < nr_wake) {
            wake_futex(q);
            woken++;
            continue;
        }
        if (moved >= nr_requeue)
            break;
        q->key = key2;
        if (hb1 != hb2) {
            list_move_tail(&q->list, &hb2->chain);
            WRITE_ONCE(q->hb, hb2);
        }
        moved++;
    }
    double_unlock_hb(hb1, hb2);
    for (int i = 0; i < moved; i++) {
        if (key2.offset & 1)
            igrab(key2.ptr);
        put_futex_key(&key1);          /* an extra one: ours is dropped below */
    }
    ret = woken + moved;
out:
    put_futex_key(&key2);
    put_futex_key(&key1);
    return ret;
}

/* mm_release's wake of a dead thread's clear_child_tid (include/futex.h). */
int futex_wake_address(int *uaddr, int nr)
{
    return futex_wake((uint32_t *)uaddr, 0, nr, FUTEX_BITSET_MATCH_ANY);
}

/* ---- robust futexes (Linux's exit_robust_list) -----------------------------
 * glibc registers, per thread, the list of robust mutexes it holds
 * (set_robust_list).  When the thread dies holding one, the kernel marks
 * the mutex's word FUTEX_OWNER_DIED and wakes a waiter, whose lock then
 * returns EOWNERDEAD instead of sleeping for ever.  i386 layout:
 *   struct robust_list_head { next; long futex_offset; list_op_pending; }
 * each entry's word is at entry + futex_offset; bit 0 of a pointer marks a
 * PI mutex (not built here: skipped). */
#define FUTEX_WAITERS      0x80000000u
#define FUTEX_OWNER_DIED   0x40000000u
#define FUTEX_TID_MASK     0x3fffffffu
#define ROBUST_LIST_LIMIT  2048

/* One word of a dead thread's robust mutex (Linux's handle_futex_death):
 * if the dead thread owns it, mark it FUTEX_OWNER_DIED, keeping
 * FUTEX_WAITERS, with a compare-and-store on the user word that is retried
 * while another thread of the process, on another CPU, changes the word
 * between our read and our store (a waiter setting FUTEX_WAITERS, which
 * must then be woken).  A fault gives up on the word. */
static void handle_futex_death(uint32_t *uaddr, pid_t tid, int pending)
{
    uint32_t uval, nval;
    if ((unsigned long)uaddr % sizeof(uint32_t) || get_user(uval, uaddr))
        return;
    if (pending && !uval) {
        /* It died between taking the lock and listing it: whoever waits
         * must look again (Linux's HANDLE_DEATH_PENDING). */
        futex_wake(uaddr, 0, 1, FUTEX_BITSET_MATCH_ANY);
        return;
    }
    for (;;) {
        if ((uval & FUTEX_TID_MASK) != (uint32_t)tid)
            return;
        if (futex_atomic_cmpxchg_inatomic(&nval, uaddr, uval,
                                          (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED))
            return;
        if (nval == uval)
            break;
        uval = nval;                   /* changed meanwhile: look again */
    }
    if (uval & FUTEX_WAITERS)
        futex_wake(uaddr, 0, 1, FUTEX_BITSET_MATCH_ANY);   /* glibc: shared futexes */
}

/* Read one list pointer; bit 0 (a PI entry) is cleared into *pi. */
static int fetch_robust_entry(unsigned long *entry, unsigned long uptr, int *pi)
{
    unsigned long v;
    if (get_user(v, (unsigned long *)uptr))
        return -EFAULT;
    *pi = v & 1;
    *entry = v & ~1UL;
    return 0;
}

void exit_robust_list(struct task_struct *t)
{
    unsigned long head = t->robust_list, entry, next, pending;
    long futex_offset;
    int pi, next_pi, pending_pi, limit = ROBUST_LIST_LIMIT;

    t->robust_list = 0;
    if (!head || fetch_robust_entry(&entry, head, &pi) ||
        get_user(futex_offset, (long *)(head + 4)) ||
        fetch_robust_entry(&pending, head + 8, &pending_pi))
        return;
    while (entry != head) {
        /* The next one first: the death may let another thread free entry. */
        int rc = fetch_robust_entry(&next, entry, &next_pi);
        if (entry != pending && !pi)
            handle_futex_death((uint32_t *)(entry + futex_offset), t->pid, 0);
        if (rc || !--limit)
            return;
        entry = next;
        pi = next_pi;
        cond_resched();
    }
    if (pending && !pending_pi)
        handle_futex_death((uint32_t *)(pending + futex_offset), t->pid, 1);
}

/* A user timespec (32- or 64-bit fields) as jiffies from its clock's zero
 * (absolute) or from now (relative), rounded up to a whole tick: the wait
 * never ends early.  -EFAULT, -EINVAL (nsec out of range, sec negative);
 * a time too far to count in jiffies is "no deadline" (*j = 0). */
static int timeout_to_jiffies(const void *uts, int time64, int absolute, int realtime,
                              unsigned long *j)
{
    long long sec, nsec;
    if (time64) {
        long long t[2];
        if (copy_from_user(t, uts, sizeof t))
            return -EFAULT;
        sec = t[0];
        nsec = t[1];
    } else {
        long t[2];
        if (copy_from_user(t, uts, sizeof t))
            return -EFAULT;
        sec = t[0];
        nsec = t[1];
    }
    if (sec < 0 || nsec < 0 || nsec >= 1000000000LL)
        return -EINVAL;
    if (absolute && realtime)
        sec -= (long long)boot_time;   /* CLOCK_REALTIME: boot_time is its jiffies 0 */
    long long ticks = sec * HZ + (nsec + (1000000000LL / HZ) - 1) / (1000000000LL / HZ);
    if (absolute) {
        if (ticks <= 0)
            ticks = 1;                 /* past already: any jiffies value >= 1 */
        if (ticks >= (long long)jiffies + 0x3fffffffLL) {
            *j = 0;
            return 0;
        }
        *j = (unsigned long)(ticks > (long long)jiffies ? ticks : (long long)jiffies);
        return 0;
    }
    if (ticks >= 0x3fffffffLL) {
        *j = 0;
        return 0;
    }
    *j = jiffies + (unsigned long)ticks + 1;   /* +1: the current tick is partly over */
    if (!*j)
        *j = 1;
    return 0;
}

/* futex(uaddr, op, val, timeout, uaddr2, val3): Linux's do_futex.  For the
 * requeue operations the timeout argument is a number, nr_requeue
 * (Linux's val2).  The other operations (FUTEX_WAKE_OP, the PI ones) are
 * -ENOSYS, as a kernel built without them: glibc 2.36's mutexes,
 * condition variables, joins and barriers use WAIT, WAIT_BITSET, WAKE
 * only (its condvar stopped requeueing in 2.25). */
long do_futex(uint32_t *uaddr, int op, uint32_t val, const void *timeout,
              uint32_t *uaddr2, uint32_t val3, int time64)
{
    int cmd = op & FUTEX_CMD_MASK;
    int private = !!(op & FUTEX_PRIVATE_FLAG);
    int realtime = !!(op & FUTEX_CLOCK_REALTIME);
    unsigned long deadline = 0;

    if (realtime && cmd != FUTEX_WAIT_BITSET)
        return -ENOSYS;
    switch (cmd) {
    case FUTEX_WAIT:
        val3 = FUTEX_BITSET_MATCH_ANY;
        /* fall through */
    case FUTEX_WAIT_BITSET:
        if (timeout) {
            int err = timeout_to_jiffies(timeout, time64, cmd == FUTEX_WAIT_BITSET,
                                         realtime, &deadline);
            if (err)
                return err;
        }
        return futex_wait(uaddr, private, val, deadline, val3);
    case FUTEX_WAKE:
        val3 = FUTEX_BITSET_MATCH_ANY;
        /* fall through */
    case FUTEX_WAKE_BITSET:
        return futex_wake(uaddr, private, (int)val, val3);
    case FUTEX_REQUEUE:
        return futex_requeue(uaddr, private, uaddr2, (int)val, (int)(long)timeout, NULL);
    case FUTEX_CMP_REQUEUE:
        return futex_requeue(uaddr, private, uaddr2, (int)val, (int)(long)timeout, &val3);
    default:
        return -ENOSYS;
    }
}

long sys_futex(uint32_t *uaddr, int op, uint32_t val, const void *timeout,
               uint32_t *uaddr2, uint32_t val3)
{
    return do_futex(uaddr, op, val, timeout, uaddr2, val3, 0);
}

long sys_futex_time64(uint32_t *uaddr, int op, uint32_t val, const void *timeout,
                      uint32_t *uaddr2, uint32_t val3)
{
    return do_futex(uaddr, op, val, timeout, uaddr2, val3, 1);
}
