/* kernel/sys_ni.c: "not implemented" system calls (Linux's kernel/sys_ni.c).
 *
 * sys_ni_syscall is what an empty slot of the table means: -ENOSYS (the
 * dispatcher logs it once per number).  Every handler another layer owns
 * but may not have written yet gets a WEAK alias of it here, so the one
 * table in kernel/syscall.c always links; when the layer lands, its strong
 * definition replaces the alias and the call comes alive.  This file must
 * not include the other layers' prototypes: the aliases have the wrong
 * types on purpose (they are never called through those types).
 */
#include <kernel.h>
#include <errno.h>
#include <syscalls.h>

long sys_ni_syscall(void)
{
    return -ENOSYS;
}

long sys_ni_syscall_quiet(void)
{
    return -ENOSYS;
}

#define COND_SYSCALL(n) long sys_##n(void) __attribute__((weak, alias("sys_ni_syscall")));
MM_SYSCALLS(COND_SYSCALL)
FILES_SYSCALLS(COND_SYSCALL)
