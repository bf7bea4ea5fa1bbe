/* include/uapi/asm/siginfo.h: what an SA_SIGINFO handler receives, Linux
 * i386's siginfo_t (128 bytes), and the si_code values.
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md): the
 * kernel fills it in on the signal frame (kernel/signal.c), the trap code
 * picks the codes (kernel/x86/traps.c, mm/fault.c), user programs read it.
 * Only the union members Vellum fills are named.  (Linux:
 * asm-generic/siginfo.h.) */
#ifndef _UAPI_ASM_SIGINFO_H
#define _UAPI_ASM_SIGINFO_H

typedef struct {
    int si_signo;
    int si_errno;
    int si_code;
    union {
        int _pad[29];
        struct { int pid; unsigned int uid; } kill;               /* kill() */
        struct { int pid; unsigned int uid; union { int sival_int; void *sival_ptr; } value; }
            rt;                                                   /* sigqueue() */
        struct { void *addr; } fault;                             /* SIGSEGV, SIGBUS */
        struct { int pid; unsigned int uid; int status; long utime, stime; } chld;
    } _sifields;
} siginfo_t;
#define si_pid    _sifields.kill.pid
#define si_uid    _sifields.kill.uid
#define si_addr   _sifields.fault.addr
#define si_status _sifields.chld.status
#define si_value  _sifields.rt.value

/* si_code: who sent it, or why the trap raised it */
#define SI_USER       0                /* kill() */
#define SI_KERNEL     0x80
#define SI_QUEUE      (-1)             /* sigqueue() */
#define SI_TKILL      (-6)             /* tkill(), tgkill() (raise) */
#define ILL_ILLOPN    2                /* SIGILL: illegal operand */
#define FPE_INTDIV    1                /* SIGFPE: integer divide by zero */
#define SEGV_MAPERR   1                /* SIGSEGV: address not mapped */
#define SEGV_ACCERR   2                /* SIGSEGV: no permission */
#define BUS_ADRALN    1                /* SIGBUS: bad alignment */
#define BUS_ADRERR    2                /* SIGBUS: no such physical address (past EOF) */
#define TRAP_BRKPT    1                /* SIGTRAP: breakpoint */
#define CLD_EXITED    1                /* SIGCHLD: the child exited */
#define CLD_KILLED    2                /* ... was killed */
#define CLD_DUMPED    3                /* ... was killed and dumped core */
#define CLD_STOPPED   5                /* ... stopped */
#define CLD_CONTINUED 6                /* ... continued */

#endif
