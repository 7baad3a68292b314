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

FILE *wbs_fopen_in(const char *dir, const char *name, const char *mode)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, mode);
}

void wbs_buf_add(struct wbs_buf *b, const char *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = wbs_xrealloc(b->s, b->cap, 1);
	}
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void wbs_buf_printf(struct wbs_buf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		wbs_buf_add(b, tmp, (size_t)n);
		return;
	}
	{
		char *big = wbs_xcalloc((size_t)n + 1, 1);

		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		wbs_buf_add(b, big, (size_t)n);
		free(big);
	}
}

void wbs_buf_free(struct wbs_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
