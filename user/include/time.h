/*
 * time.h - clocks and sleeping (32-bit time_t, as the classic i386
 * system calls clock_gettime(265), nanosleep(162) and gettimeofday(78) use).
 */
#ifndef _TIME_H
#define _TIME_H

#include <sys/types.h>

struct timespec {
	time_t tv_sec;
	long   tv_nsec;
};

#define CLOCK_REALTIME  0
#define CLOCK_MONOTONIC 1

int    clock_gettime(clockid_t clk, struct timespec *ts);
int    nanosleep(const struct timespec *req, struct timespec *rem);
time_t time(time_t *t);

#endif
