/*
 * syscall.S - the one place user code enters the kernel.
 *
 * long __syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
 *
 * The Linux i386 convention: eax = system-call number, arguments in
 * ebx, ecx, edx, esi, edi, ebp (in that order), "int $0x80", result in eax
 * (-4095..-1 means -errno). ebx, esi, edi and ebp are callee-saved in the
 * C calling convention, so we save them around the trap.
 *
 * Also here: the signal trampolines. sigaction() puts one of them in
 * sa_restorer; the kernel pushes it as the handler's return address, so
 * when the handler returns the trampoline asks the kernel to restore the
 * registers saved when the signal arrived. Linux i386 builds two kinds of
 * signal frame, and each has its own return call (glibc does the same):
 *
 *   SA_SIGINFO set:   struct rt_sigframe, handler(sig, info, ucontext)
 *                     -> __restore_rt:  rt_sigreturn (173)
 *   SA_SIGINFO clear: struct sigframe, handler(sig)
 *                     -> __restore:     pop the sig argument, sigreturn (119)
 *
 * After the handler's "ret" esp points just past the return address; the
 * kernel finds its frame from there (rt_sigreturn: esp - 4; sigreturn,
 * after our pop: esp - 8).
 */
	.text
	.globl __syscall6
	.type __syscall6, @function
__syscall6:
	pushl	%ebp
	pushl	%edi
	pushl	%esi
	pushl	%ebx
	/* 4 saved registers + return address = 20 bytes above our arguments */
	movl	20(%esp), %eax		/* nr */
	movl	24(%esp), %ebx		/* a1 */
	movl	28(%esp), %ecx		/* a2 */
	movl	32(%esp), %edx		/* a3 */
	movl	36(%esp), %esi		/* a4 */
	movl	40(%esp), %edi		/* a5 */
	movl	44(%esp), %ebp		/* a6 */
	int	$0x80
	popl	%ebx
	popl	%esi
	popl	%edi
	popl	%ebp
	ret

	.globl __restore
	.type __restore, @function
__restore:
	popl	%eax			/* drop the signal number argument */
	movl	$119, %eax		/* __NR_sigreturn */
	int	$0x80
	hlt				/* sigreturn does not return */

	.globl __restore_rt
	.type __restore_rt, @function
__restore_rt:
	movl	$173, %eax		/* __NR_rt_sigreturn */
	int	$0x80
	hlt				/* rt_sigreturn does not return */

	.section .note.GNU-stack,"",@progbits
