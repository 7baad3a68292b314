/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by every module: clock, allocation, errors, files. */
#ifndef WBS_UTIL_H
#define WBS_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WBS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* CLOCK_MONOTONIC in ns: the same clock as trace_clock "mono" and
 * ktime_get_ns() in the dm-wberr fault log. */
uint64_t wbs_now_ns(void);
void wbs_sleep_ns(uint64_t ns);

void *wbs_xcalloc(size_t n, size_t size);
void *wbs_xrealloc(void *p, size_t n, size_t size);
char *wbs_xstrdup(const char *s);

/* Prints "wberr-stress: <msg>" (+ ": strerror(errno)" when @with_errno). */
void wbs_warn(int with_errno, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));


#endif
