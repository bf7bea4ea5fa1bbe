/* kernel/x86/usercopy.c: copy_from_user and friends, the C side.  Layer: arch
 * memory, just above the faulting instructions of kernel/x86/copy_user.S.  These
 * wrappers check access_ok() (a user pointer must never reach kernel
 * memory) and give each routine Linux's return convention; the copies
 * themselves, and their fixups, are in the assembly file.
 * The contracts are written in <asm/uaccess.h>.
 */
#include <kernel.h>
#include <string.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <asm/uaccess.h>

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
    unsigned long left = n;
    if (access_ok(from, n))
        left = __copy_user(to, (const void *)from, n);
    if (left)       /* never hand back stale kernel bytes in the tail */
        memset((char *)to + (n - left), 0, left);
    return left;
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
    if (!access_ok(to, n))
        return n;
    return __copy_user((void *)to, from, n);
}

unsigned long clear_user(void __user *to, unsigned long n)
{
    if (!access_ok(to, n))
        return n;
    return __clear_user(to, n);
}

long strncpy_from_user(char *dst, const char __user *src, long count)
{
    unsigned long s = (unsigned long)src;
    if (count <= 0)
        return 0;
    if (s >= TASK_SIZE)
        return -EFAULT;
    /* Never read past TASK_SIZE: a string running into it faults. */
    long max = (unsigned long)count <= TASK_SIZE - s ? count : (long)(TASK_SIZE - s);
    long r = __strncpy_from_user(dst, src, max);
    if (r == max && max < count)
        return -EFAULT;
    return r;
}

long strnlen_user(const char __user *src, long n)
{
    unsigned long s = (unsigned long)src;
    if (n <= 0 || s >= TASK_SIZE)
        return 0;
    long max = (unsigned long)n <= TASK_SIZE - s ? n : (long)(TASK_SIZE - s);
    long r = __strnlen_user(src, max);
    if (r > max && max < n)
        return 0;               /* ran into TASK_SIZE without a NUL: a fault */
    return r;
}
