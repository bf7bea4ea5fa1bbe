/* include/asm/uaccess.h: access to user memory from the kernel, and the
 * exception table that makes it safe (kernel/x86/copy_user.S, kernel/x86/usercopy.c,
 * kernel/x86/traps.c).  Layer: arch memory, below every system call.
 *
 * An instruction that may fault on purpose (touching a user address, or
 * probing a kernel one) is listed in section __ex_table together with a
 * "fixup" address.  When it faults in kernel mode, do_page_fault() first
 * tries to resolve the fault (demand paging, copy-on-write, stack growth)
 * unless page faults are disabled; if that is not possible it looks the
 * faulting EIP up with search_exception_tables() and, instead of an oops,
 * resumes at the fixup, which makes the routine report the failure:
 *
 *     .Lcopy:      rep movsb           <- may fault; ECX counts bytes left
 *     .Lcopy_done: movl %ecx, %eax     <- fixup: "this many NOT copied"
 *                  _ASM_EXTABLE(.Lcopy, .Lcopy_done)
 *
 * (__copy_user's tail; its body is a `rep movsl`, whose fixup turns dwords
 * back into bytes: kernel/x86/copy_user.S.)
 *
 * The linker script gathers every entry between __start_ex_table and
 * __stop_ex_table (in .rodata), in link order.  trap_init() sorts it by
 * insn once at boot (sort_main_extable, kernel/x86/traps.c), before mm_init
 * makes .rodata read-only, and search_exception_tables() binary-searches
 * it (Linux's sort_extable / search_extable; Linux sorts at build time now,
 * scripts/sorttable, and sorted at boot before 3.x).
 * docs/user-memory.md tells the whole story with a GDB session.
 */
#ifndef _ASM_UACCESS_H
#define _ASM_UACCESS_H

#ifdef __ASSEMBLER__
#define _ASM_EXTABLE(from, to)          \
    .pushsection __ex_table, "a";       \
    .balign 4;                          \
    .long from, to;                     \
    .popsection
#else
#include <types.h>

struct exception_table_entry {
    unsigned long insn;      /* address of the instruction allowed to fault */
    unsigned long fixup;     /* where to continue if it does */
};

/* For inline asm: a string to paste into the asm template. */
#define _ASM_EXTABLE(from, to)                          \
    " .pushsection __ex_table, \"a\"\n"                 \
    " .balign 4\n"                                      \
    " .long " #from ", " #to "\n"                       \
    " .popsection\n"

struct pt_regs;
/* The table, gathered by boot/linker.ld; sorted in place at boot (not const:
 * sort_main_extable writes it once), read-only in the page tables after. */
extern struct exception_table_entry __start_ex_table[], __stop_ex_table[];
/* Sort entries [start, end) by insn (Linux's sort_extable); trap_init sorts
 * the kernel's table with it (sort_main_extable). */
void sort_extable(struct exception_table_entry *start, struct exception_table_entry *end);
/* The table entry for ip, or NULL. */
const struct exception_table_entry *search_exception_tables(unsigned long ip);
/* If regs->ip has an entry, set regs->ip to its fixup and return 1; else 0.
 * Called by do_page_fault() for a kernel-mode fault it does not resolve
 * (only page faults have fixups here: Linux also fixes up #GP). */
int fixup_exception(struct pt_regs *regs);

/* Read/write one byte at a kernel address that may be unmapped; 0 or
 * -EFAULT (the exception table at work; Linux: get_kernel_nofault()).
 * kernel/x86/probe_test.S: the test kernel only (the fault and paging tests). */
int probe_kernel_read_u8(const void *addr, uint8_t *val);
int probe_kernel_write_u8(void *addr, uint8_t val);

/* ======================================================================
 * User access.  "__user" marks a pointer that came from user space: the
 * kernel must never dereference it directly, only through the routines
 * below (Linux checks this with sparse; for us it is documentation).
 *
 * Contracts (as Linux's):
 *   access_ok(p, n)      1 if [p, p+n) lies entirely below TASK_SIZE and
 *                        does not wrap; 0 otherwise.  n == 0 is always ok.
 *                        Says nothing about whether the memory is mapped.
 *   copy_from_user(to, from, n)   user -> kernel.  Returns the number of
 *                        bytes NOT copied (0 = success).  If short, the
 *                        uncopied tail of `to` is zero-filled (so no stale
 *                        kernel data leaks).  May sleep (resolves faults).
 *   copy_to_user(to, from, n)     kernel -> user.  Bytes NOT copied.
 *   clear_user(to, n)    zero user memory.  Bytes NOT cleared.
 *   strncpy_from_user(dst, src, count)   copy a NUL-terminated string of
 *                        at most count bytes (NUL included).  Returns its
 *                        length without the NUL if the NUL was found, count
 *                        if it was not (dst then holds count bytes, no NUL),
 *                        -EFAULT if an address faulted.
 *   strnlen_user(src, n) length INCLUDING the NUL; 0 on a fault; a value
 *                        > n if no NUL among the first n bytes.
 *   get_user(x, ptr) / put_user(x, ptr)   one value of size 1, 2, 4 or 8
 *                        (the size of *ptr).  0 or -EFAULT; get_user sets
 *                        x to 0 on a fault.
 *   __copy_from_user_inatomic(to, from, n)  the copy used with page faults
 *                        disabled: never sleeps, never resolves a fault,
 *                        stops at the FIRST byte that faults and returns
 *                        the bytes NOT copied; does NOT zero the tail (the
 *                        caller commits only what was copied).  Checks
 *                        nothing: the caller did access_ok.
 *   fault_in_readable(uaddr, n)   touch each page of the range with faults
 *                        enabled (demand-zero, COW, stack growth happen;
 *                        lib/iov_iter.c, beside its one user);
 *                        returns the bytes that could NOT be faulted in,
 *                        counted from the first page that failed.
 *
 * The copies are a `rep movsl` body and a `rep movsb` tail; a fault in a
 * dword that straddles a page finishes byte by byte, so the count is
 * byte-exact at any alignment (Linux's copy_user_generic +
 * copy_user_handle_tail do the same; kernel/x86/copy_user.S).
 * ====================================================================== */
#include <asm/layout.h>
#include <errno.h>

#define __user

static inline int access_ok(const void __user *addr, unsigned long size)
{
    unsigned long a = (unsigned long)addr;
    return size <= TASK_SIZE && a <= TASK_SIZE - size;   /* no wrap, below TASK_SIZE */
}

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);
unsigned long clear_user(void __user *to, unsigned long n);
long strncpy_from_user(char *dst, const char __user *src, long count);
long strnlen_user(const char __user *src, long n);
unsigned long fault_in_readable(const void __user *uaddr, unsigned long n);

/* The raw routines (kernel/x86/copy_user.S); no access_ok, faults handled by fixups.
 * __copy_user returns bytes not copied; __clear_user bytes not cleared;
 * __strncpy_from_user the bytes copied up to and without the NUL (count if
 * none) or -EFAULT; __strnlen_user like strnlen_user. */
unsigned long __copy_user(void *to, const void *from, unsigned long n);
unsigned long __clear_user(void __user *to, unsigned long n);
long __strncpy_from_user(char *dst, const char __user *src, long count);
long __strnlen_user(const char __user *src, long n);

/* The write path's copy, made with page faults disabled: the same
 * instructions as every copy (Linux's __copy_from_user_inatomic calls
 * copy_user_generic too); what differs is do_page_fault(), which sees
 * pagefault_disabled and goes straight to the fixup. */
static inline unsigned long __copy_from_user_inatomic(void *to, const void __user *from,
                                                      unsigned long n)
{
    return __copy_user(to, (const void *)from, n);
}

/* ---- get_user / put_user: one instruction each, listed in __ex_table.
 * The fixups live in .text.fixup, out of the straight-line path. */

/* The integer type holding *ptr's value: 64-bit if *ptr is 8 bytes. */
#define __inttype(x) __typeof__(__builtin_choose_expr(sizeof(x) > sizeof(0UL), 0ULL, 0UL))

#define __get_user_asm(insn, val, addr, err)                            \
    __asm__ volatile("1: " insn " %2, %1\n"                               \
                     "2:\n"                                               \
                     " .pushsection .text.fixup, \"ax\"\n"                \
                     "3: movl %3, %0\n"                                   \
                     "   xorl %1, %1\n"                                   \
                     "   jmp 2b\n"                                        \
                     " .popsection\n"                                     \
                     _ASM_EXTABLE(1b, 3b)                                 \
                     : "+r"(err), "=r"(val)                               \
                     : "m"(*(addr)), "i"(-EFAULT))

#define __put_user_asm(insn, val, addr, err)                            \
    __asm__ volatile("1: " insn "\n"                               \
                     "2:\n"                                               \
                     " .pushsection .text.fixup, \"ax\"\n"                \
                     "3: movl %3, %0\n"                                   \
                     "   jmp 2b\n"                                        \
                     " .popsection\n"                                     \
                     _ASM_EXTABLE(1b, 3b)                                 \
                     : "+r"(err)                                          \
                     : "q"(val), "m"(*(addr)), "i"(-EFAULT) : "memory")

#define get_user(x, ptr) ({                                                  \
    const __typeof__(*(ptr)) __user *__gu_p = (ptr);                         \
    int __gu_err = 0;                                                        \
    unsigned long __gu_lo = 0, __gu_hi = 0;                                  \
    if (!access_ok(__gu_p, sizeof(*__gu_p))) {                               \
        __gu_err = -EFAULT;                                                  \
    } else switch (sizeof(*__gu_p)) {                                        \
    case 1: __get_user_asm("movzbl", __gu_lo, (const uint8_t *)__gu_p, __gu_err); break;  \
    case 2: __get_user_asm("movzwl", __gu_lo, (const uint16_t *)__gu_p, __gu_err); break; \
    case 4: __get_user_asm("movl", __gu_lo, (const uint32_t *)__gu_p, __gu_err); break;   \
    case 8: __get_user_asm("movl", __gu_lo, (const uint32_t *)__gu_p, __gu_err);          \
            if (!__gu_err)                                                   \
                __get_user_asm("movl", __gu_hi, (const uint32_t *)__gu_p + 1, __gu_err);  \
            if (__gu_err) __gu_lo = 0;                                       \
            break;                                                           \
    default: __gu_err = __get_user_bad_size(); break;                        \
    }                                                                        \
    (x) = (__typeof__(*(ptr)))(__inttype(*(ptr)))                            \
          (__gu_lo | ((unsigned long long)__gu_hi << 32));                   \
    __gu_err;                                                                \
})

#define put_user(x, ptr) ({                                                  \
    __typeof__(*(ptr)) __user *__pu_p = (ptr);                               \
    __inttype(*(ptr)) __pu_v = (__inttype(*(ptr)))(x);                       \
    int __pu_err = 0;                                                        \
    if (!access_ok(__pu_p, sizeof(*__pu_p))) {                               \
        __pu_err = -EFAULT;                                                  \
    } else switch (sizeof(*__pu_p)) {                                        \
    case 1: __put_user_asm("movb %b1, %2", (uint8_t)__pu_v, (uint8_t *)__pu_p, __pu_err); break; \
    case 2: __put_user_asm("movw %w1, %2", (uint16_t)__pu_v, (uint16_t *)__pu_p, __pu_err); break; \
    case 4: __put_user_asm("movl %k1, %2", (uint32_t)__pu_v, (uint32_t *)__pu_p, __pu_err); break; \
    case 8: __put_user_asm("movl %k1, %2", (uint32_t)__pu_v, (uint32_t *)__pu_p, __pu_err); \
            if (!__pu_err)                                                   \
                __put_user_asm("movl %k1, %2",                             \
                               (uint32_t)((unsigned long long)__pu_v >> 32), \
                               (uint32_t *)__pu_p + 1, __pu_err);            \
            break;                                                           \
    default: __pu_err = __put_user_bad_size(); break;                        \
    }                                                                        \
    __pu_err;                                                                \
})

/* futex_atomic_cmpxchg_inatomic: one `lock cmpxchg` on a user word: if
 * *uaddr is oldval, store newval; either way *uval gets what was there.  0,
 * or -EFAULT (not a user address, or it faulted: the exception table; the
 * caller has faulted the page in just before, as handle_futex_death does).
 * Another CPU running the owner's user code may change the word at any
 * instant: only an atomic compare-and-store is safe (Linux's name, in its
 * <asm/futex.h>). */
static inline int futex_atomic_cmpxchg_inatomic(uint32_t *uval, uint32_t __user *uaddr,
                                                uint32_t oldval, uint32_t newval)
{
    int err = 0;
    if (!access_ok(uaddr, sizeof(*uaddr)))
        return -EFAULT;
    __asm__ volatile("1: lock; cmpxchgl %3, %2\n"
                     "2:\n"
                     " .pushsection .text.fixup, \"ax\"\n"
                     "3: movl %4, %0\n"
                     "   jmp 2b\n"
                     " .popsection\n"
                     _ASM_EXTABLE(1b, 3b)
                     : "+r"(err), "+a"(oldval), "+m"(*uaddr)
                     : "r"(newval), "i"(-EFAULT)
                     : "memory");
    *uval = oldval;
    return err;
}
/* Never defined: a get_user/put_user of an odd size fails to link. */
int __get_user_bad_size(void);
int __put_user_bad_size(void);

/* ---- page faults disabled (Linux <linux/uaccess.h>) ----
 * A per-task nesting count (current->pagefault_disabled).  While it is
 * non-zero a kernel-mode fault on a user address is NOT resolved: the
 * handler takes the exception-table fixup at once, so the copy returns
 * short instead of sleeping (the write path holds a page lock then). */
void pagefault_disable(void);
void pagefault_enable(void);
int pagefault_disabled(void);

/* Counters for tests and /proc (mm/fault.c, mm/memory.c, kernel/x86/traps.c), since boot. */
extern unsigned long page_fault_count;        /* every #PF */
extern unsigned long page_fault_fixups;       /* kernel faults ended by a fixup */
extern unsigned long page_fault_atomic_fixups;/* ... of them with faults disabled */
extern unsigned long page_fault_demand_zero;  /* new frames mapped (demand zero / ->fault) */
extern unsigned long page_fault_cow;          /* copy-on-write copies */
extern unsigned long page_fault_zero_page;    /* read faults that mapped the zero page */
extern unsigned long page_fault_zero_cow;     /* writes that replaced it by a zeroed page */
extern unsigned long page_fault_cow_reuse;    /* COW faults that just made the PTE writable */
extern unsigned long page_fault_stack_grow;   /* stack VMA extended by a fault */
extern unsigned long page_fault_sigsegv;      /* user faults that became SIGSEGV/SIGBUS */
#endif
#endif
