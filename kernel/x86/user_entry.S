/* kernel/x86/user_entry.S: where a new process starts (process layer).
 *
 * kernel/fork.c builds a child's kernel stack so that switch_to()'s `ret`
 * comes here with %esp pointing at the child's struct pt_regs (the top of
 * its stack), %eax = the task that ran before, %ebx = fn, %edi = arg:
 *
 *   fn == 0 (fork):  schedule_tail(prev), then ret_from_intr: the pt_regs
 *                    (a copy of the parent's, ax = 0) are restored and iret
 *                    enters user mode: fork() returns 0 in the child.
 *   fn != 0 (pid 1): schedule_tail(prev), interrupts on, the big kernel
 *                    lock taken, fn(arg) in kernel mode (it mounts the root and kernel_execve()s init,
 *                    which fills the pt_regs); if it returns 0, enter user
 *                    mode the same way.  A non-zero return ends the
 *                    process with that status.  (Linux: ret_from_fork with
 *                    a kernel thread function.)
 */
    .text
    .globl ret_from_fork
    .type ret_from_fork, @function
ret_from_fork:
    pushl %eax
    call schedule_tail
    addl $4, %esp
    testl %ebx, %ebx
    jz 1f
    sti
    call lock_kernel_asm               /* fn is kernel code (include/smp_lock.h) */
    pushl %edi
    call *%ebx
    addl $4, %esp
    testl %eax, %eax
    jnz 2f
    call unlock_kernel_asm             /* user mode never holds it */
1:  jmp ret_from_intr                  /* %esp = &pt_regs */
2:  andl $0xff, %eax
    shll $8, %eax                      /* exit status word: (code & 0xff) << 8 */
    pushl %eax
    call do_group_exit                 /* never returns */
3:  hlt
    jmp 3b

    .section .note.GNU-stack,"",@progbits
