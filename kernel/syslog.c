/* kernel/syslog.c: syslog(2), the system call behind dmesg.  Reads the
 * kernel log ring of kernel/printk.c through log_read().
 *
 * Supported actions (Linux numbers): 0 close and 1 open (no-ops), 3 read
 * all (the newest len bytes, not consumed), 9 bytes unread (0: reads never
 * consume), 10 buffer size.  Simplification on purpose: 2 (destructive
 * read, blocks) and 4/5 (clear) are not modelled and return -EINVAL; dmesg
 * uses 3 and 10.
 */
#include <kernel.h>
#include <errno.h>
#include <slab.h>
#include <fs_syscalls.h>
#include <asm/uaccess.h>
#include <signal.h>

#define SYSLOG_ACTION_CLOSE        0
#define SYSLOG_ACTION_OPEN         1
#define SYSLOG_ACTION_READ_ALL     3
#define SYSLOG_ACTION_SIZE_UNREAD  9
#define SYSLOG_ACTION_SIZE_BUFFER 10
#define LOG_BUF_LEN 16384              /* kernel/printk.c's LOG_SIZE */

long sys_syslog(int type, char *buf, int len)
{
    switch (type) {
    case SYSLOG_ACTION_CLOSE:
    case SYSLOG_ACTION_OPEN:
        return 0;
    case SYSLOG_ACTION_SIZE_UNREAD:
        return 0;
    case SYSLOG_ACTION_SIZE_BUFFER:
        return LOG_BUF_LEN;
    case SYSLOG_ACTION_READ_ALL: {
        if (!buf || len < 0)
            return -EINVAL;
        if (len == 0)
            return 0;
        if (!access_ok(buf, len))
            return -EFAULT;
        char *k = kmalloc(LOG_BUF_LEN, GFP_KERNEL);
        if (!k)
            return -ENOMEM;
        size_t n = log_read(k, LOG_BUF_LEN);
        size_t take = n < (size_t)len ? n : (size_t)len;
        long ret = copy_to_user(buf, k + n - take, take) ? -EFAULT : (long)take;
        kfree(k);
        return ret;
    }
    default:
        return -EINVAL;
    }
}
