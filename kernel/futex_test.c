/* kernel/futex_test.c: kernel tests of futexes (test=futex).  Layer: tests
 * of kernel/futex.c, whose static functions they call (hence the include).
 *
 * No process is needed: a test builds an mm_struct, makes it the current
 * task's address space with use_mm() and maps anonymous memory (as
 * mm/uaccess_test.c); a waiter is a kernel thread that takes the same mm,
 * so that both see the same private key (mm, address).  The results
 * checked are the calls' return values, the queue's state, the fault
 * counters and the page tables, not printed text.
 */
#include "futex.c"
#include <err.h>
#include <ktest.h>
#include <asm/mman.h>
#include <asm/pgtable.h>

#define FA  0x10000000UL                 /* where the tests map the futex words */
#define FUTEX_WAKE_OP 5                  /* Linux's; not built here */

static pte_t pte_of(struct mm_struct *mm, unsigned long va)
{
    pte_t *p = lookup_pte((pgd_t *)mm->pgd, va);
    return p ? *p : 0;
}

static struct mm_struct *test_mm(struct mm_struct **saved)
{
    struct mm_struct *mm = mm_alloc();
    if (!mm)
        return NULL;
    *saved = use_mm(mm);
    if (do_mmap(mm, NULL, FA, PAGE_SIZE, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0) != (long)FA) {
        use_mm(*saved);
        mmput(mm);
        return NULL;
    }
    return mm;
}

static void test_mm_done(struct mm_struct *mm, struct mm_struct *saved)
{
    use_mm(saved);
    mmput(mm);
}

/* How many sleepers are queued on the private key (mm, addr). */
static int queued(struct mm_struct *mm, unsigned long addr)
{
    struct futex_key key = { mm, addr, 0 };
    struct futex_hash_bucket *hb = hash_futex(&key);
    struct futex_q *q;
    int n = 0;
    spin_lock(&hb->lock);
    list_for_each_entry(q, &hb->chain, list)
        n += match_futex(&q->key, &key);
    spin_unlock(&hb->lock);
    return n;
}

/* The word's page is not present: the read under the bucket lock faults
 * (an atomic fixup, no sleep under the spinlock), the lock is dropped, the
 * page faulted in, and the retry compares: equal, so the wait sleeps until
 * its deadline.  Then a different value is -EAGAIN at once. */
KTEST(futex, wait_faults_in_then_times_out_then_eagain)
{
    struct mm_struct *saved, *mm = test_mm(&saved);
    KT_ASSERT(mm);
    uint32_t *w = (uint32_t *)FA;
    KT_EXPECT(!pte_present(pte_of(mm, FA)));
    unsigned long atomic0 = page_fault_atomic_fixups;
    unsigned long j0 = jiffies;
    KT_EXPECT_EQ(futex_wait(w, 1, 0, jiffies + 3, FUTEX_BITSET_MATCH_ANY), -ETIMEDOUT);
    KT_EXPECT((long)(jiffies - j0) >= 3);                  /* it slept to the deadline */
    KT_EXPECT_EQ(page_fault_atomic_fixups - atomic0, 1);   /* the locked read faulted once */
    KT_EXPECT(pte_present(pte_of(mm, FA)));    /* then it was faulted in */
    KT_EXPECT_EQ(queued(mm, FA), 0);                       /* and unqueued on the way out */
    KT_ASSERT_EQ(put_user(7u, w), 0);
    KT_EXPECT_EQ(futex_wait(w, 1, 0, 0, FUTEX_BITSET_MATCH_ANY), -EAGAIN);
    KT_EXPECT_EQ(futex_wake(w, 1, 1, FUTEX_BITSET_MATCH_ANY), 0);  /* nobody */
    test_mm_done(mm, saved);
}

KTEST(futex, bad_arguments)
{
    struct mm_struct *saved, *mm = test_mm(&saved);
    KT_ASSERT(mm);
    uint32_t *w = (uint32_t *)FA;
    KT_EXPECT_EQ(futex_wait((uint32_t *)(FA + 2), 1, 0, 0, ~0u), -EINVAL);   /* misaligned */
    KT_EXPECT_EQ(futex_wait(w, 1, 0, 0, 0), -EINVAL);                          /* empty bitset */
    KT_EXPECT_EQ(futex_wake(w, 1, 1, 0), -EINVAL);
    KT_EXPECT_EQ(futex_wait((uint32_t *)(FA + 2 * PAGE_SIZE), 0, 0, 0, ~0u), -EFAULT);
    KT_EXPECT_EQ(futex_wait((uint32_t *)0xC0000000, 1, 0, 0, ~0u), -EFAULT);   /* kernel */
    KT_EXPECT_EQ(do_futex(w, FUTEX_WAKE_OP, 1, NULL, NULL, 0, 0), -ENOSYS);
    KT_EXPECT_EQ(do_futex(w, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0, 0), -ENOSYS);
    test_mm_done(mm, saved);
}

/* A waiter thread: takes the test's mm, waits on FA with its bitset,
 * reports the result. */
struct waiter {
    struct mm_struct *mm;
    uint32_t bitset;
    int result;
    int done;
};

static int waiter_fn(void *arg)
{
    struct waiter *wt = arg;
    use_mm(wt->mm);
    wt->result = futex_wait((uint32_t *)FA, 1, 0, jiffies + 5 * HZ, wt->bitset);
    use_mm(NULL);
    WRITE_ONCE(wt->done, 1);
    while (!kthread_should_stop())
        msleep(1);
    return 0;
}

/* Starts a waiter thread for each of wt[0..n-1] (t[i] its task) and waits
 * (2 s at most) until all n are queued on FA.  How many it started. */
static int start_waiters(struct mm_struct *mm, struct waiter *wt, struct task_struct **t, int n)
{
    for (int i = 0; i < n; i++) {
        t[i] = kthread_run(waiter_fn, &wt[i], "futex_waiter");
        if (IS_ERR(t[i]))
            return i;
    }
    for (int ms = 0; ms < 2000 && queued(mm, FA) < n; ms++)
        msleep(1);
    return n;
}

/* Waits (2 s at most each) for the n waiters to return, expects each
 * futex_wait to have returned 0, and stops their threads. */
static void stop_waiters(struct waiter *wt, struct task_struct **t, int n)
{
    for (int i = 0; i < n; i++) {
        for (int ms = 0; ms < 2000 && !READ_ONCE(wt[i].done); ms++)
            msleep(1);
        KT_EXPECT(wt[i].done);
        KT_EXPECT_EQ(wt[i].result, 0);
        kthread_stop(t[i]);
    }
}

/* A wake reaches the waiters of its key only, and of those only the ones
 * whose bitset meets its own; it wakes at most nr; each woken waiter's
 * futex_wait returns 0 and is off the queue. */
KTEST(futex, wake_matches_key_bitset_and_count)
{
    struct mm_struct *saved, *mm = test_mm(&saved);
    KT_ASSERT(mm);
    KT_ASSERT_EQ(put_user(0u, (uint32_t *)FA), 0);
    struct waiter wt[3] = {
        { mm, 0x1, 1, 0 }, { mm, 0x1, 1, 0 }, { mm, 0x2, 1, 0 },
    };
    struct task_struct *t[3];
    KT_ASSERT_EQ(start_waiters(mm, wt, t, 3), 3);
    KT_ASSERT_EQ(queued(mm, FA), 3);
    KT_EXPECT_EQ(futex_wake((uint32_t *)(FA + 4), 1, 10, ~0u), 0);   /* another word */
    KT_EXPECT_EQ(futex_wake((uint32_t *)FA, 0, 10, 0x4), 0);         /* no bitset meets */
    KT_EXPECT_EQ(futex_wake((uint32_t *)FA, 1, 1, 0x1), 1);          /* one of two */
    KT_EXPECT_EQ(queued(mm, FA), 2);
    KT_EXPECT_EQ(futex_wake((uint32_t *)FA, 1, 10, ~0u), 2);         /* the rest */
    KT_EXPECT_EQ(queued(mm, FA), 0);
    stop_waiters(wt, t, 3);
    test_mm_done(mm, saved);
}

/* FUTEX_CMP_REQUEUE: a changed word is -EAGAIN and moves nobody; then
 * nr_wake are woken, nr_requeue moved to the second word's queue (where
 * only its wake reaches them), the rest stay; the result counts both.
 * Negative counts are -EINVAL.  A moved waiter's futex_wait still returns
 * 0 when the second word is woken. */
KTEST(futex, cmp_requeue_wakes_moves_and_compares)
{
    struct mm_struct *saved, *mm = test_mm(&saved);
    KT_ASSERT(mm);
    uint32_t *w1 = (uint32_t *)FA, *w2 = (uint32_t *)(FA + 64);
    KT_ASSERT_EQ(put_user(0u, w1), 0);
    struct waiter wt[3] = { { mm, ~0u, 1, 0 }, { mm, ~0u, 1, 0 }, { mm, ~0u, 1, 0 } };
    struct task_struct *t[3];
    KT_ASSERT_EQ(start_waiters(mm, wt, t, 3), 3);
    KT_ASSERT_EQ(queued(mm, FA), 3);
    int op = FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG;
    KT_EXPECT_EQ(do_futex(w1, op, 1, (void *)1, w2, 5, 0), -EAGAIN);   /* *w1 is 0 */
    KT_EXPECT_EQ(queued(mm, FA), 3);
    KT_EXPECT_EQ(do_futex(w1, op, (uint32_t)-1, (void *)1, w2, 0, 0), -EINVAL);
    KT_EXPECT_EQ(do_futex(w1, op, 1, (void *)-1, w2, 0, 0), -EINVAL);
    KT_EXPECT_EQ(do_futex(w1, op, 1, (void *)1, w2, 0, 0), 2);   /* one woken, one moved */
    KT_EXPECT_EQ(queued(mm, FA), 1);
    KT_EXPECT_EQ(queued(mm, FA + 64), 1);
    KT_EXPECT_EQ(futex_wake(w1, 1, 10, ~0u), 1);
    KT_EXPECT_EQ(futex_wake(w2, 1, 10, ~0u), 1);
    KT_EXPECT_EQ(queued(mm, FA + 64), 0);
    stop_waiters(wt, t, 3);
    test_mm_done(mm, saved);
}

/* A shared key needs the page: no mapping or PROT_NONE is -EFAULT (a
 * private key is the address alone: no check, as Linux). */
KTEST(futex, shared_key_on_prot_none_or_unmapped_is_efault)
{
    struct mm_struct *saved, *mm = test_mm(&saved);
    KT_ASSERT(mm);
    unsigned long none = FA + 4 * PAGE_SIZE;
    KT_ASSERT_EQ(do_mmap(mm, NULL, none, PAGE_SIZE, PROT_NONE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, 0), (long)none);
    KT_EXPECT_EQ(futex_wake((uint32_t *)none, 0, 1, ~0u), -EFAULT);
    KT_EXPECT_EQ(futex_wake((uint32_t *)(FA + 8 * PAGE_SIZE), 0, 1, ~0u), -EFAULT);
    KT_EXPECT_EQ(futex_wake((uint32_t *)none, 1, 1, ~0u), 0);
    KT_EXPECT_EQ(futex_wake((uint32_t *)FA, 0, 1, ~0u), 0);
    test_mm_done(mm, saved);
}
