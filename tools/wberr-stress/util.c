// SPDX-License-Identifier: GPL-2.0
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t wbs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void wbs_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull,
			       .tv_nsec = ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void oom(void)
{
	fputs("wberr-stress: out of memory\n", stderr);
	abort();
}

void *wbs_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *wbs_xrealloc(void *p, size_t n, size_t size)
{
	p = realloc(p, (n ? n : 1) * (size ? size : 1));
	if (!p)
		oom();
	return p;
}

char *wbs_xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom();
	return p;
}

void wbs_warn(int with_errno, const char *fmt, ...)
{
	int e = errno;
	va_list ap;

	fputs("wberr-stress: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (with_errno)
		fprintf(stderr, ": %s", strerror(e));
	fputc('\n', stderr);
	errno = e;
}
