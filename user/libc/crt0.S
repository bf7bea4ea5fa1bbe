/*
 * crt0.S - the first instructions of every user program.
 *
 * execve leaves the new program's stack as Linux lays it out:
 *
 *     esp ->  argc
 *             argv[0] ... argv[argc-1], NULL
 *             envp[0] ... envp[n-1],    NULL
 *             auxv pairs (AT_PHDR, AT_PAGESZ, ...), AT_NULL
 *             ... the strings themselves, higher up
 *
 * _start picks argc, argv and envp out of that, aligns the stack to 16
 * bytes (what gcc assumes at a call) and hands over to C in start.c.
 * There is no return address: _start is the outermost frame, so we zero
 * ebp to end backtraces here.
 */
	.text
	.globl _start
	.type _start, @function
_start:
	xorl	%ebp, %ebp		/* outermost frame */
	movl	(%esp), %eax		/* argc */
	leal	4(%esp), %ebx		/* argv = esp + 4 */
	leal	8(%esp,%eax,4), %ecx	/* envp = argv + argc + 1 */
	andl	$-16, %esp		/* 16-byte align ... */
	subl	$4, %esp		/* ... so after 3 pushes esp%16 == 0 */
	pushl	%ecx
	pushl	%ebx
	pushl	%eax
	call	__libc_start_main	/* never returns: it calls exit() */
	hlt				/* a privileged instruction: faults if reached */

	.section .note.GNU-stack,"",@progbits
