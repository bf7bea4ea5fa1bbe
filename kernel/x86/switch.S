/* kernel/x86/switch.S: the context switch.
 *
 *   struct task_struct *switch_to(struct task_struct *prev,
 *                                 struct task_struct *next);
 *
 * Saves prev's callee-saved registers (the cdecl ABI lets the caller assume
 * ebx, esi, edi, ebp survive a call) on prev's stack, stores esp in
 * prev->sp, loads next->sp and pops next's registers.  The `ret` then
 * returns into wherever next called switch_to() (inside schedule()), or,
 * for a new kthread, into ret_from_kthread.  eax keeps `prev` across the
 * swap, so the function returns, in the next task, the task that ran
 * before it (Linux's `last`).  It also sets this CPU's current_task
 * (include/sched.h, a per-CPU variable: %fs) with the stack.  Interrupts are off (schedule()).
 *
 * The TSS's esp0 is set by schedule() just before the call.
 */
#define TASK_SP 0                /* offsetof(struct task_struct, sp) */

    .text
    .globl switch_to
switch_to:
    movl 4(%esp), %eax           /* prev */
    movl 8(%esp), %edx           /* next */
    pushl %ebp
    pushl %ebx
    pushl %esi
    pushl %edi
    movl %esp, TASK_SP(%eax)     /* prev->sp = esp */
    movl TASK_SP(%edx), %esp     /* esp = next->sp: now on next's stack */
    movl %edx, %fs:current_task /* current = next (Linux's __switch_to) */
    popl %edi
    popl %esi
    popl %ebx
    popl %ebp
    ret                          /* eax = prev */

/* A new kthread's first instructions (kthread_run() built its stack so that
 * switch_to's ret lands here, with eax = the task that ran before). */
    .globl ret_from_kthread
ret_from_kthread:
    pushl %eax
    call schedule_tail
    addl $4, %esp
    call kthread_main            /* never returns: do_exit() */
1:  hlt
    jmp 1b

    .section .note.GNU-stack,"",@progbits
