/* fs/files_compat.h: TEMPORARY.  What the files layer uses from the proc and
 * uaccess branches of issue 4 before they are merged: the declarations,
 * exactly as those branches' headers give them.  Each block switches itself
 * off once the real header is in the tree; the file goes away after the
 * merge. */
#ifndef _FILES_COMPAT_H
#define _FILES_COMPAT_H
#include <types.h>
#include <asm/uaccess.h>

#ifndef __user                          /* include/asm/uaccess.h from `uaccess` */
#define __user
#include <asm/layout.h>
static inline int access_ok(const void __user *addr, unsigned long size)
{
    unsigned long a = (unsigned long)addr;
    return size <= TASK_SIZE && a <= TASK_SIZE - size;
}
unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);
unsigned long clear_user(void __user *to, unsigned long n);
long strncpy_from_user(char *dst, const char __user *src, long count);
#endif



#endif
