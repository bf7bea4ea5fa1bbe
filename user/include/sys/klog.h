/*
 * sys/klog.h - the kernel log through syslog(2) (number 103).
 * klogctl(3, buf, len) copies up to len bytes of the log into buf.
 */
#ifndef _SYS_KLOG_H
#define _SYS_KLOG_H

#define SYSLOG_ACTION_READ_ALL    3
#define SYSLOG_ACTION_SIZE_BUFFER 10

int klogctl(int type, char *buf, int len);

#endif
