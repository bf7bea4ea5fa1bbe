/* include/uapi/linux/sysinfo.h: struct sysinfo, what sysinfo(2) fills
 * (Linux's layout on i386: 64 bytes).
 *
 * Part of the user/kernel ABI (include/uapi/, see docs/userland.md):
 * kernel/sys.c fills it; busybox's free and uptime read it. */
#ifndef _UAPI_LINUX_SYSINFO_H
#define _UAPI_LINUX_SYSINFO_H

#define SI_LOAD_SHIFT 16               /* loads[] are fixed point, 1 << 16 is 1.0 */

struct sysinfo {
    long uptime;                       /* seconds since boot */
    unsigned long loads[3];            /* 1, 5 and 15 minute load averages */
    unsigned long totalram;            /* in units of mem_unit bytes */
    unsigned long freeram;
    unsigned long sharedram;
    unsigned long bufferram;
    unsigned long totalswap;
    unsigned long freeswap;
    unsigned short procs;              /* number of tasks */
    unsigned short pad;
    unsigned long totalhigh;
    unsigned long freehigh;
    unsigned int mem_unit;
    char _f[20 - 2 * sizeof(long) - sizeof(int)];
};

#endif
