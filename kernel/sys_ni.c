/* kernel/sys_ni.c: "not implemented" system calls (Linux's kernel/sys_ni.c).
 *
 * sys_ni_syscall is what an empty slot of the table means: -ENOSYS (the
 * dispatcher logs it once per number).  sys_ni_syscall_quiet is the same
 * without the log line, for calls programs probe routinely (rseq).
 * No weak aliases: every slot of the table in kernel/syscall.c names a real,
 * declared handler or one of these two.
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
