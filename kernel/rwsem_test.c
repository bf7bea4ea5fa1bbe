/* kernel/rwsem_test.c: the ktests of rwsem.c (test=rwsem); built into the
 * test kernel only.  Kernel threads take the semaphore and hold it until
 * told to let go; the test watches who got it (activity, a sequence number
 * per grant) and who sleeps (state D, waiting_on).  The SMP test runs a
 * worker per online CPU without the big kernel lock. */
#include <kernel.h>
#include <rwsem.h>
#include <sched.h>
#include <smp.h>
#include <smp_lock.h>
#include <string.h>
#include <err.h>
#include <asm/atomic.h>
#include <asm/io.h>
#include "sched_glue.h"
#include <ktest.h>

/* ---- a holder thread ----------------------------------------------------- */

static volatile int grant_seq;

struct holder {
    struct rw_semaphore *sem;
    int write;                         /* down_write, else down_read */
    volatile int got;                  /* grant_seq when it got the semaphore */
    volatile int release;              /* let go */
};

static int holder_fn(void *p)
{
    struct holder *h = p;
    if (h->write)
        down_write(h->sem);
    else
        down_read(h->sem);
    h->got = __sync_add_and_fetch(&grant_seq, 1);
    while (!READ_ONCE(h->release))
        msleep(1);
    if (h->write)
        up_write(h->sem);
    else
        up_read(h->sem);
    return 0;
}

static struct task_struct *start(struct holder *h, struct rw_semaphore *sem, int write,
                                 const char *name)
{
    memset(h, 0, sizeof *h);
    h->sem = sem;
    h->write = write;
    return kthread_run(holder_fn, h, name);
}

/* Until t holds the semaphore (true) or sleeps on it (false), 2 s at most. */
static bool settle(struct task_struct *t, struct holder *h)
{
    for (int i = 0; i < 2000; i++) {
        if (READ_ONCE(h->got))
            return true;
        if (READ_ONCE(t->state) == TASK_UNINTERRUPTIBLE && READ_ONCE(t->waiting_on) == h->sem)
            return false;
        msleep(1);
    }
    return READ_ONCE(h->got) != 0;
}

static int finish(struct task_struct *t, struct holder *h)
{
    h->release = 1;
    return kthread_stop(t);
}

/* ---- the tests ----------------------------------------------------------- */

static DECLARE_RWSEM(rwsem_test_sem);

KTEST(rwsem, several_readers_hold_it_at_once)
{
    struct holder h[3];
    struct task_struct *t[3];
    for (int i = 0; i < 3; i++) {
        t[i] = start(&h[i], &rwsem_test_sem, 0, "reader");
        KT_ASSERT(!IS_ERR(t[i]));
        KT_EXPECT(settle(t[i], &h[i]));
    }
    KT_EXPECT_EQ(rwsem_test_sem.activity, 3);
    down_read(&rwsem_test_sem);                /* a fourth: at once */
    KT_EXPECT_EQ(rwsem_test_sem.activity, 4);
    KT_EXPECT(!down_write_trylock(&rwsem_test_sem));
    up_read(&rwsem_test_sem);
    for (int i = 0; i < 3; i++)
        KT_EXPECT_EQ(finish(t[i], &h[i]), 0);
    KT_EXPECT_EQ(rwsem_test_sem.activity, 0);
    KT_EXPECT(!rwsem_is_locked(&rwsem_test_sem));
}

KTEST(rwsem, writer_excludes_readers_and_writers)
{
    struct holder r, w;
    down_write(&rwsem_test_sem);
    KT_EXPECT_EQ(rwsem_test_sem.activity, -1);
    KT_EXPECT(rwsem_test_sem.owner == current);
    KT_EXPECT(rwsem_is_write_locked_by_me(&rwsem_test_sem));
    struct task_struct *tr = start(&r, &rwsem_test_sem, 0, "reader");
    KT_ASSERT(!IS_ERR(tr));
    KT_EXPECT(!settle(tr, &r));                /* asleep */
    struct task_struct *tw = start(&w, &rwsem_test_sem, 1, "writer");
    KT_ASSERT(!IS_ERR(tw));
    KT_EXPECT(!settle(tw, &w));
    KT_EXPECT(!down_read_trylock(&rwsem_test_sem));
    KT_EXPECT(!down_write_trylock(&rwsem_test_sem));
    up_write(&rwsem_test_sem);
    /* In queue order: the reader alone (the writer is behind it). */
    KT_EXPECT(settle(tr, &r));
    KT_EXPECT(!settle(tw, &w));
    KT_EXPECT_EQ(rwsem_test_sem.activity, 1);
    KT_EXPECT_EQ(finish(tr, &r), 0);
    KT_EXPECT(settle(tw, &w));
    KT_EXPECT_EQ(rwsem_test_sem.activity, -1);
    KT_EXPECT(rwsem_test_sem.owner == tw);
    KT_EXPECT_EQ(finish(tw, &w), 0);
    KT_EXPECT_EQ(rwsem_test_sem.activity, 0);
}

/* No writer starvation: with a writer queued, a new reader queues behind
 * it although the semaphore is only read-held. */
KTEST(rwsem, waiting_writer_blocks_a_new_reader)
{
    struct holder w, r;
    down_read(&rwsem_test_sem);
    struct task_struct *tw = start(&w, &rwsem_test_sem, 1, "writer");
    KT_ASSERT(!IS_ERR(tw));
    KT_EXPECT(!settle(tw, &w));
    struct task_struct *tr = start(&r, &rwsem_test_sem, 0, "reader");
    KT_ASSERT(!IS_ERR(tr));
    KT_EXPECT(!settle(tr, &r));                /* behind the writer */
    KT_EXPECT(!down_read_trylock(&rwsem_test_sem));
    KT_EXPECT_EQ(rwsem_test_sem.activity, 1);
    up_read(&rwsem_test_sem);
    KT_EXPECT(settle(tw, &w));
    KT_EXPECT(!settle(tr, &r));
    KT_EXPECT_EQ(finish(tw, &w), 0);
    KT_EXPECT(settle(tr, &r));
    KT_EXPECT(w.got < r.got);
    KT_EXPECT_EQ(finish(tr, &r), 0);
    KT_EXPECT_EQ(rwsem_test_sem.activity, 0);
}

/* Queue: reader, reader, writer, reader.  downgrade_write lets the first
 * two in with us; the writer and the reader behind it wait. */
KTEST(rwsem, downgrade_write_lets_the_waiting_readers_in)
{
    struct holder h[4];
    struct task_struct *t[4];
    static const int write[4] = { 0, 0, 1, 0 };
    down_write(&rwsem_test_sem);
    for (int i = 0; i < 4; i++) {
        t[i] = start(&h[i], &rwsem_test_sem, write[i], write[i] ? "writer" : "reader");
        KT_ASSERT(!IS_ERR(t[i]));
        KT_EXPECT(!settle(t[i], &h[i]));
    }
    downgrade_write(&rwsem_test_sem);
    KT_EXPECT(settle(t[0], &h[0]));
    KT_EXPECT(settle(t[1], &h[1]));
    KT_EXPECT(!settle(t[2], &h[2]));
    KT_EXPECT(!settle(t[3], &h[3]));
    KT_EXPECT_EQ(rwsem_test_sem.activity, 3);
    KT_EXPECT(rwsem_test_sem.owner == NULL);
    KT_EXPECT(!down_read_trylock(&rwsem_test_sem));    /* the writer waits */
    up_read(&rwsem_test_sem);
    KT_EXPECT_EQ(finish(t[0], &h[0]), 0);
    KT_EXPECT(!settle(t[2], &h[2]));
    KT_EXPECT_EQ(finish(t[1], &h[1]), 0);
    KT_EXPECT(settle(t[2], &h[2]));            /* the last reader left */
    KT_EXPECT(!settle(t[3], &h[3]));
    KT_EXPECT_EQ(finish(t[2], &h[2]), 0);
    KT_EXPECT(settle(t[3], &h[3]));
    KT_EXPECT_EQ(finish(t[3], &h[3]), 0);
    KT_EXPECT_EQ(rwsem_test_sem.activity, 0);
}

KTEST(rwsem, trylocks)
{
    struct rw_semaphore sem = { .name = "trylock_sem" };
    init_rwsem(&sem);
    KT_EXPECT(down_read_trylock(&sem));
    KT_EXPECT(down_read_trylock(&sem));        /* a trylock may nest: it cannot wait */
    KT_EXPECT(!down_write_trylock(&sem));
    KT_EXPECT_EQ(sem.activity, 2);
    up_read(&sem);
    up_read(&sem);
    KT_EXPECT(down_write_trylock(&sem));
    KT_EXPECT(!down_read_trylock(&sem));
    KT_EXPECT(!down_write_trylock(&sem));
    KT_EXPECT(sem.owner == current);
    up_write(&sem);
    KT_EXPECT_EQ(sem.activity, 0);
    KT_EXPECT(sem.owner == NULL);
}

KTEST(rwsem, long_wait_names_the_writer)
{
    struct holder w;
    unsigned long saved = rwsem_warn_jiffies, before = rwsem_long_wait_reports;
    rwsem_warn_jiffies = 5;                    /* 50 ms instead of 5 s */
    struct task_struct *tw = start(&w, &rwsem_test_sem, 1, "slowwriter");
    KT_ASSERT(!IS_ERR(tw));
    KT_EXPECT(settle(tw, &w));
    unsigned long t0 = jiffies;
    KT_EXPECT(!down_read_trylock(&rwsem_test_sem));
    struct holder late;
    struct task_struct *tr = start(&late, &rwsem_test_sem, 0, "reader");
    KT_ASSERT(!IS_ERR(tr));
    KT_EXPECT(!settle(tr, &late));
    msleep(200);                               /* the reader waits > 50 ms: one report */
    KT_EXPECT(jiffies - t0 >= 15);
    KT_EXPECT_EQ(rwsem_long_wait_reports - before, 1);
    KT_EXPECT_EQ(finish(tw, &w), 0);
    KT_EXPECT(settle(tr, &late));
    KT_EXPECT_EQ(finish(tr, &late), 0);
    KT_EXPECT_EQ(rwsem_long_wait_reports - before, 1);
    rwsem_warn_jiffies = saved;
}

/* ---- SMP: readers and writers on every CPU, without the big lock -------- */

#define SMP_ROUNDS 1500

static DECLARE_RWSEM(smp_sem);
static volatile int smp_counter, smp_shadow;   /* written together, under the write lock */
static atomic_t smp_readers, smp_writers, smp_bad;
static volatile int smp_max_readers;

/* A worker (ktest_smp_run: bound to its CPU, without the big lock);
 * writes[w->id] counts its writes. */
static int smp_worker_fn(struct ktest_smp_worker *w, void *writes)
{
    uint32_t rnd = 0x9E3779B9u * (uint32_t)(w->id + 1);
    for (int round = 0; round < SMP_ROUNDS; round++) {
        rnd = rnd * 1664525u + 1013904223u;
        if ((rnd >> 16) % 4 == 0) {            /* a writer, one round in four */
            down_write(&smp_sem);
            if (atomic_read(&smp_readers) || atomic_read(&smp_writers))
                atomic_inc(&smp_bad);
            atomic_inc(&smp_writers);
            int v = smp_counter;
            for (int i = 0; i < 20; i++)
                cpu_relax();
            smp_counter = v + 1;
            for (int i = 0; i < 20; i++)
                cpu_relax();
            smp_shadow = v + 1;
            atomic_dec(&smp_writers);
            up_write(&smp_sem);
            ((int *)writes)[w->id]++;
        } else {
            down_read(&smp_sem);
            int n = __sync_add_and_fetch(&smp_readers.counter, 1);
            if (n > smp_max_readers)
                smp_max_readers = n;           /* racy max: a statistic */
            for (int i = 0; i < 40; i++) {
                if (atomic_read(&smp_writers) || smp_counter != smp_shadow)
                    atomic_inc(&smp_bad);
                cpu_relax();
            }
            atomic_dec(&smp_readers);
            up_read(&smp_sem);
        }
        if (round % (w->shares_cpu ? 16 : 256) == 0)
            yield();
    }
    return 0;
}

/* A worker per online CPU (two on one CPU), each bound to it, without the
 * big kernel lock: readers check that no writer is inside and that the
 * two words a writer sets are equal; writers check that nobody else is
 * inside and bump the counter.  At the end the counter is the number of
 * writes and no check failed. */
KTEST(rwsem, smp_readers_and_writers_without_the_big_lock)
{
    static struct ktest_smp s;
    static int worker_writes[KTEST_SMP_MAX];
    smp_counter = smp_shadow = 0;
    smp_max_readers = 0;
    atomic_set(&smp_readers, 0);
    atomic_set(&smp_writers, 0);
    atomic_set(&smp_bad, 0);
    memset(worker_writes, 0, sizeof worker_writes);
    KT_ASSERT_EQ(ktest_smp_run(&s, "rwsem", smp_worker_fn, worker_writes), 0);
    int writes = 0;
    for (int i = 0; i < s.nr; i++) {
        KT_EXPECT_EQ(s.w[i].ret, 0);
        KT_EXPECT(!s.w[i].had_big_lock);
        KT_EXPECT_EQ(s.w[i].ran_on, s.w[i].cpu);
        writes += worker_writes[i];
    }
    KT_EXPECT(writes > 0);
    KT_EXPECT_EQ(smp_counter, writes);
    KT_EXPECT_EQ(smp_shadow, writes);
    KT_EXPECT_EQ(atomic_read(&smp_bad), 0);
    KT_EXPECT_EQ(smp_sem.activity, 0);
    KT_EXPECT(list_empty(&smp_sem.wait_list));
    printk(KERN_INFO "rwsem smp test: %d workers on %d CPUs, %d writes, at most %d readers "
           "at once\n", s.nr, s.ncpus, writes, smp_max_readers);
}
