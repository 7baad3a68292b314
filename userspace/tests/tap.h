/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal TAP 14 producer for the host-side unit tests. */
#ifndef WBERR_TAP_H
#define WBERR_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_fail;

#define ok(cond, ...) do {						\
	int _c = !!(cond);						\
	printf("%s %d - ", _c ? "ok" : "not ok", ++tap_n);		\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!_c) {							\
		tap_fail++;						\
		printf("  ---\n  at: %s:%d\n  cond: \"%s\"\n  ...\n",	\
		       __FILE__, __LINE__, #cond);			\
	}								\
} while (0)

/* expected value first, like KUNIT_EXPECT_EQ */
#define is_int(want, got, ...) do {					\
	long long _w = (want), _g = (got);				\
	ok(_w == _g, __VA_ARGS__);					\
	if (_w != _g)							\
		printf("  # want %lld, got %lld\n", _w, _g);		\
} while (0)

#define is_str(want, got, ...) do {					\
	const char *_w = (want), *_g = (got);				\
	ok(_g && !strcmp(_w, _g), __VA_ARGS__);				\
	if (!_g || strcmp(_w, _g))					\
		printf("  # want \"%s\"\n  # got  \"%s\"\n", _w, _g ? _g : "(null)"); \
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_fail ? 1 : 0;
}

#endif
