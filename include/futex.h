/* include/futex.h: fast user-space locking (kernel/futex.c), the process
 * layer's interface to it.  Operations and flags are Linux's
 * (<linux/futex.h>); docs/processes.md "Threads and futexes". */
#ifndef _FUTEX_H
#define _FUTEX_H
#include <kernel.h>

#define FUTEX_WAIT              0
#define FUTEX_WAKE              1
#define FUTEX_REQUEUE           3
#define FUTEX_CMP_REQUEUE       4
#define FUTEX_WAIT_BITSET       9
#define FUTEX_WAKE_BITSET       10
#define FUTEX_PRIVATE_FLAG      128
#define FUTEX_CLOCK_REALTIME    256
#define FUTEX_CMD_MASK          (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY  0xffffffffu

/* Wake up to nr waiters on the (shared-keyed) futex at uaddr in current's
 * address space: mm_release's wake of clear_child_tid (pthread_join).
 * Returns how many were woken, or -errno (-EFAULT, -EINVAL). */
int futex_wake_address(int *uaddr, int nr);

/* t is done with its mm (exit, exec): every robust mutex on the list it
 * registered with set_robust_list that it still holds is marked
 * FUTEX_OWNER_DIED and a waiter woken (Linux's exit_robust_list).  Runs in
 * t's address space (t is current). */
struct task_struct;
void exit_robust_list(struct task_struct *t);

/* The futex system call; timeout is a user struct timespec (32-bit
 * fields, or 64-bit if time64: futex_time64) or, for the requeue
 * operations, nr_requeue; uaddr2 their second word; val3 the bitset or
 * CMP_REQUEUE's expected value. */
long do_futex(uint32_t *uaddr, int op, uint32_t val, const void *timeout,
              uint32_t *uaddr2, uint32_t val3, int time64);
#endif
