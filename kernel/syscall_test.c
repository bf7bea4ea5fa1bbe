/* kernel/syscall_test.c: ktests of the system call table (test=syscall);
 * built into the test kernel only.  What Vellum leaves out on purpose
 * answers as Linux built without it (docs/processes.md, "Out on
 * purpose"): -ENOSYS, whatever the arguments. */
#include <kernel.h>
#include <errno.h>
#include <ktest.h>
#include <syscalls.h>
#include <asm/unistd.h>

/* Sockets (CONFIG_NET), System V IPC (CONFIG_SYSVIPC), modify_ldt
 * (CONFIG_MODIFY_LDT_SYSCALL): the multiplexers and i386's direct calls. */
KTEST(syscall, out_on_purpose_is_enosys)
{
    static const int nrs[] = {
        __NR_socketcall, __NR_ipc, __NR_modify_ldt,
        __NR_socket, __NR_socketpair, __NR_bind, __NR_connect, __NR_listen, __NR_accept4,
        __NR_getsockopt, __NR_setsockopt, __NR_getsockname, __NR_getpeername,
        __NR_sendto, __NR_sendmsg, __NR_recvfrom, __NR_recvmsg, __NR_shutdown,
        __NR_semget, __NR_semctl, __NR_shmget, __NR_shmctl, __NR_shmat, __NR_shmdt,
        __NR_msgget, __NR_msgsnd, __NR_msgrcv, __NR_msgctl,
    };
    for (unsigned i = 0; i < ARRAY_SIZE(nrs); i++) {
        KT_EXPECT(nrs[i] < NR_syscalls);
        KT_EXPECT_EQ(sys_call_table[nrs[i]](1, 2, 3, 4, 5, 6), -ENOSYS);
    }
}
